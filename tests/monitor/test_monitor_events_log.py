#!/usr/bin/python3
# The event log (--events) when writing fails and when it is not a
# regular file.  A full disk (a 64 KiB tmpfs mounted here, root only,
# made larger again halfway): no line of the log is ever two events
# merged or a part of one (every line is one JSON event, ids rising), the
# first failure and the recovery are said on stderr (once per change), the
# failures are counted in /metrics.  A device that always fails
# (/dev/full) and a FIFO: written in place, never rotated away (a device
# node of our own when root, so that the real one is never at risk), the
# failure said once; a FIFO's reader that goes away ends nothing (no
# SIGPIPE).  Events come fast from the faults clip looped as
# fast as it decodes.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(
    __file__)), '..', 'common'))
import scaffold  # noqa: E402
scaffold.require('numpy')

import json  # noqa: E402
import re  # noqa: E402
import stat  # noqa: E402
import subprocess  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402

import monitor_common as mc  # noqa: E402

FAILED = 'cannot write the event log'
RECOVERED = 'is written again'


def start(procs, ts, log, name, extra=()):
    cfg = mc.write_config(procs, [{'name': 'faults', 'uri': 'file://' + ts}],
                          defaults={'alarms': mc.CONFIG_ALARMS})
    return mc.start_monitor(procs, ['--config', cfg, '--loop',
                                    '--as-fast-as-possible', '--quiet',
                                    '--events', log] + list(extra),
                            name=name)


def wait(fx, what, cond, seconds):
    """mc.wait_until, a time-out a failed check (the other checks run)."""
    try:
        return mc.wait_until(what, cond, seconds)
    except AssertionError as e:
        fx.check(False, str(e))
        return False


def stderr_of(p):
    with open(p.log_path, errors='replace') as f:
        return f.read()


def log_errors(mon):
    st, body = mc.get(mon, '/metrics')
    m = re.search(rb'^sharpness_event_log_errors_total (\d+)', body,
                  re.MULTILINE)
    return int(m.group(1)) if m else -1


def check_lines(fx, what, data):
    """Every line one whole event, ids rising; the data ends a line."""
    bad, ids = [], []
    for line in data.split(b'\n')[:-1]:
        try:
            ids.append(json.loads(line)['id'])
        except (ValueError, KeyError):
            bad.append(line[:60] + b'...' + line[-60:])
    fx.check(not bad and data.endswith(b'\n') and ids == sorted(set(ids))
             and len(ids) > 0, '%s: %d lines, each one whole event, ids '
             'rising, the last one ended (%d bad: %s)' % (
                 what, len(ids), len(bad), bad[:2]))


