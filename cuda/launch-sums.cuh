/* Exact sums of one launch: block reduction, device accumulators and the
 * read-out by the last block.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Each block reduces its threads' 64-bit sums (warp shuffles, then one warp
 * over the warp partials) and adds them to the device accumulators with one
 * atomicAdd (or one per non-empty histogram bin).  The block that finishes
 * last, found with a ticket taken after a fence as in the CUDA samples'
 * threadFenceReduction, moves the totals into mapped pinned host memory and
 * leaves accumulators and ticket at zero for the next launch: a frame costs
 * one launch, with no memset and no copy.  Integer sums make the result
 * independent of the order in which blocks finish.
 */
#ifndef SHARPNESS_LAUNCH_SUMS_CUH
#define SHARPNESS_LAUNCH_SUMS_CUH

#include "sharpness-cuda-private.h"

namespace sharpness_cuda
{

constexpr int kBlockThreads = 256;
constexpr int kBlockWarps = kBlockThreads / 32;
constexpr unsigned kFullMask = 0xffffffffu;

__device__ __forceinline__ unsigned long long
warp_sum (unsigned long long v)
{
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_down_sync (kFullMask, v, offset);
  return v;
}

/* Sum of @v over the block, valid in thread 0; @scratch is reusable after. */
__device__ __forceinline__ unsigned long long
block_sum (unsigned long long v, unsigned long long (&scratch)[kBlockWarps])
{
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;

  v = warp_sum (v);
  if (lane == 0)
    scratch[warp] = v;
  __syncthreads ();
  v = 0;
  if (warp == 0)
    v = warp_sum (lane < kBlockWarps ? scratch[lane] : 0);
  __syncthreads ();
  return v;
}

/* Called by every thread of every block once its share is done.  @hist is
 * the block's shared histogram when kHist, else unused; @sum_sq is used when
 * kSumSq. */
template <bool kHist, bool kSumSq>
__device__ __forceinline__ void
finish_launch (unsigned long long sum, unsigned long long sum_sq,
    const unsigned *hist, SharpnessCudaAccum * accum,
    SharpnessCudaResult * result, unsigned long long seq)
{
  __shared__ unsigned long long scratch[kBlockWarps];
  __shared__ bool last;
  const int tid = threadIdx.x;

  if constexpr (kHist) {
    __syncthreads ();
    for (int k = tid; k < 256; k += kBlockThreads)
      if (hist[k])
        atomicAdd (&accum->hist[k], (unsigned long long) hist[k]);
  } else {
    sum = block_sum (sum, scratch);
    if constexpr (kSumSq)
      sum_sq = block_sum (sum_sq, scratch);
    if (tid == 0) {
      atomicAdd (&accum->sum, sum);
      if constexpr (kSumSq)
        atomicAdd (&accum->sum_sq, sum_sq);
    }
  }

  /* This block's additions are visible device-wide before its ticket. */
  __threadfence ();
  __syncthreads ();
  if (tid == 0)
    last = atomicAdd (&accum->blocks_done, 1u) == gridDim.x - 1;
  __syncthreads ();
  if (!last)
    return;

  /* Last block: every other block's additions are in; read out and reset. */
  __threadfence ();
  if constexpr (kHist) {
    for (int k = tid; k < 256; k += kBlockThreads)
      result->hist[k] = atomicExch (&accum->hist[k], 0ull);
  } else if (tid == 0) {
    result->sum = atomicExch (&accum->sum, 0ull);
    if constexpr (kSumSq)
      result->sum_sq = atomicExch (&accum->sum_sq, 0ull);
  }
  if (tid == 0) {
    accum->blocks_done = 0;
    result->seq = seq;
  }
}

}  /* namespace sharpness_cuda */

#endif /* SHARPNESS_LAUNCH_SUMS_CUH */
