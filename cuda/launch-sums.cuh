/* Exact sums of one launch: block reduction, device accumulators and the
 * read-out by the last block.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Each block reduces its threads' 64-bit sums (cub::BlockReduce) and adds
 * them to the device accumulators.  The
 * block that finishes last moves the totals into mapped pinned host memory
 * and leaves the accumulators at zero for the next launch: a frame costs
 * one launch, with no memset and no copy.  Integer sums make the result
 * independent of the order in which blocks finish.
 *
 * A metric with one sum adds it and counts itself in a single atomicAdd of
 * (sum << kTicketBits) + 1 (a packed ticket): the block that reads a count
 * of gridDim.x - 1 also reads every other block's sum, with no fence and
 * no second atomic.  Variance (two sums), blur-effect (four) and entropy
 * (256 bins) add with plain atomics, then take a ticket after a fence, as
 * in the CUDA samples' threadFenceReduction.  Counts that ride along with
 * a metric's launch (a frame's content counts) take packed tickets of
 * their own, in flight together with the metric's.
 */
#ifndef SHARPNESS_LAUNCH_SUMS_CUH
#define SHARPNESS_LAUNCH_SUMS_CUH

#include <cub/block/block_reduce.cuh>

#include "sharpness-cuda-private.h"

namespace sharpness_cuda
{

constexpr int kBlockThreads = 256;
constexpr int kBlockWarps = kBlockThreads / 32;
constexpr unsigned kFullMask = 0xffffffffu;
constexpr int kTicketBits = 11;
/* Grids are clamped to this, so that packed counts never carry. */
constexpr int kMaxBlocks = (1 << kTicketBits) - 1;

/* Integer sums: exact, whatever order CUB adds them in. */
using BlockSum = cub::BlockReduce < unsigned long long, kBlockThreads >;

/* A packed ticket: block @v's share of a launch's count on @acc and its
 * ticket in one atomic.  The value returned is the count and the tickets
 * of the blocks before it: the block that finds gridDim.x - 1 of them
 * holds the total (ticket_total) and is the last to touch @acc.  Counts
 * below 2^(64 - kTicketBits). */
__device__ __forceinline__ unsigned long long
ticket_add (unsigned long long *acc, unsigned long long v)
{
  return atomicAdd (acc, (v << kTicketBits) | 1ull);
}

__device__ __forceinline__ bool
ticket_last (unsigned long long before)
{
  return (before & ((1ull << kTicketBits) - 1)) == gridDim.x - 1;
}

__device__ __forceinline__ unsigned long long
ticket_total (unsigned long long before, unsigned long long v)
{
  return (before >> kTicketBits) + v;
}

/* What a launch ends besides its metric's sums: nothing, or counts that
 * ride along (classical.cuh's content kernel: the frame's content counts,
 * content::Rider).  Thread 0 of every block calls issue() just before it
 * takes the metric's ticket and settle() just after, so that the rider's
 * atomics are in flight with the ticket's; the last block's thread 0 calls
 * done() before it writes the sequence number. */
struct NoRider
{
  __device__ void issue ()
  {
  }
  __device__ void settle () const
  {
  }
  __device__ void done () const
  {
  }
};

/* One sum: the block's sum and its ticket in one atomic. */
template <class Rider>
__device__ __forceinline__ void
finish_packed (unsigned long long sum, SharpnessCudaAccum * accum,
    SharpnessCudaResult * result, unsigned long long seq, Rider & rider)
{
  __shared__ typename BlockSum::TempStorage scratch;

  sum = BlockSum (scratch).Sum (sum);   /* valid in thread 0 */
  if (threadIdx.x == 0) {
    rider.issue ();
    const unsigned long long before = ticket_add (&accum->sum, sum);
    rider.settle ();
    if (ticket_last (before)) {
      /* Every other block has added: nothing touches @accum again. */
      accum->sum = 0;
      result->sum = ticket_total (before, sum);
      rider.done ();
      result->seq = seq;
    }
  }
}

/* Two sums (kHist false) or the block's shared histogram @hist. */
template <bool kHist, class Rider>
__device__ __forceinline__ void
finish_ticket (unsigned long long sum, unsigned long long sum_sq,
    const unsigned *hist, SharpnessCudaAccum * accum,
    SharpnessCudaResult * result, unsigned long long seq, Rider & rider)
{
  __shared__ typename BlockSum::TempStorage scratch[2];
  __shared__ bool last;
  const int tid = threadIdx.x;

  if constexpr (kHist) {
    __syncthreads ();
    for (int k = tid; k < 256; k += kBlockThreads)
      if (hist[k])
        atomicAdd (&accum->hist[k], (unsigned long long) hist[k]);
  } else {
    /* Two scratch areas: no barrier between the reductions. */
    sum = BlockSum (scratch[0]).Sum (sum);
    sum_sq = BlockSum (scratch[1]).Sum (sum_sq);
    if (tid == 0) {
      atomicAdd (&accum->sum, sum);
      atomicAdd (&accum->sum_sq, sum_sq);
    }
  }

  /* This block's additions are visible device-wide before its ticket. */
  __threadfence ();
  __syncthreads ();
  if (tid == 0) {
    rider.issue ();
    last = atomicAdd (&accum->blocks_done, 1u) == gridDim.x - 1;
    rider.settle ();
  }
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
    rider.done ();
    result->seq = seq;
  }
}

