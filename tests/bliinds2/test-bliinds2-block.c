/* BLIINDS-II block statistics against values derived by hand: the DCT
 * matrix, the generalized Gaussian ratio table and its lookup rule, and
 * the four values of windows whose DCT is known, the decimation kernel,
 * and the frame sizes the backend accepts.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "bliinds2.h"
#include "sharpness-cpu.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define N SHARPNESS_BLIINDS2_BLOCK
#define COUNT SHARPNESS_BLIINDS2_GAMMA_COUNT

static int failures;

static void
check_close (const char *what, double got, double want, double rel)
{
  if (!(fabs (got - want) <= rel * fabs (want))) {
    fprintf (stderr, "FAIL %s: got %.17g, want %.17g\n", what, got, want);
    failures++;
  }
}

static void
check_dct (const SharpnessBliinds2Tables * t)
{
  /* Orthonormal: C C^T = I. */
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      double s = 0.0;
      for (int k = 0; k < N; k++)
        s += t->dct[i][k] * t->dct[j][k];
      if (fabs (s - (i == j)) > 1e-15) {
        fprintf (stderr, "FAIL dct: (C C^T)[%d][%d] = %.17g\n", i, j, s);
        failures++;
      }
    }
  check_close ("dct[0][0]", t->dct[0][0], 1.0 / sqrt (5.0), 1e-15);
}

static void
check_gamma_table (const SharpnessBliinds2Tables * t)
{
  const double *r = t->gamma_ratio;

  /* The lookup's bisection needs r to fall strictly. */
  for (int j = 0; j + 1 < COUNT; j++)
    if (!(r[j] > r[j + 1])) {
      fprintf (stderr, "FAIL: r(%d) = %.17g, r(%d) = %.17g\n", j, r[j],
          j + 1, r[j + 1]);
      failures++;
      break;
    }
  /* Laplacian (g = 1): G(1) G(3) / G(2)^2 = 2; Gaussian (g = 2): pi / 2. */
  check_close ("r(1)", r[970], 2.0, 1e-14);
  check_close ("r(2)", r[1970], M_PI / 2.0, 1e-14);

  /* First g(j) with r(j) >= rho > r(j + 1): equality belongs to j. */
  const int js[] = { 0, 1, 970, 5000, COUNT - 2 };
  for (size_t i = 0; i < sizeof js / sizeof js[0]; i++) {
    int j = js[i];
    double g = (30 + j) / 1000.0;
    char what[64];
    snprintf (what, sizeof what, "lookup r(%d)", j);
    check_close (what, sharpness_bliinds2_gamma_lookup (t, r[j]), g, 0);
    snprintf (what, sizeof what, "lookup mid(%d, %d)", j, j + 1);
    check_close (what, sharpness_bliinds2_gamma_lookup (t,
            (r[j] + r[j + 1]) / 2.0), g, 0);
  }
  /* Outside the table, and NaN: 11. */
  const double outside[] = { nextafter (r[0], INFINITY), r[COUNT - 1], 0.0,
    -1.0, NAN
  };
  for (size_t i = 0; i < sizeof outside / sizeof outside[0]; i++)
    check_close ("lookup outside", sharpness_bliinds2_gamma_lookup (t,
            outside[i]), SHARPNESS_BLIINDS2_GAMMA_NOT_FOUND, 0);
}

/* Sample statistics written out plainly (N - 1 variances). */
static double
mean_of (const double *x, int n)
{
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += x[i];
  return s / n;
}

static double
var_of (const double *x, int n)
{
  double m = mean_of (x, n), s = 0.0;
  for (int i = 0; i < n; i++)
    s += (x[i] - m) * (x[i] - m);
  return s / (n - 1);
}

static double
abs_cv (const double *x, int n)
{
  double a[24];
  for (int i = 0; i < n; i++)
    a[i] = fabs (x[i]);
  return sqrt (var_of (a, n)) / (mean_of (a, n) + 1e-7);
}

/* The expected four values from the 25 DCT coefficients (row-major,
 * 1-based (row, col) lists of the spec spelled out again here). */
