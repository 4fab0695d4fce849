/* Complex discrete Fourier transforms of any length, in one and two
 * dimensions, over FFmpeg's av_tx (libavutil, LGPL-2.1-or-later).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * av_tx (libavutil 57, FFmpeg 5.1) is fast only for lengths 2^k and
 * m * 2^k with m in {3, 5, 7, 9, 15} and k >= 1; any other length falls
 * back to an O(n^2) DFT.  Those lengths go through Bluestein's algorithm
 * here: a circular convolution with a chirp, done with fast av_tx
 * transforms of the smallest fast length >= 2n - 1.
 *
 * Plans are made once per length (or frame size) and reused; executing one
 * allocates nothing.  A plan holds scratch memory, so one plan must not be
 * executed from two threads at once.
 */
#ifndef SHARPNESS_FFT2D_H
#define SHARPNESS_FFT2D_H

#ifdef __cplusplus
extern "C" {
#endif

/* Layout-compatible with libavutil's AVComplexDouble. */
typedef struct
{
  double re, im;
} SharpnessComplex;

typedef enum
{
  /* X[k] = sum_j x[j] exp (-2 pi i j k / n) */
  SHARPNESS_FFT_FORWARD,
  /* x[j] = sum_k X[k] exp (+2 pi i j k / n), not divided by n */
  SHARPNESS_FFT_INVERSE
} SharpnessFftDirection;

/* Longest transform a plan accepts (Bluestein needs 2n - 1 <= 131072, the
 * longest fast av_tx power of two). */
#define SHARPNESS_FFT_MAX_LENGTH 65536

typedef struct SharpnessFft1d SharpnessFft1d;

typedef struct SharpnessFft2d SharpnessFft2d;

/* Plan for @height rows of @width values, row-major and contiguous. */
SharpnessFft2d *sharpness_fft2d_new (int width, int height);
void sharpness_fft2d_free (SharpnessFft2d * plan);

/* In-place 2-D transform of @data (rows, then columns); the inverse is not
 * divided by width * height. */
void sharpness_fft2d_execute (SharpnessFft2d * plan, SharpnessComplex * data,
    SharpnessFftDirection dir);

#ifdef __cplusplus
}
#endif
#endif /* SHARPNESS_FFT2D_H */
