/* The element's bus messages: `sharpness` (per frame or per interval) and
 * `sharpness-summary` (at EOS).  Field names and types: docs/element.md.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SHARPNESS_MESSAGES_H
#define SHARPNESS_MESSAGES_H

#include <gst/gst.h>
#include <gst/video/video.h>

G_BEGIN_DECLS

#define SHARPNESS_MESSAGE_NAME "sharpness"
#define SHARPNESS_SUMMARY_NAME "sharpness-summary"

/* Running statistics over a set of frames. */
typedef struct
{
  guint64 frames;
  guint64 blurry_frames;
  gdouble sum, min, max;
  /* Frames that passed without a score (sharpness_stats_add_unscored). */
  guint64 unscored;
} SharpnessStats;

void sharpness_stats_reset (SharpnessStats * stats);
void sharpness_stats_add (SharpnessStats * stats, gdouble score,
    gboolean blurry);
void sharpness_stats_add_unscored (SharpnessStats * stats);
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
  guint64 unscored;             /* frames left unscored since the previous
                                 * `sharpness` message */
  /* The tile map (tiles_cols 0: none): tiles_cols x tiles_rows scores,
   * row-major. */
  guint tiles_cols, tiles_rows;
  const gdouble *tile_scores;
  /* The regions of interest scored (n_rois 0: none): their meta's id,
   * type name and score. */
  guint n_rois;
  const gint *roi_ids;
  const gchar *const *roi_types;
  const gdouble *roi_scores;
} SharpnessFrameResult;

/* Fills the time fields of @result for @buffer, as `level` does: PTS, its
 * stream and running time in @segment (TIME only), and the buffer's
 * duration, else one frame at @info's framerate. */
void sharpness_frame_result_set_times (SharpnessFrameResult * result,
    GstBuffer * buffer, const GstSegment * segment, const GstVideoInfo * info);

/* Sets on @s the fields of @result's tile map (tiles-cols, tiles-rows,
 * tile-scores) and ROIs (roi-ids, roi-types, roi-scores), and removes
 * those @result has none of (a meta updated by a second pass).  The
 * field contract of docs/element.md, read by sharpnessoverlay. */
void sharpness_frame_result_set_regions (const SharpnessFrameResult * result,
    GstStructure * s);

/* `sharpness` for @result (its tiles and ROIs included); with @interval (the frames since the previous
 * message, @result's included) it also carries frames, mean, min, max and
 * blurry-frames. */
GstMessage *sharpness_message_new_frame (GstObject * src,
    const SharpnessFrameResult * result, const SharpnessStats * interval);

/* `sharpness-summary` over @total, the frames scored with @metric. */
GstMessage *sharpness_message_new_summary (GstObject * src,
    const gchar * metric, const SharpnessStats * total);

G_END_DECLS
#endif /* SHARPNESS_MESSAGES_H */
