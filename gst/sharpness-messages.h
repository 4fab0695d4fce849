/* The element's bus messages: `sharpness` (per frame or per interval) and
 * `sharpness-summary` (at EOS).  Field names and types: docs/element.md.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SHARPNESS_MESSAGES_H
#define SHARPNESS_MESSAGES_H

#include <gst/gst.h>

G_BEGIN_DECLS

#define SHARPNESS_MESSAGE_NAME "sharpness"
#define SHARPNESS_SUMMARY_NAME "sharpness-summary"

/* Running statistics over a set of frames. */
typedef struct
{
  guint64 frames;
  guint64 blurry_frames;
  gdouble sum, min, max;
} SharpnessStats;

void sharpness_stats_reset (SharpnessStats * stats);
void sharpness_stats_add (SharpnessStats * stats, gdouble score,
    gboolean blurry);
/* 0 when no frame was added. */
gdouble sharpness_stats_mean (const SharpnessStats * stats);

/* One scored frame, with its times (GST_CLOCK_TIME_NONE when unknown). */
typedef struct
{
  GstClockTime timestamp, stream_time, running_time, duration;
  guint64 frame;                /* index since the element started */
  const gchar *metric;          /* nick */
  gdouble score;
  gboolean blurry;
} SharpnessFrameResult;

/* `sharpness` for @result; with @interval (the frames since the previous
 * message, @result's included) it also carries frames, mean, min, max and
 * blurry-frames. */
GstMessage *sharpness_message_new_frame (GstObject * src,
    const SharpnessFrameResult * result, const SharpnessStats * interval);

/* `sharpness-summary` over @total, the frames scored with @metric. */
GstMessage *sharpness_message_new_summary (GstObject * src,
    const gchar * metric, const SharpnessStats * total);

G_END_DECLS
#endif /* SHARPNESS_MESSAGES_H */