def full_disk(fx, procs, ts):
    if os.geteuid() != 0:
        mc.log('SKIP full disk: not root (a small tmpfs is mounted for it)')
        return
    mnt = os.path.join(procs.tmp, 'small')
    os.mkdir(mnt)
    r = subprocess.run(['mount', '-t', 'tmpfs', '-o', 'size=64k', 'tmpfs',
                        mnt], capture_output=True, text=True, timeout=30)
    if r.returncode != 0:
        mc.log('SKIP full disk: cannot mount a tmpfs: %s' % r.stderr.strip())
        return
    try:
        log = os.path.join(mnt, 'events.jsonl')
        # Small thumbnails: many lines, a few to a page.
        mon = start(procs, ts, log, 'monitor-full', ['--thumbnail-width',
                                                     '32'])
        wait(fx, 'the full disk said on stderr',
                      lambda: FAILED in stderr_of(mon), 60)
        failed_at = os.path.getsize(log)
        time.sleep(1.5)     # more events fail meanwhile
        subprocess.run(['mount', '-o', 'remount,size=8m', mnt], check=True,
                       timeout=30)
        wait(fx, 'the recovery said on stderr',
                      lambda: RECOVERED in stderr_of(mon), 30)
        wait(fx, 'more events logged', lambda: os.path.getsize(log) >
                      failed_at + 20000, 30)
        errors = log_errors(mon)
        procs.stop(mon)
        # Near the edge a small line may fit after a large one failed:
        # each change of state is said, a failure then its recovery.
        said = re.findall(r'(%s)|%s \((\d+) events? not logged\)' % (
            FAILED, RECOVERED), stderr_of(mon))
        order = ['f' if f else 'r' for f, _ in said]
        lost = sum(int(n) for _, n in said if n)
        fx.check(order and order == ['f', 'r'] * (len(order) // 2) and
                 len(order) <= 20, 'full disk: the failure and the '
                 'recovery said on stderr, once per change (%s)' %
                 ''.join(order))
        fx.check(errors > 0 and lost == errors, 'full disk: the failed '
                 'lines counted in /metrics (%d) as said (%d)' % (errors,
                                                                  lost))
        with open(log, 'rb') as f:
            check_lines(fx, 'full disk', f.read())
    finally:
        subprocess.run(['umount', '-l', mnt], timeout=30)


def device(fx, procs, ts):
    """A device that fails every write, past the rotation size."""
    if os.geteuid() == 0:
        node = os.path.join(procs.tmp, 'full')
        os.mknod(node, 0o666 | stat.S_IFCHR, os.makedev(1, 7))
    else:
        node = '/dev/full'
    mon = start(procs, ts, node, 'monitor-device', ['--events-max-size',
                                                    '1'])
    # About 3 MB of events in 10 s: past the 1 MB at which a file rotates.
    wait(fx, 'the failure said', lambda: FAILED in stderr_of(mon), 30)
    wait(fx, '1 MB of events', lambda: log_errors(mon) > 60, 60)
    errors = log_errors(mon)
    alive = mc.get(mon, '/healthz')[0] == 200
    procs.stop(mon)
    err = stderr_of(mon)
    st = os.stat(node)
    fx.check(stat.S_ISCHR(st.st_mode) and st.st_rdev == os.makedev(1, 7)
             and not os.path.exists(node + '.1'),
             '%s: still the device, not rotated away (%d failed lines)' % (
                 node, errors))
    fx.check(alive and err.count(FAILED) == 1 and node in err,
             '%s: the failure said once, the monitor runs on: %s' % (
                 node, err.strip()[-300:]))


def fifo(fx, procs, ts):
    """A FIFO read by a collector, past the rotation size."""
    path = os.path.join(procs.tmp, 'events.fifo')
    os.mkfifo(path)
    got = bytearray()
    stop = threading.Event()

    def read():
        fd = os.open(path, os.O_RDONLY)
        try:
            while not stop.is_set():
                chunk = os.read(fd, 1 << 16)
                if not chunk:
                    break
                got.extend(chunk)
        finally:
            os.close(fd)
    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    mon = start(procs, ts, path, 'monitor-fifo', ['--events-max-size', '1'])
    wait(fx, '2 MB through the FIFO', lambda: len(got) > 2 << 20, 60)
    # The collector goes away: writes fail (EPIPE), no SIGPIPE ends the
    # monitor.
    stop.set()
    reader.join(10)
    wait(fx, 'the closed FIFO said', lambda: 'Broken pipe' in stderr_of(mon),
         30)
    alive = mon.poll() is None and mc.get(mon, '/healthz')[0] == 200
    procs.stop(mon)
    err = stderr_of(mon)
    fx.check(stat.S_ISFIFO(os.stat(path).st_mode) and
             not os.path.exists(path + '.1'),
             'a FIFO: written in place, not rotated away (%d kB through '
             'it)' % (len(got) // 1000))
    # The reader stopped where it was: its last line may be cut there.
    check_lines(fx, 'a FIFO', bytes(got[:got.rfind(b'\n') + 1]))
    fx.check(alive and err.count(FAILED) == 1, 'a FIFO whose reader went '
             'away: the failure said once, the monitor runs on: %s' %
             err.strip()[-300:])


def main():
    mc.require_tools('ffmpeg')
    ts = mc.faults_ts()
    fx = mc.Failures()
    with mc.Procs() as procs:
        full_disk(fx, procs, ts)
        device(fx, procs, ts)
        fifo(fx, procs, ts)
    fx.finish()


if __name__ == '__main__':
    main()
