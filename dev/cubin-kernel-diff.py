#!/usr/bin/env python3
"""Compare the GPU kernels of two builds, kernel by kernel, without
cuobjdump or a GPU.

  dev/cubin-kernel-diff.py OLD[,OLD...] NEW[,NEW...]

Each argument is a comma-separated list of nvcc outputs: host objects
(`nvcc -c`, whose .nv_fatbin holds the device images uncompressed) or
cubins (`nvcc -cubin`).  Kernels are matched by architecture and
demangled name, anonymous and `compare_cuda` namespaces left out, so a
kernel moved to another file or namespace is still matched.  For each:
its SASS bytes (.text.<kernel>), register count, static shared memory,
parameter bank size, relocations and .nv.info attributes (symbol indices
left out).  Exit status 1 when a kernel differs or is in one build only.

Copyright (C) 2026 The gst-sharpness authors
SPDX-License-Identifier: LGPL-2.1-or-later
"""
import hashlib
import struct
import subprocess
import sys

# .nv.info attributes whose value starts with a symbol index
SYM_ATTRS = {0x0a, 0x11, 0x12, 0x23, 0x2f, 0x37}
STRIP = ('(anonymous namespace)::', 'compare_cuda::')


def elf_sections(d):
    assert d[:4] == b'\x7fELF' and d[4] == 2, 'not a 64-bit ELF'
    shoff, = struct.unpack_from('<Q', d, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', d, 0x3a)
    secs = []
    for i in range(shnum):
        name, typ, _, _, off, size, link, info, _, entsize = \
            struct.unpack_from('<IIQQQQIIQQ', d, shoff + i * shentsize)
        secs.append(dict(name=name, type=typ, link=link, info=info,
                         entsize=entsize, size=size,
                         data=d[off:off + size] if typ != 8 else b''))

    def string(tab, o):
        b = tab['data'][o:]
        return b[:b.index(b'\0')].decode()
    for s in secs:
        s['n'] = string(secs[shstrndx], s['name'])
    return secs, string


def device_images(path):
    """The cubins of a host object's .nv_fatbin, or the cubin itself."""
    d = open(path, 'rb').read()
    secs, _ = elf_sections(d)
    fat = next((s for s in secs if s['n'] == '.nv_fatbin'), None)
    if fat is None:
        return [d]
    images, i, f = [], 0, fat['data']
    while (i := f.find(b'\x7fELF\x02', i)) >= 0:
        shoff, = struct.unpack_from('<Q', f, i + 0x28)
        shentsize, shnum = struct.unpack_from('<HH', f, i + 0x3a)
        images.append(f[i:i + shoff + shnum * shentsize])
        i += 4
    return images


def eiattrs(data, syms=None):
    out, i = [], 0
    while i + 2 <= len(data):
        fmt, attr = data[i], data[i + 1]
        if fmt == 4:
            size, = struct.unpack_from('<H', data, i + 2)
            val, i = data[i + 4:i + 4 + size], i + 4 + size
        else:
            val, i = data[i + 2:i + 4], i + 4
        who = None
        if attr in SYM_ATTRS and len(val) >= 4:
            who = syms[struct.unpack_from('<I', val)[0]] if syms else None
            val = val[4:]
        out.append((attr, who, val.hex()))
    return out


def demangle(names):
    out = subprocess.run(['c++filt'], input='\n'.join(names),
                         capture_output=True, text=True).stdout.split('\n')
    return dict(zip(names, out))


def norm(n):
    for s in STRIP:
        n = n.replace(s, '')
    return n


def kernels(paths):
    ks = {}
    for p in paths:
        for img in device_images(p):
            secs, string = elf_sections(img)
            arch = 'sm_%d' % ((struct.unpack_from('<I', img, 0x30)[0] >> 8)
                              & 0xff)
            symtab = next(s for s in secs if s['type'] == 2)
            syms = [string(secs[symtab['link']],
                           struct.unpack_from('<I', symtab['data'], i)[0])
                    for i in range(0, len(symtab['data']), 24)]
            by = {s['n']: s for s in secs}
            texts = [s for s in secs if s['n'].startswith('.text.')]
            dm = demangle([t['n'][6:] for t in texts] + syms)
            for t in texts:
                m = t['n'][6:]
                rel = by.get('.rel.text.' + m) or by.get('.rela.text.' + m)
                rels = []
                for i in range(0, rel['size'] if rel else 0, rel and
                               rel['entsize'] or 1):
                    off, inf = struct.unpack_from('<QQ', rel['data'], i)
                    rels.append((off, inf & 0xffffffff,
                                 norm(dm.get(syms[inf >> 32], ''))))
                info = by.get('.nv.info.' + m)
                glob = by.get('.nv.info')
                ks[(arch, norm(dm[m]))] = dict(
                    file=p, text=t['data'], regs=t['info'] >> 24,
                    shared=by['.nv.shared.' + m]['size']
                    if '.nv.shared.' + m in by else 0,
                    const0=by['.nv.constant0.' + m]['size']
                    if '.nv.constant0.' + m in by else 0,
                    rels=rels,
                    info=[(a, v) for a, _, v in eiattrs(info['data'])]
                    if info else [],
                    ginfo=[(a, v) for a, w, v in eiattrs(glob['data'], syms)
                           if w == m] if glob else [])
    return ks


def main():
    old = kernels(sys.argv[1].split(','))
    new = kernels(sys.argv[2].split(','))
    bad = 0
    for k in sorted(set(old) | set(new)):
        name = '%s %s' % (k[0], k[1][:72])
        if k not in old or k not in new:
            bad += 1
            print('ONLY IN %s: %s' % ('old' if k in old else 'new', name))
            continue
        a, b = old[k], new[k]
        diffs = [f if f != 'shared' else 'static shared %d -> %d' %
                 (a['shared'], b['shared'])
                 for f in ('text', 'regs', 'shared', 'const0', 'rels',
                           'info', 'ginfo') if a[f] != b[f]]
        bad += bool(diffs)
        print('%s %s: %d B of SASS, sha1 %s%s' % (
            'DIFF' if diffs else 'same', name, len(b['text']),
            hashlib.sha1(b['text']).hexdigest()[:12],
            ' (' + ', '.join(diffs) + ')' if diffs else ''))
    print('%d kernels, %d differ' % (len(set(old) | set(new)), bad))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
