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
 */
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include <cub/block/block_reduce.cuh>
#include <cuda_runtime.h>

#include "compare-cuda.h"
#include "compare-private.h"

namespace
{

constexpr int kThreads = 256;
constexpr int kWin = 11;
constexpr int kTileX = 32, kTileY = 8;          /* Wang outputs per block */
constexpr int kPsnrRows = 4;                    /* rows per PSNR block */

struct Planes
{
  const unsigned char *ref[COMPARE_MAX_PLANES];
  const unsigned char *dist[COMPARE_MAX_PLANES];
  size_t ref_stride[COMPARE_MAX_PLANES], dist_stride[COMPARE_MAX_PLANES];
  int width[COMPARE_MAX_PLANES], height[COMPARE_MAX_PLANES];
  int n_planes, wide;
};

struct Gauss
{
  double g[kWin];
};

struct BlockSum
{
  long long s1, s2, ss, s12;
};

/* Per-plane offsets of the SSIM ffmpeg-mode buffers. */
struct SsimLayout
{
  size_t sums[COMPARE_MAX_PLANES];   /* BlockSum, h4 x w4 */
  size_t vals[COMPARE_MAX_PLANES];   /* float, (h4 - 1) x (w4 + 2) */
  size_t rows[COMPARE_MAX_PLANES];   /* double, h4 - 1 */
  int w4[COMPARE_MAX_PLANES], h4[COMPARE_MAX_PLANES];
  int n_planes, max, high;
};

__device__ __forceinline__ unsigned
load_sample (const unsigned char *row, int x, int wide)
{
  if (wide)
    return (unsigned) row[2 * x] | ((unsigned) row[2 * x + 1] << 8);
  return row[x];
}

/* ---- PSNR: exact SSE of every plane, one launch ------------------------- */

__global__ void
psnr_kernel (Planes p, unsigned long long *sse)
{
  using Reduce = cub::BlockReduce < unsigned long long, kThreads >;
  __shared__ typename Reduce::TempStorage tmp;
  int c = blockIdx.y;
  int y0 = blockIdx.x * kPsnrRows;
  unsigned long long acc = 0;

  if (c >= p.n_planes || y0 >= p.height[c])
    return;                     /* uniform per block */
  for (int y = y0; y < y0 + kPsnrRows && y < p.height[c]; y++) {
    const unsigned char *a = p.dist[c] + (size_t) y * p.dist_stride[c];
    const unsigned char *b = p.ref[c] + (size_t) y * p.ref_stride[c];
    for (int x = threadIdx.x; x < p.width[c]; x += kThreads) {
      int d = (int) load_sample (a, x, p.wide) - (int) load_sample (b, x,
          p.wide);
      acc += (unsigned long long) ((long long) d * d);
    }
  }
  acc = Reduce (tmp).Sum (acc);
  if (threadIdx.x == 0 && acc)
    atomicAdd (&sse[c], acc);
}

/* ---- SSIM, ffmpeg mode -------------------------------------------------- */

__global__ void
block_sums_kernel (Planes p, SsimLayout l, BlockSum * sums)
{
  int c = blockIdx.z;
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int z = blockIdx.y * blockDim.y + threadIdx.y;
  long long s1 = 0, s2 = 0, ss = 0, s12 = 0;

  if (c >= l.n_planes || x >= l.w4[c] || z >= l.h4[c])
    return;
  for (int y = 0; y < 4; y++) {
    const unsigned char *a = p.dist[c] + (size_t) (4 * z + y) * p.dist_stride[c];
    const unsigned char *b = p.ref[c] + (size_t) (4 * z + y) * p.ref_stride[c];
    for (int i = 4 * x; i < 4 * x + 4; i++) {
      long long va = load_sample (a, i, p.wide), vb = load_sample (b, i,
          p.wide);
      s1 += va;
      s2 += vb;
      ss += va * va + vb * vb;
      s12 += va * vb;
    }
  }
  sums[l.sums[c] + (size_t) z * l.w4[c] + x] = BlockSum { s1, s2, ss, s12 };
}

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

/* Window values of rows 1 .. h4 - 1 (FFmpeg's y), w4 + 2 per row: the last
 * three read blocks past the row as zero, as the CPU backend models
 * FFmpeg's SSE4 tail (added, then subtracted again). */
__global__ void
window_kernel (SsimLayout l, const BlockSum * sums, float *vals)
{
  int c = blockIdx.z;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int r = blockIdx.y * blockDim.y + threadIdx.y;        /* FFmpeg y - 1 */

  if (c >= l.n_planes || i >= l.w4[c] + 2 || r >= l.h4[c] - 1)
    return;
  const BlockSum *s0 = sums + l.sums[c] + (size_t) (r + 1) * l.w4[c];
  const BlockSum *s1 = sums + l.sums[c] + (size_t) r * l.w4[c];
  long long t[4] = { 0, 0, 0, 0 };
  for (int k = i; k < i + 2; k++) {
    if (k >= l.w4[c])
      continue;
    t[0] += s0[k].s1 + s1[k].s1;
    t[1] += s0[k].s2 + s1[k].s2;
    t[2] += s0[k].ss + s1[k].ss;
    t[3] += s0[k].s12 + s1[k].s12;
  }
  vals[l.vals[c] + (size_t) r * (l.w4[c] + 2) + i] =
      ssim_window (t[0], t[1], t[2], t[3], l.high ? l.max : 255, l.high);
}

/* One row of windows per 4 threads: 8-bit, lane k sums windows k, k + 4, ..
 * in double (ff_ssim_end_line_sse4), then lane 0 applies the tail as
 * compare_ssim_ffmpeg_row (the valid windows only, FFmpeg's rounding) and
 * reduces (l0 + l2) + (l1 + l3); 16-bit, lane 0 sums all in float
 * (ssim_endn_16bit). */
__global__ void
row_kernel (SsimLayout l, const float *vals, double *rows)
{
  int c = blockIdx.z;
  int r = blockIdx.x * (blockDim.x / 4) + threadIdx.x / 4;
  int k = threadIdx.x & 3;
  bool live = c < l.n_planes && r < l.h4[c] - 1;
  int n = live ? l.w4[c] - 1 : 0;
  const float *v = live ? vals + l.vals[c] + (size_t) r * (l.w4[c] + 2) : vals;
  double lane = 0.0;

  if (!l.high)
    for (int i = k; i < n; i += 4)
      lane = __dadd_rn (lane, (double) v[i]);
  /* all 4 threads of a row are in one warp: gather the lanes */
  unsigned mask = __activemask ();
  double l1 = __shfl_down_sync (mask, lane, 1, 4);
  double l2 = __shfl_down_sync (mask, lane, 2, 4);
  double l3 = __shfl_down_sync (mask, lane, 3, 4);
  if (!live || k != 0)
    return;
  if (l.high) {
    float acc = 0.0f;
    for (int i = 0; i < n; i++)
      acc = __fadd_rn (acc, v[i]);
    rows[l.rows[c] + r] = acc;
    return;
  }
  double a[4] = { lane, l1, l2, l3 };
  int rest = n & 3, g = n - rest;
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
      /* window g + 1 stays in lane 1, comes off lane 0 (the fixed asm) */
      a[0] = __dsub_rn (a[0], x[1]);
      a[2] = __dsub_rn (a[2], x[2]);
      a[3] = __dsub_rn (a[3], x[3]);
    }
  }
  rows[l.rows[c] + r] = __dadd_rn (__dadd_rn (a[0], a[2]),
      __dadd_rn (a[1], a[3]));
}

