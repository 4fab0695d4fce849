/* Blur effect (Crete-Roffet, Dolmiere, Ladret, Nicolas 2007) on the CPU
 * backend (docs/reference/metrics.md): per axis, the sum M1 of the frame's Sobel
 * variations over its interior and the sum M2 of what an 11-tap box blur
 * along that axis takes away from them, as exact integers.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * One pass down the frame.  Axis 0 reads, at each interior pixel, the
 * (1, 2, 1)-smoothed rows 1, 5 and 6 above and below it (mirrored at the
 * top and bottom), kept in a ring of 13 such rows; axis 1 reads the
 * (1, 2, 1)-smoothed columns 1, 5 and 6 left and right of it, one row of
 * them padded with its 6 mirrored columns on each side.  The terms are
 * those of classical-terms.h, shared with the CUDA kernel.
 */
#include <stdlib.h>

#include "classical-sum.h"

SHARPNESS_CPU_CHECK_CHUNK (SHARPNESS_BLUR_EFFECT_MAX);

/* Smoothed rows y - 6 .. y + 6: every row an interior row y needs, mirrored
 * or not, lies in there (at most 5 rows past an edge, one reflection; on
 * frames under 13 rows the ring holds them all). */
#define BLUR_EFFECT_RING 13
/* Gray rows y - 1 .. y + 6: the newest one read, and the three of axis 1. */
#define BLUR_EFFECT_GRAY_RING 8
/* Half the reach of the box's telescoped difference along an axis. */
#define BLUR_EFFECT_REACH 6

typedef struct
{
  int16_t *ring;                /* BLUR_EFFECT_RING smoothed rows of width */
  int16_t *cols;                /* width + 2 * BLUR_EFFECT_REACH */
} BlurEffectState;

static void
blur_effect_state_free (void *data)
{
  BlurEffectState *s = data;

  if (!s)
    return;
  free (s->ring);
  free (s->cols);
  free (s);
}

static SharpnessStatus
blur_effect_state_new (void *backend, int width, int height, void **state)
{
  BlurEffectState *s = calloc (1, sizeof *s);

  if (s) {
    s->ring = malloc ((size_t) BLUR_EFFECT_RING * width * sizeof *s->ring);
    s->cols = malloc (((size_t) width + 2 * BLUR_EFFECT_REACH) *
        sizeof *s->cols);
  }
  if (!s || !s->ring || !s->cols) {
    blur_effect_state_free (s);
    return SHARPNESS_ERROR_NO_MEMORY;
  }
  *state = s;
  return SHARPNESS_OK;
}

/* (1, 2, 1) across the row at columns 0 .. n - 1 of @v (@g: column - 1). */
SHARPNESS_SIMD_CLONES static void
smooth_row (const uint8_t * restrict g, int16_t * restrict v, int n)
{
  for (int i = 0; i < n; i++)
    v[i] = (int16_t) (g[i] + 2 * g[i + 1] + g[i + 2]);
}

/* (1, 2, 1) down three rows, column by column. */
SHARPNESS_SIMD_CLONES static void
smooth_cols (const uint8_t * restrict a, const uint8_t * restrict b,
    const uint8_t * restrict c, int16_t * restrict v, int n)
{
  for (int i = 0; i < n; i++)
    v[i] = (int16_t) (a[i] + 2 * b[i] + c[i]);
}

/* Axis 0 at n pixels: the smoothed rows 6, 5, 1 above and 1, 5, 6 below. */
SHARPNESS_SIMD_CLONES static void
axis0_kernel (const int16_t * restrict m6, const int16_t * restrict m5,
    const int16_t * restrict m1, const int16_t * restrict p1,
    const int16_t * restrict p5, const int16_t * restrict p6, int n,
    uint32_t * sharp_sum, uint32_t * lost_sum)
{
  uint32_t s1 = 0, s2 = 0;
  for (int i = 0; i < n; i++) {
    const unsigned sharp = sharpness_term_blur_sharp (m1[i], p1[i]);
    s1 += sharp;
    s2 += sharpness_term_blur_lost (sharp, m6[i], m5[i], p5[i], p6[i]);
  }
  *sharp_sum = s1;
  *lost_sum = s2;
}

/* Axis 1 at n pixels: @c holds the smoothed columns from 6 left of the
 * first pixel. */
