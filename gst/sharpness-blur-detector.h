/* Blurry-frame decision: an absolute threshold and a threshold relative to
 * the median score of the previous frames.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Plain GLib, no GStreamer: the element owns one per stream and feeds it one
 * score per frame from its streaming thread (not thread-safe).  The history
 * is a ring of the last `window` scores; the median is found by quickselect
 * on a scratch copy, so pushing a score never allocates.
 */
#ifndef SHARPNESS_BLUR_DETECTOR_H
#define SHARPNESS_BLUR_DETECTOR_H

#include <glib.h>

#include "sharpness-metric.h"

G_BEGIN_DECLS

typedef struct _SharpnessBlurDetector SharpnessBlurDetector;

/* @window >= 1: number of previous scores the relative test looks at. */
SharpnessBlurDetector *sharpness_blur_detector_new (SharpnessMetric metric,
    guint window);
void sharpness_blur_detector_free (SharpnessBlurDetector * det);

/* Changing the metric or the window empties the history (scores of another
 * metric, or a history sized for another window, say nothing about the
 * next frame); the same values again keep it. */
void sharpness_blur_detector_configure (SharpnessBlurDetector * det,
    SharpnessMetric metric, guint window);

/* Empties the history (flush, caps change). */
void sharpness_blur_detector_reset (SharpnessBlurDetector * det);

/* Decides whether @score is blurry, then appends it to the history.
 * Blurry when either test says so:
 *  - @threshold > 0: @score is worse than @threshold;
 *  - @relative > 0 and the history is full: @score is worse than
 *    @relative x median (higher-is-sharper metrics), or than
 *    median / @relative (lower-is-sharper metrics).
 * A non-finite @score is never blurry and is not recorded. */
gboolean sharpness_blur_detector_push (SharpnessBlurDetector * det,
    gdouble score, gdouble threshold, gdouble relative);

/* Number of scores in the history (at most the window). */
guint sharpness_blur_detector_get_count (const SharpnessBlurDetector * det);

/* Median of the history (mean of the two middle scores for an even count);
 * FALSE when the history is empty. */
gboolean sharpness_blur_detector_get_median (SharpnessBlurDetector * det,
    gdouble * median);

G_END_DECLS
#endif /* SHARPNESS_BLUR_DETECTOR_H */
