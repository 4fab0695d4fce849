#!/usr/bin/python3
# Reads the GstSharpnessMeta that cudasharpness attaches to every buffer,
# from an appsink, and prints one line per frame:
#
#   frame=0 metric=laplacian score=38.436849 blurry=false
#
#   read-meta.py [--frames N] [--metric NICK] [--backend auto|cpu|cuda]
#                [--threshold T] [--timeout S] [FILE-OR-URI]
#
# Without FILE-OR-URI it reads a test pattern of N frames.  A frame that
# was not scored gets a line on stderr with the element's warning that
# says why (on a machine without a GPU, backend=auto leaves the slow
# perceptual metrics out).  Exit status: 0 when every frame was scored;
# 1 after an error (no such file, no decoder, no GPU for --backend cuda),
# printed as one line on stderr, or when a frame was not scored.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
import argparse
import sys
import time

import gi

gi.require_version("Gst", "1.0")
from gi.repository import GLib, Gst  # noqa: E402

from sharpness_meta import read_sharpness_meta  # noqa: E402

# How long one wait for a sample may last before the bus is read again.
POLL = Gst.SECOND // 10


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


def main():
    parser = argparse.ArgumentParser(description="Print the sharpness meta "
                                     "of every frame of a video or a test "
                                     "pattern")
    parser.add_argument("--frames", type=int, default=10)
    parser.add_argument("--metric", default="laplacian")
    parser.add_argument("--backend", default="auto")
    parser.add_argument("--threshold", type=float, default=0.0)
    parser.add_argument("--timeout", type=float, default=30.0,
                        help="seconds to wait for a frame before giving up "
                        "(default 30)")
    parser.add_argument("source", nargs="?",
                        help="video file or URI (default: a test pattern of "
                        "--frames frames)")
    args = parser.parse_args()

    Gst.init(None)
    sharpness = (f"cudasharpness name=score metric={args.metric} "
                 f"backend={args.backend} threshold={args.threshold} ! "
                 "appsink name=sink sync=false")
    try:
        if args.source:
            uri = (args.source if Gst.uri_is_valid(args.source)
                   else Gst.filename_to_uri(args.source))
            pipeline = Gst.parse_launch(
                f'uridecodebin uri="{uri}" ! videoconvert ! {sharpness}')
        else:
            pipeline = Gst.parse_launch(
                f"videotestsrc num-buffers={args.frames} pattern=snow ! "
                f"video/x-raw,width=320,height=240 ! {sharpness}")
    except GLib.Error as e:  # an unknown metric or backend, say
        print(f"error: {e.message}", file=sys.stderr)
        return 1
    sink = pipeline.get_by_name("sink")
    element = pipeline.get_by_name("score")
    reason = None  # the element's latest warning since a frame was scored
    unscored = 0

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
            meta = read_sharpness_meta(sample.get_buffer())
            if meta is None:
                # cudasharpness warns (once) when it lets a frame pass
                # unscored, e.g. a perceptual metric without a GPU.
                print(f"frame={frame} has no sharpness meta: "
                      f"{reason or 'cudasharpness gave no reason'}",
                      file=sys.stderr)
                unscored += 1
                continue
            reason = None
            print(f"frame={frame} metric={meta.metric} "
                  f"score={meta.score:.6f} "
                  f"blurry={'true' if meta.blurry else 'false'}", flush=True)
    except PipelineError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    finally:
        pipeline.set_state(Gst.State.NULL)
    return 1 if unscored else 0


if __name__ == "__main__":
    sys.exit(main())
