/* The classical focus measures on the CPU: exact integer sums of the
 * per-pixel terms of docs/metrics.md, one pass down the frame.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Each metric is a small kernel over one row segment (or two or three rows
 * for the windowed ones) summing at most CHUNK terms into 32 bits, a width
 * the compiler vectorises well; the drivers add the segments into the
 * 64-bit sums.  CHUNK is small enough that no segment sum can overflow:
 * checked per metric against its largest possible term below.  The kernels
 * are built for the baseline ISA and for AVX2 (classical-simd.h).
 */
#include "gray-rows.h"

#include <stdlib.h>
#include <string.h>

#include "classical-simd.h"

#define CHUNK 1024

#define ROBERTS_MAX (2 * 255)
#define TENENGRAD_MAX (2 * (4 * 255) * (4 * 255))
#define LAPLACIAN_MAX (2 * 2 * 255)
#define SMD_MAX (2 * 255)
#define SMD2_MAX (255 * 255)
#define MAXMIN_MAX 255
#define SQUARE_MAX (255 * 255)      /* the variance's g^2 */

#define CHECK_CHUNK(max) \
  _Static_assert ((uint64_t) CHUNK * (max) <= UINT32_MAX, \
      "a chunk of " #max " terms must fit in 32 bits")
CHECK_CHUNK (ROBERTS_MAX);
CHECK_CHUNK (TENENGRAD_MAX);
CHECK_CHUNK (LAPLACIAN_MAX);
CHECK_CHUNK (SMD_MAX);
CHECK_CHUNK (SMD2_MAX);
CHECK_CHUNK (MAXMIN_MAX);
CHECK_CHUNK (SQUARE_MAX);

/* Terms of a 2x2 window: @a and @b point at column x of rows y and y + 1,
 * and the kernel sums the terms of columns x .. x + n - 1 (it reads n + 1
 * bytes of each row). */
typedef uint32_t (*Kernel2x2) (const uint8_t * a, const uint8_t * b, int n);

/* Terms of a 3x3 window: @a, @b, @c point at column x - 1 of rows y - 1,
 * y and y + 1 for the first centre x; n centres, n + 2 bytes per row. */
typedef uint32_t (*Kernel3x3) (const uint8_t * a, const uint8_t * b,
    const uint8_t * c, int n);

static inline int
absdiff (int a, int b)
{
  return abs (a - b);
}

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

SHARPNESS_SIMD_CLONES static uint32_t
roberts_kernel (const uint8_t * restrict a, const uint8_t * restrict b, int n)
{
  uint32_t s = 0;
  for (int i = 0; i < n; i++)
    s += absdiff (b[i + 1], a[i]) + absdiff (b[i], a[i + 1]);
  return s;
}

SHARPNESS_SIMD_CLONES static uint32_t
smd_kernel (const uint8_t * restrict a, const uint8_t * restrict b, int n)
{
  uint32_t s = 0;
  for (int i = 0; i < n; i++)
    s += absdiff (a[i], a[i + 1]) + absdiff (a[i], b[i]);
  return s;
}

SHARPNESS_SIMD_CLONES static uint32_t
smd2_kernel (const uint8_t * restrict a, const uint8_t * restrict b, int n)
{
  uint32_t s = 0;
  for (int i = 0; i < n; i++)
    s += (uint32_t) absdiff (a[i], a[i + 1]) * (uint32_t) absdiff (a[i], b[i]);
  return s;
}

SHARPNESS_SIMD_CLONES static uint32_t
tenengrad_kernel (const uint8_t * restrict a, const uint8_t * restrict b,
    const uint8_t * restrict c, int n)
{
  uint32_t s = 0;
  for (int i = 0; i < n; i++) {
    int gx = (a[i + 2] + 2 * b[i + 2] + c[i + 2]) - (a[i] + 2 * b[i] + c[i]);
    int gy = (c[i] + 2 * c[i + 1] + c[i + 2]) - (a[i] + 2 * a[i + 1] + a[i + 2]);
    s += (uint32_t) (gx * gx + gy * gy);
  }
  return s;
}

SHARPNESS_SIMD_CLONES static uint32_t
laplacian_kernel (const uint8_t * restrict a, const uint8_t * restrict b,
    const uint8_t * restrict c, int n)
{
  uint32_t s = 0;
  for (int i = 0; i < n; i++)
    s += abs (b[i + 2] + b[i] - 2 * b[i + 1]) +
        abs (c[i + 1] + a[i + 1] - 2 * b[i + 1]);
  return s;
}

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

/* The drivers are inlined into each metric with its kernel as a constant,
 * so each metric gets its own loop nest with the kernel call resolved. */
static SHARPNESS_ALWAYS_INLINE SharpnessStatus
sum_2x2 (SharpnessCpu * cpu, const SharpnessPlane * plane,
    SharpnessSums * sums, Kernel2x2 kernel)
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
  for (int y = 0; y < h - 1; y++) {
    const uint8_t *b = sharpness_gray_rows_get (&rows, y + 1);
    for (int x = 0; x < w - 1; x += CHUNK) {
      int n = w - 1 - x < CHUNK ? w - 1 - x : CHUNK;
      sum += kernel (a + x, b + x, n);
    }
    a = b;
  }
  sums->sum = sum;
  return SHARPNESS_OK;
}

