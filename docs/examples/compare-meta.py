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
import sys

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstPbutils", "1.0")
from gi.repository import GLib, Gst, GstPbutils  # noqa: E402

from example_pipeline import (ElementWarnings, PipelineError,  # noqa: E402
                              decoded, example_parser, frames, launch,
                              to_uri)
from sharpness_meta import (MS_SSIM, PSNR_AVG, SSIM_ALL,  # noqa: E402
                            read_compare_meta)

# Each metric of --metrics: the field printed for it, and its name.
METRICS = {"psnr": (PSNR_AVG, "PSNR"), "ssim": (SSIM_ALL, "SSIM"),
           "ms-ssim": (MS_SSIM, "MS-SSIM")}


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
    parser = example_parser("Print the PSNR/SSIM meta cudacompare attaches "
                            "to every frame", frames=10)
    parser.add_argument("--quality", type=int, default=50)
    parser.add_argument("--metrics", default="psnr+ssim")
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
        ref, dist = args.files
        # cudacompare compares frames of one size: the distorted stream is
        # scaled to the reference's, which has to be known before the
        # pipeline negotiates.
        size = video_size(to_uri(ref), args.timeout)
        scale = ",width={},height={}".format(*size) if size else ""
        description = (
            f"{compare} {decoded(ref)} ! video/x-raw,format=I420 ! c.ref_sink "
            f"{decoded(dist)} ! videoscale ! video/x-raw,format=I420{scale} ! "
            f"c.dist_sink")
    else:
        description = (
            f"{compare} videotestsrc num-buffers={args.frames} "
            f"pattern=ball ! video/x-raw,format=I420,width=320,height=240,"
            f"framerate=25/1 ! tee name=t t. ! queue ! c.ref_sink "
            f"t. ! queue ! jpegenc quality={args.quality} ! jpegdec ! "
            f"videoconvert ! video/x-raw,format=I420 ! c.dist_sink")
    pipeline = launch(description)
    if pipeline is None:
        return 1
    wanted = args.metrics.split("+")
    # The element's latest warning since a complete frame.
    warnings = ElementWarnings(pipeline.get_by_name("c"))
    incomplete = 0
    try:
        for frame, buffer in frames(pipeline, args.timeout, warnings):
            meta = read_compare_meta(buffer)
            values = ({PSNR_AVG: meta.psnr_avg, SSIM_ALL: meta.ssim_all,
                       MS_SSIM: meta.ms_ssim} if meta else {})
            shown = [f"{k}={v:f}" for k, v in values.items() if v is not None]
            if shown:
                print(f"frame={frame} {' '.join(shown)}", flush=True)
            missing = [name for m, (field, name) in METRICS.items()
                       if m in wanted and values.get(field) is None]
            if not missing:
                warnings.reason = None
                continue
            # cudacompare warns (once) when it leaves a metric out (too
            # slow for the CPU, a frame too small), but not when a
            # distorted frame has no reference to be compared with.
            why = warnings.reason or ("cudacompare gave no reason" if meta else
                             "no reference frame to compare it with")
            print(f"frame={frame} {' and '.join(missing)} "
                  f"{'was' if len(missing) == 1 else 'were'} not computed: "
                  f"{why}", file=sys.stderr)
            incomplete += 1
    except PipelineError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 1 if incomplete else 0


if __name__ == "__main__":
    sys.exit(main())
