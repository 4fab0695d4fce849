#!/usr/bin/env python3
# sharpness-monitor's benchmark, for a GPU machine (docs/reference/
# sharpness-monitor.md, "Benchmark"): N channels of 1080p30 H.264 at real
# rate from paced senders on the loopback (a pre-encoded clip that the
# senders only send), through the monitor (classical metric, black and
# freeze, alarms, a webhook).  Two commands, each under 10 minutes:
#
#   bench-monitor.py --out DIR           the ladder, decoders alone, /metrics
#   bench-monitor.py --out DIR --soak    the soak (8 minutes at 64 channels)
#
#   - monitor: N = 16, 64, then doubling and bisection to the largest N at
#     which every channel keeps >= 99 % of the source's 30 fps; per step
#     the monitor's CPU (per channel), the host's CPU, NVDEC utilisation
#     (nvidia-smi), RSS;
#   - decoders alone, in the same run: the same search for the monitor
#     with --decode-only (the same senders, configuration, sources,
#     decodebin3, GPU decoder and CUDA context, queues and frame counts,
#     without the analysis), every channel >= 99 % of 30 fps decoded: the
#     ceiling that the monitor is compared with (chains of udpsrc !
#     decodebin in one gst-launch-1.0, the earlier baseline, failed
#     nvh264dec's buffer pool from 14 chains on the GPU machine);
#   - alarm latency: each sender notes when the clip's first black frame
#     leaves it; latency = black alarm's webhook received - (that time +
#     the black onset); p50 and p99;
#   - /metrics render time at 200 channels;
#   - with --soak: RSS over the soak, its growth after the warm-up;
#   - with --parts monitor,probe and make-probe-clip.sh's clip (H.264
#     with captions, stereo 48 kHz audio, SCTE 35 cues, a constant-rate
#     TS): the same search with every probe feature on (ETSI TR 101 290
#     on the packets and its alarms, EBU R 128 with the loudness, true
#     peak, silence and no-audio alarms, captions with no-captions, SCTE
#     35 with no-scte35), after the video analysis alone (the monitor
#     part: transport analysis off, the audio not decoded), on the same
#     clip in the same run; the ratio of the two, the alarm latency at
#     the probe's largest N, and per step what the probe read (channels
#     with captions, loudness and SCTE 35 cues, and the alarms other than
#     black that fired).
# Writes DIR/results.csv, results.md and results-summary.txt (soak.* with
# --soak; the summary is also printed), and every process's log in DIR/logs.
#
# Needs no GStreamer Python bindings, no Python package beyond the
# standard library and no network: Python 3 and the GStreamer runtime on
# LD_LIBRARY_PATH (the staged runtime's env.sh), the build's
# sharpness-monitor and plugin, the clips of
# bench/monitor/make-bench-clips.sh.  `--quick` (320x180, CPU decoding,
# N = 2 and 4) checks the program itself on a machine without a GPU.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import argparse
import csv
import http.server
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.request

HOST = '127.0.0.1'
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, '..', '..'))
# The clips' layout (bench/monitor/make-bench-clips.sh).
FPS = 30
CLIP_FRAMES = 600
BLACK_FRAME = 300
BLACK_ONSET = 1.0
TS = 188
DGRAM = 7 * TS          # 1316 bytes, as udpsink sends MPEG-TS
SENDERS_PER_PROCESS = 16
STAGGER_S = 3.0         # channels start spread over this much


def log(*a):
    print(*a, flush=True)


def free_port(kind=socket.SOCK_STREAM):
    s = socket.socket(socket.AF_INET, kind)
    s.bind((HOST, 0))
    p = s.getsockname()[1]
    s.close()
    return p


# ---- the senders: the clip paced by its PCR, timestamps continuous -------

def _ts_get(b):
    return (((b[0] >> 1) & 7) << 30 | b[1] << 22 | (b[2] >> 1) << 15 |
            b[3] << 7 | b[4] >> 1)


def _ts_put(buf, o, v):
    v &= (1 << 33) - 1
    buf[o] = (buf[o] & 0xf0) | ((v >> 30) & 7) << 1 | 1
    buf[o + 1] = (v >> 22) & 0xff
    buf[o + 2] = ((v >> 15) & 0x7f) << 1 | 1
    buf[o + 3] = (v >> 7) & 0xff
    buf[o + 4] = (v & 0x7f) << 1 | 1


