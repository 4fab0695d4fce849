/* The row machinery of the classical focus measures on the CPU: exact
 * integer sums of the per-pixel terms of docs/reference/metrics.md, one pass down the
 * frame.  Shared by the metric files of this folder.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Each metric is a small kernel over one row segment (or two or three rows
 * for the windowed ones) summing at most SHARPNESS_CPU_CHUNK terms into 32
 * bits, a width the compiler vectorises well; the drivers below add the
 * segments into the 64-bit sums.  The chunk is small enough that no
 * segment sum can overflow: each metric file checks it against its largest
 * term (classical-terms.h).  The kernels call the shared per-pixel terms of
 * classical-terms.h and are built for the baseline ISA and for AVX2
 * (classical-simd.h).
 *
 * With a tile grid (sharpness-tiles.h, docs/reference/tiles.md) the same pass cuts
 * each row's segments at the tile columns and adds each segment into the
 * tile holding its anchor pixels; the frame's sums are the same additions.
 */
#ifndef SHARPNESS_CPU_CLASSICAL_SUM_H
#define SHARPNESS_CPU_CLASSICAL_SUM_H

#include <stdint.h>

#include "classical-simd.h"
#include "classical-terms.h"
#include "gray-rows.h"
#include "sharpness-tiles.h"

#define SHARPNESS_CPU_CHUNK 1024

#define SHARPNESS_CPU_CHECK_CHUNK(max) \
  _Static_assert ((uint64_t) SHARPNESS_CPU_CHUNK * (max) <= UINT32_MAX, \
      "a chunk of " #max " terms must fit in 32 bits")

/* Terms of a 2x2 window: @a and @b point at column x of rows y and y + 1,
 * and the kernel sums the terms of columns x .. x + n - 1 (it reads n + 1
 * bytes of each row). */
typedef uint32_t (*SharpnessCpuKernel2x2) (const uint8_t * a,
    const uint8_t * b, int n);

/* Terms of a 3x3 window: @a, @b, @c point at column x - 1 of rows y - 1,
 * y and y + 1 for the first centre x; n centres, n + 2 bytes per row. */
typedef uint32_t (*SharpnessCpuKernel3x3) (const uint8_t * a,
    const uint8_t * b, const uint8_t * c, int n);

/* Tile boundaries along an axis of @n pixels cut in @parts: b[0..parts]. */
static inline void
sharpness_cpu_tile_bounds (int n, int parts, int *b)
{
  for (int i = 0; i <= parts; i++)
    b[i] = (int) ((int64_t) i * n / parts);
}

/* Walks the tile rows down the frame: the row of tiles holding row @y,
 * called with y increasing. */
typedef struct
{
  int rows, height;
  int r, next;                  /* current tile row and its end */
} SharpnessCpuTileRows;

static inline void
sharpness_cpu_tile_rows_init (SharpnessCpuTileRows * t, int rows, int height)
{
  t->rows = rows;
  t->height = height;
  t->r = 0;
  t->next = (int) ((int64_t) height / rows);
}

static inline int
sharpness_cpu_tile_rows_at (SharpnessCpuTileRows * t, int y)
{
  while (y >= t->next) {
    t->r++;
    t->next = (int) ((int64_t) (t->r + 1) * t->height / t->rows);
  }
  return t->r;
}

/* Adds the segments of anchors [lo, hi) of one row into @acc, chunked;
 * @call evaluates the kernel on (x, n). */
#define SHARPNESS_CPU_SEGMENTS(lo, hi, acc, call) do { \
  for (int x_ = (lo); x_ < (hi); x_ += SHARPNESS_CPU_CHUNK) { \
    const int n_ = (hi) - x_ < SHARPNESS_CPU_CHUNK ? (hi) - x_ : \
        SHARPNESS_CPU_CHUNK; \
    (acc) += call (x_, n_); \
  } \
} while (0)

/* The drivers are inlined into each metric with its kernel as a constant,
 * so each metric gets its own loop nest with the kernel call resolved.
 * @tiles (NULL: none) is valid and zeroed by the caller. */
