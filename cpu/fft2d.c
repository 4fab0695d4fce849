/* Complex DFTs of any length over av_tx, with Bluestein's algorithm for
 * the lengths av_tx has no fast transform for.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Bluestein: with the chirp w[j] = exp (i pi j^2 / n), j k = (j^2 + k^2 -
 * (k - j)^2) / 2 turns the DFT into
 *   X[k] = conj (w[k]) sum_j (x[j] conj (w[j])) w[k - j],
 * a convolution with the even sequence w, done circularly on m >= 2n - 1
 * points (no wrap-around reaches the n outputs) with fast transforms.  The
 * inverse DFT is conj (DFT (conj (x))).
 */
#include "fft2d-private.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <libavutil/mem.h>
#include <libavutil/tx.h>

_Static_assert (sizeof (SharpnessComplex) == sizeof (AVComplexDouble),
    "SharpnessComplex must match AVComplexDouble");

/* Longest transform av_tx 5.1 does fast: its split-radix codelets stop at
 * 2^17, longer powers of two go naive. */
#define FAST_MAX_LENGTH 131072

/* Columns transformed together: their gather reads whole cache lines. */
#define COLUMN_BATCH 8

struct SharpnessFft1d
{
  int n;
  /* Length of the av_tx transforms: n, or Bluestein's m >= 2n - 1. */
  int tx_len;
  AVTXContext *fwd, *inv;
  av_tx_fn fwd_fn, inv_fn;
  /* Bluestein only: w[j], j < n, and the transform of the convolution
   * kernel, divided by tx_len so that no separate scaling pass is needed. */
  SharpnessComplex *chirp;
  SharpnessComplex *kernel;
  /* tx_len values each. */
  SharpnessComplex *buf, *buf2;
};

struct SharpnessFft2d
{
  int width, height;
  SharpnessFft1d *rows, *cols;
  SharpnessComplex *columns;    /* COLUMN_BATCH columns of height values */
};

/* Lengths av_tx 5.1 transforms in O(n log n): 2^k, and 3, 5, 7, 9, 15
 * times 2^k with k >= 1 (the odd factors alone go naive). */
static int
is_fast_length (int n)
{
  int k = 0;

  if (n < 1 || n > FAST_MAX_LENGTH)
    return 0;
  while (n % 2 == 0) {
    n /= 2;
    k++;
  }
  if (n == 1)
    return 1;
  return k >= 1 && (n == 3 || n == 5 || n == 7 || n == 9 || n == 15);
}

/* Smallest fast length >= @min_len, or 0. */
static int
fast_length_at_least (int min_len)
{
  static const int odd[] = { 1, 3, 5, 7, 9, 15 };
  int best = 0;

  for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++) {
    long len = odd[i] == 1 ? 1 : 2L * odd[i];
    while (len < min_len)
      len *= 2;
    if (len <= FAST_MAX_LENGTH && (best == 0 || len < best))
      best = (int) len;
  }
  return best;
}

static SharpnessComplex
cmul (SharpnessComplex a, SharpnessComplex b)
{
  SharpnessComplex r = { a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re };
  return r;
}

static SharpnessComplex
conj_of (SharpnessComplex a)
{
  SharpnessComplex r = { a.re, -a.im };
  return r;
}

static int
init_tx (SharpnessFft1d * plan)
{
  const double scale = 1.0;

  if (av_tx_init (&plan->fwd, &plan->fwd_fn, AV_TX_DOUBLE_FFT, 0,
          plan->tx_len, &scale, AV_TX_UNALIGNED) < 0)
    return 0;
  if (av_tx_init (&plan->inv, &plan->inv_fn, AV_TX_DOUBLE_FFT, 1,
          plan->tx_len, &scale, AV_TX_UNALIGNED) < 0)
    return 0;
  return 1;
}

static int
init_bluestein (SharpnessFft1d * plan)
{
  const int n = plan->n, m = plan->tx_len;

  plan->chirp = av_malloc_array (n, sizeof (SharpnessComplex));
  plan->kernel = av_malloc_array (m, sizeof (SharpnessComplex));
  if (!plan->chirp || !plan->kernel)
    return 0;

  /* Reduce j^2 modulo 2n in integers: the angle stays exact for long n. */
  for (int j = 0; j < n; j++) {
    uint64_t r = (uint64_t) j * (uint64_t) j % (2 * (uint64_t) n);
    double a = M_PI * (double) r / n;
    plan->chirp[j].re = cos (a);
    plan->chirp[j].im = sin (a);
  }

  SharpnessComplex *b = plan->buf;
  memset (b, 0, (size_t) m * sizeof *b);
  b[0] = plan->chirp[0];
  for (int j = 1; j < n; j++)
    b[j] = b[m - j] = plan->chirp[j];
  plan->fwd_fn (plan->fwd, plan->kernel, b, sizeof (SharpnessComplex));
  for (int j = 0; j < m; j++) {
    plan->kernel[j].re /= m;
    plan->kernel[j].im /= m;
  }
  return 1;
}

