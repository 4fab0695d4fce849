/* Gray-level variance on the GPU: exact sums of the sum and the sum of
 * squares of the gray levels (classical.cuh special-cases their sums).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "classical.cuh"

namespace sharpness_cuda
{

template <>
struct Metric <SHARPNESS_METRIC_VARIANCE >
{
  using Window = PointWindow;
};

}  /* namespace sharpness_cuda */

SHARPNESS_CUDA_CLASSICAL_METRIC (VARIANCE, variance);
