/* SCTE 35 cues in a real multiplex, for the tests that hold the monitor
 * and the analyser to them:
 *   ts-scte35-tool inject [--no-bad-crc] IN.ts OUT.ts [PERIOD]
 *     IN (one programme, a constant rate: FFmpeg's -muxrate, whose null
 *     packets leave room) with its PMT declaring a SCTE 35 PID
 *     (TS_SCTE35_PID, stream_type 0x86, "CUEI" registered in its
 *     program_info) and the SCTE 35 test stream's cues (scte35-stream.h,
 *     one a second from 1 s, the fourth with a bad CRC_32 unless
 *     --no-bad-crc) written in place of null packets, at their times from
 *     the first PCR; with PERIOD (s), the cues again every PERIOD s to the
 *     end;
 *   ts-scte35-tool analyse IN.ts
 *     the analyser on a file: "COMMAND COUNT" for each command,
 *     "crc_error COUNT", "malformed COUNT", then each TR 101 290
 *     indicator's "NAME COUNT", and the CPU time it took ("cpu SECONDS").
 * Only IN's PMT packets (each a whole section, as FFmpeg writes them) and
 * null packets change; every other packet is left where it was.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "sharpness-tr101290.h"
#include "sharpness-ts-section.h"
#include "scte35-stream.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TS_SCTE35_PID 0x1F0
#define PKT 188

static gint
pid_of (const guint8 * p)
{
  return (p[1] & 0x1F) << 8 | p[2];
}

/* A PMT packet with its section whole in it: the registration descriptor
 * added to program_info, the SCTE 35 stream to the loop, CRC_32 anew.
 * FALSE where it does not fit or is not such a packet. */
static gboolean
rewrite_pmt (guint8 * p)
{
  guint8 s[PKT], *t;
  gsize o, len, info, new_len;
  guint32 crc;

  if (!(p[1] & 0x40) || (p[3] & 0x30) != 0x10 || p[4] != 0)
    return FALSE;
  t = p + 5;
  len = 3 + ((t[1] & 0x0F) << 8 | t[2]);
  new_len = len + 6 + 5;
  if (t[0] != 0x02 || 5 + new_len > PKT)
    return FALSE;
  info = (t[10] & 0x0F) << 8 | t[11];
  o = 0;
  memcpy (s, t, 12);
  o = 12;
  s[o++] = 0x05;                /* registration_descriptor "CUEI" */
  s[o++] = 4;
  memcpy (s + o, "CUEI", 4);
  o += 4;
  memcpy (s + o, t + 12, info);
  o += info;
  memcpy (s + o, t + 12 + info, len - 4 - 12 - info);
  o += len - 4 - 12 - info;
  s[o++] = 0x86;
  s[o++] = 0xE0 | TS_SCTE35_PID >> 8;
  s[o++] = TS_SCTE35_PID & 0xFF;
  s[o++] = 0xF0;
  s[o++] = 0;
  info += 6;
  s[10] = (s[10] & 0xF0) | info >> 8;
  s[11] = info & 0xFF;
  s[1] = (s[1] & 0xF0) | (new_len - 3) >> 8;
  s[2] = (new_len - 3) & 0xFF;
  crc = sharpness_ts_crc32 (s, o);
  s[o++] = crc >> 24;
  s[o++] = crc >> 16;
  s[o++] = crc >> 8;
  s[o++] = crc;
  memcpy (t, s, o);
  memset (t + o, 0xFF, PKT - 5 - o);
  return TRUE;
}

