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
    default:
      return (double) sums->sum / (double) n;
  }
}