static void
expected_values (const SharpnessBliinds2Tables * t, const double coef[25],
    double out[SHARPNESS_BLIINDS2_N_MAPS])
{
  static const int o[3][8][2] = {
    {{1, 2}, {1, 3}, {1, 4}, {1, 5}, {2, 3}, {2, 4}, {2, 5}, {3, 5}},
    {{2, 2}, {3, 3}, {3, 4}, {4, 3}, {4, 4}, {4, 5}, {5, 4}, {5, 5}},
    {{2, 1}, {3, 1}, {4, 1}, {5, 1}, {3, 2}, {4, 2}, {5, 2}, {5, 3}},
  };
  static const int b1[5][2] = { {1, 2}, {2, 1}, {1, 3}, {3, 1}, {2, 2} };
  static const int b2[13][2] = { {4, 1}, {5, 1}, {3, 2}, {4, 2}, {5, 2},
    {2, 3}, {3, 3}, {4, 3}, {1, 4}, {2, 4}, {3, 4}, {1, 5}, {2, 5}
  };
  static const int b3[6][2] = { {3, 5}, {4, 4}, {5, 3}, {4, 5}, {5, 4},
    {5, 5}
  };
#define AT(rc) coef[((rc)[0] - 1) * N + (rc)[1] - 1]
  double ac[24], x[13], cv[3];
  int n = 0;

  for (int c = 1; c <= N; c++)
    for (int r = 1; r <= N; r++)
      if (r > 1 || c > 1)
        ac[n++] = coef[(r - 1) * N + c - 1];
  out[SHARPNESS_BLIINDS2_ZETA] = abs_cv (ac, 24);

  double m = mean_of (ac, 24), mad = 0.0;
  for (int i = 0; i < 24; i++)
    mad += fabs (ac[i] - m) / 24;
  out[SHARPNESS_BLIINDS2_GAMMA] = sharpness_bliinds2_gamma_lookup (t,
      var_of (ac, 24) / (mad * mad + 1e-7));

  for (int i = 0; i < 5; i++)
    x[i] = AT (b1[i]);
  double v1 = var_of (x, 5);
  for (int i = 0; i < 13; i++)
    x[i] = AT (b2[i]);
  double v2 = var_of (x, 13);
  for (int i = 0; i < 6; i++)
    x[i] = AT (b3[i]);
  double v3 = var_of (x, 6);
  out[SHARPNESS_BLIINDS2_ENERGY] =
      (fabs (v3 - (v1 + v2) / 2) / (v3 + (v1 + v2) / 2 + 1e-8) +
      fabs (v2 - v1) / (v3 + v1 + 1e-8)) / 2;

  for (int k = 0; k < 3; k++) {
    for (int i = 0; i < 8; i++)
      x[i] = AT (o[k][i]);
    cv[k] = abs_cv (x, 8);
  }
  out[SHARPNESS_BLIINDS2_ORIENTATION] = var_of (cv, 3);
#undef AT
}

/* 1-D DCT of @p, straight from the definition in long double. */
static void
dct_of (const int p[N], double out[N])
{
  for (int k = 0; k < N; k++) {
    long double s = 0.0L;
    for (int n = 0; n < N; n++)
      s += p[n] * cosl (3.14159265358979323846264338327950288L *
          (2 * n + 1) * k / (2 * N));
    out[k] = (double) (s * sqrtl ((k ? 2.0L : 1.0L) / N));
  }
}

/* Whether coefficient @k of the DCT of @p is zero by structure: a
 * constant keeps only k = 0, a symmetric vector the even k, an
 * antisymmetric one the odd k. */
static int
vanishes (const int p[N], int k)
{
  if (p[0] == p[1] && p[1] == p[2] && p[2] == p[3] && p[3] == p[4])
    return k != 0;
  return p[0] == p[4] ? k % 2 == 1 : k % 2 == 0;
}

/* Window offset + P[r] Q[c] of integer rows/columns that are each mirror
 * symmetric or antisymmetric: its DCT is dct(P)[u] dct(Q)[v] (plus the
 * DC), and the coefficients of the other parity vanish exactly, so the
 * expected values carry no rounding noise. */
static void
check_separable (const SharpnessBliinds2Tables * t, const char *what,
    const int p[N], const int q[N], int offset)
{
  double w[N][N], dp[N], dq[N], coef[N * N];
  double got[SHARPNESS_BLIINDS2_N_MAPS], want[SHARPNESS_BLIINDS2_N_MAPS];
  static const char *names[] = { "zeta", "gamma", "energy", "orientation" };

  for (int r = 0; r < N; r++)
    for (int c = 0; c < N; c++)
      w[r][c] = offset + p[r] * q[c];
  dct_of (p, dp);
  dct_of (q, dq);
  for (int u = 0; u < N; u++)
    for (int v = 0; v < N; v++) {
      coef[u * N + v] = vanishes (p, u) || vanishes (q, v) ? 0.0 :
          dp[u] * dq[v];
    }
  expected_values (t, coef, want);
  sharpness_bliinds2_block_values (t, &w[0][0], N, got);

  for (int m = 0; m < SHARPNESS_BLIINDS2_N_MAPS; m++) {
    char label[96];
    snprintf (label, sizeof label, "%s %s", what, names[m]);
    check_close (label, got[m], want[m], m == SHARPNESS_BLIINDS2_GAMMA ?
        0 : 1e-12);
  }
}