class Clip:
    """The clip's packets, when each is due (from its PCR), and the places
    to rewrite so that loop k continues loop k-1: PTS/DTS and PCR moved on
    by k clip lengths, continuity counters by k times each PID's count (a
    real feed does not jump back every 20 s, and the demuxer would drop
    data at each jump).  Plain Python: the GPU machine's Python has no
    GStreamer bindings."""

    def __init__(self, path):
        with open(path, 'rb') as f:
            data = bytearray(f.read())
        n = len(data) // TS
        del data[n * TS:]
        if n == 0 or any(data[i * TS] != 0x47 for i in range(n)):
            sys.exit('bench-monitor: %s is not an MPEG-TS' % path)
        # Whole datagrams: null packets (PID 0x1fff) at the end.
        while n % 7:
            data += bytes([0x47, 0x1f, 0xff, 0x10]) + bytes(TS - 4)
            n += 1
        self.base = bytes(data)
        self.n = n
        counts, cc_at = {}, []
        self.pts_at, self.pcr_at = [], []
        pcr_idx, pcr_val = [], []
        video_pts = {}
        for i in range(n):
            o0 = i * TS
            pid = (data[o0 + 1] & 0x1f) << 8 | data[o0 + 2]
            afc = (data[o0 + 3] >> 4) & 3
            if pid == 0x1fff:
                continue
            # A PID's counter moves on with its payload packets; a packet
            # of adaptation field only (a PCR of a constant-rate TS)
            # repeats the last one (ISO/IEC 13818-1 2.4.3.3), so it moves
            # by as much in each loop.
            if afc & 1:
                counts[pid] = counts.get(pid, 0) + 1
            cc_at.append((o0 + 3, pid))
            o = 4
            if afc & 2:
                alen = data[o0 + 4]
                if alen >= 7 and data[o0 + 5] & 0x10:
                    b = data[o0 + 6:o0 + 12]
                    base = (b[0] << 25 | b[1] << 17 | b[2] << 9 | b[3] << 1 |
                            b[4] >> 7)
                    self.pcr_at.append(o0 + 6)
                    pcr_idx.append(i)
                    pcr_val.append(base * 300 + ((b[4] & 1) << 8 | b[5]))
                o = 5 + alen
            if not (data[o0 + 1] & 0x40) or not (afc & 1) or o + 14 > TS:
                continue
            p = o0 + o
            if data[p:p + 3] != b'\x00\x00\x01':
                continue
            sid, flags = data[p + 3], data[p + 7] >> 6
            if flags & 2:
                self.pts_at.append(p + 9)
                if 0xe0 <= sid <= 0xef:
                    video_pts[_ts_get(data[p + 9:p + 14])] = i
            if flags == 3:
                self.pts_at.append(p + 14)
        if not pcr_idx or not video_pts:
            sys.exit('bench-monitor: no PCR or no video in %s' % path)
        self.cc_at = [(at, counts.get(pid, 0)) for at, pid in cc_at]
        self.length = CLIP_FRAMES / FPS
        # Each datagram is due at its first packet's time, interpolated
        # between the PCRs around it.
        due, j = [], 0
        t0 = pcr_val[0]
        for i in range(0, n, 7):
            while j + 1 < len(pcr_idx) and pcr_idx[j + 1] <= i:
                j += 1
            if i <= pcr_idx[0]:
                t = 0.0
            elif j + 1 < len(pcr_idx):
                a, b = pcr_idx[j], pcr_idx[j + 1]
                t = (pcr_val[j] + (pcr_val[j + 1] - pcr_val[j]) *
                     (i - a) / (b - a) - t0) / 27e6
            else:
                t = (pcr_val[-1] - t0) / 27e6
            due.append(min(t, self.length - 1e-3))
        self.due = due
        self.dgrams = n // 7
        first = min(video_pts)
        black = first + BLACK_FRAME * 90000 // FPS
        hit = [i for p, i in video_pts.items() if abs(p - black) <= 1]
        if not hit:
            sys.exit('bench-monitor: no frame at %g s in %s (made by '
                     'make-bench-clips.sh?)' % (BLACK_FRAME / FPS, path))
        self.black_dgram = hit[0] // 7
        self.loops = {}

    def loop(self, k):
        """The bytes of loop @k."""
        if k in self.loops:
            return self.loops[k]
        a = bytearray(self.base)
        for at, cnt in self.cc_at:
            a[at] = (a[at] & 0xf0) | ((a[at] + k * cnt) & 15)
        d90 = int(round(self.length * 90000)) * k
        for at in self.pts_at:
            _ts_put(a, at, _ts_get(a[at:at + 5]) + d90)
        for at in self.pcr_at:
            b = a[at:at + 5]
            base = (b[0] << 25 | b[1] << 17 | b[2] << 9 | b[3] << 1 |
                    b[4] >> 7)
            base = (base + d90) & ((1 << 33) - 1)
            a[at] = base >> 25
            a[at + 1] = (base >> 17) & 0xff
            a[at + 2] = (base >> 9) & 0xff
            a[at + 3] = (base >> 1) & 0xff
            a[at + 4] = (base & 1) << 7 | (b[4] & 0x7f)
        data = memoryview(bytes(a))
        # Loops no channel of this process will play again.
        for old in [j for j in self.loops if j < k - 1]:
            del self.loops[old]
        self.loops[k] = data
        return data


