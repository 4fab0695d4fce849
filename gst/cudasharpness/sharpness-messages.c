/* Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "sharpness-fields.h"
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

/* @s's field @field: a GST_TYPE_ARRAY of @n values of @type taken from
 * @values (gint, gdouble or const gchar * each).  Up to 4,096 tile scores a
 * frame, twice (meta and message): the array is sized once, and a number
 * is appended by taking a GValue that owns nothing, without a copy. */
static void
set_array (GstStructure * s, SharpnessField field, GType type, guint n,
    gconstpointer values)
{
  GValue array = G_VALUE_INIT, v = G_VALUE_INIT;

  gst_value_array_init (&array, n);
  for (guint i = 0; i < n; i++) {
    g_value_init (&v, type);
    if (type == G_TYPE_INT)
      g_value_set_int (&v, ((const gint *) values)[i]);
    else if (type == G_TYPE_DOUBLE)
      g_value_set_double (&v, ((const gdouble *) values)[i]);
    else
      g_value_set_string (&v, ((const gchar * const *) values)[i]);
    /* Moved into the array; @v is left as G_VALUE_INIT again. */
    gst_value_array_append_and_take_value (&array, &v);
    memset (&v, 0, sizeof (v));
  }
  sharpness_structure_take (s, field, &array);
}

/* Field names through sharpness-fields.h: every frame's message and meta,
 * without GStreamer 1.22's global quark lock per name. */
void
sharpness_frame_result_set_regions (const SharpnessFrameResult * r,
    GstStructure * s)
{
  if (r->tiles_cols > 0) {
    sharpness_structure_set_uint (s, SHARPNESS_FIELD_TILES_COLS,
        r->tiles_cols);
    sharpness_structure_set_uint (s, SHARPNESS_FIELD_TILES_ROWS,
        r->tiles_rows);
    set_array (s, SHARPNESS_FIELD_TILE_SCORES, G_TYPE_DOUBLE,
        r->tiles_cols * r->tiles_rows, r->tile_scores);
  } else {
    sharpness_structure_remove (s, SHARPNESS_FIELD_TILES_COLS);
    sharpness_structure_remove (s, SHARPNESS_FIELD_TILES_ROWS);
    sharpness_structure_remove (s, SHARPNESS_FIELD_TILE_SCORES);
  }
  if (r->n_rois > 0) {
    set_array (s, SHARPNESS_FIELD_ROI_IDS, G_TYPE_INT, r->n_rois, r->roi_ids);
    set_array (s, SHARPNESS_FIELD_ROI_TYPES, G_TYPE_STRING, r->n_rois,
        r->roi_types);
    set_array (s, SHARPNESS_FIELD_ROI_SCORES, G_TYPE_DOUBLE, r->n_rois,
        r->roi_scores);
  } else {
    sharpness_structure_remove (s, SHARPNESS_FIELD_ROI_IDS);
    sharpness_structure_remove (s, SHARPNESS_FIELD_ROI_TYPES);
    sharpness_structure_remove (s, SHARPNESS_FIELD_ROI_SCORES);
  }
}

GstMessage *
sharpness_message_new_frame (GstObject * src,
    const SharpnessFrameResult * result, const SharpnessStats * interval)
{
  GstStructure *s = sharpness_structure_new (SHARPNESS_FIELD_MESSAGE);

  sharpness_structure_set_uint64 (s, SHARPNESS_FIELD_TIMESTAMP,
      result->timestamp);
  sharpness_structure_set_uint64 (s, SHARPNESS_FIELD_STREAM_TIME,
      result->stream_time);
  sharpness_structure_set_uint64 (s, SHARPNESS_FIELD_RUNNING_TIME,
      result->running_time);
  sharpness_structure_set_uint64 (s, SHARPNESS_FIELD_DURATION,
      result->duration);
  sharpness_structure_set_uint64 (s, SHARPNESS_FIELD_FRAME, result->frame);
  sharpness_structure_set_static_string (s, SHARPNESS_FIELD_METRIC,
      result->metric);
  sharpness_structure_set_double (s, SHARPNESS_FIELD_SCORE, result->score);
  sharpness_structure_set_boolean (s, SHARPNESS_FIELD_BLURRY, result->blurry);
  sharpness_structure_set_uint64 (s, SHARPNESS_FIELD_UNSCORED,
      result->unscored);

  sharpness_frame_result_set_regions (result, s);

  /* The interval counts are guint (like level's); they saturate rather
   * than wrap after 2^32 frames. */
  if (interval) {
    sharpness_structure_set_uint (s, SHARPNESS_FIELD_FRAMES,
        (guint) MIN (interval->frames, G_MAXUINT));
    sharpness_structure_set_double (s, SHARPNESS_FIELD_MEAN,
        sharpness_stats_mean (interval));
    sharpness_structure_set_double (s, SHARPNESS_FIELD_MIN, interval->min);
    sharpness_structure_set_double (s, SHARPNESS_FIELD_MAX, interval->max);
    sharpness_structure_set_uint (s, SHARPNESS_FIELD_BLURRY_FRAMES,
        (guint) MIN (interval->blurry_frames, G_MAXUINT));
  }

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
