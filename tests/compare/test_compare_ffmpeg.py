#!/usr/bin/python3
# FFmpeg itself as the oracle: its psnr and ssim filters (stats_file) on the
# frame pairs of compare_cases.py; every per-frame line of the CPU backend,
# formatted as FFmpeg formats it, must equal FFmpeg's line.  FFmpeg runs
# with one filter thread and with its default threads.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later

import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(1, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                '..', 'common'))
import compare_cases as cc                           # noqa: E402
import machine_info                                  # noqa: E402


def ffmpeg_stats(fmt, w, h, ref, dist, tmp, threads):
    p, s = os.path.join(tmp, "psnr.log"), os.path.join(tmp, "ssim.log")
    raw = ["-f", "rawvideo", "-pix_fmt", fmt, "-s", "%dx%d" % (w, h)]
    args = ["ffmpeg", "-nostdin", "-v", "error"]
    if threads:
        args += ["-filter_threads", str(threads)]
    args += raw + ["-i", dist] + raw + ["-i", ref, "-lavfi",
                                        "[0][1]psnr=stats_file=%s;"
                                        "[0][1]ssim=stats_file=%s" % (p, s),
                                        "-f", "null", "-"]
    subprocess.run(args, check=True)
    with open(p) as f:
        pl = [line.rstrip("\n") for line in f]
    with open(s) as f:
        sl = [line.rstrip("\n") for line in f]
    return pl, sl


# FFmpeg 5.1's ff_ssim_end_line_sse4 subtracts the wrong lanes when a row
# has 4k + 1 windows; the fixed code (libavfilter/x86/vf_ssim.asm as in
# FFmpeg/FFmpeg at commit cb1479fa, and Debian 13's 7.1.5) counts the valid
# windows only, as we do (docs/reference/cudacompare.md).  The first version known to
# have the fix is 7.1 (the versions between are not verified and are
# treated as 5.1).
SSE4_TAIL_FIXED = (7, 1)


def tail_bug_planes(fmt, w, h, version):
    """Planes whose SSIM an FFmpeg before the fix gets wrong: 8-bit, with
    (width >> 2) % 4 == 2 (4k + 1 windows a row).  It drops the last valid
    window of each row and adds one made of stale block sums (from earlier
    planes and frames, per filter thread): not a function of the frame
    pair, so only the other planes can be compared.  A git build (no
    version) is taken as fixed."""
    depth, sub = cc.FORMATS[fmt]
    if depth > 8 or version is None or version >= SSE4_TAIL_FIXED:
        return set()
    widths = [w] + ([(w + 1) // 2] * 2 if sub else [])
    return {c for c, pw in enumerate(widths) if (pw >> 2) % 4 == 2}


def fields(line):
    return dict(f.split(":", 1) for f in line.split(" ") if ":" in f)


def main():
    if not shutil.which("ffmpeg"):
        print("skipped: ffmpeg missing")
        return 77
    version = machine_info.ffmpeg_release()
    print("ffmpeg %s: SSE4 tail %s" % (
        "%d.%d" % version if version else "(git build)",
        "fixed" if not version or version >= SSE4_TAIL_FIXED else
        "bug (FFmpeg 5.1's, fixed by 7.1): affected planes not compared"))
    failures = checked = 0
    partial = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, fmt, w, h, ref, dist in cc.cases(tmp):
            ours = cc.run_tool(fmt, w, h, ref, dist)
            bad = tail_bug_planes(fmt, w, h, version)
            for threads in (1, 0):
                pl, sl = ffmpeg_stats(fmt, w, h, ref, dist, tmp, threads)
                for kind, lines in (("psnr", pl), ("ssim", sl)):
                    mine = ours[kind]
                    if len(lines) != len(mine):
                        print("FAIL %s %s: %d frames, ffmpeg %d"
                              % (name, kind, len(mine), len(lines)))
                        failures += 1
                    for i, line in enumerate(lines, 1):
                        checked += 1
                        if kind == "ssim" and bad:
                            # the planes FFmpeg computes right (All and
                            # the dB value mix in the wrong ones)
                            a, b = fields(mine.get(i, "")), fields(line)
                            keys = [k for c, k in enumerate("YUV")
                                    if c not in bad and k in b]
                            partial += 1
                            if all(a.get(k) == b[k] for k in keys):
                                continue
                        if mine.get(i) != line:
                            failures += 1
                            print("FAIL %s %s threads=%s frame %d:\n  ours   "
                                  "%r\n  ffmpeg %r" % (name, kind, threads or
                                                       "auto", i, mine.get(i),
                                                       line))
            print("ok %-28s %s%s" % (name, ours["ssim"][1],
                                     "  (planes %s: FFmpeg's tail bug)" %
                                     ",".join("YUV"[c] for c in sorted(bad))
                                     if bad else ""))
    print("%d lines compared with ffmpeg, %d differ (%d ssim lines of an "
          "FFmpeg with the SSE4 tail bug compared on the unaffected planes "
          "only)" % (checked, failures, partial))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
