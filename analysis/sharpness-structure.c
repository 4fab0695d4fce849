/* Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "sharpness-structure.h"

#include <stdlib.h>

#include "sharpness-simd.h"

/* Rows of adjacent 8-bit or 16-bit samples (the luma of planar YUV and of
 * GRAY): loops the compiler vectorises, where the generic reader below
 * switches on the sample kind for every sample.  Same counts. */
static SHARPNESS_SIMD_CLONES uint32_t
edges_row_y8 (const uint8_t * row, const uint8_t * below, int n,
    unsigned level)
{
  uint32_t e = 0;

  for (int x = 0; x < n; x++) {
    const int here = row[x];
    const int dx = abs (here - row[x + 1]), dy = abs (here - below[x]);

    e += (unsigned) (dx > dy ? dx : dy) >= level;
  }
  return e;
}

static SHARPNESS_SIMD_CLONES uint32_t
edges_row_y16 (const uint8_t * row, const uint8_t * below, int n,
    unsigned level, int depth, int shift)
{
  uint32_t e = 0;

  for (int x = 0; x < n; x++) {
    const int here = sharpness_gray_from_y16 (row[2 * x] |
        (row[2 * x + 1] << 8), depth, shift);
    const int right = sharpness_gray_from_y16 (row[2 * x + 2] |
        (row[2 * x + 3] << 8), depth, shift);
    const int down = sharpness_gray_from_y16 (below[2 * x] |
        (below[2 * x + 1] << 8), depth, shift);
    const int dx = abs (here - right), dy = abs (here - down);

    e += (unsigned) (dx > dy ? dx : dy) >= level;
  }
  return e;
}

uint64_t
sharpness_structure_count (const SharpnessPlane * p, unsigned level,
    uint64_t * interior)
{
  uint64_t edges = 0;

  *interior = 0;
  if (!sharpness_plane_is_valid (p) || p->width < 2 || p->height < 2)
    return 0;
  *interior = (uint64_t) (p->width - 1) * (p->height - 1);
  for (int y = 0; y < p->height - 1; y++) {
    const uint8_t *row = p->data + (size_t) y * p->stride;
    const uint8_t *below = row + p->stride;

    if (p->samples == SHARPNESS_SAMPLES_Y8 && p->pixel_stride == 1) {
      edges += edges_row_y8 (row, below, p->width - 1, level);
      continue;
    }
    if (p->samples == SHARPNESS_SAMPLES_Y16LE && p->pixel_stride == 2) {
      edges += edges_row_y16 (row, below, p->width - 1, level, p->depth,
          p->shift);
      continue;
    }
    for (int x = 0; x < p->width - 1; x++)
      edges += sharpness_structure_is_edge (sharpness_plane_gray_at (p, row,
              x), sharpness_plane_gray_at (p, row, x + 1),
          sharpness_plane_gray_at (p, below, x), level);
  }
  return edges;
}

double
sharpness_structure_share (uint64_t edges, uint64_t interior)
{
  return interior ? (double) edges / (double) interior : 0.0;
}