static SHARPNESS_ALWAYS_INLINE SharpnessStatus
sum_3x3 (SharpnessCpu * cpu, const SharpnessPlane * plane,
    SharpnessSums * sums, Kernel3x3 kernel)
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
  for (int y = 1; y < h - 1; y++) {
    const uint8_t *c = sharpness_gray_rows_get (&rows, y + 1);
    /* Centres 1 .. w - 2; segment x starts at the centre x + 1. */
    for (int x = 0; x < w - 2; x += CHUNK) {
      int n = w - 2 - x < CHUNK ? w - 2 - x : CHUNK;
      sum += kernel (a + x, b + x, c + x, n);
    }
    a = b;
    b = c;
  }
  sums->sum = sum;
  return SHARPNESS_OK;
}

SharpnessStatus
sharpness_cpu_variance_sums (SharpnessCpu * cpu, const SharpnessPlane * plane,
    SharpnessSums * sums)
{
  const int w = plane->width, h = plane->height;
  SharpnessGrayRows rows;
  SharpnessStatus st;
  uint64_t s1 = 0, s2 = 0;

  if ((st = sharpness_gray_rows_init (&rows, cpu, plane, 1)) != SHARPNESS_OK)
    return st;

  for (int y = 0; y < h; y++) {
    const uint8_t *g = sharpness_gray_rows_get (&rows, y);
    for (int x = 0; x < w; x += CHUNK) {
      uint32_t c1, c2;
      variance_kernel (g + x, w - x < CHUNK ? w - x : CHUNK, &c1, &c2);
      s1 += c1;
      s2 += c2;
    }
  }
  sums->sum = s1;
  sums->sum_sq = s2;
  return SHARPNESS_OK;
}

/* Adds the lanes into @hist and clears them. */
static void
entropy_flush (uint32_t lanes[][256], int n_lanes, uint64_t hist[256])
{
  for (int k = 0; k < n_lanes; k++)
    for (int v = 0; v < 256; v++)
      hist[v] += lanes[k][v];
  memset (lanes, 0, sizeof (uint32_t) * 256 * n_lanes);
}

SharpnessStatus
sharpness_cpu_entropy_sums (SharpnessCpu * cpu, const SharpnessPlane * plane,
    SharpnessSums * sums)
{
  const int w = plane->width, h = plane->height;
  SharpnessGrayRows rows;
  SharpnessStatus st;
  /* Sixteen histograms, pixel x counted in lane x % 16: in smooth areas
   * neighbours share a level, and a counter incremented back to back waits
   * for its own store.  32-bit counters keep the lanes in L1 (16 KiB). */
  enum { LANES = 16 };
  uint32_t lanes[LANES][256];
  /* Pixels counted since the last flush: no counter can exceed it. */
  uint64_t pending = 0;

  if ((st = sharpness_gray_rows_init (&rows, cpu, plane, 1)) != SHARPNESS_OK)
    return st;

  memset (lanes, 0, sizeof lanes);
  memset (sums->hist, 0, sizeof sums->hist);
  for (int y = 0; y < h; y++) {
    const uint8_t *g = sharpness_gray_rows_get (&rows, y);
    int x = 0;

    if (pending + (uint64_t) w > UINT32_MAX) {
      entropy_flush (lanes, LANES, sums->hist);
      pending = 0;
    }
    for (; x + LANES <= w; x += LANES)
      for (int k = 0; k < LANES; k++)
        lanes[k][g[x + k]]++;
    for (; x < w; x++)
      lanes[0][g[x]]++;
    pending += (uint64_t) w;
  }
  entropy_flush (lanes, LANES, sums->hist);
  return SHARPNESS_OK;
}

SharpnessStatus
sharpness_cpu_roberts_sums (SharpnessCpu * cpu, const SharpnessPlane * plane,
    SharpnessSums * sums)
{
  return sum_2x2 (cpu, plane, sums, roberts_kernel);
}

SharpnessStatus
sharpness_cpu_smd_sums (SharpnessCpu * cpu, const SharpnessPlane * plane,
    SharpnessSums * sums)
{
  return sum_2x2 (cpu, plane, sums, smd_kernel);
}

SharpnessStatus
sharpness_cpu_smd2_sums (SharpnessCpu * cpu, const SharpnessPlane * plane,
    SharpnessSums * sums)
{
  return sum_2x2 (cpu, plane, sums, smd2_kernel);
}

SharpnessStatus
sharpness_cpu_tenengrad_sums (SharpnessCpu * cpu, const SharpnessPlane * plane,
    SharpnessSums * sums)
{
  return sum_3x3 (cpu, plane, sums, tenengrad_kernel);
}

SharpnessStatus
sharpness_cpu_laplacian_sums (SharpnessCpu * cpu, const SharpnessPlane * plane,
    SharpnessSums * sums)
{
  return sum_3x3 (cpu, plane, sums, laplacian_kernel);
}

SharpnessStatus
sharpness_cpu_maxmin_sums (SharpnessCpu * cpu, const SharpnessPlane * plane,
    SharpnessSums * sums)
{
  return sum_3x3 (cpu, plane, sums, maxmin_kernel);
}
