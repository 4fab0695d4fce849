#!/usr/bin/python3
# sharpness-monitor's benchmark, for a GPU machine (docs/reference/sharpness-monitor.md,
# "Benchmark"): N channels of 1080p30 H.264 at real rate from paced senders
# on the loopback (a pre-encoded clip: the senders do not encode), through
# the monitor (classical metric, black and freeze, alarms, a webhook).
# Measures, and writes as OUTDIR/results.csv and OUTDIR/results.md:
#   - for N = 16, 64 and up: every channel's scored rate against the
#     source's (holds when all are >= 99 %), host CPU per channel, NVDEC
#     utilisation (nvidia-smi, when there is one); the largest N that holds;
#   - beside it, the largest N of decoders alone (udpsrc ! tsdemux !
#     h264parse ! nvh264dec ! fakesink at real rate, one process);
#   - alarm latency: the clip's black stretch starts at a known time of each
#     sender; latency = webhook received - (that time + the black onset);
#     p50 and p99 over channels and loops;
#   - /metrics render time at 200 channels;
#   - a soak (8 minutes at 64 channels by default) with the monitor's RSS.
# Needs only the GStreamer runtime with gi, the build and nothing on the
# network but 127.0.0.1.  `--quick` (small frames, CPU, short steps) checks
# the program itself on a machine without a GPU.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import argparse
import csv
import http.server
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

HOST = '127.0.0.1'
HERE = os.path.dirname(os.path.abspath(__file__))
FPS = 30
CLIP_SECONDS = 20
BLACK_AT, BLACK_FRAMES = 10.0, 90       # 3 s of black from 10 s
BLACK_ONSET = 1.0


def log(*a):
    print(*a, flush=True)


def free_port(kind=socket.SOCK_STREAM):
    s = socket.socket(socket.AF_INET, kind)
    s.bind((HOST, 0))
    p = s.getsockname()[1]
    s.close()
    return p


def gst():
    import gi
    gi.require_version('Gst', '1.0')
    from gi.repository import Gst
    Gst.init(None)
    return Gst


# ---- the clip ------------------------------------------------------------

def make_clip(path, width, height):
    """A 20 s H.264 MPEG-TS of a moving test pattern with 3 s of black,
    encoded by the first H.264 encoder GStreamer has."""
    Gst = gst()
    enc = None
    kbps = max(300, 8000 * width * height // (1920 * 1080))
    for name, props in (('nvh264enc', 'bitrate=%d gop-size=30' % kbps),
                        ('x264enc', 'bitrate=%d key-int-max=30 '
                         'speed-preset=veryfast' % kbps),
                        ('openh264enc', 'bitrate=%d gop-size=30' % (
                            kbps * 1000)),
                        ('avenc_h264', '')):
        if Gst.ElementFactory.find(name):
            enc = '%s %s' % (name, props)
            break
    if not enc:
        sys.exit('bench-monitor: no H.264 encoder in GStreamer (nvh264enc, '
                 'x264enc, openh264enc): give a clip with --clip')
    desc = ('videotestsrc name=src pattern=ball animation-mode=frames '
            'num-buffers=%d ! video/x-raw,format=I420,width=%d,height=%d,'
            'framerate=%d/1 ! videoconvert ! %s ! h264parse ! mpegtsmux ! '
            'filesink location=%s' % (CLIP_SECONDS * FPS, width, height, FPS,
                                      enc, path))
    p = Gst.parse_launch(desc)
    src = p.get_by_name('src')
    first = int(BLACK_AT * FPS)
    count = [0]

    # The black stretch: the test source's pattern, switched for those
    # frames (it takes effect from the next frame it makes).
    def probe(pad, info):
        count[0] += 1
        if count[0] == first:
            src.set_property('pattern', 'black')
        elif count[0] == first + BLACK_FRAMES:
            src.set_property('pattern', 'ball')
        return Gst.PadProbeReturn.OK
    src.get_static_pad('src').add_probe(Gst.PadProbeType.BUFFER, probe)
    p.set_state(Gst.State.PLAYING)
    msg = p.get_bus().timed_pop_filtered(600 * Gst.SECOND,
                                         Gst.MessageType.EOS |
                                         Gst.MessageType.ERROR)
    p.set_state(Gst.State.NULL)
    if not msg or msg.type != Gst.MessageType.EOS:
        sys.exit('bench-monitor: encoding the clip failed (%s)' % (
            msg.parse_error()[0].message if msg else 'timeout'))


# ---- senders and decoders-only channels (child processes) ---------------

def run_senders(clip, ports, start_file):
    """Paced senders, one pipeline per port, looping; writes each loop's
    start (wall clock) to @start_file as JSON lines."""
    Gst = gst()
    from gi.repository import GLib
    loop = GLib.MainLoop()
    out = open(start_file, 'a')
    pipes = []

    def start(p, port):
        p.set_state(Gst.State.NULL)
        p.set_state(Gst.State.PLAYING)
        out.write(json.dumps({'port': port, 'start': time.time()}) + '\n')
        out.flush()

    for port in ports:
        p = Gst.parse_launch('filesrc location=%s ! tsparse set-timestamps='
                             'true ! udpsink host=%s port=%d sync=true' % (
                                 clip, HOST, port))

        def on_msg(bus, msg, p=p, port=port):
            if msg.type in (Gst.MessageType.EOS, Gst.MessageType.ERROR):
                GLib.idle_add(lambda: start(p, port) and False)
        bus = p.get_bus()
        bus.add_signal_watch()
        bus.connect('message', on_msg)
        pipes.append(p)
        start(p, port)
    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGTERM, loop.quit)
    loop.run()
    for p in pipes:
        p.set_state(Gst.State.NULL)


