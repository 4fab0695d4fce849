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
#include "gray-frames-tool.h"
#include "sharpness-cpbd.h"

static gboolean
print_counts (const SharpnessPlane * plane, gpointer data)
{
  guint64 edges, sharp;

  sharpness_cpbd_count (plane, &edges, &sharp);
  printf ("%" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT "\n", edges, sharp);
  return TRUE;
}

int
main (int argc, char **argv)
{
  return gray_frames_tool_run (argc, argv, print_counts, NULL);
}
