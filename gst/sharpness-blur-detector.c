/* Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "sharpness-blur-detector.h"

#include <math.h>
#include <string.h>

struct _SharpnessBlurDetector
{
  SharpnessMetric metric;
  guint window;                 /* capacity of ring and scratch */
  guint count;                  /* scores held, <= window */
  guint head;                   /* slot the next score goes to */
  gdouble *ring;
  gdouble *scratch;             /* reordered by the median search */
};

SharpnessBlurDetector *
sharpness_blur_detector_new (SharpnessMetric metric, guint window)
{
  SharpnessBlurDetector *det;

  g_return_val_if_fail (window >= 1, NULL);

  det = g_new0 (SharpnessBlurDetector, 1);
  det->metric = metric;
  det->window = window;
  det->ring = g_new (gdouble, window);
  det->scratch = g_new (gdouble, window);
  return det;
}

void
sharpness_blur_detector_free (SharpnessBlurDetector * det)
{
  if (!det)
    return;
  g_free (det->ring);
  g_free (det->scratch);
  g_free (det);
}

void
sharpness_blur_detector_reset (SharpnessBlurDetector * det)
{
  det->count = 0;
  det->head = 0;
}

void
sharpness_blur_detector_configure (SharpnessBlurDetector * det,
    SharpnessMetric metric, guint window)
{
  g_return_if_fail (window >= 1);

  if (metric == det->metric && window == det->window)
    return;

  if (window != det->window) {
    g_free (det->ring);
    g_free (det->scratch);
    det->ring = g_new (gdouble, window);
    det->scratch = g_new (gdouble, window);
    det->window = window;
  }
  det->metric = metric;
  sharpness_blur_detector_reset (det);
}

guint
sharpness_blur_detector_get_count (const SharpnessBlurDetector * det)
{
  return det->count;
}

/* Wirth's selection: reorders @a so that a[k] is the k-th smallest value,
 * with a[0..k-1] <= a[k] <= a[k+1..n-1]. */
static gdouble
select_kth (gdouble * a, gint n, gint k)
{
  gint lo = 0, hi = n - 1;

  while (lo < hi) {
    gdouble pivot = a[k];
    gint i = lo, j = hi;

    do {
      while (a[i] < pivot)
        i++;
      while (pivot < a[j])
        j--;
      if (i <= j) {
        gdouble t = a[i];
        a[i] = a[j];
        a[j] = t;
        i++;
        j--;
      }
    } while (i <= j);

    if (j < k)
      lo = i;
    if (k < i)
      hi = j;
  }
  return a[k];
}

gboolean
sharpness_blur_detector_get_median (SharpnessBlurDetector * det,
    gdouble * median)
{
  gint n = det->count, k = n / 2;
  gdouble upper, lower;

  if (n == 0)
    return FALSE;

  /* The ring's order does not matter for a median: copy it as it is. */
  memcpy (det->scratch, det->ring, n * sizeof (gdouble));
  upper = select_kth (det->scratch, n, k);
  if (n % 2) {
    *median = upper;
    return TRUE;
  }

  /* Even count: the lower middle is the largest value left of k. */
  lower = det->scratch[0];
  for (gint i = 1; i < k; i++)
    lower = MAX (lower, det->scratch[i]);
  *median = (lower + upper) / 2.0;
  return TRUE;
}

static gboolean
is_worse_than_median (SharpnessBlurDetector * det, gdouble score,
    gdouble relative)
{
  gdouble median;

  if (relative <= 0.0 || det->count < det->window ||
      !sharpness_blur_detector_get_median (det, &median))
    return FALSE;

  /* score < r * median, or score > median / r written without a division. */
  if (sharpness_metric_info[det->metric].direction ==
      SHARPNESS_LOWER_IS_SHARPER)
    return score * relative > median;
  return score < relative * median;
}

gboolean
sharpness_blur_detector_push (SharpnessBlurDetector * det, gdouble score,
    gdouble threshold, gdouble relative)
{
  gboolean blurry;

  if (!isfinite (score))
    return FALSE;

  blurry = (threshold > 0.0 &&
      sharpness_metric_is_worse (det->metric, score, threshold)) ||
      is_worse_than_median (det, score, relative);

  det->ring[det->head] = score;
  det->head = (det->head + 1) % det->window;
  if (det->count < det->window)
    det->count++;
  return blurry;
}
