#!/usr/bin/python3
# CPU cost per 1080p frame of cudasharpness (backend=cpu, every classical
# metric), GStreamer's videoanalyse and FFmpeg's blurdetect, on the same
# ring of natural frames in the same run; writes docs/performance/performance-cpu.md.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# GStreamer elements: appsrc ! ELEMENT ! fakesink, buffers made in appsrc's
# need-data callback (outside the timed span), pad probes on the element's
# sink and src pads timing each buffer's trip through it in thread CPU time
# (immune to a busy machine) and wall time; the same probes on `identity`
# measure the probes' own cost, which is subtracted.  FFmpeg: CPU and wall
# time of `-vf blurdetect` minus `-vf null` over the same frames, divided
# by the frame count.
#
# Usage: GST_PLUGIN_PATH_1_0=build/gst /usr/bin/python3 \
#          tests/oracle/cpu_peers.py [--frames 120] [--output FILE]

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import warnings

# tests/common: the shared modules (element runner, natural images,
# machine description).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'common'))
import scaffold  # noqa: E402,F401

import numpy as np

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from skimage.transform import resize

import classical_oracle as oracle
import element_runner
import machine_info
import natural_images as ni

Gst = element_runner.Gst

WIDTH, HEIGHT = 1920, 1080
RING_NAMES = ("camera", "brick", "grass", "gravel", "astronaut", "coffee",
              "chelsea", "rocket")
WARMUP = 5


def ring_luma():
    """The ring's 1080p gray frames: each image's gray version stretched to
    1920x1080 (bilinear, no anti-aliasing) and rounded to uint8."""
    out = []
    for name in RING_NAMES:
        g = resize(ni.gray_of(name).astype(np.float64), (HEIGHT, WIDTH),
                   order=1, anti_aliasing=False, preserve_range=True)
        out.append(np.clip(np.rint(g), 0, 255).astype(np.uint8))
    return out


