#!/usr/bin/python3
# Demo: score every frame and print the `sharpness` messages cudasharpness
# posts on the bus.  Without an argument: a test pattern that goes out of
# focus half-way through; with one: a video file or URI, decoded.
#
#   print-scores.py [--metric NICK] [--frames N] [--backend auto|cpu|cuda]
#                   [--timeout S] [FILE-OR-URI]
#
# The GLib main loop counterpart of read-meta.py's appsink loop: the bus
# watch sees the ERROR that ends a failed pipeline (one line on stderr,
# exit status 1), and a timer ends one that stalls.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
import sys
import time

import gi

gi.require_version("Gst", "1.0")
from gi.repository import GLib, Gst  # noqa: E402

from example_pipeline import (decoded, describe,  # noqa: E402
                              example_parser, launch)


def main():
    parser = example_parser(__doc__, frames=40)
    parser.add_argument("--metric", default="laplacian")
    parser.add_argument("source", nargs="?",
                        help="video file or URI (default: a test pattern; "
                        "--frames applies to it only)")
    args = parser.parse_args()

    Gst.init(None)
    sharpness = (f"cudasharpness metric={args.metric} backend={args.backend} "
                 "relative-threshold=0.5 window=10 ! fakesink")
    if args.source:
        description = f"{decoded(args.source)} ! {sharpness}"
    else:
        # A lens going out of focus, from GStreamer's core and
        # gst-plugins-base alone (no gst-plugins-bad to install for the
        # demo): the tee passes each frame as it is and scaled down to a
        # quarter and back up (a low-pass much like a defocus), one valve
        # open, and the funnel merges them.  Without queues the tee pushes
        # each frame through both valves in turn, so the switch falls
        # exactly on a frame; the closed valve still passes the stream's
        # events (EOS among them).  The relative threshold flags frames far
        # below the recent median.
        description = (
            f"videotestsrc pattern=pinwheel num-buffers={args.frames} ! "
            "video/x-raw,format=I420,width=640,height=360,"
            "framerate=25/1 ! tee name=lens "
            "funnel name=focus forward-sticky-events=false ! "
            f"videoconvert ! {sharpness} "
            "lens. ! valve name=sharp drop-mode=forward-sticky-events ! "
            "focus. "
            "lens. ! videoscale ! video/x-raw,width=160,height=90 ! "
            "videoscale ! video/x-raw,width=640,height=360 ! "
            "valve name=blurred drop=true "
            "drop-mode=forward-sticky-events ! focus.")
    pipeline = launch(description)
    if pipeline is None:
        return 1
    lens = pipeline.get_by_name("lens")
    if lens:
        # Out of focus from the middle frame on.  In a pad probe, run in
        # the streaming thread before the tee passes the frame on: a bus
        # message reaches the main loop after later frames went through.
        sharp = pipeline.get_by_name("sharp")
        blurred = pipeline.get_by_name("blurred")

        def defocus(_pad, info):
            if info.get_buffer().offset >= args.frames // 2:
                sharp.set_property("drop", True)
                blurred.set_property("drop", False)
            return Gst.PadProbeReturn.OK
        lens.get_static_pad("sink").add_probe(Gst.PadProbeType.BUFFER,
                                              defocus)
    loop = GLib.MainLoop()
    status = 0

    def fail(text):
        nonlocal status
        print(f"error: {text}", file=sys.stderr)
        status = 1
        loop.quit()

    def on_message(_bus, msg):
        s = msg.get_structure()
        if msg.type == Gst.MessageType.ELEMENT and s.get_name() == "sharpness":
            frame = s.get_value("frame")
            t = s.get_value("timestamp") / Gst.SECOND
            print(f"frame {frame:3d}  t={t:5.2f}s  "
                  f"{s.get_value('metric')}={s.get_value('score'):10.4f}"
                  f"{'  BLURRY' if s.get_value('blurry') else ''}",
                  flush=True)
        elif (msg.type == Gst.MessageType.ELEMENT and
              s.get_name() == "sharpness-summary"):
            print(f"summary: {s.get_value('frames')} frames, "
                  f"mean {s.get_value('mean'):.4f}, "
                  f"min {s.get_value('min'):.4f}, "
                  f"max {s.get_value('max'):.4f}, "
                  f"{s.get_value('blurry-frames')} blurry, "
                  f"{s.get_value('unscored')} unscored")
        elif msg.type == Gst.MessageType.WARNING:
            # E.g. why frames pass unscored (a perceptual metric without
            # a GPU): the summary counts them.
            print(f"warning: {describe(msg)}", file=sys.stderr)
        elif msg.type == Gst.MessageType.ERROR:
            fail(describe(msg))
        elif msg.type == Gst.MessageType.EOS:
            loop.quit()

    # A stalled pipeline posts nothing: the stream position, checked every
    # 100 ms, must move within --timeout seconds.
    progress = {"position": None, "since": time.monotonic()}

    def watchdog():
        ok, position = pipeline.query_position(Gst.Format.TIME)
        if ok and position != progress["position"]:
            progress.update(position=position, since=time.monotonic())
        elif time.monotonic() - progress["since"] > args.timeout:
            fail(f"no progress for {args.timeout:g} s (a stalled pipeline? "
                 "--timeout sets the limit)")
            return GLib.SOURCE_REMOVE
        return GLib.SOURCE_CONTINUE

    bus = pipeline.get_bus()
    bus.add_signal_watch()
    bus.connect("message", on_message)
    GLib.timeout_add(100, watchdog)
    # A failure to start (--backend cuda without a GPU, a missing file)
    # is posted on the bus too: on_message reports it.
    pipeline.set_state(Gst.State.PLAYING)
    try:
        loop.run()
    finally:
        pipeline.set_state(Gst.State.NULL)
        bus.remove_signal_watch()
    return status


if __name__ == "__main__":
    sys.exit(main())
