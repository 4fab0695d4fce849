/* ANSI/SCTE 35's CPU cost per channel: the SCTE 35 test stream's sections
 * (tests/transport/scte35-stream.h: a time_signal, splice_inserts one of
 * them with three segmentation descriptors over two packets, a
 * splice_null, a component splice, a splice_schedule, one with a bad
 * CRC_32), each parsed as the analyser does (CRC_32 and all), timed after
 * a warm-up run; prints the median and the slowest run in ns per section,
 * and in % of one core for a channel sending @RATE sections a second.
 *   bench-scte35 [REPEATS [RUNS [RATE]]]
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "sharpness-scte35.h"
#include "scte35-stream.h"

#include <stdio.h>
#include <stdlib.h>

#include "bench-cpu-runs.h"

typedef struct
{
  guint8 sections[SCTE35_STREAM_CUES][4096];
  gsize len[SCTE35_STREAM_CUES];
  guint n, repeats;
  guint64 read;
} Cues;

static gdouble
run (gpointer data)
{
  Cues *c = data;
  SharpnessScte35 s;
  gdouble t0 = bench_cpu_seconds (), t;
  guint64 read = 0;

  for (guint r = 0; r < c->repeats; r++)
    for (guint i = 0; i < c->n; i++)
      read += sharpness_scte35_parse (c->sections[i], c->len[i], &s) ==
          SHARPNESS_SCTE35_OK;
  t = bench_cpu_seconds () - t0;
  c->read = read;
  return t;
}

int
main (int argc, char **argv)
{
  static TsWriter w;
  static Cues c;
  Scte35Sent sent[SCTE35_STREAM_CUES];
  gint runs = argc > 2 ? atoi (argv[2]) : 7;
  gdouble rate = argc > 3 ? g_ascii_strtod (argv[3], NULL) : 1.0;
  gdouble median, slowest, per_median, per_slowest;
  guint64 total;

  c.repeats = argc > 1 ? atoi (argv[1]) : 100000;
  c.n = scte35_stream_init (&w, sent, TRUE);
  for (guint i = 0; i < c.n; i++)
    c.len[i] = scte35_write (&sent[i].s, c.sections[i],
        sizeof (c.sections[i]), sent[i].bad_crc);
  if (runs < 1 || c.repeats < 1) {
    fprintf (stderr, "bench-scte35: nothing to run\n");
    return 1;
  }
  bench_cpu_runs (run, &c, runs, &median, &slowest);
  total = (guint64) c.repeats * c.n;
  per_median = median / total;
  per_slowest = slowest / total;
  printf ("%" G_GUINT64_FORMAT " sections (%" G_GUINT64_FORMAT " read), "
      "%d runs\n", total, c.read, runs);
  printf ("median %.1f ns/section, %.6f %% of a core at %g sections/s; "
      "slowest %.1f ns/section, %.6f %%\n", per_median * 1e9,
      100 * per_median * rate, rate, per_slowest * 1e9,
      100 * per_slowest * rate);
  return 0;
}
