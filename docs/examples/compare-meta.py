#!/usr/bin/python3
# Reads the GstCompareMeta that cudacompare attaches to every compared
# distorted frame, from an appsink, and prints one line per frame:
#
#   frame=0 psnr-avg=34.123456 ssim-all=0.951234
#
#   compare-meta.py [--frames N] [--quality Q] [--metrics psnr+ssim]
#                   [--backend auto|cpu|cuda] [REFERENCE DISTORTED]
#
# With two files (or URIs) it compares DISTORTED against REFERENCE (both
# decoded, converted to I420 and scaled to the reference's size); without,
# a test pattern against its JPEG encode at quality Q.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
import argparse
import sys

import gi

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402


def uri(path):
    return path if Gst.uri_is_valid(path) else Gst.filename_to_uri(path)


def main():
    parser = argparse.ArgumentParser(description="Print the PSNR/SSIM meta "
                                     "cudacompare attaches to every frame")
    parser.add_argument("--frames", type=int, default=10)
    parser.add_argument("--quality", type=int, default=50)
    parser.add_argument("--metrics", default="psnr+ssim")
    parser.add_argument("--backend", default="auto")
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
        pipeline = Gst.parse_launch(
            f'{compare} uridecodebin uri="{ref}" ! videoconvert ! '
            f'video/x-raw,format=I420 ! c.ref_sink '
            f'uridecodebin uri="{dist}" ! videoconvert ! videoscale ! '
            f'video/x-raw,format=I420 ! c.dist_sink')
    else:
        pipeline = Gst.parse_launch(
            f"{compare} videotestsrc num-buffers={args.frames} "
            f"pattern=ball ! video/x-raw,format=I420,width=320,height=240,"
            f"framerate=25/1 ! tee name=t t. ! queue ! c.ref_sink "
            f"t. ! queue ! jpegenc quality={args.quality} ! jpegdec ! "
            f"videoconvert ! video/x-raw,format=I420 ! c.dist_sink")
    sink = pipeline.get_by_name("sink")
    pipeline.set_state(Gst.State.PLAYING)

    frame = 0
    while True:
        sample = sink.emit("pull-sample")
        if sample is None:  # EOS or error
            break
        meta = sample.get_buffer().get_custom_meta("GstCompareMeta")
        if meta is None:
            print(f"frame={frame} has no reference frame", file=sys.stderr)
        else:
            s = meta.get_structure()
            values = " ".join(
                f"{s.nth_field_name(i)}={s.get_value(s.nth_field_name(i)):f}"
                for i in range(s.n_fields())
                if s.nth_field_name(i) in ("psnr-avg", "ssim-all", "ms-ssim"))
            print(f"frame={s.get_value('frame')} {values}")
        frame += 1

    bus = pipeline.get_bus()
    msg = bus.pop_filtered(Gst.MessageType.ERROR)
    pipeline.set_state(Gst.State.NULL)
    if msg:
        print("error:", msg.parse_error()[0].message, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
