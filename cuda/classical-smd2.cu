/* Gray-difference product (SMD2) on the GPU: exact sums of the products of
 * the absolute right and down differences.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "classical.cuh"

namespace sharpness_cuda
{

template <>
struct Metric <SHARPNESS_METRIC_SMD2 >
{
  using Window = DownRightWindow;
  template <int N>
  __device__ static unsigned term (const int (&)[N], const int (&b)[N],
      const int (&c)[N], int j)
  {
    return sharpness_term_smd2 (b[j], b[j + 1], c[j]);
  }
};

}  /* namespace sharpness_cuda */

SHARPNESS_CUDA_CLASSICAL_METRIC (SMD2, smd2);
