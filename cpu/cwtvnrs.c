/* CWTVNRS on the CPU backend.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * 1. y = x blurred by the 11 x 11, sigma 1 Gaussian.
 * 2. S1 = LPC map, S2 = TV map, of x and of y.
 * 3. S3 = S1^0.5 S2^0.5.
 * 4. S_xy = (2 S3(x) S3(y) + T) / (S3(x)^2 + S3(y)^2 + T), T = 0.1.
 * 5. score = 1 - sum S_xy S3m / sum S3m, S3m = max (S3(x), S3(y)), over
 *    the centre crop that LPC-SI pools (docs/reference/metrics-lpc.md says why).
 */
#include "cwtvnrs-private.h"

#include <math.h>
#include <stdlib.h>

#include "gray-image.h"
#include "sharpness-cpu-private.h"
#include "tv-map.h"

void
sharpness_cpu_cwtvnrs_free (SharpnessCpuCwtvnrs * cw)
{
  if (!cw)
    return;
  sharpness_cpu_lpc_free (cw->lpc);
  for (int k = 0; k < 2; k++) {
    free (cw->image[k]);
    free (cw->lpc_map[k]);
    free (cw->tv_map[k]);
  }
  free (cw->blur_rows);
  free (cw);
}

SharpnessStatus
sharpness_cpu_cwtvnrs_new (int width, int height, SharpnessCpuCwtvnrs ** out)
{
  const size_t n = (size_t) width * height;
  const int r = SHARPNESS_CWTVNRS_BLUR_RADIUS;
  const double s = SHARPNESS_CWTVNRS_BLUR_SIGMA;
  SharpnessCpuCwtvnrs *cw;
  SharpnessStatus ret;
  double sum = 0.0;
  int ok;

  *out = NULL;
  cw = calloc (1, sizeof *cw);
  if (!cw)
    return SHARPNESS_ERROR_NO_MEMORY;
  cw->width = width;
  cw->height = height;
  ret = sharpness_cpu_lpc_new (width, height, &cw->lpc);
  if (ret != SHARPNESS_OK) {
    sharpness_cpu_cwtvnrs_free (cw);
    return ret;
  }
  cw->blur_rows = malloc (n * sizeof (double));
  ok = cw->blur_rows != NULL;
  for (int k = 0; k < 2; k++) {
    cw->image[k] = malloc (n * sizeof (double));
    cw->lpc_map[k] = malloc (n * sizeof (double));
    cw->tv_map[k] = malloc (n * sizeof (double));
    ok = ok && cw->image[k] && cw->lpc_map[k] && cw->tv_map[k];
  }
  if (!ok) {
    sharpness_cpu_cwtvnrs_free (cw);
    return SHARPNESS_ERROR_NO_MEMORY;
  }

  /* fspecial's exp (-(i^2 + j^2) / (2 s^2)) / sum factors into this
   * kernel's outer product; none of its values is below fspecial's
   * eps * max cut-off. */
  for (int i = -r; i <= r; i++) {
    cw->kernel[i + r] = exp (-(double) (i * i) / (2.0 * s * s));
    sum += cw->kernel[i + r];
  }
  for (int i = 0; i <= 2 * r; i++)
    cw->kernel[i] /= sum;

  *out = cw;
  return SHARPNESS_OK;
}

void
sharpness_cpu_cwtvnrs_reblur (SharpnessCpuCwtvnrs * cw)
{
  const int w = cw->width, h = cw->height, r = SHARPNESS_CWTVNRS_BLUR_RADIUS;
  const double *x = cw->image[0];
  double *tmp = cw->blur_rows, *y = cw->image[1];

  /* Samples outside the frame are 0: the taps that would read them are
   * skipped. */
  for (int row = 0; row < h; row++) {
    const double *src = x + (size_t) row * w;
    double *dst = tmp + (size_t) row * w;
    for (int col = 0; col < w; col++) {
      const int a = col - r < 0 ? -col : -r;
      const int b = col + r >= w ? w - 1 - col : r;
      double acc = 0.0;
      for (int k = a; k <= b; k++)
        acc += cw->kernel[k + r] * src[col + k];
      dst[col] = acc;
    }
  }
  for (int row = 0; row < h; row++) {
    const int a = row - r < 0 ? -row : -r;
    const int b = row + r >= h ? h - 1 - row : r;
    double *dst = y + (size_t) row * w;
    for (int col = 0; col < w; col++)
      dst[col] = 0.0;
    for (int k = a; k <= b; k++) {
      const double g = cw->kernel[k + r];
      const double *src = tmp + (size_t) (row + k) * w;
      for (int col = 0; col < w; col++)
        dst[col] += g * src[col];
    }
  }
}

double
sharpness_cpu_cwtvnrs_run (SharpnessCpuCwtvnrs * cw)
{
  const int w = cw->width, h = cw->height;
  const int b = sharpness_cpu_lpc_border (w, h);
  double num = 0.0, den = 0.0;

  sharpness_cpu_cwtvnrs_reblur (cw);
  for (int k = 0; k < 2; k++) {
    sharpness_cpu_lpc_map (cw->lpc, cw->image[k], cw->lpc_map[k]);
    sharpness_cpu_tv_map (cw->image[k], w, h, cw->tv_map[k]);
  }

  for (int y = b; y < h - b; y++)
    for (int x = b; x < w - b; x++) {
      const size_t i = (size_t) y * w + x;
      const double sx = sqrt (cw->lpc_map[0][i]) * sqrt (cw->tv_map[0][i]);
      const double sy = sqrt (cw->lpc_map[1][i]) * sqrt (cw->tv_map[1][i]);
      const double sim = (2.0 * sx * sy + SHARPNESS_CWTVNRS_T) /
          (sx * sx + sy * sy + SHARPNESS_CWTVNRS_T);
      const double m = sx > sy ? sx : sy;
      num += sim * m;
      den += m;
    }
  return den > 0.0 ? 1.0 - num / den : 0.0;
}

static SharpnessStatus
cwtvnrs_state_new (void *backend, int width, int height, void **out)
{
  SharpnessCpuCwtvnrs *cw;
  SharpnessStatus ret = sharpness_cpu_cwtvnrs_new (width, height, &cw);

  *out = cw;
  return ret;
}

static void
cwtvnrs_state_free (void *data)
{
  sharpness_cpu_cwtvnrs_free (data);
}

static SharpnessStatus
cwtvnrs_score (SharpnessCpu * cpu, void *state, const SharpnessPlane * plane,
    double *score)
{
  SharpnessCpuCwtvnrs *cw = state;
  SharpnessStatus ret = sharpness_cpu_gray_image (cpu, plane, cw->image[0]);

  if (ret != SHARPNESS_OK)
    return ret;
  *score = sharpness_cpu_cwtvnrs_run (cw);
  return SHARPNESS_OK;
}

const SharpnessCpuScoreMetric sharpness_cpu_metric_cwtvnrs = {
  .metric = SHARPNESS_METRIC_CWTVNRS,
  .state_new = cwtvnrs_state_new,
  .state_free = cwtvnrs_state_free,
  .score = cwtvnrs_score,
};
