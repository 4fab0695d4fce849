/* Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>

#include "sharpness-event-message.h"

/* Message names by kind: start, end. */
static const SharpnessField event_names[SHARPNESS_EVENT_N_KINDS][2] = {
  [SHARPNESS_EVENT_BLUR] = {SHARPNESS_FIELD_BLURRY_START,
      SHARPNESS_FIELD_BLURRY_END},
  [SHARPNESS_EVENT_BLACK] = {SHARPNESS_FIELD_BLACK_START,
      SHARPNESS_FIELD_BLACK_END},
  [SHARPNESS_EVENT_FREEZE] = {SHARPNESS_FIELD_FREEZE_START,
      SHARPNESS_FIELD_FREEZE_END},
};

/* The count of frames of the stretch's kind. */
static const SharpnessField kind_frames[SHARPNESS_EVENT_N_KINDS] = {
  [SHARPNESS_EVENT_BLUR] = SHARPNESS_FIELD_BLURRY_FRAMES,
  [SHARPNESS_EVENT_BLACK] = SHARPNESS_FIELD_BLACK_FRAMES,
  [SHARPNESS_EVENT_FREEZE] = SHARPNESS_FIELD_FROZEN_FRAMES,
};

SharpnessField
sharpness_event_message_name (SharpnessEventKind kind, gboolean is_end)
{
  return event_names[kind][is_end ? 1 : 0];
}

SharpnessField
sharpness_event_message_kind_frames (SharpnessEventKind kind)
{
  return kind_frames[kind];
}

static guint64
get_uint64 (const GstStructure * s, SharpnessField field)
{
  const GValue *v = sharpness_structure_get (s, field);

  return v && G_VALUE_HOLDS_UINT64 (v) ? g_value_get_uint64 (v) :
      GST_CLOCK_TIME_NONE;
}

static gdouble
get_double (const GstStructure * s, SharpnessField field)
{
  gdouble d;

  return sharpness_structure_get_double (s, field, &d) ? d : NAN;
}

gboolean
sharpness_event_message_parse (GstMessage * msg, SharpnessEventReading * r)
{
  const GstStructure *s;
  const GValue *v;

  if (GST_MESSAGE_TYPE (msg) != GST_MESSAGE_ELEMENT ||
      !(s = gst_message_get_structure (msg)))
    return FALSE;
  for (gint k = 0; k < SHARPNESS_EVENT_N_KINDS; k++) {
    for (gint end = 0; end < 2; end++) {
      if (!sharpness_structure_has_name (s, event_names[k][end]))
        continue;
      r->kind = (SharpnessEventKind) k;
      r->is_end = end;
      r->metric = sharpness_structure_get_string (s, SHARPNESS_FIELD_METRIC);
      r->timestamp = get_uint64 (s, SHARPNESS_FIELD_TIMESTAMP);
      r->stream_time = get_uint64 (s, SHARPNESS_FIELD_STREAM_TIME);
      r->running_time = get_uint64 (s, SHARPNESS_FIELD_RUNNING_TIME);
      r->start_frame = get_uint64 (s, SHARPNESS_FIELD_START_FRAME);
      r->start = get_uint64 (s, SHARPNESS_FIELD_START);
      r->end = get_uint64 (s, SHARPNESS_FIELD_END);
      r->duration = get_uint64 (s, SHARPNESS_FIELD_DURATION);
      r->end_frame = get_uint64 (s, SHARPNESS_FIELD_END_FRAME);
      r->frames = get_uint64 (s, SHARPNESS_FIELD_FRAMES);
      r->kind_frames = get_uint64 (s, kind_frames[k]);
      r->worst_frame = get_uint64 (s, SHARPNESS_FIELD_WORST_FRAME);
      r->min = get_double (s, SHARPNESS_FIELD_MIN);
      r->mean = get_double (s, SHARPNESS_FIELD_MEAN);
      r->max = get_double (s, SHARPNESS_FIELD_MAX);
      r->worst_score = get_double (s, SHARPNESS_FIELD_WORST_SCORE);
      v = sharpness_structure_get (s, SHARPNESS_FIELD_THUMBNAIL);
      r->thumbnail = v && G_VALUE_HOLDS (v, GST_TYPE_SAMPLE) ?
          gst_value_get_sample (v) : NULL;
      return TRUE;
    }
  }
  return FALSE;
}

guint64
sharpness_event_reading_last_frame (const SharpnessEventReading * r)
{
  const guint64 none = GST_CLOCK_TIME_NONE;

  if (r->kind == SHARPNESS_EVENT_BLUR || r->end_frame == none ||
      r->frames == none || r->kind_frames == none)
    return r->end_frame;
  if (r->kind_frames < r->frames && r->end_frame > 0 &&
      !(r->start_frame != none && r->end_frame <= r->start_frame))
    return r->end_frame - 1;
  return r->end_frame;
}
