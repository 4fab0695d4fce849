#!/usr/bin/python3
# What the sharpness-monitor tests share: the faults clip (natural images
# with known blurs, black cut and fade, freeze and audio silence, made
# once per build tree), the live sources made from it (a paced UDP
# MPEG-TS sender, an SRT listener, an RTSP server, an HLS folder over a
# local HTTP server), the monitor process, and bounded HTTP polling.
# Every process and server a test starts is stopped when it ends (the
# Procs context manager), pass or fail; all traffic is on 127.0.0.1.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import calendar
import fcntl
import http.server
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

import scaffold

BUILD = os.environ.get('SHARPNESS_BUILD_ROOT', '.')
TOOL = os.environ.get('SHARPNESS_MONITOR_TOOL',
                      os.path.join(BUILD, 'tools', 'monitor',
                                   'sharpness-monitor'))
SCAN = os.path.join(BUILD, 'tools', 'sharpness-scan')
WORK = os.path.join(BUILD, 'tests', 'monitor', 'data')
SOURCE = scaffold.SOURCE_ROOT
HOST = '127.0.0.1'

# The faults clip: 320x180 at 30 fps, 26 s.
FPS = 30
W, H = 320, 180
SECONDS = 26
F = lambda s: int(round(s * FPS))  # noqa: E731
BLURS = [(F(2.0), F(0.3)), (F(4.0), F(2.0)), (F(15.0), F(5.0))]
BLACK_CUT = (F(8.0), F(2.0))
FADE = (F(21.0), F(1.0))          # to black, linear
FADE_BLACK = (F(22.0), F(1.5))    # then black, then a hard cut back
FREEZE = (F(12.0), F(2.0))
SILENCE = (9.0, 12.0)             # s of audio
AUDIO_RATE = 48000

# The alarms the tests configure (short onsets, so that the clip stays
# short); the 0.3 s blur is below blur's onset and must not alarm.
CONFIG_ALARMS = {
    'blur': {'onset': 0.5},
    'black': {'onset': 1.0},
    'freeze': {'onset': 1.0},
    'silence': {'onset': 1.0, 'level': -60},
    'no-signal': {'onset': 2.0},
}


def log(*a):
    print(*a, flush=True)


def require_tools(*names):
    for n in names:
        if not shutil.which(n):
            scaffold.skip('%s missing' % n)
    if not os.path.exists(TOOL):
        scaffold.skip('sharpness-monitor not built')


have_element = scaffold.have_element
require_elements = scaffold.require_elements


def _fade_factor(i):
    a, n = FADE
    if a <= i < a + n:
        return 1.0 - (i - a + 1) / n
    return None


def _frames():
    """The clip's frames (RGB uint8) and their truth."""
    import numpy as np
    scaffold.use_suite('scan')
    import clips
    blurs = [(a, n, 3) for a, n in BLURS]
    clip = clips.Clip('faults', W, H, FPS, F(SECONDS),
                      shots=[(0, clips.DETAILED, 2)], blurs=blurs)
    frozen = None
    for i in range(clip.frames):
        if FREEZE[0] <= i < FREEZE[0] + FREEZE[1]:
            if frozen is None:
                frozen = clip.frame(i)
            yield frozen
            continue
        if (BLACK_CUT[0] <= i < BLACK_CUT[0] + BLACK_CUT[1] or
                FADE_BLACK[0] <= i < FADE_BLACK[0] + FADE_BLACK[1]):
            yield np.zeros((H, W, 3), np.uint8)
            continue
        img = clip.frame(i)
        f = _fade_factor(i)
        if f is not None:
            img = np.clip(np.rint(img * f), 0, 255).astype(np.uint8)
        yield img


def black_frames_truth():
    """Per frame: black as FFmpeg's blackdetect decides with the element's
    defaults (luma <= 10 % of the limited range for 98 % of the pixels),
    from the frames before encoding."""
    import numpy as np
    out = []
    for img in _frames():
        lum = (0.299 * img[..., 0] + 0.587 * img[..., 1] +
               0.114 * img[..., 2])
        y = 16 + 219 * lum / 255
        out.append(np.mean(y <= 16 + 0.1 * 219) >= 0.98)
    return out


