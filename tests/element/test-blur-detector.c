/* Unit test of the blur detector: median, direction, window fill, reset.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdlib.h>

#include "sharpness-blur-detector.h"

static int failures;

#define CHECK(cond) G_STMT_START {                                      \
  if (!(cond)) {                                                        \
    g_printerr ("%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
    failures++;                                                         \
  }                                                                     \
} G_STMT_END

static SharpnessMetric
metric_with_direction (SharpnessDirection direction)
{
  for (gint m = 0; m < SHARPNESS_METRIC_COUNT; m++)
    if (sharpness_metric_info[m].direction == direction)
      return (SharpnessMetric) m;
  g_error ("no metric with direction %d in the table", direction);
}

static int
cmp_double (const void *a, const void *b)
{
  gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;
  return (x > y) - (x < y);
}

/* Median by sorting: the definition the detector must match. */
static gdouble
sorted_median (const gdouble * v, guint n)
{
  gdouble *s = g_memdup2 (v, n * sizeof (gdouble));
  gdouble m;

  qsort (s, n, sizeof (gdouble), cmp_double);
  m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2.0;
  g_free (s);
  return m;
}

static void
test_median (void)
{
  SharpnessMetric metric = metric_with_direction (SHARPNESS_HIGHER_IS_SHARPER);
  GRand *rand = g_rand_new_with_seed (1234);
  gdouble m;

  /* Hand-checked cases, odd and even counts. */
  {
    SharpnessBlurDetector *det = sharpness_blur_detector_new (metric, 4);

    CHECK (!sharpness_blur_detector_get_median (det, &m));
    sharpness_blur_detector_push (det, 5.0, 0, 0);
    CHECK (sharpness_blur_detector_get_median (det, &m) && m == 5.0);
    sharpness_blur_detector_push (det, 1.0, 0, 0);
    CHECK (sharpness_blur_detector_get_median (det, &m) && m == 3.0);
    sharpness_blur_detector_push (det, 9.0, 0, 0);
    CHECK (sharpness_blur_detector_get_median (det, &m) && m == 5.0);
    sharpness_blur_detector_push (det, 2.0, 0, 0);
    CHECK (sharpness_blur_detector_get_median (det, &m) && m == 3.5);
    /* The ring drops the oldest (5): {1, 9, 2, 7} -> (2 + 7) / 2. */
    sharpness_blur_detector_push (det, 7.0, 0, 0);
    CHECK (sharpness_blur_detector_get_count (det) == 4);
    CHECK (sharpness_blur_detector_get_median (det, &m) && m == 4.5);
    sharpness_blur_detector_free (det);
  }

  /* Random windows, with duplicates, against the sorted definition over
   * the last `window` values. */
  for (guint window = 1; window <= 40; window++) {
    SharpnessBlurDetector *det = sharpness_blur_detector_new (metric, window);
    gdouble *all = g_new (gdouble, 3 * window);

    for (guint i = 0; i < 3 * window; i++) {
      guint n = MIN (i + 1, window);

      all[i] = g_rand_int_range (rand, 0, 8) * 0.5;     /* many ties */
      if (g_rand_boolean (rand))
        all[i] = g_rand_double_range (rand, -100, 100);
      sharpness_blur_detector_push (det, all[i], 0, 0);
      CHECK (sharpness_blur_detector_get_count (det) == n);
      CHECK (sharpness_blur_detector_get_median (det, &m));
      CHECK (m == sorted_median (all + i + 1 - n, n));
    }
    g_free (all);
    sharpness_blur_detector_free (det);
  }
  g_rand_free (rand);
}

static void
test_absolute_threshold (void)
{
  SharpnessMetric hi = metric_with_direction (SHARPNESS_HIGHER_IS_SHARPER);
  SharpnessMetric lo = metric_with_direction (SHARPNESS_LOWER_IS_SHARPER);
  SharpnessBlurDetector *det = sharpness_blur_detector_new (hi, 3);

  /* Higher is sharper: below the threshold is blurry, equal is not. */
  CHECK (sharpness_blur_detector_push (det, 0.0, 1.0, 0));
  CHECK (sharpness_blur_detector_push (det, 0.99, 1.0, 0));
  CHECK (!sharpness_blur_detector_push (det, 1.0, 1.0, 0));
  CHECK (!sharpness_blur_detector_push (det, 50.0, 1.0, 0));
  /* Threshold 0 is off, even for a score of 0. */
  CHECK (!sharpness_blur_detector_push (det, 0.0, 0.0, 0));

  /* Lower is sharper: above the threshold is blurry. */
  sharpness_blur_detector_configure (det, lo, 3);
  CHECK (sharpness_blur_detector_push (det, 60.0, 50.0, 0));
  CHECK (!sharpness_blur_detector_push (det, 50.0, 50.0, 0));
  CHECK (!sharpness_blur_detector_push (det, 10.0, 50.0, 0));
  CHECK (!sharpness_blur_detector_push (det, 0.0, 50.0, 0));

  /* Non-finite scores are never blurry and never recorded. */
  sharpness_blur_detector_reset (det);
  CHECK (!sharpness_blur_detector_push (det, NAN, 50.0, 0));
  CHECK (!sharpness_blur_detector_push (det, INFINITY, 50.0, 0));
  CHECK (sharpness_blur_detector_get_count (det) == 0);
  sharpness_blur_detector_free (det);
}

