#!/usr/bin/python3
# Runs a clip through real cudasharpness elements, one per rule, behind one
# decoder (decodebin ! tee), and returns what each posted: the per-frame
# `sharpness` messages and the start/end events.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import gi

gi.require_version('Gst', '1.0')
from gi.repository import Gst  # noqa: E402

Gst.init(None)

TIMEOUT_NS = 600 * Gst.SECOND

# Per-frame fields read when present (the content states arrive with the
# element's black/freeze/flat detection).
FRAME_FIELDS = (('score', 'double'), ('blurry', 'boolean'),
                ('content-state', 'string'), ('structure', 'double'),
                ('cpbd', 'double'), ('focus', 'double'),
                ('black-ratio', 'double'), ('freeze-mafd', 'double'))
EVENT_PREFIX = 'sharpness-'


class PipelineError(Exception):
    pass


def have_element():
    return Gst.ElementFactory.find('cudasharpness') is not None


def element_properties():
    """Names of cudasharpness's properties."""
    f = Gst.ElementFactory.find('cudasharpness')
    e = f.create(None)
    return {p.name for p in e.list_properties()}


def element_defaults(names):
    """{property: cudasharpness's default value} for @names."""
    e = Gst.ElementFactory.make('cudasharpness', None)
    return {n: e.get_property(n) for n in names}


def _value(s, name, kind):
    if not s.has_field(name):
        return None
    if kind == 'string':
        return s.get_string(name)
    ok, v = getattr(s, 'get_' + kind)(name)
    return v if ok else None


def _prop(v):
    if isinstance(v, bool):
        return 'true' if v else 'false'
    return str(v)


def describe(path, rules, backend='cpu'):
    """@rules: [(name, {property: value})]."""
    desc = ['filesrc location="%s" ! decodebin ! tee name=t' % path]
    for name, props in rules:
        p = ' '.join('%s=%s' % (k, _prop(v)) for k, v in props.items())
        desc.append('t. ! queue max-size-buffers=4 max-size-bytes=0 '
                    'max-size-time=0 ! cudasharpness name=%s backend=%s %s '
                    '! fakesink sync=false' % (name, backend, p))
    return ' '.join(desc)


def run(path, rules, backend='cpu'):
    """{rule name: {'frames': [{field: value}] in frame order,
    'events': [(message name, {field: value})]}}."""
    pipeline = Gst.parse_launch(describe(path, rules, backend))
    bus = pipeline.get_bus()
    out = {name: {'frames': [], 'events': []} for name, _ in rules}
    try:
        if pipeline.set_state(Gst.State.PLAYING) == \
                Gst.StateChangeReturn.FAILURE:
            raise PipelineError('cannot start %s' % path)
        mask = Gst.MessageType.ERROR | Gst.MessageType.EOS | \
            Gst.MessageType.ELEMENT
        while True:
            msg = bus.timed_pop_filtered(TIMEOUT_NS, mask)
            if msg is None:
                raise PipelineError('timeout on %s' % path)
            if msg.type == Gst.MessageType.ERROR:
                err, dbg = msg.parse_error()
                raise PipelineError('%s: %s (%s)' % (path, err.message, dbg))
            if msg.type == Gst.MessageType.EOS:
                break
            s = msg.get_structure()
            name = msg.src.get_name()
            if s is None or name not in out:
                continue
            if s.get_name() == 'sharpness':
                ok, frame = s.get_uint64('frame')
                rec = out[name]['frames']
                if not ok or frame != len(rec):
                    raise PipelineError('%s: frame %s out of order' %
                                        (name, frame))
                rec.append({f: _value(s, f, k) for f, k in FRAME_FIELDS})
            elif s.get_name().startswith(EVENT_PREFIX) and \
                    s.get_name() != 'sharpness-summary':
                ev = {}
                for i in range(s.n_fields()):
                    f = s.nth_field_name(i)
                    ev[f] = s.get_value(f)
                out[name]['events'].append((s.get_name(), ev))
    finally:
        pipeline.set_state(Gst.State.NULL)
    return out
