/* Tenengrad on the GPU: exact sums of the squared 3x3 Sobel gradient
 * magnitudes.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "classical.cuh"

namespace sharpness_cuda
{

template <>
struct Metric <SHARPNESS_METRIC_TENENGRAD >
{
  using Window = Window3x3;
  template <int N>
  __device__ static unsigned term (const int (&a)[N], const int (&b)[N],
      const int (&c)[N], int j)
  {
    return sharpness_term_tenengrad (a[j - 1], a[j], a[j + 1], b[j - 1],
        b[j + 1], c[j - 1], c[j], c[j + 1]);
  }
};

}  /* namespace sharpness_cuda */

SHARPNESS_CUDA_CLASSICAL_METRIC (TENENGRAD, tenengrad);