def frame_bytes(luma, fmt):
    """Packed GRAY8 or I420 (neutral chroma: every peer reads luma only)."""
    if fmt == "GRAY8":
        return luma.tobytes()
    chroma = bytes([128]) * ((WIDTH // 2) * (HEIGHT // 2) * 2)
    return luma.tobytes() + chroma


class ProbeTimer:
    """Wall and thread-CPU time of every buffer from @element's sink pad
    to its src pad (both probes run in the one streaming thread, so the
    CPU time is the element's own, whatever else the machine runs)."""

    def __init__(self, element):
        self.t_in = None
        self.wall = []
        self.cpu = []
        element.get_static_pad("sink").add_probe(
            Gst.PadProbeType.BUFFER, self._enter)
        element.get_static_pad("src").add_probe(
            Gst.PadProbeType.BUFFER, self._leave)

    def _enter(self, pad, info):
        self.t_in = (time.perf_counter_ns(), time.thread_time_ns())
        return Gst.PadProbeReturn.OK

    def _leave(self, pad, info):
        wall, cpu = time.perf_counter_ns(), time.thread_time_ns()
        self.wall.append(wall - self.t_in[0])
        self.cpu.append(cpu - self.t_in[1])
        return Gst.PadProbeReturn.OK


def time_element(element_desc, fmt, ring, n_frames):
    """(CPU, wall) median ms per frame of @element_desc over @n_frames
    (after WARMUP)."""
    caps = "video/x-raw,format=%s,width=%d,height=%d,framerate=30/1" % (
        fmt, WIDTH, HEIGHT)
    pipeline = Gst.parse_launch(
        "appsrc name=src format=time caps=%s ! %s name=timed ! "
        "fakesink sync=false" % (caps, element_desc))
    frames = [frame_bytes(luma, fmt) for luma in ring]
    total = WARMUP + n_frames
    pushed = [0]
    src = pipeline.get_by_name("src")

    def need_data(appsrc, length):
        k = pushed[0]
        if k == total:
            appsrc.emit("end-of-stream")
            return
        buf = Gst.Buffer.new_wrapped(frames[k % len(frames)])
        buf.pts = k * Gst.SECOND // 30
        buf.duration = Gst.SECOND // 30
        pushed[0] += 1
        appsrc.emit("push-buffer", buf)

    src.connect("need-data", need_data)
    timer = ProbeTimer(pipeline.get_by_name("timed"))
    pipeline.set_state(Gst.State.PLAYING)
    msg = pipeline.get_bus().timed_pop_filtered(
        600 * Gst.SECOND, Gst.MessageType.ERROR | Gst.MessageType.EOS)
    pipeline.set_state(Gst.State.NULL)
    if msg is None or msg.type != Gst.MessageType.EOS:
        detail = msg.parse_error()[0].message if msg else "timeout"
        raise RuntimeError("%s: %s" % (element_desc, detail))
    if len(timer.cpu) != WARMUP + n_frames:
        raise RuntimeError("%s: %d timed frames" % (element_desc,
                                                    len(timer.cpu)))
    return (statistics.median(timer.cpu[WARMUP:]) / 1e6,
            statistics.median(timer.wall[WARMUP:]) / 1e6)


def time_ffmpeg(ffmpeg, path, pix_fmt, n_frames, vf, repeats=3):
    """(CPU, wall) seconds of the fastest of @repeats runs of @n_frames
    raw frames through @vf; CPU is the child's user + system time."""
    ring = len(RING_NAMES)
    loops = -(-n_frames // ring) - 1
    cmd = [ffmpeg, "-nostdin", "-v", "error", "-threads", "1",
           "-filter_threads", "1", "-stream_loop", str(loops), "-f",
           "rawvideo", "-pix_fmt", pix_fmt, "-s", "%dx%d" % (WIDTH, HEIGHT),
           "-framerate", "30", "-i", path, "-vf", vf, "-frames:v",
           str(n_frames), "-f", "null", "-"]
    runs = []
    for _ in range(repeats):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True)
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime
               + after.ru_stime - before.ru_stime)
        runs.append((cpu, wall))
    return min(runs)


def main():
    parser = argparse.ArgumentParser(
        description="CPU ms per 1080p frame: cudasharpness vs peers.")
    parser.add_argument("--frames", type=int, default=120)
    # blurdetect costs about a tenth of a second per 1080p frame.
    parser.add_argument("--ffmpeg-frames", type=int, default=48)
    parser.add_argument("--ffmpeg", default=shutil.which("ffmpeg"))
    parser.add_argument("--output", default=os.path.join(
        machine_info.SOURCE_ROOT, "docs", "performance-cpu.md"))
    args = parser.parse_args()
    element_runner.require_element()
    for factory in ("videoanalyse", "identity", "appsrc"):
        if Gst.ElementFactory.find(factory) is None:
            print("%s not found" % factory)
            return 1

    ring = ring_luma()
    n = args.frames
    load_before = os.getloadavg()
    rows = []  # (what, format, CPU ms per frame, wall ms per frame)

    def report(what, fmt, cpu, wall):
        rows.append((what, fmt, cpu, wall))
        print("%-42s %-6s CPU %8.3f  wall %8.3f ms/frame"
              % (what, fmt, cpu, wall), flush=True)

    probe = {fmt: time_element("identity", fmt, ring, n)
             for fmt in ("GRAY8", "I420")}
    for fmt, (cpu, wall) in probe.items():
        print("probe overhead (identity) %-6s CPU %.3f wall %.3f ms"
              % (fmt, cpu, wall), flush=True)
    jobs = [("cudasharpness backend=cpu metric=%s" % m, fmt,
             "cudasharpness backend=cpu metric=%s" % m)
            for fmt in ("GRAY8", "I420") for m in oracle.METRICS]
    jobs.append(("videoanalyse (luma mean + variance)", "I420",
                 "videoanalyse"))
    for what, fmt, desc in jobs:
        cpu, wall = time_element(desc, fmt, ring, n)
        report(what, fmt, max(cpu - probe[fmt][0], 0.0),
               max(wall - probe[fmt][1], 0.0))

    if args.ffmpeg:
        nf = args.ffmpeg_frames
        with tempfile.TemporaryDirectory(prefix="sharpness-peers-") as tmp:
            for fmt, pix_fmt in (("GRAY8", "gray"), ("I420", "yuv420p")):
                path = os.path.join(tmp, "ring-%s.raw" % fmt)
                with open(path, "wb") as f:
                    for luma in ring:
                        f.write(frame_bytes(luma, fmt))
                base = time_ffmpeg(args.ffmpeg, path, pix_fmt, nf, "null")
                bd = time_ffmpeg(args.ffmpeg, path, pix_fmt, nf, "blurdetect")
                report("ffmpeg blurdetect (defaults)", fmt,
                       *(max(b - a, 0.0) * 1e3 / nf for a, b in zip(base,
                                                                    bd)))
    load_after = os.getloadavg()

    plugin_dir = os.environ.get("GST_PLUGIN_PATH_1_0", "?")
    buildtype = machine_info.meson_buildtype(os.path.dirname(
        os.path.abspath(plugin_dir)))
    build = "`%s` (meson buildtype %s)" % (plugin_dir, buildtype or "?")
    doc = ["<!-- Generated by tests/oracle/cpu_peers.py; edit the script, "
           "not this file. -->", "",
           "# CPU cost per frame: classical metrics and peers", "",
           "Measured on %s; plugin from %s." % (machine_info.describe(
               Gst.version_string(),
               machine_info.ffmpeg_version(args.ffmpeg) if args.ffmpeg
               else "no ffmpeg"), build), "",
           "Frames: a ring of %d natural 1920x1080 frames (scikit-image "
           "%s, gray versions stretched bilinearly to 1080p), I420 with "
           "neutral chroma. %d frames per GStreamer row after %d warm-up "
           "frames, all rows in one run." % (
               len(RING_NAMES), ", ".join(RING_NAMES), n, WARMUP), "",
           "GStreamer rows: `appsrc ! ELEMENT ! fakesink`; buffer probes "
           "on the element's sink and src pads bracket its whole chain "
           "function (map, metric, meta, message). **CPU** is the median "
           "over frames of the streaming thread's CPU time "
           "(`CLOCK_THREAD_CPUTIME_ID`) between the two probes, which "
           "other processes on the machine do not inflate; **wall** is "
           "the median elapsed time. The same probes around `identity` "
           "(%s) are subtracted. FFmpeg rows: `ffmpeg -threads 1 "
           "-filter_threads 1 -f rawvideo ... -vf blurdetect -f null -` "
           "minus the same with `-vf null`, child user + system CPU time "
           "and wall time, fastest of 3 runs of %d frames, per frame."
           % (", ".join("%s CPU %.3f / wall %.3f ms" % (f, c, w)
                        for f, (c, w) in probe.items()),
              args.ffmpeg_frames), "",
           "Load average (1, 5, 15 min) %s before and %s after the run%s."
           % ("/".join("%.1f" % v for v in load_before),
              "/".join("%.1f" % v for v in load_after),
              "" if max(load_before[0], load_after[0]) < 1.5 else
              ": the machine was busy, so trust the CPU column over the "
              "wall column"), "",
           "| element / filter | format | CPU ms/frame | frames/s (CPU) "
           "| wall ms/frame |",
           "|---|---|---:|---:|---:|"]
    for what, fmt, cpu, wall in rows:
        fps = "%.0f" % (1e3 / cpu) if cpu > 0 else "n/a"
        doc.append("| %s | %s | %.3f | %s | %.3f |" % (what, fmt, cpu, fps,
                                                       wall))
    doc += ["", "videoanalyse computes the luma mean and variance only; "
            "blurdetect is FFmpeg's Canny-based edge-width blur estimate "
            "(higher = blurrier). Neither is the same computation as ours: "
            "the rows place our cost next to the analysers a GStreamer or "
            "FFmpeg user would otherwise reach for.", ""]
    with open(args.output, "w") as f:
        f.write("\n".join(doc))
    print("wrote %s" % args.output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
