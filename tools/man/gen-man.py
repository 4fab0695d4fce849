#!/usr/bin/env python3
# Writes a tool's manual page (roff, section 1) from its own --help and
# --version, so that `man sharpness-scan` says exactly what --help says and
# never falls behind it.  The tools' --help is GLib's GOption layout:
#
#   Usage:
#     NAME [OPTION…] ARGS - one-line summary
#
#   Summary paragraph(s).
#
#   Help Options:            (skipped, except -h/--help)
#     -h, --help   Show help options
#
#   Application Options:     (one .TP entry per option)
#     -m, --metric=LIST      What it does
#
#   SECTION NAME             (each upper-case heading becomes a .SH)
#     text...
#
#   usage: gen-man.py [--see-also TEXT]... [--file PATH:WHAT]...
#                     [--docdir DIR] TOOL OUTPUT
#   --docdir: where the docs are installed; "docs/x.md" in --help (a path
#   in the source tree) becomes DIR/x.md.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import argparse
import os
import re
import subprocess
import sys
import tempfile


def esc(text):
    """roff-escaped text: backslashes, hyphens (so that options copy and
    paste as ASCII minus signs) and a leading dot or quote."""
    text = text.replace('\\', '\\e').replace('-', '\\-')
    # A long path (the installed docs under /usr/local) may not fit an
    # option's indented column: troff may break it after a '/' (\\:, no
    # hyphen), which it would otherwise warn about.
    if len(text) > 60:
        text = re.sub(r'(?<=\S/)(?=[^\s/])', lambda m: '\\:', text)
    if text[:1] in ('.', "'"):
        text = '\\&' + text
    return text


def run(tool, arg):
    env = dict(os.environ)
    # "…" rather than "?" in "[OPTION…]", and no translations.
    env['LC_ALL'] = 'C.UTF-8'
    env.pop('LANGUAGE', None)
    # --help must not write a registry into a user's home (a package build
    # may have none that is writable): a throw-away one.
    with tempfile.TemporaryDirectory() as tmp:
        env['GST_REGISTRY_1_0'] = os.path.join(tmp, 'registry.bin')
        res = subprocess.run([tool, arg], capture_output=True, text=True,
                             env=env, stdin=subprocess.DEVNULL, timeout=60)
    if res.returncode != 0:
        sys.exit('gen-man.py: %s %s: exit status %d\n%s' % (
            tool, arg, res.returncode, res.stderr))
    return res.stdout


OPTION_RE = re.compile(r'^  (?P<flags>-\S.*?)(?: {2,}(?P<text>\S.*))?$')
HEADING_RE = re.compile(r'^[A-Z][A-Z0-9 /,()-]*[A-Z)]$')


def option_flags(flags):
    """'-m, --metric=LIST' in roff: bold names, italic argument."""
    out = []
    for part in flags.split(', '):
        name, eq, arg = part.partition('=')
        item = '\\fB%s\\fR' % esc(name)
        if eq:
            item += '=\\fI%s\\fR' % esc(arg)
        out.append(item)
    return ', '.join(out)


def section_body(lines, heading, name=''):
    """A section's lines in roff: runs of plain prose (two-space indent)
    are filled; anything laid out by hand (deeper indents, columns, the
    examples, a command line of the tool) is kept as it is."""
    out = []
    para = []
    verbatim = []

    def flush_para():
        if para:
            out.append('.PP')
            out.append(esc(' '.join(para)))
            para.clear()

    def flush_verbatim():
        if verbatim:
            out.append('.PP')
            out.append('.nf')
            out.extend(esc(v) if v else '' for v in verbatim)
            out.append('.fi')
            verbatim.clear()

    for line in lines:
        if not line.strip():
            flush_para()
            flush_verbatim()
            continue
        body = line[2:] if line.startswith('  ') else line.lstrip()
        laid_out = (heading == 'EXAMPLES' or body.startswith(' ') or
                    (name and body.startswith(name + ' ')) or
                    re.search(r'\S {2,}\S', body) is not None or
                    (verbatim and body.startswith(' ')))
        if laid_out:
            flush_para()
            verbatim.append(body)
        else:
            if verbatim and not para:
                # A line of prose right after a laid-out block continues
                # that block when it is indented like its continuation.
                flush_verbatim()
            para.append(body.strip())
    flush_para()
    flush_verbatim()
    return out


