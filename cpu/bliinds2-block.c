/* BLIINDS-II: the constant tables and the four statistics of one 5x5
 * block DCT.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The reference's per-block routines: rho_dct (zeta), gama_dct (gamma),
 * the subband energy ratio and the orientation variance, all with N - 1
 * two-pass variances as MATLAB's std/var.  Statistics over the same values
 * share their loops, each sum keeping its own order.
 */
#include "bliinds2.h"

#include <math.h>

#define N SHARPNESS_BLIINDS2_BLOCK
#define N_AC (N * N - 1)

/* zeta, gamma and orientation denominators; energy-ratio denominators. */
#define EPS_SHAPE 1e-7
#define EPS_ENERGY 1e-8

static const int orient1[] = SHARPNESS_BLIINDS2_ORIENT1;
static const int orient2[] = SHARPNESS_BLIINDS2_ORIENT2;
static const int orient3[] = SHARPNESS_BLIINDS2_ORIENT3;
static const int band1[] = SHARPNESS_BLIINDS2_BAND1;
static const int band2[] = SHARPNESS_BLIINDS2_BAND2;
static const int band3[] = SHARPNESS_BLIINDS2_BAND3;

#define N_ELEMENTS(a) ((int) (sizeof (a) / sizeof ((a)[0])))

/* N - 1 variance of x[index[i]], two passes as MATLAB's var. */
static double
variance (const double *x, const int *index, int n)
{
  double sum = 0.0, ss = 0.0;
  for (int i = 0; i < n; i++)
    sum += x[index[i]];
  double m = sum / n;
  for (int i = 0; i < n; i++) {
    double d = x[index[i]] - m;
    ss += d * d;
  }
  return ss / (n - 1);
}

/* rho_dct and gama_dct of the 24 AC coefficients x, sharing their loops:
 *   zeta = std (|x|) / (mean |x| + 1e-7),
 *   rho = var (x) / (mean |x - mean x|^2 + 1e-7), gamma = lookup (rho). */
static void
block_zeta_gamma (const SharpnessBliinds2Tables * t, const double *ac,
    double *zeta, double *gamma)
{
  double sum = 0.0, sum_abs = 0.0, ss = 0.0, ss_abs = 0.0, mad = 0.0;
  for (int i = 0; i < N_AC; i++) {
    sum += ac[i];
    sum_abs += fabs (ac[i]);
  }
  double m = sum / N_AC, m_abs = sum_abs / N_AC;
  for (int i = 0; i < N_AC; i++) {
    double d = ac[i] - m, d_abs = fabs (ac[i]) - m_abs;
    ss += d * d;
    mad += fabs (d);
    ss_abs += d_abs * d_abs;
  }
  mad /= N_AC;
  *zeta = sqrt (ss_abs / (N_AC - 1)) / (m_abs + EPS_SHAPE);
  *gamma = sharpness_bliinds2_gamma_lookup (t, ss / (N_AC - 1) /
      (mad * mad + EPS_SHAPE));
}

static double
block_energy (const double *x)
{
  double v1 = variance (x, band1, N_ELEMENTS (band1));
  double v2 = variance (x, band2, N_ELEMENTS (band2));
  double v3 = variance (x, band3, N_ELEMENTS (band3));
  double low = (v1 + v2) / 2.0;
  double r1 = fabs (v3 - low) / (v3 + low + EPS_ENERGY);
  /* v3, not v2, in this denominator: the reference's quirk, kept. */
  double r2 = fabs (v2 - v1) / (v3 + v1 + EPS_ENERGY);
  return (r1 + r2) / 2.0;
}

/* Variance of std (|x|) / (mean |x| + 1e-7) over the three orientation
 * sets; the three sets share their loops, each sum in its own order. */
static double
block_orientation (const double *x)
{
  static const int *const sets[3] = { orient1, orient2, orient3 };
  enum { SET = N_ELEMENTS (orient1) };
  double a[3][SET], mean[3] = { 0 }, ss[3] = { 0 }, o[3];

  for (int i = 0; i < SET; i++)
    for (int k = 0; k < 3; k++) {
      a[k][i] = fabs (x[sets[k][i]]);
      mean[k] += a[k][i];
    }
  for (int k = 0; k < 3; k++)
    mean[k] /= SET;
  for (int i = 0; i < SET; i++)
    for (int k = 0; k < 3; k++)
      ss[k] += (a[k][i] - mean[k]) * (a[k][i] - mean[k]);
  for (int k = 0; k < 3; k++)
    o[k] = sqrt (ss[k] / (SET - 1)) / (mean[k] + EPS_SHAPE);
  double m = (o[0] + o[1] + o[2]) / 3;
  return ((o[0] - m) * (o[0] - m) + (o[1] - m) * (o[1] - m) +
      (o[2] - m) * (o[2] - m)) / 2;
}

/* 5-point orthonormal DCT-II of x[0], x[sx], .., x[4 sx] into X[0..4],
 * through the symmetries of its basis: odd rows are
 * antisymmetric (C[k][4-n] = -C[k][n], C[k][2] = 0) and even rows other
 * than the DC symmetric with zero sum.  Coefficients that vanish because a
 * row or column is constant or mirror-symmetric then come out as exact
 * zeros rather than rounding noise, which the 1e-7 guards of the
 * statistics would otherwise amplify to ~1e-5 (flat and striped areas). */
static inline void
dct5 (const double (*C)[N], const double *x, size_t sx, double X[N])
{
  double x0 = x[0], x1 = x[sx], x2 = x[2 * sx], x3 = x[3 * sx],
      x4 = x[4 * sx];
  double odd0 = x0 - x4, odd1 = x1 - x3;
  double even0 = (x0 - x2) + (x4 - x2), even1 = (x1 - x2) + (x3 - x2);

  X[0] = C[0][0] * (x0 + x1 + x2 + x3 + x4);
  X[1] = C[1][0] * odd0 + C[1][1] * odd1;
  X[2] = C[2][0] * even0 + C[2][1] * even1;
  X[3] = C[3][0] * odd0 + C[3][1] * odd1;
  X[4] = C[4][0] * even0 + C[4][1] * even1;
}

void
sharpness_bliinds2_block_values (const SharpnessBliinds2Tables * t,
    const double *window, size_t stride,
    double values[SHARPNESS_BLIINDS2_N_MAPS])
{
  double rows[N * N], x[N * N];

  /* dct2: the rows, then the columns of the result, stored column-major
   * (x[N v + u] = coefficient (u, v)) as MATLAB's x(:). */
  for (int r = 0; r < N; r++)
    dct5 (t->dct, window + r * stride, 1, rows + N * r);
  for (int v = 0; v < N; v++)
    dct5 (t->dct, rows + v, N, x + N * v);

  /* The AC coefficients are x(2:end). */
  block_zeta_gamma (t, x + 1, &values[SHARPNESS_BLIINDS2_ZETA],
      &values[SHARPNESS_BLIINDS2_GAMMA]);
  values[SHARPNESS_BLIINDS2_ENERGY] = block_energy (x);
  values[SHARPNESS_BLIINDS2_ORIENTATION] = block_orientation (x);
}
