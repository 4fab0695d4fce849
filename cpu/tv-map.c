/* S3's total-variation map.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * spatial_map (img, p) mirror-pads the image by p on the left and top and
 * p + 1 on the right and bottom (fliplr (img(:, 1:p)), fliplr (img(:,
 * end-p:end)): the edge sample repeats), tiles the padded image with 8 x 8
 * blocks from its corner, gives each block's 64 pixels the block's value,
 * and crops the padding off.  Its loop `for r = 5 : 8 : rows - 4` only
 * takes blocks starting at padded row <= rows - 9: a block that ends on the
 * last padded row is skipped, and pixels of no block keep 0.  p = 8 and
 * p = 4 give two block grids 4 pixels apart; the map is their maximum.
 */
#include "tv-map.h"

#include "sharpness-hd.h"

#include <math.h>
#include <string.h>

/* Block value: the largest total variation of its 49 2 x 2 sub-blocks,
 * divided by 4.  (@y0, @x0): the block's first sample, in image
 * coordinates (negative or past the end inside the padding). */
static double
block_value (const double *image, int width, int height, int y0, int x0)
{
  double g[SHARPNESS_TV_BLOCK][SHARPNESS_TV_BLOCK];
  double best = 0.0;

  for (int i = 0; i < SHARPNESS_TV_BLOCK; i++) {
    const double *row = image + (size_t) sharpness_mirror (y0 + i, height) * width;
    for (int j = 0; j < SHARPNESS_TV_BLOCK; j++)
      g[i][j] = row[sharpness_mirror (x0 + j, width)];
  }

  for (int i = 0; i < SHARPNESS_TV_BLOCK - 1; i++)
    for (int j = 0; j < SHARPNESS_TV_BLOCK - 1; j++) {
      const double a = g[i][j], b = g[i][j + 1];
      const double c = g[i + 1][j], d = g[i + 1][j + 1];
      /* The reference's terms, in its order. */
      const double tv = (fabs (a - b) + fabs (a - c) + fabs (a - d) +
          fabs (d - c) + fabs (c - b) + fabs (d - b)) / 255.0;
      if (tv > best)
        best = tv;
    }
  return best / 4.0;
}

/* One spatial_map (img, @pad) pass, max-ed into @map. */
static void
tv_pass (const double *image, int width, int height, int pad, double *map)
{
  const int padded_w = width + 2 * pad + 1;
  const int padded_h = height + 2 * pad + 1;

  for (int by = 0; by <= padded_h - (SHARPNESS_TV_BLOCK + 1);
      by += SHARPNESS_TV_BLOCK) {
    /* The block's rows inside the crop, in image coordinates. */
    const int y0 = by - pad;
    const int ya = y0 < 0 ? 0 : y0;
    const int yb = y0 + SHARPNESS_TV_BLOCK > height ? height :
        y0 + SHARPNESS_TV_BLOCK;
    if (ya >= yb)
      continue;

    for (int bx = 0; bx <= padded_w - (SHARPNESS_TV_BLOCK + 1);
        bx += SHARPNESS_TV_BLOCK) {
      const int x0 = bx - pad;
      const int xa = x0 < 0 ? 0 : x0;
      const int xb = x0 + SHARPNESS_TV_BLOCK > width ? width :
          x0 + SHARPNESS_TV_BLOCK;
      if (xa >= xb)
        continue;

      const double v = block_value (image, width, height, y0, x0);
      for (int y = ya; y < yb; y++)
        for (int x = xa; x < xb; x++) {
          double *m = map + (size_t) y * width + x;
          if (v > *m)
            *m = v;
        }
    }
  }
}

void
sharpness_cpu_tv_map (const double *image, int width, int height,
    double *map)
{
  /* Pixels of no block are 0 in both passes; every value is >= 0. */
  memset (map, 0, (size_t) width * height * sizeof *map);
  tv_pass (image, width, height, 8, map);
  tv_pass (image, width, height, 4, map);
}
