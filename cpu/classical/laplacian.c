/* Laplacian on the CPU backend (docs/reference/metrics.md).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "classical-sum.h"

SHARPNESS_CPU_CHECK_CHUNK (SHARPNESS_LAPLACIAN_MAX);

SHARPNESS_SIMD_CLONES static uint32_t
laplacian_kernel (const uint8_t * restrict a, const uint8_t * restrict b,
    const uint8_t * restrict c, int n)
{
  uint32_t s = 0;
  for (int i = 0; i < n; i++)
    s += sharpness_term_laplacian (a[i + 1], b[i], b[i + 1], b[i + 2],
        c[i + 1]);
  return s;
}

SHARPNESS_CPU_WINDOWED_METRIC (LAPLACIAN, laplacian, sharpness_cpu_sum_3x3, laplacian_kernel);