/* The plane sums in row order (vf_ssim.c's double accumulator). */
__global__ void
plane_kernel (SsimLayout l, const double *rows, double *out)
{
  int c = threadIdx.x;
  if (c >= l.n_planes)
    return;
  double s = 0.0;
  for (int r = 0; r < l.h4[c] - 1; r++)
    s = __dadd_rn (s, rows[l.rows[c] + r]);
  out[c] = s;
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

/* One 32 x 8 tile of the 'valid' SSIM map: inputs and the horizontal
 * Gaussian sums in shared memory, per-block partial sums of SSIM and cs. */
template < typename T > __global__ void
__launch_bounds__ (kThreads)
wang_kernel (const T * x, size_t xs, const T * y, size_t ys, int w, int h,
    Gauss g, double c1, double c2, double2 * partial)
{
  using Reduce = cub::BlockReduce < double, kThreads >;
  constexpr int IW = kTileX + kWin - 1, IH = kTileY + kWin - 1;
  __shared__ double in[2][IH][IW];
  __shared__ double hs[5][IH][kTileX];
  __shared__ typename Reduce::TempStorage tmp;
  int vw = w - (kWin - 1), vh = h - (kWin - 1);
  int ox = blockIdx.x * kTileX, oy = blockIdx.y * kTileY;
  int tid = threadIdx.x;

  for (int i = tid; i < IW * IH; i += kThreads) {
    int r = i / IW, q = i % IW;
    int gx = ox + q, gy = oy + r;
    bool ok = gx < w && gy < h;
    in[0][r][q] = ok ? img_load < T > (x, xs, gx, gy) : 0.0;
    in[1][r][q] = ok ? img_load < T > (y, ys, gx, gy) : 0.0;
  }
  __syncthreads ();
  for (int i = tid; i < IH * kTileX; i += kThreads) {
    int r = i / kTileX, j = i % kTileX;
    double sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0;
    for (int k = 0; k < kWin; k++) {
      double a = in[0][r][j + k], b = in[1][r][j + k];
      sx += g.g[k] * a;
      sy += g.g[k] * b;
      sxx += g.g[k] * (a * a);
      syy += g.g[k] * (b * b);
      sxy += g.g[k] * (a * b);
    }
    hs[0][r][j] = sx;
    hs[1][r][j] = sy;
    hs[2][r][j] = sxx;
    hs[3][r][j] = syy;
    hs[4][r][j] = sxy;
  }
  __syncthreads ();

  double s = 0.0, cs = 0.0;
  int tx = tid % kTileX, ty = tid / kTileX;
  if (ox + tx < vw && oy + ty < vh) {
    double m[5] = { 0, 0, 0, 0, 0 };
    for (int k = 0; k < kWin; k++)
      for (int q = 0; q < 5; q++)
        m[q] += g.g[k] * hs[q][ty + k][tx];
    double mx = m[0], my = m[1];
    double vx = m[2] - mx * mx, vy = m[3] - my * my, cxy = m[4] - mx * my;
    cs = (2.0 * cxy + c2) / (vx + vy + c2);
    s = ((2.0 * mx * my + c1) * (2.0 * cxy + c2))
        / ((mx * mx + my * my + c1) * (vx + vy + c2));
  }
  double bs = Reduce (tmp).Sum (s);
  __syncthreads ();
  double bc = Reduce (tmp).Sum (cs);
  if (tid == 0)
    partial[blockIdx.y * gridDim.x + blockIdx.x] = make_double2 (bs, bc);
}

/* Sum of @n partials, fixed order: out = (sum ssim, sum cs). */
__global__ void
__launch_bounds__ (kThreads)
partial_sum_kernel (const double2 * partial, int n, double *out)
{
  using Reduce = cub::BlockReduce < double, kThreads >;
  __shared__ typename Reduce::TempStorage tmp;
  double s = 0.0, c = 0.0;
  for (int i = threadIdx.x; i < n; i += kThreads) {
    s += partial[i].x;
    c += partial[i].y;
  }
  double bs = Reduce (tmp).Sum (s);
  __syncthreads ();
  double bc = Reduce (tmp).Sum (c);
  if (threadIdx.x == 0) {
    out[0] = bs;
    out[1] = bc;
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

/* ssim.m / msssim.m box downsampling (see compare-wang.c). */
template < typename T > __global__ void
downsample_kernel (const T * in, size_t is, int w, int h, int f, double *out)
{
  int ow = (w + f - 1) / f, oh = (h + f - 1) / f;
  int j = blockIdx.x * blockDim.x + threadIdx.x;
  int i = blockIdx.y * blockDim.y + threadIdx.y;
  if (j >= ow || i >= oh)
    return;
  int lo = 1 - (f + 1) / 2;
  double k = 1.0 / ((double) f * f), s = 0.0;
  for (int a = 0; a < f; a++) {
    int yy = mirror (i * f + lo + a, h);
    for (int b = 0; b < f; b++)
      s += img_load < T > (in, is, mirror (j * f + lo + b, w), yy) * k;
  }
  out[(size_t) i * ow + j] = s;
}

}  // namespace

/* ---- host side ----------------------------------------------------------- */

struct CompareCuda
{
  cudaStream_t stream;
  char error[256];
  /* device buffers, grown to the largest frame */
  void *dbuf[6];
  size_t dcap[6];
  /* pinned host results */
  void *host;
};

enum
{ D_SSE, D_SUMS, D_VALS, D_ROWS, D_IMG, D_PARTIAL };

/* D_SSE block: [0..2] sse, then 8 doubles of SSIM plane sums and Wang sums */
#define RESULT_BYTES 256

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
  st = check (nullptr, cudaHostAlloc (&cuda->host, RESULT_BYTES,
          cudaHostAllocPortable), "pinned results");
  if (st == SHARPNESS_OK)
    st = check (nullptr, cudaMalloc (&cuda->dbuf[D_SSE], RESULT_BYTES),
        "device results");
  if (st != SHARPNESS_OK) {
    compare_cuda_free (cuda);
    return st;
  }
  cuda->dcap[D_SSE] = RESULT_BYTES;
  *out = cuda;
  return SHARPNESS_OK;
}

extern "C" void
compare_cuda_free (CompareCuda * cuda)
{
  if (!cuda)
    return;
  (void) cudaStreamSynchronize (cuda->stream);
  for (int i = 0; i < 6; i++)
    cudaFree (cuda->dbuf[i]);
  cudaFreeHost (cuda->host);
  free (cuda);
}

extern "C" const char *
compare_cuda_last_error (const CompareCuda * cuda)
{
  return cuda ? cuda->error : new_error;
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
  }
  return p;
}

