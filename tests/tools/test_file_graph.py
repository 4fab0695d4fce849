#!/usr/bin/python3
# Ownership flows one way among a program's files: no circle of files that
# call each other, nor of headers that include each other.  The call graph
# is read from the build's objects, not guessed from the text: nm lists
# what each object defines (T, D, B, R: functions and data) and what it
# uses from elsewhere (U), so file A calls file B exactly when one of A's
# undefined symbols is one of B's.  The include graph is read from the
# sources' #include "..." lines.  A circle is printed with the symbols on
# each of its edges, and fails the test.
#
# Usage: test_file_graph.py SOURCE_DIR OBJECT_DIR [SOURCE_DIR OBJECT_DIR...]
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import re
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(
    __file__)), '..', 'common'))
import scaffold  # noqa: E402

import shutil  # noqa: E402
import subprocess  # noqa: E402

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def symbols(obj):
    """(defined, undefined) global symbols of the object @obj."""
    out = subprocess.run(['nm', '--extern-only', obj], capture_output=True,
                         text=True, check=True, timeout=60).stdout
    defined, undefined = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 2 and parts[0] == 'U':
            undefined.add(parts[1])
        elif len(parts) == 3 and parts[1] in 'TDBRCVWG':
            defined.add(parts[2])
    return defined, undefined


def call_graph(src_dir, obj_dir):
    """{file: {file: [symbols]}}: the calls (and data uses) between the
    C files of @src_dir, read from their objects in @obj_dir."""
    # The program is what was built: every object whose source is in
    # @src_dir (a stale object of a removed file is not).  A source
    # without an object is not part of the program, and said.
    sources = sorted(f for f in os.listdir(src_dir) if f.endswith('.c'))
    objects = {}
    for f in sources:
        obj = os.path.join(obj_dir, f + '.o')
        if os.path.exists(obj):
            objects[f] = symbols(obj)
        else:
            print('note %s: not built into the program (no %s): not '
                  'checked' % (f, obj))
    if not objects:
        raise SystemExit('FAIL %s: no object in %s (build first)'
                         % (src_dir, obj_dir))
    sources = sorted(objects)
    owner = {}
    for f, (defined, _) in objects.items():
        for s in defined:
            owner[s] = f
    graph = {f: {} for f in sources}
    for f, (_, undefined) in objects.items():
        for s in sorted(undefined):
            g = owner.get(s)
            if g and g != f:
                graph[f].setdefault(g, []).append(s)
    return graph


def include_graph(src_dir):
    """{file: {file: ['#include']}}: the #include "..." lines between the
    files of @src_dir (headers found elsewhere are left out)."""
    files = sorted(f for f in os.listdir(src_dir)
                   if f.endswith('.c') or f.endswith('.h'))
    graph = {f: {} for f in files}
    for f in files:
        with open(os.path.join(src_dir, f), encoding='utf-8') as fh:
            for inc in INCLUDE.findall(fh.read()):
                if inc in graph and inc != f:
                    graph[f][inc] = ['#include']
    return graph


def circles(graph):
    """The strongly connected components of more than one file (Tarjan)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def report(what, src_dir, graph):
    found = circles(graph)
    name = os.path.basename(os.path.normpath(src_dir))
    edges = sum(len(v) for v in graph.values())
    if not found:
        print('ok   %s/: no circle of %s among %d files (%d edges)'
              % (name, what, len(graph), edges))
        return 0
    for comp in found:
        print('FAIL %s/: a circle of %s among %d files: %s'
              % (name, what, len(comp), ', '.join(comp)))
        for a in comp:
            for b, syms in sorted(graph[a].items()):
                if b in comp:
                    print('       %s -> %s: %s' % (a, b, ', '.join(syms)))
    return len(found)


def main():
    args = sys.argv[1:]
    if not args or len(args) % 2:
        raise SystemExit('usage: test_file_graph.py SOURCE_DIR OBJECT_DIR...')
    if not shutil.which('nm'):
        scaffold.skip('nm (binutils) missing')
    failures = 0
    for src_dir, obj_dir in zip(args[::2], args[1::2]):
        failures += report('calls', src_dir, call_graph(src_dir, obj_dir))
        failures += report('includes', src_dir, include_graph(src_dir))
    sys.exit(1 if failures else 0)


if __name__ == '__main__':
    main()
