/* The one cub class the VMAF kernels use, for the host stand-in
 * (cuda_runtime.h): a block's sum through its shared slots.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once
#include "cuda_runtime.h"
namespace cub {
template <typename T, int N> struct BlockReduce {
  struct TempStorage { T v[N]; };
  TempStorage &s;
  BlockReduce (TempStorage &t) : s (t) {}
  T Sum (T x) {
    s.v[threadIdx.x] = x;
    __syncthreads ();
    T r = 0;
    if (threadIdx.x == 0) for (int i = 0; i < N; i++) r += s.v[i];
    __syncthreads ();
    return r;
  }
};
}
