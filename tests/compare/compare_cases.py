#!/usr/bin/python3
# Frame pairs for the compare tests: scikit-image's photographs (bundled,
# no download) with real distortions made here: JPEG at several qualities,
# x264 at several CRFs (both through ffmpeg), Gaussian blur, noise and a
# one-pixel shift; 8-bit 4:2:0 and 10-bit (yuv420p10le), odd sizes.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import shutil
import subprocess
import sys
import warnings


def require(*modules):
    """Exit 77 (meson: skipped) when a module is missing."""
    for m in modules:
        try:
            __import__(m)
        except ImportError:
            print("skipped: %s missing" % m)
            sys.exit(77)


require("numpy", "scipy", "skimage")

import numpy as np                                   # noqa: E402
from scipy import ndimage                            # noqa: E402

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from skimage import data                         # noqa: E402

IMAGES = ("astronaut", "coffee", "chelsea", "rocket")
FORMATS = {"yuv420p": (8, 2), "yuv420p10le": (10, 2), "gray": (8, 0),
           "gray10le": (10, 0)}


def have_ffmpeg():
    return shutil.which("ffmpeg") is not None


def rgb_image(name, w, h):
    img = getattr(data, name)()
    if img.ndim == 2:
        img = np.stack([img] * 3, axis=-1)
    img = img[:h, :w, :3]
    # smaller photographs (chelsea is 451 wide) are extended by their edge
    img = np.pad(img, ((0, h - img.shape[0]), (0, w - img.shape[1]), (0, 0)),
                 mode="edge")
    return np.ascontiguousarray(img)


def to_planes(rgb, fmt):
    """BT.601 limited-range Y'CbCr of @rgb (uint8), rounded, as the list of
    planes of @fmt (chroma: 2x2 means, odd sizes rounded up)."""
    depth, sub = FORMATS[fmt]
    x = rgb.astype(np.float64)
    r, g, b = x[..., 0], x[..., 1], x[..., 2]
    y = 16 + (65.481 * r + 128.553 * g + 24.966 * b) / 255.0
    cb = 128 + (-37.797 * r - 74.203 * g + 112.0 * b) / 255.0
    cr = 128 + (112.0 * r - 93.786 * g - 18.214 * b) / 255.0
    scale = float(1 << (depth - 8))
    dtype = np.uint8 if depth == 8 else np.uint16

    def q(p):
        return np.clip(np.rint(p * scale), 0, (1 << depth) - 1).astype(dtype)

    if sub == 0:
        return [q(y)]
    h, w = y.shape
    planes = [q(y)]
    for c in (cb, cr):
        c = np.pad(c, ((0, h % 2), (0, w % 2)), mode="edge")
        c = (c[0::2, 0::2] + c[1::2, 0::2] + c[0::2, 1::2] + c[1::2, 1::2]) / 4
        planes.append(q(c))
    return planes


def write_frames(path, frames):
    with open(path, "wb") as f:
        for planes in frames:
            for p in planes:
                f.write(p.astype(p.dtype.newbyteorder("<")).tobytes())


