/* ANSI/SCTE 35 splice_info_sections (transport/sharpness-scte35.h) and
 * their reading by the TR 101 290 analyser on the PIDs a PMT declares:
 * every command and field written by the test writer (scte35-writer.h,
 * from the standard's syntax alone) read back equal; pts_adjustment added
 * modulo 2^33; a CRC_32 that does not hold counted as crc_error and not
 * as a command; malformed sections refused; in a stream (ts-writer.h), a
 * section spanning packets, each cue at the packet it ended in, no TR 101
 * 290 indicator raised by a SCTE 35 PID silent for longer than
 * PID_error's limit, for arrival times and for times from the PCRs in
 * pieces of any size.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "sharpness-tr101290.h"
#include "sharpness-ts-section.h"
#include "scte35-stream.h"
#include "ts-writer.h"

#include <stdio.h>
#include <string.h>

#define S G_GINT64_CONSTANT (1000000000)
#define NONE SHARPNESS_SCTE35_TIME_NONE
#define WRAP (G_GUINT64_CONSTANT (1) << 33)

static gint failures, checks;

static void
check (gboolean ok, const gchar * what)
{
  checks++;
  if (!ok) {
    printf ("FAIL %s\n", what);
    failures++;
  }
}

/* Every field the parser keeps, @want against @got; @name says which
 * case. */
#define EQ(field) G_STMT_START { \
  gchar *w_ = g_strdup_printf ("%s: " #field " %" G_GUINT64_FORMAT \
      " (written %" G_GUINT64_FORMAT ")", name, (guint64) (got->field), \
      (guint64) (want->field)); \
  check ((guint64) (got->field) == (guint64) (want->field), w_); \
  g_free (w_); } G_STMT_END

static void
same_splice (const gchar * name, const SharpnessScte35Splice * want,
    const SharpnessScte35Splice * got)
{
  EQ (splice_event_id);
  EQ (cancel);
  EQ (out_of_network);
  EQ (program_splice);
  EQ (duration_flag);
  EQ (splice_immediate);
  EQ (event_id_compliance);
  EQ (time.pts_time);
  EQ (time.pts);
  EQ (utc_splice_time);
  EQ (auto_return);
  EQ (duration);
  EQ (unique_program_id);
  EQ (avail_num);
  EQ (avails_expected);
  EQ (component_count);
  for (guint i = 0; i < MIN (want->component_count,
          SHARPNESS_SCTE35_MAX_COMPONENTS); i++) {
    EQ (components[i].tag);
    EQ (components[i].time.pts_time);
    EQ (components[i].time.pts);
    EQ (components[i].utc_splice_time);
  }
}

static void
same_segmentation (const gchar * name, const SharpnessScte35Segmentation *
    want, const SharpnessScte35Segmentation * got)
{
  EQ (event_id);
  EQ (cancel);
  EQ (event_id_compliance);
  EQ (program_segmentation);
  EQ (delivery_not_restricted);
  EQ (web_delivery_allowed);
  EQ (no_regional_blackout);
  EQ (archive_allowed);
  EQ (device_restrictions);
  EQ (duration);
  EQ (upid_type);
  EQ (upid_length);
  EQ (type_id);
  EQ (segment_num);
  EQ (segments_expected);
  EQ (has_sub_segment);
  EQ (sub_segment_num);
  EQ (sub_segments_expected);
}

static void
same (const gchar * name, const SharpnessScte35 * want,
    const SharpnessScte35 * got)
{
  EQ (sap_type);
  EQ (protocol_version);
  EQ (encrypted);
  EQ (encryption_algorithm);
  EQ (cw_index);
  EQ (pts_adjustment);
  EQ (tier);
  EQ (command_type);
  EQ (time.pts_time);
  EQ (time.pts);
  EQ (private_identifier);
  EQ (segmentation_count);
  if (want->encrypted)
    return;
  EQ (splice_count);
  for (guint i = 0; i < MIN (want->splice_count,
          SHARPNESS_SCTE35_MAX_SPLICES); i++)
    same_splice (name, &want->splices[i], &got->splices[i]);
  for (guint i = 0; i < MIN (want->segmentation_count,
          SHARPNESS_SCTE35_MAX_SEGMENTATIONS); i++)
    same_segmentation (name, &want->segmentations[i],
        &got->segmentations[i]);
}