def man_page(help_text, version_text, see_also, files, docdir=None,
             whatis=None):
    if docdir:
        help_text = re.sub(r'(?<![\w/.])docs/', docdir.rstrip('/') + '/',
                           help_text)
    lines = help_text.rstrip('\n').split('\n')
    i = 0
    while i < len(lines) and not lines[i].startswith('Usage:'):
        i += 1
    if i + 1 >= len(lines):
        sys.exit('gen-man.py: no "Usage:" line in --help')
    usage = lines[i + 1].strip()
    i += 2
    # GLib writes "[OPTION…]" as "[OPTION?]" where the tool keeps the C
    # locale's ASCII.
    usage = usage.replace('[OPTION?]', '[OPTION...]')
    synopsis, _, summary = usage.partition(' - ')
    # An empty NAME summary breaks whatis (apropos, lintian's
    # bad-whatis-entry): the caller's, else none at all.
    summary = summary.strip() or (whatis or '')
    if not summary:
        sys.exit('gen-man.py: no " - summary" on the Usage line and no '
                 '--whatis')
    name = synopsis.split()[0]
    synopsis_args = synopsis[len(name):].strip()

    # Summary paragraphs up to the first "... Options:" block.
    description = []
    while i < len(lines) and not lines[i].endswith('Options:'):
        description.append(lines[i])
        i += 1

    options = []  # (flags, text)
    sections = []  # (heading, [lines])
    block = None
    for line in lines[i:]:
        if line.endswith('Options:') and not line.startswith(' '):
            block = line
            continue
        if HEADING_RE.match(line):
            block = None
            sections.append((line, []))
            continue
        if sections and block is None:
            sections[-1][1].append(line)
            continue
        m = OPTION_RE.match(line)
        if m and block is not None:
            flags = m.group('flags').strip()
            if block.startswith('Help') and flags not in ('-h, --help',):
                continue
            options.append([flags, m.group('text') or ''])
        elif line.strip() and options and block is not None:
            # A description wrapped onto the next line.
            options[-1][1] += ' ' + line.strip()
        elif line.strip() and not sections:
            description.append(line)

    # A closing "See docs/x.md." line belongs to SEE ALSO.
    trailer = []
    if sections:
        body = sections[-1][1]
        while body and (not body[-1].strip() or
                        not body[-1].startswith(' ')):
            if body[-1].strip():
                trailer.insert(0, body[-1].strip())
            body.pop()

    version = version_text.strip().split()[-1] if version_text.strip() else ''
    out = ['.\\" Generated by tools/man/gen-man.py from %s --help; do not '
           'edit.' % name,
           '.TH %s 1 "" "gst-sharpness %s" "User Commands"' % (
               esc(name.upper()), esc(version)),
           # Ragged right, no hyphenation: options and paths stay whole.
           '.ad l',
           '.nh',
           '.SH NAME',
           '%s \\- %s' % (esc(name), esc(summary.strip())),
           '.SH SYNOPSIS',
           '\\fB%s\\fR %s' % (esc(name), esc(synopsis_args)),
           '.SH DESCRIPTION']
    out += section_body(description, 'DESCRIPTION', name)
    # The tool's own DESCRIPTION section goes on from the summary.
    for heading, body in sections:
        if heading == 'DESCRIPTION':
            out += section_body(body, heading, name)
    sections = [s for s in sections if s[0] != 'DESCRIPTION']
    if options:
        out.append('.SH OPTIONS')
        for flags, text in options:
            out.append('.TP')
            out.append(option_flags(flags))
            out.append(esc(text.strip()))
    for heading, body in sections:
        out.append('.SH %s' % esc(heading))
        out += section_body(body, heading, name)
    if files:
        out.append('.SH FILES')
        for path, what in files:
            out.append('.TP')
            out.append('\\fI%s\\fR' % esc(path))
            out.append(esc(what))
    out.append('.SH SEE ALSO')
    out.append(esc(', '.join(see_also)) if see_also else '')
    for line in trailer:
        out.append('.PP')
        out.append(esc(line))
    return '\n'.join(out) + '\n'


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--see-also', action='append', default=[],
                    help='a SEE ALSO entry, e.g. "gst-inspect-1.0(1)"')
    ap.add_argument('--file', action='append', default=[],
                    help='PATH:WHAT for the FILES section')
    ap.add_argument('--docdir')
    ap.add_argument('--whatis',
                    help='the NAME line\'s summary, for a tool whose --help '
                    'has no "Usage: ... - summary"')
    ap.add_argument('tool')
    ap.add_argument('output')
    args = ap.parse_args()
    files = [tuple(f.split(':', 1)) for f in args.file]
    page = man_page(run(args.tool, '--help'), run(args.tool, '--version'),
                    args.see_also, files, args.docdir, args.whatis)
    tmp = args.output + '.tmp'
    with open(tmp, 'w', encoding='utf-8') as f:
        f.write(page)
    os.replace(tmp, args.output)


if __name__ == '__main__':
    main()
