/* focus-tool: the focus tiles (analysis/sharpness-focus.h) of raw 8-bit
 * gray frames, one line a frame: "FOCUS TX TY" and the four sums of each
 * tile, row-major.  For tests/analysis/test_focus_oracle.py (against a
 * numpy oracle) and tests/detection's studies.
 *
 *   focus-tool WIDTH HEIGHT [FILE]   (default: stdin)
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <stdlib.h>

#include <glib.h>

#include "sharpness-focus.h"

int
main (int argc, char **argv)
{
  SharpnessPlane p = { 0, };
  SharpnessFocusScratch scratch = { 0, };
  FILE *in = stdin;
  guint8 *frame;
  gsize size;
  int tx, ty, rc = 0;

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
  sharpness_focus_grid (p.width, p.height, &tx, &ty);
  while (fread (frame, 1, size, in) == size) {
    int n;

    if (!sharpness_focus_tiles (&p, &scratch, &n)) {
      fprintf (stderr, "out of memory\n");
      rc = 1;
      break;
    }
    printf ("%.17g %d %d", sharpness_focus_lowest (scratch.tiles, n), tx, ty);
    for (int i = 0; i < n; i++)
      for (int k = 0; k < 4; k++)
        printf (" %" G_GUINT64_FORMAT, (guint64) scratch.tiles[i].sum[k]);
    printf ("\n");
  }
  sharpness_focus_scratch_clear (&scratch);
  g_free (frame);
  if (in != stdin)
    fclose (in);
  return rc;
}
