/* Exact sums of one launch: block reduction, device accumulators and the
 * read-out by the last block.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Each block reduces its threads' 64-bit sums (warp shuffles, then one warp
 * over the warp partials) and adds them to the device accumulators.  The
 * block that finishes last moves the totals into mapped pinned host memory
 * and leaves the accumulators at zero for the next launch: a frame costs
 * one launch, with no memset and no copy.  Integer sums make the result
 * independent of the order in which blocks finish.
 *
 * A metric with one sum adds it and counts itself in a single atomicAdd of
 * (sum << kTicketBits) + 1: the block that reads a count of gridDim.x - 1
 * also reads every other block's sum, with no fence and no second atomic.
 * Variance (two sums) and entropy (256 bins) add with plain atomics, then
 * take a ticket after a fence, as in the CUDA samples' threadFenceReduction.
 */
#ifndef SHARPNESS_LAUNCH_SUMS_CUH
#define SHARPNESS_LAUNCH_SUMS_CUH

#include "sharpness-cuda-private.h"

namespace sharpness_cuda
{

constexpr int kBlockThreads = 256;
constexpr int kBlockWarps = kBlockThreads / 32;
constexpr unsigned kFullMask = 0xffffffffu;
constexpr int kTicketBits = 11;
/* Grids are clamped to this, so that packed counts never carry. */
constexpr int kMaxBlocks = (1 << kTicketBits) - 1;

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

/* One sum: the block's sum and its ticket in one atomic. */
__device__ __forceinline__ void
finish_packed (unsigned long long sum, SharpnessCudaAccum * accum,
    SharpnessCudaResult * result, unsigned long long seq)
{
  __shared__ unsigned long long scratch[kBlockWarps];
  const unsigned long long count_mask = (1ull << kTicketBits) - 1;

  sum = block_sum (sum, scratch);
  if (threadIdx.x == 0) {
    const unsigned long long before = atomicAdd (&accum->sum,
        (sum << kTicketBits) | 1ull);
    if ((before & count_mask) == gridDim.x - 1) {
      /* Every other block has added: nothing touches @accum again. */
      accum->sum = 0;
      result->sum = (before >> kTicketBits) + sum;
      result->seq = seq;
    }
  }
}

/* Two sums (kHist false) or the block's shared histogram @hist. */
template <bool kHist>
__device__ __forceinline__ void
finish_ticket (unsigned long long sum, unsigned long long sum_sq,
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
    sum_sq = block_sum (sum_sq, scratch);
    if (tid == 0) {
      atomicAdd (&accum->sum, sum);
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
    result->sum_sq = atomicExch (&accum->sum_sq, 0ull);
  }
  if (tid == 0) {
    accum->blocks_done = 0;
    result->seq = seq;
  }
}

/* Called by every thread of every block once its share is done: @sum and,
 * with kSumSq, @sum_sq; with kHist the block's shared histogram @hist. */
template <bool kHist, bool kSumSq>
__device__ __forceinline__ void
finish_launch (unsigned long long sum, unsigned long long sum_sq,
    const unsigned *hist, SharpnessCudaAccum * accum,
    SharpnessCudaResult * result, unsigned long long seq)
{
  if constexpr (kHist || kSumSq)
    finish_ticket < kHist > (sum, sum_sq, hist, accum, result, seq);
  else
    finish_packed (sum, accum, result, seq);
}

}  /* namespace sharpness_cuda */

#endif /* SHARPNESS_LAUNCH_SUMS_CUH */
