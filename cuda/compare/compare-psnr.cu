/* PSNR on the GPU: the exact sum of squared differences of every plane in
 * one launch, finished on the host by the CPU core's compare_psnr_finish
 * (the same values to the bit: the sums are exact integers).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <cub/block/block_reduce.cuh>

#include "compare-cuda-private.cuh"

namespace compare_cuda
{
namespace
{

constexpr int kPsnrRows = 4;                    /* rows per PSNR block */

/* Squared differences of the samples in a 32-bit word: four bytes, or two
 * little-endian 16-bit samples. */
__device__ __forceinline__ unsigned long long
sse_word (unsigned a, unsigned b, int wide)
{
  if (!wide) {
    unsigned d = __vabsdiffu4 (a, b);
    return __dp4a (d, d, 0u);           /* <= 4 x 255^2 */
  }
  unsigned d = __vabsdiffu2 (a, b);
  unsigned long long lo = d & 0xffffu, hi = d >> 16;
  return lo * lo + hi * hi;
}

__device__ __forceinline__ unsigned long long
sse_vec (uint4 a, uint4 b, int wide)
{
  return sse_word (a.x, b.x, wide) + sse_word (a.y, b.y, wide) +
      sse_word (a.z, b.z, wide) + sse_word (a.w, b.w, wide);
}

/* Block (x, c): rows x * kPsnrRows .. + kPsnrRows - 1 of plane c. */
__global__ void
__launch_bounds__ (kThreads)
psnr_kernel (Planes p, CompareCudaAccum * acc, CompareCudaResults * res)
{
  using Reduce = cub::BlockReduce < unsigned long long, kThreads >;
  __shared__ typename Reduce::TempStorage tmp;
  const int c = blockIdx.y;
  unsigned long long sum = 0;

  if (c < p.n_planes) {
    const int y0 = blockIdx.x * kPsnrRows;
    const int rows = min (kPsnrRows, p.height[c] - y0);
    const int bytes = p.width[c] << p.wide;

    if (p.aligned[c]) {
      const int chunks = (bytes + 15) / 16;
      for (int i = threadIdx.x; i < rows * chunks; i += kThreads) {
        const int y = y0 + i / chunks, x = (i % chunks) * 16;
        const unsigned char *a = p.dist[c] + (size_t) y * p.dist_stride[c];
        const unsigned char *b = p.ref[c] + (size_t) y * p.ref_stride[c];
        if (x + 16 <= bytes) {
          sum += sse_vec (*(const uint4 *) (a + x), *(const uint4 *) (b + x),
              p.wide);
        } else {
          for (int s = x >> p.wide; s < p.width[c]; s++) {
            int d = (int) load_sample (a, s, p.wide) -
                (int) load_sample (b, s, p.wide);
            sum += (unsigned long long) ((long long) d * d);
          }
        }
      }
    } else {
      const int w = p.width[c];
      for (int i = threadIdx.x; i < rows * w; i += kThreads) {
        const int y = y0 + i / w, s = i % w;
        const unsigned char *a = p.dist[c] + (size_t) y * p.dist_stride[c];
        const unsigned char *b = p.ref[c] + (size_t) y * p.ref_stride[c];
        int d = (int) load_sample (a, s, p.wide) -
            (int) load_sample (b, s, p.wide);
        sum += (unsigned long long) ((long long) d * d);
      }
    }
  }
  sum = Reduce (tmp).Sum (sum);
  if (threadIdx.x == 0 && sum)
    atomicAdd (&acc->sse[c], sum);
  if (!take_ticket (&acc->psnr_done))
    return;
  if (threadIdx.x < COMPARE_MAX_PLANES)
    res->sse[threadIdx.x] = atomicExch (&acc->sse[threadIdx.x], 0ull);
  if (threadIdx.x == 0)
    acc->psnr_done = 0;
}

/* Queues the SSE pass; the sums land in results->sse. */
SharpnessStatus
queue (CompareCuda * cuda, const ComparePair * pair,
    const CompareRequest * req)
{
  int hmax = 0;
  for (int c = 0; c < pair->n_planes; c++)
    hmax = pair->height[c] > hmax ? pair->height[c] : hmax;
  dim3 grid (div_up (hmax, kPsnrRows), pair->n_planes);
  psnr_kernel <<< grid, kThreads, 0, cuda->stream >>> (planes_of (pair),
      cuda->accum, cuda->results_dev);
  return compare_cuda_check (cuda, cudaGetLastError (), "psnr kernel");
}

void
finish (CompareCuda * cuda, const ComparePair * pair,
    const CompareRequest * req, CompareResult * result)
{
  compare_psnr_finish (pair, (const uint64_t *) cuda->results->sse,
      &result->psnr);
}

}  // namespace
}  // namespace compare_cuda

COMPARE_CUDA_METRIC (PSNR, psnr, nullptr, compare_cuda::queue,
    compare_cuda::finish, nullptr);
