/* The LPC map and the LPC-SI pooling.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Per orientation o and scale s the response is M_s = ifft2 (fft2 (image)
 * * F_{s,o}) (circular, as in lpc_si.m).  The phase term cos (sum_s w_s
 * arg M_s) is evaluated as Re (prod_s (M_s / |M_s|)^w_s): the weights are
 * integers, so the two are equal, and no atan2 is needed (arg 0 = 0, as
 * atan2 (0, 0) = 0, gives the unit phasor 1).  The inverse transforms are
 * not divided by N = W * H; only the energy needs that scale, the phases
 * do not.
 */
#include "lpc-map.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fft2d.h"
#include "log-gabor.h"

const int sharpness_lpc_weights[3] = { 1, -3, 2 };

_Static_assert (SHARPNESS_LOG_GABOR_SCALES == 3, "one weight per scale");

struct SharpnessCpuLpc
{
  int width, height, border;
  SharpnessLogGabor bank;
  SharpnessFft2d *fft;
  SharpnessComplex *spectrum;   /* fft2 of the image */
  SharpnessComplex *response;   /* N * M_s of the current filter */
  SharpnessComplex *phase;      /* prod_s (M_s / |M_s|)^w_s */
  double *spread;               /* angular spread of the orientation */
  double *energy;               /* |M_1|, then thresholded */
  double *energy_sum;           /* sum over orientations of the energies */
};

int
sharpness_cpu_lpc_border (int width, int height)
{
  const int m = width < height ? width : height;
  /* MATLAB round (m / 16): half away from zero. */
  return (m + 8) / 16;
}

void
sharpness_cpu_lpc_free (SharpnessCpuLpc * lpc)
{
  if (!lpc)
    return;
  sharpness_log_gabor_clear (&lpc->bank);
  sharpness_fft2d_free (lpc->fft);
  free (lpc->spectrum);
  free (lpc->response);
  free (lpc->phase);
  free (lpc->spread);
  free (lpc->energy);
  free (lpc->energy_sum);
  free (lpc);
}

SharpnessStatus
sharpness_cpu_lpc_new (int width, int height, SharpnessCpuLpc ** out)
{
  const size_t n = (size_t) width * height;
  SharpnessCpuLpc *lpc;

  *out = NULL;
  if (width < 1 || height < 1 || width > SHARPNESS_FFT_MAX_LENGTH ||
      height > SHARPNESS_FFT_MAX_LENGTH)
    return SHARPNESS_ERROR_UNSUPPORTED;

  lpc = calloc (1, sizeof *lpc);
  if (!lpc)
    return SHARPNESS_ERROR_NO_MEMORY;
  lpc->width = width;
  lpc->height = height;
  lpc->border = sharpness_cpu_lpc_border (width, height);
  lpc->fft = sharpness_fft2d_new (width, height);
  lpc->spectrum = malloc (n * sizeof (SharpnessComplex));
  lpc->response = malloc (n * sizeof (SharpnessComplex));
  lpc->phase = malloc (n * sizeof (SharpnessComplex));
  lpc->spread = malloc (n * sizeof (double));
  lpc->energy = malloc (n * sizeof (double));
  lpc->energy_sum = malloc (n * sizeof (double));
  if (!sharpness_log_gabor_init (&lpc->bank, width, height) || !lpc->fft ||
      !lpc->spectrum || !lpc->response || !lpc->phase || !lpc->spread ||
      !lpc->energy || !lpc->energy_sum) {
    sharpness_cpu_lpc_free (lpc);
    return SHARPNESS_ERROR_NO_MEMORY;
  }
  *out = lpc;
  return SHARPNESS_OK;
}

static SharpnessComplex
cmul (SharpnessComplex a, SharpnessComplex b)
{
  SharpnessComplex r = { a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re };
  return r;
}

/* (z / |z|)^w for an integer w; z = 0 counts as phase 0. */
static SharpnessComplex
unit_phasor_pow (SharpnessComplex z, int w)
{
  const double mag2 = z.re * z.re + z.im * z.im;
  SharpnessComplex u = { 1.0, 0.0 }, r = { 1.0, 0.0 };

  if (mag2 > 0.0) {
    const double inv = 1.0 / sqrt (mag2);
    u.re = z.re * inv;
    u.im = (w < 0 ? -z.im : z.im) * inv;
  }
  for (int k = 0; k < abs (w); k++)
    r = cmul (r, u);
  return r;
}

/* mean + 2 std (N - 1 normalised) of the centre crop of @v. */
static double
crop_threshold (const SharpnessCpuLpc * lpc, const double *v)
{
  const int b = lpc->border, w = lpc->width;
  const int x1 = w - b, y1 = lpc->height - b;
  const double count = (double) (x1 - b) * (y1 - b);
  double sum = 0.0, sq = 0.0;

  for (int y = b; y < y1; y++)
    for (int x = b; x < x1; x++)
      sum += v[(size_t) y * w + x];
  const double mean = sum / count;
  if (count < 2.0)
    return mean;
  for (int y = b; y < y1; y++)
    for (int x = b; x < x1; x++) {
      const double d = v[(size_t) y * w + x] - mean;
      sq += d * d;
    }
  return mean + 2.0 * sqrt (sq / (count - 1.0));
}

