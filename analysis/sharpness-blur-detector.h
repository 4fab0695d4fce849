/* Blurry-frame decision: an absolute threshold and a threshold relative to
 * the median score of the previous sharp frames, re-seeded at scene cuts.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Plain GLib, no GStreamer: the element owns one per stream and feeds it one
 * score per frame from its streaming thread (not thread-safe).  The history
 * (the reference of the relative test) is a ring of the last `window`
 * scores of frames judged sharp: a blurry frame never enters it, so a long
 * blur cannot become the norm.  Judging starts as soon as a few frames
 * (SHARPNESS_SEED_FRAMES) are in it, so a blur in the first window frames
 * of a file is judged rather than taken into the reference.  A scene cut,
 * detected from a coarse luma signature of the frames (SharpnessSignature),
 * re-seeds the history with the first frame of the new shot, so a cut to a
 * less detailed scene is not taken for a blur; so does an abrupt rise of
 * the score at the end of a blur, since the content may have moved on
 * during it, and a frame far sharper than the whole reference, which
 * proves the reference blurry (a file or a shot that opened out of focus:
 * nothing sharp came before it to judge it by).  The median is found by
 * quickselect on a scratch copy, so pushing a score never allocates.
 *
 * With the frame's structure (the share of edge pixels,
 * sharpness-structure.h), the detector also tells a blur from a flat
 * picture (sharpness_blur_detector_judge): a frame with too little
 * structure is `flat` when its shot had too little from the start, or has
 * no sharp reference yet; within a shot whose sharp frames were
 * textured, a fall of the structure (SHARPNESS_COLLAPSE_RATIO) is a blur
 * when the score falls too (the relative test): a strong blur removes the
 * very edges a flat test counts, so the shot's own history, not an
 * absolute edge count, must decide.  The absolute test never judges a
 * frame with too little structure: smooth content reads as blurry.  Rule
 * and evaluation: docs/reference/cudasharpness.md (Blurry frames),
 * docs/reference/sharpness-scan.md and docs/validation/detection.md.
 */
#ifndef SHARPNESS_BLUR_DETECTOR_H
#define SHARPNESS_BLUR_DETECTOR_H

#include <glib.h>

#include "sharpness-metric.h"
#include "sharpness-plane.h"

G_BEGIN_DECLS

/* Coarse content signature of a frame: the mean gray level of each cell of
 * a SHARPNESS_SIGNATURE_GRID x SHARPNESS_SIGNATURE_GRID grid, from a
 * sparse sample of the pixels.  A blur (a local average) leaves the cell
 * means nearly unchanged; a cut changes them abruptly; a pan moves them a
 * little per frame. */
#define SHARPNESS_SIGNATURE_GRID 8
typedef struct
{
  gboolean valid;
  gfloat cell[SHARPNESS_SIGNATURE_GRID * SHARPNESS_SIGNATURE_GRID];
} SharpnessSignature;

/* Mean absolute difference of the cell means (gray levels, 0..255) above
 * which two consecutive frames may be a cut (docs/validation/detection.md: the
 * distances of cuts, blurs and pans). */
#define SHARPNESS_CUT_DISTANCE 8.0

/* A fast pan moves the cells' content by more than SHARPNESS_CUT_DISTANCE
 * every frame: a cut must also be this many times the median distance of
 * the last SHARPNESS_MOTION_FRAMES frames, the shot's own motion (a pan's
 * distances change gradually, a cut's is abrupt: docs/validation/detection.md). */
#define SHARPNESS_CUT_RATIO 4.0
#define SHARPNESS_MOTION_FRAMES 5

/* The relative test judges a frame once this many sharp frames (or the
 * whole window, if smaller) are in the history: at the start, after a
 * reset, after a cut and after any other re-seeding. */
#define SHARPNESS_SEED_FRAMES 3

