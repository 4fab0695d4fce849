/* What every compare source shares: the pair's checks, the scratch
 * buffers the SSIM modes grow, and SSIM in decibels (FFmpeg's ssim_db),
 * so that compare-ffmpeg.c and compare-wang.c call down into one file
 * rather than into each other.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "compare-private.h"

#include <math.h>
#include <stdlib.h>

SharpnessStatus
compare_pair_check (const ComparePair * pair)
{
  if (!pair || pair->n_planes < 1 || pair->n_planes > COMPARE_MAX_PLANES
      || pair->depth < 8 || pair->depth > 16)
    return SHARPNESS_ERROR_INVALID;
  for (int c = 0; c < pair->n_planes; c++) {
    size_t row = (size_t) pair->width[c] * compare_bytes (pair);
    if (pair->width[c] <= 0 || pair->height[c] <= 0 || !pair->ref[c]
        || !pair->dist[c] || pair->ref_stride[c] < row
        || pair->dist_stride[c] < row)
      return SHARPNESS_ERROR_INVALID;
  }
  return SHARPNESS_OK;
}

CompareScratch *
compare_scratch_new (void)
{
  return calloc (1, sizeof (CompareScratch));
}

void
compare_scratch_free (CompareScratch * scratch)
{
  if (!scratch)
    return;
  for (int i = 0; i < COMPARE_N_BUFS; i++)
    free (scratch->buf[i]);
  free (scratch);
}

SharpnessStatus
compare_scratch_reserve (CompareScratch * scratch, int which, size_t size)
{
  void *p;

  if (scratch->cap[which] >= size)
    return SHARPNESS_OK;
  p = realloc (scratch->buf[which], size);
  if (!p)
    return SHARPNESS_ERROR_NO_MEMORY;
  scratch->buf[which] = p;
  scratch->cap[which] = size;
  return SHARPNESS_OK;
}

double
compare_ssim_db (double ssim, double weight)
{
  return (fabs (weight - ssim) > 1e-9) ?
      10.0 * log10 (weight / (weight - ssim)) : INFINITY;
}
