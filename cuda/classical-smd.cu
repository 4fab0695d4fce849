/* Gray difference (SMD) on the GPU: exact sums of the absolute right and
 * down neighbour differences.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "classical.cuh"

namespace sharpness_cuda
{

template <>
struct Metric <SHARPNESS_METRIC_SMD >
{
  using Window = DownRightWindow;
  template <int N>
  __device__ static unsigned term (const int (&)[N], const int (&b)[N],
      const int (&c)[N], int j)
  {
    return sharpness_term_smd (b[j], b[j + 1], c[j]);
  }
};

}  /* namespace sharpness_cuda */

SHARPNESS_CUDA_CLASSICAL_METRIC (SMD, smd);
