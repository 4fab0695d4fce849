/* BLIINDS-II (Saad, Bovik, Charrier 2012) on the GPU.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Per scale, one fused kernel computes each 5x5 block's DCT and its four
 * statistics in registers (double, the CPU reference's operations in its
 * order: cpu/bliinds2-block.c), reading the scale's image straight from the
 * frame (scale 1) or from the previous scale's Gaussian downscale, with the
 * zero padding of blkproc as bounds checks.  The gamma lookup bisects a
 * 1-in-32 sample of the ratio table held in shared memory, then the 32
 * entries between two samples (global memory, cached): the same first j
 * with r(j) >= rho as the reference, from the same host-built table.  The
 * 12 maps (3 scales x 4 statistics) are pooled in one go: radix selection
 * of each 10% threshold (topk-select.cuh), then one pass for every mean.
 * The 24 features come back to the host, which runs the reference's own
 * prediction (core/bliinds2-model.c) on them.
 */
#include <cmath>
#include <cstring>
#include <new>

#include "bliinds2-model.h"
#include "device-alloc.cuh"
#include "lpc-map-cuda.h"
#include "perceptual-cuda-private.h"
#include "sharpness-cuda-private.h"
#include "topk-select.cuh"

using namespace sharpness_cuda;

namespace
{

constexpr int N = SHARPNESS_BLIINDS2_BLOCK;
constexpr int kAc = N * N - 1;
constexpr int kScales = SHARPNESS_BLIINDS2_N_SCALES;
constexpr int kMaps = SHARPNESS_BLIINDS2_N_MAPS;
constexpr int kGammaCount = SHARPNESS_BLIINDS2_GAMMA_COUNT;
/* Coarse gamma table: every kGammaStride-th ratio. */
constexpr int kGammaStride = 32;
constexpr int kGammaCoarse = (kGammaCount + kGammaStride - 1) / kGammaStride;
constexpr double kEpsShape = 1e-7;
constexpr double kEpsEnergy = 1e-8;
constexpr int kThreads = 128;

static_assert (kScales * kMaps <= kSelectMaxSegments, "one selection");

/* The DCT matrix and the downscale's Gaussian, from the CPU's own
 * sharpness_bliinds2_tables_init (); passed by value to the kernels. */
struct Consts
{
  double dct[N][N];
  double gauss[3][3];
};

/* One scale's image: the frame's gray samples, or doubles. */
struct Image
{
  const double *pixels;         /* NULL: read @plane */
  SharpnessPlane plane;
  int width, height;

