#!/usr/bin/python3
# The field names of docs/examples/sharpness_meta.py must be the element's:
#
# 1. the real metas: cudasharpness scores frames with a tile map and two
#    regions of interest, and the fields of its GstSharpnessMeta must be
#    SHARPNESS_FIELDS; cudacompare compares gray, YUV and RGB frames with
#    every metric, and the fields of its GstCompareMeta must be
#    compare_fields(planes) for each; the readers must return what the
#    structures hold;
# 2. the C sources: each constant must be the name of the same id in
#    gst/common/sharpness-fields.h's X-macro table (METRIC = "metric" as
#    X (METRIC, "metric")), the compare value names those of the same
#    table, and the plane letters those of gst/cudacompare/compare-frame.c.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'common'))
import scaffold  # noqa: E402
scaffold.require('gi')

import gi  # noqa: E402

gi.require_version('Gst', '1.0')
gi.require_version('GstVideo', '1.0')
from gi.repository import Gst, GstVideo  # noqa: E402

sys.path.insert(0, os.path.join(scaffold.SOURCE_ROOT, 'docs', 'examples'))
import sharpness_meta as sm  # noqa: E402

TIMEOUT = 30 * Gst.SECOND
FRAMES = 3
SHARPNESS_CONSTANTS = ('METRIC', 'SCORE', 'BLURRY', 'CONTENT_STATE',
                       'BLACK_RATIO', 'FREEZE_MAFD', 'STRUCTURE',
                       'TILES_COLS', 'TILES_ROWS', 'TILE_SCORES', 'ROI_IDS',
                       'ROI_TYPES', 'ROI_SCORES')

check = scaffold.Checks()


def source(*path):
    with open(os.path.join(scaffold.SOURCE_ROOT, *path),
              encoding='utf-8') as f:
        return f.read()