static int
inject (const gchar * in, const gchar * out, gdouble period,
    gboolean bad_crc)
{
  gchar *data;
  gsize size;
  GError *error = NULL;
  TsWriter *w = g_new0 (TsWriter, 1);
  Scte35Sent sent[SCTE35_STREAM_CUES];
  guint8 sections[SCTE35_STREAM_CUES][4096];
  guint n = scte35_stream_init (w, sent, bad_crc), next = 0, cc = 0;
  gint pmt_pid = -1, pcr_pid = -1;
  gint64 first_pcr = -1, now = 0, round = 0;
  gsize pos = 0, cue_pos = 0;
  guint pmts = 0;
  gboolean ok;

  g_free (w);
  for (guint i = 0; i < n; i++)
    scte35_write (&sent[i].s, sections[i], sizeof (sections[i]),
        sent[i].bad_crc);
  if (!g_file_get_contents (in, &data, &size, &error)) {
    fprintf (stderr, "ts-scte35-tool: %s\n", error->message);
    return 1;
  }
  for (pos = 0; pos + PKT <= size; pos += PKT) {
    guint8 *p = (guint8 *) data + pos;
    gint pid = pid_of (p);
    gint64 due;

    if (p[0] != 0x47)
      continue;
    if (pid == 0 && (p[1] & 0x40) && pmt_pid < 0)
      pmt_pid = (p[5 + 10] & 0x1F) << 8 | p[5 + 11];
    if (pid == pmt_pid && pmt_pid > 0) {
      if (pcr_pid < 0)
        pcr_pid = (p[5 + 8] & 0x1F) << 8 | p[5 + 9];
      pmts += rewrite_pmt (p);
    }
    if (pid == pcr_pid && (p[3] & 0x20) && p[4] >= 7 && (p[5] & 0x10)) {
      gint64 pcr = ((gint64) p[6] << 25 | p[7] << 17 | p[8] << 9 |
          p[9] << 1 | p[10] >> 7) * 300 + ((p[10] & 1) << 8 | p[11]);

      if (first_pcr < 0)
        first_pcr = pcr;
      now = (pcr - first_pcr) * 1000 / 27;
    }
    if (pid != 0x1FFF || first_pcr < 0)
      continue;
    due = sent[next].at + round;
    if (next >= n || now < due)
      continue;
    /* The next packet of the cue due, in this null packet's place. */
    {
      gsize len = sent[next].len, room = cue_pos == 0 ? 183 : 184,
          k = MIN (room, len - cue_pos);

      p[1] = (cue_pos == 0 ? 0x40 : 0) | TS_SCTE35_PID >> 8;
      p[2] = TS_SCTE35_PID & 0xFF;
      p[3] = 0x10 | (cc++ & 0x0F);
      if (cue_pos == 0)
        p[4] = 0;
      memcpy (p + PKT - room, sections[next] + cue_pos, k);
      memset (p + PKT - room + k, 0xFF, room - k);
      cue_pos += k;
      if (cue_pos == len) {
        cue_pos = 0;
        if (++next == n && period > 0) {
          next = 0;
          round += (gint64) (period * 1e9);
        }
      }
    }
  }
  ok = pmts > 0 && g_file_set_contents (out, data, size, &error);
  if (!ok)
    fprintf (stderr, "ts-scte35-tool: %s\n", error ? error->message :
        "no PMT packet that holds its section whole and has room");
  g_free (data);
  return ok ? 0 : 1;
}

static int
analyse (const gchar * in)
{
  SharpnessTr101290 *a = sharpness_tr101290_new (NULL, NULL, NULL);
  gchar *data;
  gsize size;
  GError *error = NULL;
  clock_t c0;
  gdouble cpu;

  if (!g_file_get_contents (in, &data, &size, &error)) {
    fprintf (stderr, "ts-scte35-tool: %s\n", error->message);
    sharpness_tr101290_free (a);
    return 1;
  }
  c0 = clock ();
  /* 1316-byte pieces, a datagram's. */
  for (gsize o = 0; o < size; o += 1316)
    sharpness_tr101290_push (a, (const guint8 *) data + o, MIN (1316,
            size - o), SHARPNESS_TR101290_TIME_NONE);
  cpu = (gdouble) (clock () - c0) / CLOCKS_PER_SEC;
  for (gint i = 0; i < SHARPNESS_SCTE35_N_COUNTS; i++)
    printf ("%s %" G_GUINT64_FORMAT "\n", sharpness_scte35_count_name (i),
        sharpness_tr101290_scte35_count (a, i));
  for (gint i = SHARPNESS_SCTE35_CRC_ERROR; i < SHARPNESS_SCTE35_N_RESULTS;
      i++)
    printf ("%s %" G_GUINT64_FORMAT "\n", sharpness_scte35_result_name (i),
        sharpness_tr101290_scte35_errors (a, i));
  for (gint i = 0; i < SHARPNESS_TR101290_N_INDICATORS; i++)
    printf ("%s %" G_GUINT64_FORMAT "\n",
        sharpness_tr101290_indicator_name (i),
        sharpness_tr101290_count (a, i));
  printf ("cpu %.3f\n", cpu);
  sharpness_tr101290_free (a);
  g_free (data);
  return 0;
}

int
main (int argc, char **argv)
{
  gboolean bad_crc = !(argc > 2 && g_str_equal (argv[2], "--no-bad-crc"));

  if (!bad_crc) {
    argv[2] = argv[1];
    argv++;
    argc--;
  }
  if ((argc == 4 || argc == 5) && g_str_equal (argv[1], "inject"))
    return inject (argv[2], argv[3], argc == 5 ? g_ascii_strtod (argv[4],
            NULL) : 0, bad_crc);
  if (argc == 3 && g_str_equal (argv[1], "analyse"))
    return analyse (argv[2]);
  fprintf (stderr, "usage: ts-scte35-tool inject [--no-bad-crc] IN.ts "
      "OUT.ts [PERIOD]\n"
      "       ts-scte35-tool analyse IN.ts\n");
  return 2;
}
