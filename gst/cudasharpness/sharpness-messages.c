/* Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "sharpness-fields.h"
#include "sharpness-messages.h"

GstMessage *
sharpness_message_new_frame (GstObject * src,
    const SharpnessFrameResult * result, const SharpnessStats * interval)
{
  GstStructure *s = sharpness_structure_new (SHARPNESS_FIELD_MESSAGE);

  sharpness_times_to_structure (&result->times, s);
  sharpness_structure_set_uint64 (s, SHARPNESS_FIELD_FRAME, result->frame);
  sharpness_frame_result_to_structure (result, s);
  sharpness_structure_set_uint64 (s, SHARPNESS_FIELD_UNSCORED,
      result->unscored);

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
  GstStructure *s = sharpness_structure_new (SHARPNESS_FIELD_SUMMARY);

  sharpness_structure_set_static_string (s, SHARPNESS_FIELD_METRIC, metric);
  sharpness_structure_set_uint64 (s, SHARPNESS_FIELD_FRAMES, total->frames);
  sharpness_structure_set_double (s, SHARPNESS_FIELD_MEAN,
      sharpness_stats_mean (total));
  sharpness_structure_set_double (s, SHARPNESS_FIELD_MIN, total->min);
  sharpness_structure_set_double (s, SHARPNESS_FIELD_MAX, total->max);
  sharpness_structure_set_uint64 (s, SHARPNESS_FIELD_BLURRY_FRAMES,
      total->blurry_frames);
  sharpness_structure_set_uint64 (s, SHARPNESS_FIELD_UNSCORED,
      total->unscored);
  return gst_message_new_element (src, s);
}

/* The fields both segment messages start with. */
static GstStructure *
segment_structure (SharpnessField name, const gchar * metric,
    const SharpnessSegment * seg)
{
  GstStructure *s = sharpness_structure_new (name);

  sharpness_structure_set_static_string (s, SHARPNESS_FIELD_METRIC, metric);
  sharpness_structure_set_uint64 (s, SHARPNESS_FIELD_TIMESTAMP, seg->start);
  sharpness_structure_set_uint64 (s, SHARPNESS_FIELD_STREAM_TIME,
      seg->stream_time);
  sharpness_structure_set_uint64 (s, SHARPNESS_FIELD_RUNNING_TIME,
      seg->running_time);
  return s;
}

GstMessage *
sharpness_message_new_blurry_start (GstObject * src, const gchar * metric,
    const SharpnessSegment * seg)
{
  GstStructure *s = segment_structure (SHARPNESS_FIELD_BLURRY_START, metric,
      seg);

  sharpness_structure_set_uint64 (s, SHARPNESS_FIELD_START_FRAME,
      seg->start_frame);
  return gst_message_new_element (src, s);
}

GstMessage *
sharpness_message_new_blurry_end (GstObject * src, const gchar * metric,
    const SharpnessSegment * seg)
{
  GstStructure *s = segment_structure (SHARPNESS_FIELD_BLURRY_END, metric,
      seg);

  sharpness_structure_set_uint64 (s, SHARPNESS_FIELD_START, seg->start);
  sharpness_structure_set_uint64 (s, SHARPNESS_FIELD_END, seg->end);
  sharpness_structure_set_uint64 (s, SHARPNESS_FIELD_DURATION,
      sharpness_segment_duration (seg));
  sharpness_structure_set_uint64 (s, SHARPNESS_FIELD_START_FRAME,
      seg->start_frame);
  sharpness_structure_set_uint64 (s, SHARPNESS_FIELD_END_FRAME,
      seg->end_frame);
  sharpness_structure_set_uint64 (s, SHARPNESS_FIELD_FRAMES, seg->frames);
  sharpness_structure_set_uint64 (s, SHARPNESS_FIELD_BLURRY_FRAMES,
      seg->blurry_frames);
  sharpness_structure_set_double (s, SHARPNESS_FIELD_MIN, seg->min_score);
  sharpness_structure_set_double (s, SHARPNESS_FIELD_MEAN,
      sharpness_segment_mean (seg));
  sharpness_structure_set_double (s, SHARPNESS_FIELD_MAX, seg->max_score);
  sharpness_structure_set_uint64 (s, SHARPNESS_FIELD_WORST_FRAME,
      seg->worst_frame);
  sharpness_structure_set_double (s, SHARPNESS_FIELD_WORST_SCORE,
      seg->worst_score);
  return gst_message_new_element (src, s);
}
