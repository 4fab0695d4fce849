#!/usr/bin/python3
# sharpness-monitor's configuration as it is checked (--check-config, and
# the same checks at startup): every source fragment is built (not
# started), so that a missing element, a caps string ending it or a
# fragment that cannot feed decodebin3 is refused with the file and line;
# a file:// channel's file must exist and be readable; the shipped
# example passes and its test-pattern channel scores without a restart;
# errors name the key's own line (an alarm's onset, a value from the
# defaults); duplicate keys anywhere and a second YAML document are
# errors with their line; the shipped file-SD Prometheus configuration
# finds its example targets (promtool check config, no warning).
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
import time  # noqa: E402

import monitor_common as mc  # noqa: E402

EXAMPLE = os.path.join(mc.SOURCE, 'tools', 'monitor', 'channels.example.yaml')
DEPLOY = os.path.join(mc.SOURCE, 'tools', 'monitor', 'deploy')
PATTERN = ('videotestsrc is-live=true ! capsfilter caps=video/x-raw,'
           'width=64,height=36,framerate=5/1')


def example_channel(name):
    """The lines of channel @name in the shipped example (its comments
    left out)."""
    with open(EXAMPLE) as f:
        lines = f.read().split('\n')
    start = lines.index('  - name: %s' % name)
    out = [lines[start]]
    for line in lines[start + 1:]:
        if line.startswith('  - ') or not line.startswith('    '):
            break
        out.append(line)
    return out


def check_inputs(fx, procs, cfg):
    """Source fragments and files are checked (item: the example restarts
    for ever, a missing element and a missing file pass)."""
    rc, out = mc.run_tool(['--config', EXAMPLE])
    fx.check(rc == 0 and 'test-pattern' in out,
             'the shipped example passes --check-config: %s' % out.strip())

    clip = os.path.join(procs.tmp, 'clip.ts')
    with open(clip, 'wb') as f:
        f.write(b'\x47' + b'\xff' * 187)
    bad = [
        ('    source: videotestsrc ! video/x-raw,width=64\n',
         'no element "video"', 'a fragment ending in a caps string'),
        ('    source: nosuchsrc ! queue\n', 'nosuchsrc',
         'a fragment with a missing element'),
        ('    source: videotestsrc patern=ball\n', 'patern',
         'a fragment with an unknown property'),
        ('    source: filesrc location=%s ! tsdemux\n' % clip,
         'cannot feed decodebin3', 'a fragment without a free src pad'),
        ('    source: videoconvert\n', 'source element',
         'a fragment that waits for input'),
        ('    uri: file:///nonexistent/clip.ts\n', '/nonexistent/clip.ts',
         'a file that does not exist'),
        ('    uri: file://%s\n' % procs.tmp, 'is a directory',
         'a directory as a file'),
    ]
    if os.geteuid() != 0:
        locked = os.path.join(procs.tmp, 'locked.ts')
        shutil.copy(clip, locked)
        os.chmod(locked, 0)
        bad.append(('    uri: file://%s\n' % locked, 'not readable',
                    'a file that is not readable'))
    else:
        mc.log('skip: a file that is not readable (root reads every file)')
    # The bad channel is the second one: its own line (5) is named.
    head = ('channels:\n  - name: good\n    source: %s\n  - name: bad\n'
            % PATTERN)
    for text, what, why in bad:
        path = cfg(head + text)
        rc, out = mc.run_tool(['--config', path])
        fx.check(rc == 2 and ('%s:5:' % path) in out and what in out,
                 '--check-config refuses %s, naming the file, line 5 and '
                 '%r: %s' % (why, what, out.strip()))
    # At startup too, before any channel or the server starts.
    path = cfg(head + bad[0][0])
    t = time.monotonic()
    rc, out = mc.run_tool(['--config', path, '--listen', '%s:%d' % (
        mc.HOST, mc.free_port())], check=False, timeout=20)
    fx.check(rc == 2 and 'no element "video"' in out and
             time.monotonic() - t < 30, 'startup refuses it as well (exit '
             '%s): %s' % (rc, out.strip()))
    rc, out = mc.run_tool(['/nonexistent/clip.ts'])
    fx.check(rc == 2 and '/nonexistent/clip.ts' in out,
             'a command-line file that does not exist: refused: %s' %
             out.strip())
    path = cfg(head + '    uri: file://%s\n' % clip)
    rc, out = mc.run_tool(['--config', path])
    fx.check(rc == 0 and 'bad\tfile://' in out, 'a readable file and a '
             'fragment that builds pass: %s' % out.strip())


