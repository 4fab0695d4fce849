/* The loudness library on a raw file, for the test that holds it against
 * FFmpeg's ebur128 filter:
 *   loudness-tool IN.f32 CHANNELS RATE
 * reads interleaved 32-bit float samples, pushes them 100 ms at a time and
 * prints after each push "STEP M S" (LUFS), then "I LRA TP" (LUFS, LU,
 * dBTP) once at the end.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "sharpness-loudness.h"

#include <stdio.h>
#include <stdlib.h>

int
main (int argc, char **argv)
{
  SharpnessLoudness *l;
  SharpnessLoudnessReading r;
  GError *err = NULL;
  guint channels, rate;
  gsize step, n;
  gfloat *buf;
  FILE *fp;

  if (argc != 4) {
    fprintf (stderr, "usage: loudness-tool IN.f32 CHANNELS RATE\n");
    return 2;
  }
  channels = atoi (argv[2]);
  rate = atoi (argv[3]);
  if (!(l = sharpness_loudness_new (channels, rate, &err))) {
    fprintf (stderr, "loudness-tool: %s\n", err->message);
    g_error_free (err);
    return 2;
  }
  if (!(fp = fopen (argv[1], "rb"))) {
    perror (argv[1]);
    sharpness_loudness_free (l);
    return 1;
  }
  step = rate / 10;
  buf = g_new (gfloat, step * channels);
  for (guint64 i = 1; (n = fread (buf, sizeof (gfloat) * channels, step,
              fp)) > 0; i++) {
    sharpness_loudness_push (l, buf, n);
    if (n < step)
      break;
    sharpness_loudness_read (l, &r);
    printf ("%" G_GUINT64_FORMAT " %.4f %.4f\n", i, r.momentary,
        r.short_term);
  }
  fclose (fp);
  sharpness_loudness_read (l, &r);
  printf ("%.4f %.4f %.4f\n", r.integrated, r.range, r.true_peak);
  g_free (buf);
  sharpness_loudness_free (l);
  return 0;
}
