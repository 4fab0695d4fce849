# What the examples share about running a pipeline, so that each shows only
# its own element and what it reads:
#
#   from example_pipeline import (ElementWarnings, PipelineError, frames,
#                                 launch)
#   pipeline = launch("... ! cudasharpness name=score ! appsink name=sink")
#   warnings = ElementWarnings(pipeline.get_by_name("score"))
#   for number, buffer in frames(pipeline, timeout, warnings): ...
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
import argparse
import sys
import time

import gi

gi.require_version("Gst", "1.0")
from gi.repository import GLib, Gst  # noqa: E402

# How long one wait for a sample may last before the bus is read again.
POLL = Gst.SECOND // 10


class PipelineError(Exception):
    pass


def example_parser(description, frames):
    """The examples' command line: --frames N of the test pattern (@frames
    by default), --backend, and --timeout S, the limit frames() and a bus
    watch wait for a frame; each example adds its own options."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--frames", type=int, default=frames)
    parser.add_argument("--backend", default="auto")
    parser.add_argument("--timeout", type=float, default=30.0,
                        help="seconds to wait for a frame before giving up "
                        "(default 30)")
    return parser


def to_uri(source):
    """A file name or a URI, as a URI."""
    return source if Gst.uri_is_valid(source) else Gst.filename_to_uri(source)


def decoded(source):
    """The description of a file or URI decoded into raw video."""
    return f'uridecodebin uri="{to_uri(source)}" ! videoconvert'


def launch(description):
    """The pipeline of @description, or None after one line on stderr that
    says why not (an unknown metric or backend, say)."""
    try:
        return Gst.parse_launch(description)
    except GLib.Error as e:
        print(f"error: {e.message}", file=sys.stderr)
        return None


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


class ElementWarnings:
    """Called with each WARNING message: prints it on stderr and keeps the
    latest of @element's in .reason, which says why the element left a
    value out (it warns once, not on every frame it leaves)."""

    def __init__(self, element):
        self.element = element
        self.reason = None

    def __call__(self, msg):
        print(f"warning: {describe(msg)}", file=sys.stderr)
        if msg.src == self.element:
            self.reason = msg.parse_warning()[0].message


def _samples(pipeline, sink, timeout, on_warning):
    """Yields the appsink's samples until the end of the stream.  A failed
    pipeline posts an ERROR and sends nothing more, so a plain pull-sample
    would wait for ever: each wait here is bounded, and the bus is read
    after it."""
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


def frames(pipeline, timeout, on_warning):
    """Plays @pipeline and yields (number, buffer) for each frame that its
    appsink named "sink" receives, until the end of the stream, handing
    each WARNING message to @on_warning; the pipeline is stopped when the
    frames end or the loop is left.  Raises PipelineError on an ERROR
    message (a failure to start, such as --backend cuda without a GPU or a
    missing file, is one), or after @timeout seconds without a frame."""
    pipeline.set_state(Gst.State.PLAYING)
    try:
        for number, sample in enumerate(_samples(
                pipeline, pipeline.get_by_name("sink"), timeout,
                on_warning)):
            yield number, sample.get_buffer()
    finally:
        pipeline.set_state(Gst.State.NULL)
