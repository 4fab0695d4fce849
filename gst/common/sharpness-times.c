/* Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "sharpness-fields.h"
#include "sharpness-times.h"

void
sharpness_times_set (SharpnessTimes * t, GstBuffer * buf,
    const GstSegment * segment, const GstVideoInfo * info)
{
  GstClockTime pts = GST_BUFFER_PTS (buf);
  gint fps_n = GST_VIDEO_INFO_FPS_N (info), fps_d = GST_VIDEO_INFO_FPS_D (info);

  t->timestamp = pts;
  if (GST_BUFFER_DURATION_IS_VALID (buf))
    t->duration = GST_BUFFER_DURATION (buf);
  else if (fps_n > 0 && fps_d > 0)
    t->duration = gst_util_uint64_scale_int (GST_SECOND, fps_d, fps_n);
  else
    t->duration = GST_CLOCK_TIME_NONE;
  t->stream_time = t->running_time = GST_CLOCK_TIME_NONE;
  if (GST_CLOCK_TIME_IS_VALID (pts) && segment->format == GST_FORMAT_TIME) {
    t->stream_time = gst_segment_to_stream_time (segment, GST_FORMAT_TIME,
        pts);
    t->running_time = gst_segment_to_running_time (segment, GST_FORMAT_TIME,
        pts);
  }
}

void
sharpness_times_to_structure (const SharpnessTimes * t, GstStructure * s)
{
  sharpness_structure_set_uint64 (s, SHARPNESS_FIELD_TIMESTAMP, t->timestamp);
  sharpness_structure_set_uint64 (s, SHARPNESS_FIELD_STREAM_TIME,
      t->stream_time);
  sharpness_structure_set_uint64 (s, SHARPNESS_FIELD_RUNNING_TIME,
      t->running_time);
  sharpness_structure_set_uint64 (s, SHARPNESS_FIELD_DURATION, t->duration);
}

void
sharpness_interval_reset (SharpnessInterval * interval)
{
  interval->elapsed = 0;
}

gboolean
sharpness_interval_add (SharpnessInterval * interval, GstClockTime duration,
    guint64 period)
{
  if (!GST_CLOCK_TIME_IS_VALID (duration) ||
      duration >= G_MAXUINT64 - interval->elapsed)
    interval->elapsed = G_MAXUINT64;
  else
    interval->elapsed += duration;
  if (interval->elapsed < period)
    return FALSE;
  interval->elapsed = 0;
  return TRUE;
}
