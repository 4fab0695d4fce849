/* Gray-level variance on the CPU backend (docs/reference/metrics.md): the sums of
 * the gray levels and of their squares.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "classical-sum.h"

SHARPNESS_CPU_CHECK_CHUNK (SHARPNESS_SQUARE_MAX);

/* Sum and sum of squares of n gray values. */
SHARPNESS_SIMD_CLONES static void
variance_kernel (const uint8_t * restrict g, int n, uint32_t * s1,
    uint32_t * s2)
{
  uint32_t c1 = 0, c2 = 0;
  for (int i = 0; i < n; i++) {
    c1 += g[i];
    c2 += (uint32_t) g[i] * g[i];
  }
  *s1 = c1;
  *s2 = c2;
}

/* Adds the sums of pixels [lo, hi) of row @g to @s1 and @s2. */
static inline void
variance_segment (const uint8_t * g, int lo, int hi, uint64_t * s1,
    uint64_t * s2)
{
  for (int x = lo; x < hi; x += SHARPNESS_CPU_CHUNK) {
    uint32_t c1, c2;
    variance_kernel (g + x,
        hi - x < SHARPNESS_CPU_CHUNK ? hi - x : SHARPNESS_CPU_CHUNK, &c1, &c2);
    *s1 += c1;
    *s2 += c2;
  }
}

static SharpnessStatus
variance_sums_tiles (SharpnessCpu * cpu, void *state,
    const SharpnessPlane * plane, SharpnessSums * sums,
    SharpnessTileSums * tiles)
{
  const int w = plane->width, h = plane->height;
  SharpnessGrayRows rows;
  SharpnessStatus st;
  uint64_t s1 = 0, s2 = 0;
  int xb[SHARPNESS_TILES_MAX + 1];
  SharpnessCpuTileRows tr;

  if ((st = sharpness_gray_rows_init (&rows, cpu, plane, 1)) != SHARPNESS_OK)
    return st;

  if (tiles) {
    sharpness_cpu_tile_bounds (w, tiles->cols, xb);
    sharpness_cpu_tile_rows_init (&tr, tiles->rows, h);
  }
  for (int y = 0; y < h; y++) {
    const uint8_t *g = sharpness_gray_rows_get (&rows, y);
    if (!tiles) {
      variance_segment (g, 0, w, &s1, &s2);
      continue;
    }
    const size_t t = (size_t) sharpness_cpu_tile_rows_at (&tr, y) *
        tiles->cols;
    for (int c = 0; c < tiles->cols; c++) {
      uint64_t t1 = 0, t2 = 0;
      variance_segment (g, xb[c], xb[c + 1], &t1, &t2);
      tiles->sum[t + c] += t1;
      tiles->sum_sq[t + c] += t2;
      s1 += t1;
      s2 += t2;
    }
  }
  sums->sum = s1;
  sums->sum_sq = s2;
  return SHARPNESS_OK;
}

static SharpnessStatus
variance_sums (SharpnessCpu * cpu, void *state, const SharpnessPlane * plane,
    SharpnessSums * sums)
{
  return variance_sums_tiles (cpu, state, plane, sums, NULL);
}

const SharpnessCpuSumsMetric sharpness_cpu_metric_variance = {
  .metric = SHARPNESS_METRIC_VARIANCE,
  .sums = variance_sums,
  .sums_tiles = variance_sums_tiles,
};
