/* Tenengrad (Sobel energy) on the CPU backend (docs/reference/metrics.md).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "classical-sum.h"

SHARPNESS_CPU_CHECK_CHUNK (SHARPNESS_TENENGRAD_MAX);

SHARPNESS_SIMD_CLONES static uint32_t
tenengrad_kernel (const uint8_t * restrict a, const uint8_t * restrict b,
    const uint8_t * restrict c, int n)
{
  uint32_t s = 0;
  for (int i = 0; i < n; i++)
    s += sharpness_term_tenengrad (a[i], a[i + 1], a[i + 2], b[i], b[i + 2],
        c[i], c[i + 1], c[i + 2]);
  return s;
}

SHARPNESS_CPU_WINDOWED_METRIC (TENENGRAD, tenengrad, sharpness_cpu_sum_3x3, tenengrad_kernel);
