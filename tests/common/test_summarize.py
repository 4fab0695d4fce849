#!/usr/bin/python3
# tests/summarize.py on made-up meson testlog.json files: skips listed
# with their reasons, each failure named with the last lines it printed,
# the count line last (over every log given), and the exit status.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
import json
import os
import subprocess
import sys
import tempfile

import scaffold

SUMMARIZE = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                         os.pardir, 'summarize.py')
check = scaffold.Checks()


def summarize(*logs):
    """summarize.py on one testlog.json per list of tests in @logs."""
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for i, tests in enumerate(logs):
            paths.append(os.path.join(tmp, '%d.json' % i))
            with open(paths[-1], 'w') as log:
                for t in tests:
                    log.write(json.dumps(t) + '\n')
        run = subprocess.run([sys.executable, SUMMARIZE] + paths,
                             capture_output=True, text=True, timeout=60)
    return run.returncode, run.stdout.splitlines()


noisy = '\n'.join('line %d' % i for i in range(40)) + '\nFAIL: rate 29.1\n'
rc, out = summarize([
    {'name': 'suite / a', 'result': 'OK', 'stdout': ''},
    {'name': 'suite / b', 'result': 'SKIP', 'stdout': 'skipped: no CUDA device\n'},
    {'name': 'suite / c', 'result': 'FAIL', 'stdout': noisy, 'stderr': 'boom\n'},
    {'name': 'suite / d', 'result': 'TIMEOUT', 'stdout': None},
])
print('\n'.join(out))
check(rc == 1, 'a failure exits 1')
check(out[-1] == '1 passed, 2 failed, 1 skipped', 'the count line is last')
check('suite / b: skipped: no CUDA device' in out, 'a skip with its reason')
c = [i for i, l in enumerate(out) if l.startswith('FAILED suite / c: FAIL')]
check(len(c) == 1, 'the failed test named on a FAILED line')
if c:
    tail = out[c[0] + 1:c[0] + 13]
    check(tail[-2:] == ['    FAIL: rate 29.1', '    boom'] and
          all(l.startswith('    ') for l in tail),
          'its last lines follow, indented, stderr last')
check(any(l.startswith('FAILED suite / d: TIMEOUT') for l in out),
      'a timeout is a failure')

rc, out = summarize([{'name': 's / a', 'result': 'OK', 'stdout': ''}])
check(rc == 0 and out == ['1 passed, 0 failed, 0 skipped'], 'all passed: 0')
rc, out = summarize([{'name': 's / b', 'result': 'SKIP', 'stdout': ''}])
check(rc == 1 and 's / b: skipped (no reason printed)' in out,
      'none passed: 1, and a skip with no reason says so')

# Several logs (tests/run-suite.sh's lanes): counted together, a failure
# in the second one named.
rc, out = summarize([{'name': 's / a', 'result': 'OK', 'stdout': ''}],
                    [{'name': 's / e', 'result': 'FAIL', 'stdout': 'x\n'},
                     {'name': 's / f', 'result': 'OK', 'stdout': ''}])
check(rc == 1 and out[-1] == '2 passed, 1 failed, 0 skipped' and
      any(l.startswith('FAILED s / e: FAIL') for l in out),
      'two logs counted together, the failure of the second named')

check.finish('summarize')
