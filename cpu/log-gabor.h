/* The log-Gabor filter bank of LPC-SI, in the frequency domain, as built
 * by Kovesi's phase congruency code that the official lpc_si.m uses.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Filter (s, o) = radial_s (r) * lowpass (r) * spread_o (theta), with DC
 * set to 0, on Kovesi's frequency grid in FFT order (DC at index 0; see
 * sharpness_log_gabor_frequency()).  The radial parts are stored per frame
 * size; the angular spread of an orientation is recomputed into a caller
 * buffer when needed: storing all 24 filters would take 192 bytes a pixel.
 */
#ifndef SHARPNESS_LOG_GABOR_H
#define SHARPNESS_LOG_GABOR_H

#ifdef __cplusplus
extern "C" {
#endif

#define SHARPNESS_LOG_GABOR_SCALES 3
#define SHARPNESS_LOG_GABOR_ORIENTATIONS 8

/* lpc_si.m: minimum wavelength 4 pixels, scales [1 1.5 2] of it. */
#define SHARPNESS_LOG_GABOR_MIN_WAVELENGTH 4.0
extern const double sharpness_log_gabor_scales[SHARPNESS_LOG_GABOR_SCALES];
/* Ratio of the radial Gaussian's sigma to the centre frequency. */
#define SHARPNESS_LOG_GABOR_SIGMA_ON_F 0.75
/* Angular sigma = (pi / orientations) / this. */
#define SHARPNESS_LOG_GABOR_D_THETA_ON_SIGMA 1.5
/* Kovesi's lowpassfilter (size, 0.45, 15): 1 / (1 + (r / 0.45)^(2 * 15)). */
#define SHARPNESS_LOG_GABOR_LOWPASS_CUTOFF 0.45
#define SHARPNESS_LOG_GABOR_LOWPASS_ORDER 15

typedef struct
{
  int width, height;
  /* Per scale, width * height values: radial * lowpass, 0 at DC. */
  double *radial[SHARPNESS_LOG_GABOR_SCALES];
  /* width * height values: theta = atan2 (-fy, fx) of each frequency. */
  double *theta;
} SharpnessLogGabor;

/* Fills @bank for @width x @height frames; 0 when memory runs out (@bank
 * is then cleared). */
int sharpness_log_gabor_init (SharpnessLogGabor * bank, int width,
    int height);
void sharpness_log_gabor_clear (SharpnessLogGabor * bank);

/* Frequency (cycles per pixel) of FFT index @k on an axis of @n samples:
 * Kovesi's grid, (-n/2 .. n/2 - 1) / n for even n and
 * (-(n-1)/2 .. (n-1)/2) / (n - 1) for odd n, ifftshift-ed.  0 for n = 1,
 * where the odd formula would be 0 / 0. */
double sharpness_log_gabor_frequency (int k, int n);

/* The angular spread exp (-dtheta^2 / (2 sigma^2)) of orientation @o (at
 * angle o * pi / 8), width * height values into @out. */
void sharpness_log_gabor_spread (const SharpnessLogGabor * bank, int o,
    double *out);

#ifdef __cplusplus
}
#endif
#endif /* SHARPNESS_LOG_GABOR_H */
