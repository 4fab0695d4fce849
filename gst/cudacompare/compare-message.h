/* cudacompare's per-frame messages, their writers and their typed
 * readers, side by side so that the two cannot drift: `compare` (a pair's
 * PSNR / SSIM / MS-SSIM, or their means over an interval) and
 * `compare-vmaf` (a frame's VMAF, posted one frame later: its motion needs
 * the next frame).  docs/reference/cudacompare.md lists the fields.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Built into gst/'s metas library with GstCompareMeta: the plugin writes
 * the messages, the tools (the monitor's compare channels) and the tests
 * read them here.
 */
#ifndef COMPARE_MESSAGE_H
#define COMPARE_MESSAGE_H

#include <gst/gst.h>

#include "compare-meta.h"
#include "sharpness-times.h"

G_BEGIN_DECLS

/* `compare`: times, frame, the values; with @interval_frames > 0 (interval
 * mode) also `frames` and `unpaired`. */
GstMessage *compare_message_new (GstObject * src, const SharpnessTimes * times,
    guint64 frame, const CompareValues * values, guint64 interval_frames,
    guint64 unpaired);

/* `compare-vmaf`: the times and index of the frame the values are of, the
 * VMAF score and libvmaf's features (compare_vmaf_values_*); with
 * @interval_frames > 0, their means over that many frames and `frames`. */
GstMessage *compare_vmaf_message_new (GstObject * src,
    const SharpnessTimes * times, guint64 frame, const CompareValues * values,
    guint64 interval_frames);

/* What a reader gets of either message. */
typedef struct
{
  SharpnessTimes times;         /* GST_CLOCK_TIME_NONE where absent */
  guint64 frame;
  guint64 frames;               /* interval mode: pairs in it; else 0 */
  guint64 unpaired;             /* `compare`, interval mode */
  CompareValues values;         /* every value field the message has */
} CompareMessage;

/* Reads a `compare` message (@vmaf FALSE) or a `compare-vmaf` one (TRUE)
 * from cudacompare: FALSE when @msg is not one. */
gboolean compare_message_read (GstMessage * msg, gboolean vmaf,
    CompareMessage * out);

/* The value of @field in @m, or NaN when the message has none. */
gdouble compare_message_value (const CompareMessage * m, SharpnessField field);

G_END_DECLS
#endif /* COMPARE_MESSAGE_H */