def run_decoders(ports, decoder, count_file):
    """udpsrc ! tsdemux ! h264parse ! DECODER ! fakesink per port; writes
    the frame counts every second to @count_file."""
    Gst = gst()
    from gi.repository import GLib
    loop = GLib.MainLoop()
    counts = {p: 0 for p in ports}
    lock = threading.Lock()
    pipes = []
    for port in ports:
        p = Gst.parse_launch(
            'udpsrc address=%s port=%d caps=video/mpegts,systemstream=true '
            '! tsdemux ignore-pcr=true ! h264parse ! %s ! fakesink '
            'name=s sync=false' % (HOST, port, decoder))

        def probe(pad, info, port=port):
            with lock:
                counts[port] += 1
            return Gst.PadProbeReturn.OK
        p.get_by_name('s').get_static_pad('sink').add_probe(
            Gst.PadProbeType.BUFFER, probe)
        p.set_state(Gst.State.PLAYING)
        pipes.append(p)

    def dump():
        with lock:
            data = json.dumps(counts)
        with open(count_file + '.part', 'w') as f:
            f.write(data)
        os.replace(count_file + '.part', count_file)
        return True
    GLib.timeout_add(1000, dump)
    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGTERM, loop.quit)
    loop.run()
    for p in pipes:
        p.set_state(Gst.State.NULL)


# ---- measurement helpers -------------------------------------------------

class Run:
    """Processes of one step, stopped at its end."""

    def __init__(self, tmp):
        self.tmp = tmp
        self.procs = []

    def start(self, cmd, name, env=None):
        f = open(os.path.join(self.tmp, name + '.log'), 'w')
        p = subprocess.Popen(cmd, stdout=f, stderr=f, stdin=subprocess.DEVNULL,
                             env=env, start_new_session=True)
        self.procs.append(p)
        return p

    def stop(self):
        for p in reversed(self.procs):
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGTERM)
                try:
                    p.wait(30)
                except subprocess.TimeoutExpired:
                    os.killpg(p.pid, signal.SIGKILL)
                    p.wait(10)
        self.procs = []


def http_get(port, path, timeout=10):
    with urllib.request.urlopen('http://%s:%d%s' % (HOST, port, path),
                                timeout=timeout) as r:
        return r.read()


