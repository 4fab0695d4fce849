/* SSIM of Wang et al. 2004 (ssim.m: Gaussian 11x11, sigma 1.5, 'valid'),
 * its automatic downsampling, and MS-SSIM (msssim.m), in double precision.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "compare-private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define WIN 11

const double compare_ms_ssim_weights[COMPARE_MS_SSIM_SCALES] = {
  0.0448, 0.2856, 0.3001, 0.2363, 0.1333
};

/* The normalised 1-D Gaussian (its outer product is fspecial's window). */
static void
gaussian (double g[WIN])
{
  double sum = 0.0;
  for (int k = 0; k < WIN; k++) {
    double d = k - WIN / 2;
    g[k] = exp (-(d * d) / (2.0 * 1.5 * 1.5));
    sum += g[k];
  }
  for (int k = 0; k < WIN; k++)
    g[k] /= sum;
}

int
compare_wang_downsample_factor (int width, int height)
{
  int m = width < height ? width : height;
  int f = (int) lround (m / 256.0);     /* MATLAB round: half away from 0 */
  return f > 1 ? f : 1;
}

/* MATLAB's 'symmetric' padding: -1 -> 0, n -> n - 1. */
static inline int
mirror (int i, int n)
{
  while (i < 0 || i >= n) {
    if (i < 0)
      i = -i - 1;
    if (i >= n)
      i = 2 * n - i - 1;
  }
  return i;
}

/* imfilter (img, ones (f) / f^2, 'symmetric', 'same') sampled at
 * (1:f:end, 1:f:end): out is ceil (h / f) x ceil (w / f). */
static void
box_downsample (const double *in, int w, int h, int f, double *out)
{
  int ow = (w + f - 1) / f, oh = (h + f - 1) / f;
  int lo = 1 - (f + 1) / 2;     /* first offset: 1 - floor ((f + 1) / 2) */
  double k = 1.0 / ((double) f * f);

  for (int i = 0; i < oh; i++)
    for (int j = 0; j < ow; j++) {
      double s = 0.0;
      for (int a = 0; a < f; a++) {
        const double *row = in + (size_t) mirror (i * f + lo + a, h) * w;
        for (int b = 0; b < f; b++)
          s += row[mirror (j * f + lo + b, w)] * k;
      }
      out[(size_t) i * ow + j] = s;
    }
}

/* Plane @c of both frames as double images in buffers @bref / @bdist. */
static SharpnessStatus
to_double (CompareScratch * scratch, const ComparePair * pair, int c,
    int bref, int bdist)
{
  size_t n = (size_t) pair->width[c] * pair->height[c];
  SharpnessStatus st;

  if ((st = compare_scratch_reserve (scratch, bref, n * sizeof (double)))
      || (st = compare_scratch_reserve (scratch, bdist, n * sizeof (double))))
    return st;
  for (int y = 0; y < pair->height[c]; y++) {
    const uint8_t *a = compare_row (pair->ref[c], pair->ref_stride[c], y);
    const uint8_t *b = compare_row (pair->dist[c], pair->dist_stride[c], y);
    double *ra = (double *) scratch->buf[bref] + (size_t) y * pair->width[c];
    double *rb = (double *) scratch->buf[bdist] + (size_t) y * pair->width[c];
    for (int x = 0; x < pair->width[c]; x++) {
      ra[x] = compare_sample (pair, a, x);
      rb[x] = compare_sample (pair, b, x);
    }
  }
  return SHARPNESS_OK;
}

/* Mean SSIM and mean contrast-structure term over the 'valid' region of two
 * w x h double images (ssim_index_new of msssim.m). */
static SharpnessStatus
ssim_means (CompareScratch * scratch, const double *x, const double *y,
    int w, int h, double L, double *mssim, double *mcs)
{
  const double c1 = (0.01 * L) * (0.01 * L), c2 = (0.03 * L) * (0.03 * L);
  int vw = w - (WIN - 1), vh = h - (WIN - 1);
  double g[WIN], sum_s = 0.0, sum_c = 0.0;
  double *ring;
  SharpnessStatus st;

  if (vw < 1 || vh < 1)
    return SHARPNESS_ERROR_UNSUPPORTED;
  st = compare_scratch_reserve (scratch, COMPARE_BUF_RING,
      (size_t) 5 * WIN * vw * sizeof (double));
  if (st != SHARPNESS_OK)
    return st;
  ring = scratch->buf[COMPARE_BUF_RING];
  gaussian (g);

  for (int r = 0; r < h; r++) {
    /* horizontal pass of row r: x, y, xx, yy, xy */
    double *q = ring + (size_t) (r % WIN) * 5 * vw;
    const double *rx = x + (size_t) r * w, *ry = y + (size_t) r * w;
    for (int j = 0; j < vw; j++) {
      double sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0;
      for (int k = 0; k < WIN; k++) {
        double a = rx[j + k], b = ry[j + k];
        sx += g[k] * a;
        sy += g[k] * b;
        sxx += g[k] * (a * a);
        syy += g[k] * (b * b);
        sxy += g[k] * (a * b);
      }
      q[j] = sx;
      q[vw + j] = sy;
      q[2 * vw + j] = sxx;
      q[3 * vw + j] = syy;
      q[4 * vw + j] = sxy;
    }
    if (r < WIN - 1)
      continue;
    /* vertical pass: output row r - 10 */
    for (int j = 0; j < vw; j++) {
      double m[5] = { 0, 0, 0, 0, 0 };
      for (int k = 0; k < WIN; k++) {
        const double *p = ring + (size_t) ((r - (WIN - 1) + k) % WIN) * 5 * vw;
        for (int t = 0; t < 5; t++)
          m[t] += g[k] * p[t * vw + j];
      }
      {
        double mx = m[0], my = m[1];
        double vx = m[2] - mx * mx, vy = m[3] - my * my, cxy = m[4] - mx * my;
        double cs = (2.0 * cxy + c2) / (vx + vy + c2);
        double s = ((2.0 * mx * my + c1) * (2.0 * cxy + c2))
            / ((mx * mx + my * my + c1) * (vx + vy + c2));
        sum_s += s;
        sum_c += cs;
      }
    }
  }
  *mssim = sum_s / ((double) vw * vh);
  if (mcs)
    *mcs = sum_c / ((double) vw * vh);
  return SHARPNESS_OK;
}