def _runs(flags):
    runs, start = [], None
    for i, f in enumerate(list(flags) + [False]):
        if f and start is None:
            start = i
        elif not f and start is not None:
            runs.append((start, i))
            start = None
    return runs


def truth():
    """[(kind, start s, end s)] the monitor must report, in clip time."""
    t = []
    for a, n in BLURS:
        if n / FPS >= CONFIG_ALARMS['blur']['onset']:
            t.append(('blur', a / FPS, (a + n) / FPS))
    for a, b in _runs(black_frames_truth()):
        if (b - a) / FPS >= CONFIG_ALARMS['black']['onset']:
            t.append(('black', a / FPS, b / FPS))
    t.append(('freeze', FREEZE[0] / FPS, (FREEZE[0] + FREEZE[1]) / FPS))
    t.append(('silence', SILENCE[0], SILENCE[1]))
    return sorted(t, key=lambda x: x[1])


def _write_audio(path):
    import numpy as np
    n = SECONDS * AUDIO_RATE
    t = np.arange(n) / AUDIO_RATE
    a = 0.1 * np.sin(2 * np.pi * 440 * t)
    a[int(SILENCE[0] * AUDIO_RATE):int(SILENCE[1] * AUDIO_RATE)] = 0
    pcm = (a * 32767).astype('<i2')
    with open(path, 'wb') as f:
        f.write(pcm.tobytes())


def _locked_make(name, make):
    os.makedirs(WORK, exist_ok=True)
    path = os.path.join(WORK, name)
    with open(os.path.join(WORK, 'lock'), 'w') as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not os.path.exists(path):
            part = path + '.part'
            make(part)
            os.rename(part, path)
    return path


