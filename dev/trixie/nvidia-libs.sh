#!/bin/sh
# Print "SONAME PATH" for each NVIDIA driver user-space library this machine
# has (what nvcodec, cudart and cuFFT open), found the way the loader finds
# them (ldconfig's cache), then in the usual driver folders.
#
# Copyright (C) 2026 The gst-sharpness authors
# SPDX-License-Identifier: LGPL-2.1-or-later
for lib in libcuda.so.1 libnvcuvid.so.1 libnvidia-encode.so.1 \
           libnvidia-ptxjitcompiler.so.1 libnvidia-nvvm.so.4 libnvidia-ml.so.1 \
           libnvidia-gpucomp.so; do
  path=$(ldconfig -p 2>/dev/null |
         awk -v l="$lib" '$1 == l && /x86-64/ {print $NF; exit}')
  for d in /usr/lib/x86_64-linux-gnu /usr/local/nvidia/lib64 /usr/lib64 \
           /usr/local/nvidia/lib; do
    [ -n "$path" ] && break
    if [ -e "$d/$lib" ]; then path=$d/$lib
    else   # libraries without a soname link (libnvidia-gpucomp.so.580.x)
      v=$(ls "$d/$lib".* 2>/dev/null | head -n1)
      [ -n "$v" ] && { path=$v; lib=$(basename "$v"); }
    fi
  done
  [ -n "$path" ] && echo "$lib $(readlink -f "$path")"
done
exit 0