static unsigned
div_up (size_t a, unsigned b)
{
  return (unsigned) ((a + b - 1) / b);
}

/* Queues the SSE pass; results land in the device result block. */
static SharpnessStatus
queue_psnr (CompareCuda * cuda, const ComparePair * pair)
{
  unsigned long long *sse = (unsigned long long *) cuda->dbuf[D_SSE];
  int hmax = 0;
  for (int c = 0; c < pair->n_planes; c++)
    hmax = pair->height[c] > hmax ? pair->height[c] : hmax;
  SharpnessStatus st = check (cuda, cudaMemsetAsync (sse, 0,
          COMPARE_MAX_PLANES * sizeof (*sse), cuda->stream), "clear sums");
  if (st != SHARPNESS_OK)
    return st;
  dim3 grid (div_up (hmax, kPsnrRows), pair->n_planes);
  psnr_kernel <<< grid, kThreads, 0, cuda->stream >>> (planes_of (pair), sse);
  return check (cuda, cudaGetLastError (), "psnr kernel");
}

/* Queues the ffmpeg-mode SSIM; plane sums land at result double 4.. */
static SharpnessStatus
queue_ssim (CompareCuda * cuda, const ComparePair * pair, SsimLayout * l)
{
  size_t ns = 0, nv = 0, nr = 0;
  int w4max = 0, h4max = 0;
  SharpnessStatus st;

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
    l->sums[c] = ns;
    l->vals[c] = nv;
    l->rows[c] = nr;
    ns += (size_t) w4 * h4;
    nv += h4 ? (size_t) (h4 - 1) * (w4 + 2) : 0;
    nr += h4 ? (size_t) (h4 - 1) : 0;
    w4max = w4 > w4max ? w4 : w4max;
    h4max = h4 > h4max ? h4 : h4max;
  }
  if ((st = reserve (cuda, D_SUMS, (ns + 1) * sizeof (BlockSum)))
      || (st = reserve (cuda, D_VALS, (nv + 1) * sizeof (float)))
      || (st = reserve (cuda, D_ROWS, (nr + 1) * sizeof (double))))
    return st;
  double *out = (double *) cuda->dbuf[D_SSE] + 4;
  st = check (cuda, cudaMemsetAsync (out, 0, COMPARE_MAX_PLANES *
          sizeof (double), cuda->stream), "clear ssim");
  if (st != SHARPNESS_OK || !w4max)
    return st;
  Planes p = planes_of (pair);
  dim3 b1 (32, 8);
  block_sums_kernel <<< dim3 (div_up (w4max, 32), div_up (h4max, 8),
      pair->n_planes), b1, 0, cuda->stream >>> (p, *l,
      (BlockSum *) cuda->dbuf[D_SUMS]);
  window_kernel <<< dim3 (div_up (w4max + 2, 32), div_up (h4max, 8),
      pair->n_planes), b1, 0, cuda->stream >>> (*l,
      (const BlockSum *) cuda->dbuf[D_SUMS], (float *) cuda->dbuf[D_VALS]);
  row_kernel <<< dim3 (div_up (h4max, 32), 1, pair->n_planes), 128, 0,
      cuda->stream >>> (*l, (const float *) cuda->dbuf[D_VALS],
      (double *) cuda->dbuf[D_ROWS]);
  plane_kernel <<< 1, 32, 0, cuda->stream >>> (*l,
      (const double *) cuda->dbuf[D_ROWS], out);
  return check (cuda, cudaGetLastError (), "ssim kernels");
}

