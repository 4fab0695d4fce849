/* The log-Gabor filter bank of LPC-SI.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "log-gabor.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const double sharpness_log_gabor_scales[SHARPNESS_LOG_GABOR_SCALES] =
    { 1.0, 1.5, 2.0 };

double
sharpness_log_gabor_frequency (int k, int n)
{
  if (n == 1)
    return 0.0;
  /* ifftshift puts the grid's zero at index 0 and its negative half last. */
  const int f = k < (n + 1) / 2 ? k : k - n;
  return (double) f / (n % 2 ? n - 1 : n);
}

void
sharpness_log_gabor_clear (SharpnessLogGabor * bank)
{
  for (int s = 0; s < SHARPNESS_LOG_GABOR_SCALES; s++)
    free (bank->radial[s]);
  free (bank->theta);
  memset (bank, 0, sizeof *bank);
}

int
sharpness_log_gabor_init (SharpnessLogGabor * bank, int width, int height)
{
  const size_t n = (size_t) width * height;
  const double log_sigma = log (SHARPNESS_LOG_GABOR_SIGMA_ON_F);
  const double radial_denom = 2.0 * log_sigma * log_sigma;
  int ok = 1;

  memset (bank, 0, sizeof *bank);
  bank->width = width;
  bank->height = height;
  bank->theta = malloc (n * sizeof (double));
  ok = bank->theta != NULL;
  for (int s = 0; s < SHARPNESS_LOG_GABOR_SCALES; s++) {
    bank->radial[s] = malloc (n * sizeof (double));
    ok = ok && bank->radial[s] != NULL;
  }
  if (!ok) {
    sharpness_log_gabor_clear (bank);
    return 0;
  }

  for (int y = 0; y < height; y++) {
    const double fy = sharpness_log_gabor_frequency (y, height);
    for (int x = 0; x < width; x++) {
      const double fx = sharpness_log_gabor_frequency (x, width);
      const size_t i = (size_t) y * width + x;
      const double r = sqrt (fx * fx + fy * fy);
      const double lowpass = 1.0 / (1.0 + pow (r /
              SHARPNESS_LOG_GABOR_LOWPASS_CUTOFF,
              2 * SHARPNESS_LOG_GABOR_LOWPASS_ORDER));
      /* Kovesi sets the radius at DC to 1 so that the log stays finite;
       * the filters' DC is zeroed below anyway. */
      const double r_log = i == 0 ? 1.0 : r;

      bank->theta[i] = atan2 (-fy, fx);
      for (int s = 0; s < SHARPNESS_LOG_GABOR_SCALES; s++) {
        const double fo = 1.0 / (SHARPNESS_LOG_GABOR_MIN_WAVELENGTH *
            sharpness_log_gabor_scales[s]);
        const double l = log (r_log / fo);
        bank->radial[s][i] = i == 0 ? 0.0 : exp (-l * l / radial_denom) *
            lowpass;
      }
    }
  }
  return 1;
}

void
sharpness_log_gabor_spread (const SharpnessLogGabor * bank, int o,
    double *out)
{
  const size_t n = (size_t) bank->width * bank->height;
  const double angle = o * M_PI / SHARPNESS_LOG_GABOR_ORIENTATIONS;
  const double sigma = M_PI / SHARPNESS_LOG_GABOR_ORIENTATIONS /
      SHARPNESS_LOG_GABOR_D_THETA_ON_SIGMA;
  const double denom = 2.0 * sigma * sigma;

  for (size_t i = 0; i < n; i++) {
    /* Kovesi's |atan2 (sin (theta - angle), cos (theta - angle))|, the
     * angular distance in [0, pi], without the trigonometry. */
    double d = fabs (bank->theta[i] - angle);
    if (d > M_PI)
      d = 2.0 * M_PI - d;
    out[i] = exp (-d * d / denom);
  }
}