def pull_all(pipeline, sink, feed=None):
    """Every sample of @sink until EOS; fails on an error or a stall."""
    bus = pipeline.get_bus()
    pipeline.set_state(Gst.State.PLAYING)
    if feed:
        feed()
    out = []
    waited = 0
    try:
        while waited < TIMEOUT:
            msg = bus.pop_filtered(Gst.MessageType.ERROR)
            if msg:
                raise RuntimeError(msg.parse_error()[0].message)
            sample = sink.emit('try-pull-sample', Gst.SECOND // 10)
            if sample:
                out.append(sample)
                waited = 0
            elif sink.get_property('eos'):
                return out
            else:
                waited += Gst.SECOND // 10
        raise RuntimeError('timed out')
    finally:
        pipeline.set_state(Gst.State.NULL)


def fields(structure):
    return {structure.nth_field_name(i)
            for i in range(structure.n_fields())}


def sharpness_metas():
    """(structure, SharpnessMeta) of FRAMES frames with a 4x3 tile map and
    ROIs "face" (id 7) and "person" (id 9)."""
    pipeline = Gst.parse_launch(
        'appsrc name=src format=time caps=video/x-raw,format=GRAY8,'
        'width=64,height=48,framerate=25/1 ! cudasharpness backend=cpu '
        'metric=laplacian tiles=4x3 ! appsink name=sink sync=false')
    src = pipeline.get_by_name('src')

    def feed():
        for i in range(FRAMES):
            buf = Gst.Buffer.new_wrapped(bytes((x * 37 + i) % 251
                                               for x in range(64 * 48)))
            buf.pts = i * Gst.SECOND // 25
            buf.duration = Gst.SECOND // 25
            for roi_id, roi_type, x in ((7, 'face', 0), (9, 'person', 32)):
                GstVideo.buffer_add_video_region_of_interest_meta(
                    buf, roi_type, x, 8, 32, 32).id = roi_id
            src.emit('push-buffer', buf)
        src.emit('end-of-stream')

    out = []
    for sample in pull_all(pipeline, pipeline.get_by_name('sink'), feed):
        buf = sample.get_buffer()
        meta = buf.get_custom_meta(sm.SHARPNESS_META)
        out.append((meta.get_structure() if meta else None,
                    sm.read_sharpness_meta(buf)))
    return out


def compare_metas(fmt, metrics='psnr+ssim+ms-ssim'):
    pipeline = Gst.parse_launch(
        f'cudacompare name=c backend=cpu metrics={metrics} ! '
        f'appsink name=sink sync=false '
        f'videotestsrc num-buffers={FRAMES} pattern=ball ! '
        f'video/x-raw,format={fmt},width=192,height=192,framerate=25/1 ! '
        f'tee name=t t. ! queue ! c.ref_sink t. ! queue ! '
        f'videoflip method=horizontal-flip ! '
        f'c.dist_sink')
    out = []
    for sample in pull_all(pipeline, pipeline.get_by_name('sink')):
        buf = sample.get_buffer()
        meta = buf.get_custom_meta(sm.COMPARE_META)
        out.append((meta.get_structure() if meta else None,
                    sm.read_compare_meta(buf)))
    return out


def check_sharpness_meta():
    metas = sharpness_metas()
    check(len(metas) == FRAMES and all(s for s, _ in metas),
          '%d of %d frames carry a GstSharpnessMeta'
          % (sum(1 for s, _ in metas if s), FRAMES))
    for i, (s, m) in enumerate(metas):
        if not s:
            continue
        real = fields(s)
        check(real == sm.SHARPNESS_FIELDS,
              'frame %d: GstSharpnessMeta fields %s == SHARPNESS_FIELDS '
              '(only in C: %s, only in Python: %s)'
              % (i, sorted(real), sorted(real - sm.SHARPNESS_FIELDS),
                 sorted(sm.SHARPNESS_FIELDS - real)))
        if real != sm.SHARPNESS_FIELDS:
            continue  # the values cannot be compared field by field
        want = (s.get_value('metric'), s.get_value('score'),
                s.get_value('blurry'), s.get_value('tiles-cols'),
                s.get_value('tiles-rows'), list(s.get_value('tile-scores')),
                list(zip(s.get_value('roi-ids'), s.get_value('roi-types'),
                         s.get_value('roi-scores'))))
        got = (m.metric, m.score, m.blurry, m.tiles_cols, m.tiles_rows,
               m.tile_scores, [(r.id, r.type, r.score) for r in m.rois])
        check(got == want and m.tiles_cols * m.tiles_rows == 12 and
              [r.type for r in m.rois] == ['face', 'person'],
              'frame %d: read_sharpness_meta gives the structure\'s values'
              % i)


def check_compare_meta():
    for fmt, planes in (('GRAY8', 'y'), ('I420', 'yuv'), ('RGB', 'rgb')):
        metas = compare_metas(fmt)
        check(len(metas) == FRAMES and all(s for s, _ in metas),
              '%s: %d of %d frames carry a GstCompareMeta'
              % (fmt, sum(1 for s, _ in metas if s), FRAMES))
        want_fields = sm.compare_fields(planes)
        for i, (s, m) in enumerate(metas):
            if not s:
                continue
            real = fields(s)
            check(real == want_fields,
                  '%s frame %d: GstCompareMeta fields == compare_fields(%r) '
                  '(only in C: %s, only in Python: %s)'
                  % (fmt, i, planes, sorted(real - want_fields),
                     sorted(want_fields - real)))
            got = {sm.FRAME: m.frame, sm.PSNR_AVG: m.psnr_avg,
                   sm.MSE_AVG: m.mse_avg, sm.SSIM_ALL: m.ssim_all,
                   sm.SSIM_DB: m.ssim_db, sm.MS_SSIM: m.ms_ssim}
            for metric, values in ((sm.PSNR, m.psnr), (sm.MSE, m.mse),
                                   (sm.SSIM, m.ssim)):
                got.update({f'{metric}-{p}': v for p, v in values.items()})
            check(got == {n: s.get_value(n) for n in real} and
                  m.frame == i,
                  '%s frame %d: read_compare_meta gives the structure\'s '
                  'values' % (fmt, i))


def check_compare_meta_vmaf():
    """metrics=vmaf alone: frame i's meta has frame i and frame i - 1's
    VMAF (none on frame 0), all read by read_compare_meta."""
    metas = compare_metas('I420', 'vmaf')
    check(len(metas) == FRAMES and all(s for s, _ in metas[1:]),
          'vmaf: frames 1.. carry a GstCompareMeta')
    want_fields = {sm.FRAME, sm.VMAF_FRAME, sm.VMAF} | set(sm.VMAF_FEATURES)
    for i, (s, m) in enumerate(metas[1:], 1):
        if not s:
            continue
        real = fields(s)
        check(real == want_fields,
              'vmaf frame %d: GstCompareMeta fields (only in C: %s, only in '
              'Python: %s)' % (i, sorted(real - want_fields),
                               sorted(want_fields - real)))
        check(m.frame == i and m.vmaf_frame == i - 1 and
              m.vmaf == s.get_value(sm.VMAF) and
              m.vmaf_features == {f: s.get_value(f)
                                  for f in sm.VMAF_FEATURES},
              'vmaf frame %d: read_compare_meta gives the structure\'s '
              'values' % i)


def check_c_sources():
    # X (ID, "name") rows of the X-macro table.
    table = dict(re.findall(r'X \((\w+), "([^"]+)"\)',
                            source('gst', 'common', 'sharpness-fields.h')))
    check(len(table) > len(SHARPNESS_CONSTANTS),
          'sharpness-fields.h: %d rows parsed' % len(table))
    for const in SHARPNESS_CONSTANTS:
        check(table.get(const) == getattr(sm, const),
              'sharpness_meta.%s = %r, sharpness-fields.h has %r'
              % (const, getattr(sm, const), table.get(const)))
    check(sm.SHARPNESS_FIELDS == {getattr(sm, c)
                                  for c in SHARPNESS_CONSTANTS},
          'SHARPNESS_FIELDS is the set of the constants')
    check(re.search(r'#define SHARPNESS_META_NAME "%s"' % sm.SHARPNESS_META,
                    source('gst', 'cudasharpness', 'sharpness-meta.h')),
          'sharpness-meta.h names the meta %r' % sm.SHARPNESS_META)

    # cudacompare's values: the table rows from PSNR_Y to MS_SSIM, each
    # either whole ("psnr-avg") or per plane ("psnr-y" .. "psnr-b").
    rows = list(table.items())
    ids = [k for k, _ in rows]
    values = [v for _, v in rows[ids.index('PSNR_Y'):ids.index('MS_SSIM') + 1]]
    planes = 'yuvrgb'
    per_plane = {v[:-2] for v in values
                 if v[-2] == '-' and v[-1] in planes}
    whole = {v for v in values if v[:-2] not in per_plane}
    check(whole == {sm.PSNR_AVG, sm.MSE_AVG, sm.SSIM_ALL, sm.SSIM_DB,
                    sm.MS_SSIM} and per_plane == set(sm.PER_PLANE),
          'sharpness-fields.h names the compare values %s and %s-<plane>'
          % (sorted(whole), sorted(per_plane)))
    check(table.get('FRAME') == sm.FRAME and
          'SHARPNESS_FIELD_FRAME' in source('gst', 'cudacompare',
                                            'compare-meta.c'),
          'compare-meta.c sets the meta\'s %r' % sm.FRAME)
    # VMAF's: the rows from VMAF to INTEGER_VIF_SCALE3, in that order.
    vmaf = [v for _, v in rows[ids.index('VMAF'):
                               ids.index('INTEGER_VIF_SCALE3') + 1]]
    check(vmaf == [sm.VMAF, sm.VMAF_FRAME] + list(sm.VMAF_FEATURES),
          'sharpness-fields.h names the VMAF values %s' % vmaf)
    names = set(re.findall(r'l->names = "([^"]+)"',
                           source('gst', 'cudacompare', 'compare-frame.c')))
    check(names == set(sm.PLANE_SETS),
          'compare-frame.c names the planes %s' % sorted(names))
    check(re.search(r'#define COMPARE_META_NAME "%s"' % sm.COMPARE_META,
                    source('gst', 'cudacompare', 'compare-meta.h')),
          'compare-meta.h names the meta %r' % sm.COMPARE_META)


def main():
    Gst.init(None)
    for name in ('cudasharpness', 'cudacompare', 'appsrc', 'appsink'):
        if Gst.ElementFactory.find(name) is None:
            print('FAIL: element %s not found (GST_PLUGIN_PATH_1_0?)' % name)
            return 1
    check_c_sources()
    check_sharpness_meta()
    check_compare_meta()
    check_compare_meta_vmaf()
    check.finish('meta field names')
    return 0


if __name__ == '__main__':
    sys.exit(main())