  __device__ __forceinline__ double at (int x, int y) const
  {
    if (x < 0 || y < 0 || x >= width || y >= height)
      return 0.0;
    if (pixels)
      return pixels[(size_t) y * width + x];
    return sharpness_plane_gray_at (&plane,
        plane.data + (size_t) y * plane.stride, x);
  }
};

/* cpu/bliinds2-block.c dct5 (): the same operations in the same order. */
__device__ __forceinline__ void
dct5 (const double (&C)[N][N], const double *x, int sx, double *X, int sX)
{
  double x0 = x[0], x1 = x[sx], x2 = x[2 * sx], x3 = x[3 * sx],
      x4 = x[4 * sx];
  double odd0 = x0 - x4, odd1 = x1 - x3;
  double even0 = (x0 - x2) + (x4 - x2), even1 = (x1 - x2) + (x3 - x2);

  X[0] = C[0][0] * (x0 + x1 + x2 + x3 + x4);
  X[sX] = C[1][0] * odd0 + C[1][1] * odd1;
  X[2 * sX] = C[2][0] * even0 + C[2][1] * even1;
  X[3 * sX] = C[3][0] * odd0 + C[3][1] * odd1;
  X[4 * sX] = C[4][0] * even0 + C[4][1] * even1;
}

template <int K>
__device__ __forceinline__ double
variance (const double *x, const int (&index)[K])
{
  double sum = 0.0, ss = 0.0;
#pragma unroll
  for (int i = 0; i < K; i++)
    sum += x[index[i]];
  double m = sum / K;
#pragma unroll
  for (int i = 0; i < K; i++) {
    double d = x[index[i]] - m;
    ss += d * d;
  }
  return ss / (K - 1);
}

/* The last j with r(j) >= rho (r falls strictly), else 11. */
__device__ __forceinline__ double
gamma_lookup (const double *coarse, const double *__restrict__ ratio,
    double rho)
{
  if (!(rho <= coarse[0] && rho > ratio[kGammaCount - 1]))
    return SHARPNESS_BLIINDS2_GAMMA_NOT_FOUND;
  int lo = 0, len = kGammaCoarse;
  while (len > 1) {
    int half = len / 2;
    lo = coarse[lo + half] >= rho ? lo + half : lo;
    len -= half;
  }
  int j = lo * kGammaStride;
  len = min (kGammaStride, kGammaCount - j);
  while (len > 1) {
    int half = len / 2;
    j = __ldg (&ratio[j + half]) >= rho ? j + half : j;
    len -= half;
  }
  return (30 + j) / 1000.0;
}

__device__ __forceinline__ void
block_values (const double *x, const double *coarse, const double *ratio,
    double v[kMaps])
{
  /* constexpr, so that the unrolled loops index registers, not memory. */
  constexpr int band1[] = SHARPNESS_BLIINDS2_BAND1;
  constexpr int band2[] = SHARPNESS_BLIINDS2_BAND2;
  constexpr int band3[] = SHARPNESS_BLIINDS2_BAND3;
  constexpr int orient[3][8] = { SHARPNESS_BLIINDS2_ORIENT1,
    SHARPNESS_BLIINDS2_ORIENT2, SHARPNESS_BLIINDS2_ORIENT3
  };

  /* zeta and gamma: cpu block_zeta_gamma (). */
  const double *ac = x + 1;
  double sum = 0.0, sum_abs = 0.0, ss = 0.0, ss_abs = 0.0, mad = 0.0;
#pragma unroll
  for (int i = 0; i < kAc; i++) {
    sum += ac[i];
    sum_abs += fabs (ac[i]);
  }
  double m = sum / kAc, m_abs = sum_abs / kAc;
#pragma unroll
  for (int i = 0; i < kAc; i++) {
    double d = ac[i] - m, d_abs = fabs (ac[i]) - m_abs;
    ss += d * d;
    mad += fabs (d);
    ss_abs += d_abs * d_abs;
  }
  mad /= kAc;
  v[SHARPNESS_BLIINDS2_ZETA] = sqrt (ss_abs / (kAc - 1)) / (m_abs + kEpsShape);
  v[SHARPNESS_BLIINDS2_GAMMA] = gamma_lookup (coarse, ratio,
      ss / (kAc - 1) / (mad * mad + kEpsShape));

  /* Subband energy ratio: cpu block_energy (). */
  double v1 = variance (x, band1), v2 = variance (x, band2),
      v3 = variance (x, band3);
  double low = (v1 + v2) / 2.0;
  double r1 = fabs (v3 - low) / (v3 + low + kEpsEnergy);
  double r2 = fabs (v2 - v1) / (v3 + v1 + kEpsEnergy);
  v[SHARPNESS_BLIINDS2_ENERGY] = (r1 + r2) / 2.0;

  /* Orientation variance: cpu block_orientation (). */
  double o[3];
#pragma unroll
  for (int k = 0; k < 3; k++) {
    double a[8], s = 0.0, q = 0.0;
#pragma unroll
    for (int i = 0; i < 8; i++) {
      a[i] = fabs (x[orient[k][i]]);
      s += a[i];
    }
    s /= 8;
#pragma unroll
    for (int i = 0; i < 8; i++)
      q += (a[i] - s) * (a[i] - s);
    o[k] = sqrt (q / 7) / (s + kEpsShape);
  }
  double om = (o[0] + o[1] + o[2]) / 3;
  v[SHARPNESS_BLIINDS2_ORIENTATION] = ((o[0] - om) * (o[0] - om) +
      (o[1] - om) * (o[1] - om) + (o[2] - om) * (o[2] - om)) / 2;
}

/* One thread per block (5x5 window at stride 3, top-left at image
 * (3 bx - 1, 3 by - 1)); the four values go to maps[m * n + i]. */
__global__ void __launch_bounds__ (kThreads)
bliinds2_blocks_kernel (Image img, Consts consts, int blocks_x,
    int blocks_y, const double *__restrict__ ratio,
    double *__restrict__ maps)
{
  __shared__ double coarse[kGammaCoarse];
  for (int i = threadIdx.x; i < kGammaCoarse; i += kThreads)
    coarse[i] = ratio[i * kGammaStride];
  __syncthreads ();

  const int bx = blockIdx.x * kThreads + threadIdx.x, by = blockIdx.y;
  if (bx >= blocks_x)
    return;

  double w[N * N], rows[N * N], x[N * N];
#pragma unroll
  for (int r = 0; r < N; r++)
#pragma unroll
    for (int c = 0; c < N; c++)
      w[r * N + c] = img.at (3 * bx - 1 + c, 3 * by - 1 + r);

  /* dct2 as the reference: rows, then columns, x column-major. */
#pragma unroll
  for (int r = 0; r < N; r++)
    dct5 (consts.dct, w + r * N, 1, rows + N * r, 1);
#pragma unroll
  for (int c = 0; c < N; c++)
    dct5 (consts.dct, rows + c, N, x + N * c, 1);

  double v[kMaps];
  block_values (x, coarse, ratio, v);
  const size_t n = (size_t) blocks_x * blocks_y;
  const size_t i = (size_t) by * blocks_x + bx;
#pragma unroll
  for (int m = 0; m < kMaps; m++)
    maps[m * n + i] = v[m];
}

/* imfilter (I, fspecial ('gaussian', 3, 0.5)) ('same', zero padding) at
 * the odd rows and columns of @src: the next scale. */
__global__ void __launch_bounds__ (kThreads)
bliinds2_downscale_kernel (Image src, Consts consts, int width,
    double *__restrict__ dst)
{
  const int x = blockIdx.x * kThreads + threadIdx.x, y = blockIdx.y;
  if (x >= width)
    return;
  double s = 0.0;
#pragma unroll
  for (int i = 0; i < 3; i++)
#pragma unroll
    for (int j = 0; j < 3; j++)
      s += consts.gauss[i][j] * src.at (2 * x + j, 2 * y + i);
  dst[(size_t) y * width + x] = s;
}

struct Scale
{
  int width, height;
  int blocks_x, blocks_y;
  double *pixels;               /* NULL for the frame itself */
};

struct Bliinds2State
{
  int width, height;
  Scale scale[kScales];
  Consts consts;
  double *ratio;                /* kGammaCount */
  double *maps;                 /* per scale, kMaps x blocks */
  size_t map_offset[kScales];
  SelectSegments<double> segs;
  unsigned select_blocks;
  SelectState *select;
  double2 *partials;
  unsigned *tickets;
  double2 *sums_dev;
  double2 *sums_host;           /* pinned */
  /* The frame's work after the two launches that read the frame: its
   * buffers are the state's, so one graph per size serves every frame,
   * and its many small launches and copy cost one launch
   * (docs/performance/notes-cuda-perceptual.md). */
  SharpnessCudaGraph graph;
};

void
bliinds2_state_free (void *data)
{
  Bliinds2State *s = (Bliinds2State *) data;
  if (!s)
    return;
  sharpness_cuda_graph_clear (&s->graph);
  void *buffers[] = { s->scale[1].pixels, s->scale[2].pixels, s->ratio,
    s->maps, s->select, s->partials, s->tickets, s->sums_dev
  };
  device_free_all (buffers, s->sums_host);
  delete s;
}

/* The tables, the same host-built values the CPU uses. */
SharpnessStatus
tables_init (SharpnessCuda * cuda, Bliinds2State * s)
{
  SharpnessBliinds2Tables *t = new (std::nothrow) SharpnessBliinds2Tables;
  if (!t)
    return SHARPNESS_ERROR_NO_MEMORY;
  sharpness_bliinds2_tables_init (t);
  memcpy (s->consts.dct, t->dct, sizeof t->dct);
  memcpy (s->consts.gauss, t->gaussian, sizeof t->gaussian);

  /* Once per resolution: wait for the copy rather than keep @t. */
  SharpnessStatus st = sharpness_cuda_check (cuda, cudaMemcpyAsync (s->ratio,
          t->gamma_ratio, sizeof t->gamma_ratio, cudaMemcpyHostToDevice,
          cuda->stream), "BLIINDS-II gamma table");
  if (st == SHARPNESS_OK)
    st = sharpness_cuda_check (cuda, cudaStreamSynchronize (cuda->stream),
        "BLIINDS-II gamma table");
  delete t;
  return st;
}

/* SharpnessStateNew: the state for @width x @height frames; frames too
 * small for the model's three scales of 3x3 blocks are refused here. */
SharpnessStatus
bliinds2_state_new (void *backend, int width, int height, void **out)
{
  static const int descending[kMaps] = SHARPNESS_BLIINDS2_MAP_DESCENDING;
  SharpnessCuda *cuda = (SharpnessCuda *) backend;
  if (width < SHARPNESS_BLIINDS2_MIN_SIZE ||
      height < SHARPNESS_BLIINDS2_MIN_SIZE)
    return SHARPNESS_ERROR_TOO_SMALL;
  Bliinds2State *s = new (std::nothrow) Bliinds2State ();
  if (!s)
    return SHARPNESS_ERROR_NO_MEMORY;
  s->width = width;
  s->height = height;
  sharpness_cuda_graph_init (&s->graph);

  size_t map_values = 0;
  unsigned max_blocks = 0;
  for (int i = 0; i < kScales; i++) {
    Scale *sc = &s->scale[i];
    sc->width = i ? s->scale[i - 1].width / 2 : width;
    sc->height = i ? s->scale[i - 1].height / 2 : height;
    sc->blocks_x = (sc->width + 2) / 3;
    sc->blocks_y = (sc->height + 2) / 3;
    s->map_offset[i] = map_values;
    const unsigned n = (unsigned) (sc->blocks_x * sc->blocks_y);
    map_values += (size_t) kMaps * n;
    max_blocks = n > max_blocks ? n : max_blocks;
  }
  s->select_blocks = select_blocks (max_blocks);
  const int n_segs = kScales * kMaps;

  SharpnessStatus st;
  if ((st = device_alloc (cuda, (void **) &s->scale[1].pixels,
              (size_t) s->scale[1].width * s->scale[1].height *
              sizeof (double), "BLIINDS-II scale 2")) ||
      (st = device_alloc (cuda, (void **) &s->scale[2].pixels,
              (size_t) s->scale[2].width * s->scale[2].height *
              sizeof (double), "BLIINDS-II scale 3")) ||
      (st = device_alloc (cuda, (void **) &s->ratio,
              kGammaCount * sizeof (double), "BLIINDS-II gamma table")) ||
      (st = device_alloc (cuda, (void **) &s->maps,
              map_values * sizeof (double), "BLIINDS-II maps")) ||
      (st = device_alloc (cuda, (void **) &s->select,
              n_segs * sizeof (SelectState), "BLIINDS-II selection")) ||
      (st = device_alloc (cuda, (void **) &s->partials,
              (size_t) n_segs * s->select_blocks * sizeof (double2),
              "BLIINDS-II partials")) ||
      (st = device_alloc (cuda, (void **) &s->tickets,
              n_segs * sizeof (unsigned), "BLIINDS-II tickets")) ||
      (st = device_alloc (cuda, (void **) &s->sums_dev,
              n_segs * sizeof (double2), "BLIINDS-II sums")) ||
      (st = sharpness_cuda_check (cuda, cudaHostAlloc ((void **)
                  &s->sums_host, n_segs * sizeof (double2),
                  cudaHostAllocPortable), "BLIINDS-II pinned sums")) ||
      (st = tables_init (cuda, s)) ||
      (st = sharpness_cuda_check (cuda, cudaMemsetAsync (s->select, 0,
                  n_segs * sizeof (SelectState), cuda->stream),
              "BLIINDS-II reset")) ||
      (st = sharpness_cuda_check (cuda, cudaMemsetAsync (s->tickets, 0,
                  n_segs * sizeof (unsigned), cuda->stream),
              "BLIINDS-II reset"))) {
    bliinds2_state_free (s);
    return st;
  }

  /* Segment 4 i + m: map m of scale i; tails of ceil (n / 10) values. */
  s->segs.count = n_segs;
  for (int i = 0; i < kScales; i++) {
    const unsigned n = (unsigned) (s->scale[i].blocks_x *
        s->scale[i].blocks_y);
    for (int m = 0; m < kMaps; m++) {
      const int g = i * kMaps + m;
      s->segs.values[g] = s->maps + s->map_offset[i] + (size_t) m * n;
      s->segs.n[g] = n;
      s->segs.k[g] = (n + 9) / 10;
      s->segs.largest[g] = descending[m] != 0;
    }
  }
  *out = s;
  return SHARPNESS_OK;
}

unsigned
grid_x (int width)
{
  return (unsigned) (width + kThreads - 1) / kThreads;
}

static_assert (kScales >= 2, "queue_frame makes the second scale");

/* The launches that read the frame itself: the first scale's blocks and
 * the second scale's image. */
SharpnessStatus
queue_frame (SharpnessCuda * cuda, Bliinds2State * s,
    const SharpnessPlane * plane)
{
  Image img = { };
  img.plane = *plane;
  img.width = s->scale[0].width;
  img.height = s->scale[0].height;

  bliinds2_blocks_kernel <<<dim3 (grid_x (s->scale[0].blocks_x),
          s->scale[0].blocks_y), kThreads, 0, cuda->stream>>> (img, s->consts,
      s->scale[0].blocks_x, s->scale[0].blocks_y, s->ratio,
      s->maps + s->map_offset[0]);
  SharpnessStatus st = sharpness_cuda_check (cuda, cudaGetLastError (),
      "BLIINDS-II blocks");
  if (st)
    return st;
  bliinds2_downscale_kernel <<<dim3 (grid_x (s->scale[1].width),
          s->scale[1].height), kThreads, 0, cuda->stream>>> (img, s->consts,
      s->scale[1].width, s->scale[1].pixels);
  return sharpness_cuda_check (cuda, cudaGetLastError (),
      "BLIINDS-II downscale");
}

/* Everything after queue_frame(), on the state's buffers only (a
 * SharpnessGraphBody): the smaller scales, the selection, the pooled sums
 * and their copy to the host. */
SharpnessStatus
queue_rest (SharpnessCuda * cuda, void *data)
{
  Bliinds2State *s = (Bliinds2State *) data;
  SharpnessStatus st;
  Image img = { };

  for (int i = 1; i < kScales; i++) {
    const Scale *sc = &s->scale[i];
    if (i > 1) {
      /* The previous scale's image, as the source of this one. */
      bliinds2_downscale_kernel <<<dim3 (grid_x (sc->width), sc->height),
          kThreads, 0, cuda->stream>>> (img, s->consts, sc->width, sc->pixels);
      if ((st = sharpness_cuda_check (cuda, cudaGetLastError (),
                  "BLIINDS-II downscale")))
        return st;
    }
    img.pixels = sc->pixels;
    img.width = sc->width;
    img.height = sc->height;
    bliinds2_blocks_kernel <<<dim3 (grid_x (sc->blocks_x), sc->blocks_y),
        kThreads, 0, cuda->stream>>> (img, s->consts, sc->blocks_x,
        sc->blocks_y, s->ratio, s->maps + s->map_offset[i]);
    if ((st = sharpness_cuda_check (cuda, cudaGetLastError (),
                "BLIINDS-II blocks")))
      return st;
  }

  if ((st = sharpness_cuda_check (cuda, select_run (s->segs, s->select,
                  s->select_blocks, cuda->stream), "BLIINDS-II selection")))
    return st;
  select_sums_kernel<double> <<<dim3 (s->select_blocks, s->segs.count),
      kSelectThreads, 0, cuda->stream>>> (s->segs, s->select, s->partials,
      s->tickets, s->sums_dev);
  if ((st = sharpness_cuda_check (cuda, cudaGetLastError (),
              "BLIINDS-II pooling")))
    return st;
  return sharpness_cuda_check (cuda, cudaMemcpyAsync (s->sums_host,
          s->sums_dev, s->segs.count * sizeof (double2),
          cudaMemcpyDeviceToHost, cuda->stream), "BLIINDS-II read-back");
}

SharpnessStatus
queue_features (SharpnessCuda * cuda, Bliinds2State * s,
    const SharpnessPlane * plane)
{
  SharpnessStatus st = queue_frame (cuda, s, plane);
  if (st == SHARPNESS_OK)
    st = sharpness_cuda_graph_run (cuda, &s->graph, queue_rest, s);
  return st;
}

/* The 24 features from the state of @plane's size. */
SharpnessStatus
features_of (SharpnessCuda * cuda, Bliinds2State * s,
    const SharpnessPlane * plane, double features[24])
{
  static_assert (SHARPNESS_BLIINDS2_N_FEATURES == 24, "24 features");
  SharpnessStatus st;

  if ((st = queue_features (cuda, s, plane)) ||
      (st = sharpness_cuda_check (cuda, cudaStreamSynchronize (cuda->stream),
              "BLIINDS-II")))
    return st;

  /* Per scale, per map: the mean, then the 10% mean. */
  for (int g = 0; g < s->segs.count; g++) {
    features[2 * g] = s->sums_host[g].x / s->segs.n[g];
    features[2 * g + 1] = s->sums_host[g].y / s->segs.k[g];
  }
  return SHARPNESS_OK;
}

SharpnessStatus
bliinds2_score (SharpnessCuda * cuda, void *state,
    const SharpnessPlane * plane, double *score)
{
  double features[SHARPNESS_BLIINDS2_N_FEATURES];
  SharpnessStatus st = features_of (cuda, (Bliinds2State *) state, plane,
      features);
  if (st == SHARPNESS_OK)
    *score = sharpness_bliinds2_predict (&sharpness_bliinds2_live_model,
        features);
  return st;
}

}  // namespace

SHARPNESS_CUDA_SCORE_METRIC (BLIINDS2, bliinds2, nullptr, bliinds2_state_new,
    bliinds2_state_free, bliinds2_score);

SharpnessStatus
sharpness_cuda_bliinds2_features (SharpnessCuda * cuda,
    const SharpnessPlane * plane, double features[24])
{
  SharpnessStatus st;
  Bliinds2State *s = (Bliinds2State *) sharpness_cuda_state_get (cuda,
      SHARPNESS_METRIC_BLIINDS2, plane, &st);
  return s ? features_of (cuda, s, plane, features) : st;
}
