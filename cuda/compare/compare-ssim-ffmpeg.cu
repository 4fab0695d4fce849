/* SSIM as FFmpeg's ssim filter (vf_ssim.c) on the GPU, bit-identical to
 * the CPU core's compare_ssim_ffmpeg: the same integer block sums, the
 * same float products and quotients each rounded once (explicit _rn
 * intrinsics; the file is built with -fmad=false, see meson.build), the
 * same double sums in the same order (one thread per row lane, as
 * FFmpeg's SSE4 code), one launch for every plane.  The default
 * ssim-mode: SSIM's descriptor, which switches to compare-ssim-wang.cu
 * with ssim-mode=wang.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <cmath>
#include <cstdio>

#include "compare-cuda-private.cuh"

namespace compare_cuda
{
namespace
{

constexpr int kSsimBand = 2;                    /* window rows per block */

static_assert (kSsimBand * 4 <= 32, "a band's row lanes fit in warp 0");

/* Per-plane offsets of the SSIM ffmpeg-mode row sums. */
struct SsimLayout
{
  size_t rows[COMPARE_MAX_PLANES];   /* double, h4 - 1 per plane */
  int w4[COMPARE_MAX_PLANES], h4[COMPARE_MAX_PLANES];
  int n_planes, max, high, band;
};

/* 4x4 block sums: 32-bit for 8-bit samples (ss <= 16 x 2 x 255^2), 64-bit
 * for high bit depths. */
template < typename S > struct BlockSums
{
  S s1, s2, ss, s12;
};

/* compare_ssim_ffmpeg_window: the same integer terms, float products and
 * quotient, each rounded once (no FMA: explicit _rn intrinsics). */
__device__ __forceinline__ float
ssim_window (long long s1, long long s2, long long ss, long long s12,
    int max, int high)
{
  long long c1, c2;
  if (high) {
    c1 = (long long) (.01 * .01 * max * max * 64 + .5);
    c2 = (long long) (.03 * .03 * max * max * 64 * 63 + .5);
  } else {
    c1 = 416;
    c2 = 235963;
  }
  long long vars = ss * 64 - s1 * s1 - s2 * s2;
  long long covar = s12 * 64 - s1 * s2;
  float num = __fmul_rn (__ll2float_rn (2 * s1 * s2 + c1),
      __ll2float_rn (2 * covar + c2));
  float den = __fmul_rn (__ll2float_rn (s1 * s1 + s2 * s2 + c1),
      __ll2float_rn (vars + c2));
  return __fdiv_rn (num, den);
}

/* The block sums of block (x, z) of plane c (the distorted frame is
 * FFmpeg's first input, as in the CPU backend). */
template < typename S > __device__ __forceinline__ BlockSums < S >
block_sums (const Planes & p, int c, int x, int z)
{
  BlockSums < S > s = { 0, 0, 0, 0 };
  for (int y = 0; y < 4; y++) {
    const unsigned char *a = p.dist[c] + (size_t) (4 * z + y) * p.dist_stride[c];
    const unsigned char *b = p.ref[c] + (size_t) (4 * z + y) * p.ref_stride[c];
    if (!p.wide && p.aligned[c]) {
      /* four samples in one word: dp4a sums exactly */
      unsigned va = *(const unsigned *) (a + 4 * x);
      unsigned vb = *(const unsigned *) (b + 4 * x);
      s.s1 += (S) __dp4a (va, 0x01010101u, 0u);
      s.s2 += (S) __dp4a (vb, 0x01010101u, 0u);
      s.ss += (S) (__dp4a (va, va, 0u) + __dp4a (vb, vb, 0u));
      s.s12 += (S) __dp4a (va, vb, 0u);
      continue;
    }
    for (int i = 4 * x; i < 4 * x + 4; i++) {
      S va = load_sample (a, i, p.wide), vb = load_sample (b, i, p.wide);
      s.s1 += va;
      s.s2 += vb;
      s.ss += va * va + vb * vb;
      s.s12 += va * vb;
    }
  }
  return s;
}

/* Block (x, c): window rows (FFmpeg's y - 1) x * band .. + band - 1 of
 * plane c.  In shared memory: the block sums of the band's block rows and
 * the band's window values (w4 + 2 per row: the last three read blocks
 * past the row as zero, as the CPU backend models FFmpeg's SSE4 tail).
 * Then 4 lanes per row sum windows k, k + 4, .. in double
 * (ff_ssim_end_line_sse4) and lane 0 applies the tail as
 * compare_ssim_ffmpeg_row and reduces (l0 + l2) + (l1 + l3); 16-bit, lane
 * 0 sums all in float (ssim_endn_16bit).  The last block adds each plane's
 * rows in row order (vf_ssim.c's double accumulator). */
