/* The TR 101 290 analyser (transport/sharpness-tr101290.h) on streams of
 * the test writer (ts-writer.h), each with one fault injected at a known
 * time: every indicator's count exact, for arrival times given per packet
 * and for times derived from the PCRs (a file), for whole packets and for
 * pieces of any size; a clean 10-minute stream at 20 Mbit/s raises none,
 * with its bitrates; absences are counted by tick() when the bytes stop.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "sharpness-tr101290.h"
#include "ts-writer.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "test-check.h"

#define S G_GINT64_CONSTANT (1000000000)
#define N SHARPNESS_TR101290_N_INDICATORS

typedef struct
{
  TsFault fault;
  /* TS_sync_loss, Sync_byte, PAT_2, CC, PMT_2, PID, Transport, CRC,
   * PCR_repetition, PCR_discontinuity, PCR_accuracy, PTS, CAT. */
  guint64 expect[N];
} Case;

/* With PCR_accuracy measured (arrival times of a constant-rate interface)
 * and PID_error's limit at its default, 5 s. */
static const Case cases[] = {
  {TS_FAULT_NONE, {0}},
  {TS_FAULT_DROP, {0, 0, 0, 1}},
  {TS_FAULT_DUPLICATE, {0}},    /* one repeat is allowed */
  {TS_FAULT_TRIPLICATE, {0, 0, 0, 1}},
  /* The slot is not read: its packet is lost to its PID too. */
  {TS_FAULT_SYNC_BYTE, {0, 1, 0, 1}},
  /* Continuity: one per PID of the two slots lost (counted below). */
  {TS_FAULT_SYNC_LOSS, {1, 2, 0, 0}},
  {TS_FAULT_TEI, {0, 0, 0, 0, 0, 0, 1}},
  {TS_FAULT_NO_PAT, {0, 0, 1}},
  {TS_FAULT_NO_PMT, {0, 0, 0, 0, 1}},
  {TS_FAULT_CRC, {0, 0, 0, 0, 0, 0, 0, 1}},
  /* 120 ms between PCRs: too long a repetition and too big a step. */
  {TS_FAULT_PCR_GAP, {0, 0, 0, 0, 0, 0, 0, 0, 1, 1}},
  {TS_FAULT_PCR_JUMP, {0, 0, 0, 0, 0, 0, 0, 0, 0, 1}},
  {TS_FAULT_PCR_JUMP_FLAGGED, {0}},
  /* One PCR 1 us off: it, and the next one against it. */
  {TS_FAULT_PCR_JITTER, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2}},
  {TS_FAULT_PTS_GAP, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}},
  /* The audio PID stops for 6 s: its PID_error, and its PTS_error. */
  {TS_FAULT_PID_STOP, {0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1}},
  {TS_FAULT_SCRAMBLED, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}},
  /* 2 s of scrambled PES headers: their PTS cannot be read, no PTS_error. */
  {TS_FAULT_SCRAMBLED_LONG, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}},
  {TS_FAULT_CAT_TABLE, {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}},
  {TS_FAULT_PAT_TABLE, {0, 0, 1}},
};

typedef struct
{
  guint64 n[N];
  gint first_pid[N];
  gint64 first_time[N];
} Seen;

static void
on_error (const SharpnessTr101290Error * e, gpointer user_data)
{
  Seen *s = user_data;

  if (s->n[e->indicator]++ == 0) {
    s->first_pid[e->indicator] = e->pid;
    s->first_time[e->indicator] = e->time;
  }
}

/* @chunk 0: each packet pushed with its slot's time; else pieces of
 * 1..@chunk bytes (varying) with no time (derived from the PCRs). */
static SharpnessTr101290 *
run (TsFault fault, guint64 rate, gint64 seconds, gboolean accuracy,
    gsize chunk, Seen * seen, TsWriter * w)
{
  SharpnessTr101290Settings set;
  SharpnessTr101290 *a;
  guint8 buf[188 * 8];
  gsize fill = 0, piece = 1;
  gint64 t;

  sharpness_tr101290_settings_init (&set);
  set.pcr_accuracy_enabled = accuracy;
  memset (seen, 0, sizeof (*seen));
  a = sharpness_tr101290_new (&set, on_error, seen);
  ts_writer_init (w, rate, fault, 3 * S);
  for (;;) {
    ts_writer_next (w, buf + fill, &t);
    if (t >= seconds * S)
      break;
    if (!chunk) {
      sharpness_tr101290_push (a, buf, 188, t);
      continue;
    }
    fill += 188;
    while (fill >= piece) {
      sharpness_tr101290_push (a, buf, piece, SHARPNESS_TR101290_TIME_NONE);
      memmove (buf, buf + piece, fill - piece);
      fill -= piece;
      piece = piece % chunk + 1 + (piece * 7) % 13;
      piece = MIN (piece, sizeof (buf) - 188);
    }
  }
  if (fill)
    sharpness_tr101290_push (a, buf, fill, SHARPNESS_TR101290_TIME_NONE);
  return a;
}

