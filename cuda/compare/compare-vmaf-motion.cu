/* VMAF's motion on the GPU, as cpu/compare/vmaf-motion.c: the reference's
 * 5-tap blur in fixed point (vertical to 16 bits, then horizontal), and
 * the sum of absolute differences against the previous frame's blur, each
 * row's sum in uint32 as the CPU's, the rows' sums added atomically
 * (integers: any order, the same sum).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The fixed-point definition follows libvmaf 3.0.0's integer_motion.c
 * (BSD-2-Clause-Patent, Copyright 2016-2020 Netflix, Inc.), as the CPU
 * extractor does.
 */
#include <cub/block/block_reduce.cuh>

#include "compare-vmaf-private.cuh"

namespace compare_vmaf_cuda
{
namespace
{

__constant__ uint16_t motion_filter[5] = { 3571, 16004, 26386, 16004, 3571 };

/* -k is k; n + k is n - 1 - k (the last sample repeated). */
__device__ __forceinline__ int
motion_mirror (int i, int n)
{
  if (i < 0)
    return -i;
  if (i >= n)
    return 2 * n - i - 1;
  return i;
}

__global__ void
__launch_bounds__ (kThreads)
blur_vertical (Src src, int w, int h, int bpc, uint16_t * tmp)
{
  const int j = blockIdx.x * 32 + threadIdx.x % 32;
  const int i = blockIdx.y * (kThreads / 32) + threadIdx.x / 32;
  const uint32_t add = 1u << (bpc - 1);
  uint32_t accum = 0;

  if (i >= h || j >= w)
    return;
  for (int k = 0; k < 5; k++)
    accum += motion_filter[k] * (uint32_t) load (src, j,
        motion_mirror (i - 2 + k, h));
  tmp[(size_t) i * w + j] = (accum + add) >> bpc;
}

__global__ void
__launch_bounds__ (kThreads)
blur_horizontal (const uint16_t * tmp, int w, int h, uint16_t * blur)
{
  const int j = blockIdx.x * 32 + threadIdx.x % 32;
  const int i = blockIdx.y * (kThreads / 32) + threadIdx.x / 32;
  const uint16_t *row = tmp + (size_t) i * w;
  uint32_t accum = 0;

  if (i >= h || j >= w)
    return;
  for (int k = 0; k < 5; k++)
    accum += motion_filter[k] * (uint32_t) row[motion_mirror (j - 2 + k, w)];
  blur[(size_t) i * w + j] = (accum + 32768) >> 16;
}

/* One block a row: the row's sum in uint32 (wrapping as the CPU's). */
__global__ void
__launch_bounds__ (kThreads)
motion_sad (const uint16_t * a, const uint16_t * b, int w,
    unsigned long long *sad)
{
  using Reduce = cub::BlockReduce < uint32_t, kThreads >;
  __shared__ typename Reduce::TempStorage tmp;
  const size_t row = (size_t) blockIdx.x * w;
  uint32_t inner = 0;

  for (int j = threadIdx.x; j < w; j += kThreads)
    inner += abs ((int) a[row + j] - (int) b[row + j]);
  inner = Reduce (tmp).Sum (inner);
  if (threadIdx.x == 0)
    atomicAdd (sad, (unsigned long long) inner);
}

}  // namespace
}  // namespace compare_vmaf_cuda

using namespace compare_vmaf_cuda;

void
compare_vmaf_cuda_motion (CompareVmafCuda * vc, const CompareVmafPlane * ref,
    int cur, int prev)
{
  const int w = ref->width, h = ref->height;
  const dim3 grid (div_up (w, 32), div_up (h, kThreads / 32));

  blur_vertical <<< grid, kThreads, 0, vc->stream >>> (src_of (ref), w, h,
      ref->depth, vc->b.motion_tmp);
  blur_horizontal <<< grid, kThreads, 0, vc->stream >>> (vc->b.motion_tmp,
      w, h, vc->b.blur[cur]);
  if (prev >= 0)
    motion_sad <<< h, kThreads, 0, vc->stream >>> (vc->b.blur[prev],
        vc->b.blur[cur], w, &vc->sums->sad);
}
