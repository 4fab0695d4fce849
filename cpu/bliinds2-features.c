/* BLIINDS-II: the 24 features of a gray image (three scales of block maps,
 * each pooled into a mean and a 10% tail mean).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Each scale lives in a zero-bordered buffer laid out as blkproc sees it:
 * the image at (1, 1), zeros to the right/bottom up to a multiple of 3 and
 * a 1-pixel zero frame.  Only the image part is rewritten per frame, so
 * the borders stay zero, every 5x5 window is a plain read and the 3x3
 * Gaussian of the next scale gets its zero padding for free.
 */
#include "bliinds2.h"

#include <math.h>
#include <stdlib.h>

#define STEP SHARPNESS_BLIINDS2_STEP

typedef struct
{
  int width, height;            /* image size at this scale */
  int blocks_x, blocks_y;       /* ceil (size / STEP) */
  size_t stride;                /* STEP * blocks_x + 2 */
  double *pixels;               /* STEP * blocks_y + 2 rows */
} Bliinds2Scale;

struct SharpnessBliinds2
{
  int width, height;
  Bliinds2Scale scale[SHARPNESS_BLIINDS2_N_SCALES];
  /* Block maps of the current scale, sized for the first (largest). */
  double *maps[SHARPNESS_BLIINDS2_N_MAPS];
  SharpnessBliinds2Tables tables;
};

static const int map_descending[SHARPNESS_BLIINDS2_N_MAPS] =
    SHARPNESS_BLIINDS2_MAP_DESCENDING;

void
sharpness_bliinds2_free (SharpnessBliinds2 * b)
{
  if (!b)
    return;
  for (int s = 0; s < SHARPNESS_BLIINDS2_N_SCALES; s++)
    free (b->scale[s].pixels);
  for (int m = 0; m < SHARPNESS_BLIINDS2_N_MAPS; m++)
    free (b->maps[m]);
  free (b);
}

SharpnessBliinds2 *
sharpness_bliinds2_new (int width, int height)
{
  if (width < SHARPNESS_BLIINDS2_MIN_SIZE ||
      height < SHARPNESS_BLIINDS2_MIN_SIZE)
    return NULL;

  SharpnessBliinds2 *b = calloc (1, sizeof *b);
  if (!b)
    return NULL;
  b->width = width;
  b->height = height;

  for (int s = 0; s < SHARPNESS_BLIINDS2_N_SCALES; s++) {
    Bliinds2Scale *sc = &b->scale[s];
    /* Scale s + 1 keeps the odd (0-based) rows and columns of scale s. */
    sc->width = s ? b->scale[s - 1].width / 2 : width;
    sc->height = s ? b->scale[s - 1].height / 2 : height;
    sc->blocks_x = (sc->width + STEP - 1) / STEP;
    sc->blocks_y = (sc->height + STEP - 1) / STEP;
    sc->stride = STEP * (size_t) sc->blocks_x + 2;
    /* calloc: the borders are zero once and for all. */
    sc->pixels = calloc ((STEP * (size_t) sc->blocks_y + 2) * sc->stride,
        sizeof (double));
    if (!sc->pixels)
      goto oom;
  }

  size_t n_blocks = (size_t) b->scale[0].blocks_x * b->scale[0].blocks_y;
  for (int m = 0; m < SHARPNESS_BLIINDS2_N_MAPS; m++) {
    b->maps[m] = malloc (n_blocks * sizeof (double));
    if (!b->maps[m])
      goto oom;
  }

  sharpness_bliinds2_tables_init (&b->tables);
  return b;

oom:
  sharpness_bliinds2_free (b);
  return NULL;
}

int
sharpness_bliinds2_has_size (const SharpnessBliinds2 * b, int width,
    int height)
{
  return b && b->width == width && b->height == height;
}

static double *
scale_pixel (const Bliinds2Scale * sc, int x, int y)
{
  return sc->pixels + (size_t) (y + 1) * sc->stride + (x + 1);
}

static void
load_gray (Bliinds2Scale * sc, const SharpnessPlane * plane)
{
  for (int y = 0; y < sc->height; y++) {
    const uint8_t *row = plane->data + (size_t) y * plane->stride;
    double *out = scale_pixel (sc, 0, y);
    for (int x = 0; x < sc->width; x++)
      out[x] = sharpness_plane_gray_at (plane, row, x);
  }
}

/* imfilter (I, h) ('same', zero padded correlation) sampled at the odd rows
 * and columns: only the kept samples are computed. */
