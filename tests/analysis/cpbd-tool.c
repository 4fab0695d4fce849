/* cpbd-tool: the CPBD counts (analysis/sharpness-cpbd.h) of raw 8-bit
 * gray frames, one line a frame: "EDGES SHARP".  For
 * tests/analysis/test_cpbd_oracle.py (against a numpy oracle) and
 * tests/detection's studies (the counts of decoded clips).
 *
 *   cpbd-tool WIDTH HEIGHT [FILE]   (default: stdin)
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <stdlib.h>

#include <glib.h>

#include "sharpness-cpbd.h"

int
main (int argc, char **argv)
{
  SharpnessPlane p = { 0, };
  FILE *in = stdin;
  guint8 *frame;
  gsize size;

  if (argc < 3 || argc > 4) {
    fprintf (stderr, "usage: %s WIDTH HEIGHT [FILE]\n", argv[0]);
    return 2;
  }
  p.width = atoi (argv[1]);
  p.height = atoi (argv[2]);
  if (p.width < 1 || p.height < 1 || p.width > 16384 || p.height > 16384) {
    fprintf (stderr, "bad size %sx%s\n", argv[1], argv[2]);
    return 2;
  }
  if (argc == 4 && !(in = fopen (argv[3], "rb"))) {
    perror (argv[3]);
    return 1;
  }
  p.samples = SHARPNESS_SAMPLES_Y8;
  p.pixel_stride = 1;
  p.stride = p.width;
  size = (gsize) p.width * p.height;
  frame = g_malloc (size);
  p.data = frame;
  while (fread (frame, 1, size, in) == size) {
    guint64 edges, sharp;

    sharpness_cpbd_count (&p, &edges, &sharp);
    printf ("%" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT "\n", edges, sharp);
  }
  g_free (frame);
  if (in != stdin)
    fclose (in);
  return 0;
}