def run_senders(clip_path, ports, events_file, first_index):
    """Paced senders for @ports, one thread: each channel sends the clip
    in a loop at its PCR's pace; the wall-clock time at which each loop's
    first black frame leaves is appended to @events_file."""
    clip = Clip(clip_path)
    stop = []
    signal.signal(signal.SIGTERM, lambda *a: stop.append(1))
    out = open(events_file, 'a')
    t0 = time.monotonic() + 0.5
    chans = []
    for j, port in enumerate(ports):
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        idx = first_index + j
        chans.append({'port': port, 'sock': s, 'k': 0, 'd': 0,
                      't0': t0 + STAGGER_S * (idx % 64) / 64.0})
    while not stop:
        now = time.monotonic()
        nxt = now + 0.005
        for c in chans:
            data = clip.loop(c['k'])
            while True:
                due = c['t0'] + c['k'] * clip.length + clip.due[c['d']]
                if due > now:
                    nxt = min(nxt, due)
                    break
                d = c['d']
                try:
                    c['sock'].sendto(data[d * DGRAM:(d + 1) * DGRAM],
                                     (HOST, c['port']))
                except OSError:
                    pass
                if d == clip.black_dgram:
                    out.write(json.dumps({'port': c['port'],
                                          'black': time.time()}) + '\n')
                    out.flush()
                c['d'] += 1
                if c['d'] == clip.dgrams:
                    c['d'] = 0
                    c['k'] += 1
                    data = clip.loop(c['k'])
        time.sleep(max(0.0, nxt - time.monotonic()))


def start_senders(run, args, ports, tag):
    events = os.path.join(run.tmp, 'black-%s.jsonl' % tag)
    open(events, 'w').close()
    for g in range(0, len(ports), SENDERS_PER_PROCESS):
        run.start([sys.executable, __file__, '--senders', args.clip, events,
                   str(g)] + [str(p) for p in ports[g:g +
                                                    SENDERS_PER_PROCESS]],
                  'senders-%s-%d' % (tag, g))
    return events


# ---- processes, probes ----------------------------------------------------

class Run:
    """The processes of one step, stopped at its end."""

    def __init__(self, tmp):
        self.tmp = tmp
        self.procs = []

    def start(self, cmd, name):
        f = open(os.path.join(self.tmp, name + '.log'), 'w')
        p = subprocess.Popen(cmd, stdout=f, stderr=f,
                             stdin=subprocess.DEVNULL,
                             start_new_session=True)
        self.procs.append(p)
        return p

    def stop(self):
        for p in reversed(self.procs):
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGTERM)
        for p in reversed(self.procs):
            try:
                p.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait(10)
        self.procs = []


def log_tail(path, lines=15):
    """@path and its last lines, for an error message."""
    try:
        with open(path, errors='replace') as f:
            tail = f.read().splitlines()[-lines:]
    except OSError as e:
        tail = ['(%s)' % e]
    return '%s:\n    %s' % (path, '\n    '.join(tail))


def http_get(port, path, timeout=10):
    with urllib.request.urlopen('http://%s:%d%s' % (HOST, port, path),
                                timeout=timeout) as r:
        return r.read()


