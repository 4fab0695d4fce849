/* Where in the frame: tile grids, regions of a plane (ROIs) and the
 * per-tile exact sums of the classical metrics, shared by both backends
 * and the element (docs/reference/tiles.md).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Partition of a W x H region into cols x rows tiles: tile (c, r) spans
 * columns floor (c * W / cols) .. floor ((c + 1) * W / cols) - 1 and rows
 * floor (r * H / rows) .. floor ((r + 1) * H / rows) - 1.  Every per-pixel
 * term of a metric belongs to the tile holding its anchor pixel (the
 * centre of a 3x3 window, g[y][x] of a 2x2 one, the pixel itself for
 * variance and entropy), so the tiles' sums add up exactly to the
 * region's.  A tile's score is sharpness_score_from_sums() of its own sums
 * over its own pixel count: the backends agree on the sums, so the tile
 * scores are bit-identical too.
 */
#ifndef SHARPNESS_TILES_H
#define SHARPNESS_TILES_H

#include <stdint.h>

#include "sharpness-metric.h"
#include "sharpness-plane.h"
#include "sharpness-status.h"
#include "sharpness-sums.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest grid, per axis. */
#define SHARPNESS_TILES_MAX 64

/* A rectangle of a plane, in pixels. */
typedef struct
{
  int x, y, width, height;
} SharpnessRect;

/* The per-tile sums of one region, in arrays the caller owns (or makes
 * with sharpness_tile_sums_init()), tiles in row-major order:
 *   sum     every metric but entropy: the tile's sum (variance: of g);
 *   sum_sq  variance: the tile's sum of g squared;
 *   hist    entropy: 256 counts per tile, tile t at hist + 256 * t.
 * The arrays a metric does not use may be NULL.  Tile counts are 32-bit:
 * regions of fewer than 2^32 pixels. */
typedef struct
{
  int cols, rows;
  uint64_t *sum;
  uint64_t *sum_sq;
  uint32_t *hist;
} SharpnessTileSums;

/* What one batched call scores: @rect of @plane (the whole plane when
 * @rect's width or height is 0) with, when @tiles is not NULL, the sums of
 * @tiles->cols x @tiles->rows tiles of that rectangle.  Backends read only
 * inside @rect, and its sums equal those of the cropped plane scored alone
 * (sharpness_plane_crop()): windowed terms count where the whole window
 * lies inside the rectangle.  @plane is the plane the region lies in, so
 * that a backend can keep its aligned fast path for a ROI. */
typedef struct
{
  SharpnessPlane plane;
  SharpnessRect rect;
  SharpnessTileSums *tiles;
} SharpnessRegion;

/* 1 when cols x rows is a valid grid (1 .. SHARPNESS_TILES_MAX each). */
int sharpness_tiles_valid (int cols, int rows);

/* First and one-past-last pixel of part @i of @n pixels cut in @parts:
 * floor (i * n / parts), floor ((i + 1) * n / parts). */
SHARPNESS_HD void
sharpness_tile_span (int n, int parts, int i, int *begin, int *end)
{
  *begin = (int) ((int64_t) i * n / parts);
  *end = (int) ((int64_t) (i + 1) * n / parts);
}

/* The part holding pixel @x of @n pixels cut in @parts: the largest i with
 * floor (i * n / parts) <= x, i.e. floor (((x + 1) * parts - 1) / n). */
SHARPNESS_HD int
sharpness_tile_of (int x, int n, int parts)
{
  return (int) ((((int64_t) x + 1) * parts - 1) / n);
}

/* Allocates the arrays @metric uses for a cols x rows grid (zeroed);
 * SHARPNESS_ERROR_INVALID for a bad grid or a metric without tiles,
 * SHARPNESS_ERROR_NO_MEMORY.  Free with sharpness_tile_sums_clear(). */
SharpnessStatus sharpness_tile_sums_init (SharpnessTileSums * tiles,
    SharpnessMetric metric, int cols, int rows);
void sharpness_tile_sums_clear (SharpnessTileSums * tiles);

/* 1 when @tiles has a valid grid and the arrays @metric fills. */
int sharpness_tile_sums_ok (const SharpnessTileSums * tiles,
    SharpnessMetric metric);
/* Zeroes the arrays @metric fills (the backends start from this). */
void sharpness_tile_sums_zero (SharpnessTileSums * tiles,
    SharpnessMetric metric);

/* 1 for the metrics that have tile sums and batches: the classical ones
 * with a `sum` (variance, the gradient metrics) or a histogram (entropy). */
int sharpness_metric_has_tiles (SharpnessMetric metric);

/* The sums of tile (@c, @r) as a SharpnessSums, and the tile's size in a
 * @width x @height region. */
void sharpness_tile_get_sums (const SharpnessTileSums * tiles,
    SharpnessMetric metric, int c, int r, SharpnessSums * sums);
void sharpness_tile_size (const SharpnessTileSums * tiles, int width,
    int height, int c, int r, int *tile_width, int *tile_height);

/* All cols * rows tile scores, row-major, into @scores. */
void sharpness_tile_scores (SharpnessMetric metric,
    const SharpnessTileSums * tiles, int width, int height, double *scores);

/* The frame's sums from its tiles' (their exact sum). */
void sharpness_tile_sums_total (const SharpnessTileSums * tiles,
    SharpnessMetric metric, SharpnessSums * sums);

/* Focus-aware pooling: the mean of the sharpest @percent % of the @n
 * @scores (at least one; sharpest by @metric's direction), summed in
 * order from the sharpest, so equal inputs give equal bits.  @scratch
 * holds @n doubles (NULL: sorted in place, @scores reordered).
 * @percent >= 100 gives the plain mean of all in that order. */
double sharpness_pool_top_percent (SharpnessMetric metric,
    const double *scores, int n, double percent, double *scratch);

/* @rect of @plane as a plane of its own (data offset to its first pixel;
 * for v210 to the group holding it, with the pixel's phase in the group);
 * 0 when @rect is empty or not inside @plane.  A rect of width or height 0
 * means the whole plane. */
int sharpness_plane_crop (const SharpnessPlane * plane,
    const SharpnessRect * rect, SharpnessPlane * out);

/* @region's rectangle with the whole plane filled in for a zero size; 0
 * when it is not inside the plane. */
int sharpness_region_rect (const SharpnessRegion * region,
    SharpnessRect * rect);

#ifdef __cplusplus
}
#endif
#endif /* SHARPNESS_TILES_H */
