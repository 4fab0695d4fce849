#!/usr/bin/python3
# Reads the GstSharpnessMeta that cudasharpness attaches to every buffer,
# from an appsink, and prints one line per frame:
#
#   frame=0 metric=laplacian score=38.436849 blurry=false
#
#   read-meta.py [--frames N] [--metric NICK] [--backend auto|cpu|cuda]
#                [--threshold T] [FILE-OR-URI]
#
# Without FILE-OR-URI it reads a test pattern of N frames.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
import argparse
import sys

import gi

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description="Print the sharpness meta "
                                     "of every frame of a test pattern")
    parser.add_argument("--frames", type=int, default=10)
    parser.add_argument("--metric", default="laplacian")
    parser.add_argument("--backend", default="auto")
    parser.add_argument("--threshold", type=float, default=0.0)
    parser.add_argument("source", nargs="?",
                        help="video file or URI (default: a test pattern of "
                        "--frames frames)")
    args = parser.parse_args()

    Gst.init(None)
    sharpness = (f"cudasharpness metric={args.metric} backend={args.backend} "
                 f"threshold={args.threshold} ! appsink name=sink sync=false")
    if args.source:
        uri = (args.source if Gst.uri_is_valid(args.source)
               else Gst.filename_to_uri(args.source))
        pipeline = Gst.parse_launch(
            f'uridecodebin uri="{uri}" ! videoconvert ! {sharpness}')
    else:
        pipeline = Gst.parse_launch(
            f"videotestsrc num-buffers={args.frames} pattern=ball ! "
            f"video/x-raw,width=320,height=240 ! {sharpness}")
    sink = pipeline.get_by_name("sink")
    pipeline.set_state(Gst.State.PLAYING)

    frame = 0
    while True:
        sample = sink.emit("pull-sample")
        if sample is None:  # EOS or error
            break
        meta = sample.get_buffer().get_custom_meta("GstSharpnessMeta")
        if meta is None:
            print(f"frame={frame} has no sharpness meta", file=sys.stderr)
        else:
            s = meta.get_structure()
            print(f"frame={frame} metric={s.get_value('metric')} "
                  f"score={s.get_value('score'):.6f} "
                  f"blurry={'true' if s.get_value('blurry') else 'false'}",
                  flush=True)
        frame += 1

    # Tell an error apart from the end of the stream.
    msg = pipeline.get_bus().pop_filtered(Gst.MessageType.ERROR)
    pipeline.set_state(Gst.State.NULL)
    if msg:
        err, dbg = msg.parse_error()
        print(f"error: {err.message} ({dbg})", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
