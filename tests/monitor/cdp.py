#!/usr/bin/python3
# Headless Chromium driven through the DevTools protocol over a pipe
# (--remote-debugging-pipe: JSON messages ended by NUL on file descriptors
# 3 and 4), so that a test needs no WebSocket module: one page, commands
# and their answers, the page's console messages, exceptions and log
# entries kept as they come.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import base64
import fcntl
import json
import os
import subprocess
import threading
import time


class CdpError(RuntimeError):
    pass


class Browser:
    """One headless Chromium with one page of @size (CSS pixels, scale 1);
    stopped by close() or on leaving a `with` block."""

    def __init__(self, binary, profile, size, log_path):
        r, self._w = os.pipe()
        self._r, w = os.pipe()
        # Above 9, so that moving them to 3 and 4 clobbers neither.
        to_child_r = fcntl.fcntl(r, fcntl.F_DUPFD, 10)
        from_child_w = fcntl.fcntl(w, fcntl.F_DUPFD, 10)
        os.close(r)
        os.close(w)
        # Chromium reads commands on its fd 3 and writes on its fd 4 (the
        # shell moves the pipe's ends there).
        self._log = open(log_path, 'w')
        redirect = 'exec "$0" "$@" 3<&%d 4>&%d %d<&- %d>&-' % (
            to_child_r, from_child_w, to_child_r, from_child_w)
        self.proc = subprocess.Popen(
            ['bash', '-c', redirect, binary, '--headless', '--no-sandbox',
             '--disable-gpu', '--disable-background-networking',
             '--disable-component-update', '--disable-sync',
             '--no-first-run', '--hide-scrollbars',
             '--disable-background-timer-throttling',
             '--disable-renderer-backgrounding',
             '--user-data-dir=' + profile, '--remote-debugging-pipe',
             '--window-size=%d,%d' % size, 'about:blank'],
            stdin=subprocess.DEVNULL, stdout=self._log, stderr=self._log,
            pass_fds=(to_child_r, from_child_w), start_new_session=True)
        os.close(to_child_r)
        os.close(from_child_w)
        self._next = 0
        self._answers = {}
        self._cond = threading.Condition()
        self.console = []      # console calls, exceptions, log entries
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        self.session = None
        target = self.call('Target.createTarget',
                           url='about:blank')['targetId']
        self.session = self.call('Target.attachToTarget', targetId=target,
                                 flatten=True)['sessionId']
        for domain in ('Page', 'Runtime', 'Log', 'Performance'):
            self.call(domain + '.enable')
        self.call('Emulation.setDeviceMetricsOverride', width=size[0],
                  height=size[1], deviceScaleFactor=1, mobile=False)

    def _read(self):
        buf = b''
        while True:
            try:
                chunk = os.read(self._r, 1 << 16)
            except OSError:
                chunk = b''
            if not chunk:
                with self._cond:
                    self._answers[None] = 'closed'
                    self._cond.notify_all()
                return
            buf += chunk
            while b'\0' in buf:
                raw, buf = buf.split(b'\0', 1)
                msg = json.loads(raw)
                if 'id' in msg:
                    with self._cond:
                        self._answers[msg['id']] = msg
                        self._cond.notify_all()
                else:
                    self._event(msg)

    def _event(self, msg):
        m, p = msg.get('method'), msg.get('params', {})
        if m == 'Runtime.consoleAPICalled':
            self.console.append('console.%s: %s' % (p['type'], ' '.join(
                str(a.get('value', a.get('description', '')))
                for a in p.get('args', []))))
        elif m == 'Runtime.exceptionThrown':
            d = p['exceptionDetails']
            self.console.append('exception: %s' % d.get('exception', {}).get(
                'description', d.get('text')))
        elif m == 'Log.entryAdded':
            e = p['entry']
            self.console.append('log %s %s: %s %s' % (
                e['source'], e['level'], e['text'], e.get('url', '')))

    def call(self, method, timeout=60, **params):
        with self._cond:
            self._next += 1
            mid = self._next
        msg = {'id': mid, 'method': method, 'params': params}
        if self.session:
            msg['sessionId'] = self.session
        os.write(self._w, json.dumps(msg).encode() + b'\0')
        deadline = time.monotonic() + timeout
        with self._cond:
            while mid not in self._answers:
                if None in self._answers:
                    raise CdpError('chromium exited (%s)' % method)
                left = deadline - time.monotonic()
                if left <= 0:
                    raise CdpError('no answer to %s in %d s' % (method,
                                                               timeout))
                self._cond.wait(left)
            ans = self._answers.pop(mid)
        if 'error' in ans:
            raise CdpError('%s: %s' % (method, ans['error']))
        return ans.get('result', {})

    def eval(self, expression):
        """The JSON value of @expression (awaited if a promise)."""
        r = self.call('Runtime.evaluate', expression=expression,
                      returnByValue=True, awaitPromise=True)
        if 'exceptionDetails' in r:
            raise CdpError('%s: %s' % (expression[:60], r['exceptionDetails']
                                       .get('exception', {}).get(
                                           'description')))
        return r['result'].get('value')

    def metrics(self):
        return {m['name']: m['value'] for m in
                self.call('Performance.getMetrics')['metrics']}

    def screenshot(self, path):
        data = self.call('Page.captureScreenshot', format='png')['data']
        with open(path, 'wb') as f:
            f.write(base64.b64decode(data))
        return path

    def key(self, key, code=None, keycode=0):
        for kind in ('rawKeyDown', 'keyUp'):
            self.call('Input.dispatchKeyEvent', type=kind, key=key,
                      code=code or key, windowsVirtualKeyCode=keycode)

    def cpu_seconds(self):
        """CPU time of every Chromium process so far (its session)."""
        total = 0
        tick = os.sysconf('SC_CLK_TCK')
        for pid in os.listdir('/proc'):
            if not pid.isdigit():
                continue
            try:
                with open('/proc/%s/stat' % pid) as f:
                    st = f.read().rsplit(')', 1)[1].split()
            except OSError:
                continue
            # Fields after the name: state ppid pgrp session ...
            if int(st[3]) == self.proc.pid:
                total += (int(st[11]) + int(st[12])) / tick
        return total

    def close(self):
        try:
            self.call('Browser.close', timeout=10)
        except CdpError:
            pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, 9)
            self.proc.wait(10)
        os.close(self._w)
        self._log.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False
