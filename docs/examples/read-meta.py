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
import sys

import gi

gi.require_version("Gst", "1.0")
from gi.repository import Gst  # noqa: E402

from example_pipeline import (ElementWarnings, PipelineError,  # noqa: E402
                              decoded, example_parser, frames, launch)
from sharpness_meta import read_sharpness_meta  # noqa: E402


def main():
    parser = example_parser("Print the sharpness meta of every frame of a "
                            "video or a test pattern", frames=10)
    parser.add_argument("--metric", default="laplacian")
    parser.add_argument("--threshold", type=float, default=0.0)
    parser.add_argument("source", nargs="?",
                        help="video file or URI (default: a test pattern of "
                        "--frames frames)")
    args = parser.parse_args()

    Gst.init(None)
    sharpness = (f"cudasharpness name=score metric={args.metric} "
                 f"backend={args.backend} threshold={args.threshold} ! "
                 "appsink name=sink sync=false")
    source = (decoded(args.source) if args.source else
              f"videotestsrc num-buffers={args.frames} pattern=snow ! "
              "video/x-raw,width=320,height=240")
    pipeline = launch(f"{source} ! {sharpness}")
    if pipeline is None:
        return 1
    # The element's latest warning since a frame was scored.
    warnings = ElementWarnings(pipeline.get_by_name("score"))
    unscored = 0
    try:
        for frame, buffer in frames(pipeline, args.timeout, warnings):
            meta = read_sharpness_meta(buffer)
            if meta is None:
                # cudasharpness warns (once) when it lets a frame pass
                # unscored, e.g. a perceptual metric without a GPU.
                print(f"frame={frame} has no sharpness meta: "
                      f"{warnings.reason or 'cudasharpness gave no reason'}",
                      file=sys.stderr)
                unscored += 1
                continue
            warnings.reason = None
            print(f"frame={frame} metric={meta.metric} "
                  f"score={meta.score:.6f} "
                  f"blurry={'true' if meta.blurry else 'false'}", flush=True)
    except PipelineError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 1 if unscored else 0


if __name__ == "__main__":
    sys.exit(main())
