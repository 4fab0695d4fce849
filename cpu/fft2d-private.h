/* The one-dimensional plans under the 2-D transforms of fft2d.h: what
 * fft2d.c builds its rows and columns from, declared here for its tests
 * (tests/perceptual/test-fft2d.c), not for the metrics.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SHARPNESS_FFT2D_PRIVATE_H
#define SHARPNESS_FFT2D_PRIVATE_H

#include "fft2d.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Plan for length @n (1 .. SHARPNESS_FFT_MAX_LENGTH); NULL when @n is out
 * of range or memory runs out. */
SharpnessFft1d *sharpness_fft1d_new (int n);
void sharpness_fft1d_free (SharpnessFft1d * plan);

/* TRUE when the plan goes through Bluestein's algorithm. */
int sharpness_fft1d_is_bluestein (const SharpnessFft1d * plan);

/* In-place transform of the @n contiguous values at @data. */
void sharpness_fft1d_execute (SharpnessFft1d * plan, SharpnessComplex * data,
    SharpnessFftDirection dir);

#ifdef __cplusplus
}
#endif
#endif /* SHARPNESS_FFT2D_PRIVATE_H */
