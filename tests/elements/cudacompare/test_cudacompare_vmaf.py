#!/usr/bin/python3
# Test cudacompare-vmaf: makes the clips of the golden pairs the element
# test compares with libvmaf (tests/vmaf/vmaf_pairs.py; their SHA-256 must
# be those libvmaf scored), then runs test-cudacompare-vmaf with
# VMAF_GOLDEN_DIR and VMAF_CLIP_DIR.  Without FFmpeg, or with an FFmpeg
# build that makes other clips (Debian 13's), the golden cases skip,
# visibly, and the others still run.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Usage: test_cudacompare_vmaf.py TEST_EXE

import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
VMAF = os.path.join(HERE, '..', '..', 'vmaf')
sys.path.insert(0, VMAF)

import make_vmaf_golden  # noqa: E402
import vmaf_pairs  # noqa: E402

PAIRS = ('odd-721x405-coffee-pan-crf28', 'p576-astronaut-zoom-scale2-10bit',
         'odd-1279x719-chelsea-zoom-scale3')


def main(argv):
    exe = argv[1]
    env = dict(os.environ)
    with tempfile.TemporaryDirectory(prefix='cudacompare-vmaf-') as tmp:
        why = None
        if not shutil.which('ffmpeg'):
            why = 'no ffmpeg'
        else:
            tools = vmaf_pairs.tools_version()
            for name in PAIRS:
                with open(os.path.join(VMAF, 'golden', name + '.json')) as f:
                    golden = json.load(f)
                if golden['ffmpeg'] != tools:
                    why = 'the golden clips were made by %r, this machine ' \
                          'has %r' % (golden['ffmpeg'], tools)
                    break
                ref, dist = vmaf_pairs.make_pair(tmp,
                                                 vmaf_pairs.pair_by_name(name))
                made = {'ref': make_vmaf_golden.sha256(ref),
                        'dist': make_vmaf_golden.sha256(dist)}
                if made != golden['sha256']:
                    print('%s: the clips made here are not those libvmaf '
                          'scored' % name)
                    return 1
        if why:
            print('golden cases SKIPPED: %s' % why)
        else:
            env['VMAF_GOLDEN_DIR'] = VMAF
            env['VMAF_CLIP_DIR'] = tmp
        return subprocess.run([exe], env=env).returncode


if __name__ == '__main__':
    sys.exit(main(sys.argv))
