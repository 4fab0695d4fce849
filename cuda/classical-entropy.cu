/* Gray-level entropy on the GPU: the 256-bin gray-level histogram, per block
 * in shared memory (classical.cuh special-cases it).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "classical.cuh"

namespace sharpness_cuda
{

template <>
struct Metric <SHARPNESS_METRIC_ENTROPY >
{
  using Window = PointWindow;
};

}  /* namespace sharpness_cuda */

SHARPNESS_CUDA_CLASSICAL_METRIC (ENTROPY, entropy);
