/* Unit test of the blur detector (median, direction, window fill, reset,
 * blurry frames kept out of the reference, re-seeding at cuts, at the end
 * of a blur and of a stale reference, the content signature, blur told
 * from flat by a collapse within a shot) and of the
 * segment tracker behind the alarms and sharpness-scan.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdlib.h>

#include "sharpness-blur-detector.h"
#include "sharpness-blur-segments.h"

#include "test-check.h"
#include "test-stats.h"

static SharpnessMetric
metric_with_direction (SharpnessDirection direction)
{
  for (gint m = 0; m < SHARPNESS_METRIC_COUNT; m++)
    if (sharpness_metric_info[m].direction == direction)
      return (SharpnessMetric) m;
  g_error ("no metric with direction %d in the table", direction);
}

/* Median by sorting: the definition the detector must match. */
static gdouble
sorted_median (const gdouble * v, guint n)
{
  gdouble *s = g_memdup2 (v, n * sizeof (gdouble));
  gdouble m;

  qsort (s, n, sizeof (gdouble), test_cmp_double);
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
  gdouble m;

  /* No relative decision until SHARPNESS_SEED_FRAMES (here the whole
   * window) previous scores exist. */
  CHECK (!sharpness_blur_detector_push (det, 10.0, 0, 0.5));
  CHECK (!sharpness_blur_detector_push (det, 4.0, 0, 0.5));
  CHECK (!sharpness_blur_detector_push (det, 12.0, 0, 0.5));
  /* History {10, 4, 12}: median 10, limit 5. */
  CHECK (sharpness_blur_detector_push (det, 4.9, 0, 0.5));
  /* Blurry frames stay out of the history: still {10, 4, 12}. */
  CHECK (sharpness_blur_detector_get_count (det) == 3);
  CHECK (sharpness_blur_detector_push (det, 4.9, 0, 0.5));
  CHECK (sharpness_blur_detector_push (det, 3.0, 0, 0.5));
  CHECK (sharpness_blur_detector_get_median (det, &m) && m == 10.0);
  /* At the limit: sharp, and it enters: {4, 12, 5}. */
  CHECK (!sharpness_blur_detector_push (det, 5.0, 0, 0.5));
  CHECK (sharpness_blur_detector_get_median (det, &m) && m == 5.0);
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
fill (SharpnessBlurDetector * det, gdouble score, guint n,
    const SharpnessSignature * sig)
{
  for (guint i = 0; i < n; i++)
    CHECK (!sharpness_blur_detector_push_frame (det, score, sig, 0, 0.5));
}

static void
uniform_signature (SharpnessSignature * sig, gfloat level)
{
  sig->valid = TRUE;
  for (guint c = 0; c < G_N_ELEMENTS (sig->cell); c++)
    sig->cell[c] = level;
}

static void
test_reseed (void)
{
  SharpnessMetric hi = metric_with_direction (SHARPNESS_HIGHER_IS_SHARPER);
  SharpnessMetric lo = metric_with_direction (SHARPNESS_LOWER_IS_SHARPER);
  SharpnessBlurDetector *det = sharpness_blur_detector_new (hi, 3);
  SharpnessSignature a, b, a2;
  gdouble m;

  uniform_signature (&a, 50);
  uniform_signature (&b, 150);
  uniform_signature (&a2, 50 + SHARPNESS_CUT_DISTANCE * 0.9f);

  /* The same content at 0.3x the reference: a blur. */
  fill (det, 100, 3, &a);
  CHECK (sharpness_blur_detector_push_frame (det, 30, &a, 0, 0.5));
  CHECK (!sharpness_blur_detector_last_was_cut (det));
  /* A small content change is no cut. */
  CHECK (sharpness_blur_detector_push_frame (det, 30, &a2, 0, 0.5));
  CHECK (!sharpness_blur_detector_last_was_cut (det));

  /* A cut to a less detailed shot: not blurry, and it restarts the
   * history, which decides again after SHARPNESS_SEED_FRAMES. */
  sharpness_blur_detector_reset (det);
  fill (det, 100, 3, &a);
  CHECK (!sharpness_blur_detector_push_frame (det, 30, &b, 0, 0.5));
  CHECK (sharpness_blur_detector_last_was_cut (det));
  CHECK (sharpness_blur_detector_get_count (det) == 1);
  CHECK (!sharpness_blur_detector_push_frame (det, 30, &b, 0, 0.5));
  CHECK (!sharpness_blur_detector_push_frame (det, 30, &b, 0, 0.5));
  CHECK (sharpness_blur_detector_push_frame (det, 10, &b, 0, 0.5));
  /* The absolute test still applies on a cut. */
  CHECK (sharpness_blur_detector_push_frame (det, 1, &a, 5, 0.5));
  /* Without signatures, no cut. */
  sharpness_blur_detector_reset (det);
  fill (det, 100, 3, NULL);
  CHECK (sharpness_blur_detector_push_frame (det, 30, NULL, 0, 0.5));

  /* The end of a blur: a rise of more than 1/sqrt(r) over the blur's
   * level, still under r x the old reference, restarts the history. */
  sharpness_blur_detector_reset (det);
  fill (det, 100, 3, NULL);
  CHECK (sharpness_blur_detector_push (det, 10, 0, 0.5));
  CHECK (sharpness_blur_detector_push (det, 10, 0, 0.5));
  /* 14 < 10 x sqrt 2: still the blur. */
  CHECK (sharpness_blur_detector_push (det, 14, 0, 0.5));
  CHECK (sharpness_blur_detector_push (det, 40, 0, 0.5) == FALSE);
  CHECK (sharpness_blur_detector_get_count (det) == 1);
  CHECK (sharpness_blur_detector_get_median (det, &m) && m == 40);
  /* The end of any blur restarts the history, a one-frame glitch's too
   * (even when the next frame is sharp by the old reference). */
  sharpness_blur_detector_reset (det);
  fill (det, 100, 3, NULL);
  CHECK (sharpness_blur_detector_push (det, 10, 0, 0.5));
  CHECK (!sharpness_blur_detector_push (det, 100, 0, 0.5));
  CHECK (sharpness_blur_detector_get_count (det) == 1);
  /* Not while the absolute test still flags the frame: that is still the
   * blur. */
  sharpness_blur_detector_reset (det);
  fill (det, 100, 3, NULL);
  CHECK (sharpness_blur_detector_push (det, 10, 0, 0.5));
  CHECK (sharpness_blur_detector_push (det, 40, 50, 0.5));
  CHECK (sharpness_blur_detector_get_count (det) == 3);

  /* Lower is sharper: the same, mirrored. */
  sharpness_blur_detector_configure (det, lo, 3);
  fill (det, 10, 3, NULL);
  CHECK (sharpness_blur_detector_push (det, 50, 0, 0.5));
  CHECK (sharpness_blur_detector_push (det, 50, 0, 0.5));
  CHECK (!sharpness_blur_detector_push (det, 25, 0, 0.5));    /* recovery */
  CHECK (sharpness_blur_detector_get_count (det) == 1);

  /* A stale reference (no sharp frame for SHARPNESS_STALE_WINDOWS
   * windows) is dropped. */
  sharpness_blur_detector_configure (det, hi, 1);
  fill (det, 100, 1, NULL);
  for (guint i = 0; i < SHARPNESS_STALE_WINDOWS; i++)
    CHECK (sharpness_blur_detector_push (det, 10, 0, 0.5));
  CHECK (!sharpness_blur_detector_push (det, 10, 0, 0.5));
  CHECK (!sharpness_blur_detector_push (det, 10, 0, 0.5));
  sharpness_blur_detector_free (det);
}

/* A blur in the first window frames of a file: judged as soon as
 * SHARPNESS_SEED_FRAMES sharp frames make a reference, not after a whole
 * window of frames (which the blur itself would then join). */
static void
test_early_frames (void)
{
  SharpnessMetric hi = metric_with_direction (SHARPNESS_HIGHER_IS_SHARPER);
  SharpnessMetric lo = metric_with_direction (SHARPNESS_LOWER_IS_SHARPER);
  SharpnessBlurDetector *det = sharpness_blur_detector_new (hi, 25);
  gdouble m;

  for (guint i = 0; i < SHARPNESS_SEED_FRAMES; i++)
    CHECK (!sharpness_blur_detector_push (det, 100, 0, 0.5));
  for (guint i = 0; i < 10; i++)
    CHECK (sharpness_blur_detector_push (det, 30, 0, 0.5));
  /* The blur stayed out: the reference is still the sharp frames. */
  CHECK (sharpness_blur_detector_get_count (det) == SHARPNESS_SEED_FRAMES);
  CHECK (sharpness_blur_detector_get_median (det, &m) && m == 100);
  CHECK (!sharpness_blur_detector_push (det, 100, 0, 0.5));

  /* Fewer frames than the seed: no reference, no relative verdict. */
  sharpness_blur_detector_reset (det);
  for (guint i = 0; i + 1 < SHARPNESS_SEED_FRAMES; i++)
    sharpness_blur_detector_push (det, 100, 0, 0.5);
  CHECK (!sharpness_blur_detector_push (det, 30, 0, 0.5));

  /* The same after a reset, mirrored for lower-is-sharper metrics. */
  sharpness_blur_detector_configure (det, lo, 25);
  for (guint i = 0; i < SHARPNESS_SEED_FRAMES; i++)
    CHECK (!sharpness_blur_detector_push (det, 0.3, 0, 0.5));
  CHECK (sharpness_blur_detector_push (det, 0.7, 0, 0.5));
  sharpness_blur_detector_free (det);
}

/* A file (or a shot after a cut) that opens out of focus: its first frames
 * are the only reference there is, but the first frame far sharper than
 * that reference (by more than 1 / relative) proves it blurry: the history
 * restarts from that frame, so the blurry opening is not the norm the rest
 * of the shot is judged by. */
static void
test_blurry_opening (void)
{
  SharpnessMetric hi = metric_with_direction (SHARPNESS_HIGHER_IS_SHARPER);
  SharpnessMetric lo = metric_with_direction (SHARPNESS_LOWER_IS_SHARPER);
  SharpnessBlurDetector *det = sharpness_blur_detector_new (hi, 25);
  SharpnessSignature a, b;
  gdouble m;

  /* Opens blurred (30), focus found (100), a later blur (40). */
  for (guint i = 0; i < 10; i++)
    CHECK (!sharpness_blur_detector_push (det, 30, 0, 0.5));
  CHECK (!sharpness_blur_detector_push (det, 100, 0, 0.5));
  CHECK (sharpness_blur_detector_get_count (det) == 1);
  CHECK (sharpness_blur_detector_get_median (det, &m) && m == 100);
  for (guint i = 0; i < SHARPNESS_SEED_FRAMES; i++)
    CHECK (!sharpness_blur_detector_push (det, 100, 0, 0.5));
  CHECK (sharpness_blur_detector_push (det, 40, 0, 0.5));

  /* Twice the reference exactly is no proof: the history goes on. */
  sharpness_blur_detector_reset (det);
  for (guint i = 0; i < 4; i++)
    sharpness_blur_detector_push (det, 50, 0, 0.5);
  CHECK (!sharpness_blur_detector_push (det, 100, 0, 0.5));
  CHECK (sharpness_blur_detector_get_count (det) == 5);

  /* A cut to a shot out of focus from its first frame: the blurry frames
   * seed the new reference until the focus is found. */
  uniform_signature (&a, 50);
  uniform_signature (&b, 150);
  sharpness_blur_detector_reset (det);
  fill (det, 100, 25, &a);
  CHECK (!sharpness_blur_detector_push_frame (det, 30, &b, 0, 0.5));
  CHECK (sharpness_blur_detector_last_was_cut (det));
  for (guint i = 0; i < 10; i++)
    CHECK (!sharpness_blur_detector_push_frame (det, 30, &b, 0, 0.5));
  CHECK (!sharpness_blur_detector_push_frame (det, 100, &b, 0, 0.5));
  for (guint i = 0; i < SHARPNESS_SEED_FRAMES; i++)
    CHECK (!sharpness_blur_detector_push_frame (det, 100, &b, 0, 0.5));
  CHECK (sharpness_blur_detector_push_frame (det, 40, &b, 0, 0.5));

  /* Lower is sharper: far better is below median x relative. */
  sharpness_blur_detector_configure (det, lo, 25);
  for (guint i = 0; i < 10; i++)
    CHECK (!sharpness_blur_detector_push (det, 0.8, 0, 0.5));
  CHECK (!sharpness_blur_detector_push (det, 0.3, 0, 0.5));
  CHECK (sharpness_blur_detector_get_count (det) == 1);
  for (guint i = 0; i < SHARPNESS_SEED_FRAMES; i++)
    CHECK (!sharpness_blur_detector_push (det, 0.3, 0, 0.5));
  CHECK (sharpness_blur_detector_push (det, 0.7, 0, 0.5));
  sharpness_blur_detector_free (det);
}

/* Blurry frames never enter the history, whichever test flags them: the
 * absolute test keeps a blurry opening out too. */
static void
test_absolute_keeps_out (void)
{
  SharpnessMetric hi = metric_with_direction (SHARPNESS_HIGHER_IS_SHARPER);
  SharpnessBlurDetector *det = sharpness_blur_detector_new (hi, 25);

  for (guint i = 0; i < 10; i++)
    CHECK (sharpness_blur_detector_push (det, 30, 50, 0.5));
  CHECK (sharpness_blur_detector_get_count (det) == 0);
  for (guint i = 0; i < SHARPNESS_SEED_FRAMES; i++)
    CHECK (!sharpness_blur_detector_push (det, 100, 50, 0.5));
  /* The reference is the sharp frames alone: half of it is the limit. */
  CHECK (sharpness_blur_detector_push (det, 45, 0, 0.5));
  CHECK (!sharpness_blur_detector_push (det, 55, 0, 0.5));
  sharpness_blur_detector_free (det);
}

/* A fast pan changes the signature every frame by more than
 * SHARPNESS_CUT_DISTANCE: only a change far above the recent motion is a
 * cut, so the relative test keeps judging a panning shot. */
static void
test_pan_is_no_cut (void)
{
  SharpnessMetric hi = metric_with_direction (SHARPNESS_HIGHER_IS_SHARPER);
  SharpnessBlurDetector *det = sharpness_blur_detector_new (hi, 25);
  const gfloat step = 1.5f * SHARPNESS_CUT_DISTANCE;
  SharpnessSignature sig;

  /* Every frame 1.5 x SHARPNESS_CUT_DISTANCE from the previous one.  The
   * first change has no motion before it to compare with: the floor alone
   * makes it a cut. */
  for (guint i = 0; i < 10; i++) {
    uniform_signature (&sig, 100 + (i % 2) * step);
    CHECK (!sharpness_blur_detector_push_frame (det, 100, &sig, 0, 0.5));
    CHECK (sharpness_blur_detector_last_was_cut (det) == (i == 1));
  }
  CHECK (sharpness_blur_detector_get_count (det) == 9);
  /* A blur during the pan is judged (the last frame was at 100 + step). */
  uniform_signature (&sig, 100);
  CHECK (sharpness_blur_detector_push_frame (det, 30, &sig, 0, 0.5));
  CHECK (!sharpness_blur_detector_last_was_cut (det));
  /* A change far above the pan's own motion is a cut. */
  uniform_signature (&sig, 100 + (SHARPNESS_CUT_RATIO + 1) * step);
  CHECK (!sharpness_blur_detector_push_frame (det, 30, &sig, 0, 0.5));
  CHECK (sharpness_blur_detector_last_was_cut (det));
  sharpness_blur_detector_free (det);
}

/* A blur during a pan: the first frames after it show other content,
 * sharp but less detailed than the shot before the blur.  The end of the
 * blur restarts the reference even when its first frame passes the old
 * one, so the drift that follows is not taken for a blur. */
static void
test_blur_end_restarts (void)
{
  SharpnessMetric hi = metric_with_direction (SHARPNESS_HIGHER_IS_SHARPER);
  SharpnessBlurDetector *det = sharpness_blur_detector_new (hi, 25);
  const gdouble after[] = { 55, 52, 50, 48, 46, 45 };

  fill (det, 100, 20, NULL);
  for (guint i = 0; i < 5; i++)
    CHECK (sharpness_blur_detector_push (det, 20, 0, 0.5));
  for (guint i = 0; i < G_N_ELEMENTS (after); i++)
    CHECK (!sharpness_blur_detector_push (det, after[i], 0, 0.5));
  sharpness_blur_detector_free (det);
}

static void
test_signature (void)
{
  const gint w = SHARPNESS_SIGNATURE_MIN_SIZE * 2, h =
      SHARPNESS_SIGNATURE_MIN_SIZE;
  guint8 *left = g_malloc (w * h), *flat = g_malloc (w * h);
  SharpnessPlane p = {.samples = SHARPNESS_SAMPLES_Y8,.stride = w,
    .width = w,.height = h,.pixel_stride = 1
  };
  SharpnessSignature a, b;

  for (gint y = 0; y < h; y++)
    for (gint x = 0; x < w; x++) {
      left[y * w + x] = x < w / 2 ? 0 : 200;
      flat[y * w + x] = 100;
    }
  p.data = left;
  sharpness_signature_compute (&a, &p);
  p.data = flat;
  sharpness_signature_compute (&b, &p);
  CHECK (a.valid && b.valid);
  CHECK (a.cell[0] == 0 && a.cell[SHARPNESS_SIGNATURE_GRID - 1] == 200);
  CHECK (fabs (sharpness_signature_distance (&a, &b) - 100) < 1e-9);
  CHECK (sharpness_signature_distance (&a, &a) == 0);
  /* Too small to tell a cut from noise: no signature. */
  p.width = SHARPNESS_SIGNATURE_MIN_SIZE - 1;
  sharpness_signature_compute (&a, &p);
  CHECK (!a.valid && sharpness_signature_distance (&a, &b) < 0);
  g_free (left);
  g_free (flat);
}

/* Pushes @pattern ('b' blurry score 1, 's' sharp score 9; one frame per
 * 10 ns) and records the events as "S<first>@<i>" / "E<first>-<last>@<i>"
 * ("@eos" for finish). */
static gchar *
track (const gchar * pattern, guint64 min_duration, guint max_gap)
{
  SharpnessSegmentTracker t;
  SharpnessSegment seg;
  GString *log = g_string_new (NULL);

  sharpness_segment_tracker_init (&t, min_duration, max_gap, FALSE);
  for (guint i = 0; pattern[i]; i++) {
    SharpnessSegmentFrame f = { i, i * 10, 10, i * 10, i * 10,
      pattern[i] == 'b' ? 1.0 + i % 2 : 9.0, pattern[i] == 'b'
    };
    SharpnessSegmentEvent ev = sharpness_segment_tracker_push (&t, &f, &seg);
    if (ev == SHARPNESS_SEGMENT_START)
      g_string_append_printf (log, "S%" G_GUINT64_FORMAT "@%u ",
          seg.start_frame, i);
    else if (ev == SHARPNESS_SEGMENT_END)
      g_string_append_printf (log, "E%" G_GUINT64_FORMAT "-%" G_GUINT64_FORMAT
          "@%u ", seg.start_frame, seg.end_frame, i);
  }
  if (sharpness_segment_tracker_finish (&t, &seg) == SHARPNESS_SEGMENT_END)
    g_string_append_printf (log, "E%" G_GUINT64_FORMAT "-%" G_GUINT64_FORMAT
        "@eos ", seg.start_frame, seg.end_frame);
  return g_string_free (log, FALSE);
}

static void
check_track (const gchar * pattern, guint64 min_duration, guint max_gap,
    const gchar * want)
{
  gchar *got = track (pattern, min_duration, max_gap);

  if (g_strcmp0 (got, want) != 0) {
    g_printerr ("track %s (min %" G_GUINT64_FORMAT ", gap %u): got '%s', "
        "want '%s'\n", pattern, min_duration, max_gap, got, want);
    test_check_failures++;
  }
  g_free (got);
}

static void
test_segments (void)
{
  SharpnessSegmentTracker t;
  SharpnessSegment seg;

  /* min 30 ns = 3 frames. */
  check_track ("ssbbsssbbbbsss", 30, 2, "S7@9 E7-10@13 ");
  /* A gap of 2 joins, 3 splits. */
  check_track ("bbssbbsss", 30, 2, "S0@4 E0-5@8 ");
  check_track ("bbsssbbsss", 30, 2, "");
  check_track ("bbsbb", 30, 0, "");
  /* Duration 0: every run, even one frame. */
  check_track ("sbsss", 0, 2, "S1@1 E1-1@4 ");
  /* EOS inside a segment ends it; inside a short run, nothing. */
  check_track ("sbbbb", 30, 2, "S1@3 E1-4@eos ");
  check_track ("ssbb", 30, 2, "");

  /* Statistics: gaps count in the mean, the worst frame is found. */
  sharpness_segment_tracker_init (&t, 0, 1, FALSE);
  {
    const gdouble s[] = { 3, 9, 1, 2 };
    const gboolean b[] = { TRUE, FALSE, TRUE, TRUE };
    for (guint i = 0; i < 4; i++) {
      SharpnessSegmentFrame f = { i, i * 10, 10, i * 10, i * 10, s[i], b[i] };
      sharpness_segment_tracker_push (&t, &f, &seg);
    }
  }
  CHECK (sharpness_segment_tracker_finish (&t, &seg) ==
      SHARPNESS_SEGMENT_END);
  CHECK (seg.frames == 4 && seg.blurry_frames == 3);
  CHECK (seg.min_score == 1 && seg.max_score == 9);
  CHECK (sharpness_segment_mean (&seg) == 15.0 / 4);
  CHECK (seg.worst_frame == 2 && seg.worst_score == 1);
  CHECK (seg.start == 0 && seg.end == 40);
  CHECK (sharpness_segment_duration (&seg) == 40);
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

/* sharpness_blur_detector_judge: a collapse of structure and score within
 * a shot is a blur, never flat; a shot smooth from its start, or a fall
 * of the structure alone, is flat; the absolute test never judges a
 * frame with too little structure; flat frames stay out of the history;
 * a cut restarts the shot's reference. */
static void
test_collapse (void)
{
  SharpnessMetric lo = metric_with_direction (SHARPNESS_LOWER_IS_SHARPER);
  SharpnessBlurDetector *det = sharpness_blur_detector_new (lo, 25);
  const gdouble flat = 0.02;
  SharpnessSignature a = { TRUE, }, b = { TRUE, };

  for (gint c = 0; c < SHARPNESS_SIGNATURE_GRID * SHARPNESS_SIGNATURE_GRID;
      c++) {
    a.cell[c] = 100.0f;
    b.cell[c] = c % 2 ? 10.0f : 240.0f;
  }
  /* A textured shot (a fifth of the pixels on edges). */
  for (gint i = 0; i < 10; i++)
    CHECK (sharpness_blur_detector_judge (det, 0.30, 0.20, -1.0, flat, &a, 0.5,
            0.8, 0.0, -1.0, 0.0) == SHARPNESS_VERDICT_SHARP);
  CHECK (sharpness_blur_detector_get_count (det) == 10);
  /* Its structure falls under the flat threshold and its score rises past
   * 1 / 0.8 of the reference: a blur, whatever the absolute test says. */
  CHECK (sharpness_blur_detector_judge (det, 0.60, 0.005, -1.0, flat, &a, 0.0,
          0.8, 0.0, -1.0, 0.0) == SHARPNESS_VERDICT_BLURRY);
  CHECK (sharpness_blur_detector_judge (det, 0.61, 0.004, -1.0, flat, &a, 0.5,
          0.8, 0.0, -1.0, 0.0) == SHARPNESS_VERDICT_BLURRY);
  /* The structure alone falls (the score stays): flat, out of the
   * history. */
  CHECK (sharpness_blur_detector_judge (det, 0.32, 0.005, -1.0, flat, &a, 0.5,
          0.8, 0.0, -1.0, 0.0) == SHARPNESS_VERDICT_FLAT);
  CHECK (sharpness_blur_detector_get_count (det) == 10);
  /* Under the flat threshold but over the collapse ratio of the shot's
   * structure: no collapse, flat however the score moved. */
  sharpness_blur_detector_reset (det);
  for (gint i = 0; i < 10; i++)
    CHECK (sharpness_blur_detector_judge (det, 0.30, 0.025, -1.0, flat, &a, 0.5,
            0.8, 0.0, -1.0, 0.0) == SHARPNESS_VERDICT_SHARP);
  CHECK (sharpness_blur_detector_judge (det, 0.60,
          0.025 * SHARPNESS_COLLAPSE_RATIO + 0.001, -1.0, flat, &a, 0.5,
          0.8, 0.0, -1.0, 0.0) == SHARPNESS_VERDICT_FLAT);
  CHECK (sharpness_blur_detector_judge (det, 0.60,
          0.025 * SHARPNESS_COLLAPSE_RATIO - 0.001, -1.0, flat, &a, 0.5,
          0.8, 0.0, -1.0, 0.0) == SHARPNESS_VERDICT_BLURRY);

  /* A cut to a smooth shot: flat from its first frame, however high its
   * score (the absolute test never judges it, and the reference restarts
   * at the cut). */
  CHECK (sharpness_blur_detector_judge (det, 0.30, 0.025, -1.0, flat, &a, 0.5,
          0.8, 0.0, -1.0, 0.0) == SHARPNESS_VERDICT_SHARP);
  for (gint i = 0; i < 30; i++)
    CHECK (sharpness_blur_detector_judge (det, 0.75, 0.004, -1.0, flat, &b, 0.5,
            0.8, 0.0, -1.0, 0.0) == SHARPNESS_VERDICT_FLAT);
  CHECK (sharpness_blur_detector_last_was_cut (det) == FALSE);
  /* A smooth shot has no textured reference: its frames stay flat. */
  CHECK (sharpness_blur_detector_get_count (det) == 0);

  /* A cut detected on a flat frame restarts the shot: the textured frames
   * of the shot before are no reference for the next one. */
  sharpness_blur_detector_reset (det);
  for (gint i = 0; i < 10; i++)
    sharpness_blur_detector_judge (det, 0.30, 0.20, -1.0, flat, &a, 0.5, 0.8,
        0.0, -1.0, 0.0);
  CHECK (sharpness_blur_detector_judge (det, 0.70, 0.004, -1.0, flat, &b, 0.5,
          0.8, 0.0, -1.0, 0.0) == SHARPNESS_VERDICT_FLAT);
  CHECK (sharpness_blur_detector_last_was_cut (det));
  CHECK (sharpness_blur_detector_get_count (det) == 0);

  /* Without a structure, or with flat 0, push_frame's rule. */
  CHECK (sharpness_blur_detector_judge (det, 0.70, -1.0, -1.0, flat, &b, 0.5,
          0.8, 0.0, -1.0, 0.0) == SHARPNESS_VERDICT_BLURRY);
  CHECK (sharpness_blur_detector_judge (det, 0.70, 0.004, -1.0, 0.0, &b, 0.5,
          0.8, 0.0, -1.0, 0.0) == SHARPNESS_VERDICT_BLURRY);
  sharpness_blur_detector_free (det);
}

/* sharpness_blur_detector_judge with a CPBD threshold: the absolute test
 * needs the frame's CPBD under it too (a soft but sharp picture over the
 * score's level stays sharp); CPBD alone never flags a frame; an
 * unmeasured CPBD, or a threshold of 0, leaves the score alone to
 * judge. */
static void
test_cpbd_confirms (void)
{
  SharpnessMetric lo = metric_with_direction (SHARPNESS_LOWER_IS_SHARPER);
  SharpnessBlurDetector *det = sharpness_blur_detector_new (lo, 25);
  const gdouble flat = 0.02, t = SHARPNESS_CPBD_THRESHOLD;

  /* A shot's first frames, over the absolute level 0.5: only CPBD tells
   * a soft sharp picture (most edges narrow) from a blurred one. */
  CHECK (sharpness_blur_detector_judge (det, 0.60, 0.20, 0.45, flat, NULL,
          0.5, 0.8, t, -1.0, 0.0) == SHARPNESS_VERDICT_SHARP);
  sharpness_blur_detector_reset (det);
  CHECK (sharpness_blur_detector_judge (det, 0.60, 0.20, t - 0.01, flat,
          NULL, 0.5, 0.8, t, -1.0, 0.0) == SHARPNESS_VERDICT_BLURRY);
  CHECK (sharpness_blur_detector_judge (det, 0.60, 0.20, t, flat, NULL,
          0.5, 0.8, t, -1.0, 0.0) == SHARPNESS_VERDICT_SHARP);
  sharpness_blur_detector_reset (det);
  /* No edge in an edge block: CPBD 0, as the authors' code says. */
  CHECK (sharpness_blur_detector_judge (det, 0.60, 0.20, 0.0, flat, NULL,
          0.5, 0.8, t, -1.0, 0.0) == SHARPNESS_VERDICT_BLURRY);
  /* Under the score's level: sharp, however low the CPBD. */
  CHECK (sharpness_blur_detector_judge (det, 0.40, 0.20, 0.0, flat, NULL,
          0.5, 0.8, t, -1.0, 0.0) == SHARPNESS_VERDICT_SHARP);
  /* CPBD not measured, or no CPBD threshold: the score alone. */
  sharpness_blur_detector_reset (det);
  CHECK (sharpness_blur_detector_judge (det, 0.60, 0.20, -1.0, flat, NULL,
          0.5, 0.8, t, -1.0, 0.0) == SHARPNESS_VERDICT_BLURRY);
  CHECK (sharpness_blur_detector_judge (det, 0.60, 0.20, 0.45, flat, NULL,
          0.5, 0.8, 0.0, -1.0, 0.0) == SHARPNESS_VERDICT_BLURRY);
  /* The relative test is untouched: after sharp frames at 0.30, a frame
   * at 0.45 (under the absolute level) is blurry whatever its CPBD. */
  sharpness_blur_detector_reset (det);
  for (gint i = 0; i < 5; i++)
    CHECK (sharpness_blur_detector_judge (det, 0.30, 0.20, 0.6, flat, NULL,
            0.5, 0.8, t, -1.0, 0.0) == SHARPNESS_VERDICT_SHARP);
  CHECK (sharpness_blur_detector_judge (det, 0.45, 0.20, 0.6, flat, NULL,
          0.5, 0.8, t, -1.0, 0.0) == SHARPNESS_VERDICT_BLURRY);
  sharpness_blur_detector_free (det);
}

/* sharpness_blur_detector_judge with a focus threshold: a frame the
 * absolute test flags (score and CPBD) stays blurry only when its focus,
 * the lowest blur effect of its textured tiles, is at least the
 * threshold; one sharp textured part clears it.  An unmeasured focus, or
 * a threshold of 0, leaves the test as it was; the relative test is
 * untouched. */
static void
test_focus_gates_absolute (void)
{
  SharpnessMetric lo = metric_with_direction (SHARPNESS_LOWER_IS_SHARPER);
  SharpnessBlurDetector *det = sharpness_blur_detector_new (lo, 25);
  const gdouble flat = 0.02, c = SHARPNESS_CPBD_THRESHOLD;
  const gdouble f = SHARPNESS_FOCUS_THRESHOLD;

  /* Score over 0.5 and CPBD under its threshold: the focus decides. */
  CHECK (sharpness_blur_detector_judge (det, 0.60, 0.20, 0.1, flat, NULL,
          0.5, 0.8, c, f - 0.01, f) == SHARPNESS_VERDICT_SHARP);
  sharpness_blur_detector_reset (det);
  CHECK (sharpness_blur_detector_judge (det, 0.60, 0.20, 0.1, flat, NULL,
          0.5, 0.8, c, f, f) == SHARPNESS_VERDICT_BLURRY);
  sharpness_blur_detector_reset (det);
  /* Nothing textured: focus 1, blurry. */
  CHECK (sharpness_blur_detector_judge (det, 0.60, 0.20, 0.1, flat, NULL,
          0.5, 0.8, c, 1.0, f) == SHARPNESS_VERDICT_BLURRY);
  sharpness_blur_detector_reset (det);
  /* A high CPBD spares the frame whatever its focus. */
  CHECK (sharpness_blur_detector_judge (det, 0.60, 0.20, 0.45, flat, NULL,
          0.5, 0.8, c, 1.0, f) == SHARPNESS_VERDICT_SHARP);
  sharpness_blur_detector_reset (det);
  /* Focus not measured, or no focus threshold: as without the gate. */
  CHECK (sharpness_blur_detector_judge (det, 0.60, 0.20, 0.1, flat, NULL,
          0.5, 0.8, c, -1.0, f) == SHARPNESS_VERDICT_BLURRY);
  sharpness_blur_detector_reset (det);
  CHECK (sharpness_blur_detector_judge (det, 0.60, 0.20, 0.1, flat, NULL,
          0.5, 0.8, c, 0.1, 0.0) == SHARPNESS_VERDICT_BLURRY);
  /* The relative test ignores the focus: after sharp frames at 0.30, a
   * frame at 0.45 is blurry even with a sharp tile. */
  sharpness_blur_detector_reset (det);
  for (gint i = 0; i < 5; i++)
    CHECK (sharpness_blur_detector_judge (det, 0.30, 0.20, 0.6, flat, NULL,
            0.5, 0.8, c, 0.1, f) == SHARPNESS_VERDICT_SHARP);
  CHECK (sharpness_blur_detector_judge (det, 0.45, 0.20, 0.6, flat, NULL,
          0.5, 0.8, c, 0.1, f) == SHARPNESS_VERDICT_BLURRY);
  sharpness_blur_detector_free (det);
}

int
main (void)
{
  test_median ();
  test_absolute_threshold ();
  test_relative_threshold ();
  test_reseed ();
  test_early_frames ();
  test_blurry_opening ();
  test_absolute_keeps_out ();
  test_pan_is_no_cut ();
  test_blur_end_restarts ();
  test_signature ();
  test_segments ();
  test_reset ();
  test_collapse ();
  test_cpbd_confirms ();
  test_focus_gates_absolute ();
  return test_check_finish ("blur detector: all checks passed");
}
