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
  /* The structure of the same frames (negative: not measured), in the
   * same slots: the shot's texture, against which a collapse is judged. */
  gdouble *structure;
  gdouble *scratch;             /* reordered by the median search */
  guint64 since_sharp;          /* frames since one entered the history */
  SharpnessSignature last_sig;  /* previous frame's, for cut detection */
  gboolean last_was_cut;
  /* Signature distances of the last frames (a ring), the shot's motion. */
  gdouble motion[SHARPNESS_MOTION_FRAMES];
  guint motion_count, motion_head;
  /* Scores of the current run of blurry frames (the last
   * SHARPNESS_RECOVERY_FRAMES), for the end-of-blur test. */
  gdouble blur_level[SHARPNESS_RECOVERY_FRAMES];
  guint blur_count;
};

void
sharpness_signature_compute (SharpnessSignature * sig,
    const SharpnessPlane * plane)
{
  const gint g = SHARPNESS_SIGNATURE_GRID;
  gint w = plane->width, h = plane->height;
  /* About 128 samples along the short side: ~0.1 ms for 1080p, and still
   * hundreds of samples per cell. */
  gint step = MAX (1, MIN (w, h) / 128);
  guint32 sum[SHARPNESS_SIGNATURE_GRID * SHARPNESS_SIGNATURE_GRID] = { 0, };
  guint32 n[SHARPNESS_SIGNATURE_GRID * SHARPNESS_SIGNATURE_GRID] = { 0, };

  sig->valid = FALSE;
  /* Cells of fewer than 16 x 16 pixels are too noisy to tell a cut. */
  if (w < SHARPNESS_SIGNATURE_MIN_SIZE || h < SHARPNESS_SIGNATURE_MIN_SIZE ||
      !plane->data)
    return;
  for (gint y = step / 2; y < h; y += step) {
    const guint8 *row = plane->data + (gsize) y * plane->stride;
    gint cy = y * g / h;

    for (gint x = step / 2; x < w; x += step) {
      gint c = cy * g + x * g / w;

      sum[c] += sharpness_plane_gray_at (plane, row, x);
      n[c]++;
    }
  }
  for (gint c = 0; c < g * g; c++)
    sig->cell[c] = n[c] ? (gfloat) sum[c] / n[c] : 0.0f;
  sig->valid = TRUE;
}

gdouble
sharpness_signature_distance (const SharpnessSignature * a,
    const SharpnessSignature * b)
{
  const gint cells = SHARPNESS_SIGNATURE_GRID * SHARPNESS_SIGNATURE_GRID;
  gdouble d = 0.0;

  if (!a || !b || !a->valid || !b->valid)
    return -1.0;
  for (gint c = 0; c < cells; c++)
    d += fabs ((gdouble) a->cell[c] - b->cell[c]);
  return d / cells;
}

SharpnessBlurDetector *
sharpness_blur_detector_new (SharpnessMetric metric, guint window)
{
  SharpnessBlurDetector *det;

  g_return_val_if_fail (window >= 1, NULL);

  det = g_new0 (SharpnessBlurDetector, 1);
  det->metric = metric;
  det->window = window;
  det->ring = g_new (gdouble, window);
  det->structure = g_new (gdouble, window);
  det->scratch = g_new (gdouble, window);
  return det;
}

void
sharpness_blur_detector_free (SharpnessBlurDetector * det)
{
  if (!det)
    return;
  g_free (det->ring);
  g_free (det->structure);
  g_free (det->scratch);
  g_free (det);
}

void
sharpness_blur_detector_reset (SharpnessBlurDetector * det)
{
  det->count = 0;
  det->head = 0;
  det->since_sharp = 0;
  det->last_sig.valid = FALSE;
  det->last_was_cut = FALSE;
  det->motion_count = det->motion_head = 0;
  det->blur_count = 0;
}

/* A new shot (or a stale history): the reference restarts from the next
 * sharp frames. */
static void
reseed (SharpnessBlurDetector * det)
{
  det->count = 0;
  det->head = 0;
  det->since_sharp = 0;
  det->blur_count = 0;
}

