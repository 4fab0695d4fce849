/* cpu/fft2d.c against a naive DFT: 1-D lengths that av_tx does directly
 * and through Bluestein, both directions, and 2-D transforms.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fft2d-private.h"
#include "test-rng.h"

/* Norm-wise relative error allowed against the naive DFT. */
#define TOLERANCE 1e-12

static TestRng rng_state = { 0x9e3779b97f4a7c15u };

static double
uniform (void)
{
  return test_rng_unit (&rng_state) * 2.0 - 1.0;
}

static void
fill_random (SharpnessComplex * v, size_t n)
{
  for (size_t i = 0; i < n; i++) {
    v[i].re = uniform ();
    v[i].im = uniform ();
  }
}

/* out[k] = sum_j in[j * stride] exp (sign 2 pi i j k / n), in long double,
 * with the exponent j k reduced modulo n exactly and its n twiddles
 * computed once. */
static void
naive_dft (const SharpnessComplex * in, size_t stride, SharpnessComplex * out,
    size_t out_stride, int n, int sign)
{
  long double *tw = malloc (2 * (size_t) n * sizeof *tw);

  if (!tw)
    abort ();
  for (int m = 0; m < n; m++) {
    const long double a = sign * 2.0L *
        3.14159265358979323846264338327950288L * m / n;
    tw[2 * m] = cosl (a);
    tw[2 * m + 1] = sinl (a);
  }
  for (int k = 0; k < n; k++) {
    long double re = 0, im = 0;
    for (int j = 0; j < n; j++) {
      const size_t m = (size_t) ((int64_t) j * k % n);
      const long double c = tw[2 * m], s = tw[2 * m + 1];
      const SharpnessComplex x = in[(size_t) j * stride];
      re += x.re * c - x.im * s;
      im += x.re * s + x.im * c;
    }
    out[(size_t) k * out_stride].re = (double) re;
    out[(size_t) k * out_stride].im = (double) im;
  }
  free (tw);
}

static double
relative_error (const SharpnessComplex * got, const SharpnessComplex * want,
    size_t n)
{
  double diff = 0.0, norm = 0.0;

  for (size_t i = 0; i < n; i++) {
    const double dr = got[i].re - want[i].re, di = got[i].im - want[i].im;
    diff += dr * dr + di * di;
    norm += want[i].re * want[i].re + want[i].im * want[i].im;
  }
  return sqrt (diff / norm);
}

static int
check_1d (int n, int expect_bluestein)
{
  SharpnessFft1d *plan = sharpness_fft1d_new (n);
  SharpnessComplex *x = malloc ((size_t) n * sizeof *x);
  SharpnessComplex *got = malloc ((size_t) n * sizeof *got);
  SharpnessComplex *want = malloc ((size_t) n * sizeof *want);
  int failed = 0;

  if (!plan || !x || !got || !want) {
    printf ("FAIL length %d: no plan or memory\n", n);
    failed = 1;
    goto out;
  }
  if (sharpness_fft1d_is_bluestein (plan) != expect_bluestein) {
    printf ("FAIL length %d: Bluestein %d, expected %d\n", n,
        sharpness_fft1d_is_bluestein (plan), expect_bluestein);
    failed = 1;
  }

  fill_random (x, n);
  for (int dir = 0; dir < 2; dir++) {
    memcpy (got, x, (size_t) n * sizeof *x);
    sharpness_fft1d_execute (plan, got, dir ? SHARPNESS_FFT_INVERSE :
        SHARPNESS_FFT_FORWARD);
    naive_dft (x, 1, want, 1, n, dir ? 1 : -1);
    const double err = relative_error (got, want, n);
    printf ("%s length %5d %-7s %-9s relative error %.3g\n",
        err <= TOLERANCE ? "ok  " : "FAIL", n, dir ? "inverse" : "forward",
        expect_bluestein ? "Bluestein" : "av_tx", err);
    failed |= !(err <= TOLERANCE);
  }

  /* Executing twice must not depend on what the first run left behind. */
  memcpy (got, x, (size_t) n * sizeof *x);
  sharpness_fft1d_execute (plan, got, SHARPNESS_FFT_FORWARD);
  naive_dft (x, 1, want, 1, n, -1);
  if (!(relative_error (got, want, n) <= TOLERANCE)) {
    printf ("FAIL length %d: second run differs\n", n);
    failed = 1;
  }

out:
  sharpness_fft1d_free (plan);
  free (x);
  free (got);
  free (want);
  return failed;
}

static int
check_2d (int w, int h)
{
  const size_t n = (size_t) w * h;
  SharpnessFft2d *plan = sharpness_fft2d_new (w, h);
  SharpnessComplex *x = malloc (n * sizeof *x);
  SharpnessComplex *got = malloc (n * sizeof *got);
  SharpnessComplex *rows = malloc (n * sizeof *rows);
  SharpnessComplex *want = malloc (n * sizeof *want);
  int failed = 0;

  if (!plan || !x || !got || !rows || !want) {
    printf ("FAIL %dx%d: no plan or memory\n", w, h);
    failed = 1;
    goto out;
  }
  fill_random (x, n);
  for (int dir = 0; dir < 2; dir++) {
    const int sign = dir ? 1 : -1;
    memcpy (got, x, n * sizeof *x);
    sharpness_fft2d_execute (plan, got, dir ? SHARPNESS_FFT_INVERSE :
        SHARPNESS_FFT_FORWARD);
    for (int y = 0; y < h; y++)
      naive_dft (x + (size_t) y * w, 1, rows + (size_t) y * w, 1, w, sign);
    for (int c = 0; c < w; c++)
      naive_dft (rows + c, w, want + c, w, h, sign);
    const double err = relative_error (got, want, n);
    printf ("%s %dx%d %-7s relative error %.3g\n",
        err <= TOLERANCE ? "ok  " : "FAIL", w, h, dir ? "inverse" : "forward",
        err);
    failed |= !(err <= TOLERANCE);
  }

out:
  sharpness_fft2d_free (plan);
  free (x);
  free (got);
  free (rows);
  free (want);
  return failed;
}

int
main (void)
{
  /* length, expected to go through Bluestein */
  static const int lengths[][2] = {
    {1, 0}, {2, 0}, {3, 1}, {7, 1}, {17, 1}, {30, 0}, {45, 1}, {1080, 1},
    {1279, 1}, {1920, 0}, {2048, 0},
  };
  static const int sizes[][2] = {
    {1, 1}, {1, 5}, {12, 1}, {17, 7}, {33, 20}, {64, 45},
  };
  int failed = 0;

  for (size_t i = 0; i < sizeof lengths / sizeof lengths[0]; i++)
    failed |= check_1d (lengths[i][0], lengths[i][1]);
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
    failed |= check_2d (sizes[i][0], sizes[i][1]);

  if (sharpness_fft1d_new (0) || sharpness_fft1d_new (SHARPNESS_FFT_MAX_LENGTH
          + 1)) {
    printf ("FAIL: a plan for an unsupported length\n");
    failed = 1;
  }
  return failed;
}
