#!/usr/bin/python3
# The CUDA backend's tuning options are named once and documented: the
# environment variables of cuda/sharpness-cuda-tuning.h are exactly the
# rows of the Tuning table of docs/reference/cudasharpness.md, each row
# says its values, default, when it is read and what it does; every
# production source reads the environment through those names (no
# "SHARPNESS_..." literal handed to getenv), and every name is read
# somewhere (no option documented that nothing reads).
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
import os
import re
import sys

ROOT = os.path.abspath(os.environ.get(
    'SHARPNESS_SOURCE_ROOT',
    os.path.join(os.path.dirname(__file__), '..', '..')))
HEADER = 'cuda/sharpness-cuda-tuning.h'
PAGE = 'docs/reference/cudasharpness.md'
# What is built into the plugin, the libraries and the tools.
PRODUCTION = ['core', 'cpu', 'cuda', 'gst', 'analysis', 'tools']
SOURCE = re.compile(r'\.(c|h|cu|cuh|cpp)$')
DEFINE = re.compile(r'^#define (SHARPNESS_CUDA_ENV_\w+) "(\w+)"', re.M)
# An environment read with a literal name of ours.
LITERAL_READ = re.compile(
    r'\b(?:g_getenv|getenv|secure_getenv|env_int|env_tunable)\s*\(\s*'
    r'"SHARPNESS_\w*"')


def read(path):
    with open(os.path.join(ROOT, path), encoding='utf-8') as f:
        return f.read()


def tuning_rows(text):
    """{variable: cells} of the table under '### Tuning'."""
    m = re.search(r'^### Tuning\n(.*?)(?=^#)', text, re.S | re.M)
    if not m:
        return None
    rows = {}
    for line in m.group(1).splitlines():
        cells = [c.strip() for c in line.strip().strip('|').split('|')]
        name = re.fullmatch(r'`(SHARPNESS_\w+)`', cells[0])
        if line.startswith('|') and name:
            rows[name.group(1)] = cells[1:]
    return rows


def production_sources():
    for top in PRODUCTION:
        for folder, _, files in os.walk(os.path.join(ROOT, top)):
            for name in files:
                if SOURCE.search(name):
                    path = os.path.join(folder, name)
                    yield os.path.relpath(path, ROOT)


def main():
    problems = []
    names = dict(DEFINE.findall(read(HEADER)))
    if not names:
        problems.append('%s defines no SHARPNESS_CUDA_ENV_ name' % HEADER)
    for macro, var in names.items():
        if macro != 'SHARPNESS_CUDA_ENV_' + var[len('SHARPNESS_CUDA_'):]:
            problems.append('%s: %s names %s (the macro must be the '
                            'variable after SHARPNESS_CUDA_)' %
                            (HEADER, macro, var))

    rows = tuning_rows(read(PAGE))
    if rows is None:
        problems.append('%s has no "### Tuning" section' % PAGE)
        rows = {}
    for var in sorted(set(names.values()) - set(rows)):
        problems.append('%s: %s is not in the Tuning table' % (PAGE, var))
    for var in sorted(set(rows) - set(names.values())):
        problems.append('%s: %s is documented but not in %s' %
                        (PAGE, var, HEADER))
    for var, cells in sorted(rows.items()):
        if len(cells) != 4 or not all(cells):
            problems.append('%s: the row of %s needs values, default, '
                            'read when and what' % (PAGE, var))

    used = set()
    for path in production_sources():
        if path == HEADER:
            continue
        text = read(path)
        for m in LITERAL_READ.finditer(text):
            line = text.count('\n', 0, m.start()) + 1
            problems.append('%s:%d: reads the environment by a literal '
                            'name; name it in %s' % (path, line, HEADER))
        used.update(macro for macro in names
                    if re.search(r'\b%s\b' % macro, text))
    for macro in sorted(set(names) - used):
        problems.append('%s: %s is read by no production source' %
                        (HEADER, macro))

    for p in problems:
        print(p)
    print('%d tuning options, %d rows, %d problems' %
          (len(names), len(rows), len(problems)))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
