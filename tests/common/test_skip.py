#!/usr/bin/python3
# Every Python test must count as skipped, not fail or vanish, where a
# Python module it needs is missing: run each tests/SUITE/test_*.py with
# SHARPNESS_TEST_HIDE_MODULES hiding one module it needs and check that it
# exits 77 and prints "skipped: <module> missing".
#
# Usage: test_skip.py SUITE...   (folders of tests/, e.g. oracle bliinds2)
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import ast
import glob
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import scaffold  # noqa: E402


def required(path):
    """The modules of the script's scaffold.require (...) call, or None."""
    with open(path, encoding='utf-8') as f:
        tree = ast.parse(f.read(), path)
    for node in tree.body:
        if (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call)
                and ast.unparse(node.value.func) == 'scaffold.require'):
            return [a.value for a in node.value.args]
    return None


def check(script, hide, want):
    env = dict(os.environ, SHARPNESS_TEST_HIDE_MODULES=hide)
    res = subprocess.run([sys.executable, script], env=env,
                         capture_output=True, text=True, timeout=120)
    line = 'skipped: %s missing' % want
    name = os.path.relpath(script, scaffold.TESTS)
    if res.returncode != scaffold.SKIP or line not in res.stdout.splitlines():
        print('FAIL %s with %s hidden: exit %d, want %d and %r\n%s%s' % (
            name, hide, res.returncode, scaffold.SKIP, line, res.stdout,
            res.stderr))
        return False
    print('%s with %s hidden: %s' % (name, hide, line))
    return True


def main(suites):
    scripts = sorted(p for s in suites
                     for p in glob.glob(os.path.join(scaffold.TESTS, s,
                                                     'test_*.py')))
    failures = 0
    checked = 0
    for script in scripts:
        mods = required(script)
        if not mods:
            print('FAIL %s: no top-level scaffold.require (...) call'
                  % os.path.relpath(script, scaffold.TESTS))
            failures += 1
            continue
        # Hide each module it names in turn; the skip must name the first
        # one missing here (hidden, or really absent on this machine).
        for hide in mods:
            want = next(m for m in mods
                        if m == hide or scaffold.missing(m))
            failures += not check(script, hide, want)
            checked += 1
    # The hiding itself: a hidden module and its submodules do not import.
    env = dict(os.environ, SHARPNESS_TEST_HIDE_MODULES='json, email')
    probe = ('import sys; sys.path.insert(0, %r); import scaffold\n'
             'for m in ("json", "json.decoder", "email.message"):\n'
             '    try:\n'
             '        __import__(m)\n'
             '    except ImportError:\n'
             '        continue\n'
             '    sys.exit("%%s imported" %% m)\n' % scaffold.COMMON)
    res = subprocess.run([sys.executable, '-c', probe], env=env,
                         capture_output=True, text=True)
    if res.returncode != 0:
        print('FAIL: SHARPNESS_TEST_HIDE_MODULES did not hide: %s'
              % (res.stderr or res.stdout))
        failures += 1
    if not checked:
        print('FAIL: no Python test found in %s' % ', '.join(suites))
        failures += 1
    print('%d skip checks on %d scripts, %d failure(s)' % (
        checked, len(scripts), failures))
    return 1 if failures else 0


if __name__ == '__main__':
    if len(sys.argv) < 2:
        sys.exit('usage: test_skip.py SUITE...')
    sys.exit(main(sys.argv[1:]))
