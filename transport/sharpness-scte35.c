/* ANSI/SCTE 35 2023r1 splice_info_section (sharpness-scte35.h): clause 9
 * (the section, its commands, splice_time() and break_duration()) and
 * clause 10 (splice descriptors; 10.3.3 segmentation_descriptor()).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "sharpness-scte35.h"
#include "sharpness-ts-section.h"

#include <string.h>

/* splice_descriptor_tag of segmentation_descriptor(). */
#define SEGMENTATION_DESCRIPTOR 0x02
/* The header before splice_command_type's byte, the command's offset. */
#define COMMAND_OFFSET 14
/* A splice_command_length of 0xFFF: the length is the command's own
 * (encoders before SCTE 35 2013 wrote it so). */
#define COMMAND_LENGTH_UNKNOWN 0xFFF

static const gchar *count_names[] = {
  "splice_null", "splice_schedule", "splice_insert", "time_signal",
  "bandwidth_reservation", "private_command", "encrypted", "reserved",
};

G_STATIC_ASSERT (G_N_ELEMENTS (count_names) == SHARPNESS_SCTE35_N_COUNTS);

/* Big-endian bits of [p, end); reading past the end sets @over and gives
 * zeros, so that a short section is one check at the end, not one per
 * field. */
typedef struct
{
  const guint8 *p;
  gsize bits, pos;
  gboolean over;
} Bits;

static void
bits_init (Bits * b, const guint8 * p, gsize bytes)
{
  b->p = p;
  b->bits = bytes * 8;
  b->pos = 0;
  b->over = FALSE;
}

static guint64
bits_read (Bits * b, guint n)
{
  guint64 v = 0;

  if (b->pos + n > b->bits) {
    b->over = TRUE;
    b->pos = b->bits;
    return 0;
  }
  for (guint i = 0; i < n; i++, b->pos++)
    v = v << 1 | ((b->p[b->pos >> 3] >> (7 - (b->pos & 7))) & 1);
  return v;
}

static void
bits_skip (Bits * b, gsize n)
{
  if (b->pos + n > b->bits) {
    b->over = TRUE;
    b->pos = b->bits;
  } else {
    b->pos += n;
  }
}

static void
time_none (SharpnessScte35Time * t)
{
  t->pts_time = t->pts = SHARPNESS_SCTE35_TIME_NONE;
}

/* splice_time(): time_specified_flag, then pts_time or reserved bits. */
static void
splice_time (Bits * b, guint64 adjustment, SharpnessScte35Time * t)
{
  if (bits_read (b, 1)) {
    bits_skip (b, 6);
    t->pts_time = bits_read (b, 33);
    t->pts = (t->pts_time + adjustment) & SHARPNESS_SCTE35_PTS_MASK;
  } else {
    bits_skip (b, 7);
    time_none (t);
  }
}

/* break_duration(): auto_return, 6 reserved, duration. */
static void
break_duration (Bits * b, SharpnessScte35Splice * s)
{
  s->auto_return = bits_read (b, 1);
  bits_skip (b, 6);
  s->duration = bits_read (b, 33);
}

/* One splice event of splice_insert() (@insert) or splice_schedule(): the
 * two share the layout but for splice_immediate_flag, the times (PTS
 * against UTC) and where they sit. */
static void
splice_event (Bits * b, gboolean insert, guint64 adjustment,
    SharpnessScte35Splice * s)
{
  memset (s, 0, sizeof (*s));
  time_none (&s->time);
  s->duration = SHARPNESS_SCTE35_TIME_NONE;
  s->splice_event_id = bits_read (b, 32);
  s->cancel = bits_read (b, 1);
  if (insert) {
    s->event_id_compliance = bits_read (b, 1);
    bits_skip (b, 6);
  } else {
    bits_skip (b, 7);
  }
  if (s->cancel)
    return;
  s->out_of_network = bits_read (b, 1);
  s->program_splice = bits_read (b, 1);
  s->duration_flag = bits_read (b, 1);
  if (insert) {
    s->splice_immediate = bits_read (b, 1);
    bits_skip (b, 4);
  } else {
    bits_skip (b, 5);
  }
  if (s->program_splice) {
    if (!insert)
      s->utc_splice_time = bits_read (b, 32);
    else if (!s->splice_immediate)
      splice_time (b, adjustment, &s->time);
  } else {
    s->component_count = bits_read (b, 8);
    for (guint i = 0; i < s->component_count && !b->over; i++) {
      SharpnessScte35Component c = { 0 };

      c.tag = bits_read (b, 8);
      time_none (&c.time);
      if (!insert)
        c.utc_splice_time = bits_read (b, 32);
      else if (!s->splice_immediate)
        splice_time (b, adjustment, &c.time);
      if (i < SHARPNESS_SCTE35_MAX_COMPONENTS)
        s->components[i] = c;
    }
  }
  if (s->duration_flag)
    break_duration (b, s);
  s->unique_program_id = bits_read (b, 16);
  s->avail_num = bits_read (b, 8);
  s->avails_expected = bits_read (b, 8);
}

