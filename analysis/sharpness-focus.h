/* The focus of a frame's sharpest textured part: blur-effect's sums
 * (Crete-Roffet et al. 2007; docs/reference/metrics.md) over 64 x 64 tiles
 * of the frame, and the lowest blur effect among the tiles with texture.
 * The blur rule's absolute test reads it (sharpness-blur-detector.h,
 * @focus_threshold): a picture with one sharp textured part is in focus
 * there, however soft the rest of it reads (a shallow depth of field, a
 * sharp subject on a smooth background); a frame out of focus has no such
 * part.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * On the 8-bit gray image I (W x H) of the metrics (sharpness-plane.h):
 *  - blur-effect's per-pixel terms, exactly as the frame score sums them
 *    (core/classical-terms.h: per axis, the Sobel variation M1 and what an
 *    11-tap box along the axis takes away from it, M2; reads mirrored at
 *    the edges), at the interior pixels 2 <= x <= W - 2, 2 <= y <= H - 2;
 *  - tiles: the complete 64 x 64 squares of that interior from (2, 2),
 *    floor ((W - 3) / 64) x floor ((H - 3) / 64), row-major; each holds
 *    the four sums M1, M2 of axis 0 (down the rows), then of axis 1;
 *  - a tile is textured when its M1 of both axes add up to at least
 *    SHARPNESS_FOCUS_TEXTURE a pixel: smooth or faint parts (sky, a wall,
 *    noise on flat ground) have no focus to read;
 *  - the focus: the lowest blur effect (sharpness_score_from_sums) of the
 *    textured tiles, 1 when no tile is textured (nothing in the frame is
 *    sharp).
 * Integer sums, so that the CPU (sharpness_focus_tiles) and the GPU
 * (cuda/focus-tiles.cu) agree to the bit; the focus is computed from them
 * by one function.  Chosen on the held-out suite's tuning half
 * (docs/validation/detection.md, "A tile-level focus gate").
 */
#ifndef SHARPNESS_FOCUS_H
#define SHARPNESS_FOCUS_H

#include <stdint.h>

#include "sharpness-plane.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SHARPNESS_FOCUS_TILE 64
/* The first interior row and column: blur-effect's terms start there. */
#define SHARPNESS_FOCUS_ORIGIN 2
/* M1 of both axes, per pixel, from which a tile is textured. */
#define SHARPNESS_FOCUS_TEXTURE 500

/* One tile's sums: M1 and M2 of axis 0, then of axis 1. */
typedef struct SharpnessFocusTile
{
  uint64_t sum[4];
} SharpnessFocusTile;

/* The tile grid of a @width x @height image (0 x 0 when it has no
 * complete tile).  Inline: the CUDA library, which links no analysis
 * code, sizes its launch with it too. */
static inline void
sharpness_focus_grid (int width, int height, int *tiles_x, int *tiles_y)
{
  const int in_x = width - 1 - SHARPNESS_FOCUS_ORIGIN;
  const int in_y = height - 1 - SHARPNESS_FOCUS_ORIGIN;

  *tiles_x = in_x >= SHARPNESS_FOCUS_TILE && in_y >= SHARPNESS_FOCUS_TILE ?
      in_x / SHARPNESS_FOCUS_TILE : 0;
  *tiles_y = *tiles_x ? in_y / SHARPNESS_FOCUS_TILE : 0;
}

/* Work memory of sharpness_focus_tiles, kept between frames: allocated
 * when a larger frame comes, never per frame. */
typedef struct
{
  uint8_t *gray;                /* the gray image */
  int16_t *across;              /* (1, 2, 1) along each row */
  int16_t *down;                /* (1, 2, 1) down each column, rows padded */
  SharpnessFocusTile *tiles;
  size_t pixels, n_tiles;       /* room, in samples and in tiles */
} SharpnessFocusScratch;

void sharpness_focus_scratch_clear (SharpnessFocusScratch * s);

/* The tile sums of @plane (host memory) into @s->tiles, *@n of them;
 * FALSE when memory is short. */
int sharpness_focus_tiles (const SharpnessPlane * plane,
    SharpnessFocusScratch * s, int *n);

/* The focus of @n tiles (see above). */
double sharpness_focus_lowest (const SharpnessFocusTile * tiles, int n);

#ifdef __cplusplus
}
#endif
#endif /* SHARPNESS_FOCUS_H */