/* Four sums (blur-effect), into sums4: as the two of finish_ticket. */
__device__ __forceinline__ void
finish_four (const unsigned long long (&s)[4], SharpnessCudaAccum * accum,
    SharpnessCudaResult * result, unsigned long long seq)
{
  __shared__ typename BlockSum::TempStorage scratch[4];
  __shared__ bool last;
  const int tid = threadIdx.x;

#pragma unroll
  for (int k = 0; k < 4; k++) {
    const unsigned long long t = BlockSum (scratch[k]).Sum (s[k]);
    if (tid == 0)
      atomicAdd (&accum->sums4[k], t);
  }

  __threadfence ();
  __syncthreads ();
  if (tid == 0)
    last = atomicAdd (&accum->blocks_done, 1u) == gridDim.x - 1;
  __syncthreads ();
  if (!last)
    return;

  __threadfence ();
  if (tid == 0) {
#pragma unroll
    for (int k = 0; k < 4; k++)
      result->sums4[k] = atomicExch (&accum->sums4[k], 0ull);
    accum->blocks_done = 0;
    result->seq = seq;
  }
}

/* Called by every thread of every block once its share is done: @sum and,
 * with kSumSq, @sum_sq; with kHist the block's shared histogram @hist;
 * and @rider's counts. */
template <bool kHist, bool kSumSq, class Rider = NoRider>
__device__ __forceinline__ void
finish_launch (unsigned long long sum, unsigned long long sum_sq,
    const unsigned *hist, SharpnessCudaAccum * accum,
    SharpnessCudaResult * result, unsigned long long seq,
    Rider rider = Rider ())
{
  if constexpr (kHist || kSumSq)
    finish_ticket < kHist > (sum, sum_sq, hist, accum, result, seq, rider);
  else
    finish_packed (sum, accum, result, seq, rider);
}

/* Moves @n values of @acc to @out and zeroes @acc, for the last block of
 * a launch: eight L2 loads in flight per thread before any store (one
 * load per round trip would make a 64x64 tile map cost 16 round trips). */
template <class T, class Index>
__device__ __forceinline__ void
move_out (long long n, Index index, T * acc, T * out)
{
  constexpr int kBatch = 8;
  for (long long base = threadIdx.x; base < n;
      base += (long long) kBlockThreads * kBatch) {
    T v[kBatch];
#pragma unroll
    for (int j = 0; j < kBatch; j++) {
      const long long i = base + (long long) j * kBlockThreads;
      v[j] = i < n ? __ldcg (&acc[index (i)]) : T (0);
    }
#pragma unroll
    for (int j = 0; j < kBatch; j++) {
      const long long i = base + (long long) j * kBlockThreads;
      if (i < n) {
        out[index (i)] = v[j];
        acc[index (i)] = 0;
      }
    }
  }
}

/* Index maps for move_out: plain arrays, and one field of an array of
 * SharpnessCudaRegionSums seen as unsigned long long words. */
struct FlatIndex
{
  __device__ long long operator () (long long i) const
  {
    return i;
  }
};

template <int kWords, int kOffset, int kCount>
struct FieldIndex
{
  __device__ long long operator () (long long i) const
  {
    return i / kCount * kWords + kOffset + i % kCount;
  }
};

