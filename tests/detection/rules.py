#!/usr/bin/python3
# The rules docs/validation/detection.md measures, as cudasharpness properties: the
# recommended defaults and each metric's own rule.  Each value is the one
# the doc's sweeps chose (explore.py); the doc's tables are this file's
# rules run through the element (evaluate.py).
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

# The segment tracker's settings the truth is stated for (sharpness-scan's
# defaults): runs of blurry frames joined across at most MAX_GAP others,
# kept when they last MIN_DURATION seconds.
MIN_DURATION = 0.5
MAX_GAP = 2

LOWER_IS_SHARPER = {'blur-effect', 'bliinds2'}

# The metrics the CPU scores fast enough for the suite (bliinds2 the
# slowest); lpc-si and cwtvnrs are far slower there
# (docs/validation/detection.md).
LIVE_METRICS = ('variance', 'roberts', 'tenengrad', 'laplacian', 'smd',
                'smd2', 'maxmin', 'entropy', 'bliinds2', 'blur-effect')

# Content-state settings of every rule: the recommended flat rule.
FLAT = {'flat-edge-level': 5, 'flat-threshold': 0.02}

# The recommended defaults.
DEFAULTS = dict({'metric': 'blur-effect', 'threshold': 0.52,
                 'relative-threshold': 0.8, 'window': 25,
                 'cpbd-threshold': 0.3, 'focus-threshold': 0.40}, **FLAT)

# Each metric's own relative rule (the best relative threshold of the
# sweep), and blur-effect's absolute rule alone.
RELATIVE = {
    'variance': 0.9, 'roberts': 0.8, 'tenengrad': 0.6, 'laplacian': 0.6,
    'smd': 0.75, 'smd2': 0.7, 'maxmin': 0.8, 'entropy': 0.4,
    'bliinds2': 0.75, 'blur-effect': 0.8, 'lpc-si': 0.8, 'cwtvnrs': 0.8,
}
ABSOLUTE = {'blur-effect': 0.5}

RULES = {'defaults': DEFAULTS}
for _m, _r in RELATIVE.items():
    RULES['%s-relative' % _m] = dict({'metric': _m, 'threshold': 0.0,
                                      'relative-threshold': _r,
                                      'window': 25}, **FLAT)
for _m, _t in ABSOLUTE.items():
    RULES['%s-absolute' % _m] = dict({'metric': _m, 'threshold': _t,
                                      'relative-threshold': 0.0,
                                      'window': 25, 'cpbd-threshold': 0.0,
                                      'focus-threshold': 0.0},
                                     **FLAT)

LIVE_RULES = [n for n, p in RULES.items() if p['metric'] in LIVE_METRICS]


def properties(name):
    """The rule's cudasharpness properties."""
    return dict(RULES[name])


def element_properties(name):
    """properties() and the blurry-segment alarms the evaluator checks
    its own segments against."""
    p = properties(name)
    p['min-blurry-duration'] = int(MIN_DURATION * 1e9)
    p['max-blurry-gap'] = MAX_GAP
    return p


def element_name(name):
    return 'r_' + name.replace('-', '_')
