/* cudacompare's VMAF: the model the `vmaf-model` property names, the
 * sequence of luma pairs scored by cpu/compare's libvmaf-exact VMAF
 * (vmaf.h) on either backend, each frame's values as the messages and the
 * meta name them, the pooled values of the summary and the libvmaf-style
 * logs of stats-format=vmaf-json|vmaf-xml|vmaf-csv.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A frame's VMAF needs the next frame (libvmaf's motion2 is the smaller
 * of the frame's motion and the next one's): a push completes the frame
 * before it, and the end of a sequence (EOS, a flush, a new size)
 * completes the last.  Frames are never held: only their values wait.
 */
#ifndef COMPARE_VMAF_STAGE_H
#define COMPARE_VMAF_STAGE_H

#include <stdio.h>

#include <gst/gst.h>

#include "compare.h"
#include "compare-meta.h"
#include "sharpness-times.h"
#include "vmaf.h"

G_BEGIN_DECLS

/* The `metrics` flag of VMAF: after the per-pair metrics of
 * compare-metric.h (it keeps state over the sequence, which their table,
 * shared with the CUDA kernels, does not). */
#define COMPARE_METRIC_VMAF (1u << COMPARE_N_METRICS)

#define COMPARE_VMAF_DEFAULT_MODEL "vmaf_v0.6.1"

/* Percentiles of the score in the summary: vmaf-p<N>. */
#define COMPARE_VMAF_PERCENTILES { 1, 5, 10, 25, 50, 75, 95, 99 }

typedef struct CompareVmafStage CompareVmafStage;

/* A completed frame: its index and times, and its values (the score as
 * `vmaf`, then the features; compare-meta.h's fields). */
typedef struct
{
  guint64 frame;
  SharpnessTimes times;
  CompareValues values;
} CompareVmafScored;

/* @model: a built-in model's name (COMPARE_VMAF_BUILTIN_NAMES) or a
 * libvmaf model JSON file's path; @flags: vmaf.h's model flags;
 * @keep_scores: keep every frame's score for the summary's percentiles
 * (8 bytes a frame; FALSE: no percentiles, and memory that does not grow
 * with the stream); @keep_log: keep every frame's values for a log.  NULL
 * with @error (RESOURCE domain's NOT_FOUND / SETTINGS) naming the model
 * and what is wrong. */
CompareVmafStage *compare_vmaf_stage_new (const gchar * model, guint flags,
    gboolean keep_scores, gboolean keep_log, GError ** error);
void compare_vmaf_stage_free (CompareVmafStage * stage);

/* Scores the luma pair (@luma's plane 0) of frame @frame: TRUE in *@done
 * with the frame before in @out when that one is complete now.  A refusal
 * (frame too small) is returned and leaves the sequence as it was. */
SharpnessStatus compare_vmaf_stage_push (CompareVmafStage * stage,
    const ComparePair * luma, guint64 frame, const SharpnessTimes * times,
    CompareVmafScored * out, gboolean * done);

/* Ends the sequence: TRUE with its last frame in @out when one was
 * pending.  The next push starts a new sequence. */
gboolean compare_vmaf_stage_end (CompareVmafStage * stage,
    CompareVmafScored * out);

/* The luma size of the current sequence (0 x 0 when none): another size
 * starts a new one. */
void compare_vmaf_stage_size (const CompareVmafStage * stage, gint * width,
    gint * height);

/* Adds `vmaf-harmonic-mean`, `vmaf-p<N>` and `vmaf-model` over the frames
 * completed so far to the summary @s (the means, minima and maxima are
 * the summary's statistics of every value). */
void compare_vmaf_stage_summary (const CompareVmafStage * stage,
    GstStructure * s);

/* Writes every completed frame as libvmaf's `vmaf` tool writes @format
 * (@keep_log was set), with @fps as its "fps". */
SharpnessStatus compare_vmaf_stage_write_log (const CompareVmafStage * stage,
    FILE * f, CompareVmafLogFormat format, gdouble fps);

/* Frames completed since the stage was made. */
guint64 compare_vmaf_stage_frames (const CompareVmafStage * stage);

G_END_DECLS
#endif /* COMPARE_VMAF_STAGE_H */