static void
test_relative_threshold (void)
{
  SharpnessMetric hi = metric_with_direction (SHARPNESS_HIGHER_IS_SHARPER);
  SharpnessMetric lo = metric_with_direction (SHARPNESS_LOWER_IS_SHARPER);
  SharpnessBlurDetector *det = sharpness_blur_detector_new (hi, 3);

  /* No relative decision until `window` previous scores exist. */
  CHECK (!sharpness_blur_detector_push (det, 10.0, 0, 0.5));
  CHECK (!sharpness_blur_detector_push (det, 0.0, 0, 0.5));
  CHECK (!sharpness_blur_detector_push (det, 12.0, 0, 0.5));
  /* History {10, 0, 12}: median 10, limit 5. */
  CHECK (sharpness_blur_detector_push (det, 4.9, 0, 0.5));
  /* History {0, 12, 4.9}: median 4.9, limit 2.45. */
  CHECK (!sharpness_blur_detector_push (det, 2.45, 0, 0.5));
  /* History {12, 4.9, 2.45}: median 4.9. */
  CHECK (sharpness_blur_detector_push (det, 2.4, 0, 0.5));
  /* Relative 0 is off. */
  CHECK (!sharpness_blur_detector_push (det, 0.0, 0, 0.0));

  /* Either test flags: absolute alone, relative alone. */
  sharpness_blur_detector_reset (det);
  for (gint i = 0; i < 3; i++)
    sharpness_blur_detector_push (det, 100.0, 0, 0);
  CHECK (sharpness_blur_detector_push (det, 60.0, 70.0, 0.5));  /* absolute */
  CHECK (sharpness_blur_detector_push (det, 40.0, 10.0, 0.5));  /* relative */
  CHECK (!sharpness_blur_detector_push (det, 90.0, 10.0, 0.5));

  /* Lower is sharper: blurry above median / relative. */
  sharpness_blur_detector_configure (det, lo, 3);
  for (gint i = 0; i < 3; i++)
    CHECK (!sharpness_blur_detector_push (det, 20.0, 0, 0.5));
  CHECK (!sharpness_blur_detector_push (det, 40.0, 0, 0.5));    /* == 20 / .5 */
  CHECK (sharpness_blur_detector_push (det, 40.1, 0, 0.5));
  CHECK (!sharpness_blur_detector_push (det, 1.0, 0, 0.5));
  sharpness_blur_detector_free (det);
}

static void
test_reset (void)
{
  SharpnessMetric hi = metric_with_direction (SHARPNESS_HIGHER_IS_SHARPER);
  SharpnessMetric lo = metric_with_direction (SHARPNESS_LOWER_IS_SHARPER);
  SharpnessBlurDetector *det = sharpness_blur_detector_new (hi, 2);

  sharpness_blur_detector_push (det, 10.0, 0, 0);
  sharpness_blur_detector_push (det, 10.0, 0, 0);
  CHECK (sharpness_blur_detector_push (det, 1.0, 0, 0.5));

  /* The same configuration keeps the history... */
  sharpness_blur_detector_configure (det, hi, 2);
  CHECK (sharpness_blur_detector_get_count (det) == 2);
  /* ...a new window or metric, and reset, empty it. */
  sharpness_blur_detector_configure (det, hi, 5);
  CHECK (sharpness_blur_detector_get_count (det) == 0);
  CHECK (!sharpness_blur_detector_push (det, 1.0, 0, 0.5));
  sharpness_blur_detector_configure (det, lo, 5);
  CHECK (sharpness_blur_detector_get_count (det) == 0);
  sharpness_blur_detector_push (det, 1.0, 0, 0);
  sharpness_blur_detector_reset (det);
  CHECK (sharpness_blur_detector_get_count (det) == 0);
  sharpness_blur_detector_free (det);
}

int
main (void)
{
  test_median ();
  test_absolute_threshold ();
  test_relative_threshold ();
  test_reset ();
  if (failures)
    g_printerr ("%d check(s) failed\n", failures);
  else
    g_print ("blur detector: all checks passed\n");
  return failures ? 1 : 0;
}
