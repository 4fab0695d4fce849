/* The classical metrics' sums, of frames and of tiles, compared as the
 * tests compare them.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef TEST_SUMS_H
#define TEST_SUMS_H

#include "sharpness-sums.h"
#include "sharpness-tiles.h"

/* Nonzero when @a and @b hold the same sums of @metric: entropy's
 * histogram, blur-effect's M1 and M2 per axis, the sum and the sum of
 * squares of every other metric (only variance fills the latter; the
 * others leave it 0 on every backend, which this checks too). */
int test_sums_equal (SharpnessMetric metric, const SharpnessSums * a,
    const SharpnessSums * b);

/* Nonzero when @a and @b hold the same grid and the same tile sums of
 * @metric: entropy's histograms, the sums, and variance's sums of
 * squares. */
int test_tile_sums_equal (SharpnessMetric metric,
    const SharpnessTileSums * a, const SharpnessTileSums * b);

#endif /* TEST_SUMS_H */