/* The command at @b's start; FALSE where it runs past its bytes. */
static gboolean
command (Bits * b, SharpnessScte35 * s)
{
  switch (s->command_type) {
    case SHARPNESS_SCTE35_SPLICE_NULL:
    case SHARPNESS_SCTE35_BANDWIDTH_RESERVATION:
      break;
    case SHARPNESS_SCTE35_SPLICE_SCHEDULE:
      s->splice_count = bits_read (b, 8);
      for (guint i = 0; i < s->splice_count && !b->over; i++) {
        SharpnessScte35Splice one;

        splice_event (b, FALSE, s->pts_adjustment, &one);
        if (i < SHARPNESS_SCTE35_MAX_SPLICES)
          s->splices[i] = one;
      }
      break;
    case SHARPNESS_SCTE35_SPLICE_INSERT:
      s->splice_count = 1;
      splice_event (b, TRUE, s->pts_adjustment, &s->splices[0]);
      break;
    case SHARPNESS_SCTE35_TIME_SIGNAL:
      splice_time (b, s->pts_adjustment, &s->time);
      break;
    case SHARPNESS_SCTE35_PRIVATE_COMMAND:
      /* identifier, then private bytes to the command's end. */
      s->private_identifier = bits_read (b, 32);
      break;
    default:
      break;
  }
  return !b->over;
}

/* A segmentation_descriptor()'s bytes after its identifier. */
static gboolean
segmentation (const guint8 * p, gsize n, SharpnessScte35Segmentation * g)
{
  Bits b;
  gboolean has_duration;
  guint8 t;

  bits_init (&b, p, n);
  memset (g, 0, sizeof (*g));
  g->duration = SHARPNESS_SCTE35_TIME_NONE;
  g->event_id = bits_read (&b, 32);
  g->cancel = bits_read (&b, 1);
  g->event_id_compliance = bits_read (&b, 1);
  bits_skip (&b, 6);
  if (g->cancel)
    return !b.over;
  g->program_segmentation = bits_read (&b, 1);
  has_duration = bits_read (&b, 1);
  g->delivery_not_restricted = bits_read (&b, 1);
  if (!g->delivery_not_restricted) {
    g->web_delivery_allowed = bits_read (&b, 1);
    g->no_regional_blackout = bits_read (&b, 1);
    g->archive_allowed = bits_read (&b, 1);
    g->device_restrictions = bits_read (&b, 2);
  } else {
    bits_skip (&b, 5);
  }
  if (!g->program_segmentation) {
    guint count = bits_read (&b, 8);

    /* component_tag, 7 reserved, pts_offset: not kept. */
    bits_skip (&b, (gsize) count * 48);
  }
  if (has_duration)
    g->duration = bits_read (&b, 40);
  g->upid_type = bits_read (&b, 8);
  g->upid_length = bits_read (&b, 8);
  bits_skip (&b, (gsize) g->upid_length * 8);
  g->type_id = t = bits_read (&b, 8);
  g->segment_num = bits_read (&b, 8);
  g->segments_expected = bits_read (&b, 8);
  /* sub_segment_num and sub_segments_expected: placement opportunity
   * starts (0x34, 0x36) since 2016, the other starts listed in 2023; an
   * encoder of an older edition may leave them out, so they are read
   * where the descriptor has them. */
  if ((t == 0x30 || t == 0x32 || t == 0x34 || t == 0x36 || t == 0x38 ||
          t == 0x3A || t == 0x44 || t == 0x46) && b.pos + 16 <= b.bits) {
    g->has_sub_segment = TRUE;
    g->sub_segment_num = bits_read (&b, 8);
    g->sub_segments_expected = bits_read (&b, 8);
  }
  return !b.over;
}

/* splice_descriptor()s of @n bytes. */
static gboolean
descriptors (const guint8 * p, gsize n, SharpnessScte35 * s)
{
  gsize o = 0;

  while (o < n) {
    guint tag, len;

    if (o + 2 > n)
      return FALSE;
    tag = p[o];
    len = p[o + 1];
    if (o + 2 + len > n || len < 4)
      return FALSE;
    s->n_descriptors++;
    if (tag == SEGMENTATION_DESCRIPTOR && ((guint32) p[o + 2] << 24 |
            p[o + 3] << 16 | p[o + 4] << 8 | p[o + 5]) ==
        SHARPNESS_SCTE35_CUEI) {
      SharpnessScte35Segmentation g;

      if (!segmentation (p + o + 6, len - 4, &g))
        return FALSE;
      if (s->segmentation_count < SHARPNESS_SCTE35_MAX_SEGMENTATIONS)
        s->segmentations[s->segmentation_count] = g;
      s->segmentation_count++;
    }
    o += 2 + len;
  }
  return TRUE;
}

