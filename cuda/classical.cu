/* Classical focus measures on the GPU: one fused kernel per metric and
 * sample layout, exact integer sums identical to the CPU backend's.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Work is cut into items of one warp: 32 consecutive chunks of a row
 * (gray-chunk.cuh) times a band of Layout::kBandRows rows.  A thread walks
 * down its band keeping the rows its metric's window needs in registers,
 * the rows above and below the band included; the columns left and right
 * of its chunk come from the neighbouring lanes through shuffles (lanes 0
 * and 31 read them).  The grid is persistent: as many blocks as fit on the
 * GPU at once, each warp striding over the items.  Per-pixel terms are
 * integers, summed per band in 32 bits, per thread and beyond in 64 bits;
 * launch-sums.cuh ends the launch.  docs/notes-cuda-classical.md has the
 * measurements.
 */
#include <climits>
#include <cstdio>

#include "sharpness-cuda-private.h"
#include "gray-chunk.cuh"
#include "launch-sums.cuh"

namespace sharpness_cuda
{

/* Where a metric's per-pixel term reaches, relative to its pixel: kBefore
 * rows above and columns left, kAfter rows below and columns right.  The
 * term is counted where the whole window lies inside the frame
 * (docs/metrics.md). */
template <int kBefore, int kAfter>
struct WindowShape
{
  static constexpr int kAbove = kBefore, kBelow = kAfter;
  static constexpr int kLeft = kBefore, kRight = kAfter;
};
using PointWindow = WindowShape < 0, 0 >;
using DownRightWindow = WindowShape < 0, 1 >;
using Window3x3 = WindowShape < 1, 1 >;

template <SharpnessMetric M> struct Metric;

/* Terms at column j of rows a (y - 1), b (y) and c (y + 1), each holding
 * the chunk at 1..N and the neighbouring columns at 0 and N + 1. */
template <>
struct Metric <SHARPNESS_METRIC_ROBERTS >
{
  using Window = DownRightWindow;
  template <int N>
  __device__ static unsigned term (const int (&)[N], const int (&b)[N],
      const int (&c)[N], int j)
  {
    return abs (c[j + 1] - b[j]) + abs (c[j] - b[j + 1]);
  }
};

template <>
struct Metric <SHARPNESS_METRIC_SMD >
{
  using Window = DownRightWindow;
  template <int N>
  __device__ static unsigned term (const int (&)[N], const int (&b)[N],
      const int (&c)[N], int j)
  {
    return abs (b[j] - b[j + 1]) + abs (b[j] - c[j]);
  }
};

template <>
struct Metric <SHARPNESS_METRIC_SMD2 >
{
  using Window = DownRightWindow;
  template <int N>
  __device__ static unsigned term (const int (&)[N], const int (&b)[N],
      const int (&c)[N], int j)
  {
    return abs (b[j] - b[j + 1]) * abs (b[j] - c[j]);
  }
};

template <>
struct Metric <SHARPNESS_METRIC_TENENGRAD >
{
  using Window = Window3x3;
  template <int N>
  __device__ static unsigned term (const int (&a)[N], const int (&b)[N],
      const int (&c)[N], int j)
  {
    /* Sobel: right minus left column (1, 2, 1), bottom minus top row. */
    const int gx = (a[j + 1] + 2 * b[j + 1] + c[j + 1]) -
        (a[j - 1] + 2 * b[j - 1] + c[j - 1]);
    const int gy = (c[j - 1] + 2 * c[j] + c[j + 1]) -
        (a[j - 1] + 2 * a[j] + a[j + 1]);
    return (unsigned) (gx * gx + gy * gy);
  }
};

template <>
struct Metric <SHARPNESS_METRIC_LAPLACIAN >
{
  using Window = Window3x3;
  template <int N>
  __device__ static unsigned term (const int (&a)[N], const int (&b)[N],
      const int (&c)[N], int j)
  {
    return abs (b[j + 1] + b[j - 1] - 2 * b[j]) + abs (c[j] + a[j] - 2 * b[j]);
  }
};

template <>
struct Metric <SHARPNESS_METRIC_MAXMIN >
{
  using Window = Window3x3;
  template <int N>
  __device__ static unsigned term (const int (&a)[N], const int (&b)[N],
      const int (&c)[N], int j)
  {
    /* Column extremes first, so unrolled neighbours share them. */
    const int hi = __vimax3_s32 (__vimax3_s32 (a[j - 1], b[j - 1], c[j - 1]),
        __vimax3_s32 (a[j], b[j], c[j]),
        __vimax3_s32 (a[j + 1], b[j + 1], c[j + 1]));
    const int lo = __vimin3_s32 (__vimin3_s32 (a[j - 1], b[j - 1], c[j - 1]),
        __vimin3_s32 (a[j], b[j], c[j]),
        __vimin3_s32 (a[j + 1], b[j + 1], c[j + 1]));
    return (unsigned) (hi - lo);
  }
};

/* Variance and entropy look at one pixel: their sums are special-cased. */
template <>
struct Metric <SHARPNESS_METRIC_VARIANCE >
{
  using Window = PointWindow;
};

template <>
struct Metric <SHARPNESS_METRIC_ENTROPY >
{
  using Window = PointWindow;
};

/* Adds the terms of one output row, centred on row b, to @s (and @s2, or
 * the block's histogram @hist); with kMask only pixels [ilo, ihi) of the
 * chunk count. */
template <SharpnessMetric M, bool kMask, int K>
__device__ __forceinline__ void
row_terms_masked (const int (&a)[K], const int (&b)[K], const int (&c)[K],
    int ilo, int ihi, unsigned &s, unsigned &s2, unsigned *hist)
{
#pragma unroll
  for (int i = 0; i < K - 2; i++) {
    const bool in = !kMask || (i >= ilo && i < ihi);
    const int g = b[i + 1];
    if constexpr (M == SHARPNESS_METRIC_VARIANCE) {
      s += in ? g : 0;
      s2 += in ? g * g : 0;
    } else if constexpr (M == SHARPNESS_METRIC_ENTROPY) {
      if (in)
        atomicAdd (&hist[g], 1u);
    } else {
      const unsigned t = Metric < M >::term (a, b, c, i + 1);
      s += in ? t : 0;
    }
  }
}

/* Most chunks lie wholly inside the window's reach: they skip the masks
 * (a branch between the loads and the arithmetic, so the loads of a warp
 * stay together). */
template <SharpnessMetric M, int K>
__device__ __forceinline__ void
row_terms (const int (&a)[K], const int (&b)[K], const int (&c)[K], int ilo,
    int ihi, unsigned &s, unsigned &s2, unsigned *hist)
{
  if (ilo == 0 && ihi == K - 2)
    row_terms_masked < M, false > (a, b, c, ilo, ihi, s, s2, hist);
  else
    row_terms_masked < M, true > (a, b, c, ilo, ihi, s, s2, hist);
}

/* The rows a window needs, newest last; the centre row sits kBelow rows
 * above the newest. */
template <class W, int N>
struct Rows
{
  static constexpr int kHalo = W::kAbove + W::kBelow;
  static constexpr int kB = 2 - W::kBelow;
  static constexpr int kA = kB > 0 ? kB - 1 : 0;
  static constexpr int kC = kB < 2 ? kB + 1 : 2;