gboolean
sharpness_blur_detector_last_was_cut (const SharpnessBlurDetector * det)
{
  return det->last_was_cut;
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
    g_free (det->structure);
    g_free (det->scratch);
    det->ring = g_new (gdouble, window);
    det->structure = g_new (gdouble, window);
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

/* Median of @a[0..n-1] (mean of the two middle values for an even @n),
 * reordering @a. */
static gdouble
median_in_place (gdouble * a, gint n)
{
  gint k = n / 2;
  gdouble upper = select_kth (a, n, k), lower;

  if (n % 2)
    return upper;
  /* Even count: the lower middle is the largest value left of k. */
  lower = a[0];
  for (gint i = 1; i < k; i++)
    lower = MAX (lower, a[i]);
  return (lower + upper) / 2.0;
}

gboolean
sharpness_blur_detector_get_median (SharpnessBlurDetector * det,
    gdouble * median)
{
  if (det->count == 0)
    return FALSE;
  /* The ring's order does not matter for a median: copy it as it is. */
  memcpy (det->scratch, det->ring, det->count * sizeof (gdouble));
  *median = median_in_place (det->scratch, det->count);
  return TRUE;
}

static gboolean
is_worse_than_median (SharpnessBlurDetector * det, gdouble score,
    gdouble relative)
{
  gdouble median;

  /* A few sharp frames make a reference: waiting for a whole window would
   * leave a blur in the first window frames of a file or a shot unjudged,
   * and let it into the history as if it were sharp. */
  if (relative <= 0.0 || det->count < MIN (det->window, SHARPNESS_SEED_FRAMES) ||
      !sharpness_blur_detector_get_median (det, &median))
    return FALSE;

  /* score < r * median, or score > median / r written without a division. */
  if (sharpness_metric_info[det->metric].direction ==
      SHARPNESS_LOWER_IS_SHARPER)
    return score * relative > median;
  return score < relative * median;
}

/* The end of a blur: the previous frame was blurry and @score is better
 * than the median of the last blurry scores by more than
 * 1 / sqrt (@relative), an abrupt rise. */
static gboolean
is_recovery (SharpnessBlurDetector * det, gdouble score, gdouble relative)
{
  gdouble v[SHARPNESS_RECOVERY_FRAMES], level, k;
  guint n = MIN (det->blur_count, SHARPNESS_RECOVERY_FRAMES);

  if (relative <= 0.0 || n == 0)
    return FALSE;
  memcpy (v, det->blur_level, n * sizeof (gdouble));
  level = select_kth (v, n, n / 2);
  k = sqrt (relative);
  if (sharpness_metric_info[det->metric].direction ==
      SHARPNESS_LOWER_IS_SHARPER)
    return score < level * k;
  return score * k > level;
}

/* @score is better than the median of the history by more than
 * 1 / @relative: had the reference been judged against this frame, it
 * would have been blurry.  The history then holds the blurry opening of a
 * file or of a shot (frames that came before any sharp reference), and
 * restarts from this frame. */
static gboolean
proves_reference_blurry (SharpnessBlurDetector * det, gdouble score,
    gdouble relative)
{
  gdouble median;

  if (relative <= 0.0 || !sharpness_blur_detector_get_median (det, &median))
    return FALSE;
  if (sharpness_metric_info[det->metric].direction ==
      SHARPNESS_LOWER_IS_SHARPER)
    return score < relative * median;
  return score * relative > median;
}

/* @distance (negative: none) from the previous frame's signature is a
 * cut: far above SHARPNESS_CUT_DISTANCE's floor and above the recent
 * motion.  Records it as motion. */
static gboolean
is_cut (SharpnessBlurDetector * det, gdouble distance)
{
  gdouble v[SHARPNESS_MOTION_FRAMES];
  gboolean cut;

  if (distance < 0.0)
    return FALSE;
  cut = distance > SHARPNESS_CUT_DISTANCE;
  if (cut && det->motion_count > 0) {
    memcpy (v, det->motion, det->motion_count * sizeof (gdouble));
    cut = distance > SHARPNESS_CUT_RATIO * median_in_place (v,
        det->motion_count);
  }
  det->motion[det->motion_head] = distance;
  det->motion_head = (det->motion_head + 1) % SHARPNESS_MOTION_FRAMES;
  if (det->motion_count < SHARPNESS_MOTION_FRAMES)
    det->motion_count++;
  return cut;
}

/* Median structure of the history's frames that have one; FALSE when
 * none has. */
static gboolean
structure_median (SharpnessBlurDetector * det, gdouble * median)
{
  guint n = 0;

  for (guint i = 0; i < det->count; i++)
    if (det->structure[i] >= 0.0)
      det->scratch[n++] = det->structure[i];
  if (n == 0)
    return FALSE;
  *median = median_in_place (det->scratch, n);
  return TRUE;
}

/* @structure, below the flat threshold @flat, is a collapse of the shot's
 * structure: a reference of SHARPNESS_SEED_FRAMES sharp frames (or the
 * whole window) of this shot, textured (median structure >= @flat), and
 * @structure under SHARPNESS_COLLAPSE_RATIO times its median. */
static gboolean
structure_collapsed (SharpnessBlurDetector * det, gdouble structure,
    gdouble flat)
{
  gdouble median;

  if (det->count < MIN (det->window, SHARPNESS_SEED_FRAMES) ||
      !structure_median (det, &median))
    return FALSE;
  return median >= flat && structure < SHARPNESS_COLLAPSE_RATIO * median;
}

/* A blurry frame stays out of the reference (a long blur must stay a
 * blur); its score joins the blur's level, for the end-of-blur test. */
static SharpnessVerdict
keep_blurry (SharpnessBlurDetector * det, gdouble score)
{
  det->since_sharp++;
  det->blur_level[det->blur_count++ % SHARPNESS_RECOVERY_FRAMES] = score;
  return SHARPNESS_VERDICT_BLURRY;
}

SharpnessVerdict
sharpness_blur_detector_judge (SharpnessBlurDetector * det, gdouble score,
    gdouble structure, gdouble cpbd, gdouble flat,
    const SharpnessSignature * sig, gdouble threshold, gdouble relative,
    gdouble cpbd_threshold, gdouble focus, gdouble focus_threshold)
{
  gboolean blurry, relative_blurry, absolute_blurry, cut, smooth;

  cut = sig && is_cut (det, sharpness_signature_distance (sig,
          &det->last_sig));
  if (sig)
    det->last_sig = *sig;
  else
    det->last_sig.valid = FALSE;
  det->last_was_cut = cut;

  smooth = flat > 0.0 && structure >= 0.0 && structure < flat;
  if (!isfinite (score))
    return smooth ? SHARPNESS_VERDICT_FLAT : SHARPNESS_VERDICT_SHARP;

  if (cut || det->since_sharp >= (guint64) SHARPNESS_STALE_WINDOWS *
      det->window)
    reseed (det);

  if (smooth) {
    /* Smooth content reads as blurry by any absolute level: only the
     * shot's own history can call it a blur, when its texture and its
     * score collapsed together.  A flat frame stays out of the history:
     * it says nothing of how sharp the shot is. */
    if (cut || !structure_collapsed (det, structure, flat) ||
        !is_worse_than_median (det, score, relative))
      return SHARPNESS_VERDICT_FLAT;
    return keep_blurry (det, score);
  }

  /* The score's level alone cannot tell a soft sharp picture from a
   * blurred one (a shot's first frames have nothing else to judge them);
   * CPBD's widths of its edges can, and a sharp textured part of it
   * (sharpness-focus.h) shows a picture in focus where it matters. */
  absolute_blurry = threshold > 0.0 &&
      sharpness_metric_is_worse (det->metric, score, threshold) &&
      (cpbd_threshold <= 0.0 || cpbd < 0.0 || cpbd < cpbd_threshold) &&
      (focus_threshold <= 0.0 || focus < 0.0 || focus >= focus_threshold);
  relative_blurry = !cut && is_worse_than_median (det, score, relative);
  if (!absolute_blurry && is_recovery (det, score, relative)) {
    /* Far better than the blur: the blur is over.  The content may have
     * moved on during it, so the frames before it are no reference (the
     * first frames after a long blur of a pan can be worse than the old
     * reference and still sharp). */
    reseed (det);
    relative_blurry = FALSE;
  } else if (!relative_blurry && !absolute_blurry &&
      proves_reference_blurry (det, score, relative)) {
    reseed (det);
  }
  blurry = relative_blurry || absolute_blurry;
  if (blurry)
    return keep_blurry (det, score);
  det->blur_count = 0;

  det->ring[det->head] = score;
  det->structure[det->head] = structure;
  det->head = (det->head + 1) % det->window;
  if (det->count < det->window)
    det->count++;
  det->since_sharp = 0;
  return SHARPNESS_VERDICT_SHARP;
}

gboolean
sharpness_blur_detector_push_frame (SharpnessBlurDetector * det,
    gdouble score, const SharpnessSignature * sig, gdouble threshold,
    gdouble relative)
{
  return sharpness_blur_detector_judge (det, score, -1.0, -1.0, 0.0, sig,
      threshold, relative, 0.0, -1.0, 0.0) == SHARPNESS_VERDICT_BLURRY;
}

gboolean
sharpness_blur_detector_push (SharpnessBlurDetector * det, gdouble score,
    gdouble threshold, gdouble relative)
{
  return sharpness_blur_detector_push_frame (det, score, NULL, threshold,
      relative);
}
