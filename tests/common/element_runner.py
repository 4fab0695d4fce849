#!/usr/bin/python3
# Runs raw frame files through real cudasharpness pipelines and returns the
# scores the element posted on the bus.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstVideo", "1.0")
from gi.repository import Gst, GstVideo  # noqa: E402

Gst.init(None)

TIMEOUT_NS = 120 * Gst.SECOND


class PipelineError(Exception):
    pass


def require_element():
    if Gst.ElementFactory.find("cudasharpness") is None:
        raise PipelineError("cudasharpness not found (GST_PLUGIN_PATH_1_0?)")


def _int_array(values):
    return "<%s>" % ",".join(str(v) for v in values)


def describe(raw, metrics, backend="cpu"):
    """Pipeline description: @raw parsed once, teed to one cudasharpness per
    metric, each named after its metric."""
    fmt = int(GstVideo.VideoFormat.from_string(raw.format))
    desc = ["filesrc location=\"%s\" blocksize=%d" % (raw.path,
                                                      raw.frame_size),
            "! rawvideoparse width=%d height=%d format=%d framerate=25/1"
            " plane-strides=%s plane-offsets=%s frame-size=%d"
            % (raw.width, raw.height, fmt, _int_array(raw.strides),
               _int_array(raw.offsets), raw.frame_size),
            "! tee name=t"]
    for m in metrics:
        desc.append("t. ! queue ! cudasharpness name=m_%s metric=%s"
                    " backend=%s ! fakesink sync=false" % (m, m, backend))
    return " ".join(desc)


def run(raw, metrics, backend="cpu"):
    """{metric: [score per frame]} for the frames of @raw, from the
    `sharpness` element messages.  Raises PipelineError on a bus error, a
    missing or extra message, or a message that names the wrong metric."""
    pipeline = Gst.parse_launch(describe(raw, metrics, backend))
    bus = pipeline.get_bus()
    got = {m: [] for m in metrics}
    first = {}
    try:
        if pipeline.set_state(Gst.State.PLAYING) == \
                Gst.StateChangeReturn.FAILURE:
            raise PipelineError("cannot start: %s" % raw.path)
        mask = Gst.MessageType.ERROR | Gst.MessageType.EOS | \
            Gst.MessageType.ELEMENT
        while True:
            msg = bus.timed_pop_filtered(TIMEOUT_NS, mask)
            if msg is None:
                raise PipelineError("timeout on %s" % raw.path)
            if msg.type == Gst.MessageType.ERROR:
                err, dbg = msg.parse_error()
                raise PipelineError("%s: %s (%s)" % (raw.path, err.message,
                                                     dbg))
            if msg.type == Gst.MessageType.EOS:
                break
            s = msg.get_structure()
            if s is None or s.get_name() != "sharpness":
                continue
            metric = msg.src.get_name()[len("m_"):]
            if s.get_string("metric") != metric:
                raise PipelineError("%s posted metric %r" %
                                    (msg.src.get_name(),
                                     s.get_string("metric")))
            ok, frame = s.get_uint64("frame")
            if not ok:
                raise PipelineError("%s: no frame number" % metric)
            # One message per frame, in order: consecutive frame numbers.
            first.setdefault(metric, frame)
            if frame != first[metric] + len(got[metric]):
                raise PipelineError("%s: frame %d out of order" %
                                    (metric, frame))
            ok, score = s.get_double("score")
            if not ok:
                raise PipelineError("%s: no double score" % metric)
            got[metric].append(score)
    finally:
        pipeline.set_state(Gst.State.NULL)
    for m in metrics:
        if len(got[m]) != raw.n_frames:
            raise PipelineError("%s: %d messages for %d frames of %s" %
                                (m, len(got[m]), raw.n_frames, raw.path))
    return got
