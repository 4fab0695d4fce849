#!/usr/bin/python3
# The cudacompare element (backend=cpu) against FFmpeg's psnr and ssim
# filters on the same frames: its stats-file lines (stats-format
# ffmpeg-psnr / ffmpeg-ssim) must equal FFmpeg's stats_file lines, and its
# compare-summary the numbers of FFmpeg's end-of-stream lines.  Frames:
# compare_cases.py's natural images with real distortions (quick set:
# 8-bit and 10-bit 4:2:0, x264, gray), plus packed RGB (FFmpeg compares it
# as gbrp and names the planes r g b).
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', '..', 'compare'))
import compare_cases as cc                           # noqa: E402

cc.require("gi")
import gi                                            # noqa: E402

gi.require_version("Gst", "1.0")
from gi.repository import Gst                        # noqa: E402

# FFmpeg pix_fmt -> (GStreamer format, rawvideoparse format, bytes/sample,
# planes as (width divisor, height divisor) or "packed")
FORMATS = {
    "yuv420p": ("I420", "i420", 1, [(1, 1), (2, 2), (2, 2)]),
    "yuv420p10le": ("I420_10LE", "i420-10le", 2, [(1, 1), (2, 2), (2, 2)]),
    "gray": ("GRAY8", "gray8", 1, [(1, 1)]),
    "rgb24": ("RGB", "rgb", 3, "packed"),
}


def layout(fmt, w, h):
    """rawvideoparse's plane-strides, plane-offsets and frame-size for the
    tightly packed frames FFmpeg reads."""
    _, _, bps, planes = FORMATS[fmt]
    if planes == "packed":
        return [w * bps], [0], w * h * bps
    strides, offsets, off = [], [], 0
    for dx, dy in planes:
        pw, ph = (w + dx - 1) // dx, (h + dy - 1) // dy
        strides.append(pw * bps)
        offsets.append(off)
        off += pw * bps * ph
    return strides, offsets, off


def source(path, fmt, w, h):
    strides, offsets, size = layout(fmt, w, h)
    return ("filesrc location=%s blocksize=%d ! rawvideoparse width=%d "
            "height=%d format=%s framerate=25/1 plane-strides=\"<%s>\" "
            "plane-offsets=\"<%s>\" frame-size=%d"
            % (path, size, w, h, FORMATS[fmt][1],
               ",".join(map(str, strides)), ",".join(map(str, offsets)),
               size))


def run_element(fmt, w, h, ref, dist, stats, stats_format):
    """Runs cudacompare; returns the compare-summary structure."""
    pipe = Gst.parse_launch(
        "cudacompare name=c backend=cpu stats-file=%s stats-format=%s ! "
        "fakesink %s ! c.ref_sink %s ! c.dist_sink"
        % (stats, stats_format, source(ref, fmt, w, h),
           source(dist, fmt, w, h)))
    bus = pipe.get_bus()
    pipe.set_state(Gst.State.PLAYING)
    summary = None
    while True:
        msg = bus.timed_pop_filtered(
            60 * Gst.SECOND, Gst.MessageType.EOS | Gst.MessageType.ERROR |
            Gst.MessageType.ELEMENT)
        if msg is None:
            raise RuntimeError("timeout")
        if msg.type == Gst.MessageType.ERROR:
            raise RuntimeError(msg.parse_error()[0].message)
        if msg.type == Gst.MessageType.EOS:
            break
        s = msg.get_structure()
        if s.get_name() == "compare-summary":
            summary = s.copy()
    pipe.set_state(Gst.State.NULL)
    with open(stats) as f:
        return summary, [line.rstrip("\n") for line in f]


def ffmpeg(fmt, w, h, ref, dist, tmp):
    """FFmpeg's stats_file lines and its end-of-stream lines."""
    p, s = os.path.join(tmp, "ff-psnr.log"), os.path.join(tmp, "ff-ssim.log")
    raw = ["-f", "rawvideo", "-pix_fmt", fmt, "-s", "%dx%d" % (w, h)]
    run = subprocess.run(
        ["ffmpeg", "-nostdin", "-v", "info", "-filter_threads", "1"] + raw +
        ["-i", dist] + raw + ["-i", ref, "-lavfi",
                              "[0][1]psnr=stats_file=%s;"
                              "[0][1]ssim=stats_file=%s" % (p, s),
                              "-f", "null", "-"],
        check=True, capture_output=True, text=True)
    with open(p) as f:
        pl = [line.rstrip("\n") for line in f]
    with open(s) as f:
        sl = [line.rstrip("\n") for line in f]
    psnr_end = re.search(r"PSNR (.*)", run.stderr).group(1)
    ssim_end = re.search(r"SSIM (.*)", run.stderr).group(1)
    return pl, sl, psnr_end, ssim_end