/* The cases: each written, read, compared. */
typedef struct
{
  const gchar *name;
  SharpnessScte35 s;
  SharpnessScte35Count count;
} Case;

static guint
make_cases (Case * c)
{
  guint n = 0;
  SharpnessScte35 *s;
  SharpnessScte35Splice *e;

  c[n].name = "splice_insert, program, time, duration";
  scte35_describe_insert (&c[n].s, 0x10000001, 900000, 0);
  c[n++].count = SHARPNESS_SCTE35_COUNT_SPLICE_INSERT;

  c[n].name = "splice_insert, pts_adjustment wrapping";
  scte35_describe_insert (&c[n].s, 7, WRAP - 90000, 180000);
  c[n++].count = SHARPNESS_SCTE35_COUNT_SPLICE_INSERT;

  c[n].name = "splice_insert, immediate, no duration, return";
  scte35_describe_insert (&c[n].s, 8, NONE, 5);
  e = &c[n].s.splices[0];
  e->splice_immediate = TRUE;
  e->out_of_network = FALSE;
  e->duration_flag = FALSE;
  e->duration = NONE;
  e->auto_return = FALSE;
  e->time.pts_time = e->time.pts = NONE;
  c[n++].count = SHARPNESS_SCTE35_COUNT_SPLICE_INSERT;

  c[n].name = "splice_insert, time not specified";
  scte35_describe_insert (&c[n].s, 9, NONE, 0);
  e = &c[n].s.splices[0];
  e->time.pts_time = e->time.pts = NONE;
  c[n++].count = SHARPNESS_SCTE35_COUNT_SPLICE_INSERT;

  c[n].name = "splice_insert, cancel";
  scte35_describe_insert (&c[n].s, 10, NONE, 0);
  e = &c[n].s.splices[0];
  memset (e, 0, sizeof (*e));
  e->splice_event_id = 10;
  e->cancel = TRUE;
  e->time.pts_time = e->time.pts = NONE;
  e->duration = NONE;
  c[n++].count = SHARPNESS_SCTE35_COUNT_SPLICE_INSERT;

  c[n].name = "splice_insert, components";
  scte35_describe_component_insert (&c[n].s, 11, 1000);
  c[n++].count = SHARPNESS_SCTE35_COUNT_SPLICE_INSERT;

  c[n].name = "time_signal with segmentation descriptors";
  scte35_describe_time_signal (&c[n].s, 123456789, 4321);
  scte35_add_segmentation (&c[n].s, 0x4800008F, 0x34, 12, TRUE);
  scte35_add_segmentation (&c[n].s, 0x48000090, 0x30, 0, FALSE);
  scte35_add_segmentation (&c[n].s, 0x48000091, 0x35, 3, TRUE);
  c[n].s.segmentations[2].delivery_not_restricted = TRUE;
  c[n].s.segmentations[2].web_delivery_allowed = FALSE;
  c[n].s.segmentations[2].archive_allowed = FALSE;
  c[n].s.segmentations[2].device_restrictions = 0;
  c[n].s.segmentations[2].duration = NONE;
  c[n++].count = SHARPNESS_SCTE35_COUNT_TIME_SIGNAL;

  c[n].name = "time_signal, segmentation cancel";
  scte35_describe_time_signal (&c[n].s, 5, 0);
  scte35_add_segmentation (&c[n].s, 0x1234, 0x36, 4, TRUE);
  memset (&c[n].s.segmentations[0], 0, sizeof (SharpnessScte35Segmentation));
  c[n].s.segmentations[0].event_id = 0x1234;
  c[n].s.segmentations[0].cancel = TRUE;
  c[n].s.segmentations[0].duration = NONE;
  c[n++].count = SHARPNESS_SCTE35_COUNT_TIME_SIGNAL;

  c[n].name = "time_signal, time not specified";
  scte35_describe_time_signal (&c[n].s, NONE, 77);
  c[n++].count = SHARPNESS_SCTE35_COUNT_TIME_SIGNAL;

  c[n].name = "splice_null";
  scte35_describe_command (&c[n].s, SHARPNESS_SCTE35_SPLICE_NULL);
  c[n++].count = SHARPNESS_SCTE35_COUNT_SPLICE_NULL;

  c[n].name = "splice_schedule, two events";
  s = &c[n].s;
  scte35_describe_schedule (s, 21);
  s->splice_count = 2;
  e = &s->splices[1];
  e->splice_event_id = 22;
  e->component_count = 2;
  e->components[0].tag = 1;
  e->components[0].utc_splice_time = 1700000100;
  e->components[1].tag = 2;
  e->components[1].utc_splice_time = 1700000200;
  e->components[0].time.pts_time = e->components[0].time.pts = NONE;
  e->components[1].time.pts_time = e->components[1].time.pts = NONE;
  e->time.pts_time = e->time.pts = NONE;
  e->duration = NONE;
  c[n++].count = SHARPNESS_SCTE35_COUNT_SPLICE_SCHEDULE;

  c[n].name = "bandwidth_reservation";
  scte35_describe_command (&c[n].s, SHARPNESS_SCTE35_BANDWIDTH_RESERVATION);
  c[n++].count = SHARPNESS_SCTE35_COUNT_BANDWIDTH_RESERVATION;

  c[n].name = "private_command";
  scte35_describe_command (&c[n].s, SHARPNESS_SCTE35_PRIVATE_COMMAND);
  c[n].s.private_identifier = 0x47534854;
  c[n++].count = SHARPNESS_SCTE35_COUNT_PRIVATE_COMMAND;

  c[n].name = "encrypted";
  scte35_describe_insert (&c[n].s, 12, 90000, 0);
  c[n].s.encrypted = TRUE;
  c[n].s.encryption_algorithm = 3;
  c[n].s.cw_index = 7;
  c[n++].count = SHARPNESS_SCTE35_COUNT_ENCRYPTED;

  c[n].name = "reserved command type";
  scte35_describe_command (&c[n].s, 0x02);
  c[n++].count = SHARPNESS_SCTE35_COUNT_RESERVED;
  return n;
}

