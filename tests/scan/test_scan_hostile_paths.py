#!/usr/bin/python3
# sharpness-scan with the paths a careless or hostile user gives it (issue
# 29):
# - outputs that exist and are no regular file: a device node (a copy of
#   /dev/full made with mknod, and of /dev/null), a symbolic link to one, a
#   FIFO, are written in place and stay what they were (the scan renamed a
#   regular file over them); writing to the full device fails with an
#   error that names the output and says "No space left on device", and
#   exit 2; a symbolic link to a regular file stays a link and its target
#   gets the output;
# - input names that are not UTF-8: the JSON, the CSV and the report are
#   valid UTF-8 (each such byte U+FFFD), the JSON's uri has the exact
#   bytes (percent-encoded), the summary line too (as \xHH);
# - names with a newline or a terminal's escape character: each summary
#   and error line stays one line (\n, \x1b), the JSON keeps the name;
# - a relative name with a colon (take:2.ts) is a file, not a URI; so is
#   a directory named so; a name with a colon that does not exist is "no
#   such file".
# Device nodes need root (mknod): without it those cases are skipped,
# said in the output.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'common'))
import scaffold  # noqa: E402
scaffold.require('jsonschema')

import csv  # noqa: E402
import io  # noqa: E402
import json  # noqa: E402
import shutil  # noqa: E402
import stat  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402
import urllib.parse  # noqa: E402

import scan_common as sc  # noqa: E402

# Each check printed as made, the failed ones counted.
check = scaffold.Checks()


def run(args, cwd=None, timeout=120):
    """The tool on @args (str or bytes); (status, stdout, stderr) as
    bytes."""
    res = subprocess.run([os.fsencode(os.path.abspath(sc.TOOL))] +
                         [os.fsencode(a) for a in args],
                         stdin=subprocess.DEVNULL, capture_output=True,
                         cwd=cwd, timeout=timeout)
    return res.returncode, res.stdout, res.stderr


def utf8(data):
    """@data decoded as strict UTF-8, or None."""
    try:
        return data.decode('utf-8')
    except UnicodeDecodeError:
        return None


def make_node(path, device):
    """A character device node like @device at @path; False when this
    machine does not allow one here (not root, a nodev mount)."""
    try:
        os.mknod(path, 0o666 | stat.S_IFCHR, os.stat(device).st_rdev)
        with open(path, 'wb'):
            pass
        return True
    except OSError as e:
        print('cannot make a device node here (%s)' % e)
        return False


def is_char_device(path):
    return stat.S_ISCHR(os.lstat(path).st_mode)


def outputs_in_place(tmp, clip):
    full, null = os.path.join(tmp, 'full'), os.path.join(tmp, 'null')
    if make_node(full, '/dev/full') and make_node(null, '/dev/null'):
        link = os.path.join(tmp, 'link-to-full')
        os.symlink('full', link)
        for out, shown in ((full, 'the full device'),
                           (link, 'a symbolic link to the full device')):
            rc, _, err = run(['--quiet', '--json', out, clip])
            err = err.decode(errors='replace')
            check(rc == 2 and ('%s: write failed (No space left on device)'
                               % out) in err,
                  '--json to %s: exit 2, the error names it and ENOSPC '
                  '(exit %d, %r)' % (shown, rc, err.strip()))
        check(is_char_device(full), 'the full device is still a device')
        check(os.path.islink(link) and os.readlink(link) == 'full',
              'the link to it is still the link')
        rc, _, err = run(['--quiet', '--csv', null, '--report', null, clip])
        check(rc == 0 and is_char_device(null),
              '--csv and --report to a null device: exit 0, still a device '
              '(exit %d, %r)' % (rc, err))
    else:
        print('skipped: the device node cases (need root and a mount that '
              'allows device nodes)')

    # A FIFO: the scan writes into it as a reader reads it.
    fifo = os.path.join(tmp, 'out.fifo')
    os.mkfifo(fifo)
    got = []

    def reader():
        with open(fifo, 'rb') as f:
            got.append(f.read())

    t = threading.Thread(target=reader, daemon=True)
    t.start()
    try:
        rc, _, err = run(['--quiet', '--json', fifo, clip], timeout=60)
    finally:
        if t.is_alive():
            # Nobody opened it for writing: let the reader go.
            with open(fifo, 'wb'):
                pass
        t.join(timeout=10)
    try:
        doc = json.loads(got[0]) if got else None
    except ValueError:
        doc = None
    check(rc == 0 and doc is not None and
          doc['files'][0]['summary']['frames'] == 75,
          '--json to a FIFO: exit 0, its reader got the whole JSON (exit '
          '%d, %r)' % (rc, err))
    check(stat.S_ISFIFO(os.lstat(fifo).st_mode), 'the FIFO is still a FIFO')

    # A symbolic link to a regular file, through a relative link to a
    # link: the file gets the output, the links stay.
    sub = os.path.join(tmp, 'sub')
    os.makedirs(sub)
    target = os.path.join(tmp, 'real.json')
    with open(target, 'w') as f:
        f.write('old\n')
    os.symlink('../real.json', os.path.join(sub, 'inner.json'))
    link = os.path.join(tmp, 'link.json')
    os.symlink('sub/inner.json', link)
    rc, _, err = run(['--quiet', '--json', link, clip])
    try:
        doc = sc.load_json(target)
    except ValueError:
        doc = None
    check(rc == 0 and os.path.islink(link) and
          os.path.islink(os.path.join(sub, 'inner.json')) and
          doc is not None and doc['files'][0]['summary']['frames'] == 75,
          '--json to a link to a link to a file: the links stay, the file '
          'has the JSON (exit %d, %r)' % (rc, err))
    left = [n for n in os.listdir(tmp) + os.listdir(sub)
            if n.endswith('.part')]
    check(not left, 'no temporary file left: %r' % left)


