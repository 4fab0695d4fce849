/* Roberts cross on the CPU backend (docs/reference/metrics.md).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "classical-sum.h"

SHARPNESS_CPU_CHECK_CHUNK (SHARPNESS_ROBERTS_MAX);

SHARPNESS_SIMD_CLONES static uint32_t
roberts_kernel (const uint8_t * restrict a, const uint8_t * restrict b, int n)
{
  uint32_t s = 0;
  for (int i = 0; i < n; i++)
    s += sharpness_term_roberts (a[i], a[i + 1], b[i], b[i + 1]);
  return s;
}

SHARPNESS_CPU_WINDOWED_METRIC (ROBERTS, roberts, sharpness_cpu_sum_2x2, roberts_kernel);
