/* Laplacian on the GPU: exact sums of the absolute horizontal and vertical
 * second differences.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "classical.cuh"

namespace sharpness_cuda
{

template <>
struct Metric <SHARPNESS_METRIC_LAPLACIAN >
{
  using Window = Window3x3;
  template <int N>
  __device__ static unsigned term (const int (&a)[N], const int (&b)[N],
      const int (&c)[N], int j)
  {
    return sharpness_term_laplacian (a[j], b[j - 1], b[j], b[j + 1], c[j]);
  }
};

}  /* namespace sharpness_cuda */

SHARPNESS_CUDA_CLASSICAL_METRIC (LAPLACIAN, laplacian);