SHARPNESS_SIMD_CLONES static void
axis1_kernel (const int16_t * restrict c, int n, uint32_t * sharp_sum,
    uint32_t * lost_sum)
{
  uint32_t s1 = 0, s2 = 0;
  for (int i = 0; i < n; i++) {
    const unsigned sharp = sharpness_term_blur_sharp (c[i + 5], c[i + 7]);
    s1 += sharp;
    s2 += sharpness_term_blur_lost (sharp, c[i], c[i + 1], c[i + 11],
        c[i + 12]);
  }
  *sharp_sum = s1;
  *lost_sum = s2;
}

static SharpnessStatus
blur_effect_sums (SharpnessCpu * cpu, void *state, const SharpnessPlane * plane,
    SharpnessSums * sums)
{
  const int w = plane->width, h = plane->height;
  BlurEffectState *s = state;
  SharpnessGrayRows rows;
  SharpnessStatus st;
  const uint8_t *gray[BLUR_EFFECT_GRAY_RING];
  uint64_t m1[2] = { 0, 0 }, m2[2] = { 0, 0 };
  int next = 0;

  if ((st = sharpness_gray_rows_init (&rows, cpu, plane,
              BLUR_EFFECT_GRAY_RING)) != SHARPNESS_OK)
    return st;
  /* The interior, rows and columns 2 .. size - 2, is empty. */
  if (w < 4 || h < 4)
    return SHARPNESS_OK;

  /* Interior columns 2 .. w - 2: n of them, the first at ring column 2. */
  const int n = w - 3;
  int16_t *const cols = s->cols + BLUR_EFFECT_REACH;

  for (int y = 2; y <= h - 2; y++) {
    /* Read and smooth the rows up to y + 6, in order. */
    const int last = y + BLUR_EFFECT_REACH < h ? y + BLUR_EFFECT_REACH : h - 1;
    for (; next <= last; next++) {
      const uint8_t *g = sharpness_gray_rows_get (&rows, next);
      gray[next % BLUR_EFFECT_GRAY_RING] = g;
      smooth_row (g + 1, s->ring + (size_t) (next % BLUR_EFFECT_RING) * w + 2,
          n);
    }

    /* Axis 0: the smoothed rows at mirrored offsets 6, 5, 1. */
    const int16_t *r[6];
    static const int offsets[6] = { -6, -5, -1, 1, 5, 6 };
    for (int k = 0; k < 6; k++)
      r[k] = s->ring + (size_t) (sharpness_mirror (y + offsets[k], h) %
          BLUR_EFFECT_RING) * w + 2;
    for (int x = 0; x < n; x += SHARPNESS_CPU_CHUNK) {
      const int c = n - x < SHARPNESS_CPU_CHUNK ? n - x : SHARPNESS_CPU_CHUNK;
      uint32_t a, b;
      axis0_kernel (r[0] + x, r[1] + x, r[2] + x, r[3] + x, r[4] + x,
          r[5] + x, c, &a, &b);
      m1[0] += a;
      m2[0] += b;
    }

    /* Axis 1: rows y - 1 .. y + 1 smoothed down, mirrored 6 columns out. */
    smooth_cols (gray[(y - 1) % BLUR_EFFECT_GRAY_RING],
        gray[y % BLUR_EFFECT_GRAY_RING],
        gray[(y + 1) % BLUR_EFFECT_GRAY_RING], cols, w);
    for (int k = 1; k <= BLUR_EFFECT_REACH; k++) {
      cols[-k] = cols[sharpness_mirror (-k, w)];
      cols[w - 1 + k] = cols[sharpness_mirror (w - 1 + k, w)];
    }
    for (int x = 0; x < n; x += SHARPNESS_CPU_CHUNK) {
      const int c = n - x < SHARPNESS_CPU_CHUNK ? n - x : SHARPNESS_CPU_CHUNK;
      uint32_t a, b;
      /* Pixel 2 + x; its window starts 6 columns left of it. */
      axis1_kernel (cols + 2 + x - BLUR_EFFECT_REACH, c, &a, &b);
      m1[1] += a;
      m2[1] += b;
    }
  }

  for (int ax = 0; ax < 2; ax++) {
    sums->blur_m1[ax] = m1[ax];
    sums->blur_m2[ax] = m2[ax];
  }
  return SHARPNESS_OK;
}

const SharpnessCpuSumsMetric sharpness_cpu_metric_blur_effect = {
  .metric = SHARPNESS_METRIC_BLUR_EFFECT,
  .state_new = blur_effect_state_new,
  .state_free = blur_effect_state_free,
  .sums = blur_effect_sums,
};
