/* The frame loop of the small measurement tools (cpbd-tool, focus-tool):
 * raw 8-bit gray frames of the size on the command line, from a file or
 * stdin, each handed as a SharpnessPlane to the tool's function.
 *
 *   TOOL WIDTH HEIGHT [FILE]   (default: stdin)
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef GRAY_FRAMES_TOOL_H
#define GRAY_FRAMES_TOOL_H

#include <stdio.h>
#include <stdlib.h>

#include <glib.h>

#include "sharpness-plane.h"

/* Called once a frame; returns FALSE to stop with exit status 1. */
typedef gboolean (*GrayFrameFunc) (const SharpnessPlane * plane,
    gpointer data);

/* The tool's main: 2 for bad arguments, 1 when the file cannot be read
 * or @func stopped, else 0. */
static inline int
gray_frames_tool_run (int argc, char **argv, GrayFrameFunc func,
    gpointer data)
{
  SharpnessPlane p = { 0, };
  FILE *in = stdin;
  guint8 *frame;
  gsize size;
  int rc = 0;

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
  while (fread (frame, 1, size, in) == size)
    if (!func (&p, data)) {
      rc = 1;
      break;
    }
  g_free (frame);
  if (in != stdin)
    fclose (in);
  return rc;
}

#endif /* GRAY_FRAMES_TOOL_H */
