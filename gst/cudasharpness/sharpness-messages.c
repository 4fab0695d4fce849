/* Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "sharpness-event-message.h"
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
  sharpness_structure_set_uint64 (s, SHARPNESS_FIELD_BLACK_FRAMES,
      total->black_frames);
  sharpness_structure_set_uint64 (s, SHARPNESS_FIELD_FROZEN_FRAMES,
      total->frozen_frames);
  sharpness_structure_set_uint64 (s, SHARPNESS_FIELD_FLAT_FRAMES,
      total->flat_frames);
  sharpness_structure_set_uint64 (s, SHARPNESS_FIELD_BLURRY_SEGMENTS,
      total->blurry_segments);
  sharpness_structure_set_uint64 (s, SHARPNESS_FIELD_BLACK_SEGMENTS,
      total->black_segments);
  sharpness_structure_set_uint64 (s, SHARPNESS_FIELD_FREEZE_SEGMENTS,
      total->freeze_segments);
  return gst_message_new_element (src, s);
}

GstMessage *
sharpness_message_new_event (GstObject * src, const gchar * metric,
    const SharpnessContentEvent * e)
{
  GstStructure *s = sharpness_structure_new
      (sharpness_event_message_name (e->kind, e->is_end));

  sharpness_structure_set_static_string (s, SHARPNESS_FIELD_METRIC, metric);
  sharpness_structure_set_uint64 (s, SHARPNESS_FIELD_TIMESTAMP, e->start);
  sharpness_structure_set_uint64 (s, SHARPNESS_FIELD_STREAM_TIME,
      e->stream_time);
  sharpness_structure_set_uint64 (s, SHARPNESS_FIELD_RUNNING_TIME,
      e->running_time);
  if (e->is_end) {
    sharpness_structure_set_uint64 (s, SHARPNESS_FIELD_START, e->start);
    sharpness_structure_set_uint64 (s, SHARPNESS_FIELD_END, e->end);
    sharpness_structure_set_uint64 (s, SHARPNESS_FIELD_DURATION, e->duration);
  }
  sharpness_structure_set_uint64 (s, SHARPNESS_FIELD_START_FRAME,
      e->start_frame);
  if (!e->is_end)
    return gst_message_new_element (src, s);

  sharpness_structure_set_uint64 (s, SHARPNESS_FIELD_END_FRAME, e->end_frame);
  sharpness_structure_set_uint64 (s, SHARPNESS_FIELD_FRAMES, e->frames);
  sharpness_structure_set_uint64 (s,
      sharpness_event_message_kind_frames (e->kind), e->kind_frames);
  sharpness_structure_set_double (s, SHARPNESS_FIELD_MIN, e->min);
  sharpness_structure_set_double (s, SHARPNESS_FIELD_MEAN, e->mean);
  sharpness_structure_set_double (s, SHARPNESS_FIELD_MAX, e->max);
  sharpness_structure_set_uint64 (s, SHARPNESS_FIELD_WORST_FRAME,
      e->worst_frame);
  sharpness_structure_set_double (s, SHARPNESS_FIELD_WORST_SCORE,
      e->worst_score);
  return gst_message_new_element (src, s);
}