static void
test_sections (void)
{
  Case cases[20];
  guint n = make_cases (cases);
  guint8 buf[4096];

  for (guint i = 0; i < n; i++) {
    SharpnessScte35 got;
    gsize len = scte35_write (&cases[i].s, buf, sizeof (buf), FALSE);
    gchar *what;

    check (len > 0, cases[i].name);
    what = g_strdup_printf ("%s: parsed", cases[i].name);
    check (sharpness_scte35_parse (buf, len, &got) == SHARPNESS_SCTE35_OK,
        what);
    g_free (what);
    same (cases[i].name, &cases[i].s, &got);
    what = g_strdup_printf ("%s: counted as %s", cases[i].name,
        sharpness_scte35_count_name (cases[i].count));
    check (sharpness_scte35_count_of (&got) == cases[i].count, what);
    g_free (what);
    /* Its CRC_32 broken: not read. */
    len = scte35_write (&cases[i].s, buf, sizeof (buf), TRUE);
    what = g_strdup_printf ("%s: bad CRC_32 refused", cases[i].name);
    check (sharpness_scte35_parse (buf, len, &got) ==
        SHARPNESS_SCTE35_CRC_ERROR, what);
    g_free (what);
  }
}

/* Sections whose lengths lie, with a CRC_32 that holds over them. */
static void
refix_crc (guint8 * b, gsize len)
{
  guint32 crc = sharpness_ts_crc32 (b, len - 4);

  b[len - 4] = crc >> 24;
  b[len - 3] = crc >> 16;
  b[len - 2] = crc >> 8;
  b[len - 1] = crc;
}