/* Copies the result block back and waits. */
static SharpnessStatus
read_back (CompareCuda * cuda)
{
  SharpnessStatus st = check (cuda, cudaMemcpyAsync (cuda->host,
          cuda->dbuf[D_SSE], RESULT_BYTES, cudaMemcpyDeviceToHost,
          cuda->stream), "read back");
  if (st == SHARPNESS_OK)
    st = check (cuda, cudaStreamSynchronize (cuda->stream), "synchronise");
  return st;
}

static void
finish_ssim (CompareCuda * cuda, const ComparePair * pair,
    const SsimLayout * l, CompareSsim * out)
{
  const double *sums = (const double *) cuda->host + 4;
  double weight[COMPARE_MAX_PLANES];

  memset (out, 0, sizeof (*out));
  out->n_planes = pair->n_planes;
  for (int c = 0; c < pair->n_planes; c++)
    out->ssim[c] = l->w4[c] ? sums[c] / ((l->w4[c] - 1) * (l->h4[c] - 1))
        : NAN;
  compare_plane_weights (pair, weight);
  out->all = 0.0;
  for (int c = 0; c < pair->n_planes; c++)
    out->all += weight[c] * out->ssim[c];
  out->db = compare_ssim_db (out->all, 1.0);
}

static SharpnessStatus
check_pair (CompareCuda * cuda, const ComparePair * pair)
{
  /* compare_pair_check reads no sample: device pointers are fine */
  if (!cuda)
    return SHARPNESS_ERROR_INVALID;
  return compare_pair_check (pair);
}

