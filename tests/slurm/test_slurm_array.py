#!/usr/bin/python3
# An archive scan on a real one-node Slurm cluster: munged with its own key
# and socket, slurmctld and slurmd on 127.0.0.1 from a slurm.conf made here,
# the documented job array (tools/slurm/scan-array.sh) over 8 clips in 4
# shards, then `sharpness-scan --merge` of the parts, which must equal a
# `--jobs 1` scan of the same list: the same files in the same order, the
# same segments, the same score for every frame.
#
# Needs root (slurmd starts the jobs), Debian's slurm-wlm and munge, and
# ffmpeg for the clips; skips (77) without them.  Every daemon is stopped
# and the temporary directory removed whatever happens.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(
    __file__)), '..', 'common'))
import scaffold  # noqa: E402
scaffold.use_suite('scan')

import csv  # noqa: E402
import glob  # noqa: E402
import io  # noqa: E402
import json  # noqa: E402
import shutil  # noqa: E402
import signal  # noqa: E402
import socket  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

import scan_common as sc  # noqa: E402

SCRIPT = os.path.join(scaffold.SOURCE_ROOT, 'tools', 'slurm',
                      'scan-array.sh')
CLIPS = 8
SHARDS = 4
# The tasks scan 2 small clips each on the CPU: seconds, unless the
# machine is busy.
JOB_TIMEOUT = 300
START_TIMEOUT = 60
# slurmd (22.05) initialises its cgroup plugin whatever the configuration;
# on a cgroup v2 machine without systemd's D-Bus (a container) it prepares
# its hierarchy itself instead of failing.
CGROUP_CONF = """\
CgroupPlugin=autodetect
IgnoreSystemdOnFailure=yes
"""
# Set in the daemons' and the jobs' environment: what cleanup looks for to
# find the processes this test started (slurmstepd forks off slurmd).
MARKER = 'SHARPNESS_SLURM_TEST'

SLURM_CONF = """\
ClusterName=sharpnesstest
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort={ctld_port}
SlurmdPort={slurmd_port}
AuthType=auth/munge
AuthInfo=socket={dir}/munge/munge.socket
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation={dir}/state
SlurmdSpoolDir={dir}/spool
SlurmctldPidFile={dir}/slurmctld.pid
SlurmdPidFile={dir}/slurmd.pid
SlurmctldLogFile={dir}/slurmctld.log
SlurmdLogFile={dir}/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
MailProg=/bin/true
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MinJobAge=600
SlurmdTimeout=60
NodeName=sharpnode NodeHostname=localhost NodeAddr=127.0.0.1 CPUs={cpus} State=UNKNOWN
PartitionName=test Nodes=sharpnode Default=YES MaxTime=30 State=UP OverSubscribe=YES
"""


def free_tcp_ports(n):
    socks = []
    for _ in range(n):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.bind(('127.0.0.1', 0))
        socks.append(s)
    ports = [s.getsockname()[1] for s in socks]
    for s in socks:
        s.close()
    return ports


def make_clips():
    """8 small H.264 clips, each with a blur of its own (length and
    place), made once per build tree."""
    paths = []
    for i in range(CLIPS):
        start = 0.4 + 0.1 * i
        end = start + 0.6 + 0.1 * (i % 3)
        blur = "boxblur=luma_radius=6:enable='between(t,%.2f,%.2f)'" % (
            start, end)
        paths.append(sc.ffmpeg_clip('slurm-%d.mp4' % i, [
            '-f', 'lavfi', '-i',
            'testsrc2=s=320x180:r=25:d=%.1f' % (2.0 + 0.2 * i),
            '-vf', blur, '-c:v', 'libx264', '-preset', 'veryfast',
            '-pix_fmt', 'yuv420p', '-g', '25', '-threads', '1']))
    return paths


