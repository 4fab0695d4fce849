#!/usr/bin/python3
# Writes the golden numbers of the VMAF golden set (tests/vmaf/golden/):
# libvmaf's own `vmaf` tool run on every pair of vmaf_pairs.py with the
# three models of issue 33, each pair's per-frame metrics exactly as
# `vmaf --json` prints them (6 decimals) and the pooled values.  Only the
# numbers are committed; the clips are made again by vmaf_pairs.py.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# The oracle (never in this tree): libvmaf v3.0.0 (tag v3.0.0, commit
# 17a67b238ce0539bdeafdc95961abac64fa16ea8) from github.com/Netflix/vmaf,
# built with Debian 12's meson and ninja:
#   cd libvmaf && meson setup /tmp/vmaf-build -Dbuildtype=release \
#       -Denable_asm=false -Denable_tests=false -Denable_docs=false
#   ninja -C /tmp/vmaf-build
# (enable_asm=false: libvmaf's C code, the fixed-point definition its SIMD
# paths follow.)
#
# Usage: make_vmaf_golden.py [--reuse] VMAF_TOOL CLIPDIR [NAME...]
#   --reuse: the clips and vmaf's JSON already in CLIPDIR are taken as they
#   are (after a run whose golden files are to be written again).
#
# A golden file: the pair's definition, the SHA-256 of its clips, the
# command, and 'metrics_micro': each metric's per-frame values as `vmaf`
# printed them, in millionths (its 6 decimals exactly); 'pooled_micro':
# each metric's min, max, mean and harmonic mean, likewise.

import hashlib
import json
import os
import subprocess
import sys

import vmaf_pairs

HERE = os.path.dirname(os.path.abspath(__file__))
GOLDEN = os.path.join(HERE, 'golden')
# libvmaf's own logs (--json, --xml, --csv) of these pairs are kept as
# they are, the reference of our log writer's bytes.
LOGS = os.path.join(HERE, 'golden-logs')
LOG_PAIRS = ('odd-1279x719-chelsea-zoom-scale3',)
# libvmaf's logs with one built-in model under its default name "vmaf",
# as cudacompare's stats-format=vmaf-* writes them (the element tests'
# reference): <pair>.<model>.<format>.
ELEMENT_LOGS = (('odd-1279x719-chelsea-zoom-scale3', 'vmaf_v0.6.1',
                 ('json', 'xml', 'csv')),
                ('p576-astronaut-zoom-scale2-10bit', 'vmaf_v0.6.1neg',
                 ('json',)))
# (built-in model, name in the output, options): the phone model is
# vmaf_v0.6.1 with its score transform enabled.
MODELS = (('vmaf_v0.6.1', 'vmaf_v0.6.1', ''),
          ('vmaf_v0.6.1neg', 'vmaf_v0.6.1neg', ''),
          ('vmaf_4k_v0.6.1', 'vmaf_4k_v0.6.1', ''),
          ('vmaf_v0.6.1', 'vmaf_v0.6.1_phone', ':enable_transform'))
ORACLE = ('libvmaf 3.0.0 (Netflix/vmaf tag v3.0.0, commit '
          '17a67b238ce0539bdeafdc95961abac64fa16ea8), meson '
          '-Dbuildtype=release -Denable_asm=false')


def vmaf_command(tool, ref, dist, pair, out):
    name, width, height, depth = pair[:4]
    cmd = [tool, '-r', ref, '-d', dist, '-w', str(width), '-h', str(height),
           '-p', '420', '-b', str(depth), '--threads', '1', '-q',
           '--json', '-o', out]
    for version, model_name, options in MODELS:
        cmd += ['--model', 'version=%s:name=%s%s' % (version, model_name,
                                                      options)]
    return cmd


# libvmaf's pooling methods, in the order its outputs list them.
POOLS = ('min', 'max', 'mean', 'harmonic_mean')


