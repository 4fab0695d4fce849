/* CUDA kernels of the full-reference comparison; see compare-cuda.h.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Built with -fmad=false: the SSIM ffmpeg-mode window values (float) and
 * their double sums must round as the CPU's do, so that both backends give
 * the same bits.  Sums are exact integers (PSNR, block sums) or run in a
 * fixed order (SSIM ffmpeg mode, one thread per row lane as FFmpeg's SSE4
 * code); the float modes use double and a deterministic block tree.
 *
 * One launch per metric (per scale for MS-SSIM), one synchronisation per
 * call: the block that finishes a launch last (a ticket, as in the CUDA
 * samples' threadFenceReduction) writes the launch's totals into mapped
 * pinned memory and resets the device accumulators, so there is no memset
 * and no copy between the kernels and the host.
 */
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <type_traits>

#include <cub/block/block_reduce.cuh>
#include <cuda_runtime.h>

#include "compare-cuda.h"
#include "compare-private.h"

namespace
{

constexpr int kThreads = 256;
constexpr int kWin = 11;
constexpr int kPsnrRows = 4;                    /* rows per PSNR block */
constexpr int kSsimBand = 2;                    /* window rows per block */
/* Wang tile: 32 x (8 kRows) outputs, each thread kRows consecutive rows of
 * a column (the vertical sums share their loads); kRows = 4 (2 measured
 * the same on an H200). */
constexpr int kWangX = 32, kWangIW = kWangX + kWin - 1;
constexpr int kWangRowsPerThread = 4;
constexpr int kWangWarps = kThreads / 32;
/* Gaussian means of x, y, x^2 + y^2 and xy: SSIM and cs need the two
 * variances only as their sum. */
constexpr int kWangMoments = 4;
constexpr int kWangSlots = COMPARE_MAX_PLANES + COMPARE_MS_SSIM_SCALES;

static_assert (kSsimBand * 4 <= 32, "a band's row lanes fit in warp 0");

struct Planes
{
  const unsigned char *ref[COMPARE_MAX_PLANES];
  const unsigned char *dist[COMPARE_MAX_PLANES];
  size_t ref_stride[COMPARE_MAX_PLANES], dist_stride[COMPARE_MAX_PLANES];
  int width[COMPARE_MAX_PLANES], height[COMPARE_MAX_PLANES];
  /* both planes' data and strides 16-byte aligned: vector loads */
  int aligned[COMPARE_MAX_PLANES];
  int n_planes, wide;
};

struct Gauss
{
  double g[kWin];
};

/* Per-plane offsets of the SSIM ffmpeg-mode row sums. */
struct SsimLayout
{
  size_t rows[COMPARE_MAX_PLANES];   /* double, h4 - 1 per plane */
  int w4[COMPARE_MAX_PLANES], h4[COMPARE_MAX_PLANES];
  int n_planes, max, high, band;
};

}  // namespace

/* Device accumulators: zero between launches (the last block resets). */
struct CompareCudaAccum
{
  unsigned long long sse[COMPARE_MAX_PLANES];
  unsigned psnr_done, ssim_done, wang_done;
};

/* Mapped pinned host memory, written by the launches' last blocks. */
struct CompareCudaResults
{
  unsigned long long sse[COMPARE_MAX_PLANES];
  double ssim[COMPARE_MAX_PLANES];      /* ffmpeg mode: plane sums */
  double2 wang[kWangSlots];             /* (sum SSIM, sum cs) per job */
};

