#!/usr/bin/python3
# Segment-level precision and recall against the suite's truth
# (docs/validation/detection.md): a detected segment counts when its first and last
# frames are within TOLERANCE frames of a true segment of its kind (one
# detection per truth); every other detection is false, a true segment
# with no detection is missed.  Glitches (blurs shorter than the minimum
# duration) are no true segment: a detection there is false.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

KINDS = ('blur', 'black', 'freeze')
TOLERANCE = 2


def match(truth, found, tol=TOLERANCE):
    """(matched, missed, false) counts for one kind of one clip; @truth and
    @found: [(first, last)]."""
    used = set()
    hit = 0
    for a, b in truth:
        for k, (c, d) in enumerate(found):
            if k not in used and abs(c - a) <= tol and abs(d - b) <= tol:
                used.add(k)
                hit += 1
                break
    return hit, len(truth) - hit, len(found) - len(used)


class Tally:
    """Counts per (category, kind)."""

    def __init__(self):
        self.n = {}

    def add(self, category, kind, hit, missed, false):
        c = self.n.setdefault((category, kind), [0, 0, 0])
        c[0] += hit
        c[1] += missed
        c[2] += false

    def add_clip(self, entry, found, kinds=KINDS):
        """@found: {kind: [(first, last)]} for one clip of the truth
        @entry; kinds absent from @found are not scored."""
        for kind in kinds:
            if kind not in found:
                continue
            truth = [(s['first'], s['last']) for s in entry['segments']
                     if s['kind'] == kind]
            self.add(entry['category'], kind, *match(truth, found[kind]))

    def counts(self, category=None, kind=None):
        """[hit, missed, false] summed over the matching cells."""
        out = [0, 0, 0]
        for (c, k), v in self.n.items():
            if (category is None or c == category) and \
                    (kind is None or k == kind):
                out = [x + y for x, y in zip(out, v)]
        return out

    @staticmethod
    def rates(counts):
        """(recall, precision): None where undefined (nothing to find, or
        nothing found)."""
        hit, missed, false = counts
        rec = hit / (hit + missed) if hit + missed else None
        prec = hit / (hit + false) if hit + false else None
        return rec, prec

    def summary(self, category=None, kind=None):
        return self.rates(self.counts(category, kind))


def fmt_rate(x):
    return '—' if x is None else '%.2f' % x


def fmt_cell(counts):
    """'recall / precision (hit/true, false)'."""
    rec, prec = Tally.rates(counts)
    hit, missed, false = counts
    return '%s / %s (%d/%d, %d)' % (fmt_rate(rec), fmt_rate(prec), hit,
                                    hit + missed, false)
