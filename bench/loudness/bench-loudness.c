/* The loudness library's CPU cost per stereo 48 kHz channel: 60 s of
 * programme-like audio held in memory (noise under struck chords, with
 * level changes), pushed in 1024-frame buffers as a decoder hands them,
 * read every 100 ms as a meter would, timed after a warm-up run; prints
 * the median and the slowest of the runs in % of one core.
 *   bench-loudness [RUNS]
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "sharpness-loudness.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench-cpu-runs.h"

#define RATE 48000
#define SECONDS 60
#define BUFFER 1024

/* The audio held, and the integrated loudness of the last run. */
typedef struct
{
  const gfloat *audio;
  gsize frames;
  gdouble integrated;
} Programme;

static gdouble
run (gpointer data)
{
  Programme *p = data;
  SharpnessLoudness *l = sharpness_loudness_new (2, RATE, NULL);
  SharpnessLoudnessReading r;
  gsize since_read = 0;
  gdouble t0 = bench_cpu_seconds (), t;

  for (gsize o = 0; o < p->frames; o += BUFFER) {
    gsize n = MIN (BUFFER, p->frames - o);

    sharpness_loudness_push (l, p->audio + 2 * o, n);
    if ((since_read += n) >= RATE / 10) {
      sharpness_loudness_read (l, &r);
      since_read = 0;
    }
  }
  sharpness_loudness_read (l, &r);
  t = bench_cpu_seconds () - t0;
  p->integrated = r.integrated;
  sharpness_loudness_free (l);
  return t;
}

int
main (int argc, char **argv)
{
  gint runs = argc > 1 ? atoi (argv[1]) : 7;
  gsize frames = (gsize) RATE * SECONDS;
  gfloat *audio = g_new (gfloat, 2 * frames);
  GRand *rand = g_rand_new_with_seed (1);
  Programme p = { audio, frames, 0 };
  gdouble median, slowest;

  if (runs < 1)
    runs = 1;
  for (gsize i = 0; i < frames; i++) {
    gdouble t = (gdouble) i / RATE;
    gdouble level = 0.05 + 0.2 * (0.5 + 0.5 * sin (2 * G_PI * 0.05 * t));
    gdouble chord = exp (-4 * fmod (t, 0.5)) * (sin (2 * G_PI * 220 * t) +
        0.5 * sin (2 * G_PI * 330 * t));

    for (gint c = 0; c < 2; c++)
      audio[2 * i + c] = level * (0.6 * chord + 0.4 *
          g_rand_double_range (rand, -1, 1));
  }
  g_rand_free (rand);
  bench_cpu_runs (run, &p, runs, &median, &slowest);
  printf ("%d s of stereo at 48 kHz (integrated %.2f LUFS), %d runs\n",
      SECONDS, p.integrated, runs);
  printf ("median %.3f %% of a core per stereo channel; slowest %.3f %%\n",
      100 * median / SECONDS, 100 * slowest / SECONDS);
  g_free (audio);
  return 0;
}
