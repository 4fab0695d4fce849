#!/usr/bin/python3
# What every Python test starts with: the shared modules on sys.path, and a
# check of the Python modules it needs that makes a missing one a visible
# skip (exit 77, "skipped: <module> missing") rather than a failure or a
# test that never runs.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# A test script begins with
#
#   import os, sys
#   sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(
#       __file__)), '..', 'common'))
#   import scaffold
#   scaffold.require('numpy', 'scipy', 'skimage', 'gi')
#
# before it imports any of those modules (or a module that does).
#
# SHARPNESS_TEST_HIDE_MODULES=numpy,gi (comma or space separated) makes
# those modules and their submodules fail to import, as on a machine that
# lacks them: tests/common/test_skip.py checks every Python test with it.

import importlib
import importlib.abc
import os
import shutil
import subprocess
import sys

SKIP = 77

COMMON = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(COMMON)
SOURCE_ROOT = os.environ.get('SHARPNESS_SOURCE_ROOT',
                             os.path.dirname(TESTS))


def _hidden():
    names = os.environ.get('SHARPNESS_TEST_HIDE_MODULES', '')
    return {n for n in names.replace(',', ' ').split() if n}


class _HideFinder(importlib.abc.MetaPathFinder):
    """Refuses the modules named in SHARPNESS_TEST_HIDE_MODULES."""

    def __init__(self, names):
        self.names = names

    def find_spec(self, fullname, path=None, target=None):
        if fullname.split('.')[0] in self.names:
            raise ModuleNotFoundError('No module named %r (hidden by '
                                      'SHARPNESS_TEST_HIDE_MODULES)'
                                      % fullname, name=fullname)
        return None


def _install_hider():
    names = _hidden()
    if not names:
        return
    if not any(isinstance(f, _HideFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _HideFinder(names))
    # Already imported (by site customisation, say): forget them.
    for mod in list(sys.modules):
        if mod.split('.')[0] in names:
            del sys.modules[mod]


_install_hider()

for _d in (COMMON,):
    if _d not in sys.path:
        sys.path.insert(0, _d)


def skip(reason):
    """Ends the test as skipped (meson counts exit 77 as SKIP)."""
    print('skipped: %s' % reason, flush=True)
    sys.exit(SKIP)


def missing(*modules):
    """The first of @modules that cannot be imported, or None.  'gi' also
    needs GStreamer's introspection data (Gst, GstVideo)."""
    for name in modules:
        try:
            importlib.import_module(name)
            if name == 'gi':
                import gi
                gi.require_version('Gst', '1.0')
                gi.require_version('GstVideo', '1.0')
        except (ImportError, ValueError):
            return name
    return None


def require(*modules):
    """Skips the test unless every one of @modules imports."""
    name = missing(*modules)
    if name:
        skip('%s missing' % name)


def use_suite(suite):
    """Puts tests/@suite (e.g. 'oracle') on sys.path, for a test of another
    suite that reuses its oracle."""
    d = os.path.join(TESTS, suite)
    if d not in sys.path:
        sys.path.insert(1, d)


def verdict(failures):
    """Prints each of @failures as 'FAIL: ...' and returns the test's exit
    status: 1 if there was any, else 0."""
    for f in failures:
        print('FAIL:', f)
    return 1 if failures else 0


def run_main(main, *arg_names):
    """Exits with main(*arguments) when the command line has one argument
    per name in @arg_names, else with a usage line naming them."""
    if len(sys.argv) != len(arg_names) + 1:
        sys.exit('usage: %s %s' % (os.path.basename(sys.argv[0]),
                                   ' '.join(arg_names)))
    sys.exit(main(*sys.argv[1:]))


def print_table(text, output=None):
    """Prints a test's result table and, with @output (a --output option),
    writes it there too, for the docs' figures."""
    print(text)
    if output:
        with open(output, 'w') as f:
            f.write(text)


def require_programs(*names):
    """Skips the test unless each of @names is a program on PATH (ffmpeg,
    say, the independent reference of an oracle test)."""
    for name in names:
        if not shutil.which(name):
            skip('%s missing' % name)


def have_element(name):
    """Whether GStreamer has the element @name (in the tests' registry)."""
    return subprocess.run(['gst-inspect-1.0', name],
                          stdin=subprocess.DEVNULL, capture_output=True,
                          timeout=60).returncode == 0


def require_elements(*names):
    """Skips the test unless GStreamer has each element of @names."""
    if not shutil.which('gst-inspect-1.0'):
        skip('gst-inspect-1.0 missing (gstreamer1.0-tools)')
    for name in names:
        if not have_element(name):
            skip('GStreamer element %s missing' % name)


def chromium():
    """The headless browser of the page tests (Debian's chromium, or
    another Chromium by its usual names); skips the test without one."""
    for name in ('chromium', 'chromium-browser', 'google-chrome'):
        path = shutil.which(name)
        if path:
            return path
    skip('chromium missing (Debian package chromium)')


class Checks:
    """Named checks, each printed as it is made ('ok   what' or
    'FAIL what') and the failed ones counted, so that one run shows them
    all; finish() ends the test."""

    def __init__(self):
        self.failures = 0

    def __call__(self, ok, what):
        print(('ok   ' if ok else 'FAIL ') + what, flush=True)
        self.failures += not ok

    def finish(self, passed=None):
        """Exits with status 1 after any failed check, their count
        printed; returns otherwise, after '<passed>: all checks passed'
        when @passed names what the test checked."""
        if self.failures:
            print('%d check(s) failed' % self.failures)
            sys.exit(1)
        if passed:
            print('%s: all checks passed' % passed)
