/* Tile grids, regions and per-tile scores (sharpness-tiles.h).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "sharpness-tiles-private.h"

#include <stdlib.h>
#include <string.h>

int
sharpness_tiles_valid (int cols, int rows)
{
  return cols >= 1 && cols <= SHARPNESS_TILES_MAX && rows >= 1 &&
      rows <= SHARPNESS_TILES_MAX;
}

int
sharpness_metric_has_tiles (SharpnessMetric metric)
{
  switch (metric) {
    case SHARPNESS_METRIC_VARIANCE:
    case SHARPNESS_METRIC_ROBERTS:
    case SHARPNESS_METRIC_TENENGRAD:
    case SHARPNESS_METRIC_LAPLACIAN:
    case SHARPNESS_METRIC_SMD:
    case SHARPNESS_METRIC_SMD2:
    case SHARPNESS_METRIC_MAXMIN:
    case SHARPNESS_METRIC_ENTROPY:
      return 1;
    default:
      return 0;
  }
}

SharpnessStatus
sharpness_tile_sums_init (SharpnessTileSums * tiles, SharpnessMetric metric,
    int cols, int rows)
{
  if (!tiles)
    return SHARPNESS_ERROR_INVALID;
  memset (tiles, 0, sizeof *tiles);
  if (!sharpness_tiles_valid (cols, rows) ||
      !sharpness_metric_has_tiles (metric))
    return SHARPNESS_ERROR_INVALID;

  const size_t n = (size_t) cols * rows;
  tiles->cols = cols;
  tiles->rows = rows;
  if (metric == SHARPNESS_METRIC_ENTROPY) {
    tiles->hist = calloc (n * 256, sizeof *tiles->hist);
    if (!tiles->hist)
      return SHARPNESS_ERROR_NO_MEMORY;
    return SHARPNESS_OK;
  }
  tiles->sum = calloc (n, sizeof *tiles->sum);
  if (metric == SHARPNESS_METRIC_VARIANCE)
    tiles->sum_sq = calloc (n, sizeof *tiles->sum_sq);
  if (!tiles->sum || (metric == SHARPNESS_METRIC_VARIANCE && !tiles->sum_sq)) {
    sharpness_tile_sums_clear (tiles);
    return SHARPNESS_ERROR_NO_MEMORY;
  }
  return SHARPNESS_OK;
}

void
sharpness_tile_sums_clear (SharpnessTileSums * tiles)
{
  if (!tiles)
    return;
  free (tiles->sum);
  free (tiles->sum_sq);
  free (tiles->hist);
  memset (tiles, 0, sizeof *tiles);
}

int
sharpness_tile_sums_ok (const SharpnessTileSums * tiles,
    SharpnessMetric metric)
{
  if (!tiles || !sharpness_tiles_valid (tiles->cols, tiles->rows) ||
      !sharpness_metric_has_tiles (metric))
    return 0;
  if (metric == SHARPNESS_METRIC_ENTROPY)
    return tiles->hist != NULL;
  return tiles->sum && (metric != SHARPNESS_METRIC_VARIANCE || tiles->sum_sq);
}

void
sharpness_tile_sums_zero (SharpnessTileSums * tiles, SharpnessMetric metric)
{
  const size_t n = (size_t) tiles->cols * tiles->rows;

  if (metric == SHARPNESS_METRIC_ENTROPY) {
    memset (tiles->hist, 0, n * 256 * sizeof *tiles->hist);
    return;
  }
  memset (tiles->sum, 0, n * sizeof *tiles->sum);
  if (metric == SHARPNESS_METRIC_VARIANCE)
    memset (tiles->sum_sq, 0, n * sizeof *tiles->sum_sq);
}

void
sharpness_tile_get_sums (const SharpnessTileSums * tiles,
    SharpnessMetric metric, int c, int r, SharpnessSums * sums)
{
  const size_t t = (size_t) r * tiles->cols + c;

  memset (sums, 0, sizeof *sums);
  if (metric == SHARPNESS_METRIC_ENTROPY) {
    for (int k = 0; k < 256; k++)
      sums->hist[k] = tiles->hist[t * 256 + k];
    return;
  }
  sums->sum = tiles->sum[t];
  if (metric == SHARPNESS_METRIC_VARIANCE)
    sums->sum_sq = tiles->sum_sq[t];
}

void
sharpness_tile_size (const SharpnessTileSums * tiles, int width, int height,
    int c, int r, int *tile_width, int *tile_height)
{
  int x0, x1, y0, y1;

  sharpness_tile_span (width, tiles->cols, c, &x0, &x1);
  sharpness_tile_span (height, tiles->rows, r, &y0, &y1);
  *tile_width = x1 - x0;
  *tile_height = y1 - y0;
}

double
sharpness_score_from_tile_sums (SharpnessMetric metric,
    const SharpnessTileSums * tiles, int width, int height, int c, int r)
{
  SharpnessSums sums;
  int tw, th;

  sharpness_tile_size (tiles, width, height, c, r, &tw, &th);
  sharpness_tile_get_sums (tiles, metric, c, r, &sums);
  return sharpness_score_from_sums (metric, &sums, tw, th);
}

void
sharpness_tile_scores (SharpnessMetric metric,
    const SharpnessTileSums * tiles, int width, int height, double *scores)
{
  for (int r = 0; r < tiles->rows; r++)
    for (int c = 0; c < tiles->cols; c++)
      scores[r * tiles->cols + c] = sharpness_score_from_tile_sums (metric,
          tiles, width, height, c, r);
}

void
sharpness_tile_sums_total (const SharpnessTileSums * tiles,
    SharpnessMetric metric, SharpnessSums * sums)
{
  const size_t n = (size_t) tiles->cols * tiles->rows;

  memset (sums, 0, sizeof *sums);
  for (size_t t = 0; t < n; t++) {
    if (metric == SHARPNESS_METRIC_ENTROPY) {
      for (int k = 0; k < 256; k++)
        sums->hist[k] += tiles->hist[t * 256 + k];
    } else {
      sums->sum += tiles->sum[t];
      if (metric == SHARPNESS_METRIC_VARIANCE)
        sums->sum_sq += tiles->sum_sq[t];
    }
  }
}

/* qsort has no context argument: the direction of the metric being
 * pooled, sharpest first.  Ties keep no particular order, which does not
 * matter: equal values add the same bits whatever their order. */
