#!/usr/bin/python3
# Test clips made once and kept where several build trees find them.
#
# A clip costs more to make (frames rendered in Python, then x264/libvpx)
# than most tests that read it.  Without SHARPNESS_CLIP_CACHE each build
# tree makes its own, in the folder its test names.  With it (CI sets
# /var/cache/gst-sharpness/clips, bound into the Debian 13 root), the build
# tree of GStreamer 1.22, the one of 1.26 and the next CI runs share one
# copy, made by whichever comes first: on CI the host part, with Debian
# 12's FFmpeg.
#
# An entry is keyed by what its bytes depend on: the clip's definition as
# the caller gives it (sizes, shots, blurs, encoder arguments) and the
# source of the code that renders it (the files named), so that any change
# to either makes a new entry instead of reusing a stale one.  Not by the
# FFmpeg that encodes it: a consumer of a shared clip must hold only to
# what the definition fixes (its frames' truth, its size, its codec), not
# to one encoder's bytes; the entry records which FFmpeg made it
# (maker.txt), and made_by() says so in the test's output.  An entry is
# made under a lock (tests run in parallel, and two roots may share the
# folder) into a temporary folder renamed into place: a reader sees it
# whole or not at all.  Entries unused for 30 days are removed by CI
# (.ci/run), not here.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import fcntl
import hashlib
import os
import shutil
import subprocess

ENV = 'SHARPNESS_CLIP_CACHE'


def key(definition, sources):
    """The entry's key: a hash of repr(@definition) and of the contents of
    the files @sources."""
    h = hashlib.sha256(repr(definition).encode())
    for path in sources:
        with open(path, 'rb') as f:
            h.update(b'\0' + os.path.basename(path).encode() + b'\0')
            h.update(f.read())
    return h.hexdigest()[:20]


def _ffmpeg_version():
    try:
        out = subprocess.run(['ffmpeg', '-version'], capture_output=True,
                             text=True, timeout=60,
                             stdin=subprocess.DEVNULL).stdout
    except OSError:
        return 'no ffmpeg'
    return out.split('\n', 1)[0]


def _entry(top, name, definition, sources):
    return os.path.join(top, '%s-%s' % (name, key(definition, sources)))


def files(name, names, definition, sources, make, default_dir):
    """Paths of the files @names of the clip @name, made on first use by
    make(paths) (it writes each of them).  In $SHARPNESS_CLIP_CACHE
    /NAME-KEY/ when that is set, else in @default_dir (one build tree's),
    where an existing file is taken as it is, as before the cache."""
    top = os.environ.get(ENV)
    if not top:
        os.makedirs(default_dir, exist_ok=True)
        paths = [os.path.join(default_dir, n) for n in names]
        with open(os.path.join(default_dir, 'lock'), 'w') as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not all(os.path.exists(p) for p in paths):
                make(paths)
        return paths
    os.makedirs(top, exist_ok=True)
    entry = _entry(top, name, definition, sources)
    paths = [os.path.join(entry, n) for n in names]
    with open(entry + '.lock', 'w') as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not os.path.isdir(entry):
            part = entry + '.part'
            shutil.rmtree(part, ignore_errors=True)
            os.makedirs(part)
            make([os.path.join(part, n) for n in names])
            with open(os.path.join(part, 'maker.txt'), 'w') as f:
                f.write(_ffmpeg_version() + '\n')
            os.rename(part, entry)
        # Used now: CI's clean-up removes what no run used for long.
        os.utime(entry)
    return paths


def folder(name, default_dir, definition=None, sources=()):
    """A folder for a suite that keys and locks its own clips (e.g. a
    truth file with a key per clip): $SHARPNESS_CLIP_CACHE/@name when
    that is set, else @default_dir (one build tree's).  Given a
    @definition or @sources (the files that render the clips), the folder
    is $SHARPNESS_CLIP_CACHE/NAME-KEY, as files() keys its entries: a
    suite whose own keys do not cover its generator's code (a version
    number bumped by hand) gets a new folder when that code changes, as
    a fresh build tree would.  Marked as used, as files() marks its
    entries."""
    top = os.environ.get(ENV)
    if top and (definition is not None or sources):
        path = _entry(top, name, definition, sources)
    else:
        path = os.path.join(top, name) if top else default_dir
    os.makedirs(path, exist_ok=True)
    if top:
        os.utime(path)
    return path


def made_by(path):
    """Which FFmpeg made the cached clip at @path ("" outside the cache)."""
    try:
        with open(os.path.join(os.path.dirname(path), 'maker.txt')) as f:
            return f.read().strip()
    except OSError:
        return ''