static void
downscale (Bliinds2Scale * dst, const Bliinds2Scale * src,
    const double (*k)[3])
{
  for (int y = 0; y < dst->height; y++) {
    double *out = scale_pixel (dst, 0, y);
    for (int x = 0; x < dst->width; x++) {
      /* The 3x3 window centred on (2x + 1, 2y + 1) starts at (2x, 2y); its
       * last row/column is at most the zero row/column past the image. */
      const double *in = scale_pixel (src, 2 * x, 2 * y);
      double s = 0.0;
      for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++)
          s += k[i][j] * in[i * src->stride + j];
      out[x] = s;
    }
  }
}

static void
block_maps (SharpnessBliinds2 * b, const Bliinds2Scale * sc)
{
  for (int by = 0; by < sc->blocks_y; by++) {
    /* Window of block (bx, by): buffer rows 3 by .. 3 by + 4, i.e. image
     * rows 3 by - 1 .. 3 by + 3 (blkproc's 1-pixel border). */
    const double *row = sc->pixels + (size_t) STEP * by * sc->stride;
    for (int bx = 0; bx < sc->blocks_x; bx++) {
      size_t i = (size_t) by * sc->blocks_x + bx;
      double v[SHARPNESS_BLIINDS2_N_MAPS];
      sharpness_bliinds2_block_values (&b->tables, row + STEP * bx,
          sc->stride, v);
      for (int m = 0; m < SHARPNESS_BLIINDS2_N_MAPS; m++)
        b->maps[m][i] = v[m];
    }
  }
}

static int
comes_before (double a, double b, int descending)
{
  return descending ? a > b : a < b;
}

static int
compare_ascending (const void *pa, const void *pb)
{
  double a = *(const double *) pa, b = *(const double *) pb;
  return (a > b) - (a < b);
}

static int
compare_descending (const void *pa, const void *pb)
{
  return compare_ascending (pb, pa);
}

/* Reorders @v so that v[0..k) holds the first k values of its sorted order:
 * quickselect (Hoare's FIND) with a median-of-three pivot and Hoare
 * partitioning, which splits runs of equal values (the maps have many:
 * gamma 11, zeros) evenly; O(n) on average.  After 64 rounds the range
 * left is sorted instead, bounding the worst case to O(n log n). */
static void
select_first (double *v, size_t n, size_t k, int descending)
{
  size_t lo = 0, hi = n - 1, target = k - 1;
  int budget = 64;

  while (lo < hi) {
    if (budget-- == 0) {
      qsort (v + lo, hi - lo + 1, sizeof (double),
          descending ? compare_descending : compare_ascending);
      return;
    }
    /* Median of three as the pivot value. */
    double a = v[lo], m = v[lo + (hi - lo) / 2], c = v[hi];
    double pivot = comes_before (a, m, descending) ?
        (comes_before (m, c, descending) ? m :
        (comes_before (a, c, descending) ? c : a)) :
        (comes_before (a, c, descending) ? a :
        (comes_before (m, c, descending) ? c : m));
    size_t i = lo, j = hi;
    for (;;) {
      while (comes_before (v[i], pivot, descending))
        i++;
      while (comes_before (pivot, v[j], descending))
        j--;
      if (i >= j)
        break;
      double tmp = v[i];
      v[i] = v[j];
      v[j] = tmp;
      i++;
      j--;
    }
    /* Now v[lo..j] come no later than v[j+1..hi]. */
    if (target <= j)
      hi = j;
    else
      lo = j + 1;
  }
}

/* [mean, mean of the first ceil (n / 10) in sort order]; reorders @v. */
static void
pool (double *v, size_t n, int descending, double out[2])
{
  size_t k = (n + 9) / 10;
  double sum = 0.0;

  for (size_t i = 0; i < n; i++)
    sum += v[i];
  out[0] = sum / n;

  select_first (v, n, k, descending);
  sum = 0.0;
  for (size_t i = 0; i < k; i++)
    sum += v[i];
  out[1] = sum / k;
}

SharpnessStatus
sharpness_bliinds2_features (SharpnessBliinds2 * b,
    const SharpnessPlane * plane,
    double features[SHARPNESS_BLIINDS2_N_FEATURES])
{
  if (!b || !plane || !features ||
      !sharpness_bliinds2_has_size (b, plane->width, plane->height))
    return SHARPNESS_ERROR_INVALID;

  load_gray (&b->scale[0], plane);
  for (int s = 0; s < SHARPNESS_BLIINDS2_N_SCALES; s++) {
    const Bliinds2Scale *sc = &b->scale[s];
    if (s)
      downscale (&b->scale[s], &b->scale[s - 1], b->tables.gaussian);
    block_maps (b, sc);

    size_t n = (size_t) sc->blocks_x * sc->blocks_y;
    for (int m = 0; m < SHARPNESS_BLIINDS2_N_MAPS; m++)
      pool (b->maps[m], n, map_descending[m],
          &features[s * 2 * SHARPNESS_BLIINDS2_N_MAPS + 2 * m]);
  }
  return SHARPNESS_OK;
}
