/* One tile's score, the step under sharpness_tile_scores(): declared
 * here for the tests that check it tile by tile
 * (tests/classical/test-classical-tiles.c), not for the backends.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SHARPNESS_TILES_PRIVATE_H
#define SHARPNESS_TILES_PRIVATE_H

#include "sharpness-tiles.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Score of tile (@c, @r) of a @width x @height region:
 * sharpness_score_from_sums() of its sums over its own size; 0 for an
 * empty tile (a grid finer than the region). */
double sharpness_score_from_tile_sums (SharpnessMetric metric,
    const SharpnessTileSums * tiles, int width, int height, int c, int r);

#ifdef __cplusplus
}
#endif
#endif /* SHARPNESS_TILES_PRIVATE_H */