def check_example_runs(fx, procs):
    """The example's test-pattern channel plays: frames scored, no
    restart (it restarted for ever on 'no element "video"')."""
    path = os.path.join(procs.tmp, 'example-pattern.yaml')
    with open(path, 'w') as f:
        f.write('channels:\n' + '\n'.join(example_channel('test-pattern')) +
                '\n')
    mon = mc.start_monitor(procs, ['--config', path])
    try:
        mc.wait_until('the test pattern scored', lambda: mc.get_json(
            mon, '/api/channels/test-pattern')['frames_scored'] >= 10, 20)
    except AssertionError as e:
        mc.log(str(e))
    ch = mc.get_json(mon, '/api/channels/test-pattern')
    fx.check(ch['frames_scored'] >= 10 and ch['restarts'] == 0 and ch['up'],
             "the example's test-pattern channel scores without a restart "
             '(%d frames, %d restarts, %s, %s)' % (
                 ch['frames_scored'], ch['restarts'], ch['state'],
                 ch.get('last_error')))
    procs.stop(mon)


def check_lines(fx, cfg):
    """Errors name the key's own line; duplicate keys and a second
    document are errors."""
    chan = 'channels:\n  - name: a\n    source: %s\n' % PATTERN
    cases = [
        (chan + '    alarms:\n      blur: {onset: 0.5}\n'
         '      black:\n        onset: -1\n', 7, 'alarms: black: onset',
         "an alarm's bad onset"),
        (chan + '    alarms:\n      silence: {level: 3}\n', 5,
         'alarms: silence: level', "an alarm's bad level (flow mapping)"),
        (chan + '    tiles: 8x4\n    threshold: -1\n', 5, 'threshold',
         'a bad threshold'),
        (chan + '    alarms:\n      blur: {onset: 1\n      black: {}\n', 6,
         'flow mapping (line 5)', "a YAML error inside alarms (where it "
         "is found, and where what it is in began)"),
        ('defaults:\n  metric: laplacian\n  window: 0\n' + chan, 3,
         'window', 'a bad value from the defaults'),
        (chan + '    tiles: 8x4\n    tiles: 4x4\n', 5,
         "duplicate key 'tiles' (first at line 4)", 'a channel key twice'),
        (chan + '    alarms:\n      blur: {onset: 1, onset: 2}\n', 5,
         "duplicate key 'onset'", 'an alarm key twice'),
        (chan + '    alarms:\n      blur: {onset: 1}\n      blur: '
         '{clear: 1}\n', 6, "duplicate key 'blur'", 'an alarm kind twice'),
        ('defaults:\n  window: 5\n' + chan + 'defaults:\n  window: 6\n', 6,
         "duplicate key 'defaults'", 'a top-level key twice'),
        (chan + '---\nchannels:\n  - name: b\n    source: %s\n' % PATTERN,
         4, 'second YAML document', 'a second document'),
    ]
    for text, line, what, why in cases:
        path = cfg(text)
        rc, out = mc.run_tool(['--config', path])
        fx.check(rc == 2 and ('%s:%d:' % (path, line)) in out and
                 what in out, '%s: refused at line %d with %r: %s' % (
                     why, line, what, out.strip()))
    path = cfg(chan + '...\n')
    rc, out = mc.run_tool(['--config', path])
    fx.check(rc == 0, 'an explicit document end alone is no second '
             'document: %s' % out.strip())


def check_file_sd(fx, procs):
    """promtool finds the targets prometheus-file-sd.yml reads."""
    if not shutil.which('promtool'):
        mc.log('skip: promtool missing (Debian package prometheus): the '
               'file-SD configuration is not checked')
        return
    deploy = os.path.join(procs.tmp, 'deploy')
    shutil.copytree(DEPLOY, deploy)
    r = subprocess.run(['promtool', 'check', 'config',
                        'prometheus-file-sd.yml'], cwd=deploy,
                       capture_output=True, text=True, timeout=120)
    out = r.stdout + r.stderr
    fx.check(r.returncode == 0 and 'WARNING' not in out and
             'does not exist' not in out,
             'promtool check config prometheus-file-sd.yml finds and '
             'checks its target files: %s' % out.strip())


def main():
    mc.require_tools()
    fx = mc.Failures()
    with mc.Procs() as procs:
        n = [0]

        def cfg(text):
            n[0] += 1
            path = os.path.join(procs.tmp, 'c%02d.yaml' % n[0])
            with open(path, 'w') as f:
                f.write(text)
            return path

        check_inputs(fx, procs, cfg)
        check_lines(fx, cfg)
        check_file_sd(fx, procs)
        check_example_runs(fx, procs)
    fx.finish()


if __name__ == '__main__':
    main()
