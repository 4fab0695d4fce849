/* The classical metrics' sums, of frames and of tiles, compared as the
 * tests compare them.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "test-sums.h"

int
test_sums_equal (SharpnessMetric metric, const SharpnessSums * a,
    const SharpnessSums * b)
{
  if (metric == SHARPNESS_METRIC_ENTROPY)
    return memcmp (a->hist, b->hist, sizeof a->hist) == 0;
  if (metric == SHARPNESS_METRIC_BLUR_EFFECT)
    return memcmp (a->blur_m1, b->blur_m1, sizeof a->blur_m1) == 0 &&
        memcmp (a->blur_m2, b->blur_m2, sizeof a->blur_m2) == 0;
  return a->sum == b->sum && a->sum_sq == b->sum_sq;
}

int
test_tile_sums_equal (SharpnessMetric metric, const SharpnessTileSums * a,
    const SharpnessTileSums * b)
{
  const size_t n = (size_t) a->cols * a->rows;

  if (a->cols != b->cols || a->rows != b->rows)
    return 0;
  if (metric == SHARPNESS_METRIC_ENTROPY)
    return memcmp (a->hist, b->hist, n * 256 * sizeof *a->hist) == 0;
  return memcmp (a->sum, b->sum, n * sizeof *a->sum) == 0 &&
      (metric != SHARPNESS_METRIC_VARIANCE ||
      memcmp (a->sum_sq, b->sum_sq, n * sizeof *a->sum_sq) == 0);
}
