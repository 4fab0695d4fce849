#!/usr/bin/python3
# Reads the GstCompareMeta that cudacompare attaches to every compared
# distorted frame, from an appsink, and prints one line per frame:
#
#   frame=0 psnr-avg=34.123456 ssim-all=0.951234
#
#   compare-meta.py [--frames N] [--quality Q] [--metrics psnr+ssim]
#                   [--backend auto|cpu|cuda] [--timeout S]
#                   [REFERENCE DISTORTED]
#
# With two files (or URIs) it compares DISTORTED against REFERENCE (both
# decoded and converted to I420, DISTORTED scaled to REFERENCE's size);
# without, a test pattern against its JPEG encode at quality Q.  A metric
# asked for but not computed for a frame gets a line on stderr with the
# element's warning that says why (on a machine without a GPU,
# backend=auto leaves MS-SSIM out).  Exit status: 0 when every frame has
# every metric; 1 after an error (no such file, no decoder, no GPU for
# --backend cuda), printed as one line on stderr, or when a metric was
# missing from a frame.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
import argparse
import sys
import time

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstPbutils", "1.0")
from gi.repository import GLib, Gst, GstPbutils  # noqa: E402

from sharpness_meta import (MS_SSIM, PSNR_AVG, SSIM_ALL,  # noqa: E402
                            read_compare_meta)

# How long one wait for a sample may last before the bus is read again.
POLL = Gst.SECOND // 10
# Each metric of --metrics: the field printed for it, and its name.
METRICS = {"psnr": (PSNR_AVG, "PSNR"), "ssim": (SSIM_ALL, "SSIM"),
           "ms-ssim": (MS_SSIM, "MS-SSIM")}


class PipelineError(Exception):
    pass


def describe(msg):
    """One line for an ERROR or WARNING message: the element that posted
    it, the message, and the debug string's last line when it has more
    than its source location ("No such file ...", "Missing decoder: ...")."""
    err, dbg = (msg.parse_error() if msg.type == Gst.MessageType.ERROR
                else msg.parse_warning())
    factory = getattr(msg.src, "get_factory", lambda: None)()
    who = factory.get_name() if factory else msg.src.get_name()
    lines = (dbg or "").strip().splitlines()
    if len(lines) < 2:
        return f"{who}: {err.message}"
    detail = lines[-1].strip()
    if len(detail) > 200:  # caps with codec headers run to kilobytes
        detail = detail[:200] + "..."
    return f"{who}: {err.message} ({detail})"


def samples(pipeline, sink, timeout, on_warning):
    """Yields the appsink's samples until the end of the stream.  Raises
    PipelineError on an ERROR message, or after @timeout seconds without a
    sample.  A failed pipeline posts an ERROR and sends nothing more, so a
    plain pull-sample would wait for ever: each wait here is bounded, and
    the bus is read after it."""
    bus = pipeline.get_bus()
    deadline = time.monotonic() + timeout
    while True:
        sample = sink.emit("try-pull-sample", POLL)
        # A message posted before the sample was sent (the element's
        # warning about that frame) is on the bus by now.
        while msg := bus.pop_filtered(Gst.MessageType.ERROR |
                                      Gst.MessageType.WARNING):
            if msg.type == Gst.MessageType.ERROR:
                raise PipelineError(describe(msg))
            on_warning(msg)
        if sample is not None:
            deadline = time.monotonic() + timeout
            yield sample
        elif sink.get_property("eos"):
            return
        elif time.monotonic() > deadline:
            raise PipelineError(f"no frame for {timeout:g} s (a stalled "
                                "pipeline? --timeout sets the limit)")


def uri(path):
    return path if Gst.uri_is_valid(path) else Gst.filename_to_uri(path)


def video_size(uri, timeout):
    """(width, height) of the first video stream at @uri, or None when it
    cannot be found out (the pipeline then reports why)."""
    try:
        discoverer = GstPbutils.Discoverer.new(int(timeout * Gst.SECOND))
        streams = discoverer.discover_uri(uri).get_video_streams()
    except GLib.Error:
        return None
    if not streams:
        return None
    return streams[0].get_width(), streams[0].get_height()


