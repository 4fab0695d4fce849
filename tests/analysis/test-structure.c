/* The structure count behind the flat state (analysis/sharpness-structure.c):
 * a hand-worked step, then random planes of every sample kind with padded
 * rows against a plain reference written here from the definition (a pixel
 * is an edge when the larger of its steps to the right and down neighbours,
 * in 8-bit gray, is at least the level), which the vectorised row loops
 * must match exactly.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <glib.h>
#include <stdlib.h>
#include <string.h>

#include "sharpness-structure.h"

/* 8-bit gray of a 16-bit sample by the definition in docs/reference/metrics.md:
 * the significant bits, rounded to 8 bits, saturated. */
static unsigned
gray16 (unsigned raw, int depth, int shift)
{
  unsigned v = raw >> shift;
  int s = depth - 8;
  unsigned g = s > 0 ? (v + (1u << (s - 1))) >> s : v;

  return g > 255 ? 255 : g;
}

static unsigned
gray_at (const SharpnessPlane * p, int x, int y)
{
  const guint8 *row = p->data + (gsize) y * p->stride;

  switch (p->samples) {
    case SHARPNESS_SAMPLES_Y8:
      return row[(gsize) x * p->pixel_stride];
    case SHARPNESS_SAMPLES_Y16LE:{
      const guint8 *px = row + (gsize) x * p->pixel_stride;
      return gray16 (px[0] | (px[1] << 8), p->depth, p->shift);
    }
    default:
      g_assert_not_reached ();
  }
  return 0;
}

static guint64
reference_count (const SharpnessPlane * p, unsigned level)
{
  guint64 n = 0;

  for (int y = 0; y + 1 < p->height; y++)
    for (int x = 0; x + 1 < p->width; x++) {
      int here = gray_at (p, x, y);
      int dx = abs (here - (int) gray_at (p, x + 1, y));
      int dy = abs (here - (int) gray_at (p, x, y + 1));
      n += (unsigned) MAX (dx, dy) >= level;
    }
  return n;
}

static void
test_step (void)
{
  /* 9x4 gray, left half 10, right half 10 + step: one edge column (x = 3,
   * whose right neighbour is across the step) on each of the 3 interior
   * rows when the step reaches the level, none below it. */
  guint8 data[4 * 16];
  SharpnessPlane p = { SHARPNESS_SAMPLES_Y8, data, 16, 9, 4, 1, 0, 0, 0, 0,
    0, 0
  };
  guint64 interior;

  for (int step = 3; step <= 5; step++) {
    for (int y = 0; y < 4; y++)
      for (int x = 0; x < 16; x++)
        data[y * 16 + x] = x < 4 ? 10 : 10 + step;
    g_assert_cmpuint (sharpness_structure_count (&p, 4, &interior), ==,
        step >= 4 ? 3 : 0);
    g_assert_cmpuint (interior, ==, 8 * 3);
  }
  g_assert_cmpfloat (sharpness_structure_share (3, 24), ==, 0.125);
  g_assert_cmpfloat (sharpness_structure_share (0, 0), ==, 0.0);
}

static void
check_random (SharpnessSamples samples, int depth, int shift, GRand * rand)
{
  const int sizes[][2] = { {2, 2}, {3, 7}, {33, 5}, {64, 9}, {257, 13},
  {1921, 3}
  };

  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++) {
    const int w = sizes[i][0], h = sizes[i][1];
    const int bps = samples == SHARPNESS_SAMPLES_Y8 ? 1 : 2;
    const gsize stride = (gsize) w * bps + g_rand_int_range (rand, 0, 40);
    guint8 *data = g_malloc (stride * h);
    SharpnessPlane p = { samples, data, stride, w, h, bps, depth, shift,
      0, 0, 0, 0
    };

    for (gsize k = 0; k < stride * h; k++)
      data[k] = g_rand_int_range (rand, 0, 256);
    /* Smooth stretches too, so that counts are neither all nor none. */
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w / 2; x++)
        for (int b = 0; b < bps; b++)
          data[y * stride + (gsize) x * bps + b] = (guint8) (x + y);
    for (unsigned level = 1; level <= 64; level *= 4) {
      guint64 interior;
      guint64 got = sharpness_structure_count (&p, level, &interior);
      g_assert_cmpuint (got, ==, reference_count (&p, level));
      g_assert_cmpuint (interior, ==, (guint64) (w - 1) * (h - 1));
    }
    g_free (data);
  }
}

static void
test_random (void)
{
  GRand *rand = g_rand_new_with_seed (7);

  check_random (SHARPNESS_SAMPLES_Y8, 8, 0, rand);
  check_random (SHARPNESS_SAMPLES_Y16LE, 10, 0, rand);
  check_random (SHARPNESS_SAMPLES_Y16LE, 10, 6, rand);
  check_random (SHARPNESS_SAMPLES_Y16LE, 16, 0, rand);
  g_rand_free (rand);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/structure/step", test_step);
  g_test_add_func ("/structure/random", test_random);
  return g_test_run ();
}
