#!/usr/bin/python3
# tests/common/clip_cache.py: a clip is made once per key and then found,
# by this process and by others at the same time (the lock); a change to
# its definition or to a source file of its generator makes a new entry;
# an entry is never seen half made; the FFmpeg that made it is recorded;
# without SHARPNESS_CLIP_CACHE the build tree's folder is used as before.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import multiprocessing
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import clip_cache  # noqa: E402
import scaffold  # noqa: E402

check = scaffold.Checks()


def maker(log, content='frames'):
    """A make() that writes @content to each path, slowly (so that a
    second process arrives while it works), and logs each call."""
    def make(paths):
        with open(log, 'a') as f:
            f.write('made\n')
        time.sleep(0.5)
        for p in paths:
            with open(p, 'w') as f:
                f.write(content)
    return make


def calls(log):
    if not os.path.exists(log):
        return 0
    with open(log) as f:
        return len(f.read().split())


def get(args):
    """One process's use of the cache (multiprocessing)."""
    top, log, source = args
    os.environ[clip_cache.ENV] = top
    return clip_cache.files('clip', ['a.mp4', 'b.webm'], ('def', 1),
                            [source], maker(log), '/nonexistent')


with tempfile.TemporaryDirectory() as tmp:
    top = os.path.join(tmp, 'cache')
    log = os.path.join(tmp, 'log')
    source = os.path.join(tmp, 'gen.py')
    with open(source, 'w') as f:
        f.write('# the generator, version 1\n')

    # Four processes at once: one makes, the others wait and find it.
    with multiprocessing.Pool(4) as pool:
        got = pool.map(get, [(top, log, source)] * 4)
    check(calls(log) == 1, 'four processes at once: made once (%d)'
          % calls(log))
    check(all(g == got[0] for g in got) and
          all(os.path.exists(p) for p in got[0]),
          'all four get the same files')
    check(got[0][0].startswith(top + os.sep) and
          os.path.basename(got[0][0]) == 'a.mp4', 'in the cache folder')
    check(not [n for n in os.listdir(top) if n.endswith('.part')],
          'no part folder left')
    check(clip_cache.made_by(got[0][0]).startswith(('ffmpeg', 'no ffmpeg')),
          'the maker recorded: %r' % clip_cache.made_by(got[0][0]))

    # Found again later (another run): not made again.
    get((top, log, source))
    check(calls(log) == 1, 'a later call finds it')

    # Another definition, or another generator source: a new entry.
    os.environ[clip_cache.ENV] = top
    other = clip_cache.files('clip', ['a.mp4', 'b.webm'], ('def', 2),
                             [source], maker(log), '/nonexistent')
    check(calls(log) == 2 and other[0] != got[0][0],
          'another definition: another entry')
    with open(source, 'w') as f:
        f.write('# the generator, version 2\n')
    newer = get((top, log, source))
    check(calls(log) == 3 and newer[0] not in (got[0][0], other[0]),
          'the generator changed: another entry')

    # A make() that fails leaves nothing that a later call would take.
    def broken(paths):
        with open(paths[0], 'w') as f:
            f.write('half')
        raise RuntimeError('encoder died')
    try:
        clip_cache.files('bad', ['a.mp4'], 'x', [source], broken,
                         '/nonexistent')
        check(False, 'a failing make() raises')
    except RuntimeError:
        pass
    again = clip_cache.files('bad', ['a.mp4'], 'x', [source],
                             maker(log, 'whole'), '/nonexistent')
    with open(again[0]) as f:
        check(f.read() == 'whole', 'after a failed make(), made again whole')

    # A suite that keys its own clips gets a folder in the cache, marked
    # as used (CI removes what no run used for 30 days).
    old = time.time() - 40 * 86400
    shared = os.path.join(top, 'suite')
    os.makedirs(shared)
    os.utime(shared, (old, old))
    check(clip_cache.folder('suite', '/nonexistent') == shared and
          os.path.getmtime(shared) > old + 86400,
          'folder(): in the cache, marked as used')

    # A suite folder keyed by its generator's source: another folder when
    # the source changes (the suite's own keys may not cover its code).
    keyed = clip_cache.folder('suite', '/nonexistent', sources=[source])
    check(os.path.dirname(keyed) == top and
          os.path.basename(keyed).startswith('suite-') and
          os.path.isdir(keyed) and keyed != shared,
          'folder() with sources: a keyed folder in the cache')
    check(clip_cache.folder('suite', '/nonexistent', sources=[source]) ==
          keyed, 'folder() with the same sources: the same folder')
    with open(source, 'w') as f:
        f.write('# the generator, version 3\n')
    check(clip_cache.folder('suite', '/nonexistent', sources=[source])
          not in (keyed, shared), 'folder(): the source changed: another')

    # Without the variable: the build tree's folder, as before.
    del os.environ[clip_cache.ENV]
    check(clip_cache.folder('suite', os.path.join(tmp, 'tree-suite'),
                            sources=[source]) ==
          os.path.join(tmp, 'tree-suite') and
          os.path.isdir(os.path.join(tmp, 'tree-suite')),
          'folder() without SHARPNESS_CLIP_CACHE: the build tree\'s')
    tree = os.path.join(tmp, 'build', 'data')
    local = clip_cache.files('clip', ['a.mp4'], ('def', 1), [source],
                             maker(log), tree)
    check(local == [os.path.join(tree, 'a.mp4')] and
          os.path.exists(local[0]) and clip_cache.made_by(local[0]) == '',
          'no SHARPNESS_CLIP_CACHE: in the build tree')

check.finish('clip cache')