static SHARPNESS_ALWAYS_INLINE SharpnessStatus
sharpness_cpu_sum_2x2 (SharpnessCpu * cpu, const SharpnessPlane * plane,
    SharpnessSums * sums, SharpnessTileSums * tiles,
    SharpnessCpuKernel2x2 kernel)
{
  const int w = plane->width, h = plane->height;
  SharpnessGrayRows rows;
  SharpnessStatus st;
  uint64_t sum = 0;

  if ((st = sharpness_gray_rows_init (&rows, cpu, plane, 2)) != SHARPNESS_OK)
    return st;
  if (w < 2 || h < 2)
    return SHARPNESS_OK;

  const uint8_t *a = sharpness_gray_rows_get (&rows, 0);
  if (!tiles) {
    for (int y = 0; y < h - 1; y++) {
      const uint8_t *b = sharpness_gray_rows_get (&rows, y + 1);
#define SHARPNESS_CPU_K2(x, n) kernel (a + (x), b + (x), (n))
      SHARPNESS_CPU_SEGMENTS (0, w - 1, sum, SHARPNESS_CPU_K2);
      a = b;
    }
    sums->sum = sum;
    return SHARPNESS_OK;
  }

  /* Anchors: g[y][x], x in [0, w - 2], y in [0, h - 2]. */
  int xb[SHARPNESS_TILES_MAX + 1];
  SharpnessCpuTileRows tr;
  sharpness_cpu_tile_bounds (w, tiles->cols, xb);
  sharpness_cpu_tile_rows_init (&tr, tiles->rows, h);
  for (int y = 0; y < h - 1; y++) {
    const uint8_t *b = sharpness_gray_rows_get (&rows, y + 1);
    uint64_t *t = tiles->sum + (size_t) sharpness_cpu_tile_rows_at (&tr, y) *
        tiles->cols;
    for (int c = 0; c < tiles->cols; c++) {
      const int hi = xb[c + 1] < w - 1 ? xb[c + 1] : w - 1;
      uint64_t s = 0;
      SHARPNESS_CPU_SEGMENTS (xb[c], hi, s, SHARPNESS_CPU_K2);
      t[c] += s;
      sum += s;
    }
#undef SHARPNESS_CPU_K2
    a = b;
  }
  sums->sum = sum;
  return SHARPNESS_OK;
}

static SHARPNESS_ALWAYS_INLINE SharpnessStatus
sharpness_cpu_sum_3x3 (SharpnessCpu * cpu, const SharpnessPlane * plane,
    SharpnessSums * sums, SharpnessTileSums * tiles,
    SharpnessCpuKernel3x3 kernel)
{
  const int w = plane->width, h = plane->height;
  SharpnessGrayRows rows;
  SharpnessStatus st;
  uint64_t sum = 0;

  if ((st = sharpness_gray_rows_init (&rows, cpu, plane, 3)) != SHARPNESS_OK)
    return st;
  if (w < 3 || h < 3)
    return SHARPNESS_OK;

  const uint8_t *a = sharpness_gray_rows_get (&rows, 0);
  const uint8_t *b = sharpness_gray_rows_get (&rows, 1);
  /* The kernel's pointers sit at column x - 1 for the first centre x. */
#define SHARPNESS_CPU_K3(x, n) kernel (a + (x) - 1, b + (x) - 1, c + (x) - 1, (n))
  if (!tiles) {
    for (int y = 1; y < h - 1; y++) {
      const uint8_t *c = sharpness_gray_rows_get (&rows, y + 1);
      /* Centres 1 .. w - 2. */
      SHARPNESS_CPU_SEGMENTS (1, w - 1, sum, SHARPNESS_CPU_K3);
      a = b;
      b = c;
    }
    sums->sum = sum;
    return SHARPNESS_OK;
  }

  int xb[SHARPNESS_TILES_MAX + 1];
  SharpnessCpuTileRows tr;
  sharpness_cpu_tile_bounds (w, tiles->cols, xb);
  sharpness_cpu_tile_rows_init (&tr, tiles->rows, h);
  for (int y = 1; y < h - 1; y++) {
    const uint8_t *c = sharpness_gray_rows_get (&rows, y + 1);
    uint64_t *t = tiles->sum + (size_t) sharpness_cpu_tile_rows_at (&tr, y) *
        tiles->cols;
    for (int k = 0; k < tiles->cols; k++) {
      const int lo = xb[k] > 1 ? xb[k] : 1;
      const int hi = xb[k + 1] < w - 1 ? xb[k + 1] : w - 1;
      uint64_t s = 0;
      SHARPNESS_CPU_SEGMENTS (lo, hi, s, SHARPNESS_CPU_K3);
      t[k] += s;
      sum += s;
    }
    a = b;
    b = c;
  }
#undef SHARPNESS_CPU_K3
  sums->sum = sum;
  return SHARPNESS_OK;
}

/* The descriptor entries of a windowed metric: its sums without and with
 * tiles, from one driver. */
#define SHARPNESS_CPU_WINDOWED_METRIC(ID, sym, driver, kernel) \
  static SharpnessStatus \
  sym##_sums (SharpnessCpu * cpu, void *state, const SharpnessPlane * plane, \
      SharpnessSums * sums) \
  { \
    return driver (cpu, plane, sums, NULL, kernel); \
  } \
  static SharpnessStatus \
  sym##_sums_tiles (SharpnessCpu * cpu, void *state, \
      const SharpnessPlane * plane, SharpnessSums * sums, \
      SharpnessTileSums * tiles) \
  { \
    return driver (cpu, plane, sums, tiles, kernel); \
  } \
  const SharpnessCpuSumsMetric sharpness_cpu_metric_##sym = { \
    .metric = SHARPNESS_METRIC_##ID, \
    .sums = sym##_sums, \
    .sums_tiles = sym##_sums_tiles, \
  }

#endif /* SHARPNESS_CPU_CLASSICAL_SUM_H */
