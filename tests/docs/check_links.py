#!/usr/bin/python3
# Every relative link of every Markdown file of the repository leads to a
# file that exists, and every #anchor to a heading (or an HTML id) of that
# file: a moved or renamed page breaks this test, not the reader's click.
#
# And raw run output stays out of the repository: no tracked file under
# docs/logs/ (figures go to docs/performance/gpu-runs.md with their
# device, driver, date and the command that reproduces them).
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
import os
import re
import subprocess
import sys

ROOT = os.path.abspath(os.environ.get(
    'SHARPNESS_SOURCE_ROOT',
    os.path.join(os.path.dirname(__file__), '..', '..')))
LINK = re.compile(r'\]\(([^)\s]+)(?:\s+"[^"]*")?\)')
# Folders that hold no page of ours when the tree is not a git checkout.
SKIP_DIRS = {'.git', 'subprojects', 'node_modules', '__pycache__'}
# No file of the repository may live here.
FORBIDDEN = ['docs/logs']

_anchor_cache = {}


def git_files(*args):
    """git ls-files ARGS under ROOT, or None outside a git checkout."""
    try:
        out = subprocess.run(['git', '-C', ROOT, 'ls-files', '-z'] +
                             list(args), capture_output=True,
                             check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    return [f for f in out.decode('utf-8', 'replace').split('\0') if f]


def walked_files():
    for d, dirs, files in os.walk(ROOT):
        dirs[:] = [x for x in dirs if x not in SKIP_DIRS
                   and not x.startswith(('build', 'obj-', '.'))]
        for f in files:
            yield os.path.relpath(os.path.join(d, f), ROOT)


def slug(text):
    """GitHub's anchor of a heading's text."""
    text = re.sub(r'!?\[([^\]]*)\]\([^)]*\)', r'\1', text)  # links: text
    text = re.sub(r'<[^>]+>', '', text)                      # inline HTML
    a = re.sub(r'[^\w\- ]', '', text.strip().lower())
    return a.replace(' ', '-')


def anchors(path):
    """The anchors of @path: its headings (GitHub's -1, -2 … for repeats)
    and its HTML ids and names."""
    if path in _anchor_cache:
        return _anchor_cache[path]
    out = set()
    seen = {}
    with open(path, encoding='utf-8') as f:
        text = f.read()
    text = re.sub(r'^(```|~~~).*?^\1', '', text, flags=re.S | re.M)
    for line in text.split('\n'):
        m = re.match(r'#{1,6}\s+(.*?)\s*#*\s*$', line)
        if m:
            a = slug(m.group(1))
            n = seen.get(a, 0)
            seen[a] = n + 1
            out.add(a if n == 0 else '%s-%d' % (a, n))
        for m in re.finditer(r'<a\s[^>]*(?:name|id)="([^"]+)"', line):
            out.add(m.group(1).lower())
    _anchor_cache[path] = out
    return out


def check_links(pages):
    broken = []
    checked = 0
    for rel in pages:
        page = os.path.join(ROOT, rel)
        if not os.path.isfile(page):
            continue            # deleted in the work tree, not yet in git
        with open(page, encoding='utf-8') as f:
            text = f.read()
        # Code blocks and code spans hold commands, not links.
        text = re.sub(r'^(```|~~~).*?^\1', '', text, flags=re.S | re.M)
        text = re.sub(r'`[^`\n]*`', '', text)
        for target in LINK.findall(text):
            if re.match(r'^[a-zA-Z][a-zA-Z0-9+.-]*:', target):
                continue        # http:, https:, mailto: …
            path, _, frag = target.partition('#')
            if path.startswith('/'):
                dest = os.path.join(ROOT, path.lstrip('/'))
            elif path:
                dest = os.path.join(os.path.dirname(page), path)
            else:
                dest = page
            dest = os.path.normpath(dest)
            checked += 1
            if not os.path.exists(dest):
                broken.append('%s: %s: no such file' % (rel, target))
            elif not os.path.realpath(dest).startswith(
                    os.path.realpath(ROOT) + os.sep):
                broken.append('%s: %s: outside the repository' %
                              (rel, target))
            elif frag and dest.endswith('.md') and \
                    frag.lower() not in anchors(dest):
                broken.append('%s: %s: no such heading' % (rel, target))
            elif any(os.path.relpath(dest, ROOT) == d or
                     os.path.relpath(dest, ROOT).startswith(d + '/')
                     for d in FORBIDDEN):
                broken.append('%s: %s: links into %s' %
                              (rel, target, os.path.relpath(dest, ROOT)))
    return checked, broken


def main():
    files = git_files()
    in_git = bool(files)
    if in_git:
        # Pages about to be added are checked too.
        pages = files + (git_files('--others', '--exclude-standard') or [])
    else:
        files = pages = list(walked_files())
    failures = []
    for d in FORBIDDEN:
        if in_git:
            under = [f for f in files if f == d or f.startswith(d + '/')]
        else:
            under = [f for f in files if f.startswith(d + '/')]
        if under:
            failures.append('%d file(s) under %s/ (%s%s): raw run output is '
                            'not committed; its figures belong in '
                            'docs/performance/gpu-runs.md'
                            % (len(under), d, ', '.join(under[:3]),
                               ', …' if len(under) > 3 else ''))
    pages = sorted(set(f for f in pages if f.endswith('.md')))
    checked, broken = check_links(pages)
    failures += broken
    for b in failures:
        print('FAIL', b)
    print('%d Markdown files, %d links checked, %d failures%s'
          % (len(pages), checked, len(failures),
             '' if in_git else ' (not a git checkout: every file counted)'))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