static void
test_malformed (void)
{
  SharpnessScte35 s, got;
  guint8 buf[4096], bad[4096];
  gsize len;

  scte35_describe_insert (&s, 1, 90000, 0);
  scte35_add_segmentation (&s, 2, 0x34, 8, TRUE);
  len = scte35_write (&s, buf, sizeof (buf), FALSE);

  /* splice_command_length past the section. */
  memcpy (bad, buf, len);
  bad[11] |= 0x0F;
  bad[12] = 0xF0;
  refix_crc (bad, len);
  check (sharpness_scte35_parse (bad, len, &got) ==
      SHARPNESS_SCTE35_MALFORMED, "command length past the end: malformed");
  /* descriptor_loop_length past the section. */
  memcpy (bad, buf, len);
  bad[14 + ((buf[11] & 0x0F) << 8 | buf[12])] = 0x0F;
  refix_crc (bad, len);
  check (sharpness_scte35_parse (bad, len, &got) ==
      SHARPNESS_SCTE35_MALFORMED, "descriptor loop past the end: malformed");
  /* section_length not the bytes given. */
  check (sharpness_scte35_parse (buf, len - 1, &got) ==
      SHARPNESS_SCTE35_MALFORMED, "a short section: malformed");
  check (sharpness_scte35_parse (buf, 10, &got) ==
      SHARPNESS_SCTE35_MALFORMED, "10 bytes: malformed");
  /* Another table_id. */
  memcpy (bad, buf, len);
  bad[0] = 0xFB;
  refix_crc (bad, len);
  check (sharpness_scte35_parse (bad, len, &got) ==
      SHARPNESS_SCTE35_MALFORMED, "table_id 0xFB: not a splice_info_section");
  /* splice_command_length 0xFFF (before SCTE 35 2013): the command's own
   * length is used. */
  memcpy (bad, buf, len);
  bad[11] |= 0x0F;
  bad[12] = 0xFF;
  refix_crc (bad, len);
  check (sharpness_scte35_parse (bad, len, &got) == SHARPNESS_SCTE35_OK,
      "splice_command_length 0xFFF: read");
  s.splice_command_length = 0xFFF;
  same ("splice_command_length 0xFFF", &s, &got);
}

/* --- In a stream ------------------------------------------------------ */

typedef struct
{
  guint n, n_errors;
  SharpnessScte35 cues[SCTE35_STREAM_CUES];
  guint64 packet[SCTE35_STREAM_CUES], error_packet[4];
  SharpnessScte35Result errors[4];
  gint pid;
} Heard;

static void
on_cue (const SharpnessTr101290Scte35 * e, gpointer user_data)
{
  Heard *h = user_data;

  h->pid = e->pid;
  if (e->cue && h->n < G_N_ELEMENTS (h->cues)) {
    h->cues[h->n] = *e->cue;
    h->packet[h->n++] = e->packet;
  } else if (!e->cue && h->n_errors < G_N_ELEMENTS (h->errors)) {
    h->errors[h->n_errors] = e->result;
    h->error_packet[h->n_errors++] = e->packet;
  }
}

