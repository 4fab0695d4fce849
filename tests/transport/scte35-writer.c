/* The test SCTE 35 writer (scte35-writer.h).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "scte35-writer.h"

#include <string.h>

typedef struct
{
  guint8 *p;
  gsize max, bits;
} Put;

static void
put (Put * w, guint n, guint64 v)
{
  for (gint i = n - 1; i >= 0; i--, w->bits++) {
    gsize byte = w->bits / 8;

    if (byte >= w->max)
      continue;
    if (w->bits % 8 == 0)
      w->p[byte] = 0;
    w->p[byte] |= ((v >> i) & 1) << (7 - w->bits % 8);
  }
}

/* Reserved bits are 1 (the standard's convention). */
static void
reserved (Put * w, guint n)
{
  put (w, n, (G_GUINT64_CONSTANT (1) << n) - 1);
}

static void
splice_time (Put * w, const SharpnessScte35Time * t)
{
  if (t->pts_time != SHARPNESS_SCTE35_TIME_NONE) {
    put (w, 1, 1);
    reserved (w, 6);
    put (w, 33, t->pts_time);
  } else {
    put (w, 1, 0);
    reserved (w, 7);
  }
}

static void
splice (Put * w, const SharpnessScte35Splice * s, gboolean insert)
{
  put (w, 32, s->splice_event_id);
  put (w, 1, s->cancel);
  if (insert) {
    put (w, 1, s->event_id_compliance);
    reserved (w, 6);
  } else {
    reserved (w, 7);
  }
  if (s->cancel)
    return;
  put (w, 1, s->out_of_network);
  put (w, 1, s->program_splice);
  put (w, 1, s->duration_flag);
  if (insert) {
    put (w, 1, s->splice_immediate);
    reserved (w, 4);
  } else {
    reserved (w, 5);
  }
  if (s->program_splice) {
    if (!insert)
      put (w, 32, s->utc_splice_time);
    else if (!s->splice_immediate)
      splice_time (w, &s->time);
  } else {
    put (w, 8, s->component_count);
    for (guint i = 0; i < s->component_count; i++) {
      put (w, 8, s->components[i].tag);
      if (!insert)
        put (w, 32, s->components[i].utc_splice_time);
      else if (!s->splice_immediate)
        splice_time (w, &s->components[i].time);
    }
  }
  if (s->duration_flag) {
    put (w, 1, s->auto_return);
    reserved (w, 6);
    put (w, 33, s->duration);
  }
  put (w, 16, s->unique_program_id);
  put (w, 8, s->avail_num);
  put (w, 8, s->avails_expected);
}

static void
segmentation (Put * w, const SharpnessScte35Segmentation * g)
{
  gsize start;

  put (w, 8, 0x02);             /* splice_descriptor_tag */
  start = w->bits;
  put (w, 8, 0);                /* descriptor_length, set below */
  put (w, 32, SHARPNESS_SCTE35_CUEI);
  put (w, 32, g->event_id);
  put (w, 1, g->cancel);
  put (w, 1, g->event_id_compliance);
  reserved (w, 6);
  if (!g->cancel) {
    put (w, 1, g->program_segmentation);
    put (w, 1, g->duration != SHARPNESS_SCTE35_TIME_NONE);
    put (w, 1, g->delivery_not_restricted);
    if (!g->delivery_not_restricted) {
      put (w, 1, g->web_delivery_allowed);
      put (w, 1, g->no_regional_blackout);
      put (w, 1, g->archive_allowed);
      put (w, 2, g->device_restrictions);
    } else {
      reserved (w, 5);
    }
    if (!g->program_segmentation) {
      put (w, 8, 2);
      for (guint i = 0; i < 2; i++) {
        put (w, 8, 0x10 + i);
        reserved (w, 7);
        put (w, 33, 9000 * (i + 1));
      }
    }
    if (g->duration != SHARPNESS_SCTE35_TIME_NONE)
      put (w, 40, g->duration);
    put (w, 8, g->upid_type);
    put (w, 8, g->upid_length);
    for (guint i = 0; i < g->upid_length; i++)
      put (w, 8, 'A' + i % 26);
    put (w, 8, g->type_id);
    put (w, 8, g->segment_num);
    put (w, 8, g->segments_expected);
    if (g->has_sub_segment) {
      put (w, 8, g->sub_segment_num);
      put (w, 8, g->sub_segments_expected);
    }
  }
  if (start / 8 < w->max)
    w->p[start / 8] = (w->bits - start) / 8 - 1;
}