class Cluster:
    """munged, slurmctld and slurmd in @work, and what stops them."""

    def __init__(self, work):
        self.work = work
        self.procs = []
        self.conf = os.path.join(work, 'slurm.conf')
        self.env = dict(os.environ, SLURM_CONF=self.conf)
        self.env[MARKER] = work
        for d in ('munge', 'state', 'spool'):
            os.makedirs(os.path.join(work, d))
        # munged wants every directory above its socket searchable by
        # all, and its key readable by its owner alone.
        os.chmod(work, 0o755)
        os.chmod(os.path.join(work, 'munge'), 0o755)

    def log(self, name):
        path = os.path.join(self.work, name)
        if not os.path.exists(path):
            return ''
        with open(path, errors='replace') as f:
            return f.read()[-3000:]

    def spawn(self, name, cmd):
        out = open(os.path.join(self.work, name + '.out'), 'w')
        p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=out,
                             stderr=subprocess.STDOUT, env=self.env,
                             start_new_session=True)
        out.close()
        self.procs.append((name, p))
        return p

    def ctl(self, *args, timeout=30, check=True):
        res = subprocess.run(list(args), env=self.env, capture_output=True,
                             text=True, timeout=timeout,
                             stdin=subprocess.DEVNULL)
        if check and res.returncode != 0:
            raise AssertionError('%s: exit %d\n%s%s' % (
                ' '.join(args), res.returncode, res.stdout, res.stderr))
        return res

    def start(self):
        m = os.path.join(self.work, 'munge')
        key = os.path.join(m, 'munge.key')
        self.ctl('mungekey', '--create', '--keyfile=' + key)
        os.chmod(key, 0o600)
        self.spawn('munged', [
            'munged', '--foreground', '--key-file=' + key,
            '--socket=' + os.path.join(m, 'munge.socket'),
            '--pid-file=' + os.path.join(m, 'munged.pid'),
            '--log-file=' + os.path.join(m, 'munged.log'),
            '--seed-file=' + os.path.join(m, 'munged.seed')])
        self.wait_for(lambda: os.path.exists(os.path.join(m, 'munge.socket')),
                      'munged socket', 'munged.out')

        ctld_port, slurmd_port = free_tcp_ports(2)
        with open(self.conf, 'w') as f:
            f.write(SLURM_CONF.format(dir=self.work, ctld_port=ctld_port,
                                      slurmd_port=slurmd_port,
                                      cpus=min(os.cpu_count() or 1, 4)))
        # Beside slurm.conf, where slurmd looks for it.
        with open(os.path.join(os.path.dirname(self.conf), 'cgroup.conf'),
                  'w') as f:
            f.write(CGROUP_CONF)
        self.spawn('slurmctld', ['slurmctld', '-D', '-f', self.conf])
        self.spawn('slurmd', ['slurmd', '-D', '-f', self.conf,
                              '-N', 'sharpnode'])

        def idle():
            res = self.ctl('sinfo', '-h', '-N', '-o', '%T', check=False,
                           timeout=15)
            return res.returncode == 0 and res.stdout.strip() in (
                'idle', 'mixed')
        try:
            self.wait_for(idle, 'the node to be idle', 'slurmctld.log',
                          'slurmd.log', 'slurmctld.out', 'slurmd.out')
        except AssertionError:
            # A machine whose cgroups slurmd cannot use (read-only, no
            # controllers delegated) is not a failure of the scan tool.
            said = [line for name in ('slurmd.log', 'slurmd.out')
                    for line in self.log(name).splitlines()
                    if 'cgroup' in line and 'error' in line.lower()]
            if said:
                scaffold.skip('slurmd cannot use the cgroups of this '
                              'machine: %s' % said[-1].strip())
            raise

    def wait_for(self, ready, what, *logs, timeout=START_TIMEOUT):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for name, p in self.procs:
                if p.poll() is not None:
                    raise AssertionError('%s exited (%d) waiting for %s\n%s'
                                         % (name, p.returncode, what,
                                            self.log(name + '.out')))
            if ready():
                return
            time.sleep(0.5)
        raise AssertionError('no %s after %d s\n%s' % (
            what, timeout, '\n'.join(self.log(n) for n in logs)))

    def stop(self):
        """Cancels the jobs, asks slurmctld to shut down, then stops every
        process this test started: its daemons by their Popen handles,
        and what they forked (slurmstepd, the jobs) by the marker in their
        environment.  Each wait is bounded."""
        if any(n == 'slurmctld' and p.poll() is None for n, p in self.procs):
            for args in (['scancel', '--full', '--partition=test'],
                         ['scontrol', 'shutdown']):
                try:
                    self.ctl(*args, check=False, timeout=20)
                except subprocess.TimeoutExpired:
                    pass
        for name, p in reversed(self.procs):
            if name == 'munged':
                continue
            stop_process(p)
        for pid in marked_processes(self.work):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        for name, p in self.procs:
            if name == 'munged':
                stop_process(p)


def stop_process(p, grace=10):
    if p.poll() is not None:
        return
    p.terminate()
    try:
        p.wait(grace)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait(grace)


