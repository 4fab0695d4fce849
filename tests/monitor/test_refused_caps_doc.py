#!/usr/bin/python3
# docs/reference/cudasharpness.md's refused-caps example is what the
# element does: the commands of its block are run with the build's plugin
# and give the error the block shows (the format it names is refused,
# and is not in the table of formats the element reads); the link-time
# example names the same format.  The example named YUY2 before, which
# the element reads.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(
    __file__)), '..', 'common'))
import scaffold  # noqa: E402

import re  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402

import monitor_common as mc  # noqa: E402

DOC = os.path.join(mc.SOURCE, 'docs', 'reference', 'cudasharpness.md')


def refused_block(text):
    """The commands ($ lines, with their continuations) and the output
    lines of the code block in the "Refused caps" paragraph."""
    para = text[text.index('**Refused caps.**'):]
    block = para[para.index('```'):]
    block = block[3:block.index('```', 3)].strip('\n').split('\n')
    commands, output, cur = [], [], None
    for line in block:
        if line.startswith('$ '):
            cur = line[2:]
        elif cur is not None:
            cur += '\n' + line
        else:
            output.append(line)
        if cur is not None and not cur.endswith('\\'):
            commands.append(cur)
            cur = None
    return para, commands, output


def text_of(b):
    return (b.decode(errors='replace') if isinstance(b, bytes) else b) or ''


def run(command, cwd):
    """What @command prints.  GStreamer 1.22's gst-launch-1.0 sometimes
    stays on after an error at preroll (rawvideoparse's, whatever follows
    it: a capsfilter as well), the errors printed: it is stopped then."""
    try:
        r = subprocess.run(['bash', '-c', command], cwd=cwd,
                           capture_output=True, timeout=20,
                           stdin=subprocess.DEVNULL)
        return text_of(r.stdout) + text_of(r.stderr)
    except subprocess.TimeoutExpired as e:
        mc.log('(%s stayed on after its errors: stopped)' % command[:40])
        return text_of(e.stdout) + text_of(e.stderr)


def words(s):
    return ' '.join(s.split())


def main():
    if not shutil.which('gst-launch-1.0'):
        scaffold.skip('gst-launch-1.0 missing')
    fx = mc.Failures()
    with open(DOC) as f:
        text = f.read()
    para, commands, output = refused_block(text)
    shown = words(' '.join(output))
    m = re.search(r'does not support video format (\w+)', shown)
    fmt = m.group(1) if m else None
    table = re.search(r'^\| system memory \| ([^|]+) \|', text, re.MULTILINE)
    readable = [f.strip() for f in table.group(1).split(',')] if table else []
    fx.check(commands and fmt and readable and fmt not in readable,
             'the example runs commands (%d) and names a format (%s) the '
             'element does not read (%s)' % (len(commands), fmt,
                                             ', '.join(readable)))
    if not (commands and fmt):
        fx.finish()
    out = ''
    with tempfile.TemporaryDirectory(prefix='refused-caps-') as tmp:
        for c in commands:
            out += run(c, tmp)
    got = words(out)
    # The error's first lines, as the block shows them (the debug info
    # names a source line, which moves).
    want = words(' '.join(output[:output.index('Additional debug info:')]
                          if 'Additional debug info:' in output else output))
    fx.check(want in got, 'running it gives the error the doc shows:\n  '
             'doc: %s\n  got: %s' % (want, got[-600:]))
    m = re.search(r'`(videotestsrc ! video/x-raw,format=\w+ ! cudasharpness)`',
                  para)
    if fx.check(m and fmt in m.group(1), 'the link-time example names %s '
                '(%s)' % (fmt, m and m.group(1))):
        r = subprocess.run(['gst-launch-1.0', 'videotestsrc',
                            'num-buffers=1', '!', 'video/x-raw,format=' + fmt,
                            '!', 'cudasharpness', '!', 'fakesink'],
                           capture_output=True, text=True, timeout=60,
                           stdin=subprocess.DEVNULL)
        said = "can't handle caps video/x-raw, format=(string)%s" % fmt
        fx.check(r.returncode != 0 and said in r.stdout + r.stderr and
                 said in words(para), 'gst-launch-1.0 refuses to link it, '
                 'as the doc says: %s' % (r.stdout + r.stderr).strip())
    fx.finish()


if __name__ == '__main__':
    main()
