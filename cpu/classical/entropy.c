/* Gray-level entropy on the CPU backend (docs/reference/metrics.md): the 256-bin
 * histogram of the gray levels.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "classical-sum.h"

#include <string.h>

/* Adds the lanes into @hist and clears them. */
static void
entropy_flush (uint32_t lanes[][256], int n_lanes, uint64_t hist[256])
{
  for (int k = 0; k < n_lanes; k++)
    for (int v = 0; v < 256; v++)
      hist[v] += lanes[k][v];
  memset (lanes, 0, sizeof (uint32_t) * 256 * n_lanes);
}

/* With tiles: each pixel counted straight into its tile's histogram (the
 * caller's 32-bit counts; a row touches cols of them), the frame's
 * histogram added from the tiles' at the end. */
static SharpnessStatus
entropy_tiles (SharpnessCpu * cpu, const SharpnessPlane * plane,
    SharpnessSums * sums, SharpnessTileSums * tiles)
{
  const int w = plane->width, h = plane->height;
  SharpnessGrayRows rows;
  SharpnessStatus st;
  int xb[SHARPNESS_TILES_MAX + 1];
  SharpnessCpuTileRows tr;

  if ((st = sharpness_gray_rows_init (&rows, cpu, plane, 1)) != SHARPNESS_OK)
    return st;
  sharpness_cpu_tile_bounds (w, tiles->cols, xb);
  sharpness_cpu_tile_rows_init (&tr, tiles->rows, h);
  for (int y = 0; y < h; y++) {
    const uint8_t *g = sharpness_gray_rows_get (&rows, y);
    uint32_t *t = tiles->hist + (size_t) sharpness_cpu_tile_rows_at (&tr, y) *
        tiles->cols * 256;
    for (int c = 0; c < tiles->cols; c++, t += 256)
      for (int x = xb[c]; x < xb[c + 1]; x++)
        t[g[x]]++;
  }
  sharpness_tile_sums_total (tiles, SHARPNESS_METRIC_ENTROPY, sums);
  return SHARPNESS_OK;
}

static SharpnessStatus
entropy_sums_tiles (SharpnessCpu * cpu, void *state,
    const SharpnessPlane * plane, SharpnessSums * sums,
    SharpnessTileSums * tiles)
{
  /* Tile counts are 32-bit (sharpness-tiles.h). */
  if ((uint64_t) plane->width * plane->height > UINT32_MAX)
    return SHARPNESS_ERROR_UNSUPPORTED;
  return entropy_tiles (cpu, plane, sums, tiles);
}

static SharpnessStatus
entropy_sums (SharpnessCpu * cpu, void *state, const SharpnessPlane * plane,
    SharpnessSums * sums)
{
  const int w = plane->width, h = plane->height;
  SharpnessGrayRows rows;
  SharpnessStatus st;
  /* Sixteen histograms, pixel x counted in lane x % 16: in smooth areas
   * neighbours share a level, and a counter incremented back to back waits
   * for its own store.  32-bit counters keep the lanes in L1 (16 KiB). */
  enum { LANES = 16 };
  uint32_t lanes[LANES][256];
  /* Pixels counted since the last flush: no counter can exceed it. */
  uint64_t pending = 0;

  if ((st = sharpness_gray_rows_init (&rows, cpu, plane, 1)) != SHARPNESS_OK)
    return st;

  memset (lanes, 0, sizeof lanes);
  memset (sums->hist, 0, sizeof sums->hist);
  for (int y = 0; y < h; y++) {
    const uint8_t *g = sharpness_gray_rows_get (&rows, y);
    int x = 0;

    if (pending + (uint64_t) w > UINT32_MAX) {
      entropy_flush (lanes, LANES, sums->hist);
      pending = 0;
    }
    for (; x + LANES <= w; x += LANES)
      for (int k = 0; k < LANES; k++)
        lanes[k][g[x + k]]++;
    for (; x < w; x++)
      lanes[0][g[x]]++;
    pending += (uint64_t) w;
  }
  entropy_flush (lanes, LANES, sums->hist);
  return SHARPNESS_OK;
}

const SharpnessCpuSumsMetric sharpness_cpu_metric_entropy = {
  .metric = SHARPNESS_METRIC_ENTROPY,
  .sums = entropy_sums,
  .sums_tiles = entropy_sums_tiles,
};