SharpnessStatus
compare_ssim_wang (CompareScratch * scratch, const ComparePair * pair,
    int downsample, CompareSsim * out)
{
  SharpnessStatus st = compare_pair_check (pair);
  double weight[COMPARE_MAX_PLANES];
  double L;

  if (st != SHARPNESS_OK)
    return st;
  if (!scratch)
    return SHARPNESS_ERROR_INVALID;
  L = (double) ((1 << pair->depth) - 1);
  memset (out, 0, sizeof (*out));
  out->n_planes = pair->n_planes;

  for (int c = 0; c < pair->n_planes; c++) {
    int w = pair->width[c], h = pair->height[c];
    int f = downsample ? compare_wang_downsample_factor (w, h) : 1;
    const double *x, *y;

    if ((st = to_double (scratch, pair, c, COMPARE_BUF_REF, COMPARE_BUF_DIST)))
      return st;
    x = scratch->buf[COMPARE_BUF_REF];
    y = scratch->buf[COMPARE_BUF_DIST];
    if (f > 1) {
      size_t n = (size_t) ((w + f - 1) / f) * ((h + f - 1) / f);
      if ((st = compare_scratch_reserve (scratch, COMPARE_BUF_REF2,
                  n * sizeof (double)))
          || (st = compare_scratch_reserve (scratch, COMPARE_BUF_DIST2,
                  n * sizeof (double))))
        return st;
      box_downsample (x, w, h, f, scratch->buf[COMPARE_BUF_REF2]);
      box_downsample (y, w, h, f, scratch->buf[COMPARE_BUF_DIST2]);
      x = scratch->buf[COMPARE_BUF_REF2];
      y = scratch->buf[COMPARE_BUF_DIST2];
      w = (w + f - 1) / f;
      h = (h + f - 1) / f;
    }
    st = ssim_means (scratch, x, y, w, h, L, &out->ssim[c], NULL);
    if (st != SHARPNESS_OK)
      return st;
  }
  compare_plane_weights (pair, weight);
  out->all = 0.0;
  for (int c = 0; c < pair->n_planes; c++)
    out->all += weight[c] * out->ssim[c];
  out->db = compare_ssim_db (out->all, 1.0);
  return SHARPNESS_OK;
}

SharpnessStatus
compare_ms_ssim (CompareScratch * scratch, const ComparePair * pair,
    CompareMsSsim * out)
{
  SharpnessStatus st = compare_pair_check (pair);
  int w, h, cur = 0;
  int bufs[2][2] = { {COMPARE_BUF_REF, COMPARE_BUF_DIST},
  {COMPARE_BUF_REF2, COMPARE_BUF_DIST2}
  };
  double L, prod = 1.0;

  if (st != SHARPNESS_OK)
    return st;
  if (!scratch)
    return SHARPNESS_ERROR_INVALID;
  w = pair->width[0];
  h = pair->height[0];
  /* 11 x 11 at the coarsest scale: ceil (n / 16) >= 11 */
  if ((w + 15) / 16 < WIN || (h + 15) / 16 < WIN)
    return SHARPNESS_ERROR_UNSUPPORTED;
  L = (double) ((1 << pair->depth) - 1);
  memset (out, 0, sizeof (*out));

  if ((st = to_double (scratch, pair, 0, COMPARE_BUF_REF, COMPARE_BUF_DIST)))
    return st;
  {
    size_t n = (size_t) ((w + 1) / 2) * ((h + 1) / 2) * sizeof (double);
    if ((st = compare_scratch_reserve (scratch, COMPARE_BUF_REF2, n))
        || (st = compare_scratch_reserve (scratch, COMPARE_BUF_DIST2, n)))
      return st;
  }
  for (int l = 0; l < COMPARE_MS_SSIM_SCALES; l++) {
    const double *x = scratch->buf[bufs[cur][0]];
    const double *y = scratch->buf[bufs[cur][1]];
    st = ssim_means (scratch, x, y, w, h, L, &out->ssim[l], &out->cs[l]);
    if (st != SHARPNESS_OK)
      return st;
    if (l + 1 < COMPARE_MS_SSIM_SCALES) {
      box_downsample (x, w, h, 2, scratch->buf[bufs[!cur][0]]);
      box_downsample (y, w, h, 2, scratch->buf[bufs[!cur][1]]);
      cur = !cur;
      w = (w + 1) / 2;
      h = (h + 1) / 2;
    }
  }
  /* msssim.m 'product': prod (mcs(1:4) .^ w(1:4)) * mssim(5) ^ w(5); a
   * negative base has no real power: NaN (MATLAB gives a complex number). */
  for (int l = 0; l < COMPARE_MS_SSIM_SCALES - 1; l++)
    prod *= pow (out->cs[l], compare_ms_ssim_weights[l]);
  out->ms_ssim = prod * pow (out->ssim[COMPARE_MS_SSIM_SCALES - 1],
      compare_ms_ssim_weights[COMPARE_MS_SSIM_SCALES - 1]);
  return SHARPNESS_OK;
}
