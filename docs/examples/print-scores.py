#!/usr/bin/python3
# Demo: score every frame and print the `sharpness` messages cudasharpness
# posts on the bus.  Without an argument: a test pattern that goes out of
# focus half-way through; with one: a video file or URI, decoded.
#
#   print-scores.py [--metric NICK] [--frames N] [--backend auto|cpu|cuda]
#                   [FILE-OR-URI]
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
import argparse
import sys

import gi

gi.require_version("Gst", "1.0")
from gi.repository import GLib, Gst  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--metric", default="laplacian")
    parser.add_argument("--frames", type=int, default=40)
    parser.add_argument("--backend", default="auto")
    parser.add_argument("source", nargs="?",
                        help="video file or URI (default: a test pattern; "
                        "--frames applies to it only)")
    args = parser.parse_args()

    Gst.init(None)
    sharpness = (f"cudasharpness metric={args.metric} backend={args.backend} "
                 "relative-threshold=0.5 window=10 ! fakesink")
    if args.source:
        uri = (args.source if Gst.uri_is_valid(args.source)
               else Gst.filename_to_uri(args.source))
        pipeline = Gst.parse_launch(
            f'uridecodebin uri="{uri}" ! videoconvert ! {sharpness}')
    else:
        # gaussianblur stands in for a lens going out of focus; the relative
        # threshold flags frames far below the recent median.
        pipeline = Gst.parse_launch(
            f"videotestsrc pattern=pinwheel num-buffers={args.frames} ! "
            "video/x-raw,width=640,height=360,framerate=25/1 ! videoconvert ! "
            f"gaussianblur name=lens sigma=0 ! videoconvert ! {sharpness}")
    lens = pipeline.get_by_name("lens")
    loop = GLib.MainLoop()
    status = 0

    def on_message(_bus, msg):
        nonlocal status
        s = msg.get_structure()
        if msg.type == Gst.MessageType.ELEMENT and s.get_name() == "sharpness":
            frame = s.get_value("frame")
            print(f"frame {frame:3d}  t={s.get_value('timestamp') / Gst.SECOND:5.2f}s  "
                  f"{s.get_value('metric')}={s.get_value('score'):10.4f}"
                  f"{'  BLURRY' if s.get_value('blurry') else ''}", flush=True)
            if lens and frame + 1 == args.frames // 2:
                lens.set_property("sigma", 3.0)
        elif msg.type == Gst.MessageType.ELEMENT and s.get_name() == "sharpness-summary":
            print(f"summary: {s.get_value('frames')} frames, mean {s.get_value('mean'):.4f}, "
                  f"min {s.get_value('min'):.4f}, max {s.get_value('max'):.4f}, "
                  f"{s.get_value('blurry-frames')} blurry, "
                  f"{s.get_value('unscored')} unscored")
        elif msg.type == Gst.MessageType.WARNING:
            err, _ = msg.parse_warning()
            print(f"warning: {err.message}", file=sys.stderr)
        elif msg.type == Gst.MessageType.ERROR:
            err, dbg = msg.parse_error()
            print(f"error: {err.message} ({dbg})", file=sys.stderr)
            status = 1
            loop.quit()
        elif msg.type == Gst.MessageType.EOS:
            loop.quit()

    bus = pipeline.get_bus()
    bus.add_signal_watch()
    bus.connect("message", on_message)
    pipeline.set_state(Gst.State.PLAYING)
    try:
        loop.run()
    finally:
        pipeline.set_state(Gst.State.NULL)
    return status


if __name__ == "__main__":
    sys.exit(main())
