/* Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "sharpness-structure.h"

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
