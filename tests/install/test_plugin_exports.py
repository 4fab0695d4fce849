#!/usr/bin/python3
# The plugin exports its descriptor and nothing else: the sharpness_* and
# compare_* functions of its static libraries stay inside it, so that a
# program linking the same libraries (sharpness-monitor, sharpness-scan)
# and loading the plugin keeps two separate copies (no ODR violation, no
# call bound to the other copy).  And the plugin still loads.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(
    __file__)), '..', 'common'))
import scaffold  # noqa: E402

import shutil  # noqa: E402
import subprocess  # noqa: E402

BUILD = os.environ.get('SHARPNESS_BUILD_ROOT', '.')
PLUGIN = os.path.join(BUILD, 'gst', 'libgstsharpness.so')
TOOLS = [os.path.join(BUILD, 'tools', 'sharpness-scan'),
         os.path.join(BUILD, 'tools', 'monitor', 'sharpness-monitor')]


def exported(path):
    out = subprocess.run(['nm', '-D', '--defined-only', path],
                         capture_output=True, text=True, check=True,
                         timeout=60).stdout
    return {line.split()[-1] for line in out.splitlines() if line.split()}


def main():
    if not shutil.which('nm'):
        scaffold.skip('nm (binutils) missing')
    failures = 0
    # The linker's own section bounds are not the plugin's.
    names = exported(PLUGIN) - {'__bss_start', '_edata', '_end', '_init',
                                '_fini'}
    allowed = {'gst_plugin_sharpness_get_desc', 'gst_plugin_sharpness_register',
               'gst_plugin_desc'}
    extra = sorted(names - allowed)
    print(('ok   ' if not extra else 'FAIL ') + 'the plugin exports only its '
          'descriptor: %s%s' % (sorted(names & allowed),
                                ' and %d more: %s' % (len(extra), extra[:10])
                                if extra else ''))
    failures += bool(extra)
    for tool in TOOLS:
        if not os.path.exists(tool):
            continue
        shared = sorted(n for n in exported(tool) & names
                        if n.startswith(('sharpness_', 'compare_')))
        print(('ok   ' if not shared else 'FAIL ') + '%s and the plugin share '
              'no exported function (%s)' % (os.path.basename(tool), shared[:5]))
        failures += bool(shared)
    r = subprocess.run(['gst-inspect-1.0', 'cudasharpness'],
                       capture_output=True, text=True, timeout=120,
                       stdin=subprocess.DEVNULL)
    ok = r.returncode == 0 and 'cudasharpness' in r.stdout
    print(('ok   ' if ok else 'FAIL ') + 'gst-inspect-1.0 loads it')
    failures += not ok
    print('%s' % ('all checks passed' if not failures else
                  '%d check(s) failed' % failures))
    sys.exit(1 if failures else 0)


if __name__ == '__main__':
    main()
