#!/usr/bin/python3
# Every relative link of the README and docs/ leads to a file that exists,
# and every #anchor to a heading of that file: a moved or renamed page
# breaks this test, not the reader's click.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
import os
import re
import sys

ROOT = os.environ.get('SHARPNESS_SOURCE_ROOT',
                      os.path.join(os.path.dirname(__file__), '..', '..'))
LINK = re.compile(r'\]\(([^)\s]+)\)')


def anchors(path):
    """GitHub's anchors of the headings of @path."""
    out = set()
    with open(path, encoding='utf-8') as f:
        for line in f:
            m = re.match(r'#+\s+(.*)', line)
            if m:
                a = re.sub(r'[^\w\- ]', '', m.group(1).strip().lower())
                out.add(a.replace(' ', '-'))
    return out


def pages():
    yield os.path.join(ROOT, 'README.md')
    for d, _, files in os.walk(os.path.join(ROOT, 'docs')):
        for f in files:
            if f.endswith('.md'):
                yield os.path.join(d, f)


def main():
    broken = []
    checked = 0
    for page in pages():
        with open(page, encoding='utf-8') as f:
            text = f.read()
        # Code blocks hold commands, not links.
        text = re.sub(r'```.*?```', '', text, flags=re.S)
        for target in LINK.findall(text):
            if re.match(r'^[a-z]+:', target):
                continue
            path, _, frag = target.partition('#')
            dest = os.path.normpath(os.path.join(os.path.dirname(page),
                                                 path)) if path else page
            checked += 1
            rel = os.path.relpath(page, ROOT)
            if not os.path.exists(dest):
                broken.append('%s: %s: no such file' % (rel, target))
            elif frag and dest.endswith('.md') and \
                    frag.lower() not in anchors(dest):
                broken.append('%s: %s: no such heading' % (rel, target))
    for b in broken:
        print('FAIL', b)
    print('%d links checked, %d broken' % (checked, len(broken)))
    return 1 if broken else 0


if __name__ == '__main__':
    sys.exit(main())
