#!/usr/bin/python3
# Per-frame data of the suite for choosing the rule (docs/validation/detection.md):
# every metric's score from the element (CPU backend, no rule), and from
# the decoded frames the content signature, the structure histogram and
# the gray histogram.  One cache file per clip (CLIP.npz) in the suite's
# folder, remade when the clip changes.  Not a CI test (the metrics the CPU
# scores slowly take hours over the suite).
#
# Usage: collect.py DIR [METRIC...]   (default: the metrics the CPU scores
#        live; name lpc-si / cwtvnrs to add them)
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'common'))
import scaffold  # noqa: E402
scaffold.require('numpy', 'scipy', 'skimage', 'gi')

import numpy as np  # noqa: E402

import element_runs  # noqa: E402
import replica  # noqa: E402
import suite  # noqa: E402

# The edge rule the cached structure histograms follow (remade when it
# changes).
EDGE_RULE = 'forward, raw luma'
LIVE_METRICS = ('variance', 'roberts', 'tenengrad', 'laplacian', 'smd',
                'smd2', 'maxmin', 'entropy', 'bliinds2', 'blur-effect')


def collect(clip, entry, workdir, metrics):
    cache = os.path.join(workdir, clip.name + '.npz')
    data = {}
    if os.path.exists(cache):
        data = dict(np.load(cache))
        if str(data.get('key')) != entry['key']:
            data = {}
    path = os.path.join(workdir, entry['file'])
    if str(data.get('edge_rule')) != EDGE_RULE:
        g = replica.decode_gray(path, entry['width'], entry['height'],
                                clip.codec == 'h264-10')
        data['signature'] = np.array([replica.signature(f) for f in g])
        data['edges'] = np.array([replica.edge_histogram(f) for f in g])
        data['luma'] = np.array([np.bincount(f.ravel(), minlength=256)
                                 for f in g])
        data['edge_rule'] = np.array(EDGE_RULE)
        data['key'] = np.array(entry['key'])
    todo = [m for m in metrics if 'score:' + m not in data]
    if todo:
        # No rule, no content states: the scores alone.
        res = element_runs.run(path, [('m_' + m.replace('-', '_'),
                                       {'metric': m, 'detect': 0})
                                      for m in todo])
        for m in todo:
            fr = res['m_' + m.replace('-', '_')]['frames']
            data['score:' + m] = np.array([f['score'] for f in fr])
    np.savez(cache, **data)
    return data


def main():
    workdir = sys.argv[1]
    metrics = sys.argv[2:] or LIVE_METRICS
    clips = suite.full_suite()
    truth = suite.make(clips, workdir)
    for c in clips:
        collect(c, truth[c.name], workdir, metrics)
        print(c.name, flush=True)


if __name__ == '__main__':
    main()
