/* The k-th largest (or smallest) value of several device arrays at once,
 * by radix selection, and what the perceptual metrics pool from it.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The metrics need only the head of a sorted order: BLIINDS-II the mean of
 * the first 10%, LPC-SI the few thousand values its exponential weights do
 * not crush.  Sorting everything would cost most of their time, so the
 * threshold is found digit by digit instead.  Values map to unsigned keys
 * whose order is the wanted order; each pass histograms one 11-bit digit of
 * the keys that still share the resolved prefix, and the last block of the
 * pass to finish scans the histogram and narrows the prefix: 3 passes for
 * float, 6 for double, a segment's later passes returning at once when the
 * bin holding its k-th key holds exactly the keys still wanted.  Every
 * segment (array) runs in the same launches, one grid row each.
 *
 * After the passes the k first values in selection order are exactly: the
 * values whose key prefix is greater than the resolved one, then either
 * every value with the prefix (selection stopped early) or, with the key
 * fully resolved, `rank` copies of the k-th value itself.  Sums and
 * gathers below use that and never sort.
 */
#ifndef SHARPNESS_TOPK_SELECT_CUH
#define SHARPNESS_TOPK_SELECT_CUH

#include <cstdint>

#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>

namespace sharpness_cuda
{

constexpr int kSelectDigitBits = 11;
constexpr int kSelectBins = 1 << kSelectDigitBits;
constexpr int kSelectThreads = 256;
constexpr int kSelectMaxSegments = 12;
constexpr unsigned kSelectNoDigit = 0xffffffffu;

template <typename T>
struct SelectKey;

template <>
struct SelectKey<float>
{
  using Type = uint32_t;
  static __device__ __forceinline__ Type bits (float v)
  {
    return __float_as_uint (v);
  }
  static __device__ __forceinline__ float value (Type b)
  {
    return __uint_as_float (b);
  }
};

template <>
struct SelectKey<double>
{
  using Type = unsigned long long;
  static __device__ __forceinline__ Type bits (double v)
  {
    return (Type) __double_as_longlong (v);
  }
  static __device__ __forceinline__ double value (Type b)
  {
    return __longlong_as_double ((long long) b);
  }
};

template <typename T>
constexpr int
select_key_bits ()
{
  return 8 * (int) sizeof (typename SelectKey<T>::Type);
}

template <typename T>
constexpr int
select_passes ()
{
  return (select_key_bits<T> () + kSelectDigitBits - 1) / kSelectDigitBits;
}

/* Key of @v: unsigned order is value order (IEEE sign trick), reversed
 * when the smallest values are wanted, so "larger key" always means
 * "earlier in selection order". */
template <typename T>
__device__ __forceinline__ typename SelectKey<T>::Type
select_key (T v, bool largest)
{
  using K = typename SelectKey<T>::Type;
  constexpr K sign = K (1) << (select_key_bits<T> () - 1);
  K b = SelectKey<T>::bits (v);
  K key = (b & sign) ? ~b : (b | sign);
  return largest ? key : ~key;
}

template <typename T>
__device__ __forceinline__ T
select_value (typename SelectKey<T>::Type key, bool largest)
{
  using K = typename SelectKey<T>::Type;
  constexpr K sign = K (1) << (select_key_bits<T> () - 1);
  K k = largest ? key : ~key;
  return SelectKey<T>::value ((k & sign) ? (k & ~sign) : ~k);
}

/* The arrays of one selection, passed by value to every launch. */
template <typename T>
struct SelectSegments
{
  const T *values[kSelectMaxSegments];
  unsigned n[kSelectMaxSegments];       /* > 0 */
  unsigned k[kSelectMaxSegments];       /* 1 .. n */
  bool largest[kSelectMaxSegments];     /* else the k smallest */
  int count;
};

/* Where the selection of one segment stands. */
struct SelectHead
{
  unsigned long long prefix;    /* resolved high bits of the k-th key */
  int low_bit;                  /* key >> low_bit is compared to prefix */
  unsigned rank;                /* wanted among the keys with that prefix */
  unsigned above;               /* keys with a greater prefix */
  int done;
};

/* Device-side state of one segment.  @hist and @tickets are zero between
 * passes: the last block of each pass clears them, so a frame needs no
 * memset (only the one at allocation). */
struct SelectState
{
  SelectHead head;
  unsigned tickets;
  unsigned hist[kSelectBins];
};

/* Blocks per segment for arrays of up to @n values. */
static inline unsigned
select_blocks (unsigned n)
{
  unsigned per_block = kSelectThreads * 8;
  unsigned b = (n + per_block - 1) / per_block;
  return b < 1 ? 1 : b;
}

/* Signals that this block has published its work (to global memory) and
 * takes a ticket among @blocks; true in exactly one block, the last, which
 * may then read what all of them wrote (the fence-and-ticket pattern of
 * the CUDA samples' threadFenceReduction). */
__device__ __forceinline__ bool
last_block (unsigned *tickets, unsigned blocks)
{
  __shared__ bool last;
  __threadfence ();
  __syncthreads ();
  if (threadIdx.x == 0)
    last = atomicAdd (tickets, 1u) == blocks - 1;
  __syncthreads ();
  if (last)
    __threadfence ();
  return last;
}

/* One digit of every unfinished segment (grid: blocks x segments). */
template <typename T>
__global__ void __launch_bounds__ (kSelectThreads)
select_pass_kernel (SelectSegments<T> segs, SelectState * states, int pass)
{
  using K = typename SelectKey<T>::Type;
  using Scan = cub::BlockScan<unsigned, kSelectThreads>;
  constexpr int kBinsPerThread = kSelectBins / kSelectThreads;
  __shared__ unsigned hist[kSelectBins];
  __shared__ typename Scan::TempStorage scan_storage;

  const int s = blockIdx.y;
  SelectState *st = &states[s];
  if (pass > 0 && st->head.done)
    return;

  const int hi = select_key_bits<T> () - pass * kSelectDigitBits;
  const int lo = hi > kSelectDigitBits ? hi - kSelectDigitBits : 0;
  const unsigned digit_mask = (1u << (hi - lo)) - 1;
  const K prefix = pass > 0 ? (K) st->head.prefix : 0;
  const T *values = segs.values[s];
  const unsigned n = segs.n[s];
  const bool largest = segs.largest[s];

  for (int b = threadIdx.x; b < kSelectBins; b += kSelectThreads)
    hist[b] = 0;
  __syncthreads ();

  /* Whole warps per iteration, so that the match below sees all lanes. */
  const unsigned lane = threadIdx.x & 31;
  for (unsigned base = blockIdx.x * kSelectThreads + threadIdx.x - lane;
      base < n; base += gridDim.x * kSelectThreads) {
    const unsigned i = base + lane;
    unsigned digit = kSelectNoDigit;
    if (i < n) {
      K key = select_key (values[i], largest);
      if (pass == 0 || (key >> hi) == prefix)
        digit = (unsigned) (key >> lo) & digit_mask;
    }
    /* Maps have long runs of one value (LPC is 0 almost everywhere): one
     * shared atomic per distinct digit of the warp. */
    const unsigned same = __match_any_sync (0xffffffffu, digit);
    if (digit != kSelectNoDigit && lane == __ffs (same) - 1)
      atomicAdd (&hist[digit], __popc (same));
  }
  __syncthreads ();
  for (int b = threadIdx.x; b < kSelectBins; b += kSelectThreads)
    if (hist[b])
      atomicAdd (&st->hist[b], hist[b]);

  if (!last_block (&st->tickets, gridDim.x))
    return;

  /* Thread t owns the bins from the top: [B - (t+1) c, B - t c). */
  unsigned counts[kBinsPerThread], sum = 0;
  const int top = kSelectBins - threadIdx.x * kBinsPerThread - 1;
#pragma unroll
  for (int j = 0; j < kBinsPerThread; j++) {
    counts[j] = __ldcg (&st->hist[top - j]);
    st->hist[top - j] = 0;
    sum += counts[j];
  }
  /* Read before the scan's barriers: the winner rewrites them after. */
  const unsigned rank = pass > 0 ? st->head.rank : segs.k[s];
  const unsigned above = pass > 0 ? st->head.above : 0;
  unsigned before;
  Scan (scan_storage).ExclusiveSum (sum, before);

  if (before < rank && rank <= before + sum) {
#pragma unroll
    for (int j = 0; j < kBinsPerThread; j++) {
      if (before < rank && rank <= before + counts[j]) {
        unsigned new_rank = rank - before;
        SelectHead h;
        h.prefix = (unsigned long long) ((prefix << (hi - lo)) | (K) (top - j));
        h.low_bit = lo;
        h.rank = new_rank;
        h.above = above + before;
        h.done = lo == 0 || counts[j] == new_rank;
        st->head = h;
      }
      before += counts[j];
    }
  }
  if (threadIdx.x == 0)
    st->tickets = 0;
}

/* Launches the passes; @states has segs.count entries. */
template <typename T>
cudaError_t
select_run (const SelectSegments<T> & segs, SelectState * states,
    unsigned blocks, cudaStream_t stream)
{
  dim3 grid (blocks, segs.count);
  for (int pass = 0; pass < select_passes<T> (); pass++) {
    select_pass_kernel<T> <<<grid, kSelectThreads, 0, stream>>> (segs,
        states, pass);
    cudaError_t err = cudaGetLastError ();
    if (err != cudaSuccess)
      return err;
  }
  return cudaSuccess;
}

/* Whether @key (of a value) is among the first k of its segment, the k-th
 * value's copies excepted when the key is fully resolved. */
__device__ __forceinline__ bool
select_in_head (unsigned long long key, const SelectHead & st)
{
  unsigned long long p = key >> st.low_bit;
  return p > st.prefix || (st.low_bit > 0 && p == st.prefix);
}

/* Per segment: x = sum of all values, y = sum of the first k in selection
 * order.  Deterministic: fixed per-block partials, summed in block order
 * by the last block.  @partials holds count * gridDim.x entries, @tickets
 * count zeros (left zero). */
template <typename T>
__global__ void __launch_bounds__ (kSelectThreads)
select_sums_kernel (SelectSegments<T> segs, const SelectState * states,
    double2 * partials, unsigned *tickets, double2 * sums)
{
  using Reduce = cub::BlockReduce<double, kSelectThreads>;
  __shared__ typename Reduce::TempStorage reduce_storage;

  const int s = blockIdx.y;
  const SelectHead st = states[s].head;
  const T *values = segs.values[s];
  const unsigned n = segs.n[s];
  const bool largest = segs.largest[s];
  double all = 0.0, head = 0.0;

  for (unsigned i = blockIdx.x * kSelectThreads + threadIdx.x; i < n;
      i += gridDim.x * kSelectThreads) {
    T v = values[i];
    all += v;
    if (select_in_head (select_key (v, largest), st))
      head += v;
  }
  all = Reduce (reduce_storage).Sum (all);
  __syncthreads ();
  head = Reduce (reduce_storage).Sum (head);
  if (threadIdx.x == 0)
    partials[s * gridDim.x + blockIdx.x] = make_double2 (all, head);

  if (!last_block (&tickets[s], gridDim.x))
    return;
  all = head = 0.0;
  for (unsigned b = threadIdx.x; b < gridDim.x; b += kSelectThreads) {
    double2 p = __ldcg (&partials[s * gridDim.x + b]);
    all += p.x;
    head += p.y;
  }
  all = Reduce (reduce_storage).Sum (all);
  __syncthreads ();
  head = Reduce (reduce_storage).Sum (head);
  if (threadIdx.x == 0) {
    if (st.low_bit == 0)
      head += st.rank * (double) select_value<T> (
          (typename SelectKey<T>::Type) st.prefix, largest);
    sums[s] = make_double2 (all, head);
    tickets[s] = 0;
  }
}

/* The first k values of segment 0, unordered, into @out[0..k): the values
 * before the k-th through the atomic @count (zero on entry), the k-th
 * value's copies straight into their final places. */
template <typename T>
__global__ void __launch_bounds__ (kSelectThreads)
select_gather_kernel (SelectSegments<T> segs, const SelectState * states,
    T * out, unsigned *count)
{
  const SelectHead st = states[0].head;
  const T *values = segs.values[0];
  const unsigned n = segs.n[0];
  const bool largest = segs.largest[0];
  const unsigned stride = gridDim.x * kSelectThreads;
  const unsigned first = blockIdx.x * kSelectThreads + threadIdx.x;

  for (unsigned i = first; i < n; i += stride) {
    T v = values[i];
    if (select_in_head (select_key (v, largest), st))
      out[atomicAdd (count, 1u)] = v;
  }
  if (st.low_bit == 0) {
    T kth = select_value<T> ((typename SelectKey<T>::Type) st.prefix,
        largest);
    for (unsigned i = first; i < st.rank; i += stride)
      out[st.above + i] = kth;
  }
}

}  // namespace sharpness_cuda

#endif /* SHARPNESS_TOPK_SELECT_CUH */
