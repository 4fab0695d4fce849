#!/usr/bin/python3
# sharpness-scan's command line: each bad value is refused (exit 2) with a
# message that names the option and its valid range, before any scan;
# two outputs on standard output, or standard input read twice, are
# refused; good values are taken as given (--threshold, --jobs).
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'common'))
import scaffold  # noqa: E402
scaffold.require('jsonschema')

import shutil  # noqa: E402
import tempfile  # noqa: E402

import scan_common as sc  # noqa: E402

# Each check printed as made, the failed ones counted.
check = scaffold.Checks()

# (arguments, words the message must have: the option and its range; a
# bad value is named with the option: "--window 0: ...")
BAD = [
    (['--window', '0'], ['--window', '1', '10000']),
    (['--window', '10001'], ['--window', '1', '10000']),
    (['--jobs', '-1'], ['--jobs', '1', '1024']),
    (['--jobs', '0'], ['--jobs', '1', '1024']),
    (['--min-duration', '-1'], ['--min-duration', '>= 0']),
    (['--relative-threshold', '2'], ['--relative-threshold', '[0, 1]']),
    (['--relative-threshold', '-0.5'], ['--relative-threshold', '[0, 1]']),
    (['--threshold', '-1'], ['--threshold', '>= 0']),
    (['--max-gap', '-1'], ['--max-gap', '>= 0']),
    (['--duration', '0'], ['--duration', '> 0']),
    (['--max-frames', '0'], ['--max-frames', '>= 1']),
    (['--csv', '-', '--json', '-'], ['--csv', '--json', 'standard output']),
    (['--json', '-', '--report', '-'], ['--json', '--report',
                                        'standard output']),
]


def main():
    sc.require_ffmpeg()
    sc.require_elements('cudasharpness')
    clip = sc.small_clip()
    tmp = tempfile.mkdtemp(prefix='scan-options-')

    for args, words in BAD:
        rc, out, err = sc.run(*args, clip, timeout=60)
        first = err.splitlines()[0] if err else ''
        named = 'standard output' in words or \
            first.startswith('sharpness-scan: %s %s: ' % tuple(args))
        check(rc == 2 and out == '' and named and
              all(w in first for w in words),
              '%s: exit %d, %r' % (' '.join(args), rc, first))

    rc, _, err = sc.run('-', '-', timeout=60)
    check(rc == 2 and 'standard input' in err,
          "'-' twice: exit %d, %r" % (rc, err.strip()))
    rc, _, err = sc.run('--input-list', '-', '-', timeout=60)
    check(rc == 2 and 'standard input' in err,
          "'-' and --input-list -: exit %d, %r" % (rc, err.strip()))

    # Good values: as given, not the defaults.
    j = os.path.join(tmp, 'o.json')
    rc, _, err = sc.run('--threshold', '0.6', '--jobs', '1', '--max-frames',
                        '3', '--json', j, clip, timeout=60)
    settings = sc.load_json(j)['files'][0]['settings'] if rc == 0 else {}
    errors = [e.message for e in sc.validator().iter_errors(
        sc.load_json(j))] if rc == 0 else ['no JSON']
    check(not errors, 'JSON valid against the schema: %s' % errors[:3])
    check(rc == 0 and settings.get('threshold') == 0.6 and
          settings.get('relative_threshold') == 0,
          '--threshold 0.6 taken: %r (%s)' % (settings, err))
    rc, _, err = sc.run('--threshold', '0', '--relative-threshold', '0.5',
                        '--max-frames', '3', '--json', j, clip, timeout=60)
    settings = sc.load_json(j)['files'][0]['settings'] if rc == 0 else {}
    check(rc == 0 and settings.get('threshold') == 0 and
          settings.get('relative_threshold') == 0.5,
          '--threshold 0 (off) with a relative rule: %r' % settings)

    shutil.rmtree(tmp, ignore_errors=True)
    check.finish('options')


if __name__ == '__main__':
    main()