def check_summary(summary, fmt, psnr_end, ssim_end):
    """Our summary printed as FFmpeg prints its end-of-stream lines."""
    names = "rgb" if fmt == "rgb24" else ("y" if fmt == "gray" else "yuv")
    ours = " ".join("%s:%f" % (c, summary.get_value("ffmpeg-psnr-" + c))
                    for c in names)
    ours += " average:%f min:%f max:%f" % tuple(
        summary.get_value("ffmpeg-psnr-" + k)
        for k in ("average", "min", "max"))
    errors = []
    if ours != psnr_end.strip():
        errors.append("PSNR summary: ours %r, ffmpeg %r" % (ours, psnr_end))
    # SSIM: FFmpeg's per-plane and All are means of per-frame values
    want = dict(re.findall(r"(\w+):([0-9.]+)", ssim_end))
    for c in names.upper():
        got = "%f" % summary.get_value("ssim-%s-mean" % c.lower())
        if got != want.get(c):
            errors.append("SSIM %s mean: ours %s, ffmpeg %s"
                          % (c, got, want.get(c)))
    got = "%f" % summary.get_value("ssim-all-mean")
    if got != want.get("All"):
        errors.append("SSIM All mean: ours %s, ffmpeg %s"
                      % (got, want.get("All")))
    # and its dB are of those means (ffmpeg-ssim-*), not the mean dB
    ours = " ".join("%s:%f (%f)" % (c.upper(),
                                     summary.get_value("ffmpeg-ssim-" + c),
                                     summary.get_value("ffmpeg-ssim-%s-db"
                                                       % c))
                    for c in names)
    ours += " All:%f (%f)" % (summary.get_value("ffmpeg-ssim-all"),
                              summary.get_value("ffmpeg-ssim-all-db"))
    if ours != ssim_end.strip():
        errors.append("SSIM summary: ours %r, ffmpeg %r" % (ours, ssim_end))
    return errors


def rgb_case(tmp):
    """Packed RGB: photographs and their JPEG (q 8) or blurred versions."""
    w, h = 319, 241
    refs = [cc.rgb_image(n, w, h) for n in cc.IMAGES]
    dists = [cc.jpeg(r, 8, tmp) for r in refs[:2]] + \
        [cc.blur(r, 1.5) for r in refs[2:]]
    rp, dp = os.path.join(tmp, "ref.rgb"), os.path.join(tmp, "dist.rgb")
    with open(rp, "wb") as f:
        for r in refs:
            f.write(r.tobytes())
    with open(dp, "wb") as f:
        for d in dists:
            f.write(d.tobytes())
    return ("jpeg+blur/rgb24/%dx%d" % (w, h), "rgb24", w, h, rp, dp)


def main():
    if not shutil.which("ffmpeg"):
        print("skipped: ffmpeg missing")
        return 77
    Gst.init(None)
    if not Gst.ElementFactory.find("cudacompare") or \
            not Gst.ElementFactory.find("rawvideoparse"):
        print("FAIL: cudacompare or rawvideoparse missing")
        return 1
    failures = checked = 0
    with tempfile.TemporaryDirectory() as tmp:
        cases = [c for c in cc.cases(tmp, quick=True) if c[1] in FORMATS]
        cases.append(rgb_case(tmp))
        for name, fmt, w, h, ref, dist in cases:
            pl, sl, psnr_end, ssim_end = ffmpeg(fmt, w, h, ref, dist, tmp)
            stats = os.path.join(tmp, "ours.log")
            summary, ours_p = run_element(fmt, w, h, ref, dist, stats,
                                          "ffmpeg-psnr")
            _, ours_s = run_element(fmt, w, h, ref, dist, stats,
                                    "ffmpeg-ssim")
            errors = []
            for kind, ours, theirs in (("psnr", ours_p, pl),
                                       ("ssim", ours_s, sl)):
                if len(ours) != len(theirs):
                    errors.append("%s: %d lines, ffmpeg %d"
                                  % (kind, len(ours), len(theirs)))
                for a, b in zip(ours, theirs):
                    checked += 1
                    if a != b:
                        errors.append("%s:\n  ours   %r\n  ffmpeg %r"
                                      % (kind, a, b))
            errors += check_summary(summary, fmt, psnr_end, ssim_end)
            if errors:
                failures += 1
                print("FAIL %s\n  %s" % (name, "\n  ".join(errors)))
            else:
                print("ok %-28s %s" % (name, ours_s[0]))
    print("%d stats lines compared with ffmpeg, %d cases failed"
          % (checked, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
