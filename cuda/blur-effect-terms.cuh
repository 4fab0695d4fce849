/* Blur effect's four per-pixel terms on the GPU, from a tile of gray
 * levels in shared memory held with its 6-pixel apron: the frame's
 * kernel (blur-effect.cu) and the focus tiles' (focus-tiles.cu) sum the
 * same terms of core/classical-terms.h, read the same way.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SHARPNESS_BLUR_EFFECT_TERMS_CUH
#define SHARPNESS_BLUR_EFFECT_TERMS_CUH

#include "classical-terms.h"

namespace sharpness_cuda
{

/* Reach of the box's telescoped difference along an axis. */
constexpr int kBlurEffectReach = 6;

/* Adds the terms at shared (@r, @c) of @g (any 2-D array of gray levels,
 * mirrored at the frame's edges when loaded) to @s: M1 and M2 of axis 0
 * (down the rows), then of axis 1 (along them). */
template <typename Grid>
__device__ __forceinline__ void
blur_effect_add_terms (const Grid & g, int r, int c, unsigned (&s)[4])
{
  /* Lines across each axis, smoothed by (1, 2, 1). */
  auto across = [&](int rr) {
    return g[rr][c - 1] + 2 * g[rr][c] + g[rr][c + 1];
  };
  auto down = [&](int cc) {
    return g[r - 1][cc] + 2 * g[r][cc] + g[r + 1][cc];
  };
  unsigned sharp = sharpness_term_blur_sharp (across (r - 1), across (r + 1));
  s[0] += sharp;
  s[1] += sharpness_term_blur_lost (sharp, across (r - 6), across (r - 5),
      across (r + 5), across (r + 6));
  sharp = sharpness_term_blur_sharp (down (c - 1), down (c + 1));
  s[2] += sharp;
  s[3] += sharpness_term_blur_lost (sharp, down (c - 6), down (c - 5),
      down (c + 5), down (c + 6));
}

}  /* namespace sharpness_cuda */

#endif /* SHARPNESS_BLUR_EFFECT_TERMS_CUH */