template < typename S > __global__ void
__launch_bounds__ (kThreads)
ssim_ffmpeg_kernel (Planes p, SsimLayout l, double *rows,
    CompareCudaAccum * acc, CompareCudaResults * res)
{
  extern __shared__ __align__ (16) unsigned char smem[];
  const int c = blockIdx.y;
  const int r0 = blockIdx.x * l.band;
  const int nr = c < l.n_planes ? min (l.band, l.h4[c] - 1 - r0) : 0;

  if (nr > 0) {
    const int w4 = l.w4[c], vw = w4 + 2;
    BlockSums < S > *bs = (BlockSums < S > *) smem;
    float *vals = (float *) (bs + (size_t) (l.band + 1) * w4);
    const int max = l.high ? l.max : 255;

    for (int i = threadIdx.x; i < (nr + 1) * w4; i += kThreads)
      bs[i] = block_sums < S > (p, c, i % w4, r0 + i / w4);
    __syncthreads ();
    for (int i = threadIdx.x; i < nr * vw; i += kThreads) {
      const int rr = i / vw, x = i % vw;
      const BlockSums < S > *top = bs + (size_t) rr * w4, *bot = top + w4;
      long long t[4] = { 0, 0, 0, 0 };
      for (int k = x; k < x + 2 && k < w4; k++) {
        t[0] += (long long) top[k].s1 + bot[k].s1;
        t[1] += (long long) top[k].s2 + bot[k].s2;
        t[2] += (long long) top[k].ss + bot[k].ss;
        t[3] += (long long) top[k].s12 + bot[k].s12;
      }
      vals[i] = ssim_window (t[0], t[1], t[2], t[3], max, l.high);
    }
    __syncthreads ();

    if (threadIdx.x < 4 * nr) {
      const int rr = threadIdx.x / 4, k = threadIdx.x & 3;
      const int n = w4 - 1;
      const float *v = vals + (size_t) rr * vw;
      const unsigned mask = 4 * nr == 32 ? 0xffffffffu : (1u << (4 * nr)) - 1;
      double lane = 0.0;

      if (!l.high)
        for (int i = k; i < n; i += 4)
          lane = __dadd_rn (lane, (double) v[i]);
      double l1 = __shfl_down_sync (mask, lane, 1, 4);
      double l2 = __shfl_down_sync (mask, lane, 2, 4);
      double l3 = __shfl_down_sync (mask, lane, 3, 4);
      if (k == 0) {
        double out;
        if (l.high) {
          float f = 0.0f;
          for (int i = 0; i < n; i++)
            f = __fadd_rn (f, v[i]);
          out = f;
        } else {
          double a[4] = { lane, l1, l2, l3 };
          const int rest = n & 3, g = n - rest;
          if (rest) {
            double x[4];
            for (int q = 0; q < 4; q++)
              x[q] = v[g + q];
            for (int q = rest; q < 4; q++)
              a[q] = __dadd_rn (a[q], x[q]);
            if (rest == 3) {
              a[2] = __dsub_rn (a[2], x[3]);
            } else if (rest == 2) {
              a[2] = __dsub_rn (a[2], x[2]);
              a[3] = __dsub_rn (a[3], x[3]);
            } else {
              /* window g + 1 stays in lane 1, comes off lane 0 (the fixed
               * asm) */
              a[0] = __dsub_rn (a[0], x[1]);
              a[2] = __dsub_rn (a[2], x[2]);
              a[3] = __dsub_rn (a[3], x[3]);
            }
          }
          out = __dadd_rn (__dadd_rn (a[0], a[2]), __dadd_rn (a[1], a[3]));
        }
        rows[l.rows[c] + r0 + rr] = out;
      }
    }
  }

  if (!take_ticket (&acc->ssim_done))
    return;
  if (threadIdx.x < l.n_planes) {
    const int pc = threadIdx.x;
    double s = 0.0;
    for (int r = 0; r < l.h4[pc] - 1; r++)
      s = __dadd_rn (s, __ldcg (rows + l.rows[pc] + r));
    res->ssim[pc] = s;
  }
  if (threadIdx.x == 0)
    acc->ssim_done = 0;
}

/* The windows of each plane (none, NaN, for a plane under 8 x 8) and where
 * their row sums go; returns how many row sums there are. */
size_t
layout_of (const ComparePair * pair, SsimLayout * l)
{
  size_t nr = 0;

  memset (l, 0, sizeof (*l));
  l->n_planes = pair->n_planes;
  l->max = (1 << pair->depth) - 1;
  l->high = pair->depth > 8;
  for (int c = 0; c < pair->n_planes; c++) {
    int w4 = pair->width[c] >> 2, h4 = pair->height[c] >> 2;
    if (w4 < 2 || h4 < 2)
      w4 = h4 = 0;              /* NaN, set on the host */
    l->w4[c] = w4;
    l->h4[c] = h4;
    l->rows[c] = nr;
    nr += h4 ? (size_t) (h4 - 1) : 0;
  }
  return nr;
}