SharpnessScte35Result
sharpness_scte35_parse (const guint8 * t, gsize len, SharpnessScte35 * s)
{
  gsize end, cmd_len, loop;
  Bits b;

  memset (s, 0, sizeof (*s));
  time_none (&s->time);
  /* The fixed header, the command type, descriptor_loop_length, CRC_32. */
  if (len < COMMAND_OFFSET + 2 + 4 || t[0] != SHARPNESS_SCTE35_TABLE_ID ||
      (gsize) (3 + (((t[1] & 0x0F) << 8) | t[2])) != len)
    return SHARPNESS_SCTE35_MALFORMED;
  if (sharpness_ts_crc32 (t, len) != 0)
    return SHARPNESS_SCTE35_CRC_ERROR;
  s->sap_type = (t[1] >> 4) & 3;
  s->protocol_version = t[3];
  s->encrypted = t[4] >> 7;
  s->encryption_algorithm = (t[4] >> 1) & 0x3F;
  s->pts_adjustment = (guint64) (t[4] & 1) << 32 | (guint64) t[5] << 24 |
      t[6] << 16 | t[7] << 8 | t[8];
  s->cw_index = t[9];
  s->tier = t[10] << 4 | t[11] >> 4;
  s->splice_command_length = (t[11] & 0x0F) << 8 | t[12];
  s->command_type = t[13];
  /* Encrypted: the command type and all after it are ciphertext. */
  if (s->encrypted)
    return SHARPNESS_SCTE35_OK;
  end = len - 4;
  cmd_len = s->splice_command_length;
  if (cmd_len == COMMAND_LENGTH_UNKNOWN) {
    bits_init (&b, t + COMMAND_OFFSET, end - COMMAND_OFFSET);
    /* Only a command whose syntax ends itself: not private_command
     * (its bytes run to the command's end) nor a reserved type. */
    if (!command (&b, s) || sharpness_scte35_count_of (s) >=
        SHARPNESS_SCTE35_COUNT_PRIVATE_COMMAND)
      return SHARPNESS_SCTE35_MALFORMED;
    cmd_len = (b.pos + 7) / 8;
  } else {
    if (COMMAND_OFFSET + cmd_len + 2 > end)
      return SHARPNESS_SCTE35_MALFORMED;
    bits_init (&b, t + COMMAND_OFFSET, cmd_len);
    if (!command (&b, s))
      return SHARPNESS_SCTE35_MALFORMED;
  }
  if (COMMAND_OFFSET + cmd_len + 2 > end)
    return SHARPNESS_SCTE35_MALFORMED;
  loop = t[COMMAND_OFFSET + cmd_len] << 8 | t[COMMAND_OFFSET + cmd_len + 1];
  if (COMMAND_OFFSET + cmd_len + 2 + loop > end ||
      !descriptors (t + COMMAND_OFFSET + cmd_len + 2, loop, s))
    return SHARPNESS_SCTE35_MALFORMED;
  return SHARPNESS_SCTE35_OK;
}

SharpnessScte35Count
sharpness_scte35_count_of (const SharpnessScte35 * s)
{
  if (s->encrypted)
    return SHARPNESS_SCTE35_COUNT_ENCRYPTED;
  switch (s->command_type) {
    case SHARPNESS_SCTE35_SPLICE_NULL:
      return SHARPNESS_SCTE35_COUNT_SPLICE_NULL;
    case SHARPNESS_SCTE35_SPLICE_SCHEDULE:
      return SHARPNESS_SCTE35_COUNT_SPLICE_SCHEDULE;
    case SHARPNESS_SCTE35_SPLICE_INSERT:
      return SHARPNESS_SCTE35_COUNT_SPLICE_INSERT;
    case SHARPNESS_SCTE35_TIME_SIGNAL:
      return SHARPNESS_SCTE35_COUNT_TIME_SIGNAL;
    case SHARPNESS_SCTE35_BANDWIDTH_RESERVATION:
      return SHARPNESS_SCTE35_COUNT_BANDWIDTH_RESERVATION;
    case SHARPNESS_SCTE35_PRIVATE_COMMAND:
      return SHARPNESS_SCTE35_COUNT_PRIVATE_COMMAND;
    default:
      return SHARPNESS_SCTE35_COUNT_RESERVED;
  }
}

const gchar *
sharpness_scte35_count_name (SharpnessScte35Count c)
{
  return c < SHARPNESS_SCTE35_N_COUNTS ? count_names[c] : NULL;
}

const gchar *
sharpness_scte35_result_name (SharpnessScte35Result r)
{
  switch (r) {
    case SHARPNESS_SCTE35_CRC_ERROR:
      return "crc_error";
    case SHARPNESS_SCTE35_MALFORMED:
      return "malformed";
    default:
      return NULL;
  }
}
