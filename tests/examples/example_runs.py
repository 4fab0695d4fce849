#!/usr/bin/python3
# What the checks of the Python examples share: running an example with a
# bounded wait, the inputs of its error paths (clips made here, a text
# file, garbage, a clip no decoder reads, a refused and a silent loopback
# URI) and the check of an error run: prompt, exit status 1, one line on
# stderr naming the cause, no traceback.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
import contextlib
import os
import re
import socket
import subprocess
import threading
import time

# An error path returns within this (seconds); the success paths get more.
PROMPT = 10
LAUNCH_TIMEOUT = 60


def run(example, args, timeout=PROMPT):
    """(exit status or None when it had to be killed, stdout, stderr,
    seconds) of /usr/bin/python3 EXAMPLE ARGS."""
    start = time.monotonic()
    try:
        res = subprocess.run(['/usr/bin/python3', example] + list(args),
                             capture_output=True, text=True,
                             timeout=timeout)
        return (res.returncode, res.stdout, res.stderr,
                time.monotonic() - start)
    except subprocess.TimeoutExpired as e:
        def text(b):
            return (b.decode(errors='replace') if isinstance(b, bytes)
                    else b or '')
        return None, text(e.stdout), text(e.stderr), time.monotonic() - start


def make_clip(path, width, height, frames, scale_to=None):
    """A Motion-JPEG AVI of a moving ball (jpegenc and avimux come with
    gst-plugins-good: no encoder to hope for); @scale_to=(w, h) scales the
    frames after making them, as a downscaled encode of the same clip."""
    scale = ('videoscale ! video/x-raw,width=%d,height=%d ! ' % scale_to
             if scale_to else '')
    subprocess.run(
        ['gst-launch-1.0', '-q', 'videotestsrc', 'num-buffers=%d' % frames,
         'pattern=ball', '!',
         'video/x-raw,width=%d,height=%d,framerate=25/1' % (width, height),
         '!'] + scale.split() + ['jpegenc', 'quality=90', '!', 'avimux',
                                 '!', 'filesink', 'location=' + path],
        check=True, timeout=LAUNCH_TIMEOUT, capture_output=True)
    return path


def make_inputs(tmp):
    """The bad inputs, by case name, as paths or URIs in @tmp."""
    clip = make_clip(os.path.join(tmp, 'clip.avi'), 320, 240, 4)
    inputs = {'missing file': os.path.join(tmp, 'missing.mp4'),
              'text file': os.path.join(tmp, 'notes.mp4'),
              'garbage': os.path.join(tmp, 'garbage.bin'),
              'no decoder': os.path.join(tmp, 'no-decoder.avi'),
              # Port 1 (tcpmux) is privileged and unused: refused.
              'refused URI': 'http://127.0.0.1:1/x'}
    with open(inputs['text file'], 'w') as f:
        f.write('Notes on the shoot: the second take is the sharp one.\n')
    with open(inputs['garbage'], 'wb') as f:
        f.write(bytes((i * 7919 + 13) % 256 for i in range(100000)))
    # The clip under a made-up codec: avidemux exposes it as
    # video/x-avi-unknown, which no decoder takes.
    with open(clip, 'rb') as f:
        data = f.read()
    with open(inputs['no decoder'], 'wb') as f:
        f.write(data.replace(b'MJPG', b'XQZW', 2))
    return clip, inputs


# What each bad input's error line must name.
CAUSES = {'missing file': r'Resource not found.*No such file',
          'text file': r'Could not determine type of stream',
          'garbage': r'Could not determine type of stream',
          'no decoder': r'missing a plug-in.*Missing decoder',
          # souphttpsrc of GStreamer 1.22 posts only "Internal data stream
          # error" (libsoup's "Connection refused" is in its debug log):
          # the line must at least name the HTTP source.
          'refused URI': r'souphttpsrc|URI handler|[Cc]onnection refused'}