namespace
{

/* Last block of the launch to call this (all threads of every block):
 * TRUE in all its threads, once this block's writes are visible. */
__device__ __forceinline__ bool
take_ticket (unsigned *done)
{
  __shared__ bool last;
  __threadfence ();
  __syncthreads ();
  if (threadIdx.x == 0)
    last = atomicAdd (done, 1u) == gridDim.x * gridDim.y * gridDim.z - 1;
  __syncthreads ();
  if (last)
    __threadfence ();
  return last;
}

__device__ __forceinline__ unsigned
load_sample (const unsigned char *row, int x, int wide)
{
  if (wide)
    return (unsigned) row[2 * x] | ((unsigned) row[2 * x + 1] << 8);
  return row[x];
}

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

/* ---- PSNR: exact SSE of every plane, one launch ------------------------- */

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

/* ---- SSIM, ffmpeg mode -------------------------------------------------- */

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

/* ---- Wang SSIM / MS-SSIM (double) --------------------------------------- */

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
     * file is built without FMA contraction (for the ffmpeg mode): the
     * float modes ask for fused multiply-adds explicitly, half the
     * double-precision instructions. */
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

}  // namespace

/* ---- host side ----------------------------------------------------------- */

enum
{ D_ROWS, D_IMG, D_PARTIAL, D_N };

struct CompareCuda
{
  cudaStream_t stream;
  char error[256];
  CompareCudaAccum *accum;              /* device, zeroed once */
  CompareCudaResults *results;          /* mapped pinned host memory */
  CompareCudaResults *results_dev;      /* its device address */
  /* device buffers, grown to the largest frame */
  void *dbuf[D_N];
  size_t dcap[D_N];
  size_t ssim_shared[2];                /* opt-in shared memory set */
};

static __thread char new_error[256];

static SharpnessStatus
check (CompareCuda * cuda, cudaError_t err, const char *what)
{
  if (err == cudaSuccess)
    return SHARPNESS_OK;
  snprintf (cuda ? cuda->error : new_error, 256, "%s: %s", what,
      cudaGetErrorString (err));
  return err == cudaErrorMemoryAllocation ? SHARPNESS_ERROR_NO_MEMORY :
      SHARPNESS_ERROR_DEVICE;
}

static SharpnessStatus
reserve (CompareCuda * cuda, int which, size_t size)
{
  if (cuda->dcap[which] >= size)
    return SHARPNESS_OK;
  /* a larger frame: wait for queued work using the old buffer */
  SharpnessStatus st = check (cuda, cudaStreamSynchronize (cuda->stream),
      "synchronise before growing");
  if (st != SHARPNESS_OK)
    return st;
  cudaFree (cuda->dbuf[which]);
  cuda->dbuf[which] = nullptr;
  cuda->dcap[which] = 0;
  st = check (cuda, cudaMalloc (&cuda->dbuf[which], size), "device buffer");
  if (st == SHARPNESS_OK)
    cuda->dcap[which] = size;
  return st;
}

template < int kRows > static SharpnessStatus
allow_wang_shared ()
{
  const int bytes = (int) wang_shared < kRows > ();
  SharpnessStatus st = check (nullptr, cudaFuncSetAttribute (wang_kernel <
          unsigned char, kRows >, cudaFuncAttributeMaxDynamicSharedMemorySize,
          bytes), "wang shared memory");
  if (st == SHARPNESS_OK)
    st = check (nullptr, cudaFuncSetAttribute (wang_kernel < unsigned short,
            kRows >, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes),
        "wang shared memory");
  if (st == SHARPNESS_OK)
    st = check (nullptr, cudaFuncSetAttribute (wang_kernel < double, kRows >,
            cudaFuncAttributeMaxDynamicSharedMemorySize, bytes),
        "wang shared memory");
  return st;
}

extern "C" SharpnessStatus
compare_cuda_new (void *stream, CompareCuda ** out)
{
  CompareCuda *cuda = (CompareCuda *) calloc (1, sizeof (CompareCuda));
  SharpnessStatus st;

  *out = nullptr;
  if (!cuda) {
    snprintf (new_error, sizeof (new_error), "out of host memory");
    return SHARPNESS_ERROR_NO_MEMORY;
  }
  cuda->stream = (cudaStream_t) stream;
  st = check (nullptr, cudaHostAlloc ((void **) &cuda->results,
          sizeof (CompareCudaResults), cudaHostAllocMapped |
          cudaHostAllocPortable), "pinned results");
  if (st == SHARPNESS_OK)
    st = check (nullptr, cudaHostGetDevicePointer ((void **)
            &cuda->results_dev, cuda->results, 0), "mapped results");
  if (st == SHARPNESS_OK)
    st = check (nullptr, cudaMalloc ((void **) &cuda->accum,
            sizeof (CompareCudaAccum)), "device accumulators");
  if (st == SHARPNESS_OK)
    st = check (nullptr, cudaMemset (cuda->accum, 0,
            sizeof (CompareCudaAccum)), "clear accumulators");
  /* The Wang tiles need more than the default 48 KiB of shared memory. */
  if (st == SHARPNESS_OK)
    st = allow_wang_shared < kWangRowsPerThread > ();
  if (st != SHARPNESS_OK) {
    compare_cuda_free (cuda);
    return st;
  }
  *out = cuda;
  return SHARPNESS_OK;
}