def wait_http(port, seconds=60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            http_get(port, '/healthz', 2)
            return True
        except OSError:
            time.sleep(0.3)
    return False


def cpu_seconds(pid):
    with open('/proc/%d/stat' % pid) as f:
        fields = f.read().rsplit(')', 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf('SC_CLK_TCK')


def rss_kb(pid):
    with open('/proc/%d/status' % pid) as f:
        for line in f:
            if line.startswith('VmRSS:'):
                return int(line.split()[1])
    return 0


class Nvdec:
    """nvidia-smi's decoder utilisation, sampled every second."""

    def __init__(self):
        self.samples = []
        self.proc = None
        if shutil.which('nvidia-smi'):
            self.proc = subprocess.Popen(
                ['nvidia-smi', '--query-gpu=utilization.decoder',
                 '--format=csv,noheader,nounits', '-lms', '1000'],
                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            try:
                self.samples.append(float(line.split(',')[0]))
            except ValueError:
                pass

    def mean_since(self, n0):
        s = self.samples[n0:]
        return statistics.mean(s) if s else float('nan')

    def stop(self):
        if self.proc:
            self.proc.terminate()
            self.proc.wait(10)


class Webhook:
    """Records when each channel's black alarm fires."""

    def __init__(self):
        self.fired = []
        hook = self

        class H(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                t = time.time()
                n = int(self.headers.get('Content-Length', 0))
                body = json.loads(self.rfile.read(n))
                a = body['alerts'][0]
                if body['status'] == 'firing' and \
                        a['labels']['kind'] == 'black':
                    hook.fired.append((a['labels']['channel'], t))
                self.send_response(200)
                self.end_headers()

            def log_message(self, *a):
                pass
        self.srv = http.server.ThreadingHTTPServer((HOST, 0), H)
        self.srv.daemon_threads = True
        threading.Thread(target=self.srv.serve_forever, daemon=True).start()
        self.url = 'http://%s:%d/' % (HOST, self.srv.server_address[1])

    def close(self):
        self.srv.shutdown()
        self.srv.server_close()


def write_config(path, ports, metric):
    with open(path, 'w') as f:
        f.write('defaults:\n  metric: %s\n  threshold: 0\n'
                '  relative-threshold: 0.5\n  alarms:\n'
                '    black: {onset: %g}\n    freeze: {onset: 2}\n'
                '    no-signal: {onset: 5}\nchannels:\n' % (metric,
                                                           BLACK_ONSET))
        for i, port in enumerate(ports):
            f.write('  - name: ch%03d\n    uri: udp://%s:%d\n' % (i, HOST,
                                                                  port))


def percentile(values, q):
    if not values:
        return float('nan')
    v = sorted(values)
    k = min(len(v) - 1, max(0, int(round(q / 100.0 * (len(v) - 1)))))
    return v[k]


# ---- the steps -------------------------------------------------------------

def monitor_step(args, tmp, n, seconds, warmup, soak=False):
    """N channels through the monitor; returns the step's measurements."""
    run = Run(tmp)
    hook = Webhook()
    nv = Nvdec()
    ports = [free_port(socket.SOCK_DGRAM) for _ in range(n)]
    cfg = os.path.join(tmp, 'channels-%d.yaml' % n)
    write_config(cfg, ports, args.metric)
    http_port = free_port()
    starts = os.path.join(tmp, 'starts-%d.jsonl' % n)
    open(starts, 'w').close()
    res = {'n': n}
    try:
        cmd = [args.monitor, '--config', cfg, '--listen', '%s:%d' % (
            HOST, http_port), '--webhook', hook.url, '-q',
            '--restart-after', '0']
        if args.cpu:
            cmd.append('--cpu')
        mon = run.start(cmd, 'monitor-%d' % n)
        if not wait_http(http_port):
            raise RuntimeError('the monitor did not start (see %s)' % tmp)
        # Senders, in groups of 32 channels a process.
        for g in range(0, n, 32):
            run.start([sys.executable, __file__, '--senders', args.clip,
                       starts] + [str(p) for p in ports[g:g + 32]],
                      'senders-%d-%d' % (n, g))
        time.sleep(warmup)

        def scored():
            return {c['name']: c['frames_scored'] for c in json.loads(
                http_get(http_port, '/api/channels', 30))}
        s0, t0, c0 = scored(), time.monotonic(), cpu_seconds(mon.pid)
        nv0 = len(nv.samples)
        rss = []
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            time.sleep(min(10, max(0.1, end - time.monotonic())))
            rss.append(rss_kb(mon.pid))
        s1, t1, c1 = scored(), time.monotonic(), cpu_seconds(mon.pid)
        rates = [(s1[k] - s0.get(k, 0)) / (t1 - t0) for k in s1]
        res.update({
            'min_fps': min(rates), 'mean_fps': statistics.mean(rates),
            'holds': min(rates) >= 0.99 * FPS,
            'cpu_cores': (c1 - c0) / (t1 - t0),
            'cpu_per_channel': (c1 - c0) / (t1 - t0) / n,
            'nvdec_util': nv.mean_since(nv0),
            'rss_first_kb': rss[0] if rss else 0,
            'rss_last_kb': rss[-1] if rss else 0,
            'rss_max_kb': max(rss) if rss else 0,
        })
        # Alarm latency: each loop of each sender has its black stretch at
        # BLACK_AT; the alarm is due BLACK_ONSET later.
        loops = {}
        with open(starts) as f:
            for line in f:
                e = json.loads(line)
                loops.setdefault(e['port'], []).append(e['start'])
        lat = []
        for name, t in hook.fired:
            port = ports[int(name[2:])]
            due = [s + BLACK_AT + BLACK_ONSET for s in loops.get(port, [])
                   if s + BLACK_AT + BLACK_ONSET <= t + 0.5]
            if due:
                lat.append(t - max(due))
        res['alarms'] = len(lat)
        res['alarm_latency_p50_s'] = percentile(lat, 50)
        res['alarm_latency_p99_s'] = percentile(lat, 99)
        if n >= 200 or args.quick:
            times = []
            for _ in range(20):
                a = time.monotonic()
                http_get(http_port, '/metrics', 30)
                times.append(time.monotonic() - a)
            res['metrics_render_p50_ms'] = 1000 * percentile(times, 50)
            res['metrics_render_p99_ms'] = 1000 * percentile(times, 99)
    finally:
        run.stop()
        nv.stop()
        hook.close()
    return res


def decoder_step(args, tmp, n, seconds, warmup):
    run = Run(tmp)
    ports = [free_port(socket.SOCK_DGRAM) for _ in range(n)]
    counts = os.path.join(tmp, 'counts-%d.json' % n)
    starts = os.path.join(tmp, 'dstarts-%d.jsonl' % n)
    try:
        run.start([sys.executable, __file__, '--decoders', args.decoder,
                   counts] + [str(p) for p in ports], 'decoders-%d' % n)
        time.sleep(2)
        for g in range(0, n, 32):
            run.start([sys.executable, __file__, '--senders', args.clip,
                       starts] + [str(p) for p in ports[g:g + 32]],
                      'dsenders-%d-%d' % (n, g))
        time.sleep(warmup)

        def read():
            with open(counts) as f:
                return json.load(f)
        c0, t0 = read(), time.monotonic()
        time.sleep(seconds)
        c1, t1 = read(), time.monotonic()
        rates = [(c1[k] - c0.get(k, 0)) / (t1 - t0) for k in c1]
        return {'n': n, 'min_fps': min(rates),
                'holds': min(rates) >= 0.99 * FPS}
    finally:
        run.stop()


def ladder(start_ns, max_n, step):
    for n in start_ns:
        yield n
    n = start_ns[-1] + step
    while n <= max_n:
        yield n
        n += step


def main():
    if len(sys.argv) > 1 and sys.argv[1] == '--senders':
        return run_senders(sys.argv[2], [int(p) for p in sys.argv[4:]],
                           sys.argv[3])
    if len(sys.argv) > 1 and sys.argv[1] == '--decoders':
        return run_decoders([int(p) for p in sys.argv[4:]], sys.argv[2],
                            sys.argv[3])
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument('outdir')
    ap.add_argument('--monitor', default=os.path.join(
        os.environ.get('SHARPNESS_BUILD_ROOT', os.path.join(HERE, '..', '..',
                                                            'build')),
        'tools', 'monitor', 'sharpness-monitor'))
    ap.add_argument('--clip', help='a 1080p30 H.264 MPEG-TS with black from '
                    '10 s to 13 s (made when not given)')
    ap.add_argument('--metric', default='laplacian')
    ap.add_argument('--decoder', default='nvh264dec')
    ap.add_argument('--ns', default='16,64', help='first steps')
    ap.add_argument('--step', type=int, default=32)
    ap.add_argument('--max-n', type=int, default=512)
    ap.add_argument('--seconds', type=int, default=30)
    ap.add_argument('--warmup', type=int, default=15)
    ap.add_argument('--soak-minutes', type=float, default=8)
    ap.add_argument('--soak-n', type=int, default=64)
    ap.add_argument('--cpu', action='store_true')
    ap.add_argument('--quick', action='store_true',
                    help='check the program: 320x180, CPU, N=2 and 4')
    args = ap.parse_args()
    os.makedirs(args.outdir, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix='bench-monitor-')
    width, height = (1920, 1080)
    if args.quick:
        width, height = 320, 180
        args.cpu = True
        args.decoder = 'avdec_h264'
        args.ns, args.max_n, args.seconds, args.warmup = '2,4', 4, 12, 4
        args.soak_minutes, args.soak_n = 0.5, 2
    if not args.clip:
        args.clip = os.path.join(tmp, 'clip.ts')
        log('encoding the clip (%dx%d, %d s)' % (width, height,
                                                 CLIP_SECONDS))
        make_clip(args.clip, width, height)
    rows = []
    start_ns = [int(x) for x in args.ns.split(',')]

    best = 0
    for n in ladder(start_ns, args.max_n, args.step):
        log('monitor, %d channels' % n)
        r = monitor_step(args, tmp, n, args.seconds, args.warmup)
        log('  %s' % r)
        rows.append(dict(r, step='monitor'))
        if not r['holds']:
            break
        best = n
    dbest = 0
    for n in ladder(start_ns, args.max_n, args.step):
        log('decoders alone, %d channels' % n)
        r = decoder_step(args, tmp, n, args.seconds, args.warmup)
        log('  %s' % r)
        rows.append(dict(r, step='decoders'))
        if not r['holds']:
            break
        dbest = n
    if not args.quick:
        log('/metrics at 200 channels')
        r = monitor_step(args, tmp, 200, 10, args.warmup)
        rows.append(dict(r, step='metrics-200'))
    log('soak: %d channels, %g minutes' % (args.soak_n, args.soak_minutes))
    r = monitor_step(args, tmp, args.soak_n, int(args.soak_minutes * 60),
                     args.warmup, soak=True)
    rows.append(dict(r, step='soak'))

    keys = ['step', 'n', 'holds', 'min_fps', 'mean_fps', 'cpu_cores',
            'cpu_per_channel', 'nvdec_util', 'alarms', 'alarm_latency_p50_s',
            'alarm_latency_p99_s', 'metrics_render_p50_ms',
            'metrics_render_p99_ms', 'rss_first_kb', 'rss_last_kb',
            'rss_max_kb']
    with open(os.path.join(args.outdir, 'results.csv'), 'w',
              newline='') as f:
        w = csv.DictWriter(f, fieldnames=keys, extrasaction='ignore')
        w.writeheader()
        for r in rows:
            w.writerow(r)

    def fmt(v):
        if isinstance(v, float):
            return '%.3g' % v
        return '' if v is None else str(v)
    with open(os.path.join(args.outdir, 'results.md'), 'w') as f:
        f.write('# sharpness-monitor benchmark\n\n')
        f.write('Clip %s, %s metric, decoder %s%s.\n\n' % (
            os.path.basename(args.clip), args.metric, args.decoder,
            ', CPU' if args.cpu else ''))
        f.write('Largest N through the monitor with every channel >= 99 %% '
                'of %d fps: **%d**; decoders alone: **%d**.\n\n' % (
                    FPS, best, dbest))
        f.write('| ' + ' | '.join(keys) + ' |\n')
        f.write('|' + ' --- |' * len(keys) + '\n')
        for r in rows:
            f.write('| ' + ' | '.join(fmt(r.get(k)) for k in keys) + ' |\n')
    log('wrote %s/results.csv and results.md' % args.outdir)
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == '__main__':
    main()