SharpnessFft1d *
sharpness_fft1d_new (int n)
{
  SharpnessFft1d *plan;

  if (n < 1 || n > SHARPNESS_FFT_MAX_LENGTH)
    return NULL;
  plan = calloc (1, sizeof *plan);
  if (!plan)
    return NULL;

  plan->n = n;
  plan->tx_len = is_fast_length (n) ? n : fast_length_at_least (2 * n - 1);
  plan->buf = av_malloc_array (plan->tx_len, sizeof (SharpnessComplex));
  plan->buf2 = av_malloc_array (plan->tx_len, sizeof (SharpnessComplex));
  if (plan->tx_len == 0 || !plan->buf || !plan->buf2 || !init_tx (plan) ||
      (plan->tx_len != n && !init_bluestein (plan))) {
    sharpness_fft1d_free (plan);
    return NULL;
  }
  return plan;
}

void
sharpness_fft1d_free (SharpnessFft1d * plan)
{
  if (!plan)
    return;
  av_tx_uninit (&plan->fwd);
  av_tx_uninit (&plan->inv);
  av_free (plan->chirp);
  av_free (plan->kernel);
  av_free (plan->buf);
  av_free (plan->buf2);
  free (plan);
}

int
sharpness_fft1d_is_bluestein (const SharpnessFft1d * plan)
{
  return plan->tx_len != plan->n;
}

static void
bluestein_execute (SharpnessFft1d * plan, SharpnessComplex * data,
    SharpnessFftDirection dir)
{
  const int n = plan->n, m = plan->tx_len;
  const int inverse = dir == SHARPNESS_FFT_INVERSE;
  SharpnessComplex *a = plan->buf, *spec = plan->buf2;

  for (int j = 0; j < n; j++) {
    SharpnessComplex x = inverse ? conj_of (data[j]) : data[j];
    a[j] = cmul (x, conj_of (plan->chirp[j]));
  }
  memset (a + n, 0, (size_t) (m - n) * sizeof *a);

  plan->fwd_fn (plan->fwd, spec, a, sizeof (SharpnessComplex));
  for (int j = 0; j < m; j++)
    spec[j] = cmul (spec[j], plan->kernel[j]);
  plan->inv_fn (plan->inv, a, spec, sizeof (SharpnessComplex));

  for (int k = 0; k < n; k++) {
    SharpnessComplex y = cmul (conj_of (plan->chirp[k]), a[k]);
    data[k] = inverse ? conj_of (y) : y;
  }
}

void
sharpness_fft1d_execute (SharpnessFft1d * plan, SharpnessComplex * data,
    SharpnessFftDirection dir)
{
  if (plan->tx_len != plan->n) {
    bluestein_execute (plan, data, dir);
    return;
  }
  if (dir == SHARPNESS_FFT_INVERSE)
    plan->inv_fn (plan->inv, plan->buf, data, sizeof (SharpnessComplex));
  else
    plan->fwd_fn (plan->fwd, plan->buf, data, sizeof (SharpnessComplex));
  memcpy (data, plan->buf, (size_t) plan->n * sizeof *data);
}

SharpnessFft2d *
sharpness_fft2d_new (int width, int height)
{
  SharpnessFft2d *plan = calloc (1, sizeof *plan);

  if (!plan)
    return NULL;
  plan->width = width;
  plan->height = height;
  plan->rows = sharpness_fft1d_new (width);
  plan->cols = sharpness_fft1d_new (height);
  if (plan->rows && plan->cols)
    plan->columns = malloc ((size_t) COLUMN_BATCH * height *
        sizeof (SharpnessComplex));
  if (!plan->columns) {
    sharpness_fft2d_free (plan);
    return NULL;
  }
  return plan;
}

void
sharpness_fft2d_free (SharpnessFft2d * plan)
{
  if (!plan)
    return;
  sharpness_fft1d_free (plan->rows);
  sharpness_fft1d_free (plan->cols);
  free (plan->columns);
  free (plan);
}

void
sharpness_fft2d_execute (SharpnessFft2d * plan, SharpnessComplex * data,
    SharpnessFftDirection dir)
{
  const int w = plan->width, h = plan->height;
  SharpnessComplex *cols = plan->columns;

  for (int y = 0; y < h; y++)
    sharpness_fft1d_execute (plan->rows, data + (size_t) y * w, dir);

  /* Columns: gather a batch into contiguous memory, transform, scatter. */
  for (int x0 = 0; x0 < w; x0 += COLUMN_BATCH) {
    const int nb = w - x0 < COLUMN_BATCH ? w - x0 : COLUMN_BATCH;

    for (int y = 0; y < h; y++) {
      const SharpnessComplex *src = data + (size_t) y * w + x0;
      for (int b = 0; b < nb; b++)
        cols[(size_t) b * h + y] = src[b];
    }
    for (int b = 0; b < nb; b++)
      sharpness_fft1d_execute (plan->cols, cols + (size_t) b * h, dir);
    for (int y = 0; y < h; y++) {
      SharpnessComplex *dst = data + (size_t) y * w + x0;
      for (int b = 0; b < nb; b++)
        dst[b] = cols[(size_t) b * h + y];
    }
  }
}