static int
cmp_higher_first (const void *a, const void *b)
{
  const double x = *(const double *) a, y = *(const double *) b;
  return (x < y) - (x > y);
}

static int
cmp_lower_first (const void *a, const void *b)
{
  const double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

double
sharpness_pool_top_percent (SharpnessMetric metric, const double *scores,
    int n, double percent, double *scratch)
{
  if (n <= 0)
    return 0.0;

  double *v = scratch ? scratch : (double *) scores;
  if (scratch)
    memcpy (scratch, scores, sizeof *scratch * n);
  qsort (v, n, sizeof *v,
      sharpness_metric_info[metric].direction == SHARPNESS_LOWER_IS_SHARPER ?
      cmp_lower_first : cmp_higher_first);

  /* ceil (n * percent / 100), at least one tile, at most all. */
  int k = n;
  if (percent < 100.0) {
    double want = (double) n * percent / 100.0;
    k = (int) want;
    if ((double) k < want)
      k++;
    if (k < 1)
      k = 1;
  }
  double total = 0.0;
  for (int i = 0; i < k; i++)
    total += v[i];
  return total / k;
}

int
sharpness_plane_crop (const SharpnessPlane * plane, const SharpnessRect * rect,
    SharpnessPlane * out)
{
  if (!plane || !rect || !out)
    return 0;
  *out = *plane;
  if (rect->width == 0 || rect->height == 0)
    return 1;
  if (rect->x < 0 || rect->y < 0 || rect->width < 0 || rect->height < 0 ||
      rect->x > plane->width - rect->width ||
      rect->y > plane->height - rect->height)
    return 0;
  out->data = plane->data + (size_t) rect->y * plane->stride;
  if (plane->samples == SHARPNESS_SAMPLES_V210) {
    /* The group holding column x, and x's pixel in it. */
    const int i = plane->phase + rect->x;
    out->data += (size_t) (i / SHARPNESS_V210_GROUP_PIXELS) *
        SHARPNESS_V210_GROUP_BYTES;
    out->phase = i % SHARPNESS_V210_GROUP_PIXELS;
  } else {
    out->data += (size_t) rect->x * plane->pixel_stride;
  }
  out->width = rect->width;
  out->height = rect->height;
  return 1;
}

int
sharpness_region_rect (const SharpnessRegion * region, SharpnessRect * rect)
{
  const SharpnessPlane *p = &region->plane;
  const SharpnessRect *r = &region->rect;

  if (r->width == 0 || r->height == 0) {
    *rect = (SharpnessRect) {
    0, 0, p->width, p->height};
    return 1;
  }
  *rect = *r;
  return r->x >= 0 && r->y >= 0 && r->width > 0 && r->height > 0 &&
      r->x <= p->width - r->width && r->y <= p->height - r->height;
}