def main():
    parser = argparse.ArgumentParser(description="Print the PSNR/SSIM meta "
                                     "cudacompare attaches to every frame")
    parser.add_argument("--frames", type=int, default=10)
    parser.add_argument("--quality", type=int, default=50)
    parser.add_argument("--metrics", default="psnr+ssim")
    parser.add_argument("--backend", default="auto")
    parser.add_argument("--timeout", type=float, default=30.0,
                        help="seconds to wait for a frame before giving up "
                        "(default 30)")
    parser.add_argument("files", nargs="*",
                        help="REFERENCE DISTORTED (default: a test pattern "
                        "and its JPEG encode)")
    args = parser.parse_args()
    if len(args.files) not in (0, 2):
        parser.error("give a reference and a distorted file, or none")

    Gst.init(None)
    compare = (f"cudacompare name=c metrics={args.metrics} "
               f"backend={args.backend} ! appsink name=sink sync=false")
    if args.files:
        ref, dist = map(uri, args.files)
        # cudacompare compares frames of one size: the distorted stream is
        # scaled to the reference's, which has to be known before the
        # pipeline negotiates.
        size = video_size(ref, args.timeout)
        scale = ",width={},height={}".format(*size) if size else ""
        description = (
            f'{compare} uridecodebin uri="{ref}" ! videoconvert ! '
            f'video/x-raw,format=I420 ! c.ref_sink '
            f'uridecodebin uri="{dist}" ! videoconvert ! videoscale ! '
            f'video/x-raw,format=I420{scale} ! c.dist_sink')
    else:
        description = (
            f"{compare} videotestsrc num-buffers={args.frames} "
            f"pattern=ball ! video/x-raw,format=I420,width=320,height=240,"
            f"framerate=25/1 ! tee name=t t. ! queue ! c.ref_sink "
            f"t. ! queue ! jpegenc quality={args.quality} ! jpegdec ! "
            f"videoconvert ! video/x-raw,format=I420 ! c.dist_sink")
    try:
        pipeline = Gst.parse_launch(description)
    except GLib.Error as e:  # an unknown metric or backend, say
        print(f"error: {e.message}", file=sys.stderr)
        return 1
    sink = pipeline.get_by_name("sink")
    element = pipeline.get_by_name("c")
    wanted = args.metrics.split("+")
    reason = None  # the element's latest warning since a complete frame
    incomplete = 0

    def on_warning(msg):
        nonlocal reason
        print(f"warning: {describe(msg)}", file=sys.stderr)
        if msg.src == element:
            reason = msg.parse_warning()[0].message

    # A failure to start (--backend cuda without a GPU, a missing file)
    # is posted on the bus too: samples() reports it.
    pipeline.set_state(Gst.State.PLAYING)
    try:
        for frame, sample in enumerate(samples(pipeline, sink, args.timeout,
                                               on_warning)):
            meta = read_compare_meta(sample.get_buffer())
            values = ({PSNR_AVG: meta.psnr_avg, SSIM_ALL: meta.ssim_all,
                       MS_SSIM: meta.ms_ssim} if meta else {})
            shown = [f"{k}={v:f}" for k, v in values.items() if v is not None]
            if shown:
                print(f"frame={frame} {' '.join(shown)}", flush=True)
            missing = [name for m, (field, name) in METRICS.items()
                       if m in wanted and values.get(field) is None]
            if not missing:
                reason = None
                continue
            # cudacompare warns (once) when it leaves a metric out (too
            # slow for the CPU, a frame too small), but not when a
            # distorted frame has no reference to be compared with.
            why = reason or ("cudacompare gave no reason" if meta else
                             "no reference frame to compare it with")
            print(f"frame={frame} {' and '.join(missing)} "
                  f"{'was' if len(missing) == 1 else 'were'} not computed: "
                  f"{why}", file=sys.stderr)
            incomplete += 1
    except PipelineError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    finally:
        pipeline.set_state(Gst.State.NULL)
    return 1 if incomplete else 0


if __name__ == "__main__":
    sys.exit(main())