def read_frames(path, fmt, w, h):
    depth, sub = FORMATS[fmt]
    dtype = np.dtype("<u2") if depth > 8 else np.uint8
    shapes = [(h, w)]
    if sub:
        shapes += [((h + 1) // 2, (w + 1) // 2)] * 2
    raw = np.fromfile(path, dtype=dtype)
    per = sum(a * b for a, b in shapes)
    frames = []
    for i in range(len(raw) // per):
        chunk, off, planes = raw[i * per:(i + 1) * per], 0, []
        for s in shapes:
            planes.append(chunk[off:off + s[0] * s[1]].reshape(s))
            off += s[0] * s[1]
        frames.append(planes)
    return frames


def ffmpeg(*args):
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y"] + list(args),
                   check=True)


def jpeg(rgb, quality, tmp):
    """@rgb through a JPEG encoder (ffmpeg's mjpeg, -q:v @quality)."""
    h, w = rgb.shape[:2]
    src, out = os.path.join(tmp, "j.rgb"), os.path.join(tmp, "j.jpg")
    rgb.tofile(src)
    ffmpeg("-f", "rawvideo", "-pix_fmt", "rgb24", "-s", "%dx%d" % (w, h),
           "-i", src, "-frames:v", "1", "-q:v", str(quality), out)
    back = os.path.join(tmp, "j2.rgb")
    ffmpeg("-i", out, "-f", "rawvideo", "-pix_fmt", "rgb24", back)
    return np.fromfile(back, dtype=np.uint8).reshape(h, w, 3)


def jpegs(rgbs, quality, tmp):
    """jpeg() of each of @rgbs (all of one size), with one encoder and one
    decoder run for them all: MJPEG codes each frame alone at -q:v
    @quality, so each comes back as jpeg() gives it (process start-ups
    were most of the cases' cost)."""
    h, w = rgbs[0].shape[:2]
    src, out = os.path.join(tmp, "j.rgb"), os.path.join(tmp, "j.mjpeg")
    np.concatenate([r.reshape(-1) for r in rgbs]).tofile(src)
    ffmpeg("-f", "rawvideo", "-pix_fmt", "rgb24", "-s", "%dx%d" % (w, h),
           "-i", src, "-q:v", str(quality), "-f", "mjpeg", out)
    back = os.path.join(tmp, "j2.rgb")
    ffmpeg("-f", "mjpeg", "-i", out, "-f", "rawvideo", "-pix_fmt", "rgb24",
           back)
    return list(np.fromfile(back, dtype=np.uint8).reshape(len(rgbs), h, w, 3))


def blur(rgb, sigma):
    x = ndimage.gaussian_filter(rgb.astype(np.float64), (sigma, sigma, 0),
                                mode="reflect")
    return np.clip(np.rint(x), 0, 255).astype(np.uint8)


def noise(rgb, sigma, seed):
    rng = np.random.default_rng(seed)
    x = rgb.astype(np.float64) + rng.normal(0, sigma, rgb.shape)
    return np.clip(np.rint(x), 0, 255).astype(np.uint8)


def shift(rgb):
    """One pixel to the right, the first column repeated."""
    out = rgb.copy()
    out[:, 1:] = rgb[:, :-1]
    return out


def x264(ref_path, fmt, w, h, crf, tmp):
    """The frames of @ref_path through libx264 at @crf, decoded back."""
    enc, out = os.path.join(tmp, "x.mkv"), os.path.join(tmp, "x.yuv")
    ffmpeg("-f", "rawvideo", "-pix_fmt", fmt, "-s", "%dx%d" % (w, h),
           "-r", "25", "-i", ref_path, "-c:v", "libx264", "-preset",
           "veryfast", "-crf", str(crf), enc)
    ffmpeg("-i", enc, "-f", "rawvideo", "-pix_fmt", fmt, out)
    return out


def cases(tmp, quick=False):
    """[(name, fmt, w, h, ref_path, dist_path)]: every frame of a case has
    the same size; files are raw planar frames."""
    out = []
    # luma or chroma widths with (w >> 2) % 4 == 2 exercise the tail of
    # FFmpeg's SSE4 row sum (the case FFmpeg 5.1 got wrong)
    # 511 x 393: ssim.m downsamples it by 2
    sizes = [(511, 393)] if quick else [(449, 299), (383, 257), (457, 299),
                                        (463, 263)]
    jpegged = {}
    for fmt in ("yuv420p", "yuv420p10le"):
        for (w, h) in sizes:
            refs = [rgb_image(n, w, h) for n in IMAGES]
            ref_planes = [to_planes(r, fmt) for r in refs]
            ref_path = os.path.join(tmp, "ref-%s-%dx%d.yuv" % (fmt, w, h))
            write_frames(ref_path, ref_planes)
            dists = {
                "blur1.5": [blur(r, 1.5) for r in refs],
                "noise5": [noise(r, 5.0, i) for i, r in enumerate(refs)],
                "shift1": [shift(r) for r in refs],
            }
            if have_ffmpeg():
                for q in (2, 8, 20):
                    # RGB distortions: made once for both formats.
                    if (w, h, q) not in jpegged:
                        jpegged[w, h, q] = jpegs(refs, q, tmp)
                    dists["jpeg-q%d" % q] = jpegged[w, h, q]
            for dname, drgb in dists.items():
                dpath = os.path.join(tmp, "dist-%s-%s-%dx%d.yuv"
                                     % (dname, fmt, w, h))
                write_frames(dpath, [to_planes(d, fmt) for d in drgb])
                out.append(("%s/%s/%dx%d" % (dname, fmt, w, h), fmt, w, h,
                            ref_path, dpath))
        if have_ffmpeg():
            # x264 needs even sizes in 4:2:0
            w, h = 448, 298
            refs = [rgb_image(n, w, h) for n in IMAGES]
            ref_path = os.path.join(tmp, "ref-%s-%dx%d.yuv" % (fmt, w, h))
            write_frames(ref_path, [to_planes(r, fmt) for r in refs])
            for crf in (18, 30, 42):
                try:
                    enc = x264(ref_path, fmt, w, h, crf, tmp)
                except subprocess.CalledProcessError:
                    continue
                dpath = os.path.join(tmp, "dist-x264-crf%d-%s.yuv" % (crf, fmt))
                os.replace(enc, dpath)
                out.append(("x264-crf%d/%s/%dx%d" % (crf, fmt, w, h), fmt,
                            w, h, ref_path, dpath))
    # luma only, odd
    w, h = 301, 211
    refs = [rgb_image(n, w, h) for n in IMAGES]
    ref_path = os.path.join(tmp, "ref-gray.yuv")
    write_frames(ref_path, [to_planes(r, "gray") for r in refs])
    dpath = os.path.join(tmp, "dist-gray.yuv")
    write_frames(dpath, [to_planes(blur(r, 2.0), "gray") for r in refs])
    out.append(("blur2/gray/%dx%d" % (w, h), "gray", w, h, ref_path, dpath))
    return out


def run_tool(fmt, w, h, ref, dist):
    """compare-tool's output: {kind: {frame: [fields]}}."""
    tool = os.environ.get("COMPARE_TOOL")
    if not tool:
        build = os.environ.get("SHARPNESS_BUILD_ROOT", "build")
        tool = os.path.join(build, "tests", "compare", "compare-tool")
    res = subprocess.run([tool, str(w), str(h), fmt, ref, dist], check=True,
                         capture_output=True, text=True).stdout
    out = {}
    for line in res.splitlines():
        kind, n, rest = line.split(" ", 2)
        out.setdefault(kind, {})[int(n)] = rest
    return out
