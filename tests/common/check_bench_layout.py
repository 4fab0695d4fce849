#!/usr/bin/python3
# Benchmarks are programs of bench/, not tests: no source named bench*
# lives under tests/ (a benchmark put back there would be built and read
# as a test), and every source bench/meson.build names is under bench/.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
import os
import re
import subprocess
import sys

ROOT = os.path.abspath(os.environ.get(
    'SHARPNESS_SOURCE_ROOT',
    os.path.join(os.path.dirname(__file__), '..', '..')))


def tracked(folder):
    """The files git tracks or is about to (untracked, not ignored) under
    @folder; every file below it outside a git checkout."""
    try:
        out = subprocess.run(
            ['git', '-C', ROOT, 'ls-files', '-z', '--cached', '--others',
             '--exclude-standard', '--', folder],
            capture_output=True, check=True).stdout
        return [f for f in out.decode('utf-8', 'replace').split('\0')
                if f and os.path.exists(os.path.join(ROOT, f))]
    except (OSError, subprocess.CalledProcessError):
        found = []
        for d, _, names in os.walk(os.path.join(ROOT, folder)):
            found += [os.path.relpath(os.path.join(d, n), ROOT)
                      for n in names]
        return found


def main():
    problems = ['%s: a benchmark under tests/ (it belongs in bench/)' % f
                for f in tracked('tests')
                if os.path.basename(f).lower().startswith('bench')]
    with open(os.path.join(ROOT, 'bench', 'meson.build'),
              encoding='utf-8') as f:
        build = f.read()
    for src in re.findall(r"'([\w./-]+\.(?:c|cu|py))'", build):
        if not os.path.exists(os.path.join(ROOT, 'bench', src)):
            problems.append('bench/meson.build names %s, which is not '
                            'under bench/' % src)
    for p in problems:
        print(p)
    print('%d problems' % len(problems))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
