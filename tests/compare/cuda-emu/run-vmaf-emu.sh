#!/bin/bash
# The logic of cuda/compare's VMAF kernels checked without a GPU: the four
# compare-vmaf*.cu compiled as host C++ against the stand-in runtime beside
# this script (each `kernel <<<grid, block, shared, stream>>> (args)`
# rewritten as a call of emu_launch), linked with the CPU extractors and
# tests/compare/test-cuda-vmaf.c, all under AddressSanitizer, and run on
# the test's sizes up to 128 wide (minutes: a block's threads are real
# threads).  The host's arithmetic, not the device's: the GPU run of
# test-cuda-vmaf stays the check of the device's rounding.
#   tests/compare/cuda-emu/run-vmaf-emu.sh BUILDDIR   (BUILDDIR: any
#   configured build whose cpu/compare/vmaf-builtin.c is generated)
set -e
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
build=$(cd "$1" && pwd)
ninja -C "$build" cpu/compare/vmaf-builtin.c >/dev/null
w=$(mktemp -d /tmp/vmaf-emu.XXXXXX)
trap 'rm -rf "$w"' EXIT
san="-fsanitize=address -fno-omit-frame-pointer -g -O1"
inc="-I$root/cpu/compare -I$root/cuda/compare -I$root/core"
# Kernels with barriers (a block's threads must run together).
python3 - "$root/cuda/compare" "$w" <<'PY'
import re, sys
src, out = sys.argv[1], sys.argv[2]
barriers = {'vif_statistic', 'motion_sad', 'adm_rows'}
launch = re.compile(r'(\w+(?:\s*<\s*[\w\s,]+\s*>)?)\s*<<<\s*(.+?)\s*>>>\s*\((.*?)\);', re.S)
def call(m):
    name = m.group(1).split('<')[0].strip()
    return 'emu_launch (%s, %s, [&] { %s (%s); });' % (
        m.group(2), 'true' if name in barriers else 'false', m.group(1), m.group(3))
for n in ['compare-vmaf', 'compare-vmaf-motion', 'compare-vmaf-vif', 'compare-vmaf-adm']:
    with open('%s/%s.cu' % (src, n)) as f:
        text = f.read()
    with open('%s/%s.cc' % (out, n), 'w') as f:
        f.write(launch.sub(call, text))
PY
for f in "$w"/*.cc "$here/emu.cc"; do
  g++ -std=c++20 $san -ffp-contract=off -I"$here" $inc -c "$f" -o "$w/$(basename "$f" .cc).o"
done
for f in "$root"/cpu/compare/vmaf-{adm,json,model,motion,output,pool,scratch,stream,vif}.c \
    "$build/cpu/compare/vmaf-builtin.c" "$root/core/sharpness-status.c"; do
  gcc -std=gnu11 $san -ffp-contract=off $inc -c "$f" -o "$w/c-$(basename "$f" .c).o"
done
gcc -std=gnu11 $san -I"$here/c" $inc -c "$root/tests/compare/test-cuda-vmaf.c" -o "$w/test.o"
gcc -std=gnu11 $san -I"$here" -c "$here/c-runtime.c" -o "$w/c-runtime.o"
g++ $san -o "$w/test-cuda-vmaf-emu" "$w"/*.o -lm -lpthread
ASAN_OPTIONS=verify_asan_link_order=0 "$w/test-cuda-vmaf-emu" --max-width 128
