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
#include "gray-frames-tool.h"
#include "sharpness-focus.h"

static gboolean
print_tiles (const SharpnessPlane * plane, gpointer data)
{
  SharpnessFocusScratch *scratch = data;
  int n, tx, ty;

  if (!sharpness_focus_tiles (plane, scratch, &n)) {
    fprintf (stderr, "out of memory\n");
    return FALSE;
  }
  sharpness_focus_grid (plane->width, plane->height, &tx, &ty);
  printf ("%.17g %d %d", sharpness_focus_lowest (scratch->tiles, n), tx, ty);
  for (int i = 0; i < n; i++)
    for (int k = 0; k < 4; k++)
      printf (" %" G_GUINT64_FORMAT, (guint64) scratch->tiles[i].sum[k]);
  printf ("\n");
  return TRUE;
}

int
main (int argc, char **argv)
{
  SharpnessFocusScratch scratch = { 0, };
  int rc = gray_frames_tool_run (argc, argv, print_tiles, &scratch);

  sharpness_focus_scratch_clear (&scratch);
  return rc;
}
