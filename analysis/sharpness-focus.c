/* Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Three passes over the frame: its gray image, then the image smoothed by
 * (1, 2, 1) along the rows (the lines axis 0 differences) and down the
 * columns (axis 1's, each row padded with its REACH mirrored columns a
 * side), then the four terms of every pixel of a complete tile, read from
 * those at the mirrored offsets the frame score reads.  The rule measures
 * only the frames its absolute test flags.
 */
#include "sharpness-focus.h"

#include <stdlib.h>
#include <string.h>

#include "classical-terms.h"
#include "sharpness-sums.h"

#define TILE SHARPNESS_FOCUS_TILE
#define ORIGIN SHARPNESS_FOCUS_ORIGIN
/* Columns axis 1 reads either side of its pixel. */
#define REACH 6

_Static_assert ((uint64_t) TILE * SHARPNESS_BLUR_EFFECT_MAX <= UINT32_MAX,
    "a tile row's terms fit in 32 bits");

void
sharpness_focus_scratch_clear (SharpnessFocusScratch * s)
{
  free (s->gray);
  free (s->across);
  free (s->down);
  free (s->tiles);
  memset (s, 0, sizeof (*s));
}

/* Room for a @w x @h frame (the down rows padded) and @n_tiles tiles. */
static int
scratch_reserve (SharpnessFocusScratch * s, int w, int h, size_t n_tiles)
{
  const size_t pixels = (size_t) (w + 2 * REACH) * h;

  if (pixels > s->pixels) {
    free (s->gray);
    free (s->across);
    free (s->down);
    s->gray = malloc (pixels);
    s->across = malloc (pixels * sizeof (int16_t));
    s->down = malloc (pixels * sizeof (int16_t));
    s->pixels = s->gray && s->across && s->down ? pixels : 0;
    if (!s->pixels)
      return 0;
  }
  if (n_tiles > s->n_tiles) {
    free (s->tiles);
    s->tiles = malloc (n_tiles * sizeof (SharpnessFocusTile));
    s->n_tiles = s->tiles ? n_tiles : 0;
    if (!s->tiles)
      return 0;
  }
  return 1;
}

/* The four terms of the tile rows at @y (an interior row) into @tiles
 * (the tile row's first). */
static void
tile_row_terms (const SharpnessFocusScratch * s, int w, int h, int y,
    int tiles_x, SharpnessFocusTile * tiles)
{
  const int16_t *a[6];
  const int16_t *d = s->down + (size_t) y * (w + 2 * REACH) + REACH;
  static const int offsets[6] = { -6, -5, -1, 1, 5, 6 };

  for (int k = 0; k < 6; k++)
    a[k] = s->across + (size_t) sharpness_mirror (y + offsets[k], h) * w;
  for (int t = 0; t < tiles_x; t++) {
    uint32_t sum[4] = { 0, 0, 0, 0 };

    for (int x = ORIGIN + t * TILE; x < ORIGIN + (t + 1) * TILE; x++) {
      unsigned sharp = sharpness_term_blur_sharp (a[2][x], a[3][x]);

      sum[0] += sharp;
      sum[1] += sharpness_term_blur_lost (sharp, a[0][x], a[1][x], a[4][x],
          a[5][x]);
      sharp = sharpness_term_blur_sharp (d[x - 1], d[x + 1]);
      sum[2] += sharp;
      sum[3] += sharpness_term_blur_lost (sharp, d[x - 6], d[x - 5],
          d[x + 5], d[x + 6]);
    }
    for (int k = 0; k < 4; k++)
      tiles[t].sum[k] += sum[k];
  }
}

int
sharpness_focus_tiles (const SharpnessPlane * plane,
    SharpnessFocusScratch * s, int *n)
{
  const int w = plane->width, h = plane->height;
  int tiles_x, tiles_y;

  *n = 0;
  sharpness_focus_grid (w, h, &tiles_x, &tiles_y);
  if (!tiles_x)
    return 1;
  if (!scratch_reserve (s, w, h, (size_t) tiles_x * tiles_y))
    return 0;

  for (int y = 0; y < h; y++) {
    const uint8_t *row = plane->data + (size_t) y * plane->stride;
    uint8_t *g = s->gray + (size_t) y * w;

    if (plane->samples == SHARPNESS_SAMPLES_Y8 && plane->pixel_stride == 1)
      memcpy (g, row, w);
    else
      for (int x = 0; x < w; x++)
        g[x] = sharpness_plane_gray_at (plane, row, x);
  }
  /* Along the rows at columns 1 .. w - 2 (axis 0 reads interior columns
   * only); down the columns at rows 1 .. h - 2 (axis 1 reads interior
   * rows only). */
  for (int y = 0; y < h; y++) {
    const uint8_t *g = s->gray + (size_t) y * w;
    int16_t *v = s->across + (size_t) y * w;

    for (int x = 1; x < w - 1; x++)
      v[x] = (int16_t) (g[x - 1] + 2 * g[x] + g[x + 1]);
  }
  for (int y = 1; y < h - 1; y++) {
    const uint8_t *g = s->gray + (size_t) y * w;
    int16_t *v = s->down + (size_t) y * (w + 2 * REACH) + REACH;

    for (int x = 0; x < w; x++)
      v[x] = (int16_t) (g[x - w] + 2 * g[x] + g[x + w]);
    for (int k = 1; k <= REACH; k++) {
      v[-k] = v[sharpness_mirror (-k, w)];
      v[w - 1 + k] = v[sharpness_mirror (w - 1 + k, w)];
    }
  }

  memset (s->tiles, 0, (size_t) tiles_x * tiles_y * sizeof (*s->tiles));
  for (int y = ORIGIN; y < ORIGIN + tiles_y * TILE; y++)
    tile_row_terms (s, w, h, y, tiles_x,
        s->tiles + (size_t) ((y - ORIGIN) / TILE) * tiles_x);
  *n = tiles_x * tiles_y;
  return 1;
}

double
sharpness_focus_lowest (const SharpnessFocusTile * tiles, int n)
{
  const uint64_t texture = (uint64_t) SHARPNESS_FOCUS_TEXTURE * TILE * TILE;
  double lowest = 1.0;

  for (int i = 0; i < n; i++) {
    const uint64_t *t = tiles[i].sum;
    SharpnessSums sums = {
      .blur_m1 = {t[0], t[2]},
      .blur_m2 = {t[1], t[3]},
    };

    if (t[0] + t[2] < texture)
      continue;
    const double blur = sharpness_score_from_sums (SHARPNESS_METRIC_BLUR_EFFECT,
        &sums, TILE, TILE);
    if (blur < lowest)
      lowest = blur;
  }
  return lowest;
}