extern "C" void
compare_cuda_free (CompareCuda * cuda)
{
  if (!cuda)
    return;
  (void) cudaStreamSynchronize (cuda->stream);
  for (int i = 0; i < D_N; i++)
    cudaFree (cuda->dbuf[i]);
  cudaFree (cuda->accum);
  cudaFreeHost (cuda->results);
  free (cuda);
}

extern "C" const char *
compare_cuda_last_error (const CompareCuda * cuda)
{
  return cuda ? cuda->error : new_error;
}

static bool
aligned16 (const void *a, const void *b, size_t sa, size_t sb)
{
  return (((uintptr_t) a | (uintptr_t) b | sa | sb) & 15) == 0;
}

static Planes
planes_of (const ComparePair * pair)
{
  Planes p;
  memset (&p, 0, sizeof (p));
  p.n_planes = pair->n_planes;
  p.wide = pair->depth > 8;
  for (int c = 0; c < pair->n_planes; c++) {
    p.ref[c] = (const unsigned char *) pair->ref[c];
    p.dist[c] = (const unsigned char *) pair->dist[c];
    p.ref_stride[c] = pair->ref_stride[c];
    p.dist_stride[c] = pair->dist_stride[c];
    p.width[c] = pair->width[c];
    p.height[c] = pair->height[c];
    p.aligned[c] = aligned16 (pair->ref[c], pair->dist[c],
        pair->ref_stride[c], pair->dist_stride[c]);
  }
  return p;
}

static unsigned
div_up (size_t a, unsigned b)
{
  return (unsigned) ((a + b - 1) / b);
}

/* Queues the SSE pass; the sums land in results->sse. */
static SharpnessStatus
queue_psnr (CompareCuda * cuda, const ComparePair * pair)
{
  int hmax = 0;
  for (int c = 0; c < pair->n_planes; c++)
    hmax = pair->height[c] > hmax ? pair->height[c] : hmax;
  dim3 grid (div_up (hmax, kPsnrRows), pair->n_planes);
  psnr_kernel <<< grid, kThreads, 0, cuda->stream >>> (planes_of (pair),
      cuda->accum, cuda->results_dev);
  return check (cuda, cudaGetLastError (), "psnr kernel");
}