/* The end of an extended launch (classical.cuh: regions and tiles), called
 * by every thread of every block once the block's sums are in the device
 * accumulators: the last block moves every region's sums (@n_regions) and
 * every tile's (@tiles sums, or @hist_tiles histograms) into mapped memory
 * and leaves the accumulators at zero, as finish_ticket does. */
template <bool kHist, bool kSumSq>
__device__ __forceinline__ void
finish_ext (int n_regions, int tiles, int hist_tiles, unsigned *blocks_done,
    SharpnessCudaRegionSums * accum, unsigned long long *tile_sum,
    unsigned long long *tile_sq, unsigned *tile_hist,
    SharpnessCudaRegionSums * result, unsigned long long *result_tile_sum,
    unsigned long long *result_tile_sq, unsigned *result_tile_hist,
    unsigned long long *seq_out, unsigned long long seq)
{
  __shared__ bool last;
  const int tid = threadIdx.x;
  constexpr int kWords = sizeof (SharpnessCudaRegionSums) / 8;
  static_assert (sizeof (SharpnessCudaRegionSums) == 8 * (2 + 256),
      "SharpnessCudaRegionSums is sum, sum_sq, hist[256]");
  unsigned long long *const acc = reinterpret_cast < unsigned long long *>
      (accum);
  unsigned long long *const res = reinterpret_cast < unsigned long long *>
      (result);

  /* This block's additions are visible device-wide before its ticket. */
  __threadfence ();
  __syncthreads ();
  if (tid == 0)
    last = atomicAdd (blocks_done, 1u) == gridDim.x - 1;
  __syncthreads ();
  if (!last)
    return;

  /* Last block: everything is in.  L2 reads (__ldcg): the atomics were
   * done there, this block's L1 has never held these lines. */
  __threadfence ();
  if constexpr (kHist) {
    move_out ((long long) n_regions * 256, FieldIndex < kWords, 2, 256 > (),
        acc, res);
    move_out ((long long) hist_tiles * 256, FlatIndex (), tile_hist,
        result_tile_hist);
  } else {
    move_out ((long long) n_regions, FieldIndex < kWords, 0, 1 > (), acc,
        res);
    move_out ((long long) tiles, FlatIndex (), tile_sum, result_tile_sum);
    if constexpr (kSumSq) {
      move_out ((long long) n_regions, FieldIndex < kWords, 1, 1 > (), acc,
          res);
      move_out ((long long) tiles, FlatIndex (), tile_sq, result_tile_sq);
    }
  }
  if (tid == 0) {
    *blocks_done = 0;
    *seq_out = seq;
  }
}

/* The end of an extended launch of one region of a single-sum metric (a
 * frame's tiles): the frame's sum and the block's ticket in one atomic on
 * @packed, as finish_packed, and the last block moves the @tiles tile sums
 * out as finish_ext does.  Saves finish_ext's per-region slots, their
 * atomic and the separate ticket: one L2 round trip less per block. */
__device__ __forceinline__ void
finish_ext_packed (unsigned long long sum, unsigned long long *packed,
    int tiles, unsigned long long *tile_sum,
    unsigned long long *result_tile_sum, SharpnessCudaRegionSums * result,
    unsigned long long *seq_out, unsigned long long seq)
{
  __shared__ typename BlockSum::TempStorage scratch;
  __shared__ bool last;
  __shared__ unsigned long long total;
  const int tid = threadIdx.x;

  /* Each thread's tile atomics are visible device-wide before the
   * block's ticket (the barrier inside Sum() comes after). */
  __threadfence ();
  sum = BlockSum (scratch).Sum (sum);   /* valid in thread 0 */
  if (tid == 0) {
    const unsigned long long before = ticket_add (packed, sum);
    last = ticket_last (before);
    if (last) {
      /* Every other block has added: nothing touches @packed again. */
      *packed = 0;
      total = ticket_total (before, sum);
    }
  }
  __syncthreads ();
  if (!last)
    return;

  __threadfence ();
  move_out ((long long) tiles, FlatIndex (), tile_sum, result_tile_sum);
  if (tid == 0) {
    result->sum = total;
    *seq_out = seq;
  }
}

}  /* namespace sharpness_cuda */

#endif /* SHARPNESS_LAUNCH_SUMS_CUH */
