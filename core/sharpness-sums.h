/* Exact integer sums of the classical metrics and the one function that
 * turns them into a score.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Every backend accumulates the same integer per-pixel terms into these
 * fields; sharpness_score_from_sums() is the only place a double appears, so
 * backends that agree on the sums agree on the score to the last bit.
 */
#ifndef SHARPNESS_SUMS_H
#define SHARPNESS_SUMS_H

#include <stdint.h>

#include "sharpness-metric.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct
{
  /* Sum of the metric's per-pixel terms (variance: the sum of g). */
  uint64_t sum;
  /* variance only: the sum of g squared. */
  uint64_t sum_sq;
  /* entropy only: hist[k] = number of pixels whose gray level is k. */
  uint64_t hist[256];
  /* blur-effect only, per axis (0: down the rows, 1: along them): M1, the
   * sum of the frame's variations, and M2, the sum of what the re-blur
   * takes away from them (docs/reference/metrics.md). */
  uint64_t blur_m1[2];
  uint64_t blur_m2[2];
} SharpnessSums;

/* Score of a SHARPNESS_KIND_SUMS metric from its sums over a
 * @width x @height frame (docs/reference/metrics.md); 0 for an empty frame. */
double sharpness_score_from_sums (SharpnessMetric metric,
    const SharpnessSums * sums, int width, int height);

#ifdef __cplusplus
}
#endif
#endif /* SHARPNESS_SUMS_H */