static void
test_stream (gboolean derived)
{
  static TsWriter w;
  Scte35Sent sent[SCTE35_STREAM_CUES];
  guint n = scte35_stream_init (&w, sent, TRUE);
  Heard h = { 0 };
  SharpnessTr101290 *a = sharpness_tr101290_new (NULL, NULL, NULL);
  guint8 chunk[400 * 188];
  guint32 seed = 12345;
  const gchar *how = derived ? "PCR times, pieces" : "arrival times";
  gint64 t = 0;
  gsize fill = 0;
  gchar *what;
  guint k = 0, expect[SHARPNESS_SCTE35_N_COUNTS] = { 0 }, expect_errors = 0;

  sharpness_tr101290_set_scte35_func (a, on_cue, &h);
  /* 30 s: the SCTE 35 PID is silent for 25 s after its last cue. */
  while (t < 30 * S) {
    ts_writer_next (&w, chunk + fill, &t);
    fill += 188;
    if (!derived) {
      sharpness_tr101290_push (a, chunk, fill, t);
      fill = 0;
    } else if (fill >= 400 * 188 - 188) {
      /* Pieces of 1 to 400 bytes. */
      for (gsize o = 0; o < fill;) {
        gsize m;

        seed = seed * 1664525u + 1013904223u;
        m = MIN (fill - o, 1 + (seed >> 8) % 400);
        sharpness_tr101290_push (a, chunk + o, m,
            SHARPNESS_TR101290_TIME_NONE);
        o += m;
      }
      fill = 0;
    }
  }
  if (fill)
    sharpness_tr101290_push (a, chunk, fill, derived ?
        SHARPNESS_TR101290_TIME_NONE : t);

  for (guint i = 0; i < n; i++) {
    if (sent[i].bad_crc)
      expect_errors++;
    else
      expect[sharpness_scte35_count_of (&sent[i].s)]++;
  }
  what = g_strdup_printf ("%s: %u commands and %u crc_error heard (%u, %u)",
      how, n - expect_errors, expect_errors, h.n, h.n_errors);
  check (h.n == n - expect_errors && h.n_errors == expect_errors, what);
  g_free (what);
  check (h.pid == TS_WRITER_SCTE35_PID, "the SCTE 35 PID");
  check (sharpness_tr101290_scte35_pids (a) == 1, "one SCTE 35 PID declared");
  for (guint i = 0; i < n && k < h.n; i++) {
    if (sent[i].bad_crc) {
      check (h.n_errors && h.errors[0] == SHARPNESS_SCTE35_CRC_ERROR &&
          h.error_packet[0] == w.cue_slot[i], "crc_error at its packet");
      continue;
    }
    what = g_strdup_printf ("%s: cue %u", how, i);
    same (what, &sent[i].s, &h.cues[k]);
    g_free (what);
    what = g_strdup_printf ("%s: cue %u at packet %" G_GUINT64_FORMAT
        " (sent %" G_GUINT64_FORMAT ")", how, i, h.packet[k], w.cue_slot[i]);
    check (h.packet[k] == w.cue_slot[i], what);
    g_free (what);
    k++;
  }
  check (sent[1].s.splices[0].time.pts == 2000900, "cue 1's adjusted PTS");
  check (sent[2].s.splices[0].time.pts == 90000,
      "cue 2's PTS wrapped past 2^33");
  what = g_strdup_printf ("cue 1 spanned packets (%" G_GSIZE_FORMAT
      " bytes)", sent[1].len);
  check (sent[1].len > 183 && h.cues[1].segmentation_count == 3, what);
  g_free (what);
  for (gint c = 0; c < SHARPNESS_SCTE35_N_COUNTS; c++) {
    what = g_strdup_printf ("%s: %u %s (%" G_GUINT64_FORMAT ")", how,
        expect[c], sharpness_scte35_count_name (c),
        sharpness_tr101290_scte35_count (a, c));
    check (sharpness_tr101290_scte35_count (a, c) == expect[c], what);
    g_free (what);
  }
  check (sharpness_tr101290_scte35_errors (a,
          SHARPNESS_SCTE35_CRC_ERROR) == expect_errors, "1 crc_error");
  check (sharpness_tr101290_scte35_errors (a,
          SHARPNESS_SCTE35_MALFORMED) == 0, "0 malformed");
  for (gint i = 0; i < SHARPNESS_TR101290_N_INDICATORS; i++) {
    what = g_strdup_printf ("%s: %s 0 (%" G_GUINT64_FORMAT ")", how,
        sharpness_tr101290_indicator_name (i),
        sharpness_tr101290_count (a, i));
    check (sharpness_tr101290_count (a, i) == 0, what);
    g_free (what);
  }
  sharpness_tr101290_free (a);
}

int
main (void)
{
  test_sections ();
  test_malformed ();
  test_stream (FALSE);
  test_stream (TRUE);
  printf ("%d checks, %d failed\n", checks, failures);
  return failures ? 1 : 0;
}