  int g[3][N + 2] = { };

  __device__ __forceinline__ void shift ()
  {
#pragma unroll
    for (int k = 0; k < N + 2; k++) {
      g[0][k] = g[1][k];
      g[1][k] = g[2][k];
    }
  }
};

/* A band whose chunks are all whole or all past the right edge.  Every
 * row is loaded before any is used, rows outside the frame clamped into it
 * (the terms that would use them are masked), so that all the band's loads
 * are in flight at once. */
template <SharpnessMetric M, class L>
__device__ __forceinline__ void
band_fast (const SharpnessPlane & p, RgbShifts sh, int x0, int y0, int lane,
    int ilo, int ihi, unsigned &s, unsigned &s2, unsigned *hist)
{
  using W = typename Metric < M >::Window;
  using R = Rows < W, L::kPixels >;
  constexpr int N = L::kPixels;
  constexpr int kRows = L::kBandRows + R::kHalo;
  const bool inside = x0 < p.width;
  uint32_t words[kRows][L::kWords];
  int left[kRows], right[kRows];

#pragma unroll
  for (int r = 0; r < kRows; r++) {
    const int y = min (max (y0 - W::kAbove + r, 0), p.height - 1);
    const uint8_t *row = p.data + (size_t) y * p.stride;
    if (inside) {
      load_chunk_words < L > (row, x0, words[r]);
    } else {
#pragma unroll
      for (int k = 0; k < L::kWords; k++)
        words[r][k] = 0;
    }
    left[r] = W::kLeft > 0 && lane == 0 && inside && x0 > 0 ?
        pixel_gray < L > (p, row, x0 - 1) : 0;
    right[r] = W::kRight > 0 && lane == 31 && x0 + N < p.width ?
        pixel_gray < L > (p, row, x0 + N) : 0;
  }

  R rows;
#pragma unroll
  for (int r = 0; r < kRows; r++) {
    rows.shift ();
#pragma unroll
    for (int i = 0; i < N; i++)
      rows.g[2][1 + i] = chunk_gray < L > (words[r], i, p, sh);
    if constexpr (W::kLeft > 0) {
      const int v = __shfl_up_sync (kFullMask, rows.g[2][N], 1);
      rows.g[2][0] = lane == 0 ? left[r] : v;
    }
    if constexpr (W::kRight > 0) {
      const int v = __shfl_down_sync (kFullMask, rows.g[2][1], 1);
      rows.g[2][N + 1] = lane == 31 ? right[r] : v;
    }

    const int yc = y0 - W::kAbove + r - W::kBelow;
    if (r >= R::kHalo && yc >= W::kAbove && yc < p.height - W::kBelow)
      row_terms < M > (rows.g[R::kA], rows.g[R::kB], rows.g[R::kC], ilo, ihi,
          s, s2, hist);
  }
}

/* Row @y of the chunk at @x0 with the columns beside it that the window
 * needs, pixel by pixel where the chunk crosses the right edge; zeros
 * outside the frame.  All lanes of a warp share @y. */
template <class L, class W>
__device__ __forceinline__ void
load_row_edge (const SharpnessPlane & p, RgbShifts sh, int y, int x0, int lane,
    int (&g)[L::kPixels + 2])
{
  constexpr int N = L::kPixels;

  if (y < 0 || y >= p.height) {
#pragma unroll
    for (int k = 0; k < N + 2; k++)
      g[k] = 0;
    return;
  }
  const uint8_t *row = p.data + (size_t) y * p.stride;
  load_chunk < L > (p, row, x0, sh, g);
  if constexpr (W::kLeft > 0) {
    int left = __shfl_up_sync (kFullMask, g[N], 1);
    if (lane == 0)
      left = x0 > 0 && x0 <= p.width ? sharpness_plane_gray_at (&p, row,
          x0 - 1) : 0;
    g[0] = left;
  }
  if constexpr (W::kRight > 0) {
    int right = __shfl_down_sync (kFullMask, g[1], 1);
    if (lane == 31)
      right = x0 + N < p.width ? sharpness_plane_gray_at (&p, row, x0 + N) : 0;
    g[N + 1] = right;
  }
}

/* Any other band: the generic layouts, the segment holding the chunk that
 * crosses the right edge.  Row by row. */
template <SharpnessMetric M, class L>
__device__ __forceinline__ void
band_edge (const SharpnessPlane & p, RgbShifts sh, int x0, int y0, int lane,
    int ilo, int ihi, unsigned &s, unsigned &s2, unsigned *hist)
{
  using W = typename Metric < M >::Window;
  using R = Rows < W, L::kPixels >;
  R rows;

#pragma unroll
  for (int r = 0; r < L::kBandRows + R::kHalo; r++) {
    rows.shift ();
    const int y = y0 - W::kAbove + r;
    load_row_edge < L, W > (p, sh, y, x0, lane, rows.g[2]);

    const int yc = y - W::kBelow;
    if (r >= R::kHalo && yc >= W::kAbove && yc < p.height - W::kBelow)
      row_terms < M > (rows.g[R::kA], rows.g[R::kB], rows.g[R::kC], ilo, ihi,
          s, s2, hist);
  }
}

/* Adds the terms of the band of rows [y0, y0 + L::kBandRows) of the chunk at
 * @x0 (in warp @segment of its row) to @sum and @sum_sq, or to @hist. */
template <SharpnessMetric M, class L>
__device__ __forceinline__ void
band_sums (const SharpnessPlane & p, RgbShifts sh, int segment, int y0,
    int lane, unsigned long long &sum, unsigned long long &sum_sq,
    unsigned *hist)
{
  using W = typename Metric < M >::Window;
  constexpr int N = L::kPixels;
  const int x0 = (segment * 32 + lane) * N;
  /* Pixels [ilo, ihi) of the chunk have their window inside the frame
   * (rows are checked row by row). */
  const int ilo = max (W::kLeft - x0, 0);
  const int ihi = min (p.width - W::kRight - x0, N);
  unsigned s = 0, s2 = 0;

  static_assert (2080800ull * N * L::kBandRows < (1ull << 32),
      "a band's sum of the largest term fits in 32 bits");
  if constexpr (L::kPixelStride != 0) {
    /* Only the segment holding the chunk across the right edge is slow. */
    if (p.width % N == 0 || segment != p.width / N / 32)
      band_fast < M, L > (p, sh, x0, y0, lane, ilo, ihi, s, s2, hist);
    else
      band_edge < M, L > (p, sh, x0, y0, lane, ilo, ihi, s, s2, hist);
  } else {
    band_edge < M, L > (p, sh, x0, y0, lane, ilo, ihi, s, s2, hist);
  }
  sum += s;
  sum_sq += s2;
}

template <SharpnessMetric M, class L>
__global__ void __launch_bounds__ (kBlockThreads)
classical_kernel (const __grid_constant__ SharpnessPlane plane, int segments,
    int items, SharpnessCudaAccum * accum, SharpnessCudaResult * result,
    unsigned long long seq)
{
  constexpr bool kHist = M == SHARPNESS_METRIC_ENTROPY;
  __shared__ unsigned hist[kHist ? 256 : 1];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const RgbShifts sh = rgb_shifts (plane);
  unsigned long long sum = 0, sum_sq = 0;

  if constexpr (kHist) {
    for (int k = threadIdx.x; k < 256; k += kBlockThreads)
      hist[k] = 0;
    __syncthreads ();
  }

  for (int item = blockIdx.x * kBlockWarps + warp; item < items;
      item += gridDim.x * kBlockWarps) {
    const int segment = item % segments, band = item / segments;
    band_sums < M, L > (plane, sh, segment, band * L::kBandRows, lane, sum,
        sum_sq, hist);
  }

  finish_launch < kHist, M == SHARPNESS_METRIC_VARIANCE > (sum, sum_sq, hist,
      accum, result, seq);
}

using Kernel = void (*)(const SharpnessPlane, int, int, SharpnessCudaAccum *,
    SharpnessCudaResult *, unsigned long long);

/* The variants, in the order variant_of() numbers them. */
template <SharpnessMetric M>
struct Kernels
{
  static constexpr Kernel kList[SHARPNESS_CUDA_CLASSICAL_VARIANTS] = {
    classical_kernel < M, Layout < SHARPNESS_SAMPLES_Y8, 1 > >,
    classical_kernel < M, Layout < SHARPNESS_SAMPLES_Y16LE, 2 > >,
    classical_kernel < M, Layout < SHARPNESS_SAMPLES_RGB8, 3 > >,
    classical_kernel < M, Layout < SHARPNESS_SAMPLES_RGB8, 4 > >,
    classical_kernel < M, Layout < SHARPNESS_SAMPLES_Y8, 0 > >,
    classical_kernel < M, Layout < SHARPNESS_SAMPLES_Y16LE, 0 > >,
    classical_kernel < M, Layout < SHARPNESS_SAMPLES_RGB8, 0 > >,
  };
};

/* Chunk width and band height of each variant, for the host's grid. */
struct VariantShape
{
  int pixels, band_rows;
};

template <class L>
constexpr VariantShape
shape_of ()
{
  return VariantShape { L::kPixels, L::kBandRows };
}

constexpr VariantShape kVariantShapes[SHARPNESS_CUDA_CLASSICAL_VARIANTS] = {
  shape_of < Layout < SHARPNESS_SAMPLES_Y8, 1 > >(),
  shape_of < Layout < SHARPNESS_SAMPLES_Y16LE, 2 > >(),
  shape_of < Layout < SHARPNESS_SAMPLES_RGB8, 3 > >(),
  shape_of < Layout < SHARPNESS_SAMPLES_RGB8, 4 > >(),
  shape_of < Layout < SHARPNESS_SAMPLES_Y8, 0 > >(),
  shape_of < Layout < SHARPNESS_SAMPLES_Y16LE, 0 > >(),
  shape_of < Layout < SHARPNESS_SAMPLES_RGB8, 0 > >(),
};

/* The fast path needs 16-byte aligned rows and the natural pixel stride
 * (with the RGB components inside the pixel); anything else is generic. */
static int
variant_of (const SharpnessPlane * p)
{
  const bool aligned = (uintptr_t) p->data % 16 == 0 &&
      (p->height == 1 || p->stride % 16 == 0);

  switch (p->samples) {
    case SHARPNESS_SAMPLES_Y8:
      return aligned && p->pixel_stride == 1 ? 0 : 4;
    case SHARPNESS_SAMPLES_Y16LE:
      return aligned && p->pixel_stride == 2 ? 1 : 5;
    case SHARPNESS_SAMPLES_RGB8:{
      const int ps = p->pixel_stride;
      const bool inside = p->offset_r >= 0 && p->offset_r < ps &&
          p->offset_g >= 0 && p->offset_g < ps &&
          p->offset_b >= 0 && p->offset_b < ps;
      if (aligned && inside && (ps == 3 || ps == 4))
        return ps == 3 ? 2 : 3;
      return 6;
    }
  }
  return -1;
}

template <SharpnessMetric M>
static SharpnessStatus
init_metric (SharpnessCuda * cuda)
{
  for (int v = 0; v < SHARPNESS_CUDA_CLASSICAL_VARIANTS; v++) {
    int *blocks = &cuda->classical_blocks_per_sm[M][v];
    SharpnessStatus st = sharpness_cuda_check (cuda,
        cudaOccupancyMaxActiveBlocksPerMultiprocessor (blocks,
            Kernels < M >::kList[v], kBlockThreads, 0),
        "classical kernel occupancy");
    if (st != SHARPNESS_OK)
      return st;
    if (*blocks < 1) {
      snprintf (cuda->error, sizeof cuda->error,
          "%s kernel cannot run on this device", sharpness_metric_info[M].nick);
      return SHARPNESS_ERROR_DEVICE;
    }
  }
  return SHARPNESS_OK;
}

template <SharpnessMetric M>
static SharpnessStatus
classical_sums (SharpnessCuda * cuda, const SharpnessPlane * plane,
    SharpnessSums * sums)
{
  const int v = variant_of (plane);
  if (v < 0)
    return SHARPNESS_ERROR_INVALID;

  /* Packed single sums (launch-sums.cuh) hold up to 2^53 - 1: with terms
   * below 2^21, frames up to 2^32 pixels. */
  if ((unsigned long long) plane->width * plane->height > (1ull << 32))
    return SHARPNESS_ERROR_UNSUPPORTED;

  const VariantShape shape = kVariantShapes[v];
  const int chunks = (plane->width + shape.pixels - 1) / shape.pixels;
  const int segments = (chunks + 31) / 32;
  const int bands = (plane->height + shape.band_rows - 1) / shape.band_rows;
  const long long items = (long long) segments * bands;
  if (items > INT_MAX / 2)
    return SHARPNESS_ERROR_UNSUPPORTED;
  long long blocks = (items + kBlockWarps - 1) / kBlockWarps;
  const long long resident =
      (long long) cuda->sm_count * cuda->classical_blocks_per_sm[M][v];
  blocks = blocks < resident ? blocks : resident;
  blocks = blocks < kMaxBlocks ? blocks : kMaxBlocks;

  const unsigned long long seq = ++cuda->seq;
  char what[64];
  snprintf (what, sizeof what, "%s kernel launch",
      sharpness_metric_info[M].nick);
  Kernels < M >::kList[v] <<< (int) blocks, kBlockThreads, 0, cuda->stream >>>
      (*plane, segments, (int) items, cuda->accum, cuda->result_dev, seq);
  SharpnessStatus st = sharpness_cuda_check (cuda, cudaGetLastError (), what);
  if (st != SHARPNESS_OK)
    return st;
  snprintf (what, sizeof what, "%s kernel", sharpness_metric_info[M].nick);
  st = sharpness_cuda_check (cuda, cudaStreamSynchronize (cuda->stream), what);
  if (st != SHARPNESS_OK)
    return st;

  /* Written by the launch's last block into mapped memory. */
  const SharpnessCudaResult *r = cuda->result;
  if (r->seq != seq) {
    snprintf (cuda->error, sizeof cuda->error,
        "%s: the kernel finished without writing its result", what);
    return SHARPNESS_ERROR_DEVICE;
  }
  if constexpr (M == SHARPNESS_METRIC_ENTROPY) {
    for (int k = 0; k < 256; k++)
      sums->hist[k] = r->hist[k];
  } else {
    sums->sum = r->sum;
    if constexpr (M == SHARPNESS_METRIC_VARIANCE)
      sums->sum_sq = r->sum_sq;
  }
  return SHARPNESS_OK;
}

}  /* namespace sharpness_cuda */