def faults_ts():
    """The faults clip as MPEG-TS (H.264 GOP 0.5 s, AAC), made once."""
    def make(part):
        pcm = part + '.pcm'
        _write_audio(pcm)
        cmd = ['ffmpeg', '-nostdin', '-v', 'error', '-y',
               '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-s', '%dx%d' % (W, H),
               '-r', str(FPS), '-i', '-',
               '-f', 's16le', '-ar', str(AUDIO_RATE), '-ac', '1', '-i', pcm,
               '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '18',
               '-g', str(FPS // 2), '-bf', '0', '-pix_fmt', 'yuv420p',
               '-c:a', 'aac', '-b:a', '96k', '-threads', '1',
               '-f', 'mpegts', part]
        p = subprocess.Popen(cmd, stdin=subprocess.PIPE)
        for img in _frames():
            p.stdin.write(img.tobytes())
        p.stdin.close()
        if p.wait() != 0:
            raise RuntimeError('ffmpeg failed')
        os.remove(pcm)
    return _locked_make('faults.ts', make)


def faults_video_ts():
    """The faults clip without its audio (the video stream copied): for a
    GStreamer without an AAC decoder, as the GPU machine's staged ones.
    The source clip is made first, outside this one's lock (the same
    lock): only where this one is missing (the GPU machine gets it made
    and has no ffmpeg)."""
    ts = None if os.path.exists(os.path.join(WORK, 'faults-video.ts')) \
        else faults_ts()

    def make(part):
        subprocess.run(['ffmpeg', '-nostdin', '-v', 'error', '-y', '-i', ts,
                        '-map', '0:v', '-c', 'copy', '-f', 'mpegts', part],
                       check=True, timeout=60)
    return _locked_make('faults-video.ts', make)


def hls_folder():
    """The faults clip as an HLS VOD folder (index.m3u8, 2 s segments)."""
    ts = faults_ts()

    def make(part):
        os.makedirs(part)
        subprocess.run(['ffmpeg', '-nostdin', '-v', 'error', '-y', '-i', ts,
                        '-c', 'copy', '-f', 'hls', '-hls_time', '2',
                        '-hls_playlist_type', 'vod',
                        os.path.join(part, 'index.m3u8')], check=True,
                       timeout=120)
    return _locked_make('hls', make)


def novideo_ts():
    """An MPEG-TS with audio only."""
    def make(part):
        subprocess.run(['ffmpeg', '-nostdin', '-v', 'error', '-y', '-f',
                        'lavfi', '-i', 'sine=f=440:d=20', '-c:a', 'aac',
                        '-f', 'mpegts', part], check=True, timeout=120)
    return _locked_make('novideo.ts', make)


def _small_ts(name, seconds, black=False, audio=True, video_filter=None,
              timeout=120, rate=None):
    """A 160x90, 10 fps MPEG-TS (H.264, a key frame a second) of a moving
    test pattern, or black, lasting @seconds, with a 440 Hz tone (AAC) when
    @audio, @video_filter applied; with @rate, a constant multiplex of
    @rate bit/s (video 300 kbit/s, audio 64 kbit/s); made once as @name."""
    source = 'color=c=black:' if black else 'testsrc2='

    def make(part):
        cmd = ['ffmpeg', '-nostdin', '-v', 'error', '-y', '-f', 'lavfi',
               '-i', '%ss=160x90:r=10:d=%d' % (source, seconds)]
        if audio:
            cmd += ['-f', 'lavfi', '-i', 'sine=f=440:d=%d' % seconds]
        if video_filter:
            cmd += ['-vf', video_filter]
        cmd += ['-c:v', 'libx264', '-preset', 'veryfast', '-g', '10',
                '-pix_fmt', 'yuv420p']
        if audio:
            cmd += ['-c:a', 'aac']
        if rate:
            cmd += ['-b:v', '300k', '-b:a', '64k', '-muxrate', str(rate)]
        subprocess.run(cmd + ['-threads', '1', '-f', 'mpegts', part],
                       check=True, timeout=timeout)
    return _locked_make(name, make)


def constant_rate_ts(seconds, rate):
    """The test pattern and tone of @seconds in a multiplex of a constant
    @rate bit/s: the transport and SCTE 35 tests time packets by it."""
    return _small_ts('cbr-%ds-%d.ts' % (seconds, rate), seconds, rate=rate)


def tiny_ts():
    """A 6 s test pattern with an audio tone (the page and soak tests'
    many channels)."""
    return _small_ts('tiny.ts', 6)


def black_boxes_ts(name, seconds, black):
    """A test pattern of @seconds, no audio, black from a to b - 50 ms
    for each (a, b) of @black (s): alarms at known times."""
    boxes = ','.join("drawbox=enable='between(t,%g,%g)':color=black:"
                     "t=fill" % (a, b - 0.05) for a, b in black)
    return _small_ts(name, seconds, audio=False, video_filter=boxes)


def run_tool(args, check=True, timeout=60):
    """sharpness-monitor --cpu on @args, with --check-config unless
    @check is False: (exit status, output); None for the status when it
    was still running at @timeout (and was killed)."""
    try:
        r = subprocess.run([TOOL, '--cpu'] + (['--check-config'] if check
                                              else []) + args,
                           capture_output=True, text=True, timeout=timeout,
                           stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired as e:
        out = e.stdout or b''
        return None, (out.decode(errors='replace') if isinstance(out, bytes)
                      else out)
    return r.returncode, r.stdout + r.stderr


def utc(stamp):
    """Seconds since the epoch of the monitor's RFC 3339 time @stamp
    ("2026-...T...Z", with a fraction)."""
    head, frac = stamp.rstrip('Z').split('.')
    return calendar.timegm(time.strptime(head, '%Y-%m-%dT%H:%M:%S')) + \
        float('0.' + frac)


def free_port(kind=socket.SOCK_STREAM):
    s = socket.socket(socket.AF_INET, kind)
    s.bind((HOST, 0))
    port = s.getsockname()[1]
    s.close()
    return port


class Procs:
    """Processes and servers of a test, all stopped on exit."""

    def __init__(self):
        self.procs = []
        self.servers = []
        self.tmp = tempfile.mkdtemp(prefix='monitor-test-')

    def __enter__(self):
        return self

    def start(self, cmd, name, env=None, stdout=None):
        out = open(os.path.join(self.tmp, name + '.log'), 'w')
        p = subprocess.Popen([str(c) for c in cmd], stdin=subprocess.DEVNULL,
                             stdout=stdout or out, stderr=out, env=env,
                             start_new_session=True)
        p.log_path = out.name
        p.name = name
        self.procs.append(p)
        return p

    def stop(self, p, sig=signal.SIGTERM, timeout=20):
        if p.poll() is None:
            try:
                os.killpg(p.pid, sig)
            except ProcessLookupError:
                pass
            try:
                p.wait(timeout)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait(10)
        return p.returncode

    def serve(self, server):
        t = threading.Thread(target=server.serve_forever, daemon=True)
        t.start()
        self.servers.append(server)
        return server

    def __exit__(self, *exc):
        for p in reversed(self.procs):
            self.stop(p)
        for s in self.servers:
            s.shutdown()
            s.server_close()
        if exc[0] is None and not os.environ.get('MONITOR_TEST_KEEP'):
            shutil.rmtree(self.tmp, ignore_errors=True)
        else:
            log('logs kept in %s' % self.tmp)
            for p in self.procs:
                try:
                    with open(p.log_path) as f:
                        tail = f.read()[-3000:]
                    log('--- %s ---\n%s' % (p.name, tail))
                except OSError:
                    pass
        return False


# Senders: pre-encoded, paced by the clock (no encoding in the test).
def udp_sender(procs, ts, port, name='udp-sender', loop=False):
    src = 'multifilesrc loop=true' if loop else 'filesrc'
    return procs.start(['gst-launch-1.0', '-q', src, 'location=%s' % ts, '!',
                        'tsparse', 'set-timestamps=true', '!', 'udpsink',
                        'host=%s' % HOST, 'port=%d' % port, 'sync=true'],
                       name)


def start_prometheus(procs, target_port, job='monitor', rules=None,
                     alertmanager_port=None):
    """A real Prometheus on 127.0.0.1 scraping the monitor every second
    (and evaluating @rules every second, alerting the Alertmanager on
    @alertmanager_port); its port in .port once ready."""
    port = free_port()
    cfg = os.path.join(procs.tmp, 'prometheus.yml')
    with open(cfg, 'w') as f:
        f.write('global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n')
        if rules:
            f.write('rule_files: [%s]\n' % json.dumps(rules))
        if alertmanager_port:
            f.write('alerting:\n  alertmanagers:\n    - static_configs:\n'
                    '        - targets: ["%s:%d"]\n' % (HOST,
                                                        alertmanager_port))
        f.write('scrape_configs:\n  - job_name: %s\n'
                '    static_configs:\n      - targets: ["%s:%d"]\n'
                % (job, HOST, target_port))
    p = procs.start(['prometheus', '--config.file=' + cfg,
                     '--storage.tsdb.path=' + os.path.join(procs.tmp, 'tsdb'),
                     '--web.listen-address=%s:%d' % (HOST, port),
                     '--log.level=warn'], 'prometheus')
    p.port = port
    wait_http(p, '/-/ready', 60)
    return p


def rtp_sender(procs, ts, port, name='rtp-sender'):
    """MPEG-TS over RTP (payload type 33, as an IP encoder sends it)."""
    return procs.start(['gst-launch-1.0', '-q', 'filesrc', 'location=%s' % ts,
                        '!', 'tsparse', 'set-timestamps=true', '!',
                        'rtpmp2tpay', 'pt=33', '!', 'udpsink',
                        'host=%s' % HOST, 'port=%d' % port, 'sync=true'],
                       name)


def srt_listener(procs, ts, port, name='srt-sender'):
    return procs.start(['gst-launch-1.0', '-q', 'filesrc',
                        'location=%s' % ts, '!', 'tsparse',
                        'set-timestamps=true', '!', 'srtsink',
                        'uri=srt://%s:%d?mode=listener' % (HOST, port),
                        'wait-for-connection=true', 'sync=true'], name)


RTSP_SERVER = r'''
import sys, gi
gi.require_version('Gst', '1.0'); gi.require_version('GstRtspServer', '1.0')
from gi.repository import Gst, GstRtspServer, GLib
Gst.init(None)
s = GstRtspServer.RTSPServer(address='127.0.0.1', service=sys.argv[2])
f = GstRtspServer.RTSPMediaFactory()
f.set_launch('( filesrc location=%s ! tsparse set-timestamps=true ! '
             'identity sync=true ! rtpmp2tpay name=pay0 pt=33 )' % sys.argv[1])
f.set_shared(True)
s.get_mount_points().add_factory('/faults', f)
s.attach(None)
print('ready', flush=True)
GLib.MainLoop().run()
'''


def rtsp_server(procs, ts, port):
    script = os.path.join(procs.tmp, 'rtsp_server.py')
    with open(script, 'w') as f:
        f.write(RTSP_SERVER)
    return procs.start([sys.executable, script, ts, str(port)],
                       'rtsp-server')


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *a):
        pass


def http_folder(procs, folder):
    """Serves @folder on 127.0.0.1; returns the port."""
    handler = lambda *a, **kw: _QuietHandler(*a, directory=folder, **kw)  # noqa
    srv = http.server.ThreadingHTTPServer((HOST, 0), handler)
    srv.daemon_threads = True
    procs.serve(srv)
    return srv.server_address[1]


def write_config(procs, channels, defaults=None):
    """A YAML configuration (written by hand: no YAML module needed)."""
    lines = []
    if defaults:
        lines.append('defaults:')
        lines += _yaml(defaults, 2)
    lines.append('channels:')
    for ch in channels:
        first = True
        for line in _yaml(ch, 4):
            lines.append(('  - ' + line[4:]) if first else line)
            first = False
    path = os.path.join(procs.tmp, 'channels.yaml')
    with open(path, 'w') as f:
        f.write('\n'.join(lines) + '\n')
    return path


def _yaml(d, indent):
    out = []
    for k, v in d.items():
        if isinstance(v, dict):
            out.append(' ' * indent + '%s:' % k)
            out += _yaml(v, indent + 2)
        else:
            out.append(' ' * indent + '%s: %s' % (k, json.dumps(v)))
    return out


def start_monitor(procs, args, port=None, name='monitor'):
    port = port or free_port()
    env = dict(os.environ)
    p = procs.start([TOOL, '--cpu', '--listen', '%s:%d' % (HOST, port)] +
                    [str(a) for a in args], name, env=env)
    p.port = port
    wait_http(p, '/healthz', 30)
    return p


def page_dom(procs, port, name='chromium'):
    """The multiviewer page's DOM after 3 s of its scripts (headless
    Chromium), or None where Chromium is missing."""
    browser = shutil.which('chromium') or shutil.which('chromium-browser')
    if not browser:
        return None
    r = subprocess.run([
        browser, '--headless', '--no-sandbox', '--disable-gpu',
        '--disable-background-networking', '--disable-component-update',
        '--disable-sync', '--no-first-run',
        '--user-data-dir=' + os.path.join(procs.tmp, name),
        '--virtual-time-budget=3000', '--dump-dom',
        'http://%s:%d/' % (HOST, port)], capture_output=True, text=True,
        timeout=120, stdin=subprocess.DEVNULL)
    return r.stdout


def get(p_or_port, path, timeout=10, headers=None, method='GET', data=None):
    """(status, body bytes) of one request."""
    port = getattr(p_or_port, 'port', p_or_port)
    req = urllib.request.Request('http://%s:%d%s' % (HOST, port, path),
                                 method=method, data=data,
                                 headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def get_json(p, path):
    status, body = get(p, path)
    if status != 200:
        raise AssertionError('%s: HTTP %d %s' % (path, status, body[:200]))
    return json.loads(body)


def wait_http(p, path, seconds):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if p.poll() is not None:
            raise AssertionError('%s exited (%s) before answering' %
                                 (p.name, p.returncode))
        try:
            if get(p, path, timeout=2)[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise AssertionError('%s did not answer %s in %d s' % (p.name, path,
                                                            seconds))


def poll_until(cond, seconds, step=0.5):
    """@cond's first true value within @seconds (polled every @step s),
    else None."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        v = cond()
        if v:
            return v
        time.sleep(step)
    return None


def wait_until(what, cond, seconds, step=0.5):
    """Polls @cond (bounded in time) until it returns a true value; an
    AssertionError naming @what when none comes in @seconds."""
    v = poll_until(cond, seconds, step)
    if not v:
        raise AssertionError('timed out (%d s) waiting for %s'
                             % (seconds, what))
    return v


def check_still_scoring(fx, mon, what, channel='tiny.ts'):
    """Checks that @mon runs and its @channel scores frames (more after
    1.5 s): what a request the monitor refused must leave as it was."""
    f0 = get_json(mon, '/api/channels/' + channel)['frames_scored']
    time.sleep(1.5)
    f1 = get_json(mon, '/api/channels/' + channel)['frames_scored']
    fx.check(mon.poll() is None and f1 > f0, '%s (%d -> %d frames)'
             % (what, f0, f1))


def rss_kb(pid):
    """The resident memory of process @pid, in KiB; None once it has
    ended (gone, or a zombie: no VmRSS line)."""
    try:
        with open('/proc/%d/status' % pid) as f:
            for line in f:
                if line.startswith('VmRSS:'):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def events(p, channel=None):
    path = '/api/events?since=0' + ('&channel=' + urllib.request.quote(
        channel) if channel else '')
    return get_json(p, path)['events']


def check_promtool_metrics(fx, body):
    """promtool check metrics reports nothing on @body (a /metrics
    answer); skipped, and said, where promtool is missing."""
    if not shutil.which('promtool'):
        log('skip: promtool missing (Debian package prometheus)')
        return
    r = subprocess.run(['promtool', 'check', 'metrics'], input=body,
                       capture_output=True, timeout=60)
    fx.check(r.returncode == 0 and not r.stdout.strip() and
             not r.stderr.strip(), 'promtool check metrics: nothing to '
             'report (%s%s)' % (r.stdout.decode()[:500],
                                r.stderr.decode()[:500]))


class Failures:
    """Checks that go on after a failure; finish() exits 1 if any failed.
    The failed ones are printed again at the end: a test log's tail (all
    CI shows of it) then names them."""

    def __init__(self):
        self.failed = []

    @property
    def n(self):
        return len(self.failed)

    def check(self, cond, what):
        log(('ok   ' if cond else 'FAIL ') + what)
        if not cond:
            self.failed.append(what)
        return cond

    def finish(self):
        if self.failed:
            for what in self.failed:
                log('FAILED: ' + what)
            log('%d check(s) failed' % self.n)
            sys.exit(1)
        log('all checks passed')


def black_ts():
    """A 240 s black clip, no audio: an alarmed channel whose alarm stays
    on through a test.  A looping file's end ends its black run, and the
    alarm comes back one onset after the next start: a screenshot of a
    slow machine could land in between."""
    return _small_ts('black-240s.ts', 240, black=True, audio=False)


def long_ts():
    """A 320 s test pattern with a tone: channels that play through a
    soak (5 minutes) without coming to the end."""
    return _small_ts('long-320s.ts', 320, timeout=300)


def degraded_ts():
    """The faults clip re-encoded at a very low quality (a compared pair's
    distorted side: PSNR far below 30 dB)."""
    ts = faults_ts()

    def make(part):
        subprocess.run(['ffmpeg', '-nostdin', '-v', 'error', '-y', '-i', ts,
                        '-c:v', 'libx264', '-preset', 'veryfast', '-crf',
                        '50', '-g', str(FPS // 2), '-bf', '0', '-c:a', 'copy',
                        '-threads', '1', '-f', 'mpegts', part], check=True,
                       timeout=300)
    return _locked_make('degraded.ts', make)