def names_not_utf8(tmp, clip, validator):
    name = os.path.join(os.fsencode(tmp), b'clip-\xff\xfe-\xe9t\xe9.mp4')
    shutil.copy(clip, name)
    out = {k: os.path.join(tmp, 'latin.' + k) for k in ('json', 'csv',
                                                        'html')}
    rc, stdout, err = run(['--json', out['json'], '--csv', out['csv'],
                           '--report', out['html'], name])
    check(rc == 0, 'a name that is not UTF-8 scans (exit %d, %r)' % (rc,
                                                                    err))
    with open(out['json'], 'rb') as f:
        text = utf8(f.read())
    check(text is not None, 'the JSON is valid UTF-8')
    doc = json.loads(text) if text else None
    if doc:
        validator.validate(doc)
        f = doc['files'][0]
        want = name.decode('utf-8', errors='replace')
        check(f['input'] == want, 'its input is the name with U+FFFD for '
              'each byte that is not UTF-8 (%r)' % f['input'])
        exact = urllib.parse.unquote_to_bytes(
            urllib.parse.urlparse(f['uri']).path)
        check(exact == os.path.abspath(name),
              'its uri has the exact bytes (%r)' % f['uri'])
    with open(out['csv'], 'rb') as fh:
        text = utf8(fh.read())
    check(text is not None, 'the CSV is valid UTF-8')
    if text:
        rows = list(csv.reader(io.StringIO(text)))
        check(len(rows) == 76 and rows[1][0] ==
              name.decode('utf-8', errors='replace'),
              'the CSV names it as the JSON does')
    with open(out['html'], 'rb') as fh:
        check(utf8(fh.read()) is not None, 'the report is valid UTF-8')
    line = utf8(stdout)
    check(line is not None and line.count('\n') == 1 and
          '\\xff\\xfe-\\xe9t\\xe9.mp4: 75 frames' in line,
          'the summary line is UTF-8, the bytes as \\xHH (%r)' % stdout)


def names_with_controls(tmp, clip):
    name = os.path.join(tmp, 'a\nb\x1b[31m.mp4')
    shutil.copy(clip, name)
    missing = os.path.join(tmp, 'missing\nfile.mp4')
    j = os.path.join(tmp, 'controls.json')
    rc, stdout, err = run(['--json', j, name, missing])
    out, err = stdout.decode(), err.decode()
    check(out.count('\n') == 1 and out.startswith(
        os.path.join(tmp, 'a\\nb\\x1b[31m.mp4: 75 frames')),
        'a name with a newline and ESC: one summary line, escaped (%r)'
        % out)
    lines = [x for x in err.splitlines() if 'error' in x]
    check(len(lines) == 1 and lines[0] == 'sharpness-scan: %s: error: no '
          'such file' % os.path.join(tmp, 'missing\\nfile.mp4'),
          'its error line is one line (%r)' % err)
    doc = sc.load_json(j)
    check([f['input'] for f in doc['files']] == [name, missing],
          'the JSON has the names as they are')


def colons(tmp, clip):
    ts = sc.ffmpeg_clip('small.ts', ['-i', clip, '-c', 'copy'])
    shutil.copy(ts, os.path.join(tmp, 'take:2.ts'))
    rc, out, err = run(['take:2.ts'], cwd=tmp)
    check(rc == 0 and out.decode().startswith('take:2.ts: 75 frames'),
          'take:2.ts (relative, existing) is a file (exit %d, %r %r)'
          % (rc, out, err))
    folder = os.path.join(tmp, 'shots:day1')
    os.makedirs(folder)
    shutil.copy(clip, os.path.join(folder, 'a.mp4'))
    rc, out, err = run(['shots:day1'], cwd=tmp)
    check(rc == 0 and 'a.mp4: 75 frames' in out.decode(),
          'shots:day1 (a directory) is expanded (exit %d, %r %r)'
          % (rc, out, err))
    rc, out, err = run(['nosuch:3.ts'], cwd=tmp)
    check(rc == 2 and 'nosuch:3.ts: error: no such file' in err.decode(),
          'nosuch:3.ts: no such file (exit %d, %r)' % (rc, err))


def main():
    sc.require_ffmpeg()
    sc.require_elements('cudasharpness')
    validator = sc.validator()
    clip = sc.small_clip()
    with tempfile.TemporaryDirectory(prefix='scan-hostile-',
                                     ignore_cleanup_errors=True) as tmp:
        outputs_in_place(tmp, clip)
        names_not_utf8(tmp, clip, validator)
        names_with_controls(tmp, clip)
        colons(tmp, clip)
    check.finish('hostile paths')


if __name__ == '__main__':
    main()
