/* How much structure a frame has: the share of its pixels on an edge.  A
 * frame with too little structure (a clear sky, a wall, a smooth gradient,
 * a fade's last frames) gives no sharpness verdict: it is `flat`, neither
 * sharp nor blurry (docs/validation/detection.md shows the data behind the rule).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * On the 8-bit gray image of the metrics (sharpness-plane.h), a pixel
 * (x, y), x < W - 1, y < H - 1, is an edge pixel when
 *   max (|I(x+1, y) - I(x, y)|, |I(x, y+1) - I(x, y)|) >= level
 * (forward differences: the finest pattern, one-pixel stripes, is all
 * edges).  An exact integer count, so that the CPU and a GPU kernel
 * repeating sharpness_structure_is_edge() agree to the pixel.
 */
#ifndef SHARPNESS_STRUCTURE_H
#define SHARPNESS_STRUCTURE_H

#include <stdint.h>

#include "sharpness-plane.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The edge rule on the gray values of a pixel, its right and its lower
 * neighbours. */
SHARPNESS_HD int
sharpness_structure_is_edge (unsigned here, unsigned right, unsigned down,
    unsigned level)
{
  unsigned dx = here > right ? here - right : right - here;
  unsigned dy = here > down ? here - down : down - here;

  return (dx > dy ? dx : dy) >= level;
}

/* Edge pixels of @plane (host memory) at @level, and the pixels they are
 * counted over ((W - 1) (H - 1), 0 for frames one pixel wide or high). */
uint64_t sharpness_structure_count (const SharpnessPlane * plane,
    unsigned level, uint64_t * interior);

/* The share of edge pixels, 0 when there is no interior. */
double sharpness_structure_share (uint64_t edges, uint64_t interior);

#ifdef __cplusplus
}
#endif
#endif /* SHARPNESS_STRUCTURE_H */
