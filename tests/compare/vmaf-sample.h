/* Writing luma samples of VMAF's test and benchmark frames
 * (tests/compare/test-cuda-vmaf.c, bench/cudacompare/bench-vmaf-cuda.c).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef VMAF_SAMPLE_H
#define VMAF_SAMPLE_H

#include <stdint.h>

/* Sample @x of @row: @v clipped to @depth bits, one byte at 8 bits, else
 * 16-bit little-endian. */
static inline void
vmaf_sample_put (uint8_t * row, int x, int depth, int v)
{
  const int max = (1 << depth) - 1;

  v = v < 0 ? 0 : (v > max ? max : v);
  if (depth == 8) {
    row[x] = (uint8_t) v;
  } else {
    row[2 * x] = v & 0xff;
    row[2 * x + 1] = v >> 8;
  }
}

#endif /* VMAF_SAMPLE_H */
