/* The shared final step of the classical metrics.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "sharpness-sums.h"

#include <math.h>

/* Population variance from exact sums: (N*S2 - S1^2) / N^2.  The numerator
 * is exact in 128 bits (N*S2 < 2^26 * 2^42 for 8K frames), and equals the
 * sum of squared deviations times N, so it is never negative. */
static double
variance_from_sums (uint64_t s1, uint64_t s2, uint64_t n)
{
  unsigned __int128 num = (unsigned __int128) n * s2 - (unsigned __int128) s1 * s1;
  double dn = (double) n;
  return (double) num / (dn * dn);
}

static double
entropy_from_histogram (const uint64_t hist[256], uint64_t n)
{
  double e = 0.0;
  for (int k = 0; k < 256; k++) {
    if (hist[k] > 0) {
      double p = (double) hist[k] / (double) n;
      e -= p * log2 (p);
    }
  }
  /* -0.0 for a flat frame reads oddly in messages. */
  return e > 0.0 ? e : 0.0;
}

/* Per axis (M1 - M2) / M1, the share of the variation the re-blur leaves
 * (M2 <= M1 term by term); the worse axis.  An axis with no variation at
 * all (M1 = 0) has no say; a frame with none on either axis (flat, or
 * below 4x4: no interior) scores 1, the blurriest.  Each ratio is one
 * correctly rounded division of exact integers (below 2^53). */
static double
blur_effect_from_sums (const uint64_t m1[2], const uint64_t m2[2])
{
  double worst = -1.0;
  for (int ax = 0; ax < 2; ax++) {
    if (m1[ax] > 0) {
      double b = (double) (m1[ax] - m2[ax]) / (double) m1[ax];
      worst = b > worst ? b : worst;
    }
  }
  return worst < 0.0 ? 1.0 : worst;
}

double
sharpness_score_from_sums (SharpnessMetric metric, const SharpnessSums * sums,
    int width, int height)
{
  if (width <= 0 || height <= 0)
    return 0.0;
  uint64_t n = (uint64_t) width * (uint64_t) height;

  switch (metric) {
    case SHARPNESS_METRIC_VARIANCE:
      return variance_from_sums (sums->sum, sums->sum_sq, n);
    case SHARPNESS_METRIC_ENTROPY:
      return entropy_from_histogram (sums->hist, n);
    case SHARPNESS_METRIC_BLUR_EFFECT:
      return blur_effect_from_sums (sums->blur_m1, sums->blur_m2);
    default:
      return (double) sums->sum / (double) n;
  }
}
