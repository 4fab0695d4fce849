#!/usr/bin/python3
# H.264 and H.265 streams carrying CEA-608/708 captions in SEI, for the
# monitor's caption indicator: FFmpeg encodes a test picture (libx264 or
# libx265, one access unit delimiter per picture), and this writer puts an
# ATSC A/53 Part 4 cc_data() (SEI user_data_registered_itu_t_t35, "GA94",
# user_data_type_code 3) before the first slice of every picture that the
# schedule gives captions; the other pictures get none.  What it wrote
# is returned: the pictures with captions, and the valid cc_data packets
# of each type.
#
# The captions: CEA-608 field 1 carries a pop-on caption, "HELLO" (resume
# caption loading, a preamble address code for row 15, the text, end of
# caption: every control code twice, as CEA-608 sends them), then null
# pairs; field 2 a valid null pair on every second picture with
# captions; CEA-708 one DTVCC packet (service 1, "HI") on every fifth:
# its packet start and data, cc_type 3 and 2.  Every byte of CEA-608 with
# odd parity.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import subprocess

TEXT = 'HELLO'
# cc_type (CEA-708 4.4): 0 and 1 CEA-608 field 1 and 2, 2 DTVCC packet
# data, 3 DTVCC packet start.
FIELD1, FIELD2, DTVCC_DATA, DTVCC_START = 0, 1, 2, 3


def _odd(b):
    """@b (7 bits) with its odd-parity bit."""
    return b | (0x80 if bin(b).count('1') % 2 == 0 else 0)


def _pair(a, b):
    return (_odd(a), _odd(b))


def field1_script():
    """The CEA-608 field 1 pairs of the pop-on caption (channel 1)."""
    rcl, eoc = (0x14, 0x20), (0x14, 0x2f)
    pac = (0x14, 0x70)            # row 15, column 0, white
    text = [ord(c) for c in TEXT] + ([0] if len(TEXT) % 2 else [])
    pairs = [rcl, rcl, pac, pac]
    pairs += [(text[i], text[i + 1]) for i in range(0, len(text), 2)]
    pairs += [eoc, eoc]
    return [_pair(a, b) for a, b in pairs]


def cc_data(index):
    """The cc_data triplets (cc_valid, cc_type, byte 1, byte 2) of the
    @index-th picture with captions."""
    script = field1_script()
    null = _pair(0, 0)
    f1 = script[index] if index < len(script) else null
    t = [(1, FIELD1) + f1, (index % 2 == 0, FIELD2) + null]
    if index % 5 == 0:
        # One DTVCC packet of 4 bytes (packet_size_code 2): its header
        # (sequence number, size code), service 1's block header (service
        # 1, 2 bytes), "HI".
        seq = (index // 5) % 4
        t += [(1, DTVCC_START, (seq << 6) | 2, (1 << 5) | 2),
              (1, DTVCC_DATA, ord('H'), ord('I'))]
    else:
        t += [(0, DTVCC_DATA, 0, 0)]   # padding, not valid
    return [(int(v), k, a, b) for v, k, a, b in t]


def _sei_payload(triplets):
    """ITU-T T.35 user data of ATSC A/53 Part 4 (6.2.3): cc_data()."""
    p = bytes([0xb5, 0x00, 0x31]) + b'GA94' + bytes([0x03])
    p += bytes([0xc0 | len(triplets), 0xff])
    for valid, kind, a, b in triplets:
        p += bytes([0xf8 | (valid << 2) | kind, a, b])
    return p + bytes([0xff])


def _escape(rbsp):
    """Emulation prevention (H.264 7.4.1, H.265 7.4.2)."""
    out, zeros = bytearray(), 0
    for b in rbsp:
        if zeros >= 2 and b <= 3:
            out.append(3)
            zeros = 0
        out.append(b)
        zeros = zeros + 1 if b == 0 else 0
    return bytes(out)


def sei_nal(codec, triplets):
    payload = _sei_payload(triplets)
    sei = bytes([4])                   # user_data_registered_itu_t_t35
    size = len(payload)
    while size >= 255:
        sei += b'\xff'
        size -= 255
    sei += bytes([size]) + payload + b'\x80'   # rbsp trailing bits
    # H.264: nal_unit_type 6; H.265: prefix SEI, 39, temporal id 1.
    header = b'\x06' if codec == 'h264' else bytes([39 << 1, 1])
    return b'\x00\x00\x00\x01' + header + _escape(sei)


def _nals(data):
    """The Annex B stream's NAL units (with their start codes)."""
    starts, i = [], 0
    while True:
        i = data.find(b'\x00\x00\x01', i)
        if i < 0:
            break
        starts.append(i - 1 if i > 0 and data[i - 1] == 0 else i)
        i += 3
    return [data[s:e] for s, e in zip(starts, starts[1:] + [len(data)])]


def _nal_type(codec, nal):
    h = nal[nal.index(b'\x00\x01') + 2]
    return h & 0x1f if codec == 'h264' else (h >> 1) & 0x3f


def _is_vcl(codec, t):
    return 1 <= t <= 5 if codec == 'h264' else t < 32


def encode(codec, path, seconds, rate):
    """A test picture, 160x90 at @rate, as an Annex B elementary stream;
    one access unit delimiter per picture."""
    enc = {'h264': ['-c:v', 'libx264', '-x264-params', 'aud=1'],
           'h265': ['-c:v', 'libx265', '-x265-params', 'aud=1:log-level=0']}
    subprocess.run(['ffmpeg', '-nostdin', '-v', 'error', '-y', '-f', 'lavfi',
                    '-i', 'testsrc2=s=160x90:r=%d:d=%d' % (rate, seconds)] +
                   enc[codec] + ['-preset', 'veryfast', '-g', str(rate),
                                 '-bf', '0', '-pix_fmt', 'yuv420p',
                                 '-threads', '1', '-f',
                                 'h264' if codec == 'h264' else 'hevc',
                                 path],
                   check=True, timeout=300)


def add_captions(codec, src, dst, with_captions):
    """@src's pictures, those for which @with_captions(picture index)
    is true with a cc_data SEI; returns (pictures with captions, valid
    packets by cc_type 0-3)."""
    data = open(src, 'rb').read()
    out, picture, n, seen_vcl = [], -1, 0, True
    packets = [0, 0, 0, 0]
    aud = 9 if codec == 'h264' else 35
    for nal in _nals(data):
        t = _nal_type(codec, nal)
        if t == aud:
            picture += 1
            seen_vcl = False
        if _is_vcl(codec, t) and not seen_vcl:
            seen_vcl = True
            if with_captions(picture):
                triplets = cc_data(n)
                n += 1
                for valid, kind, _, _ in triplets:
                    packets[kind] += valid
                out.append(sei_nal(codec, triplets))
        out.append(nal)
    open(dst, 'wb').write(b''.join(out))
    return n, packets


def mux(src, dst, rate, fmt, options=()):
    """@src's elementary stream in MPEG-TS or MP4, as it is; @options: the
    muxer's."""
    subprocess.run(['ffmpeg', '-nostdin', '-v', 'error', '-y', '-r',
                    str(rate), '-i', src, '-c', 'copy'] + list(options) +
                   ['-f', fmt, dst], check=True, timeout=120)
