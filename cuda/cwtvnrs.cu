/* CWTVNRS (Shao, Zeng, Wang 2017) on the GPU.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The choices the paper leaves open are the CPU reference's
 * (cpu/cwtvnrs.c, docs/reference/metrics-lpc.md): the frame x and its re-blur y
 * (11 x 11 Gaussian, sigma 1, zero padding; two separable passes in
 * double), their LPC maps (lpc-map-cuda.cu) and S3 total-variation maps,
 * pooled over the LPC centre crop.  The TV map is piecewise constant (one
 * value per 8 x 8 block of each of two grids), so one kernel computes the
 * block values of both images and both grids, and the pooling kernel reads
 * each pixel's two blocks while it combines the maps; the sums end in a
 * fixed order, in the last block to finish.
 */
#include <cmath>
#include <new>

#include <cub/block/block_reduce.cuh>

#include "device-alloc.cuh"
#include "lpc-map-cuda.h"
#include "topk-select.cuh"

using namespace sharpness_cuda;

namespace
{

/* Re-blur: fspecial ('gaussian', 11, 1) as the outer product of a
 * normalised 1-D kernel (cpu/cwtvnrs-private.h). */
constexpr int kBlurRadius = 5;
constexpr double kBlurSigma = 1.0;
/* S_xy's T. */
constexpr double kSimilarityT = 0.1;
/* s3_map.m: 8 x 8 blocks on two grids, the image mirror-padded by 8 and 4
 * on the left and top. */
constexpr int kTvBlock = 8;
constexpr int kTvPads[2] = { 8, 4 };
constexpr int kThreads = 256;

struct BlurKernel
{
  double taps[2 * kBlurRadius + 1];
};

/* Rows pass: zero outside the frame (those taps are skipped, in the CPU's
 * order). */
__global__ void __launch_bounds__ (kThreads)
blur_rows_kernel (const double *__restrict__ src, int width, BlurKernel k,
    double *__restrict__ dst)
{
  const int col = blockIdx.x * kThreads + threadIdx.x, row = blockIdx.y;
  if (col >= width)
    return;
  const int a = col - kBlurRadius < 0 ? -col : -kBlurRadius;
  const int b = col + kBlurRadius >= width ? width - 1 - col : kBlurRadius;
  const double *in = src + (size_t) row * width + col;
  double acc = 0.0;
  /* Unrolled, so that the taps stay in the parameter space. */
#pragma unroll
  for (int t = -kBlurRadius; t <= kBlurRadius; t++)
    if (t >= a && t <= b)
      acc += k.taps[t + kBlurRadius] * in[t];
  dst[(size_t) row * width + col] = acc;
}

__global__ void __launch_bounds__ (kThreads)
blur_columns_kernel (const double *__restrict__ src, int width, int height,
    BlurKernel k, double *__restrict__ dst)
{
  const int col = blockIdx.x * kThreads + threadIdx.x, row = blockIdx.y;
  if (col >= width)
    return;
  const int a = row - kBlurRadius < 0 ? -row : -kBlurRadius;
  const int b = row + kBlurRadius >= height ? height - 1 - row : kBlurRadius;
  const double *in = src + (size_t) row * width + col;
  double acc = 0.0;
#pragma unroll
  for (int t = -kBlurRadius; t <= kBlurRadius; t++)
    if (t >= a && t <= b)
      acc += k.taps[t + kBlurRadius] * in[(ptrdiff_t) t * width];
  dst[(size_t) row * width + col] = acc;
}

/* Blocks of one grid along an axis of @n samples: those starting at padded
 * position 0, 8, .. <= n + 2 pad + 1 - 9 (s3_map.m's loop bound). */
__host__ __device__ __forceinline__ int
tv_blocks (int n, int pad)
{
  const int last = n + 2 * pad + 1 - (kTvBlock + 1);
  return last < 0 ? 0 : last / kTvBlock + 1;
}

struct TvGrid
{
  int pad;
  int blocks_x, blocks_y;
  size_t offset;                /* of its values in the block buffer */
};

struct TvLayout
{
  TvGrid grid[2];
  size_t per_image;             /* block values per image */
};

/* One block value per thread: the largest total variation of the 49 2 x 2
 * sub-blocks over 4 (cpu/tv-map.c block_value ()).  blockIdx.y: image *
 * 2 + grid; the two images are @images[0] and @images[1]. */
__global__ void __launch_bounds__ (kThreads)
tv_blocks_kernel (const double *x_image, const double *y_image, int width,
    int height, TvLayout layout, double *__restrict__ values)
{
  const int image = blockIdx.y / 2;
  const TvGrid g = blockIdx.y % 2 ? layout.grid[1] : layout.grid[0];
  const int i = blockIdx.x * kThreads + threadIdx.x;
  if (i >= g.blocks_x * g.blocks_y)
    return;
  const double *img = image ? y_image : x_image;
  const int y0 = (i / g.blocks_x) * kTvBlock - g.pad;
  const int x0 = (i % g.blocks_x) * kTvBlock - g.pad;

  int cols[kTvBlock];
#pragma unroll
  for (int j = 0; j < kTvBlock; j++)
    cols[j] = sharpness_mirror (x0 + j, width);

  double best = 0.0, above[kTvBlock];
#pragma unroll
  for (int r = 0; r < kTvBlock; r++) {
    const double *row = img + (size_t) sharpness_mirror (y0 + r, height) * width;
    double cur[kTvBlock];
#pragma unroll
    for (int j = 0; j < kTvBlock; j++)
      cur[j] = row[cols[j]];
    if (r > 0) {
#pragma unroll
      for (int j = 0; j < kTvBlock - 1; j++) {
        const double a = above[j], b = above[j + 1];
        const double c = cur[j], d = cur[j + 1];
        const double tv = (fabs (a - b) + fabs (a - c) + fabs (a - d) +
            fabs (d - c) + fabs (c - b) + fabs (d - b)) / 255.0;
        if (tv > best)
          best = tv;
      }
    }
#pragma unroll
    for (int j = 0; j < kTvBlock; j++)
      above[j] = cur[j];
  }
  values[image * layout.per_image + g.offset + i] = best / 4.0;
}

/* TV map at (@x, @y): the larger of the pixel's blocks in the two grids
 * (0 where a grid has no block over it). */
__device__ __forceinline__ double
tv_at (const double *values, const TvLayout & layout, int x, int y)
{
  double v = 0.0;
#pragma unroll
  for (int k = 0; k < 2; k++) {
    const TvGrid & g = layout.grid[k];
    const int bx = (x + g.pad) / kTvBlock, by = (y + g.pad) / kTvBlock;
    if (bx < g.blocks_x && by < g.blocks_y)
      v = fmax (v, values[g.offset + (size_t) by * g.blocks_x + bx]);
  }
  return v;
}

/* Over the centre crop: num = sum S_xy S3m, den = sum S3m; the last block
 * writes 1 - num / den (0 when den = 0). */
__global__ void __launch_bounds__ (kThreads)
cwtvnrs_pool_kernel (const float *__restrict__ lpc_x,
    const float *__restrict__ lpc_y, const double *__restrict__ tv_values,
    TvLayout layout, int border, int crop_w, double2 * __restrict__ partials,
    unsigned *tickets, double *score)
{
  using Reduce = cub::BlockReduce<double, kThreads>;
  __shared__ typename Reduce::TempStorage storage;

  const int cx = blockIdx.x * kThreads + threadIdx.x, cy = blockIdx.y;
  const unsigned block = blockIdx.y * gridDim.x + blockIdx.x;
  const unsigned blocks = gridDim.x * gridDim.y;
  double num = 0.0, den = 0.0;

  if (cx < crop_w) {
    const size_t i = (size_t) cy * crop_w + cx;
    const int x = border + cx, y = border + cy;
    const double sx = sqrt ((double) lpc_x[i]) *
        sqrt (tv_at (tv_values, layout, x, y));
    const double sy = sqrt ((double) lpc_y[i]) *
        sqrt (tv_at (tv_values + layout.per_image, layout, x, y));
    const double sim = (2.0 * sx * sy + kSimilarityT) /
        (sx * sx + sy * sy + kSimilarityT);
    const double m = sx > sy ? sx : sy;
    num = sim * m;
    den = m;
  }
  num = Reduce (storage).Sum (num);
  __syncthreads ();
  den = Reduce (storage).Sum (den);
  if (threadIdx.x == 0)
    partials[block] = make_double2 (num, den);

  if (!last_block (tickets, blocks))
    return;
  num = den = 0.0;
  for (unsigned b = threadIdx.x; b < blocks; b += kThreads) {
    const double2 p = __ldcg (&partials[b]);
    num += p.x;
    den += p.y;
  }
  num = Reduce (storage).Sum (num);
  __syncthreads ();
  den = Reduce (storage).Sum (den);
  if (threadIdx.x == 0) {
    *score = den > 0.0 ? 1.0 - num / den : 0.0;
    *tickets = 0;
  }
}

struct CwtvnrsState
{
  int width, height, border, crop_w, crop_h;
  SharpnessLpcMap *map;
  BlurKernel blur;
  TvLayout tv;
  double *image[2];             /* x and its re-blur y, W x H */
  double *blur_rows;            /* the rows pass, W x H */
  float *lpc[2];                /* centre crops of the LPC maps */
  double *tv_values;            /* 2 x tv.per_image */
  double2 *partials;
  unsigned *tickets;
  double *score_dev;
  double *score_host;           /* pinned */
  SharpnessCudaGraph graph;     /* the frame's work after the gray load */
};

unsigned
row_blocks (int width)
{
  return (unsigned) (width + kThreads - 1) / kThreads;
}

void
cwtvnrs_state_free (void *data)
{
  CwtvnrsState *s = (CwtvnrsState *) data;
  if (!s)
    return;
  sharpness_cuda_graph_clear (&s->graph);
  sharpness_lpc_map_free (s->map);
  void *buffers[] = { s->image[0], s->image[1], s->blur_rows, s->lpc[0],
    s->lpc[1], s->tv_values, s->partials, s->tickets, s->score_dev
  };
  device_free_all (buffers, s->score_host);
  delete s;
}

/* SharpnessStateNew: the state for @width x @height frames. */
SharpnessStatus
cwtvnrs_state_new (void *backend, int width, int height, void **out)
{
  SharpnessCuda *cuda = (SharpnessCuda *) backend;
  CwtvnrsState *s = new (std::nothrow) CwtvnrsState ();
  if (!s)
    return SHARPNESS_ERROR_NO_MEMORY;
  sharpness_cuda_graph_init (&s->graph);
  s->width = width;
  s->height = height;

  SharpnessStatus st = sharpness_lpc_map_new (cuda, width, height, &s->map);
  if (st != SHARPNESS_OK) {
    cwtvnrs_state_free (s);
    return st;
  }
  s->border = sharpness_lpc_map_border (s->map);
  s->crop_w = width - 2 * s->border;
  s->crop_h = height - 2 * s->border;

  /* The same normalised taps as cpu/cwtvnrs.c. */
  double sum = 0.0;
  for (int i = -kBlurRadius; i <= kBlurRadius; i++) {
    s->blur.taps[i + kBlurRadius] = exp (-(double) (i * i) /
        (2.0 * kBlurSigma * kBlurSigma));
    sum += s->blur.taps[i + kBlurRadius];
  }
  for (int i = 0; i <= 2 * kBlurRadius; i++)
    s->blur.taps[i] /= sum;

  size_t tv_values = 0;
  for (int k = 0; k < 2; k++) {
    TvGrid *g = &s->tv.grid[k];
    g->pad = kTvPads[k];
    g->blocks_x = tv_blocks (width, g->pad);
    g->blocks_y = tv_blocks (height, g->pad);
    g->offset = tv_values;
    tv_values += (size_t) g->blocks_x * g->blocks_y;
  }
  s->tv.per_image = tv_values;

  const size_t n = (size_t) width * height;
  const size_t crop = (size_t) s->crop_w * s->crop_h;
  const size_t pool_blocks = (size_t) row_blocks (s->crop_w) * s->crop_h;
  if ((st = device_alloc (cuda, (void **) &s->image[0], n * sizeof (double),
              "CWTVNRS image")) ||
      (st = device_alloc (cuda, (void **) &s->image[1], n * sizeof (double),
              "CWTVNRS re-blur")) ||
      (st = device_alloc (cuda, (void **) &s->blur_rows,
              n * sizeof (double), "CWTVNRS re-blur")) ||
      (st = device_alloc (cuda, (void **) &s->lpc[0], crop * sizeof (float),
              "CWTVNRS LPC map")) ||
      (st = device_alloc (cuda, (void **) &s->lpc[1], crop * sizeof (float),
              "CWTVNRS LPC map")) ||
      (st = device_alloc (cuda, (void **) &s->tv_values,
              2 * (tv_values ? tv_values : 1) * sizeof (double),
              "CWTVNRS TV blocks")) ||
      (st = device_alloc (cuda, (void **) &s->partials,
              pool_blocks * sizeof (double2), "CWTVNRS partials")) ||
      (st = device_alloc (cuda, (void **) &s->tickets, sizeof (unsigned),
              "CWTVNRS ticket")) ||
      (st = device_alloc (cuda, (void **) &s->score_dev, sizeof (double),
              "CWTVNRS score")) ||
      (st = sharpness_cuda_check (cuda, cudaHostAlloc ((void **)
                  &s->score_host, sizeof (double), cudaHostAllocPortable),
              "CWTVNRS pinned score")) ||
      (st = sharpness_cuda_check (cuda, cudaMemsetAsync (s->tickets, 0,
                  sizeof (unsigned), cuda->stream), "CWTVNRS reset"))) {
    cwtvnrs_state_free (s);
    return st;
  }
  *out = s;
  return SHARPNESS_OK;
}

/* SharpnessGraphBody: everything after the gray load, on the state's own
 * buffers (one graph per size serves every frame), ending with the score
 * in s->score_host. */
SharpnessStatus
queue_score (SharpnessCuda * cuda, void *data)
{
  CwtvnrsState *s = (CwtvnrsState *) data;
  const dim3 grid (row_blocks (s->width), s->height);
  SharpnessStatus st;

  blur_rows_kernel <<<grid, kThreads, 0, cuda->stream>>> (s->image[0],
      s->width, s->blur, s->blur_rows);
  if ((st = sharpness_cuda_check (cuda, cudaGetLastError (),
              "CWTVNRS re-blur")))
    return st;
  blur_columns_kernel <<<grid, kThreads, 0, cuda->stream>>> (s->blur_rows,
      s->width, s->height, s->blur, s->image[1]);
  if ((st = sharpness_cuda_check (cuda, cudaGetLastError (),
              "CWTVNRS re-blur")))
    return st;

  for (int k = 0; k < 2; k++)
    if ((st = sharpness_lpc_map_run (cuda, s->map, s->image[k], s->lpc[k])))
      return st;

  const TvGrid & g = s->tv.grid[0];     /* the larger of the two */
  const int tv_count = g.blocks_x * g.blocks_y;
  if (tv_count > 0) {
    tv_blocks_kernel <<<dim3 (row_blocks (tv_count), 4), kThreads, 0,
        cuda->stream>>> (s->image[0], s->image[1], s->width, s->height,
        s->tv, s->tv_values);
    if ((st = sharpness_cuda_check (cuda, cudaGetLastError (),
                "CWTVNRS TV blocks")))
      return st;
  }

  cwtvnrs_pool_kernel <<<dim3 (row_blocks (s->crop_w), s->crop_h),
      kThreads, 0, cuda->stream>>> (s->lpc[0], s->lpc[1], s->tv_values,
      s->tv, s->border, s->crop_w, s->partials, s->tickets, s->score_dev);
  if ((st = sharpness_cuda_check (cuda, cudaGetLastError (),
              "CWTVNRS pooling")))
    return st;
  return sharpness_cuda_check (cuda, cudaMemcpyAsync (s->score_host,
          s->score_dev, sizeof (double), cudaMemcpyDeviceToHost,
          cuda->stream), "CWTVNRS read-back");
}

SharpnessStatus
cwtvnrs_score (SharpnessCuda * cuda, void *state,
    const SharpnessPlane * plane, double *score)
{
  CwtvnrsState *s = (CwtvnrsState *) state;
  SharpnessStatus st;

  /* The gray load reads the frame, whose address changes every frame: a
   * plain launch before the graph, which starts from s->image[0]. */
  if ((st = sharpness_lpc_map_load_plane (cuda, plane, s->image[0])) ||
      (st = sharpness_cuda_graph_run (cuda, &s->graph, queue_score, s)) ||
      (st = sharpness_cuda_check (cuda, cudaStreamSynchronize (cuda->stream),
              "CWTVNRS")))
    return st;
  *score = *s->score_host;
  return SHARPNESS_OK;
}

}  // namespace

SHARPNESS_CUDA_SCORE_METRIC (CWTVNRS, cwtvnrs, nullptr, cwtvnrs_state_new,
    cwtvnrs_state_free, cwtvnrs_score);
