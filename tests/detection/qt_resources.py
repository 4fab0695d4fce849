#!/usr/bin/python3
# Reads the files inside a Qt resource bundle (.rcc, the binary output of
# Qt's rcc tool): GCompris ships its activities' photographs that way, one
# bundle an activity, and photos.py takes photographs from them without
# extracting anything to disk.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# The format (qtbase src/corelib/io/qresource.cpp, the reader's side of
# src/tools/rcc/rcc.cpp): "qres", then big-endian version, tree offset, data
# offset and names offset (version 3 adds a flags word).  The tree is an
# array of nodes of 14 bytes (version 1) or 22 (version 2 and later: an
# 8-byte modification time at the end): name offset (4), flags (2), then
# for a directory the child count (4) and the first child's index (4), for
# a file the locale (country 2, language 2) and the data offset (4).  A name
# is its length in UTF-16 units (2), a hash (4), the UTF-16BE characters; a
# file's data is its length (4) then the bytes, which flag 1 marks as
# qCompress'ed (a 4-byte uncompressed size, then zlib) and flag 4 as zstd.
#
# Usage: qt_resources.py BUNDLE.rcc   (lists the files and their sizes)

import struct
import sys
import zlib

_COMPRESSED, _DIRECTORY, _ZSTD = 1, 2, 4


class FormatError(ValueError):
    pass


def files(path, only=None):
    """{name: bytes} of every file in the bundle at @path ('/a/b.png'
    names), or of the file named @only alone (the others are not
    decompressed).  Raises FormatError on a malformed bundle, and on a file
    compressed with zstd (rcc's -compress-algo zstd: neither Debian 12's
    nor Debian 13's GCompris uses it, and Python has no zstd of its own
    before 3.14)."""
    with open(path, 'rb') as f:
        b = f.read()
    if len(b) < 20 or b[:4] != b'qres':
        raise FormatError('%s: not a Qt resource bundle (no "qres")' % path)
    version, tree, data, names = struct.unpack('>IIII', b[4:20])
    if version not in (1, 2, 3):
        raise FormatError('%s: Qt resource version %d unknown' %
                          (path, version))
    node = 14 if version == 1 else 22

    def unpack(fmt, off):
        end = off + struct.calcsize(fmt)
        if off < 0 or end > len(b):
            raise FormatError('%s: offset %d outside the file' % (path, off))
        return struct.unpack(fmt, b[off:end])

    def name(off):
        n, = unpack('>H', names + off)
        s = names + off + 6
        if s + 2 * n > len(b):
            raise FormatError('%s: a name runs past the end' % path)
        return b[s:s + 2 * n].decode('utf-16-be')

    out = {}
    # Depth-first over the tree, by index; a bundle whose directories
    # point back at themselves cannot loop (each node is visited once).
    seen = set()
    todo = [(0, '')]
    while todo:
        i, prefix = todo.pop()
        if i in seen:
            raise FormatError('%s: the tree visits node %d twice' % (path, i))
        seen.add(i)
        p = tree + i * node
        noff, flags = unpack('>IH', p)
        nm = name(noff) if i else ''
        if flags & _DIRECTORY:
            count, first = unpack('>II', p + 6)
            todo.extend((first + k, prefix + nm + '/') for k in range(count))
            continue
        doff, = unpack('>I', p + 10)
        size, = unpack('>I', data + doff)
        start = data + doff + 4
        if start + size > len(b):
            raise FormatError('%s: %s runs past the end' % (path, prefix + nm))
        if only is not None and prefix + nm != only:
            continue
        blob = b[start:start + size]
        if flags & _ZSTD:
            raise FormatError('%s: %s is zstd-compressed, not read here' %
                              (path, prefix + nm))
        if flags & _COMPRESSED:
            blob = zlib.decompress(blob[4:])
        out[prefix + nm] = blob
    return out


if __name__ == '__main__':
    for n, blob in sorted(files(sys.argv[1]).items()):
        print('%8d %s' % (len(blob), n))