static void
check_case (const Case * c, gsize chunk)
{
  TsWriter *w = g_new0 (TsWriter, 1);
  Seen seen;
  SharpnessTr101290 *a = run (c->fault, 2000000, 12, chunk == 0, chunk,
      &seen, w);
  guint64 expect[N];

  memcpy (expect, c->expect, sizeof (expect));
  /* Times from the PCRs themselves cannot judge the PCRs' accuracy. */
  if (chunk)
    expect[SHARPNESS_TR101290_PCR_ACCURACY_ERROR] = 0;
  if (c->fault == TS_FAULT_SYNC_LOSS) {
    /* One continuity error per PID whose packet was lost (null aside). */
    for (guint i = 0; i < w->n_corrupted; i++)
      if (w->corrupted_pids[i] != 0x1FFF && (i == 0 ||
              w->corrupted_pids[i] != w->corrupted_pids[0]))
        expect[SHARPNESS_TR101290_CONTINUITY_COUNT_ERROR]++;
  }
  for (gint i = 0; i < N; i++) {
    gchar *what = g_strdup_printf ("%s (%s): %s %" G_GUINT64_FORMAT
        " (expected %" G_GUINT64_FORMAT ")", ts_fault_name (c->fault),
        chunk ? "pieces, times from the PCRs" : "packets, arrival times",
        sharpness_tr101290_indicator_name (i),
        sharpness_tr101290_count (a, i), expect[i]);

    test_check (sharpness_tr101290_count (a, i) == expect[i] &&
        seen.n[i] == expect[i], what);
    g_free (what);
    /* The error comes at the fault (3 s), or after it by its limit;
     * times derived from the PCRs begin at the first PCR (a few ms in). */
    if (expect[i] && seen.n[i])
      test_check (seen.first_time[i] >= 3 * S - (chunk ? S / 100 : 0) &&
          seen.first_time[i] < 10 * S, "  ... at the fault's time");
  }
  sharpness_tr101290_free (a);
  g_free (w);
}

/* >= 10 minutes of a clean 20 Mbit/s stream: no indicator; the bitrates
 * and the clocks seen. */
static void
check_clean_long (void)
{
  TsWriter *w = g_new0 (TsWriter, 1);
  Seen seen;
  SharpnessTr101290 *a = run (TS_FAULT_NONE, 20000000, 600, TRUE, 0,
      &seen, w);
  guint64 total = 0, pcr, pts;
  gdouble sum = 0, rate = sharpness_tr101290_bitrate (a, -1);
  const gint pids[] = { 0, 0x11, TS_WRITER_PMT_PID, TS_WRITER_VIDEO_PID,
    TS_WRITER_AUDIO_PID, 0x1FFF
  };
  gchar *what;

  for (gint i = 0; i < N; i++)
    total += seen.n[i];
  what = g_strdup_printf ("10 minutes at 20 Mbit/s, %" G_GUINT64_FORMAT
      " packets: %" G_GUINT64_FORMAT " errors", sharpness_tr101290_packets (a,
          -1), total);
  test_check (total == 0, what);
  g_free (what);
  test_check (sharpness_tr101290_packets (a, -1) == w->slot - 1,
      "every packet counted");
  /* Over a window of about 1 s the count is exact to a packet. */
  what = g_strdup_printf ("total bitrate %.0f bit/s (20000000)", rate);
  test_check (fabs (rate - 20e6) <= 188 * 8 * 1.01, what);
  g_free (what);
  for (guint i = 0; i < G_N_ELEMENTS (pids); i++)
    sum += sharpness_tr101290_bitrate (a, pids[i]);
  what = g_strdup_printf ("the PIDs' bitrates add up to it (%.0f)", sum);
  test_check (fabs (sum - rate) < 1, what);
  g_free (what);
  /* Video: 75 % of the rate in payload, plus headers. */
  rate = sharpness_tr101290_bitrate (a, TS_WRITER_VIDEO_PID);
  what = g_strdup_printf ("video bitrate %.0f bit/s", rate);
  test_check (rate > 15e6 && rate < 15e6 * 188 / 176 + 1e5, what);
  g_free (what);
  test_check (sharpness_tr101290_last_pcr (a, TS_WRITER_VIDEO_PID, &pcr) &&
      pcr > G_GUINT64_CONSTANT (27000000) * 609 &&
      pcr <= G_GUINT64_CONSTANT (27000000) * 610, "the last PCR seen");
  test_check (sharpness_tr101290_last_pts (a, TS_WRITER_AUDIO_PID, &pts) &&
      pts > 90000 * 610 && pts <= 90000 * 611, "the last audio PTS seen");
  test_check (!sharpness_tr101290_last_pcr (a, TS_WRITER_AUDIO_PID, &pcr),
      "no PCR on the audio PID");
  sharpness_tr101290_free (a);
  g_free (w);
}