/* Blurry scores whose median the end-of-blur test compares with. */
#define SHARPNESS_RECOVERY_FRAMES 3

/* A history that received no sharp frame for this many windows is
 * re-seeded: an undetected cut to a much less detailed shot must not keep
 * the relative test flagging forever. */
#define SHARPNESS_STALE_WINDOWS 16

/* Smallest width and height with a signature: smaller frames get no cut
 * detection (their cells are too few pixels to tell a cut from noise). */
#define SHARPNESS_SIGNATURE_MIN_SIZE (16 * SHARPNESS_SIGNATURE_GRID)

/* The CPBD below which a frame over blur-effect's absolute threshold is
 * blurry (sharpness_blur_detector_judge's @cpbd_threshold; the
 * recommended rule's, the tools' default, docs/validation/detection.md:
 * chosen on the held-out suite's tuning half). */
#define SHARPNESS_CPBD_THRESHOLD 0.3

/* A frame with too little structure is a blur rather than flat when its
 * structure is below this share of the median structure of its shot's
 * sharp frames (the reference the relative test uses) and the relative
 * test flags its score (docs/validation/detection.md: chosen on the
 * held-out suite's tuning half). */
#define SHARPNESS_COLLAPSE_RATIO 0.5

/* The focus (sharpness-focus.h) from which a frame over blur-effect's
 * absolute threshold, its CPBD under SHARPNESS_CPBD_THRESHOLD, is blurry
 * (sharpness_blur_detector_judge's @focus_threshold; the tools' default,
 * docs/validation/detection.md: chosen on the held-out suite's tuning
 * half). */
#define SHARPNESS_FOCUS_THRESHOLD 0.40

/* The detector's verdict on one frame. */
typedef enum
{
  SHARPNESS_VERDICT_SHARP,
  SHARPNESS_VERDICT_BLURRY,
  SHARPNESS_VERDICT_FLAT
} SharpnessVerdict;

/* Computes @sig from @plane (host memory); invalid for a plane smaller
 * than SHARPNESS_SIGNATURE_MIN_SIZE either way. */
void sharpness_signature_compute (SharpnessSignature * sig,
    const SharpnessPlane * plane);

/* Mean absolute difference of the cells of @a and @b, or -1 when either is
 * invalid. */
gdouble sharpness_signature_distance (const SharpnessSignature * a,
    const SharpnessSignature * b);

typedef struct _SharpnessBlurDetector SharpnessBlurDetector;

/* @window >= 1: number of previous sharp scores the relative test looks at. */
SharpnessBlurDetector *sharpness_blur_detector_new (SharpnessMetric metric,
    guint window);
void sharpness_blur_detector_free (SharpnessBlurDetector * det);

/* Changing the metric or the window empties the history (scores of another
 * metric, or a history sized for another window, say nothing about the
 * next frame); the same values again keep it. */
void sharpness_blur_detector_configure (SharpnessBlurDetector * det,
    SharpnessMetric metric, guint window);

/* Empties the history and forgets the last signature (flush, caps
 * change). */
void sharpness_blur_detector_reset (SharpnessBlurDetector * det);

/* Decides whether @score is blurry, then updates the history.
 * Blurry when either test says so:
 *  - @threshold > 0: @score is worse than @threshold;
 *  - @relative > 0 and the history holds SHARPNESS_SEED_FRAMES scores (or
 *    the whole window, if smaller): @score is worse than @relative x
 *    median (higher-is-sharper metrics), or than median / @relative
 *    (lower-is-sharper metrics).
 * @sig (may be NULL: no cut detection) is the frame's signature: when it is
 * farther than SHARPNESS_CUT_DISTANCE from the previous frame's, and than
 * SHARPNESS_CUT_RATIO times the median distance of the frames before, the
 * frame starts a new shot: the history restarts with it and it is judged by the
 * absolute test only.  So does the end of a blur: a frame right after
 * blurry ones, not flagged by the absolute test, better than the median of
 * the last SHARPNESS_RECOVERY_FRAMES blurry scores by more than
 * 1 / sqrt (@relative) (an abrupt rise; during a long blur the content may
 * have moved on, so the frames before it are no reference any more).  So
 * does a frame that neither test flags and that is better than the median
 * by more than 1 / @relative: the reference was made of blurry frames.  A
 * frame judged sharp enters the history; a blurry one does not.  A
 * non-finite @score is never blurry and is not recorded. */
