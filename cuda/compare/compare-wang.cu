/* Wang's SSIM map (ssim.m: 11x11 Gaussian, double precision) and ssim.m's
 * box downsampling on the GPU, shared by SSIM wang mode
 * (compare-ssim-wang.cu) and MS-SSIM (compare-ms-ssim.cu); the CPU
 * core's compare-wang.c does the same, in another order (32-column
 * tiles, four moments, fused multiply-adds where asked for); a fixed
 * block tree gives the same bits every run.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <cmath>

#include <cub/block/block_reduce.cuh>

#include "compare-cuda-private.cuh"

namespace compare_cuda
{
namespace
{

/* Wang tile: 32 x (8 kRows) outputs, each thread kRows consecutive rows of
 * a column (the vertical sums share their loads). */
constexpr int kWangX = 32, kWangIW = kWangX + kWin - 1;
constexpr int kWangRowsPerThread = 4;
constexpr int kWangWarps = kThreads / 32;
/* Gaussian means of x, y, x^2 + y^2 and xy: SSIM and cs need the two
 * variances only as their sum. */
constexpr int kWangMoments = 4;

struct Gauss
{
  double g[kWin];
};

template < typename T > __device__ __forceinline__ double
img_load (const T * base, size_t stride, int x, int y);

template <> __device__ __forceinline__ double
img_load < unsigned char > (const unsigned char *base, size_t stride, int x,
    int y)
{
  return base[(size_t) y * stride + x];
}

template <> __device__ __forceinline__ double
img_load < unsigned short > (const unsigned short *base, size_t stride,
    int x, int y)
{
  /* little-endian samples; @stride in bytes */
  const unsigned char *row = (const unsigned char *) base + (size_t) y * stride;
  return (double) ((unsigned) row[2 * x] | ((unsigned) row[2 * x + 1] << 8));
}

template <> __device__ __forceinline__ double
img_load < double > (const double *base, size_t stride, int x, int y)
{
  return base[(size_t) y * stride + x];  /* @stride in elements */
}

/* Shared memory of a Wang tile: the five horizontal sums and both inputs,
 * in double (converted once on load: conversions to double are slow on
 * GPUs, and the horizontal pass would do 22 per output). */
template < int kRows > constexpr size_t
wang_shared ()
{
  return (kWangMoments * kWangX + 2 * kWangIW) *
      (kRows * kWangWarps + kWin - 1) * sizeof (double);
}

/* One tile of the 'valid' SSIM map: inputs and the horizontal Gaussian
 * sums of the four moments in shared memory; per-block sums of SSIM and cs
 * into @partial, and the last block adds the partials in a fixed order
 * into result slot @slot. */