static void
check_blocks (const SharpnessBliinds2Tables * t)
{
  static const int flat[N] = { 1, 1, 1, 1, 1 };
  static const int odd[N] = { 2, 1, 0, -1, -2 };
  static const int odd2[N] = { -3, 5, 0, -5, 3 };
  static const int even[N] = { 4, -1, 2, -1, 4 };
  double w[N][N], v[SHARPNESS_BLIINDS2_N_MAPS];

  /* Flat window: no AC energy.  zeta, energy and orientation are exactly
   * 0 and rho = 0 lies below the table, so gamma is 11. */
  for (int r = 0; r < N; r++)
    for (int c = 0; c < N; c++)
      w[r][c] = 117.0;
  sharpness_bliinds2_block_values (t, &w[0][0], N, v);
  check_close ("flat zeta", v[SHARPNESS_BLIINDS2_ZETA], 0.0, 0);
  check_close ("flat gamma", v[SHARPNESS_BLIINDS2_GAMMA], 11.0, 0);
  check_close ("flat energy", v[SHARPNESS_BLIINDS2_ENERGY], 0.0, 0);
  check_close ("flat orientation", v[SHARPNESS_BLIINDS2_ORIENTATION], 0.0,
      0);

  /* Horizontal ramp: only (1,2) (band 1) and (1,4) (band 2) are non-zero,
   * both in orientation 1; band 3 is empty, so v3 = 0 in r2's denominator
   * (the reference's quirk) is exercised. */
  check_separable (t, "ramp", flat, odd, 100);
  check_separable (t, "ramp transposed", odd, flat, 100);
  /* Symmetric rows: (1,3) and (1,5). */
  check_separable (t, "symmetric", flat, even, 50);
  /* 2-D: (2,2), (2,4), (4,2), (4,4): all three bands, orientations 1-3. */
  check_separable (t, "odd x odd", odd2, odd, 128);
  check_separable (t, "even x odd", even, odd2, 90);
}

static void
check_gaussian (const SharpnessBliinds2Tables * t)
{
  /* The spec's rounded values of fspecial ('gaussian', 3, 0.5). */
  const double centre = 0.619347, edge = 0.0838195, corner = 0.0113437;
  double sum = 0.0;
  for (int y = 0; y < 3; y++)
    for (int x = 0; x < 3; x++) {
      int d = (x != 1) + (y != 1);
      check_close ("gaussian", t->gaussian[y][x],
          d == 0 ? centre : d == 1 ? edge : corner, 1e-5);
      sum += t->gaussian[y][x];
    }
  check_close ("gaussian sum", sum, 1.0, 1e-15);
}

/* Frames of at least 4x4 pixels score (the third scale keeps a pixel);
 * smaller ones are refused rather than pooled over empty maps. */
static void
check_sizes (void)
{
  static const uint8_t pixels[8 * 8] = { 9, 200, 31, 77, 140, 3, 255, 18 };
  static const int sizes[][3] = {
    {4, 4, SHARPNESS_OK}, {4, 7, SHARPNESS_OK}, {8, 5, SHARPNESS_OK},
    {3, 8, SHARPNESS_ERROR_TOO_SMALL}, {8, 3, SHARPNESS_ERROR_TOO_SMALL},
    {1, 1, SHARPNESS_ERROR_TOO_SMALL},
  };
  SharpnessCpu *cpu = sharpness_cpu_new ();

  if (!cpu) {
    fprintf (stderr, "out of memory\n");
    failures++;
    return;
  }
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
    SharpnessPlane plane = {
      .samples = SHARPNESS_SAMPLES_Y8, .data = pixels, .stride = 8,
      .width = sizes[i][0], .height = sizes[i][1], .pixel_stride = 1,
    };
    double score = -1.0;
    SharpnessStatus st = sharpness_cpu_score (cpu, SHARPNESS_METRIC_BLIINDS2,
        &plane, &score);
    if ((int) st != sizes[i][2] || (st == SHARPNESS_OK &&
            !(score >= 0.0 && score <= 99.0))) {
      fprintf (stderr, "FAIL %dx%d: %s, score %g\n", sizes[i][0],
          sizes[i][1], sharpness_status_to_string (st), score);
      failures++;
    }
  }
  sharpness_cpu_free (cpu);
}

int
main (void)
{
  SharpnessBliinds2Tables *t = malloc (sizeof *t);
  if (!t) {
    fprintf (stderr, "out of memory\n");
    return 1;
  }
  sharpness_bliinds2_tables_init (t);
  check_dct (t);
  check_gamma_table (t);
  check_blocks (t);
  check_gaussian (t);
  check_sizes ();
  free (t);
  if (failures)
    fprintf (stderr, "%d failure(s)\n", failures);
  return failures != 0;
}
