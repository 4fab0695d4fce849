#!/usr/bin/python3
# Test vmaf-golden: the CPU VMAF against libvmaf's golden numbers on every
# pair of tests/vmaf/golden/.  Each pair's clips are made again by
# vmaf_pairs.py (their SHA-256 must be those libvmaf scored: FFmpeg and
# x264 deterministic), then test-vmaf-golden compares every per-frame
# feature and score, and the pooled values, with libvmaf's 6 printed
# decimals, and for the pairs of golden-logs/ our --json/--xml/--csv logs
# with libvmaf's bytes.  A pair whose clips were made by another FFmpeg
# build (Debian 13's, say) is skipped, visibly: its clips differ; the
# test skips when no pair is left.
#
# With SHARPNESS_CLIP_CACHE (CI) the clips are made once and kept there
# (tests/common/clip_cache.py, keyed by the pair, the FFmpeg its golden
# file names and vmaf_pairs.py's source), not by every run (their cost:
# docs/ci.md).  Their SHA-256 is checked on every run all the same, so
# that a damaged entry fails (and goes).  Without it, each pair is made in
# a temporary folder and removed: the clips are gigabytes, too much to
# leave in a build tree.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Usage: test_vmaf_golden.py TEST_EXE MODELDIR [PAIR...]
#   (VMAF_GOLDEN_PAIRS, comma-separated, also names the pairs; all when
#   neither does)

import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile

import make_vmaf_golden
import vmaf_pairs

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'common'))
import clip_cache  # noqa: E402


def pair_clips(pair, golden, tmp):
    """The paths of @pair's reference and distorted clips, made by this
    machine's FFmpeg (the one @golden names) into the clip cache, or into
    @tmp without one."""
    name = pair[0]
    return clip_cache.files(
        'vmaf-' + name, [name + '.ref.yuv', name + '.dist.yuv'],
        (pair, golden['ffmpeg']), [vmaf_pairs.__file__],
        lambda paths: vmaf_pairs.make_pair(os.path.dirname(paths[0]), pair),
        tmp)


def main(argv):
    if len(argv) < 3:
        print('usage: test_vmaf_golden.py TEST_EXE MODELDIR [PAIR...]',
              file=sys.stderr)
        return 2
    exe, models = argv[1], argv[2]
    names = argv[3:] or [n for n in os.environ.get(
        'VMAF_GOLDEN_PAIRS', '').split(',') if n]
    files = sorted(glob.glob(os.path.join(HERE, 'golden', '*.json')))
    if names:
        files = [os.path.join(HERE, 'golden', n + '.json') for n in names]
    if not files:
        print('no golden files', file=sys.stderr)
        return 1
    failed = []
    skipped = []
    total = 0
    tools = vmaf_pairs.tools_version()
    for path in files:
        with open(path) as f:
            golden = json.load(f)
        pair = vmaf_pairs.pair_by_name(golden['pair'])
        if golden['ffmpeg'] != tools:
            # Another FFmpeg/x264 makes other clips: nothing to compare.
            print('%s: SKIPPED: made with %r, this machine has %r' % (
                golden['pair'], golden['ffmpeg'], tools))
            skipped.append(golden['pair'])
            continue
        with tempfile.TemporaryDirectory(prefix='vmaf-golden-') as tmp:
            ref, dist = pair_clips(pair, golden, tmp)
            if clip_cache.made_by(ref):
                print('%s: clips from %s' % (golden['pair'],
                                             os.path.dirname(ref)))
            made = {'ref': make_vmaf_golden.sha256(ref),
                    'dist': make_vmaf_golden.sha256(dist)}
            if made != golden['sha256']:
                print('%s: the clips made here are not those libvmaf '
                      'scored (%s != %s)' % (golden['pair'], made,
                                             golden['sha256']))
                if clip_cache.made_by(ref):
                    # Damaged, or made by a build that differs under the
                    # same version line: the next run makes them again.
                    print('%s: removed from the cache' % os.path.dirname(ref))
                    shutil.rmtree(os.path.dirname(ref), ignore_errors=True)
                failed.append(golden['pair'])
                continue
            cmd = [exe, path, os.path.dirname(ref), models]
            # libvmaf's own logs of this pair: ours must be their bytes.
            if os.path.exists(os.path.join(HERE, 'golden-logs',
                                           golden['pair'] + '.json')):
                cmd.append(os.path.join(HERE, 'golden-logs'))
            rc = subprocess.run(cmd).returncode
        total += golden['frames']
        if rc != 0:
            failed.append(golden['pair'])
    print('%d pairs, %d frames compared, %d pairs skipped; %s' % (
        len(files) - len(skipped), total, len(skipped),
        'FAILED: ' + ', '.join(failed) if failed else
        'all equal to libvmaf' if total else 'nothing compared'))
    if failed:
        return 1
    return 0 if total else 77


if __name__ == '__main__':
    sys.exit(main(sys.argv))
