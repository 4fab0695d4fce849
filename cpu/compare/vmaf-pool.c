/* VMAF's pooled values over a sequence, as libvmaf's
 * vmaf_feature_score_pooled: min, max, mean and the harmonic mean of
 * (score + 1) less 1, summed in frame order.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include "vmaf.h"

void
compare_vmaf_pool_init (CompareVmafPool * p)
{
  p->n = 0;
  p->min = p->max = p->sum = p->i_sum = 0.;
}

void
compare_vmaf_pool_add (CompareVmafPool * p, double s)
{
  p->sum += s;
  p->i_sum += 1. / (s + 1.);
  if (p->n == 0 || s < p->min)
    p->min = s;
  if (p->n == 0 || s > p->max)
    p->max = s;
  p->n++;
}

void
compare_vmaf_pool_result (const CompareVmafPool * p,
    double pooled[COMPARE_VMAF_N_POOLS])
{
  pooled[COMPARE_VMAF_POOL_MIN] = p->min;
  pooled[COMPARE_VMAF_POOL_MAX] = p->max;
  pooled[COMPARE_VMAF_POOL_MEAN] = p->sum / p->n;
  pooled[COMPARE_VMAF_POOL_HARMONIC_MEAN] = p->n / p->i_sum - 1.0;
}

double
compare_vmaf_percentile (const double *sorted, uint64_t n, double p)
{
  double rank, frac;
  uint64_t lo;

  if (n == 0)
    return NAN;
  rank = p / 100.0 * (double) (n - 1);
  if (rank <= 0.0)
    return sorted[0];
  if (rank >= (double) (n - 1))
    return sorted[n - 1];
  lo = (uint64_t) rank;
  frac = rank - (double) lo;
  /* numpy's _lerp: a + (b - a) t, from the nearer end for t >= 0.5. */
  if (frac >= 0.5)
    return sorted[lo + 1] - (sorted[lo + 1] - sorted[lo]) * (1.0 - frac);
  return sorted[lo] + (sorted[lo + 1] - sorted[lo]) * frac;
}
