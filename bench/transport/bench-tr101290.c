/* The TR 101 290 analyser's CPU cost per 20 Mbit/s channel: a stream held
 * in memory (the test writer's 20 Mbit/s multiplex, or a file given), fed
 * as UDP would bring it (1316-byte datagrams, each with its arrival time
 * at the stream's rate), timed after a warm-up run; prints the median and
 * the slowest of the runs, in ns per packet and in % of one core per 20
 * Mbit/s of stream.
 *   bench-tr101290 [SECONDS [RUNS]]        the writer's stream
 *   bench-tr101290 --file IN.ts [RUNS]     a file, taken as 20 Mbit/s
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "sharpness-tr101290.h"
#include "ts-writer.h"

#include <stdio.h>
#include <stdlib.h>

#include "bench-cpu-runs.h"

#define RATE 20000000
#define DATAGRAM 1316

/* The stream held, and the errors the last run counted. */
typedef struct
{
  const guint8 *ts;
  gsize size;
  guint64 errors;
} Stream;

/* One run over the stream. */
static gdouble
run (gpointer data)
{
  Stream *s = data;
  SharpnessTr101290 *a = sharpness_tr101290_new (NULL, NULL, NULL);
  gint64 per_datagram = (gint64) DATAGRAM * 8 * 1000000000 / RATE;
  gdouble t0 = bench_cpu_seconds (), t;

  for (gsize o = 0, i = 0; o < s->size; o += DATAGRAM, i++)
    sharpness_tr101290_push (a, s->ts + o, MIN (DATAGRAM, s->size - o),
        (gint64) i * per_datagram);
  t = bench_cpu_seconds () - t0;
  s->errors = 0;
  for (gint i = 0; i < SHARPNESS_TR101290_N_INDICATORS; i++)
    s->errors += sharpness_tr101290_count (a, i);
  sharpness_tr101290_free (a);
  return t;
}

int
main (int argc, char **argv)
{
  guint8 *ts = NULL;
  gsize size = 0;
  gint runs = 7;
  gdouble median, slowest, seconds;
  guint64 packets;
  Stream stream;

  if (argc >= 3 && g_str_equal (argv[1], "--file")) {
    GError *err = NULL;

    if (!g_file_get_contents (argv[2], (gchar **) & ts, &size, &err)) {
      fprintf (stderr, "bench-tr101290: %s\n", err->message);
      return 1;
    }
    if (argc > 3)
      runs = atoi (argv[3]);
  } else {
    gint64 secs = argc > 1 ? atoi (argv[1]) : 20, t;
    TsWriter *w = g_new0 (TsWriter, 1);

    if (argc > 2)
      runs = atoi (argv[2]);
    ts_writer_init (w, RATE, TS_FAULT_NONE, G_MAXINT64);
    ts = g_malloc ((gsize) (secs * RATE / 8 / 188 + 1) * 188);
    for (;;) {
      ts_writer_next (w, ts + size, &t);
      if (t >= secs * G_GINT64_CONSTANT (1000000000))
        break;
      size += 188;
    }
    g_free (w);
  }
  if (runs < 1 || size < 188) {
    fprintf (stderr, "bench-tr101290: nothing to run\n");
    return 1;
  }
  packets = size / 188;
  seconds = (gdouble) size * 8 / RATE;
  stream = (Stream) { ts, size, 0 };
  bench_cpu_runs (run, &stream, runs, &median, &slowest);
  printf ("%" G_GUINT64_FORMAT " packets (%.1f s at 20 Mbit/s), %"
      G_GUINT64_FORMAT " errors, %d runs\n", packets, seconds,
      stream.errors, runs);
  printf ("median %.1f ns/packet, %.3f %% of a core per 20 Mbit/s; "
      "slowest %.1f ns/packet, %.3f %%\n", median * 1e9 / packets,
      100 * median / seconds, slowest * 1e9 / packets,
      100 * slowest / seconds);
  g_free (ts);
  return 0;
}