using namespace sharpness_cuda;

SharpnessStatus
sharpness_cuda_classical_init (SharpnessCuda * cuda)
{
  SharpnessStatus st;
  if ((st = init_metric < SHARPNESS_METRIC_VARIANCE > (cuda)) != SHARPNESS_OK ||
      (st = init_metric < SHARPNESS_METRIC_ROBERTS > (cuda)) != SHARPNESS_OK ||
      (st = init_metric < SHARPNESS_METRIC_TENENGRAD > (cuda)) != SHARPNESS_OK ||
      (st = init_metric < SHARPNESS_METRIC_LAPLACIAN > (cuda)) != SHARPNESS_OK ||
      (st = init_metric < SHARPNESS_METRIC_SMD > (cuda)) != SHARPNESS_OK ||
      (st = init_metric < SHARPNESS_METRIC_SMD2 > (cuda)) != SHARPNESS_OK ||
      (st = init_metric < SHARPNESS_METRIC_MAXMIN > (cuda)) != SHARPNESS_OK ||
      (st = init_metric < SHARPNESS_METRIC_ENTROPY > (cuda)) != SHARPNESS_OK)
    return st;
  return SHARPNESS_OK;
}

#define CLASSICAL_SUMS(name, ID) \
SharpnessStatus \
sharpness_cuda_##name##_sums (SharpnessCuda * cuda, \
    const SharpnessPlane * plane, SharpnessSums * sums) \
{ \
  return classical_sums < SHARPNESS_METRIC_##ID > (cuda, plane, sums); \
}

CLASSICAL_SUMS (variance, VARIANCE)
CLASSICAL_SUMS (roberts, ROBERTS)
CLASSICAL_SUMS (tenengrad, TENENGRAD)
CLASSICAL_SUMS (laplacian, LAPLACIAN)
CLASSICAL_SUMS (smd, SMD)
CLASSICAL_SUMS (smd2, SMD2)
CLASSICAL_SUMS (maxmin, MAXMIN)
CLASSICAL_SUMS (entropy, ENTROPY)