template < typename T, int kRows > __global__ void
__launch_bounds__ (kThreads)
wang_kernel (const T * x, size_t xs, const T * y, size_t ys, int w, int h,
    Gauss g, double c1, double c2, double2 * partial, int slot,
    CompareCudaAccum * acc, CompareCudaResults * res)
{
  constexpr int kWangY = kRows * kWangWarps, kWangIH = kWangY + kWin - 1;
  constexpr int kWangRows = kRows;
  using Reduce = cub::BlockReduce < double, kThreads >;
  extern __shared__ __align__ (16) unsigned char smem[];
  __shared__ typename Reduce::TempStorage tmp[2];
  double (*hs)[kWangIH][kWangX] = (double (*)[kWangIH][kWangX]) smem;
  double (*in)[kWangIH][kWangIW] = (double (*)[kWangIH][kWangIW]) (smem +
      kWangMoments * kWangIH * kWangX * sizeof (double));
  const int vw = w - (kWin - 1), vh = h - (kWin - 1);
  const int ox = blockIdx.x * kWangX, oy = blockIdx.y * kWangY;
  const int tid = threadIdx.x;

  for (int i = tid; i < kWangIW * kWangIH; i += kThreads) {
    const int r = i / kWangIW, q = i % kWangIW;
    const int gx = ox + q, gy = oy + r;
    const bool ok = gx < w && gy < h;
    in[0][r][q] = ok ? img_load < T > (x, xs, gx, gy) : 0.0;
    in[1][r][q] = ok ? img_load < T > (y, ys, gx, gy) : 0.0;
  }
  __syncthreads ();
  for (int i = tid; i < kWangIH * kWangX; i += kThreads) {
    const int r = i / kWangX, j = i % kWangX;
    const double *a = &in[0][r][j], *b = &in[1][r][j];
    constexpr int kMid = kWin / 2;
    /* The Gaussian is symmetric: taps k and 10 - k share a weight.  The
     * file is built without FMA contraction (meson.build): fused
     * multiply-adds are asked for explicitly, half the double-precision
     * instructions. */
    double sx = g.g[kMid] * a[kMid], sy = g.g[kMid] * b[kMid];
    double sq = g.g[kMid] * __fma_rn (a[kMid], a[kMid], b[kMid] * b[kMid]);
    double sxy = g.g[kMid] * (a[kMid] * b[kMid]);
#pragma unroll
    for (int k = 0; k < kMid; k++) {
      const double a0 = a[k], a1 = a[kWin - 1 - k];
      const double b0 = b[k], b1 = b[kWin - 1 - k];
      sx = __fma_rn (g.g[k], a0 + a1, sx);
      sy = __fma_rn (g.g[k], b0 + b1, sy);
      sq = __fma_rn (g.g[k], __fma_rn (a0, a0, __fma_rn (a1, a1,
                  __fma_rn (b0, b0, b1 * b1))), sq);
      sxy = __fma_rn (g.g[k], __fma_rn (a0, b0, a1 * b1), sxy);
    }
    hs[0][r][j] = sx;
    hs[1][r][j] = sy;
    hs[2][r][j] = sq;
    hs[3][r][j] = sxy;
  }
  __syncthreads ();

  const int tx = tid % kWangX, ty0 = (tid / kWangX) * kWangRows;
  double m[kWangRows][kWangMoments];
#pragma unroll
  for (int o = 0; o < kWangRows; o++)
#pragma unroll
    for (int q = 0; q < kWangMoments; q++)
      m[o][q] = 0.0;
  /* Output row o adds hs rows ty0 + o .. ty0 + o + 10 in that order (the
   * order of the CPU's and of a one-output loop). */
#pragma unroll
  for (int k = 0; k < kWin + kWangRows - 1; k++) {
    double v[kWangMoments];
#pragma unroll
    for (int q = 0; q < kWangMoments; q++)
      v[q] = hs[q][ty0 + k][tx];
#pragma unroll
    for (int o = 0; o < kWangRows; o++) {
      const int t = k - o;
      if (t >= 0 && t < kWin)
#pragma unroll
        for (int q = 0; q < kWangMoments; q++)
          m[o][q] = __fma_rn (g.g[t], v[q], m[o][q]);
    }
  }
  double s = 0.0, cs = 0.0;
#pragma unroll
  for (int o = 0; o < kWangRows; o++) {
    if (ox + tx < vw && oy + ty0 + o < vh) {
      const double mx = m[o][0], my = m[o][1];
      const double vxy = m[o][2] - mx * mx - my * my;   /* vx + vy */
      const double cxy = m[o][3] - mx * my;
      const double cs_num = 2.0 * cxy + c2, cs_den = vxy + c2;
      const double l_num = 2.0 * mx * my + c1, l_den = mx * mx + my * my + c1;
      /* One division for both terms (a double division is slow). */
      const double inv = 1.0 / (l_den * cs_den);
      cs += cs_num * l_den * inv;
      s += l_num * cs_num * inv;
    }
  }
  const double bs = Reduce (tmp[0]).Sum (s);
  const double bc = Reduce (tmp[1]).Sum (cs);
  if (tid == 0)
    partial[blockIdx.y * gridDim.x + blockIdx.x] = make_double2 (bs, bc);

  if (!take_ticket (&acc->wang_done))
    return;
  /* Fixed order whoever is last: the same bits every run. */
  const int n = gridDim.x * gridDim.y;
  double ts = 0.0, tc = 0.0;
  for (int i = tid; i < n; i += kThreads) {
    const double2 pv = __ldcg (partial + i);
    ts += pv.x;
    tc += pv.y;
  }
  __syncthreads ();             /* tmp reused */
  ts = Reduce (tmp[0]).Sum (ts);
  tc = Reduce (tmp[1]).Sum (tc);
  if (tid == 0) {
    res->wang[slot] = make_double2 (ts, tc);
    acc->wang_done = 0;
  }
}

__device__ __forceinline__ int
mirror (int i, int n)
{
  while (i < 0 || i >= n) {
    if (i < 0)
      i = -i - 1;
    if (i >= n)
      i = 2 * n - i - 1;
  }
  return i;
}

/* ssim.m / msssim.m box downsampling (see compare-wang.c) of two images
 * (blockIdx.z) of the same size in one launch. */
template < typename T > __global__ void
downsample_kernel (const T * in0, size_t is0, const T * in1, size_t is1,
    int w, int h, int f, double *out0, double *out1)
{
  const T *in = blockIdx.z ? in1 : in0;
  const size_t is = blockIdx.z ? is1 : is0;
  double *out = blockIdx.z ? out1 : out0;
  const int ow = (w + f - 1) / f, oh = (h + f - 1) / f;
  const int j = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (j >= ow || i >= oh)
    return;
  const int lo = 1 - (f + 1) / 2;
  const double k = 1.0 / ((double) f * f);
  double s = 0.0;
  for (int a = 0; a < f; a++) {
    const int yy = mirror (i * f + lo + a, h);
    for (int b = 0; b < f; b++)
      s += img_load < T > (in, is, mirror (j * f + lo + b, w), yy) * k;
  }
  out[(size_t) i * ow + j] = s;
}

Gauss
gauss (void)
{
  Gauss g;
  double sum = 0.0;
  for (int k = 0; k < kWin; k++) {
    double d = k - kWin / 2;
    g.g[k] = exp (-(d * d) / (2.0 * 1.5 * 1.5));
    sum += g.g[k];
  }
  for (int k = 0; k < kWin; k++)
    g.g[k] /= sum;
  return g;
}