def marked_processes(work):
    """Processes whose environment carries this test's marker."""
    want = ('%s=%s' % (MARKER, work)).encode()
    pids = []
    for d in os.listdir('/proc'):
        if not d.isdigit() or int(d) == os.getpid():
            continue
        try:
            with open('/proc/%s/environ' % d, 'rb') as f:
                if want in f.read().split(b'\0'):
                    pids.append(int(d))
        except OSError:
            pass
    return pids


def csv_rows(text):
    """The CSV rows, keyed by (file, frame index)."""
    rows = {}
    for row in csv.DictReader(io.StringIO(text)):
        rows[(row['file'], int(row['index']))] = row
    return rows


# What a segment carries besides its extent and scores: the images of the
# report, present with --json-full only.
IMAGES = ('thumbnail', 'crop')


def segments(doc):
    """(input, its segments without their images, frames) per file."""
    out = []
    for f in doc['files']:
        segs = [{k: v for k, v in seg.items() if k not in IMAGES}
                for seg in f.get('segments') or []]
        out.append((f['input'], json.dumps(segs, sort_keys=True),
                    f['summary']['frames'] if f.get('summary') else None))
    return out


def differences(got, want):
    """The files whose segments or frame counts differ, briefly."""
    want = dict((i, (s, n)) for i, s, n in want)
    lines = []
    for i, s, n in got:
        if want.get(i) != (s, n):
            lines.append('%s: %s, %s frames; --jobs 1: %s' % (
                os.path.basename(i), s, n, want.get(i)))
    return '\n'.join(lines) or 'the same files in another order'


def scan_help():
    return subprocess.run([sc.TOOL, '--help'], capture_output=True,
                          text=True, timeout=60).stdout


def cgroup_mounted():
    try:
        with open('/proc/self/mounts') as f:
            return any(line.split()[1] == '/sys/fs/cgroup' for line in f
                       if len(line.split()) > 2)
    except OSError:
        return False


