/* Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>

#include "compare-message.h"

GstMessage *
compare_message_new (GstObject * src, const SharpnessTimes * times,
    guint64 frame, const CompareValues * values, guint64 interval_frames,
    guint64 unpaired)
{
  GstStructure *s = sharpness_structure_new (SHARPNESS_FIELD_COMPARE);

  sharpness_times_to_structure (times, s);
  sharpness_structure_set_uint64 (s, SHARPNESS_FIELD_FRAME, frame);
  compare_values_to_structure (values, s);
  if (interval_frames) {
    sharpness_structure_set_uint64 (s, SHARPNESS_FIELD_FRAMES,
        interval_frames);
    sharpness_structure_set_uint64 (s, SHARPNESS_FIELD_UNPAIRED, unpaired);
  }
  return gst_message_new_element (src, s);
}

GstMessage *
compare_vmaf_message_new (GstObject * src, const SharpnessTimes * times,
    guint64 frame, const CompareValues * values, guint64 interval_frames)
{
  GstStructure *s = sharpness_structure_new (SHARPNESS_FIELD_COMPARE_VMAF);

  sharpness_times_to_structure (times, s);
  sharpness_structure_set_uint64 (s, SHARPNESS_FIELD_FRAME, frame);
  compare_values_to_structure (values, s);
  if (interval_frames)
    sharpness_structure_set_uint64 (s, SHARPNESS_FIELD_FRAMES,
        interval_frames);
  return gst_message_new_element (src, s);
}

static guint64
get_uint64 (const GstStructure * s, SharpnessField field, guint64 missing)
{
  const GValue *v = sharpness_structure_get (s, field);

  return v && G_VALUE_HOLDS_UINT64 (v) ? g_value_get_uint64 (v) : missing;
}

/* The value fields a message may carry, in CompareValues' order. */
static gboolean
is_value_field (SharpnessField f)
{
  return (f >= SHARPNESS_FIELD_PSNR_Y && f <= SHARPNESS_FIELD_MS_SSIM) ||
      f == SHARPNESS_FIELD_VMAF || (f >= SHARPNESS_FIELD_INTEGER_ADM2 &&
      f <= SHARPNESS_FIELD_INTEGER_VIF_SCALE3);
}

gboolean
compare_message_read (GstMessage * msg, gboolean vmaf, CompareMessage * out)
{
  const GstStructure *s;

  if (!msg || GST_MESSAGE_TYPE (msg) != GST_MESSAGE_ELEMENT)
    return FALSE;
  s = gst_message_get_structure (msg);
  if (!s || !sharpness_structure_has_name (s, vmaf ?
          SHARPNESS_FIELD_COMPARE_VMAF : SHARPNESS_FIELD_COMPARE))
    return FALSE;
  out->times.timestamp = get_uint64 (s, SHARPNESS_FIELD_TIMESTAMP,
      GST_CLOCK_TIME_NONE);
  out->times.stream_time = get_uint64 (s, SHARPNESS_FIELD_STREAM_TIME,
      GST_CLOCK_TIME_NONE);
  out->times.running_time = get_uint64 (s, SHARPNESS_FIELD_RUNNING_TIME,
      GST_CLOCK_TIME_NONE);
  out->times.duration = get_uint64 (s, SHARPNESS_FIELD_DURATION,
      GST_CLOCK_TIME_NONE);
  out->frame = get_uint64 (s, SHARPNESS_FIELD_FRAME, 0);
  out->frames = get_uint64 (s, SHARPNESS_FIELD_FRAMES, 0);
  out->unpaired = get_uint64 (s, SHARPNESS_FIELD_UNPAIRED, 0);
  out->values.n = 0;
  for (gint f = 0; f < SHARPNESS_N_FIELDS && out->values.n <
      COMPARE_MAX_VALUES; f++) {
    gdouble v;

    if (is_value_field (f) && sharpness_structure_get_double (s, f, &v))
      compare_values_add (&out->values, f, v);
  }
  return TRUE;
}

gdouble
compare_message_value (const CompareMessage * m, SharpnessField field)
{
  for (gint i = 0; i < m->values.n; i++)
    if (m->values.field[i] == field)
      return m->values.v[i];
  return NAN;
}
