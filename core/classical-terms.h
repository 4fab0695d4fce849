/* The per-pixel terms of the classical metrics (docs/reference/metrics.md), written
 * once for the CPU backend's scalar code and the CUDA kernels.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Arguments are gray levels.  2x2 windows: g[y][x] = b0, g[y][x + 1] = b1,
 * g[y + 1][x] = c0, g[y + 1][x + 1] = c1.  3x3 windows: rows a (y - 1),
 * b (y), c (y + 1), columns 0 (x - 1), 1 (x), 2 (x + 1).  The largest term
 * of each metric is given beside it: the backends size their partial sums
 * from these.
 */
#ifndef SHARPNESS_CLASSICAL_TERMS_H
#define SHARPNESS_CLASSICAL_TERMS_H

#include "sharpness-hd.h"

#define SHARPNESS_ROBERTS_MAX (2 * 255)
#define SHARPNESS_TENENGRAD_MAX (2 * (4 * 255) * (4 * 255))
#define SHARPNESS_LAPLACIAN_MAX (2 * 2 * 255)
#define SHARPNESS_SMD_MAX (2 * 255)
#define SHARPNESS_SMD2_MAX (255 * 255)
#define SHARPNESS_MAXMIN_MAX 255
#define SHARPNESS_SQUARE_MAX (255 * 255)        /* variance's g^2 */
/* blur-effect, per axis: 11 |Sobel| (the larger of its two terms; the
 * re-blurred variation is at most 2 * 4 * 255) */
#define SHARPNESS_BLUR_EFFECT_MAX (11 * 4 * 255)

#ifdef __cplusplus
extern "C" {
#endif

/* abs (), not a ? : — GCC 12 vectorises the CPU's byte loops over abs ()
 * twice as fast (a - b never overflows: the arguments are small sums of
 * gray levels); nvcc has abs () on the device too. */
SHARPNESS_HD int
sharpness_absdiff (int a, int b)
{
  return abs (a - b);
}

SHARPNESS_HD unsigned
sharpness_term_roberts (int b0, int b1, int c0, int c1)
{
  return (unsigned) (sharpness_absdiff (c1, b0) + sharpness_absdiff (c0, b1));
}

SHARPNESS_HD unsigned
sharpness_term_smd (int b0, int b1, int c0)
{
  return (unsigned) (sharpness_absdiff (b0, b1) + sharpness_absdiff (b0, c0));
}

SHARPNESS_HD unsigned
sharpness_term_smd2 (int b0, int b1, int c0)
{
  return (unsigned) (sharpness_absdiff (b0, b1) * sharpness_absdiff (b0, c0));
}

/* Sobel: right minus left column (1, 2, 1), bottom minus top row. */
SHARPNESS_HD unsigned
sharpness_term_tenengrad (int a0, int a1, int a2, int b0, int b2, int c0,
    int c1, int c2)
{
  const int gx = (a2 + 2 * b2 + c2) - (a0 + 2 * b0 + c0);
  const int gy = (c0 + 2 * c1 + c2) - (a0 + 2 * a1 + a2);
  return (unsigned) (gx * gx + gy * gy);
}

SHARPNESS_HD unsigned
sharpness_term_laplacian (int a1, int b0, int b1, int b2, int c1)
{
  return (unsigned) (sharpness_absdiff (b2 + b0, 2 * b1) +
      sharpness_absdiff (c1 + a1, 2 * b1));
}

SHARPNESS_HD int
sharpness_max3 (int a, int b, int c)
{
  const int m = a > b ? a : b;
  return m > c ? m : c;
}

SHARPNESS_HD int
sharpness_min3 (int a, int b, int c)
{
  const int m = a < b ? a : b;
  return m < c ? m : c;
}

/* Range of the 3x3 neighbourhood from its column extremes (max and min of
 * columns 0, 1, 2), so that neighbouring centres can share them. */
SHARPNESS_HD unsigned
sharpness_term_maxmin (int hi0, int hi1, int hi2, int lo0, int lo1, int lo2)
{
  return (unsigned) (sharpness_max3 (hi0, hi1, hi2) -
      sharpness_min3 (lo0, lo1, lo2));
}

/* Blur effect (docs/reference/metrics.md), one axis of one pixel, from the lines
 * across that axis smoothed by (1, 2, 1): l_k at k pixels along the axis
 * (mirrored at the frame's edges).  Sobel's variation of the frame, scaled
 * by the box's 11 taps: 11 |l_1 - l_-1|. */
SHARPNESS_HD unsigned
sharpness_term_blur_sharp (int l_m1, int l_p1)
{
  return (unsigned) (11 * sharpness_absdiff (l_p1, l_m1));
}

/* What the 11-tap box along the axis takes away from @sharp: Sobel of the
 * box sums, whose difference two pixels apart telescopes to
 * l_6 + l_5 - l_-5 - l_-6, subtracted and clamped at 0. */
SHARPNESS_HD unsigned
sharpness_term_blur_lost (unsigned sharp, int l_m6, int l_m5, int l_p5,
    int l_p6)
{
  const unsigned blur = (unsigned) sharpness_absdiff (l_p6 + l_p5,
      l_m5 + l_m6);
  return sharp > blur ? sharp - blur : 0u;
}

#ifdef __cplusplus
}
#endif
#endif /* SHARPNESS_CLASSICAL_TERMS_H */