gboolean sharpness_blur_detector_push_frame (SharpnessBlurDetector * det,
    gdouble score, const SharpnessSignature * sig, gdouble threshold,
    gdouble relative);

/* sharpness_blur_detector_push_frame() with the frame's structure
 * @structure (its share of edge pixels; negative: not measured), its CPBD
 * @cpbd (sharpness-cpbd.h: the share of its edges whose blur is not
 * noticeable; negative: not measured), the flat threshold @flat (0: no
 * flat frames) and the CPBD threshold @cpbd_threshold (0: none).  With
 * @cpbd_threshold > 0 and @cpbd measured, the absolute test needs both:
 * @score worse than @threshold and @cpbd below @cpbd_threshold (a soft
 * but sharp picture, shallow depth of field, an upscale, heavy
 * compression, reads over blur-effect's level from a shot's first frame,
 * with no sharper frame for the relative test; its edges, narrower than
 * the just-noticeable blur width for their contrast, tell it from a
 * blur).  With @focus_threshold > 0 and @focus measured (its frame's
 * focus, sharpness-focus.h; negative: not measured), the absolute test
 * also needs @focus at least @focus_threshold: no textured part of the
 * picture is sharp (a sharp subject on a smooth or out-of-focus
 * background reads over blur-effect's level, and its edges, few against
 * the soft ones, can leave CPBD under its threshold).  A frame with
 * @structure < @flat is judged apart:
 *  - SHARPNESS_VERDICT_BLURRY when the history holds
 *    SHARPNESS_SEED_FRAMES sharp frames of this shot whose median
 *    structure is at least @flat, @structure is below
 *    SHARPNESS_COLLAPSE_RATIO times that median (the shot's structure
 *    collapsed), and the relative test flags @score: a blur that took
 *    the edges with it;
 *  - SHARPNESS_VERDICT_FLAT otherwise: smooth content, or content whose
 *    score stays sharp; its score stays out of the history (smooth content
 *    says nothing of the shot's sharpness).
 * The absolute test never judges such a frame.  Cuts are detected on
 * every frame pushed, flat ones included, so that a cut during a flat
 * stretch restarts the shot.  Other frames: as push_frame(), the verdict
 * BLURRY or SHARP; a sharp frame's structure enters the history with its
 * score. */
SharpnessVerdict sharpness_blur_detector_judge (SharpnessBlurDetector * det,
    gdouble score, gdouble structure, gdouble cpbd, gdouble flat,
    const SharpnessSignature * sig, gdouble threshold, gdouble relative,
    gdouble cpbd_threshold, gdouble focus, gdouble focus_threshold);

/* sharpness_blur_detector_push_frame() without a signature. */
gboolean sharpness_blur_detector_push (SharpnessBlurDetector * det,
    gdouble score, gdouble threshold, gdouble relative);

/* TRUE when the last pushed frame was taken for a scene cut. */
gboolean sharpness_blur_detector_last_was_cut (const SharpnessBlurDetector *
    det);

/* Number of scores in the history (at most the window). */
guint sharpness_blur_detector_get_count (const SharpnessBlurDetector * det);

/* Median of the history (mean of the two middle scores for an even count);
 * FALSE when the history is empty. */
gboolean sharpness_blur_detector_get_median (SharpnessBlurDetector * det,
    gdouble * median);

G_END_DECLS
#endif /* SHARPNESS_BLUR_DETECTOR_H */