/* Queues the ffmpeg-mode SSIM; the plane sums land in results->ssim. */
SharpnessStatus
queue (CompareCuda * cuda, const ComparePair * pair,
    const CompareRequest * req)
{
  SsimLayout lay, *l = &lay;
  const bool high = pair->depth > 8;
  const size_t bs_bytes = high ? sizeof (BlockSums < long long >) :
      sizeof (BlockSums < int >);
  const size_t nr = layout_of (pair, l);
  int w4max = 0, rmax = 0, optin = 0, device = 0;
  void *rows;
  SharpnessStatus st;

  for (int c = 0; c < pair->n_planes; c++) {
    w4max = l->w4[c] > w4max ? l->w4[c] : w4max;
    rmax = l->h4[c] - 1 > rmax ? l->h4[c] - 1 : rmax;
  }
  if (!w4max)
    return SHARPNESS_OK;        /* every plane NaN: no launch */
  if ((st = compare_cuda_reserve (cuda, COMPARE_METRIC_ID_SSIM,
              COMPARE_CUDA_BUF_DATA, nr * sizeof (double), &rows)))
    return st;

  /* The widest band of window rows that fits in shared memory: block
   * sums of band + 1 block rows and band rows of window values. */
  if ((st = compare_cuda_check (cuda, cudaGetDevice (&device), "device"))
      || (st = compare_cuda_check (cuda, cudaDeviceGetAttribute (&optin,
                  cudaDevAttrMaxSharedMemoryPerBlockOptin, device),
              "shared memory")))
    return st;
  size_t shared = 0;
  for (l->band = kSsimBand; l->band >= 1; l->band /= 2) {
    shared = (l->band + 1) * w4max * bs_bytes +
        (size_t) l->band * (w4max + 2) * sizeof (float);
    if (shared <= (size_t) optin)
      break;
  }
  if (l->band < 1) {
    snprintf (cuda->error, sizeof (cuda->error), "SSIM: a plane %d samples "
        "wide needs more shared memory than the device has", 4 * w4max);
    return SHARPNESS_ERROR_UNSUPPORTED;
  }
  if (shared > cuda->ssim_shared[high]) {
    st = compare_cuda_check (cuda, high ?
        cudaFuncSetAttribute (ssim_ffmpeg_kernel < long long >,
            cudaFuncAttributeMaxDynamicSharedMemorySize, (int) shared) :
        cudaFuncSetAttribute (ssim_ffmpeg_kernel < int >,
            cudaFuncAttributeMaxDynamicSharedMemorySize, (int) shared),
        "ssim shared memory");
    if (st != SHARPNESS_OK)
      return st;
    cuda->ssim_shared[high] = shared;
  }

  dim3 grid (div_up (rmax, l->band), pair->n_planes);
  if (high)
    ssim_ffmpeg_kernel < long long > <<< grid, kThreads, shared,
        cuda->stream >>> (planes_of (pair), *l, (double *) rows, cuda->accum,
        cuda->results_dev);
  else
    ssim_ffmpeg_kernel < int > <<< grid, kThreads, shared, cuda->stream >>>
        (planes_of (pair), *l, (double *) rows, cuda->accum,
        cuda->results_dev);
  return compare_cuda_check (cuda, cudaGetLastError (), "ssim kernel");
}

void
finish (CompareCuda * cuda, const ComparePair * pair,
    const CompareRequest * req, CompareResult * result)
{
  CompareSsim *out = &result->ssim;
  double weight[COMPARE_MAX_PLANES];
  SsimLayout l;

  layout_of (pair, &l);
  memset (out, 0, sizeof (*out));
  out->n_planes = pair->n_planes;
  for (int c = 0; c < pair->n_planes; c++)
    out->ssim[c] = l.w4[c] ?
        cuda->results->ssim[c] / ((l.w4[c] - 1) * (l.h4[c] - 1)) : NAN;
  compare_plane_weights (pair, weight);
  out->all = 0.0;
  for (int c = 0; c < pair->n_planes; c++)
    out->all += weight[c] * out->ssim[c];
  out->db = compare_ssim_db (out->all, 1.0);
}

}  // namespace
}  // namespace compare_cuda

COMPARE_CUDA_METRIC (SSIM, ssim, nullptr, compare_cuda::queue,
    compare_cuda::finish, &compare_cuda_ssim_wang_mode);
