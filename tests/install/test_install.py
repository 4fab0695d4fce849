#!/usr/bin/python3
# `meson install` into a DESTDIR: the plugin lands in GStreamer's plugin
# directory and loads from there alone (no GST_PLUGIN_PATH; the system path
# pointed at the DESTDIR, a registry of its own), the tools come with their
# manual pages (which man renders without a warning), the docs and the JSON
# Schema are where the man pages say, and nothing lands outside the prefix.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(
    __file__)), '..', 'common'))
import scaffold  # noqa: E402

import glob  # noqa: E402
import json  # noqa: E402
import re  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402

BUILD = os.environ.get('SHARPNESS_BUILD_ROOT', '.')
SOURCE = scaffold.SOURCE_ROOT
CLIP = os.path.join(SOURCE, 'tests', 'data', 'testsrc2-320x240.h264')


def meson(*args, **kw):
    return subprocess.run(['meson'] + list(args), capture_output=True,
                          text=True, stdin=subprocess.DEVNULL, timeout=300,
                          **kw)


def options():
    res = meson('introspect', '--buildoptions', BUILD)
    if res.returncode != 0:
        raise AssertionError('meson introspect: ' + res.stderr)
    return {o['name']: o['value'] for o in json.loads(res.stdout)}


def targets():
    res = meson('introspect', '--targets', BUILD)
    return {t['name'] for t in json.loads(res.stdout)}


def unescaped(page):
    """A man page's source with gen-man.py's escapes taken out: minus
    signs, and the break points of long paths."""
    with open(page, encoding='utf-8') as f:
        return f.read().replace('\\-', '-').replace('\\:', '')


