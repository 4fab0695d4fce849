/* Max-min gradient on the GPU: exact sums of the ranges of the 3x3
 * neighbourhoods.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "classical.cuh"

namespace sharpness_cuda
{

template <>
struct Metric <SHARPNESS_METRIC_MAXMIN >
{
  using Window = Window3x3;
  template <int N>
  __device__ static unsigned term (const int (&a)[N], const int (&b)[N],
      const int (&c)[N], int j)
  {
    /* Column extremes first (the hardware's three-way min/max), so that
     * unrolled neighbours share them. */
    return sharpness_term_maxmin (__vimax3_s32 (a[j - 1], b[j - 1], c[j - 1]),
        __vimax3_s32 (a[j], b[j], c[j]), __vimax3_s32 (a[j + 1], b[j + 1],
            c[j + 1]), __vimin3_s32 (a[j - 1], b[j - 1], c[j - 1]),
        __vimin3_s32 (a[j], b[j], c[j]), __vimin3_s32 (a[j + 1], b[j + 1],
            c[j + 1]));
  }
};

}  /* namespace sharpness_cuda */

SHARPNESS_CUDA_CLASSICAL_METRIC (MAXMIN, maxmin);