/* Queues the ffmpeg-mode SSIM; the plane sums land in results->ssim. */
static SharpnessStatus
queue_ssim (CompareCuda * cuda, const ComparePair * pair, SsimLayout * l)
{
  const bool high = pair->depth > 8;
  const size_t bs_bytes = high ? sizeof (BlockSums < long long >) :
      sizeof (BlockSums < int >);
  size_t nr = 0;
  int w4max = 0, rmax = 0, optin = 0, device = 0;
  SharpnessStatus st;

  memset (l, 0, sizeof (*l));
  l->n_planes = pair->n_planes;
  l->max = (1 << pair->depth) - 1;
  l->high = high;
  for (int c = 0; c < pair->n_planes; c++) {
    int w4 = pair->width[c] >> 2, h4 = pair->height[c] >> 2;
    if (w4 < 2 || h4 < 2)
      w4 = h4 = 0;              /* NaN, set on the host */
    l->w4[c] = w4;
    l->h4[c] = h4;
    l->rows[c] = nr;
    nr += h4 ? (size_t) (h4 - 1) : 0;
    w4max = w4 > w4max ? w4 : w4max;
    rmax = h4 - 1 > rmax ? h4 - 1 : rmax;
  }
  if (!w4max)
    return SHARPNESS_OK;        /* every plane NaN: no launch */
  if ((st = reserve (cuda, D_ROWS, nr * sizeof (double))))
    return st;

  /* The widest band of window rows that fits in shared memory: block
   * sums of band + 1 block rows and band rows of window values. */
  if ((st = check (cuda, cudaGetDevice (&device), "device"))
      || (st = check (cuda, cudaDeviceGetAttribute (&optin,
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
    st = check (cuda, high ?
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
        cuda->stream >>> (planes_of (pair), *l, (double *) cuda->dbuf[D_ROWS],
        cuda->accum, cuda->results_dev);
  else
    ssim_ffmpeg_kernel < int > <<< grid, kThreads, shared, cuda->stream >>>
        (planes_of (pair), *l, (double *) cuda->dbuf[D_ROWS], cuda->accum,
        cuda->results_dev);
  return check (cuda, cudaGetLastError (), "ssim kernel");
}

static SharpnessStatus
synchronise (CompareCuda * cuda)
{
  return check (cuda, cudaStreamSynchronize (cuda->stream), "synchronise");
}

static void
finish_ssim (CompareCuda * cuda, const ComparePair * pair,
    const SsimLayout * l, CompareSsim * out)
{
  double weight[COMPARE_MAX_PLANES];

  memset (out, 0, sizeof (*out));
  out->n_planes = pair->n_planes;
  for (int c = 0; c < pair->n_planes; c++)
    out->ssim[c] = l->w4[c] ?
        cuda->results->ssim[c] / ((l->w4[c] - 1) * (l->h4[c] - 1)) : NAN;
  compare_plane_weights (pair, weight);
  out->all = 0.0;
  for (int c = 0; c < pair->n_planes; c++)
    out->all += weight[c] * out->ssim[c];
  out->db = compare_ssim_db (out->all, 1.0);
}

static Gauss
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

static dim3
wang_grid (int w, int h)
{
  return dim3 (div_up (w - (kWin - 1), kWangX), div_up (h - (kWin - 1),
          kWangRowsPerThread * kWangWarps));
}

/* Queues the SSIM / cs sums of one image pair (T: sample type) into
 * result slot @slot, its block partials at @partial. */
template < typename T > static SharpnessStatus
queue_wang (CompareCuda * cuda, const T * x, size_t xs, const T * y,
    size_t ys, int w, int h, double L, double2 * partial, int slot)
{
  const double c1 = (0.01 * L) * (0.01 * L), c2 = (0.03 * L) * (0.03 * L);
  const dim3 grid = wang_grid (w, h);
  wang_kernel < T, kWangRowsPerThread > <<< grid, kThreads,
      wang_shared < kWangRowsPerThread > (), cuda->stream >>> (x, xs, y, ys, w,
      h, gauss (), c1, c2, partial, slot, cuda->accum, cuda->results_dev);
  return check (cuda, cudaGetLastError (), "wang kernel");
}

template < typename T > static void
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

/* The pair's plane @c, downsampled by @f into @out0 (reference) and @out1. */
static void
queue_downsample_plane (CompareCuda * cuda, const ComparePair * pair, int c,
    int f, double *out0, double *out1)
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

/* Wang SSIM of plane @c at factor @f (ssim.m's downsampling; 1: the raw
 * samples) into slot @slot; @img: two images of the downsampled size. */
static SharpnessStatus
queue_plane_wang (CompareCuda * cuda, const ComparePair * pair, int c, int f,
    double *img, double2 * partial, int slot)
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
  queue_downsample_plane (cuda, pair, c, f, a, b);
  return queue_wang < double > (cuda, a, ow, b, ow, ow, oh, L, partial,
      slot);
}

/* What a call queues: planes and scales of the float modes, their factors
 * and where their images and partials go. */
typedef struct
{
  int wang_f[COMPARE_MAX_PLANES];       /* 0: no Wang SSIM */
  size_t wang_img[COMPARE_MAX_PLANES], ms_img;  /* doubles into D_IMG */
  size_t partial[kWangSlots];           /* double2 into D_PARTIAL */
  int ms_w[COMPARE_MS_SSIM_SCALES], ms_h[COMPARE_MS_SSIM_SCALES];
  size_t ms_n;                          /* doubles of a scale-1 image */
} FloatPlan;

/* Sizes the float modes' buffers; UNSUPPORTED in *wang / *ms for frames
 * too small. */
static SharpnessStatus
plan_float (CompareCuda * cuda, const ComparePair * pair, int wang,
    int downsample, int ms, FloatPlan * fp, SharpnessStatus * wang_st,
    SharpnessStatus * ms_st)
{
  size_t img = 0, part = 0;
  SharpnessStatus st;

  memset (fp, 0, sizeof (*fp));
  *wang_st = *ms_st = SHARPNESS_OK;
  if (wang) {
    for (int c = 0; c < pair->n_planes; c++) {
      int f = downsample ? compare_wang_downsample_factor (pair->width[c],
          pair->height[c]) : 1;
      int w = (pair->width[c] + f - 1) / f, h = (pair->height[c] + f - 1) / f;
      if (w < kWin || h < kWin)
        *wang_st = SHARPNESS_ERROR_UNSUPPORTED;
    }
    for (int c = 0; c < pair->n_planes && *wang_st == SHARPNESS_OK; c++) {
      int f = downsample ? compare_wang_downsample_factor (pair->width[c],
          pair->height[c]) : 1;
      int w = (pair->width[c] + f - 1) / f, h = (pair->height[c] + f - 1) / f;
      dim3 g = wang_grid (w, h);
      fp->wang_f[c] = f;
      fp->wang_img[c] = img;
      img += f > 1 ? 2 * (size_t) w * h : 0;
      fp->partial[c] = part;
      part += (size_t) g.x * g.y;
    }
  }
  if (ms) {
    int w = pair->width[0], h = pair->height[0];
    if ((w + 15) / 16 < kWin || (h + 15) / 16 < kWin) {
      *ms_st = SHARPNESS_ERROR_UNSUPPORTED;
    } else {
      fp->ms_n = (size_t) ((w + 1) / 2) * ((h + 1) / 2);
      fp->ms_img = img;
      img += 4 * fp->ms_n;
      for (int s = 0; s < COMPARE_MS_SSIM_SCALES; s++) {
        dim3 g = wang_grid (w, h);
        fp->ms_w[s] = w;
        fp->ms_h[s] = h;
        fp->partial[COMPARE_MAX_PLANES + s] = part;
        part += (size_t) g.x * g.y;
        w = (w + 1) / 2;
        h = (h + 1) / 2;
      }
    }
  }
  if ((img && (st = reserve (cuda, D_IMG, img * sizeof (double))))
      || (part && (st = reserve (cuda, D_PARTIAL, part * sizeof (double2)))))
    return st;
  return SHARPNESS_OK;
}

static SharpnessStatus
queue_ssim_wang (CompareCuda * cuda, const ComparePair * pair,
    const FloatPlan * fp)
{
  double *img = (double *) cuda->dbuf[D_IMG];
  double2 *partial = (double2 *) cuda->dbuf[D_PARTIAL];
  SharpnessStatus st = SHARPNESS_OK;

  for (int c = 0; c < pair->n_planes && st == SHARPNESS_OK; c++)
    st = queue_plane_wang (cuda, pair, c, fp->wang_f[c], img + fp->wang_img[c],
        partial + fp->partial[c], c);
  return st;
}

static SharpnessStatus
queue_ms_ssim (CompareCuda * cuda, const ComparePair * pair,
    const FloatPlan * fp)
{
  double *img = (double *) cuda->dbuf[D_IMG] + fp->ms_img;
  double2 *partial = (double2 *) cuda->dbuf[D_PARTIAL];
  const double L = (double) ((1 << pair->depth) - 1);
  const size_t n = fp->ms_n;
  SharpnessStatus st;

  /* scale 0 from the samples, scale 1 downsampled from them; then two
   * pairs of images used in turn */
  if ((st = queue_plane_wang (cuda, pair, 0, 1, nullptr,
              partial + fp->partial[COMPARE_MAX_PLANES], COMPARE_MAX_PLANES)))
    return st;
  queue_downsample_plane (cuda, pair, 0, 2, img, img + n);
  for (int s = 1; s < COMPARE_MS_SSIM_SCALES; s++) {
    double *cx = img + (size_t) ((s - 1) & 1) * 2 * n, *cy = cx + n;
    const int w = fp->ms_w[s], h = fp->ms_h[s];
    if ((st = queue_wang < double > (cuda, cx, w, cy, w, w, h, L,
                partial + fp->partial[COMPARE_MAX_PLANES + s],
                COMPARE_MAX_PLANES + s)))
      return st;
    if (s + 1 < COMPARE_MS_SSIM_SCALES) {
      double *nx = img + (size_t) (s & 1) * 2 * n;
      queue_downsample < double > (cuda, cx, w, cy, w, w, h, 2, nx, nx + n);
    }
  }
  return check (cuda, cudaGetLastError (), "ms-ssim kernels");
}

static void
finish_wang (CompareCuda * cuda, const ComparePair * pair,
    const FloatPlan * fp, CompareSsim * out)
{
  double weight[COMPARE_MAX_PLANES];

  memset (out, 0, sizeof (*out));
  out->n_planes = pair->n_planes;
  for (int c = 0; c < pair->n_planes; c++) {
    const int f = fp->wang_f[c];
    const int w = (pair->width[c] + f - 1) / f;
    const int h = (pair->height[c] + f - 1) / f;
    out->ssim[c] = cuda->results->wang[c].x /
        ((double) (w - (kWin - 1)) * (h - (kWin - 1)));
  }
  compare_plane_weights (pair, weight);
  out->all = 0.0;
  for (int c = 0; c < pair->n_planes; c++)
    out->all += weight[c] * out->ssim[c];
  out->db = compare_ssim_db (out->all, 1.0);
}

static void
finish_ms_ssim (CompareCuda * cuda, const FloatPlan * fp, CompareMsSsim * out)
{
  double prod = 1.0;

  memset (out, 0, sizeof (*out));
  for (int s = 0; s < COMPARE_MS_SSIM_SCALES; s++) {
    const double2 r = cuda->results->wang[COMPARE_MAX_PLANES + s];
    const double cnt = (double) (fp->ms_w[s] - (kWin - 1)) *
        (fp->ms_h[s] - (kWin - 1));
    out->ssim[s] = r.x / cnt;
    out->cs[s] = r.y / cnt;
  }
  for (int s = 0; s < COMPARE_MS_SSIM_SCALES - 1; s++)
    prod *= pow (out->cs[s], compare_ms_ssim_weights[s]);
  out->ms_ssim = prod * pow (out->ssim[COMPARE_MS_SSIM_SCALES - 1],
      compare_ms_ssim_weights[COMPARE_MS_SSIM_SCALES - 1]);
}

static bool
device_failure (SharpnessStatus st)
{
  return st == SHARPNESS_ERROR_DEVICE || st == SHARPNESS_ERROR_NO_MEMORY;
}

extern "C" SharpnessStatus
compare_cuda_compute (CompareCuda * cuda, const ComparePair * pair,
    const CompareCudaRequest * req, ComparePsnr * psnr, CompareSsim * ssim,
    CompareMsSsim * ms, SharpnessStatus status[3])
{
  SharpnessStatus st, queued = SHARPNESS_OK;
  SsimLayout l;
  FloatPlan fp;
  const int wang = req->ssim == COMPARE_CUDA_SSIM_WANG;

  for (int m = 0; m < 3; m++)
    status[m] = SHARPNESS_ERROR_INVALID;
  if (!cuda)
    return SHARPNESS_ERROR_INVALID;
  if ((st = compare_pair_check (pair)) != SHARPNESS_OK)
    return st;
  /* compare_pair_check reads no sample: device pointers are fine */
  if ((st = plan_float (cuda, pair, wang, req->downsample, req->ms_ssim, &fp,
              &status[1], &status[2])))
    return st;
  if (!wang)
    status[1] = SHARPNESS_OK;
  if (req->psnr)
    status[0] = queued = queue_psnr (cuda, pair);
  if (req->ssim && status[1] == SHARPNESS_OK && !device_failure (queued))
    status[1] = queued = wang ? queue_ssim_wang (cuda, pair, &fp) :
        queue_ssim (cuda, pair, &l);
  if (req->ms_ssim && status[2] == SHARPNESS_OK && !device_failure (queued))
    status[2] = queued = queue_ms_ssim (cuda, pair, &fp);
  if (device_failure (queued))
    return queued;
  if ((st = synchronise (cuda)))
    return st;
  if (req->psnr && status[0] == SHARPNESS_OK)
    compare_psnr_finish (pair, (const uint64_t *) cuda->results->sse, psnr);
  if (req->ssim && status[1] == SHARPNESS_OK) {
    if (wang)
      finish_wang (cuda, pair, &fp, ssim);
    else
      finish_ssim (cuda, pair, &l, ssim);
  }
  if (req->ms_ssim && status[2] == SHARPNESS_OK)
    finish_ms_ssim (cuda, &fp, ms);
  return SHARPNESS_OK;
}

/* One metric: its status, or the call's when that failed. */
static SharpnessStatus
compute_one (CompareCuda * cuda, const ComparePair * pair,
    const CompareCudaRequest * req, ComparePsnr * psnr, CompareSsim * ssim,
    CompareMsSsim * ms, int which)
{
  SharpnessStatus status[3];
  SharpnessStatus st = compare_cuda_compute (cuda, pair, req, psnr, ssim, ms,
      status);
  return st != SHARPNESS_OK ? st : status[which];
}

extern "C" SharpnessStatus
compare_cuda_psnr (CompareCuda * cuda, const ComparePair * pair,
    ComparePsnr * out)
{
  const CompareCudaRequest req = { 1, COMPARE_CUDA_SSIM_NONE, 0, 0 };
  return compute_one (cuda, pair, &req, out, nullptr, nullptr, 0);
}

extern "C" SharpnessStatus
compare_cuda_ssim_ffmpeg (CompareCuda * cuda, const ComparePair * pair,
    CompareSsim * out)
{
  const CompareCudaRequest req = { 0, COMPARE_CUDA_SSIM_FFMPEG, 0, 0 };
  return compute_one (cuda, pair, &req, nullptr, out, nullptr, 1);
}

extern "C" SharpnessStatus
compare_cuda_psnr_ssim (CompareCuda * cuda, const ComparePair * pair,
    ComparePsnr * psnr, CompareSsim * ssim)
{
  const CompareCudaRequest req = { 1, COMPARE_CUDA_SSIM_FFMPEG, 0, 0 };
  SharpnessStatus status[3];
  SharpnessStatus st = compare_cuda_compute (cuda, pair, &req, psnr, ssim,
      nullptr, status);
  if (st != SHARPNESS_OK)
    return st;
  return status[0] != SHARPNESS_OK ? status[0] : status[1];
}

extern "C" SharpnessStatus
compare_cuda_ssim_wang (CompareCuda * cuda, const ComparePair * pair,
    int downsample, CompareSsim * out)
{
  const CompareCudaRequest req = { 0, COMPARE_CUDA_SSIM_WANG, downsample, 0 };
  return compute_one (cuda, pair, &req, nullptr, out, nullptr, 1);
}

extern "C" SharpnessStatus
compare_cuda_ms_ssim (CompareCuda * cuda, const ComparePair * pair,
    CompareMsSsim * out)
{
  const CompareCudaRequest req = { 0, COMPARE_CUDA_SSIM_NONE, 0, 1 };
  return compute_one (cuda, pair, &req, nullptr, nullptr, out, 2);
}
