/* BLIINDS-II: the resolution-independent tables (DCT matrix, generalized
 * Gaussian shape ratios, decimation low-pass), shared by both backends.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "bliinds2-model.h"

#include <math.h>
#include <stddef.h>

#define N SHARPNESS_BLIINDS2_BLOCK

static double
gamma_grid (int j)
{
  return (30 + j) / 1000.0;
}

void
sharpness_bliinds2_tables_init (SharpnessBliinds2Tables * t)
{
  for (int k = 0; k < N; k++) {
    double a = k ? sqrt (2.0 / N) : sqrt (1.0 / N);
    for (int n = 0; n < N; n++)
      t->dct[k][n] = a * cos (M_PI * (2 * n + 1) * k / (2.0 * N));
  }

  /* Directly in double as the reference's gamma(): G(1/0.03) G(3/0.03) ~
   * 1e191 and G(2/0.03)^2 ~ 1e185 still fit, and this is a little more
   * accurate than exp (lgamma ...) (3e-14 against 8e-14 at worst). */
  for (int j = 0; j < SHARPNESS_BLIINDS2_GAMMA_COUNT; j++) {
    double g = gamma_grid (j);
    double g2 = tgamma (2.0 / g);
    t->gamma_ratio[j] = tgamma (1.0 / g) * tgamma (3.0 / g) / (g2 * g2);
  }

  double sum = 0.0;
  for (int y = 0; y < 3; y++)
    for (int x = 0; x < 3; x++) {
      /* exp (-(dx^2 + dy^2) / (2 sigma^2)), sigma = 0.5 */
      t->gaussian[y][x] = exp (-((x - 1) * (x - 1) + (y - 1) * (y - 1)) / 0.5);
      sum += t->gaussian[y][x];
    }
  for (int y = 0; y < 3; y++)
    for (int x = 0; x < 3; x++)
      t->gaussian[y][x] /= sum;
}

double
sharpness_bliinds2_gamma_lookup (const SharpnessBliinds2Tables * t,
    double rho)
{
  const double *r = t->gamma_ratio, *p = r;
  size_t len = SHARPNESS_BLIINDS2_GAMMA_COUNT;

  if (!(rho <= r[0] && rho > r[SHARPNESS_BLIINDS2_GAMMA_COUNT - 1]))
    return SHARPNESS_BLIINDS2_GAMMA_NOT_FOUND;
  /* r falls strictly, so the reference's scan stops at the last j with
   * r(j) >= rho.  Branch-free bisection for it: p[0] >= rho throughout and
   * that j stays in [p, p + len). */
  while (len > 1) {
    size_t half = len / 2;
    p = p[half] >= rho ? p + half : p;
    len -= half;
  }
  return gamma_grid ((int) (p - r));
}