extern "C" SharpnessStatus
compare_cuda_psnr (CompareCuda * cuda, const ComparePair * pair,
    ComparePsnr * out)
{
  SharpnessStatus st = check_pair (cuda, pair);
  if (st == SHARPNESS_OK)
    st = queue_psnr (cuda, pair);
  if (st == SHARPNESS_OK)
    st = read_back (cuda);
  if (st == SHARPNESS_OK)
    compare_psnr_finish (pair, (const uint64_t *) cuda->host, out);
  return st;
}

extern "C" SharpnessStatus
compare_cuda_ssim_ffmpeg (CompareCuda * cuda, const ComparePair * pair,
    CompareSsim * out)
{
  SsimLayout l;
  SharpnessStatus st = check_pair (cuda, pair);
  if (st == SHARPNESS_OK)
    st = queue_ssim (cuda, pair, &l);
  if (st == SHARPNESS_OK)
    st = read_back (cuda);
  if (st == SHARPNESS_OK)
    finish_ssim (cuda, pair, &l, out);
  return st;
}

extern "C" SharpnessStatus
compare_cuda_psnr_ssim (CompareCuda * cuda, const ComparePair * pair,
    ComparePsnr * psnr, CompareSsim * ssim)
{
  SsimLayout l;
  SharpnessStatus st = check_pair (cuda, pair);
  if (st == SHARPNESS_OK)
    st = queue_psnr (cuda, pair);
  if (st == SHARPNESS_OK)
    st = queue_ssim (cuda, pair, &l);
  if (st == SHARPNESS_OK)
    st = read_back (cuda);
  if (st == SHARPNESS_OK) {
    compare_psnr_finish (pair, (const uint64_t *) cuda->host, psnr);
    finish_ssim (cuda, pair, &l, ssim);
  }
  return st;
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

/* Queues the mean SSIM / cs of one image pair into result doubles @slot,
 * @slot + 1 (sums; the host divides).  T: sample type of the inputs. */
template < typename T > static SharpnessStatus
queue_wang (CompareCuda * cuda, const T * x, size_t xs, const T * y,
    size_t ys, int w, int h, double L, int slot)
{
  int vw = w - (kWin - 1), vh = h - (kWin - 1);
  if (vw < 1 || vh < 1)
    return SHARPNESS_ERROR_UNSUPPORTED;
  dim3 grid (div_up (vw, kTileX), div_up (vh, kTileY));
  SharpnessStatus st = reserve (cuda, D_PARTIAL,
      (size_t) grid.x * grid.y * sizeof (double2));
  if (st != SHARPNESS_OK)
    return st;
  double c1 = (0.01 * L) * (0.01 * L), c2 = (0.03 * L) * (0.03 * L);
  wang_kernel < T > <<< grid, kThreads, 0, cuda->stream >>> (x, xs, y, ys,
      w, h, gauss (), c1, c2, (double2 *) cuda->dbuf[D_PARTIAL]);
  partial_sum_kernel <<< 1, kThreads, 0, cuda->stream >>> (
      (const double2 *) cuda->dbuf[D_PARTIAL], (int) (grid.x * grid.y),
      (double *) cuda->dbuf[D_SSE] + 8 + 2 * slot);
  return check (cuda, cudaGetLastError (), "wang kernels");
}

template < typename T > static void
queue_downsample (CompareCuda * cuda, const T * in, size_t is, int w, int h,
    int f, double *out)
{
  dim3 b (32, 8);
  dim3 grid (div_up ((w + f - 1) / f, 32), div_up ((h + f - 1) / f, 8));
  downsample_kernel < T > <<< grid, b, 0, cuda->stream >>> (in, is, w, h, f,
      out);
}

/* Scale 0 (or ssim.m's downsampled plane) of plane @c: raw samples or the
 * double images at @img (4 images of @cap doubles). */
static SharpnessStatus
queue_plane_wang (CompareCuda * cuda, const ComparePair * pair, int c, int f,
    int slot)
{
  double L = (double) ((1 << pair->depth) - 1);
  int w = pair->width[c], h = pair->height[c];
  if (f == 1) {
    if (pair->depth > 8)
      return queue_wang < unsigned short > (cuda,
          (const unsigned short *) pair->ref[c], pair->ref_stride[c],
          (const unsigned short *) pair->dist[c], pair->dist_stride[c], w, h,
          L, slot);
    return queue_wang < unsigned char > (cuda,
        (const unsigned char *) pair->ref[c], pair->ref_stride[c],
        (const unsigned char *) pair->dist[c], pair->dist_stride[c], w, h, L,
        slot);
  }
  size_t n = (size_t) ((w + f - 1) / f) * ((h + f - 1) / f);
  SharpnessStatus st = reserve (cuda, D_IMG, 2 * n * sizeof (double));
  if (st != SHARPNESS_OK)
    return st;
  double *a = (double *) cuda->dbuf[D_IMG], *b = a + n;
  if (pair->depth > 8) {
    queue_downsample (cuda, (const unsigned short *) pair->ref[c],
        pair->ref_stride[c], w, h, f, a);
    queue_downsample (cuda, (const unsigned short *) pair->dist[c],
        pair->dist_stride[c], w, h, f, b);
  } else {
    queue_downsample (cuda, (const unsigned char *) pair->ref[c],
        pair->ref_stride[c], w, h, f, a);
    queue_downsample (cuda, (const unsigned char *) pair->dist[c],
        pair->dist_stride[c], w, h, f, b);
  }
  int ow = (w + f - 1) / f, oh = (h + f - 1) / f;
  return queue_wang < double > (cuda, a, ow, b, ow, ow, oh, L, slot);
}

extern "C" SharpnessStatus
compare_cuda_ssim_wang (CompareCuda * cuda, const ComparePair * pair,
    int downsample, CompareSsim * out)
{
  SharpnessStatus st = check_pair (cuda, pair);
  double weight[COMPARE_MAX_PLANES];
  int vn[COMPARE_MAX_PLANES];

  if (st != SHARPNESS_OK)
    return st;
  memset (out, 0, sizeof (*out));
  out->n_planes = pair->n_planes;
  /* one plane at a time: the partials and images are shared */
  for (int c = 0; c < pair->n_planes; c++) {
    int w = pair->width[c], h = pair->height[c];
    int f = downsample ? compare_wang_downsample_factor (w, h) : 1;
    w = (w + f - 1) / f;
    h = (h + f - 1) / f;
    vn[c] = (w - (kWin - 1)) * (h - (kWin - 1));
    if ((st = queue_plane_wang (cuda, pair, c, f, 0))
        || (st = read_back (cuda)))
      return st;
    out->ssim[c] = ((const double *) cuda->host)[8] / vn[c];
  }
  compare_plane_weights (pair, weight);
  out->all = 0.0;
  for (int c = 0; c < pair->n_planes; c++)
    out->all += weight[c] * out->ssim[c];
  out->db = compare_ssim_db (out->all, 1.0);
  return SHARPNESS_OK;
}

extern "C" SharpnessStatus
compare_cuda_ms_ssim (CompareCuda * cuda, const ComparePair * pair,
    CompareMsSsim * out)
{
  SharpnessStatus st = check_pair (cuda, pair);
  int w, h, ws[COMPARE_MS_SSIM_SCALES], hs[COMPARE_MS_SSIM_SCALES];
  double L;

  if (st != SHARPNESS_OK)
    return st;
  w = pair->width[0];
  h = pair->height[0];
  if ((w + 15) / 16 < kWin || (h + 15) / 16 < kWin)
    return SHARPNESS_ERROR_UNSUPPORTED;
  L = (double) ((1 << pair->depth) - 1);
  /* scales 1..4 as double images, two pairs used in turn */
  size_t n = (size_t) ((w + 1) / 2) * ((h + 1) / 2);
  if ((st = reserve (cuda, D_IMG, 4 * n * sizeof (double))))
    return st;
  double *img = (double *) cuda->dbuf[D_IMG];
  for (int l = 0; l < COMPARE_MS_SSIM_SCALES; l++) {
    ws[l] = w;
    hs[l] = h;
    w = (w + 1) / 2;
    h = (h + 1) / 2;
  }
  /* scale 0 from the samples, scale 1 downsampled from them */
  if ((st = queue_plane_wang (cuda, pair, 0, 1, 0)))
    return st;
  if (pair->depth > 8) {
    queue_downsample (cuda, (const unsigned short *) pair->ref[0],
        pair->ref_stride[0], ws[0], hs[0], 2, img);
    queue_downsample (cuda, (const unsigned short *) pair->dist[0],
        pair->dist_stride[0], ws[0], hs[0], 2, img + n);
  } else {
    queue_downsample (cuda, (const unsigned char *) pair->ref[0],
        pair->ref_stride[0], ws[0], hs[0], 2, img);
    queue_downsample (cuda, (const unsigned char *) pair->dist[0],
        pair->dist_stride[0], ws[0], hs[0], 2, img + n);
  }
  for (int l = 1; l < COMPARE_MS_SSIM_SCALES; l++) {
    double *cx = img + (size_t) ((l - 1) & 1) * 2 * n, *cy = cx + n;
    if ((st = queue_wang < double > (cuda, cx, ws[l], cy, ws[l], ws[l], hs[l],
                L, l)))
      return st;
    if (l + 1 < COMPARE_MS_SSIM_SCALES) {
      double *nx = img + (size_t) (l & 1) * 2 * n;
      queue_downsample (cuda, (const double *) cx, ws[l], ws[l], hs[l], 2, nx);
      queue_downsample (cuda, (const double *) cy, ws[l], ws[l], hs[l], 2,
          nx + n);
    }
  }
  if ((st = check (cuda, cudaGetLastError (), "ms-ssim kernels"))
      || (st = read_back (cuda)))
    return st;
  const double *r = (const double *) cuda->host + 8;
  double prod = 1.0;
  memset (out, 0, sizeof (*out));
  for (int l = 0; l < COMPARE_MS_SSIM_SCALES; l++) {
    double cnt = (double) (ws[l] - (kWin - 1)) * (hs[l] - (kWin - 1));
    out->ssim[l] = r[2 * l] / cnt;
    out->cs[l] = r[2 * l + 1] / cnt;
  }
  for (int l = 0; l < COMPARE_MS_SSIM_SCALES - 1; l++)
    prod *= pow (out->cs[l], compare_ms_ssim_weights[l]);
  out->ms_ssim = prod * pow (out->ssim[COMPARE_MS_SSIM_SCALES - 1],
      compare_ms_ssim_weights[COMPARE_MS_SSIM_SCALES - 1]);
  return SHARPNESS_OK;
}
