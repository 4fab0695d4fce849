/* Roberts cross on the GPU: exact sums of the absolute cross differences of
 * each 2x2 window.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "classical.cuh"

namespace sharpness_cuda
{

template <>
struct Metric <SHARPNESS_METRIC_ROBERTS >
{
  using Window = DownRightWindow;
  template <int N>
  __device__ static unsigned term (const int (&)[N], const int (&b)[N],
      const int (&c)[N], int j)
  {
    return sharpness_term_roberts (b[j], b[j + 1], c[j], c[j + 1]);
  }
};

}  /* namespace sharpness_cuda */

SHARPNESS_CUDA_CLASSICAL_METRIC (ROBERTS, roberts);