def clean_env(**extra):
    """The environment without the test suite's plugin path: only what the
    installed files give GStreamer."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith('GST_PLUGIN_PATH')
           and not k.startswith('GST_PLUGIN_SYSTEM_PATH')
           and not k.startswith('GST_REGISTRY')}
    env.update(extra)
    return env


def main():
    if not shutil.which('meson'):
        scaffold.skip('meson missing')
    if not shutil.which('gst-inspect-1.0'):
        scaffold.skip('gst-inspect-1.0 missing (gstreamer1.0-tools)')
    opt = options()
    prefix = opt['prefix']
    docdir = opt.get('docdir') or os.path.join(opt['datadir'], 'doc',
                                               'gst-sharpness')
    have = targets()
    errors = []

    with tempfile.TemporaryDirectory(prefix='install-',
                                     dir=os.path.join(BUILD, 'tests')) as tmp:
        dest = os.path.join(tmp, 'dest')
        res = meson('install', '-C', BUILD, '--no-rebuild', '--quiet',
                    '--destdir', dest)
        if res.returncode != 0:
            raise AssertionError('meson install failed:\n%s%s' % (
                res.stdout, res.stderr))
        root = os.path.join(dest, prefix.lstrip('/'))

        def p(*parts):
            return os.path.join(root, *parts)

        expected = [
            p(opt['libdir'], 'gstreamer-1.0', 'libgstsharpness.so'),
            p(opt['bindir'], 'sharpness-scan'),
            p(opt['mandir'], 'man1', 'sharpness-scan.1'),
            p(opt['datadir'], 'gst-sharpness', 'scan-report.schema.json'),
            p(docdir, 'reference', 'scan-report.schema.json'),
            p(opt['datadir'], 'gst-sharpness', 'scan-array.sh'),
            p(docdir, 'examples', 'read-meta.py'),
        ]
        # Every page of docs/, whatever was added since (the run logs
        # stay in the source tree).
        docs = os.path.join(SOURCE, 'docs')
        for md in sorted(glob.glob(os.path.join(docs, '**', '*.md'),
                                   recursive=True)):
            rel = os.path.relpath(md, docs)
            if not rel.startswith('logs' + os.sep):
                expected.append(p(docdir, rel))
        unitdir = (opt.get('systemdsystemunitdir') or
                   os.path.join(prefix, 'lib', 'systemd', 'system'))
        if 'sharpness-monitor' in have:
            expected += [p(opt['bindir'], 'sharpness-monitor'),
                         p(opt['mandir'], 'man1', 'sharpness-monitor.1'),
                         os.path.join(dest, unitdir.lstrip('/'),
                                      'sharpness-monitor.service'),
                         p(opt['datadir'], 'gst-sharpness', 'monitor',
                           'channels.example.yaml')]
        for path in expected:
            if not os.path.isfile(path):
                errors.append('not installed: %s' % os.path.relpath(path,
                                                                    dest))

        installed = []
        for d, _, files in os.walk(dest):
            installed += [os.path.join(d, f) for f in files]
        print('%d files installed under %s' % (len(installed), prefix))
        # The unit may be placed outside the prefix on purpose
        # (-Dsystemdsystemunitdir=/lib/systemd/system for Debian 12).
        unit_root = os.path.join(dest, unitdir.lstrip('/'))
        for path in installed:
            if not (path.startswith(root + os.sep) or
                    path.startswith(unit_root + os.sep)):
                errors.append('installed outside the prefix: %s' %
                              os.path.relpath(path, dest))
        for junk in ('meson.build', '__pycache__', '.pyc', '.log'):
            for path in installed:
                if junk in os.path.relpath(path, dest):
                    errors.append('installed by mistake: %s' %
                                  os.path.relpath(path, dest))

        # The installed plugin alone, as GStreamer's system path.
        plugin_dir = p(opt['libdir'], 'gstreamer-1.0')
        registry = os.path.join(tmp, 'registry.bin')
        env = clean_env(GST_PLUGIN_SYSTEM_PATH_1_0=plugin_dir,
                        GST_REGISTRY_1_0=registry)
        for element in ('cudasharpness', 'cudacompare', 'sharpnessoverlay'):
            res = subprocess.run(['gst-inspect-1.0', element], env=env,
                                 capture_output=True, text=True,
                                 stdin=subprocess.DEVNULL, timeout=120)
            out = res.stdout + res.stderr
            if res.returncode != 0:
                errors.append('gst-inspect-1.0 %s: exit %d\n%s' % (
                    element, res.returncode, out[-2000:]))
            elif plugin_dir not in out:
                errors.append('gst-inspect-1.0 %s: not loaded from %s' % (
                    element, plugin_dir))
            else:
                print('gst-inspect-1.0 %s: loaded from the DESTDIR' % element)

        # The installed tool scans with the installed plugin (and the
        # system's decoders).
        scan = p(opt['bindir'], 'sharpness-scan')
        system_dirs = [d for d in
                       os.environ.get('GST_PLUGIN_SYSTEM_PATH_1_0', '')
                       .split(':') if d]
        env = clean_env(GST_PLUGIN_SYSTEM_PATH_1_0=':'.join(
                            [plugin_dir] + system_dirs),
                        GST_REGISTRY_1_0=registry + '.scan')
        res = subprocess.run([scan, '--version'], env=env,
                             capture_output=True, text=True, timeout=60,
                             stdin=subprocess.DEVNULL)
        if res.returncode != 0 or 'sharpness-scan' not in res.stdout:
            errors.append('installed sharpness-scan --version: exit %d %s' % (
                res.returncode, res.stdout + res.stderr))
        if system_dirs:
            res = subprocess.run([scan, '--cpu', '--quiet', '--json', '-',
                                  CLIP], env=env, capture_output=True,
                                 text=True, timeout=300,
                                 stdin=subprocess.DEVNULL)
            if res.returncode != 0:
                errors.append('installed sharpness-scan on %s: exit %d\n%s'
                              % (os.path.basename(CLIP), res.returncode,
                                 res.stderr[-2000:]))
            else:
                frames = json.loads(res.stdout)['files'][0]['summary'][
                    'frames']
                print('installed sharpness-scan: %d frames of %s' % (
                    frames, os.path.basename(CLIP)))
                if frames <= 0:
                    errors.append('installed sharpness-scan scanned no frame')

        # man finds and renders each page, without a warning; the scan's
        # page names the installed docs, not the source tree's.
        if shutil.which('man'):
            mandir = p(opt['mandir'])
            for page in sorted(glob.glob(os.path.join(mandir, 'man1',
                                                      '*.1'))):
                name = os.path.basename(page)[:-2]
                res = subprocess.run(
                    ['man', '--warnings', '-E', 'UTF-8', '-P', 'cat', name],
                    env=clean_env(MANPATH=mandir, MANWIDTH='80',
                                  LC_ALL='C.UTF-8'),
                    capture_output=True, text=True, timeout=60,
                    stdin=subprocess.DEVNULL)
                text = res.stdout
                if res.returncode != 0 or res.stderr.strip():
                    errors.append('man %s: exit %d %s' % (
                        name, res.returncode, res.stderr.strip()))
                elif 'OPTIONS' not in text or '--help' not in text:
                    errors.append('man %s: no OPTIONS section' % name)
                elif name == 'sharpness-scan' and \
                        os.path.join(prefix, docdir) not in unescaped(page):
                    errors.append('man %s does not name %s' % (
                        name, os.path.join(prefix, docdir)))
                else:
                    print('man %s: %d lines' % (name, text.count('\n')))
                # Every installed file the page names is there.
                source = unescaped(page)
                # whatis and apropos (and lintian) need "NAME - summary".
                if not re.search(r'^\.SH NAME\n\S+ - \S', source, re.M):
                    errors.append('man %s: no summary on its NAME line' %
                                  name)
                for path in sorted(set(re.findall(
                        re.escape(prefix.rstrip('/')) + r'/[\w./-]*\w',
                        source))):
                    if not os.path.exists(os.path.join(dest,
                                                       path.lstrip('/'))):
                        errors.append('man %s names %s, not installed' % (
                            name, path))
        else:
            print('note: man missing (man-db), the pages were not rendered')

    for e in errors:
        print('FAIL: ' + e)
    if errors:
        return 1
    print('ok: %d expected files installed, the plugin loads from the '
          'DESTDIR' % len(expected))
    return 0


if __name__ == '__main__':
    sys.exit(main())