def wait_http(port, proc, seconds=60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and proc.poll() is None:
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


def host_cpu():
    """(busy, total) jiffies of the whole host."""
    with open('/proc/stat') as f:
        v = [int(x) for x in f.readline().split()[1:]]
    idle = v[3] + (v[4] if len(v) > 4 else 0)
    return sum(v) - idle, sum(v)


def rss_kb(pid):
    with open('/proc/%d/status' % pid) as f:
        for line in f:
            if line.startswith('VmRSS:'):
                return int(line.split()[1])
    return 0


def udp_drops():
    """The host's UDP datagrams dropped for a full socket buffer
    (RcvbufErrors) and in all (InErrors), from /proc/net/snmp."""
    try:
        with open('/proc/net/snmp') as f:
            rows = [line.split() for line in f if line.startswith('Udp:')]
        d = dict(zip(rows[0][1:], (int(x) for x in rows[1][1:])))
    except (OSError, IndexError, ValueError):
        return 0, 0
    return d.get('RcvbufErrors', 0), d.get('InErrors', 0)


def thread_cpu(pid):
    """CPU seconds of each thread of @pid, by thread id: (name, seconds)."""
    out = {}
    tick = os.sysconf('SC_CLK_TCK')
    try:
        tids = os.listdir('/proc/%d/task' % pid)
    except OSError:
        return out
    for tid in tids:
        try:
            with open('/proc/%d/task/%s/stat' % (pid, tid)) as f:
                head, rest = f.read().rsplit(')', 1)
            fields = rest.split()
            out[tid] = (head.split('(', 1)[1],
                        (int(fields[11]) + int(fields[12])) / tick)
        except (OSError, IndexError, ValueError):
            pass
    return out


def thread_profile(t0, t1, seconds):
    """The threads' CPU over a window, grouped by name with the digits
    dropped (GStreamer names a streaming thread after its pad, e.g.
    "multiqueue12:src_0"): "group total/busiest thread" in cores, the
    busiest groups first."""
    groups = {}
    for tid, (name, sec) in t1.items():
        used = (sec - t0.get(tid, (name, 0.0))[1]) / max(seconds, 1e-9)
        g = re.sub(r'\d+', '', name)
        tot, top = groups.get(g, (0.0, 0.0))
        groups[g] = (tot + used, max(top, used))
    busy = sorted(groups.items(), key=lambda kv: -kv[1][0])[:8]
    return ' '.join('%s=%.2f/%.2f' % (g.replace(' ', '_'), tot, top)
                    for g, (tot, top) in busy)


class Nvdec:
    """nvidia-smi's decoder and GPU utilisation, sampled every second."""

    def __init__(self):
        self.samples = []
        self.proc = None
        if shutil.which('nvidia-smi'):
            self.proc = subprocess.Popen(
                ['nvidia-smi', '--query-gpu=utilization.decoder,'
                 'utilization.gpu', '--format=csv,noheader,nounits',
                 '-lms', '1000'], stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL, text=True)
            threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            try:
                self.samples.append([float(x) for x in line.split(',')])
            except ValueError:
                pass

    def mean_since(self, n0, col):
        s = [x[col] for x in self.samples[n0:] if len(x) > col]
        return statistics.mean(s) if s else float('nan')

    def stop(self):
        if self.proc:
            self.proc.terminate()
            self.proc.wait(10)


def device_name():
    if not shutil.which('nvidia-smi'):
        return 'no NVIDIA GPU (nvidia-smi missing)'
    r = subprocess.run(['nvidia-smi', '--query-gpu=name,driver_version',
                        '--format=csv,noheader'], capture_output=True,
                       text=True, timeout=60)
    return r.stdout.strip().replace('\n', '; ') or 'nvidia-smi failed'


class Webhook:
    """Notes when each channel's black alarm fires, and counts the other
    kinds that fire (the clips carry no other fault: what the probe's
    alarms raise there is the senders' pacing, e.g. a PCR late by their
    jitter, PCR_repetition_error)."""

    def __init__(self):
        self.fired = []
        self.others = {}
        hook = self

        class H(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                t = time.time()
                n = int(self.headers.get('Content-Length', 0))
                try:
                    body = json.loads(self.rfile.read(n))
                    for a in body.get('alerts', []):
                        kind = a['labels'].get('kind')
                        if a.get('status') != 'firing':
                            continue
                        if kind == 'black':
                            hook.fired.append((a['labels']['channel'], t))
                        else:
                            hook.others[kind] = hook.others.get(kind,
                                                                0) + 1
                except (ValueError, KeyError):
                    pass
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


# Every probe feature: the transport's analysis (on by default) and the
# alarms that are off unless a channel enables them, each at its default
# level (the probe clip's tone is at R 128's target, its captions and
# cues keep coming); silence is on by default and links the audio branch
# (level and the loudness meter).
PROBE_ALARMS = ('    silence: {enabled: true}\n'
                '    loudness-high: {enabled: true}\n'
                '    loudness-low: {enabled: true}\n'
                '    true-peak: {enabled: true}\n'
                '    no-audio: {enabled: true}\n'
                '    no-captions: {enabled: true}\n'
                '    no-scte35: {enabled: true, onset: 60}\n'
                '    tr101290-p1: {enabled: true}\n'
                '    tr101290-p2: {enabled: true}\n')
# The video analysis alone: no transport analysis, no audio branch (the
# captions' probe reads the decoded pictures' metas in either).
VIDEO_ALARMS = '    silence: {enabled: false}\n'


def write_config(path, ports, metric, probe=False):
    with open(path, 'w') as f:
        f.write('defaults:\n  metric: %s\n  threshold: 0\n'
                '  relative-threshold: 0.5\n  transport: {enabled: %s}\n'
                '  alarms:\n'
                '    black: {onset: %g}\n    freeze: {onset: 2}\n'
                '    no-signal: {onset: 5}\n%schannels:\n' % (
                    metric, 'true' if probe else 'false', BLACK_ONSET,
                    PROBE_ALARMS if probe else VIDEO_ALARMS))
        for i, port in enumerate(ports):
            f.write('  - name: ch%03d\n    uri: udp://%s:%d\n' % (i, HOST,
                                                                  port))


def percentile(values, q):
    if not values:
        return float('nan')
    v = sorted(values)
    k = min(len(v) - 1, max(0, int(round(q / 100.0 * (len(v) - 1)))))
    return v[k]


def read_black(path):
    out = {}
    with open(path) as f:
        for line in f:
            try:
                e = json.loads(line)
            except ValueError:
                continue
            out.setdefault(e['port'], []).append(e['black'])
    return out


# ---- the steps -------------------------------------------------------------

def probe_read(chans):
    """What the probe read on each channel by the step's end: the
    channels with captions present, with a loudness reading, with SCTE 35
    cues, and the lowest transport bitrate (Mbit/s)."""
    cs = list(chans.values())
    return {
        'captions_present': sum(1 for c in cs if c.get(
            'captions', {}).get('present')),
        'loudness_measured': sum(1 for c in cs if 'loudness' in c),
        'scte35_cues': sum(1 for c in cs if sum(c.get('transport', {}).get(
            'scte35', {}).get('commands', {}).values()) > 0),
        'min_ts_mbps': min((c.get('transport', {}).get('bitrate', 0) / 1e6
                            for c in cs), default=0.0),
    }


def monitor_step(args, tmp, n, seconds, warmup, metrics=False,
                 decode_only=False, probe=False):
    """N channels through the monitor; returns the step's measurements.
    @decode_only: the monitor with --decode-only (decoder_step), whose
    channels hold when they decode at the source's rate (they score
    nothing).  @probe: every probe feature on (write_config)."""
    run = Run(tmp)
    hook = Webhook()
    nv = Nvdec()
    ports = [free_port(socket.SOCK_DGRAM) for _ in range(n)]
    tag = 'decoders' if decode_only else 'probe' if probe else 'monitor'
    cfg = os.path.join(tmp, 'channels-%s-%d.yaml' % (tag, n))
    write_config(cfg, ports, args.metric, probe)
    http_port = free_port()
    res = {'n': n}
    log_path = os.path.join(tmp, '%s-%d.log' % (tag, n))
    try:
        cmd = [args.monitor, '--config', cfg, '--listen', '%s:%d' % (
            HOST, http_port), '--webhook', hook.url, '-q']
        if args.cpu:
            cmd.append('--cpu')
        if decode_only:
            cmd.append('--decode-only')
        mon = run.start(cmd, '%s-%d' % (tag, n))
        if not wait_http(http_port, mon):
            raise RuntimeError('the monitor did not start: %s' % log_path)
        black = start_senders(run, args, ports, '%s%d' % (tag[0], n))
        time.sleep(warmup)

        def channels():
            return {c['name']: c for c in json.loads(
                http_get(http_port, '/api/channels', 30))}
        s0, t0, c0, h0 = channels(), time.monotonic(), cpu_seconds(mon.pid), \
            host_cpu()
        u0, th0 = udp_drops(), thread_cpu(mon.pid)
        nv0 = len(nv.samples)
        rss = []
        end = time.monotonic() + seconds
        while time.monotonic() < end and mon.poll() is None:
            time.sleep(min(5, max(0.1, end - time.monotonic())))
            rss.append(rss_kb(mon.pid))
        if mon.poll() is not None:
            raise RuntimeError('the monitor stopped (exit %s): %s' % (
                mon.poll(), log_tail(log_path)))
        s1, t1, c1, h1 = channels(), time.monotonic(), cpu_seconds(mon.pid), \
            host_cpu()
        u1, th1 = udp_drops(), thread_cpu(mon.pid)

        def rate(k, key):
            return (s1[k][key] - s0.get(k, {}).get(key, 0)) / (t1 - t0)
        rates = [rate(k, 'frames_decoded' if decode_only else
                      'frames_scored') for k in s1]
        res.update({
            # Where a channel's frames went missing: never decoded (the
            # network, the socket buffer, the decoder) or decoded and
            # dropped by the live queue before the scorer.
            'min_decoded_fps': min(rate(k, 'frames_decoded') for k in s1),
            'dropped_fps': sum(rate(k, 'frames_dropped') for k in s1),
            'udp_rcvbuf_errors': u1[0] - u0[0],
            'udp_in_errors': u1[1] - u0[1],
            'threads': thread_profile(th0, th1, t1 - t0),
            'min_fps': min(rates), 'mean_fps': statistics.mean(rates),
            'holds': min(rates) >= 0.99 * FPS,
            'monitor_cpu_cores': (c1 - c0) / (t1 - t0),
            'cpu_per_channel': (c1 - c0) / (t1 - t0) / n,
            'host_cpu_busy': (h1[0] - h0[0]) / max(1, h1[1] - h0[1]),
            'nvdec_util': nv.mean_since(nv0, 0),
            'gpu_util': nv.mean_since(nv0, 1),
            'rss_first_kb': rss[0] if rss else 0,
            'rss_last_kb': rss[-1] if rss else 0,
            'rss_max_kb': max(rss) if rss else 0,
        })
        if len(rss) >= 4:
            warm = rss[len(rss) // 4]
            res['rss_growth_after_warmup_pct'] = 100.0 * (
                rss[-1] - warm) / warm
        # Alarm latency: the black alarm is due BLACK_ONSET after the
        # black frame left the sender; the latest such time before the
        # webhook arrived is the one that fired it.
        sent = read_black(black)
        lat = []
        for name, t in hook.fired:
            due = [b + BLACK_ONSET for b in sent.get(ports[int(name[2:])], [])
                   if b + BLACK_ONSET <= t + 0.5]
            if due:
                lat.append(t - max(due))
        res['alarms'] = len(lat)
        res['black_events'] = sum(
            1 for e in json.loads(http_get(http_port, '/api/events?since=0',
                                           30))['events']
            if e.get('kind') == 'black' and e.get('event') == 'start')
        res['alarm_latency_p50_ms'] = 1000 * percentile(lat, 50)
        res['alarm_latency_p99_ms'] = 1000 * percentile(lat, 99)
        res.update(probe_read(s1))
        if probe:
            # A channel counts as held with every feature read: captions
            # present, a loudness reading, SCTE 35 cues.
            res['holds'] = res['holds'] and min(
                res['captions_present'], res['loudness_measured'],
                res['scte35_cues']) == n
        res['other_alarms'] = ' '.join('%s=%d' % kv for kv in sorted(
            hook.others.items()))
        if metrics:
            times = []
            for _ in range(30):
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
    """The decoders alone: monitor_step with the monitor's --decode-only,
    which builds each channel's pipeline as the monitor does without its
    analysis, so that the ceiling differs from the monitor by the analysis
    alone.  (The earlier baseline, udpsrc ! decodebin ! fpsdisplaysink
    chains in one gst-launch-1.0, failed nvh264dec's buffer pool from 14
    chains on the GPU machine, and uridecodebin3 ! fpsdisplaysink
    stalled.)  Its black alarms and alarm latency are none: nothing
    analyses the frames."""
    return monitor_step(args, tmp, n, seconds, warmup, decode_only=True)


def search(step, tries, grow, max_n, resolution, rows, kind, save):
    """The largest N that holds: @tries in order, then N grown by @grow
    until one fails, then bisection down to @resolution channels.  @save
    writes the rows after each step (a run stopped at its time limit keeps
    what it measured)."""
    lo, hi = 0, None

    def trial(n):
        log('%s, %d channels' % (kind, n))
        try:
            r = step(n)
        except (RuntimeError, OSError, ValueError) as e:
            # One step that breaks is a failed step, not the end of the
            # run: what it printed is kept in the row and in the log.
            r = {'n': n, 'holds': False, 'error': str(e)}
        log('  ' + ', '.join('%s=%s' % (k, fmt(v)) for k, v in r.items()))
        rows.append(dict(r, step=kind))
        save()
        return r['holds']
    for n in tries:
        if n > max_n:
            break
        if trial(n):
            lo = n
        else:
            hi = n
            break
    while hi is None and lo and lo < max_n:
        n = min(max_n, max(lo + resolution, int(lo * grow)))
        if trial(n):
            lo = n
        else:
            hi = n
    while hi is not None and hi - lo > resolution:
        n = (lo + hi) // 2
        if trial(n):
            lo = n
        else:
            hi = n
    return lo, hi


def fmt(v):
    if isinstance(v, float):
        return '%.3g' % v
    return '' if v is None else str(v)


KEYS = ['step', 'n', 'holds', 'min_fps', 'mean_fps', 'monitor_cpu_cores',
        'cpu_per_channel', 'host_cpu_busy', 'nvdec_util', 'gpu_util',
        'alarms', 'alarm_latency_p50_ms', 'alarm_latency_p99_ms',
        'metrics_render_p50_ms', 'metrics_render_p99_ms', 'rss_first_kb',
        'rss_last_kb', 'rss_max_kb', 'rss_growth_after_warmup_pct',
        'min_decoded_fps', 'dropped_fps', 'udp_rcvbuf_errors',
        'udp_in_errors', 'black_events', 'captions_present',
        'loudness_measured', 'scte35_cues', 'min_ts_mbps', 'other_alarms',
        'threads', 'error']


def write_results(args, rows, summary):
    name = 'soak' if args.soak else 'results'
    with open(os.path.join(args.out, name + '.csv'), 'w', newline='') as f:
        w = csv.DictWriter(f, fieldnames=KEYS, extrasaction='ignore')
        w.writeheader()
        for r in rows:
            w.writerow(r)
    with open(os.path.join(args.out, name + '.md'), 'w') as f:
        f.write('# sharpness-monitor benchmark\n\n```\n%s\n```\n\n' %
                '\n'.join(summary))
        f.write('| ' + ' | '.join(KEYS) + ' |\n')
        f.write('|' + ' --- |' * len(KEYS) + '\n')
        for r in rows:
            f.write('| ' + ' | '.join(fmt(r.get(k)) for k in KEYS) + ' |\n')
    with open(os.path.join(args.out, name + '-summary.txt'), 'w') as f:
        f.write('\n'.join(summary) + '\n')


def probe_summary(rows, best, pbest, pfail):
    """The probe part's lines: its largest N against the video alone's,
    and at that N the alarm latency and what the probe read."""
    at = ([x for x in rows if x['step'] == 'probe' and x['n'] == pbest] or
          [{}])[0]
    nan = float('nan')
    return [
        'every probe feature (TR 101 290, R 128, captions, SCTE 35): '
        'largest N %d (%s)' % (pbest, 'failed at %d' % pfail if pfail else
                               'held up to --max-n'),
        'probe / video alone: %.0f %% (target >= 90 %%)' % (
            100.0 * pbest / best if best else nan),
        'probe at N=%d: alarm latency p50 %.0f ms, p99 %.0f ms over %s '
        'alarms (target p99 <= 100 ms); monitor CPU %.2f cores (%.3f per '
        'channel), host CPU busy %.0f %%, NVDEC %.0f %%; channels with '
        'captions present %s, loudness %s, SCTE 35 cues %s, lowest TS '
        'rate %.2f Mbit/s; other alarms fired: %s' % (
            pbest, at.get('alarm_latency_p50_ms', nan),
            at.get('alarm_latency_p99_ms', nan), at.get('alarms'),
            at.get('monitor_cpu_cores', nan), at.get('cpu_per_channel',
                                                     nan),
            100 * at.get('host_cpu_busy', nan), at.get('nvdec_util', nan),
            at.get('captions_present'), at.get('loudness_measured'),
            at.get('scte35_cues'), at.get('min_ts_mbps', nan),
            at.get('other_alarms') or 'none')]


def main():
    if len(sys.argv) > 1 and sys.argv[1] == '--senders':
        return run_senders(sys.argv[2], [int(p) for p in sys.argv[5:]],
                           sys.argv[3], int(sys.argv[4]))
    ap = argparse.ArgumentParser(
        description='sharpness-monitor benchmark (see the top of this file)')
    ap.add_argument('--out', required=True, help='folder for the results')
    build = os.environ.get('SHARPNESS_BUILD_ROOT', os.path.join(ROOT,
                                                                'build'))
    ap.add_argument('--monitor', default=os.path.join(
        build, 'tools', 'monitor', 'sharpness-monitor'))
    ap.add_argument('--clip', help='default: .bench-monitor/bench-1080p30.ts '
                    '(bench-320x180.ts with --quick; bench-probe-*.ts with '
                    'the probe part)')
    ap.add_argument('--metric', default='laplacian')
    ap.add_argument('--channels', default='16,64',
                    help='first steps, then doubling and bisection')
    ap.add_argument('--max-n', type=int, default=320)
    ap.add_argument('--resolution', type=int, default=8)
    ap.add_argument('--seconds', type=int, default=20,
                    help='measured seconds per step')
    ap.add_argument('--warmup', type=int, default=8)
    ap.add_argument('--metrics-n', type=int, default=200)
    ap.add_argument('--parts', default='monitor,decoders,metrics',
                    help='which searches to run (to split a run that does '
                    'not fit a time limit); probe: every probe feature on, '
                    'after the video alone (make-probe-clip.sh\'s clip)')
    ap.add_argument('--probe-start', type=int,
                    help='first N of the probe (default: the monitor\'s '
                    'largest N)')
    ap.add_argument('--decoder-start', type=int,
                    help='first N of the decoders alone (default: the '
                    "monitor's largest N)")
    ap.add_argument('--soak', action='store_true',
                    help='run the soak only (its own command)')
    ap.add_argument('--soak-minutes', type=float, default=8)
    ap.add_argument('--soak-n', type=int, default=64)
    ap.add_argument('--cpu', action='store_true',
                    help='CPU decoding and scoring in the monitor')
    ap.add_argument('--quick', action='store_true',
                    help='check the program: 320x180, CPU, N = 2 and 4')
    args = ap.parse_args()
    # A time limit's SIGTERM ends the steps through their clean-up: the
    # monitors and the senders run in sessions of their own and would
    # outlive this process.
    signal.signal(signal.SIGTERM, lambda *a: sys.exit(143))
    if args.quick:
        args.cpu = True
        args.channels, args.max_n, args.seconds, args.warmup = '2,4', 4, 12, 5
        args.metrics_n, args.soak_minutes, args.soak_n = 4, 0.5, 2
    if not args.clip:
        args.clip = os.path.join(ROOT, '.bench-monitor', 'bench-%s%s.ts' % (
            'probe-' if 'probe' in args.parts.split(',') else '',
            '320x180' if args.quick else '1080p30'))
    for path, what in ((args.clip, 'the clip (tools/monitor/'
                        'make-bench-clips.sh makes it)'),
                       (args.monitor, 'sharpness-monitor (--monitor)')):
        if not os.path.exists(path):
            sys.exit('bench-monitor: %s missing: %s' % (path, what))
    # The plugin of the monitor's own build first: the staged runtime's
    # env.sh adds ./build, which may be another build.
    plugins = os.path.normpath(os.path.join(os.path.dirname(
        os.path.abspath(args.monitor)), '..', '..', 'gst'))
    if os.path.isdir(plugins):
        old = os.environ.get('GST_PLUGIN_PATH_1_0')
        os.environ['GST_PLUGIN_PATH_1_0'] = plugins + (':' + old if old
                                                       else '')
    Clip(args.clip)     # checks the clip before anything starts
    os.makedirs(args.out, exist_ok=True)
    # Every process's log stays in OUT/logs, for a step that failed.
    tmp = os.path.join(args.out, 'logs')
    os.makedirs(tmp, exist_ok=True)
    dev = device_name()
    log('device: %s; host CPUs: %d; clip %s' % (dev, os.cpu_count(),
                                                 args.clip))
    rows, summary = [], ['device: %s, %d host CPUs, %s' % (
        dev, os.cpu_count(), time.strftime('%Y-%m-%d %H:%M UTC',
                                           time.gmtime()))]
    started = time.monotonic()
    try:
        if args.soak:
            log('soak: %d channels, %g minutes' % (args.soak_n,
                                                    args.soak_minutes))
            r = monitor_step(args, tmp, args.soak_n,
                             int(args.soak_minutes * 60), args.warmup)
            rows.append(dict(r, step='soak'))
            summary.append(
                'soak: %d channels, %g min: min %.2f fps, RSS %d -> %d kB '
                '(%+.2f %% after the first quarter), alarm latency p99 '
                '%.0f ms' % (args.soak_n, args.soak_minutes, r['min_fps'],
                             r['rss_first_kb'], r['rss_last_kb'],
                             r.get('rss_growth_after_warmup_pct',
                                   float('nan')),
                             r['alarm_latency_p99_ms']))
        else:
            tries = [int(x) for x in args.channels.split(',')]
            parts = args.parts.split(',')

            def save():
                write_results(args, rows, summary + ['(partial)'])
            best = fail = dbest = dfail = pbest = pfail = 0
            r = {}
            if 'monitor' in parts:
                best, fail = search(
                    lambda n: monitor_step(args, tmp, n, args.seconds,
                                           args.warmup),
                    tries, 2, args.max_n, args.resolution, rows, 'monitor',
                    save)
            if 'probe' in parts:
                pbest, pfail = search(
                    lambda n: monitor_step(args, tmp, n, args.seconds,
                                           args.warmup, probe=True),
                    [args.probe_start or best or tries[0]], 1.25,
                    args.max_n, args.resolution, rows, 'probe', save)
            if 'decoders' in parts:
                dbest, dfail = search(
                    lambda n: decoder_step(args, tmp, n, args.seconds,
                                           args.warmup),
                    [args.decoder_start or best or tries[0]], 1.25,
                    args.max_n, args.resolution, rows, 'decoders', save)
            if 'metrics' in parts:
                log('/metrics at %d channels' % args.metrics_n)
                r = monitor_step(args, tmp, args.metrics_n, 5, args.warmup,
                                 metrics=True)
                rows.append(dict(r, step='metrics'))
            at = [x for x in rows if x['step'] == 'monitor' and
                  x['n'] == best] or [{}]
            at = at[0]
            nan = float('nan')
            if 'monitor' in parts:
                summary.append(
                    'monitor: largest N with every channel >= 99 %% of %d '
                    'fps: %d (%s)' % (FPS, best, 'failed at %d' % fail if
                                      fail else 'every N tried held, up to '
                                      '--max-n'))
            if 'decoders' in parts:
                summary += [
                    'decoders alone (the monitor with --decode-only, %s via '
                    'decodebin3): %d (%s)' % (
                        'avdec_h264' if args.cpu else 'nvh264dec', dbest,
                        'failed at %d' % dfail if dfail else
                        'held up to --max-n'),
                    'monitor / decoders alone: %.0f %% (target >= 95 %%)' % (
                        100.0 * best / dbest if dbest else nan)]
            if 'monitor' in parts:
                summary.append(
                    'at N=%d: alarm latency p50 %.0f ms, p99 %.0f ms over %s '
                    'alarms (target p99 <= 100 ms); monitor CPU %.2f cores '
                    '(%.3f per channel), host CPU busy %.0f %%, NVDEC %.0f '
                    '%%, GPU %.0f %%, RSS %.0f MB' % (
                        best, at.get('alarm_latency_p50_ms', nan),
                        at.get('alarm_latency_p99_ms', nan),
                        at.get('alarms'), at.get('monitor_cpu_cores', nan),
                        at.get('cpu_per_channel', nan),
                        100 * at.get('host_cpu_busy', nan),
                        at.get('nvdec_util', nan), at.get('gpu_util', nan),
                        at.get('rss_max_kb', 0) / 1024.0))
            if 'metrics' in parts:
                summary.append(
                    '/metrics at %d channels: p50 %.1f ms, p99 %.1f ms '
                    '(target <= 20 ms)' % (
                        args.metrics_n, r.get('metrics_render_p50_ms', nan),
                        r.get('metrics_render_p99_ms', nan)))
            if 'probe' in parts:
                summary += probe_summary(rows, best, pbest, pfail)
            failed = [x for x in rows if x['step'] == 'monitor' and
                      x['n'] == fail]
            if failed and failed[0].get('host_cpu_busy', 0) > 0.9:
                summary.append('at N=%d the host CPU was %.0f %% busy: the '
                               'host CPU is the limit' % (
                                   fail, 100 * failed[0]['host_cpu_busy']))
    finally:
        summary.append('took %.1f min' % ((time.monotonic() - started) / 60))
        write_results(args, rows, summary)
    log('=== summary (%s)' % args.out)
    for line in summary:
        log(line)


if __name__ == '__main__':
    main()