/* Adds orientation @o's term cos+ * e to @map and e to energy_sum. */
static void
add_orientation (SharpnessCpuLpc * lpc, int o, double *map)
{
  const size_t n = (size_t) lpc->width * lpc->height;
  const double inv_n = 1.0 / (double) n;

  sharpness_log_gabor_spread (&lpc->bank, o, lpc->spread);

  for (int s = 0; s < SHARPNESS_LOG_GABOR_SCALES; s++) {
    const double *radial = lpc->bank.radial[s];
    const int w = sharpness_lpc_weights[s];

    for (size_t i = 0; i < n; i++) {
      const double f = radial[i] * lpc->spread[i];
      lpc->response[i].re = lpc->spectrum[i].re * f;
      lpc->response[i].im = lpc->spectrum[i].im * f;
    }
    sharpness_fft2d_execute (lpc->fft, lpc->response, SHARPNESS_FFT_INVERSE);

    for (size_t i = 0; i < n; i++) {
      const SharpnessComplex m = lpc->response[i];
      const SharpnessComplex u = unit_phasor_pow (m, w);
      if (s == 0) {
        lpc->energy[i] = sqrt (m.re * m.re + m.im * m.im) * inv_n;
        lpc->phase[i] = u;
      } else {
        lpc->phase[i] = cmul (lpc->phase[i], u);
      }
    }
  }

  const double t = crop_threshold (lpc, lpc->energy);
  for (size_t i = 0; i < n; i++) {
    const double e = lpc->energy[i] > t ? lpc->energy[i] - t : 0.0;
    const double c = lpc->phase[i].re > 0.0 ? lpc->phase[i].re : 0.0;
    map[i] += c * e;
    lpc->energy_sum[i] += e;
  }
}

void
sharpness_cpu_lpc_map (SharpnessCpuLpc * lpc, const double *image,
    double *map)
{
  const size_t n = (size_t) lpc->width * lpc->height;

  for (size_t i = 0; i < n; i++) {
    lpc->spectrum[i].re = image[i];
    lpc->spectrum[i].im = 0.0;
  }
  sharpness_fft2d_execute (lpc->fft, lpc->spectrum, SHARPNESS_FFT_FORWARD);

  memset (map, 0, n * sizeof *map);
  memset (lpc->energy_sum, 0, n * sizeof *lpc->energy_sum);
  for (int o = 0; o < SHARPNESS_LOG_GABOR_ORIENTATIONS; o++)
    add_orientation (lpc, o, map);

  for (size_t i = 0; i < n; i++)
    map[i] /= lpc->energy_sum[i] + SHARPNESS_LPC_C;
}

static void
swap (double *a, double *b)
{
  const double t = *a;
  *a = *b;
  *b = t;
}

static double
median3 (double a, double b, double c)
{
  if (a > b)
    swap (&a, &b);
  return c < a ? a : (c > b ? b : c);
}

/* Reorders @v[0..n) so that its first @m values are its @m largest (in no
 * particular order): quickselect with a three-way partition, which stays
 * linear when many values are equal (LPC maps hold many zeros). */
static void
select_largest (double *v, size_t n, size_t m)
{
  size_t lo = 0, hi = n;

  while (lo < m && m < hi) {
    const double pivot = median3 (v[lo], v[lo + (hi - lo) / 2], v[hi - 1]);
    size_t gt = lo, i = lo, lt = hi;

    /* [lo, gt) > pivot, [gt, i) == pivot, [lt, hi) < pivot */
    while (i < lt) {
      if (v[i] > pivot)
        swap (&v[gt++], &v[i++]);
      else if (v[i] < pivot)
        swap (&v[i], &v[--lt]);
      else
        i++;
    }
    if (m <= gt)
      hi = gt;
    else if (m >= lt)
      lo = lt;
    else
      break;
  }
}

static int
compare_descending (const void *a, const void *b)
{
  const double x = *(const double *) a, y = *(const double *) b;
  return (x < y) - (x > y);
}

static double
pool_weight (size_t k, size_t count)
{
  return exp (-((double) k / (double) (count - 1)) / SHARPNESS_LPC_BETA);
}

double
sharpness_cpu_lpc_si_pool (const double *map, int width, int height,
    double *scratch)
{
  const int b = sharpness_cpu_lpc_border (width, height);
  const int cw = width - 2 * b, ch = height - 2 * b;
  const size_t count = (size_t) cw * ch;
  size_t m = 0;
  double num = 0.0, den = 0.0;

  for (int y = 0; y < ch; y++)
    memcpy (scratch + (size_t) y * cw, map + (size_t) (y + b) * width + b,
        (size_t) cw * sizeof *scratch);
  if (count == 1)
    return scratch[0];

  /* The weights underflow to exactly 0 after the first ~7.5% of the sorted
   * values: sorting only those gives the full sort's sums, bit for bit. */
  while (m < count && pool_weight (m, count) > 0.0)
    m++;
  select_largest (scratch, count, m);
  qsort (scratch, m, sizeof *scratch, compare_descending);

  for (size_t k = 0; k < m; k++) {
    const double u = pool_weight (k, count);
    num += u * scratch[k];
    den += u;
  }
  return num / den;
}
