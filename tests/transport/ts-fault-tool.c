/* The test writer and the TR 101 290 analyser on files, for the tests
 * that hold them against other tools (FFmpeg's mpegts demuxer):
 *   ts-fault-tool write FAULT SECONDS RATE OUT.ts
 *     a stream of the test writer with FAULT (ts-writer.h's names) at 3 s;
 *   ts-fault-tool analyse IN.ts
 *     the analyser on a file (times from its PCRs), one line a
 *     indicator: "NAME COUNT", the total bitrate ("bitrate BITS/S", over
 *     the last whole second), then "Continuity_count_error/PID COUNT" for
 *     each PID with continuity errors.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "sharpness-tr101290.h"
#include "ts-writer.h"

#include <stdio.h>
#include <stdlib.h>

#define S G_GINT64_CONSTANT (1000000000)

static int
write_file (const gchar * name, const gchar * seconds, const gchar * rate,
    const gchar * out)
{
  TsFault f = ts_fault_from_name (name);
  gint64 secs = g_ascii_strtoll (seconds, NULL, 10), t;
  guint64 bps = g_ascii_strtoull (rate, NULL, 10);
  TsWriter *w;
  guint8 pkt[188];
  FILE *fp;

  if (f == TS_N_FAULTS || secs <= 0 || bps < 100000 || bps > 1000000000) {
    fprintf (stderr, "ts-fault-tool: bad fault '%s', seconds '%s' or rate "
        "'%s'\n", name, seconds, rate);
    return 2;
  }
  if (!(fp = fopen (out, "wb"))) {
    perror (out);
    return 1;
  }
  w = g_new0 (TsWriter, 1);
  ts_writer_init (w, bps, f, 3 * S);
  for (;;) {
    ts_writer_next (w, pkt, &t);
    if (t >= secs * S)
      break;
    if (fwrite (pkt, 188, 1, fp) != 1) {
      perror (out);
      fclose (fp);
      g_free (w);
      return 1;
    }
  }
  g_free (w);
  return fclose (fp) == 0 ? 0 : 1;
}

static void
count_cc (const SharpnessTr101290Error * e, gpointer user_data)
{
  guint64 *per_pid = user_data;

  if (e->indicator == SHARPNESS_TR101290_CONTINUITY_COUNT_ERROR)
    per_pid[e->pid]++;
}

static int
analyse (const gchar * in)
{
  guint64 *per_pid = g_new0 (guint64, 8192);
  SharpnessTr101290 *a = sharpness_tr101290_new (NULL, count_cc, per_pid);
  guint8 buf[1316];
  gsize n;
  FILE *fp = fopen (in, "rb");

  if (!fp) {
    perror (in);
    sharpness_tr101290_free (a);
    g_free (per_pid);
    return 1;
  }
  while ((n = fread (buf, 1, sizeof (buf), fp)) > 0)
    sharpness_tr101290_push (a, buf, n, SHARPNESS_TR101290_TIME_NONE);
  fclose (fp);
  for (gint i = 0; i < SHARPNESS_TR101290_N_INDICATORS; i++)
    printf ("%s %" G_GUINT64_FORMAT "\n",
        sharpness_tr101290_indicator_name (i),
        sharpness_tr101290_count (a, i));
  printf ("bitrate %.0f\n", sharpness_tr101290_bitrate (a, -1));
  for (gint pid = 0; pid < 8192; pid++)
    if (per_pid[pid])
      printf ("Continuity_count_error/%d %" G_GUINT64_FORMAT "\n", pid,
          per_pid[pid]);
  sharpness_tr101290_free (a);
  g_free (per_pid);
  return 0;
}

int
main (int argc, char **argv)
{
  if (argc == 6 && g_str_equal (argv[1], "write"))
    return write_file (argv[2], argv[3], argv[4], argv[5]);
  if (argc == 3 && g_str_equal (argv[1], "analyse"))
    return analyse (argv[2]);
  fprintf (stderr, "usage: ts-fault-tool write FAULT SECONDS RATE OUT.ts\n"
      "       ts-fault-tool analyse IN.ts\n");
  return 2;
}
