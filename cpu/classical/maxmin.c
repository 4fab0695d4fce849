/* Max-min gradient on the CPU backend (docs/reference/metrics.md).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "classical-sum.h"

SHARPNESS_CPU_CHECK_CHUNK (SHARPNESS_MAXMIN_MAX);

static inline uint8_t
max_u8 (uint8_t a, uint8_t b)
{
  return a > b ? a : b;
}

static inline uint8_t
min_u8 (uint8_t a, uint8_t b)
{
  return a < b ? a : b;
}

/* The range of each 3x3 window, sharpness_term_maxmin() of
 * classical-terms.h, written on bytes: that term takes ints, and with it
 * GCC 12 vectorises this loop in 32-bit lanes, 3 to 4 times slower than
 * the 8-bit max/min here (measured with bench/classical/bench-cpu-classical).
 * Same values: max - min of 9 bytes fits a byte. */
SHARPNESS_SIMD_CLONES static uint32_t
maxmin_kernel (const uint8_t * restrict a, const uint8_t * restrict b,
    const uint8_t * restrict c, int n)
{
  uint32_t s = 0;
  for (int i = 0; i < n; i++) {
    uint8_t hi = max_u8 (max_u8 (max_u8 (a[i], a[i + 1]), max_u8 (a[i + 2],
                b[i])), max_u8 (max_u8 (b[i + 1], b[i + 2]),
            max_u8 (max_u8 (c[i], c[i + 1]), c[i + 2])));
    uint8_t lo = min_u8 (min_u8 (min_u8 (a[i], a[i + 1]), min_u8 (a[i + 2],
                b[i])), min_u8 (min_u8 (b[i + 1], b[i + 2]),
            min_u8 (min_u8 (c[i], c[i + 1]), c[i + 2])));
    s += (uint8_t) (hi - lo);
  }
  return s;
}

SHARPNESS_CPU_WINDOWED_METRIC (MAXMIN, maxmin, sharpness_cpu_sum_3x3, maxmin_kernel);