/* Bytes that stop: tick() counts the absences without a packet. */
static void
check_tick (void)
{
  TsWriter *w = g_new0 (TsWriter, 1);
  Seen seen;
  SharpnessTr101290 *a = run (TS_FAULT_NONE, 2000000, 2, TRUE, 0, &seen, w);
  gint64 end = 2 * S;

  sharpness_tr101290_tick (a, end + S / 10);
  test_check (seen.n[SHARPNESS_TR101290_PCR_REPETITION_ERROR] == 1 &&
      seen.n[SHARPNESS_TR101290_PAT_ERROR_2] == 0,
      "tick 100 ms after the end: PCR_repetition_error alone");
  sharpness_tr101290_tick (a, end + S);
  test_check (seen.n[SHARPNESS_TR101290_PAT_ERROR_2] == 1 &&
      seen.n[SHARPNESS_TR101290_PMT_ERROR_2] == 1 &&
      seen.n[SHARPNESS_TR101290_PTS_ERROR] == 2 &&
      seen.n[SHARPNESS_TR101290_PID_ERROR] == 0,
      "tick 1 s after: PAT_error_2, PMT_error_2, PTS_error for both PIDs");
  sharpness_tr101290_tick (a, end + 6 * S);
  sharpness_tr101290_tick (a, end + 60 * S);
  test_check (seen.n[SHARPNESS_TR101290_PID_ERROR] == 2 &&
      seen.n[SHARPNESS_TR101290_PAT_ERROR_2] == 1 &&
      seen.n[SHARPNESS_TR101290_PCR_REPETITION_ERROR] == 1,
      "tick 6 s and 60 s after: PID_error for both PIDs; an absence counts "
      "once");
  sharpness_tr101290_free (a);
  g_free (w);
}

/* Bytes before the first packet: sync acquired on 5 packets, nothing
 * counted, nothing lost. */
static void
check_leading_garbage (void)
{
  SharpnessTr101290 *a = sharpness_tr101290_new (NULL, NULL, NULL);
  TsWriter *w = g_new0 (TsWriter, 1);
  guint8 junk[1000], pkt[188];
  gint64 t;
  guint64 total = 0;

  for (guint i = 0; i < sizeof (junk); i++)
    junk[i] = (i * 31) & 0x3F;  /* never 0x47 */
  sharpness_tr101290_push (a, junk, sizeof (junk), 0);
  test_check (!sharpness_tr101290_in_sync (a), "no sync on bytes without 0x47");
  ts_writer_init (w, 2000000, TS_FAULT_NONE, 0);
  for (gint i = 0; i < 2000; i++) {
    ts_writer_next (w, pkt, &t);
    sharpness_tr101290_push (a, pkt, i == 2 ? 100 : 188, t);
    if (i == 2)
      sharpness_tr101290_push (a, pkt + 100, 88, t);
    if (i == 3)
      test_check (!sharpness_tr101290_in_sync (a),
          "4 packets: not in sync yet");
  }
  test_check (sharpness_tr101290_in_sync (a), "in sync");
  for (gint i = 0; i < N; i++)
    total += sharpness_tr101290_count (a, i);
  test_check (total == 0 && sharpness_tr101290_packets (a, -1) == 2000,
      "after garbage: 2000 packets, no error");
  sharpness_tr101290_free (a);
  g_free (w);
}

int
main (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    check_case (&cases[i], 0);
    check_case (&cases[i], 400);
  }
  check_tick ();
  check_leading_garbage ();
  check_clean_long ();
  return test_check_finish (NULL);
}
