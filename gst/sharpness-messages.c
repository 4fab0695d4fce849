/* Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "sharpness-messages.h"

void
sharpness_stats_reset (SharpnessStats * stats)
{
  stats->frames = stats->blurry_frames = 0;
  stats->sum = stats->min = stats->max = 0.0;
  stats->unscored = 0;
}

void
sharpness_stats_add_unscored (SharpnessStats * stats)
{
  stats->unscored++;
}

void
sharpness_stats_add (SharpnessStats * stats, gdouble score, gboolean blurry)
{
  if (stats->frames == 0) {
    stats->min = stats->max = score;
  } else {
    stats->min = MIN (stats->min, score);
    stats->max = MAX (stats->max, score);
  }
  stats->sum += score;
  stats->frames++;
  if (blurry)
    stats->blurry_frames++;
}

gdouble
sharpness_stats_mean (const SharpnessStats * stats)
{
  return stats->frames ? stats->sum / stats->frames : 0.0;
}

GstMessage *
sharpness_message_new_frame (GstObject * src,
    const SharpnessFrameResult * result, const SharpnessStats * interval)
{
  GstStructure *s = gst_structure_new (SHARPNESS_MESSAGE_NAME,
      "timestamp", G_TYPE_UINT64, result->timestamp,
      "stream-time", G_TYPE_UINT64, result->stream_time,
      "running-time", G_TYPE_UINT64, result->running_time,
      "duration", G_TYPE_UINT64, result->duration,
      "frame", G_TYPE_UINT64, result->frame,
      "metric", G_TYPE_STRING, result->metric,
      "score", G_TYPE_DOUBLE, result->score,
      "blurry", G_TYPE_BOOLEAN, result->blurry,
      "unscored", G_TYPE_UINT64, result->unscored, NULL);

  /* The interval counts are guint (like level's); they saturate rather
   * than wrap after 2^32 frames. */
  if (interval)
    gst_structure_set (s,
        "frames", G_TYPE_UINT, (guint) MIN (interval->frames, G_MAXUINT),
        "mean", G_TYPE_DOUBLE, sharpness_stats_mean (interval),
        "min", G_TYPE_DOUBLE, interval->min,
        "max", G_TYPE_DOUBLE, interval->max,
        "blurry-frames", G_TYPE_UINT,
        (guint) MIN (interval->blurry_frames, G_MAXUINT), NULL);

  return gst_message_new_element (src, s);
}

GstMessage *
sharpness_message_new_summary (GstObject * src, const gchar * metric,
    const SharpnessStats * total)
{
  return gst_message_new_element (src,
      gst_structure_new (SHARPNESS_SUMMARY_NAME,
          "metric", G_TYPE_STRING, metric,
          "frames", G_TYPE_UINT64, total->frames,
          "mean", G_TYPE_DOUBLE, sharpness_stats_mean (total),
          "min", G_TYPE_DOUBLE, total->min,
          "max", G_TYPE_DOUBLE, total->max,
          "blurry-frames", G_TYPE_UINT64, total->blurry_frames,
          "unscored", G_TYPE_UINT64, total->unscored, NULL));
}

void
sharpness_frame_result_set_times (SharpnessFrameResult * r,
    GstBuffer * buf, const GstSegment * segment, const GstVideoInfo * info)
{
  GstClockTime pts = GST_BUFFER_PTS (buf);
  gint fps_n = GST_VIDEO_INFO_FPS_N (info), fps_d = GST_VIDEO_INFO_FPS_D (info);

  r->timestamp = pts;
  if (GST_BUFFER_DURATION_IS_VALID (buf))
    r->duration = GST_BUFFER_DURATION (buf);
  else if (fps_n > 0 && fps_d > 0)
    r->duration = gst_util_uint64_scale_int (GST_SECOND, fps_d, fps_n);
  else
    r->duration = GST_CLOCK_TIME_NONE;
  r->stream_time = r->running_time = GST_CLOCK_TIME_NONE;
  if (GST_CLOCK_TIME_IS_VALID (pts) && segment->format == GST_FORMAT_TIME) {
    r->stream_time = gst_segment_to_stream_time (segment, GST_FORMAT_TIME,
        pts);
    r->running_time = gst_segment_to_running_time (segment, GST_FORMAT_TIME,
        pts);
  }
}