def sha256(path):
    h = hashlib.sha256()
    with open(path, 'rb') as f:
        for block in iter(lambda: f.read(1 << 20), b''):
            h.update(block)
    return h.hexdigest()


def golden_of(pair, command, result, clips):
    name, width, height, depth, segments, distortion = pair
    frames = result['frames']
    keys = list(frames[0]['metrics'].keys())
    # libvmaf prints 6 decimals: the values in millionths are those
    # digits exactly, in fewer bytes.
    metrics = {k: [round(f['metrics'][k] * 1e6) for f in frames]
               for k in keys}
    for i, f in enumerate(frames):
        if f['frameNum'] != i or list(f['metrics'].keys()) != keys:
            raise RuntimeError('%s: frame %d is not in order' % (name, i))
    return {
        'pair': name, 'width': width, 'height': height, 'depth': depth,
        'segments': segments, 'distortion': distortion,
        'frames': len(frames), 'oracle': ORACLE,
        # The clips libvmaf scored: the test checks that it made the same
        # (with the same FFmpeg build; another makes other clips).
        'sha256': {'ref': sha256(clips[0]), 'dist': sha256(clips[1])},
        'ffmpeg': vmaf_pairs.tools_version(),
        'version': result['version'],
        'command': ' '.join(os.path.basename(c) if c.endswith('.yuv')
                            or c == command[0] else c for c in command),
        'metrics_micro': metrics,
        'pooled_micro': {
            k: [round(v[m] * 1e6) for m in POOLS]
            for k, v in result['pooled_metrics'].items()},
    }


def main(argv):
    reuse = len(argv) > 1 and argv[1] == '--reuse'
    if reuse:
        argv = argv[:1] + argv[2:]
    if len(argv) < 3:
        print('usage: make_vmaf_golden.py [--reuse] VMAF_TOOL CLIPDIR '
              '[NAME...]', file=sys.stderr)
        return 2
    tool, clipdir = argv[1], argv[2]
    pairs = ([vmaf_pairs.pair_by_name(n) for n in argv[3:]] if argv[3:]
             else vmaf_pairs.PAIRS)
    os.makedirs(GOLDEN, exist_ok=True)
    for pair in pairs:
        out = os.path.join(clipdir, pair[0] + '.vmaf.json')
        if reuse:
            ref = os.path.join(clipdir, pair[0] + '.ref.yuv')
            dist = os.path.join(clipdir, pair[0] + '.dist.yuv')
            command = vmaf_command(tool, ref, dist, pair, out)
        else:
            ref, dist = vmaf_pairs.make_pair(clipdir, pair)
            command = vmaf_command(tool, ref, dist, pair, out)
            subprocess.run(command, check=True)
        with open(out) as f:
            result = json.load(f)
        golden = golden_of(pair, command, result, (ref, dist))
        with open(os.path.join(GOLDEN, pair[0] + '.json'), 'w') as f:
            json.dump(golden, f, separators=(',', ':'))
            f.write('\n')
        if pair[0] in LOG_PAIRS:
            os.makedirs(LOGS, exist_ok=True)
            for fmt in ('json', 'xml', 'csv'):
                log = os.path.join(LOGS, '%s.%s' % (pair[0], fmt))
                cmd = vmaf_command(tool, ref, dist, pair, log)
                cmd[cmd.index('--json')] = '--' + fmt
                subprocess.run(cmd, check=True)
        for log_pair, model, formats in ELEMENT_LOGS:
            if log_pair != pair[0]:
                continue
            os.makedirs(LOGS, exist_ok=True)
            for fmt in formats:
                log = os.path.join(LOGS, '%s.%s.%s' % (pair[0], model, fmt))
                cmd = vmaf_command(tool, ref, dist, pair, log)
                cmd = cmd[:cmd.index('--json')] + ['--' + fmt, '-o', log,
                                                   '--model',
                                                   'version=' + model]
                subprocess.run(cmd, check=True)
        print('%s: %d frames' % (pair[0], golden['frames']))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