dim3
wang_grid (int w, int h)
{
  return dim3 (div_up (w - (kWin - 1), kWangX), div_up (h - (kWin - 1),
          kWangRowsPerThread * kWangWarps));
}

/* Queues the SSIM / cs sums of one image pair (T: sample type) into
 * result slot @slot, its block partials at @partial. */
template < typename T > SharpnessStatus
queue_wang (CompareCuda * cuda, const T * x, size_t xs, const T * y,
    size_t ys, int w, int h, double L, double2 * partial, int slot)
{
  const double c1 = (0.01 * L) * (0.01 * L), c2 = (0.03 * L) * (0.03 * L);
  const dim3 grid = wang_grid (w, h);
  wang_kernel < T, kWangRowsPerThread > <<< grid, kThreads,
      wang_shared < kWangRowsPerThread > (), cuda->stream >>> (x, xs, y, ys, w,
      h, gauss (), c1, c2, partial, slot, cuda->accum, cuda->results_dev);
  return compare_cuda_check (cuda, cudaGetLastError (), "wang kernel");
}

template < typename T > void
queue_downsample (CompareCuda * cuda, const void *in0, size_t is0,
    const void *in1, size_t is1, int w, int h, int f, double *out0,
    double *out1)
{
  const dim3 b (32, 8);
  const dim3 grid (div_up ((w + f - 1) / f, 32), div_up ((h + f - 1) / f, 8),
      2);
  downsample_kernel < T > <<< grid, b, 0, cuda->stream >>> ((const T *) in0,
      is0, (const T *) in1, is1, w, h, f, out0, out1);
}

template < typename T > SharpnessStatus
allow_wang_shared (int bytes)
{
  return compare_cuda_check (nullptr, cudaFuncSetAttribute (wang_kernel < T,
          kWangRowsPerThread >, cudaFuncAttributeMaxDynamicSharedMemorySize,
          bytes), "wang shared memory");
}

}  // namespace
}  // namespace compare_cuda

using namespace compare_cuda;

/* The Wang tiles need more than the default 48 KiB of shared memory. */
SharpnessStatus
compare_cuda_wang_init (void)
{
  const int bytes = (int) wang_shared < kWangRowsPerThread > ();
  SharpnessStatus st = allow_wang_shared < unsigned char > (bytes);
  if (st == SHARPNESS_OK)
    st = allow_wang_shared < unsigned short > (bytes);
  if (st == SHARPNESS_OK)
    st = allow_wang_shared < double > (bytes);
  return st;
}

size_t
compare_cuda_wang_blocks (int w, int h)
{
  const dim3 g = wang_grid (w, h);
  return (size_t) g.x * g.y;
}

void
compare_cuda_downsample_plane (CompareCuda * cuda, const ComparePair * pair,
    int c, int f, double *out0, double *out1)
{
  if (pair->depth > 8)
    queue_downsample < unsigned short > (cuda, pair->ref[c],
        pair->ref_stride[c], pair->dist[c], pair->dist_stride[c],
        pair->width[c], pair->height[c], f, out0, out1);
  else
    queue_downsample < unsigned char > (cuda, pair->ref[c],
        pair->ref_stride[c], pair->dist[c], pair->dist_stride[c],
        pair->width[c], pair->height[c], f, out0, out1);
}

void
compare_cuda_downsample_images (CompareCuda * cuda, const double *x,
    const double *y, int w, int h, int f, double *out0, double *out1)
{
  queue_downsample < double > (cuda, x, w, y, w, w, h, f, out0, out1);
}

SharpnessStatus
compare_cuda_wang_images (CompareCuda * cuda, const double *x,
    const double *y, int w, int h, double L, double2 * partial, int slot)
{
  return queue_wang < double > (cuda, x, w, y, w, w, h, L, partial, slot);
}

SharpnessStatus
compare_cuda_wang_plane (CompareCuda * cuda, const ComparePair * pair, int c,
    int f, double *img, double2 * partial, int slot)
{
  const double L = (double) ((1 << pair->depth) - 1);
  const int w = pair->width[c], h = pair->height[c];
  const bool wide = pair->depth > 8;

  if (f == 1) {
    if (wide)
      return queue_wang < unsigned short > (cuda,
          (const unsigned short *) pair->ref[c], pair->ref_stride[c],
          (const unsigned short *) pair->dist[c], pair->dist_stride[c], w, h,
          L, partial, slot);
    return queue_wang < unsigned char > (cuda,
        (const unsigned char *) pair->ref[c], pair->ref_stride[c],
        (const unsigned char *) pair->dist[c], pair->dist_stride[c], w, h, L,
        partial, slot);
  }
  const int ow = (w + f - 1) / f, oh = (h + f - 1) / f;
  double *a = img, *b = img + (size_t) ow * oh;
  compare_cuda_downsample_plane (cuda, pair, c, f, a, b);
  return compare_cuda_wang_images (cuda, a, b, ow, oh, L, partial, slot);
}