gsize
scte35_write (const SharpnessScte35 * s, guint8 * out, gsize max,
    gboolean bad_crc)
{
  Put w = { out, max, 0 };
  gsize cmd_start, cmd_len, loop_start, len;
  guint32 crc = 0xFFFFFFFFu;

  put (&w, 8, SHARPNESS_SCTE35_TABLE_ID);
  put (&w, 1, 0);               /* section_syntax_indicator */
  put (&w, 1, 0);               /* private_indicator */
  put (&w, 2, s->sap_type);
  put (&w, 12, 0);              /* section_length, set below */
  put (&w, 8, s->protocol_version);
  put (&w, 1, s->encrypted);
  put (&w, 6, s->encryption_algorithm);
  put (&w, 33, s->pts_adjustment);
  put (&w, 8, s->cw_index);
  put (&w, 12, s->tier);
  put (&w, 12, 0);              /* splice_command_length, set below */
  put (&w, 8, s->command_type);
  cmd_start = w.bits / 8;
  switch (s->command_type) {
    case SHARPNESS_SCTE35_SPLICE_SCHEDULE:
      put (&w, 8, s->splice_count);
      for (guint i = 0; i < s->splice_count; i++)
        splice (&w, &s->splices[i], FALSE);
      break;
    case SHARPNESS_SCTE35_SPLICE_INSERT:
      splice (&w, &s->splices[0], TRUE);
      break;
    case SHARPNESS_SCTE35_TIME_SIGNAL:
      splice_time (&w, &s->time);
      break;
    case SHARPNESS_SCTE35_PRIVATE_COMMAND:
      put (&w, 32, s->private_identifier);
      for (guint i = 0; i < 5; i++)
        put (&w, 8, 0xA0 + i);
      break;
    default:
      break;
  }
  /* The command counts from splice_command_type's next byte (the
   * standard's splice_command_length: "the number of bytes following the
   * splice_command_type field up to, but not including, the
   * descriptor_loop_length"). */
  cmd_len = w.bits / 8 - cmd_start;
  loop_start = w.bits / 8;
  put (&w, 16, 0);
  for (guint i = 0; i < s->segmentation_count; i++)
    segmentation (&w, &s->segmentations[i]);
  len = w.bits / 8 + 4;
  if (len > max)
    return 0;
  out[1] = (out[1] & 0xF0) | (len - 3) >> 8;
  out[2] = (len - 3) & 0xFF;
  out[11] = (out[11] & 0xF0) | cmd_len >> 8;
  out[12] = cmd_len & 0xFF;
  out[loop_start] = (len - 4 - loop_start - 2) >> 8;
  out[loop_start + 1] = (len - 4 - loop_start - 2) & 0xFF;
  /* ISO/IEC 13818-1 Annex A, bit by bit. */
  for (gsize i = 0; i < len - 4; i++) {
    crc ^= (guint32) out[i] << 24;
    for (gint k = 0; k < 8; k++)
      crc = (crc & 0x80000000u) ? (crc << 1) ^ 0x04C11DB7u : crc << 1;
  }
  crc ^= bad_crc ? 1 : 0;
  out[len - 4] = crc >> 24;
  out[len - 3] = crc >> 16;
  out[len - 2] = crc >> 8;
  out[len - 1] = crc;
  return len;
}

static void
describe (SharpnessScte35 * s, gint command_type, guint64 adjustment)
{
  memset (s, 0, sizeof (*s));
  s->sap_type = 3;
  s->pts_adjustment = adjustment;
  s->cw_index = 0xFF;
  s->tier = 0xFFF;
  s->command_type = command_type;
  s->time.pts_time = s->time.pts = SHARPNESS_SCTE35_TIME_NONE;
}

void
scte35_describe_insert (SharpnessScte35 * s, guint32 event_id,
    guint64 pts_time, guint64 adjustment)
{
  SharpnessScte35Splice *e = &s->splices[0];

  describe (s, SHARPNESS_SCTE35_SPLICE_INSERT, adjustment);
  s->splice_count = 1;
  e->splice_event_id = event_id;
  e->out_of_network = TRUE;
  e->program_splice = TRUE;
  e->duration_flag = TRUE;
  e->event_id_compliance = TRUE;
  e->time.pts_time = pts_time;
  e->time.pts = pts_time == SHARPNESS_SCTE35_TIME_NONE ? pts_time :
      (pts_time + adjustment) & SHARPNESS_SCTE35_PTS_MASK;
  e->auto_return = TRUE;
  e->duration = 30 * 90000 + 17;
  e->unique_program_id = 0x1234;
  e->avail_num = 2;
  e->avails_expected = 3;
}

void
scte35_describe_component_insert (SharpnessScte35 * s, guint32 event_id,
    guint64 adjustment)
{
  SharpnessScte35Splice *e = &s->splices[0];

  scte35_describe_insert (s, event_id, SHARPNESS_SCTE35_TIME_NONE,
      adjustment);
  e->program_splice = FALSE;
  e->component_count = 3;
  for (guint i = 0; i < 3; i++) {
    guint64 t = i == 1 ? SHARPNESS_SCTE35_TIME_NONE : 450000 * (i + 1);

    e->components[i].tag = 0x20 + i;
    e->components[i].time.pts_time = t;
    e->components[i].time.pts = t == SHARPNESS_SCTE35_TIME_NONE ? t :
        (t + adjustment) & SHARPNESS_SCTE35_PTS_MASK;
  }
}

void
scte35_describe_time_signal (SharpnessScte35 * s, guint64 pts_time,
    guint64 adjustment)
{
  describe (s, SHARPNESS_SCTE35_TIME_SIGNAL, adjustment);
  s->time.pts_time = pts_time;
  s->time.pts = pts_time == SHARPNESS_SCTE35_TIME_NONE ? pts_time :
      (pts_time + adjustment) & SHARPNESS_SCTE35_PTS_MASK;
}

void
scte35_describe_command (SharpnessScte35 * s, gint command_type)
{
  describe (s, command_type, 0);
}

void
scte35_describe_schedule (SharpnessScte35 * s, guint32 event_id)
{
  SharpnessScte35Splice *e = &s->splices[0];

  describe (s, SHARPNESS_SCTE35_SPLICE_SCHEDULE, 0);
  s->splice_count = 1;
  e->splice_event_id = event_id;
  e->out_of_network = TRUE;
  e->program_splice = TRUE;
  e->duration_flag = TRUE;
  e->utc_splice_time = 1700000000;
  e->auto_return = TRUE;
  e->duration = 60 * 90000;
  e->unique_program_id = 99;
  e->avail_num = 1;
  e->avails_expected = 1;
  e->time.pts_time = e->time.pts = SHARPNESS_SCTE35_TIME_NONE;
}
