/* LPC-SI (Hassen, Wang, Salama 2013) on the GPU.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The LPC map of the centre crop (lpc-map-cuda.cu) is pooled with the
 * weights u_k = exp (-(k / (K - 1)) / 1e-4) of its values sorted in
 * descending order.  They fall by e every (K - 1) 1e-4 ranks, so past the first
 * L = 40 (K - 1) 1e-4 + 1 ranks they sum to less than e^-40 of the total:
 * only the L largest values (6738 of 1.7 million at 1080p) are found, by
 * radix selection (topk-select.cuh), gathered and sorted with CUB; the
 * weights' total over all K ranks is computed once per resolution.
 */
#include <cmath>
#include <cstdio>
#include <new>

#include <cub/block/block_reduce.cuh>
#include <cub/device/device_radix_sort.cuh>

#include "device-alloc.cuh"
#include "lpc-map-cuda.h"
#include "perceptual-cuda-private.h"
#include "topk-select.cuh"

using namespace sharpness_cuda;

namespace
{

/* lpc_si.m: beta_k. */
constexpr double kBeta = 1e-4;
/* Ranks kept: the weights beyond sum to < e^-kHeadDecays of the total. */
constexpr double kHeadDecays = 40.0;
constexpr int kPoolThreads = 256;

struct LpcSiState
{
  SharpnessLpcMap *map;
  unsigned count;               /* K, the centre crop's size */
  unsigned head;                /* L */
  double decay;                 /* u_k = exp (-k decay) */
  double weight_sum;            /* sum of u_k over all K ranks */
  double *image;                /* the gray frame, W x H */
  float *crop;                  /* K map values */
  float *head_values;           /* L values, unordered ... */
  float *sorted;                /* ... and in descending order */
  unsigned *gathered;           /* gather counter */
  SelectState *select;
  void *sort_temp;
  size_t sort_temp_bytes;
  double *score_dev;
  double *score_host;           /* pinned */
  SharpnessCudaGraph graph;     /* the frame's work after the gray load */
};

/* SI = sum_k u_k s_k / sum_k u_k over the L sorted values; one block,
 * fixed order. */
__global__ void __launch_bounds__ (kPoolThreads)
lpc_si_pool_kernel (const float *__restrict__ sorted, unsigned head,
    double decay, double weight_sum, double *score)
{
  using Reduce = cub::BlockReduce<double, kPoolThreads>;
  __shared__ typename Reduce::TempStorage storage;
  double sum = 0.0;

  for (unsigned k = threadIdx.x; k < head; k += kPoolThreads)
    sum += exp (-(double) k * decay) * sorted[k];
  sum = Reduce (storage).Sum (sum);
  if (threadIdx.x == 0)
    *score = sum / weight_sum;
}

void
lpc_si_state_free (void *data)
{
  LpcSiState *s = (LpcSiState *) data;
  if (!s)
    return;
  sharpness_cuda_graph_clear (&s->graph);
  sharpness_lpc_map_free (s->map);
  void *buffers[] = { s->image, s->crop, s->head_values, s->sorted,
    s->gathered, s->select, s->sort_temp, s->score_dev
  };
  device_free_all (buffers, s->score_host);
  delete s;
}

/* SharpnessStateNew: the state for @width x @height frames. */
SharpnessStatus
lpc_si_state_new (void *backend, int width, int height, void **out)
{
  SharpnessCuda *cuda = (SharpnessCuda *) backend;
  LpcSiState *s = new (std::nothrow) LpcSiState ();
  if (!s)
    return SHARPNESS_ERROR_NO_MEMORY;
  sharpness_cuda_graph_init (&s->graph);

  SharpnessStatus st = sharpness_lpc_map_new (cuda, width, height, &s->map);
  if (st != SHARPNESS_OK) {
    lpc_si_state_free (s);
    return st;
  }
  const int border = sharpness_lpc_map_border (s->map);
  s->count = (unsigned) (width - 2 * border) * (height - 2 * border);
  /* One value: u_0 = 1 alone (0/0 in the reference's exponent). */
  s->decay = s->count > 1 ? 1.0 / ((s->count - 1) * kBeta) : 0.0;
  const double head = s->count > 1 ? ceil (kHeadDecays / s->decay) + 1 : 1;
  s->head = head < s->count ? (unsigned) head : s->count;
  /* The weights' total in closed form: a geometric series. */
  s->weight_sum = s->count > 1 ?
      expm1 (-(double) s->count * s->decay) / expm1 (-s->decay) : 1.0;

  if ((st = device_alloc (cuda, (void **) &s->image,
              (size_t) width * height * sizeof (double), "LPC-SI image")) ||
      (st = device_alloc (cuda, (void **) &s->crop,
              (size_t) s->count * sizeof (float), "LPC-SI crop")) ||
      (st = device_alloc (cuda, (void **) &s->head_values,
              (size_t) s->head * sizeof (float), "LPC-SI head")) ||
      (st = device_alloc (cuda, (void **) &s->sorted,
              (size_t) s->head * sizeof (float), "LPC-SI head")) ||
      (st = device_alloc (cuda, (void **) &s->gathered, sizeof (unsigned),
              "LPC-SI counter")) ||
      (st = device_alloc (cuda, (void **) &s->select, sizeof (SelectState),
              "LPC-SI selection")) ||
      (st = device_alloc (cuda, (void **) &s->score_dev, sizeof (double),
              "LPC-SI score")) ||
      (st = sharpness_cuda_check (cuda, cudaHostAlloc ((void **)
                  &s->score_host, sizeof (double), cudaHostAllocPortable),
              "LPC-SI pinned score")) ||
      (st = sharpness_cuda_check (cuda,
              cub::DeviceRadixSort::SortKeysDescending (nullptr,
                  s->sort_temp_bytes, s->head_values, s->sorted,
                  (int) s->head, 0, 32, cuda->stream), "LPC-SI sort size")) ||
      (st = device_alloc (cuda, &s->sort_temp, s->sort_temp_bytes,
              "LPC-SI sort")) ||
      (st = sharpness_cuda_check (cuda, cudaMemsetAsync (s->select, 0,
                  sizeof (SelectState), cuda->stream), "LPC-SI reset"))) {
    lpc_si_state_free (s);
    return st;
  }
  *out = s;
  return SHARPNESS_OK;
}

/* Queues the gray image and its map's centre crop into s->crop. */
SharpnessStatus
queue_crop_map (SharpnessCuda * cuda, LpcSiState * s,
    const SharpnessPlane * plane)
{
  SharpnessStatus st = sharpness_lpc_map_load_plane (cuda, plane, s->image);
  if (st == SHARPNESS_OK)
    st = sharpness_lpc_map_run (cuda, s->map, s->image, s->crop);
  return st;
}

/* SharpnessGraphBody: everything after the gray load, on the state's own
 * buffers (so one graph per size serves every frame): the map's crop, the
 * L largest values sorted, their weighted mean into s->score_host. */
SharpnessStatus
lpc_si_queue_pool (SharpnessCuda * cuda, void *data)
{
  LpcSiState *s = (LpcSiState *) data;
  SharpnessStatus st;

  if ((st = sharpness_lpc_map_run (cuda, s->map, s->image, s->crop)))
    return st;

  /* The L largest values of the crop, sorted, then their weighted mean. */
  SelectSegments<float> segs = { };
  segs.values[0] = s->crop;
  segs.n[0] = s->count;
  segs.k[0] = s->head;
  segs.largest[0] = true;
  segs.count = 1;
  const unsigned blocks = select_blocks (s->count);
  if ((st = sharpness_cuda_check (cuda, select_run (segs, s->select, blocks,
                  cuda->stream), "LPC-SI selection")) ||
      (st = sharpness_cuda_check (cuda, cudaMemsetAsync (s->gathered, 0,
                  sizeof (unsigned), cuda->stream), "LPC-SI gather")))
    return st;
  select_gather_kernel<float> <<<blocks, kSelectThreads, 0, cuda->stream>>>
      (segs, s->select, s->head_values, s->gathered);
  if ((st = sharpness_cuda_check (cuda, cudaGetLastError (),
              "LPC-SI gather")) ||
      (st = sharpness_cuda_check (cuda,
              cub::DeviceRadixSort::SortKeysDescending (s->sort_temp,
                  s->sort_temp_bytes, s->head_values, s->sorted,
                  (int) s->head, 0, 32, cuda->stream), "LPC-SI sort")))
    return st;
  lpc_si_pool_kernel <<<1, kPoolThreads, 0, cuda->stream>>> (s->sorted,
      s->head, s->decay, s->weight_sum, s->score_dev);
  if ((st = sharpness_cuda_check (cuda, cudaGetLastError (),
              "LPC-SI pooling")))
    return st;
  return sharpness_cuda_check (cuda, cudaMemcpyAsync (s->score_host,
          s->score_dev, sizeof (double), cudaMemcpyDeviceToHost,
          cuda->stream), "LPC-SI read-back");
}

SharpnessStatus
lpc_si_score (SharpnessCuda * cuda, void *state,
    const SharpnessPlane * plane, double *score)
{
  LpcSiState *s = (LpcSiState *) state;
  SharpnessStatus st;

  /* The gray load reads the frame, whose address changes every frame: a
   * plain launch before the graph, which starts from s->image. */
  if ((st = sharpness_lpc_map_load_plane (cuda, plane, s->image)) ||
      (st = sharpness_cuda_graph_run (cuda, &s->graph, lpc_si_queue_pool,
              s)) ||
      (st = sharpness_cuda_check (cuda, cudaStreamSynchronize (cuda->stream),
              "LPC-SI")))
    return st;
  *score = *s->score_host;
  return SHARPNESS_OK;
}

}  // namespace

SHARPNESS_CUDA_SCORE_METRIC (LPC_SI, lpc_si, nullptr, lpc_si_state_new,
    lpc_si_state_free, lpc_si_score);

SharpnessStatus
sharpness_cuda_lpc_si_crop_map (SharpnessCuda * cuda,
    const SharpnessPlane * plane, float *out)
{
  SharpnessStatus st;
  LpcSiState *s = (LpcSiState *) sharpness_cuda_state_get (cuda,
      SHARPNESS_METRIC_LPC_SI, plane, &st);

  if (!s || (st = queue_crop_map (cuda, s, plane)) ||
      (st = sharpness_cuda_check (cuda, cudaMemcpyAsync (out, s->crop,
                  (size_t) s->count * sizeof (float), cudaMemcpyDeviceToHost,
                  cuda->stream), "LPC map read-back")))
    return st;
  return sharpness_cuda_check (cuda, cudaStreamSynchronize (cuda->stream),
      "LPC map");
}