def main():
    # meson's timeout sends SIGTERM: stop the cluster on the way out.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    if os.geteuid() != 0:
        scaffold.skip('not root (slurmd must run as root)')
    for tool, pkg in (('slurmctld', 'slurmctld'), ('slurmd', 'slurmd'),
                      ('sbatch', 'slurm-client'), ('munged', 'munge'),
                      ('mungekey', 'munge')):
        if not shutil.which(tool):
            scaffold.skip('%s missing (Debian packages slurm-wlm and munge)'
                          % tool)
    # Debian 12's slurmd (22.05) loads its cgroup plugin whatever the
    # configuration, and stops without a cgroup filesystem (a bare chroot).
    if not cgroup_mounted():
        scaffold.skip('no cgroup filesystem mounted on /sys/fs/cgroup '
                      '(slurmd needs one)')
    sc.require_ffmpeg()
    sc.require_elements('cudasharpness', 'h264parse', 'avdec_h264')
    help_text = scan_help()
    have_merge = '--merge' in help_text
    full = ['--json-full'] if '--json-full' in help_text else []

    clips = make_clips()
    work = tempfile.mkdtemp(prefix='sharpness-slurm-')
    cluster = Cluster(work)
    try:
        listing = os.path.join(work, 'archive.txt')
        with open(listing, 'w') as f:
            f.write(''.join(c + '\n' for c in clips))
        # The default metric and rule (blur-effect, absolute threshold:
        # judged from the first frame on, as short clips need).
        opts = ['--cpu']

        # The reference: one process, one file at a time.
        ref_json = os.path.join(work, 'ref.json')
        ref_csv = os.path.join(work, 'ref.csv')
        sc.run('--quiet', '--input-list', listing, '--json', ref_json,
               '--csv', ref_csv, '--jobs', '1', *opts, check=0)

        cluster.start()
        print('slurm: slurmctld and slurmd up on 127.0.0.1 (%s)' % work)
        out = os.path.join(work, 'out')
        env = dict(cluster.env)
        env['PATH'] = os.path.dirname(os.path.abspath(sc.TOOL)) + ':' + \
            env.get('PATH', '/usr/bin:/bin')
        res = subprocess.run(
            ['sbatch', '--parsable', '--array=0-%d' % (SHARDS - 1),
             '--chdir=' + work, '--time=10',
             '--output=' + os.path.join(work, 'slurm-%A_%a.out'),
             SCRIPT, '--csv', listing, out] + opts + full,
            env=env, capture_output=True, text=True, timeout=60,
            stdin=subprocess.DEVNULL)
        if res.returncode != 0:
            raise AssertionError('sbatch: exit %d\n%s' % (res.returncode,
                                                          res.stderr))
        job = res.stdout.strip().split(';')[0]
        print('slurm: job array %s, %d tasks' % (job, SHARDS))

        def done():
            r = cluster.ctl('squeue', '-h', '-j', job, '-o', '%i %T',
                            check=False, timeout=15)
            return r.returncode == 0 and not r.stdout.strip()
        cluster.wait_for(done, 'end of job %s' % job, 'slurmctld.log',
                         'slurmd.log', timeout=JOB_TIMEOUT)

        # Every task ended with status 0 and wrote its parts.
        show = cluster.ctl('scontrol', '-o', 'show', 'job', job).stdout
        states = [(line.split('ArrayTaskId=')[1].split()[0],
                   line.split('JobState=')[1].split()[0],
                   line.split(' ExitCode=')[1].split()[0])
                  for line in show.splitlines() if 'ArrayTaskId=' in line]
        logs = ''.join(open(p).read() for p in sorted(
            glob.glob(os.path.join(work, 'slurm-*.out'))))
        bad = [s for s in states if s[1] != 'COMPLETED' or s[2] != '0:0']
        if len(states) != SHARDS or bad:
            raise AssertionError('tasks %s\n%s' % (states, logs))
        parts = sorted(glob.glob(os.path.join(out, 'part-*.json')))
        if len(parts) != SHARDS:
            raise AssertionError('%d parts: %s\n%s' % (len(parts), parts,
                                                       logs))
        print('slurm: %d tasks COMPLETED, exit 0:0, %d parts' % (
            SHARDS, len(parts)))

        with open(ref_json) as f:
            ref = json.load(f)
        with open(ref_csv) as f:
            ref_rows = csv_rows(f.read())
        errors = []
        found = sum(len(f['segments']) for f in ref['files'])
        if found < CLIPS:
            errors.append('--jobs 1 found %d segments in %d clips, each '
                          'with a blur' % (found, CLIPS))

        # The parts together: each file in exactly one, with the segments
        # and frame scores of the reference.
        part_files = []
        part_rows = {}
        for i, p in enumerate(parts):
            with open(p) as f:
                part_files += json.load(f)['files']
            with open(p[:-5] + '.csv') as f:
                rows = csv_rows(f.read())
            if set(rows) & set(part_rows):
                errors.append('frames in two parts')
            part_rows.update(rows)
        got = sorted(segments({'files': part_files}))
        if got != sorted(segments(ref)):
            errors.append('the parts\' segments differ from --jobs 1:\n' +
                          differences(got, segments(ref)))
        if part_rows != ref_rows:
            diff = [k for k in ref_rows if part_rows.get(k) != ref_rows[k]]
            errors.append('%d frames of the parts differ from --jobs 1 '
                          '(%d vs %d rows; first %s)' % (
                              len(diff), len(part_rows), len(ref_rows),
                              diff[:3]))
        else:
            print('parts: %d files, %d frames, segments and scores as '
                  '--jobs 1' % (len(part_files), len(part_rows)))

        if have_merge:
            merged_json = os.path.join(work, 'merged.json')
            merged_csv = os.path.join(work, 'merged.csv')
            args = ['--merge', '--json', merged_json]
            if full:
                args += ['--csv', merged_csv]
            sc.run(*(args + parts), check=0)
            with open(merged_json) as f:
                merged = json.load(f)
            if segments(merged) != segments(ref):
                errors.append('merged segments differ from --jobs 1:\n' +
                              differences(segments(merged), segments(ref)))
            elif [f['input'] for f in merged['files']] != clips:
                errors.append('merged files not in input-list order')
            else:
                print('merge: %d files in list order, segments as --jobs 1'
                      % len(merged['files']))
            if full:
                with open(merged_csv) as f:
                    mrows = csv_rows(f.read())
                if mrows != ref_rows:
                    errors.append('merged CSV differs from --jobs 1')
                else:
                    print('merge: %d frames, every score as --jobs 1' %
                          len(mrows))
        else:
            print('step skipped: sharpness-scan has no --merge yet; the '
                  'parts were compared with --jobs 1 as they are')

        for e in errors:
            print('FAIL: ' + e)
        return 1 if errors else 0
    finally:
        cluster.stop()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == '__main__':
    sys.exit(main())
