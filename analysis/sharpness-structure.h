/* How much structure a frame has: the share of its pixels on an edge.  A
 * frame with too little structure (a clear sky, a wall, a smooth gradient,
 * a fade's last frames) gives no sharpness verdict: it is `flat`, neither
 * sharp nor blurry (docs/detection.md shows the data behind the rule).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * On the 8-bit gray image of the metrics (sharpness-plane.h), an interior
 * pixel (x, y), 1 <= x < W - 1, 1 <= y < H - 1, is an edge pixel when
 *   max (|I(x+1, y) - I(x-1, y)|, |I(x, y+1) - I(x, y-1)|) >= level
 * An exact integer count, so that the CPU and a GPU kernel repeating
 * sharpness_structure_is_edge() agree to the pixel.
 */
#ifndef SHARPNESS_STRUCTURE_H
#define SHARPNESS_STRUCTURE_H

#include <stdint.h>

#include "sharpness-plane.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The edge rule on the gray values around a pixel. */
SHARPNESS_HD int
sharpness_structure_is_edge (unsigned left, unsigned right, unsigned up,
    unsigned down, unsigned level)
{
  unsigned dx = left > right ? left - right : right - left;
  unsigned dy = up > down ? up - down : down - up;

  return (dx > dy ? dx : dy) >= level;
}

/* Edge pixels of @plane (host memory) at @level, and the interior pixels
 * they are counted over ((W - 2) (H - 2), 0 for frames narrower or lower
 * than 3). */
uint64_t sharpness_structure_count (const SharpnessPlane * plane,
    unsigned level, uint64_t * interior);

/* The share of edge pixels, 0 when there is no interior. */
double sharpness_structure_share (uint64_t edges, uint64_t interior);

#ifdef __cplusplus
}
#endif
#endif /* SHARPNESS_STRUCTURE_H */