@contextlib.contextmanager
def silent_server():
    """A loopback HTTP 'server' that accepts and never answers: a source
    that stalls.  Yields its URI."""
    s = socket.socket()
    s.bind(('127.0.0.1', 0))
    s.listen(8)
    held = []
    stop = threading.Event()

    def accept():
        s.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(s.accept()[0])
            except OSError:
                pass

    t = threading.Thread(target=accept, daemon=True)
    t.start()
    try:
        yield 'http://127.0.0.1:%d/stalled' % s.getsockname()[1]
    finally:
        stop.set()
        t.join(2)
        for c in held:
            c.close()
        s.close()


def error_run(name, result, cause):
    """Errors of an error run: killed or slow, exit status not 1, no
    "error: " line on stderr matching @cause, or a traceback."""
    rc, out, err, secs = result
    if rc is None:
        return ['%s: still running after %.0f s (a hang); stderr: %r'
                % (name, secs, err[-300:])]
    errors = []
    if rc != 1:
        errors.append('%s: exit status %d, want 1' % (name, rc))
    if 'Traceback' in err:
        errors.append('%s: a traceback instead of a message:\n%s'
                      % (name, err))
    lines = [line for line in err.splitlines() if line.startswith('error: ')]
    if len(lines) != 1 or not re.search(cause, lines[0]):
        errors.append('%s: want one "error: " line matching %r on stderr, '
                      'got:\n%s' % (name, cause, err))
    return errors


def success_errors(name, result):
    """Errors of a run that must exit 0: a hang, another exit status."""
    rc, _out, err, secs = result
    if rc is None:
        return ['%s: still running after %.0f s (a hang)' % (name, secs)]
    if rc != 0:
        return ['%s: exit status %d: %s' % (name, rc, err)]
    return []


def stalled_errors(example, cause, before=(), name='stalled source'):
    """Errors of @example given a source that stalls (silent_server)
    after @before, with --timeout 2: an error run naming @cause."""
    with silent_server() as uri:
        return error_run(name, run(example, ['--timeout', '2'] +
                                   list(before) + [uri]), cause)


def input_errors(example, inputs, before=(), label='%s'):
    """Errors of the runs of @example on each bad input of make_inputs
    (given after --backend cpu and @before; its case named @label % name):
    each an error run naming its cause."""
    errors = []
    for name, path in inputs.items():
        errors += error_run(label % name, run(
            example, ['--backend', 'cpu'] + list(before) + [path]),
            CAUSES[name])
    return errors


def unknown_value_errors(example, option, value):
    """Errors of @example run with --@option @value, a value the element
    refuses: an error run quoting the property and the value."""
    return error_run('unknown %s' % option,
                     run(example, ['--' + option, value]),
                     r'could not set property "%s".*"%s"' % (option, value))


def backend_cuda_errors(example, frames_errors):
    """Errors of @example on 3 frames with --backend cuda: on a GPU those
    of frames_errors(name, result, 3), its check of a success; without
    one, an error run naming CUDA (the element's start fails)."""
    result = run(example, ['--frames', '3', '--backend', 'cuda'])
    if result[0] == 0 and result[1]:
        return frames_errors('backend cuda (a GPU)', result, 3)
    return error_run('backend cuda', result, r'CUDA')


def unscored_errors(name, result, want):
    """Errors of a run whose frames are all left out (a metric too slow
    for the CPU): exit status 1 and, on stderr, one frame line per frame,
    each starting with its line of @want (the element's warning)."""
    rc, _out, err, _secs = result
    got = [line for line in err.splitlines() if 'frame=' in line]
    if rc != 1 or len(got) != len(want) or \
            not all(g.startswith(w) for g, w in zip(got, want)):
        return ['%s: exit status %s, want 1 and lines starting %s; '
                'stderr:\n%s' % (name, rc, want, err)]
    return []


def verdict(errors, passed):
    """Prints each of @errors, or @passed when there is none; the exit
    status."""
    for e in errors:
        print('FAIL', e)
    if not errors:
        print(passed)
    return 1 if errors else 0
