/* CUDA backend: the C API of sharpness-cuda.h and its per-metric entry
 * table.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Everything a frame needs is allocated in sharpness_cuda_new (device
 * accumulators, mapped pinned memory for results) or grown on the first
 * larger frame (the staging copy of host planes), never per frame.
 */
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "host-staging.h"
#include "sharpness-cuda-private.h"

/* The metrics' descriptors, generated from SHARPNESS_METRIC_TABLE: one row
 * per metric, in SharpnessMetric order, nothing written by hand (a metric
 * without its file fails to link; its file checks its kind and sym). */
#define SHARPNESS_CUDA_METRIC_ROW(ID, sym, nick, name, dir, kind, cpu, \
    range, desc) &sharpness_cuda_metric_##sym,
static const SharpnessCudaMetric *const cuda_metrics[] = {
  SHARPNESS_METRIC_TABLE (SHARPNESS_CUDA_METRIC_ROW)
};
#undef SHARPNESS_CUDA_METRIC_ROW

static_assert (sizeof cuda_metrics / sizeof cuda_metrics[0] ==
    SHARPNESS_METRIC_COUNT, "the CUDA backend has one row per metric");

/* Why the last sharpness_cuda_new of this thread failed. */
static thread_local char new_error[256];

SharpnessStatus
sharpness_cuda_check (SharpnessCuda * cuda, cudaError_t err, const char *what)
{
  if (err == cudaSuccess)
    return SHARPNESS_OK;
  snprintf (cuda->error, sizeof cuda->error, "%s: %s", what,
      cudaGetErrorString (err));
  /* The runtime also keeps a failed call's error as the thread's last
   * error: consume it here, so that the next launch check does not report
   * it a second time.  Sticky errors stay and fail every later call. */
  (void) cudaGetLastError ();
  return SHARPNESS_ERROR_DEVICE;
}

int
sharpness_cuda_device_count (const char **why)
{
  int n = 0;
  cudaError_t err = cudaGetDeviceCount (&n);

  if (err != cudaSuccess) {
    (void) cudaGetLastError ();
    if (why)
      *why = cudaGetErrorString (err);
    return 0;
  }
  if (n == 0 && why)
    *why = "no CUDA device";
  return n;
}

void *
sharpness_cuda_state_get (SharpnessCuda * cuda, SharpnessMetric metric,
    const SharpnessPlane * plane, SharpnessStatus * status)
{
  const SharpnessCudaMetric *m = cuda_metrics[metric];

  *status = SHARPNESS_OK;
  if (!m->state_new)
    return NULL;
  return sharpness_state_get (&cuda->state[metric], cuda, plane->width,
      plane->height, m->state_new, m->state_free, status);
}

void
sharpness_cuda_free (SharpnessCuda * cuda)
{
  if (!cuda)
    return;
  /* Nothing to report to at this point: a failure here leaves at worst a
   * leak in a context that is already broken. */
  (void) cudaStreamSynchronize (cuda->stream);
  sharpness_cuda_content_clear (cuda);
  sharpness_cuda_focus_clear (cuda);
  sharpness_cuda_bands_clear (cuda);
  for (int m = 0; m < SHARPNESS_METRIC_COUNT; m++)
    sharpness_state_clear (&cuda->state[m]);
  if (cuda->staging)
    (void) cudaFree (cuda->staging);
  if (cuda->accum)
    (void) cudaFree (cuda->accum);
  if (cuda->result)
    (void) cudaFreeHost (cuda->result);
  if (cuda->ext.dev_block)
    (void) cudaFree (cuda->ext.dev_block);
  if (cuda->ext.mapped_block)
    (void) cudaFreeHost (cuda->ext.mapped_block);
  if (cuda->ext.desc_host)
    (void) cudaFreeHost (cuda->ext.desc_host);
  (void) cudaGetLastError ();
  free (cuda);
}

static SharpnessStatus
cuda_init (SharpnessCuda * cuda)
{
  SharpnessStatus st;

  if ((st = sharpness_cuda_check (cuda, cudaGetDevice (&cuda->device),
              "cudaGetDevice")) != SHARPNESS_OK ||
      (st = sharpness_cuda_check (cuda, cudaDeviceGetAttribute (&cuda->sm_count,
                  cudaDevAttrMultiProcessorCount, cuda->device),
              "multiprocessor count")) != SHARPNESS_OK ||
      (st = sharpness_cuda_check (cuda, cudaMalloc ((void **) &cuda->accum,
                  sizeof *cuda->accum), "accumulator allocation"))
      != SHARPNESS_OK ||
      (st = sharpness_cuda_check (cuda, cudaMemsetAsync (cuda->accum, 0,
                  sizeof *cuda->accum, cuda->stream), "accumulator reset"))
      != SHARPNESS_OK ||
      (st = sharpness_cuda_check (cuda, cudaHostAlloc ((void **) &cuda->result,
                  sizeof *cuda->result,
                  cudaHostAllocMapped | cudaHostAllocPortable),
              "result allocation")) != SHARPNESS_OK ||
      (st = sharpness_cuda_check (cuda,
              cudaHostGetDevicePointer ((void **) &cuda->result_dev,
                  cuda->result, 0), "result mapping")) != SHARPNESS_OK)
    return st;
  memset (cuda->result, 0, sizeof *cuda->result);
  if ((st = sharpness_cuda_bands_init (cuda)) != SHARPNESS_OK)
    return st;

  /* Per-device setup (the classical kernels' occupancy): a kernel that
   * cannot run here fails the backend now, not the first frame. */
  for (int m = 0; m < SHARPNESS_METRIC_COUNT; m++)
    if (cuda_metrics[m]->init &&
        (st = cuda_metrics[m]->init (cuda)) != SHARPNESS_OK)
      return st;
  return sharpness_cuda_check (cuda, cudaStreamSynchronize (cuda->stream),
      "backend initialisation");
}

SharpnessStatus
sharpness_cuda_new (void *stream, SharpnessCuda ** out)
{
  if (!out)
    return SHARPNESS_ERROR_INVALID;
  *out = NULL;
  new_error[0] = '\0';

  SharpnessCuda *cuda = (SharpnessCuda *) calloc (1, sizeof *cuda);
  if (!cuda) {
    snprintf (new_error, sizeof new_error, "out of host memory");
    return SHARPNESS_ERROR_NO_MEMORY;
  }
  cuda->stream = (cudaStream_t) stream;

  SharpnessStatus st = cuda_init (cuda);
  if (st != SHARPNESS_OK) {
    snprintf (new_error, sizeof new_error, "%s", cuda->error);
    sharpness_cuda_free (cuda);
    return st;
  }
  *out = cuda;
  return SHARPNESS_OK;
}

const char *
sharpness_cuda_last_error (const SharpnessCuda * cuda)
{
  return cuda ? cuda->error : new_error;
}

static const SharpnessCudaMetric *
lookup (SharpnessCuda * cuda, SharpnessMetric metric,
    const SharpnessPlane * plane, const void *out)
{
  if (!cuda || !out || !sharpness_plane_is_valid (plane) ||
      (unsigned) metric >= SHARPNESS_METRIC_COUNT)
    return NULL;
  return cuda_metrics[metric];
}

SharpnessStatus
sharpness_cuda_staging_reserve (SharpnessCuda * cuda, size_t size)
{
  SharpnessStatus st;

  if (size <= cuda->staging_size)
    return SHARPNESS_OK;
  if (cuda->staging) {
    /* Every entry point has waited for its streams: nobody reads it. */
    st = sharpness_cuda_check (cuda, cudaFree (cuda->staging),
        "staging release");
    cuda->staging = NULL;
    cuda->staging_size = 0;
    if (st != SHARPNESS_OK)
      return st;
  }
  cudaError_t err = cudaMalloc ((void **) &cuda->staging, size);
  if (err != cudaSuccess) {
    cuda->staging = NULL;
    sharpness_cuda_check (cuda, err, "staging allocation");
    return err == cudaErrorMemoryAllocation ? SHARPNESS_ERROR_NO_MEMORY :
        SHARPNESS_ERROR_DEVICE;
  }
  cuda->staging_size = size;
  return SHARPNESS_OK;
}

/* Copies the host plane into the staging buffer (rows padded to 16 bytes,
 * so the kernels' fast path applies) and describes the copy in @dev.  Only
 * the bytes up to each row's last sample travel (from the first byte of
 * its pair for UYVY: host-staging.h). */
static SharpnessStatus
upload (SharpnessCuda * cuda, const SharpnessPlane * plane,
    SharpnessPlane * dev)
{
  const size_t lead = sharpness_cuda_staging_lead (plane);
  const size_t width_bytes = sharpness_cuda_staging_width (plane);
  const size_t pitch = sharpness_cuda_staging_pitch (plane);
  SharpnessStatus st = sharpness_cuda_staging_reserve (cuda,
      pitch * plane->height);
  if (st != SHARPNESS_OK)
    return st;

  const size_t src_pitch = plane->height > 1 ? plane->stride : width_bytes;
  st = sharpness_cuda_check (cuda, cudaMemcpy2DAsync (cuda->staging, pitch,
          plane->data - lead, src_pitch, width_bytes, plane->height,
          cudaMemcpyHostToDevice, cuda->stream), "plane upload");
  if (st != SHARPNESS_OK)
    return st;

  *dev = *plane;
  dev->data = cuda->staging + lead;
  dev->stride = pitch;
  return SHARPNESS_OK;
}

SharpnessStatus
sharpness_cuda_sums_device (SharpnessCuda * cuda, SharpnessMetric metric,
    const SharpnessPlane * plane, SharpnessSums * sums)
{
  const SharpnessCudaMetric *entry = lookup (cuda, metric, plane, sums);
  if (!entry)
    return SHARPNESS_ERROR_INVALID;
  if (!entry->sums)
    return SHARPNESS_ERROR_UNSUPPORTED;
  memset (sums, 0, sizeof *sums);
  SharpnessStatus st;
  void *state = sharpness_cuda_state_get (cuda, metric, plane, &st);
  if (st != SHARPNESS_OK)
    return st;
  return entry->sums (cuda, state, plane, sums);
}

SharpnessStatus
sharpness_cuda_score_device (SharpnessCuda * cuda, SharpnessMetric metric,
    const SharpnessPlane * plane, double *score)
{
  const SharpnessCudaMetric *entry = lookup (cuda, metric, plane, score);
  if (!entry)
    return SHARPNESS_ERROR_INVALID;
  SharpnessStatus st;
  void *state = sharpness_cuda_state_get (cuda, metric, plane, &st);
  if (st != SHARPNESS_OK)
    return st;
  if (entry->score)
    return entry->score (cuda, state, plane, score);

  SharpnessSums sums;
  memset (&sums, 0, sizeof sums);
  st = entry->sums (cuda, state, plane, &sums);
  if (st == SHARPNESS_OK)
    *score = sharpness_score_from_sums (metric, &sums, plane->width,
        plane->height);
  return st;
}

SharpnessStatus
sharpness_cuda_sums_host (SharpnessCuda * cuda, SharpnessMetric metric,
    const SharpnessPlane * plane, SharpnessSums * sums)
{
  const SharpnessCudaMetric *entry = lookup (cuda, metric, plane, sums);
  if (!entry)
    return SHARPNESS_ERROR_INVALID;
  if (!entry->sums)
    return SHARPNESS_ERROR_UNSUPPORTED;

  SharpnessPlane dev;
  SharpnessStatus st;
  if (entry->sums_arriving) {
    /* A large pinned plane: the kernel runs while its rows arrive. */
    SharpnessCudaArrival arrival;
    st = sharpness_cuda_upload_bands (cuda, plane, &dev, &arrival);
    if (st == SHARPNESS_OK) {
      memset (sums, 0, sizeof *sums);
      return sharpness_cuda_bands_done (cuda,
          entry->sums_arriving (cuda, &dev, &arrival, sums));
    }
    if (st != SHARPNESS_ERROR_UNSUPPORTED)
      return st;
  }
  st = upload (cuda, plane, &dev);
  if (st != SHARPNESS_OK)
    return st;
  return sharpness_cuda_sums_device (cuda, metric, &dev, sums);
}

SharpnessStatus
sharpness_cuda_score_host (SharpnessCuda * cuda, SharpnessMetric metric,
    const SharpnessPlane * plane, double *score)
{
  const SharpnessCudaMetric *entry = lookup (cuda, metric, plane, score);
  if (!entry)
    return SHARPNESS_ERROR_INVALID;
  if (entry->sums_arriving) {
    SharpnessSums sums;
    SharpnessStatus st = sharpness_cuda_sums_host (cuda, metric, plane, &sums);
    if (st == SHARPNESS_OK)
      *score = sharpness_score_from_sums (metric, &sums, plane->width,
          plane->height);
    return st;
  }

  SharpnessPlane dev;
  SharpnessStatus st = upload (cuda, plane, &dev);
  if (st != SHARPNESS_OK)
    return st;
  return sharpness_cuda_score_device (cuda, metric, &dev, score);
}

SharpnessStatus
sharpness_cuda_stage_host (SharpnessCuda * cuda, const SharpnessPlane * plane,
    SharpnessPlane * dev)
{
  if (!cuda || !dev || !sharpness_plane_is_valid (plane))
    return SHARPNESS_ERROR_INVALID;
  return upload (cuda, plane, dev);
}

/* Byte offsets of the parts of the extended launches' two blocks, each
 * part 256-byte aligned. */
typedef struct
{
  size_t blocks_done, packed, accum, tile_sum, tile_sq, tile_hist, desc;
  size_t dev_size;
  size_t seq, result, r_tile_sum, r_tile_sq, r_tile_hist, mapped_size;
} ExtLayout;

static size_t
ext_part (size_t * at, size_t bytes)
{
  const size_t off = *at;
  *at += (bytes + 255) & ~(size_t) 255;
  return off;
}

static ExtLayout
ext_layout (size_t regions, size_t tiles, size_t hist_tiles, size_t desc)
{
  ExtLayout l;
  size_t at = 0;

  l.blocks_done = ext_part (&at, sizeof (unsigned int));
  l.packed = ext_part (&at, sizeof (unsigned long long));
  l.accum = ext_part (&at, regions * sizeof (SharpnessCudaRegionSums));
  l.tile_sum = ext_part (&at, tiles * sizeof (unsigned long long));
  l.tile_sq = ext_part (&at, tiles * sizeof (unsigned long long));
  l.tile_hist = ext_part (&at, hist_tiles * 256 * sizeof (unsigned int));
  l.desc = ext_part (&at, regions * desc);
  l.dev_size = at;
  at = 0;
  l.seq = ext_part (&at, sizeof (unsigned long long));
  l.result = ext_part (&at, regions * sizeof (SharpnessCudaRegionSums));
  l.r_tile_sum = ext_part (&at, tiles * sizeof (unsigned long long));
  l.r_tile_sq = ext_part (&at, tiles * sizeof (unsigned long long));
  l.r_tile_hist = ext_part (&at, hist_tiles * 256 * sizeof (unsigned int));
  l.mapped_size = at;
  return l;
}

static void
ext_release (SharpnessCudaExt * ext)
{
  if (ext->dev_block)
    (void) cudaFree (ext->dev_block);
  if (ext->mapped_block)
    (void) cudaFreeHost (ext->mapped_block);
  if (ext->desc_host)
    (void) cudaFreeHost (ext->desc_host);
  (void) cudaGetLastError ();
  memset (ext, 0, sizeof *ext);
}

SharpnessStatus
sharpness_cuda_ext_reserve (SharpnessCuda * cuda, int regions, int tiles,
    int hist_tiles, size_t desc_size)
{
  SharpnessCudaExt *ext = &cuda->ext;

  if (regions <= ext->regions_cap && tiles <= ext->tiles_cap &&
      hist_tiles <= ext->hist_tiles_cap && desc_size == ext->desc_size)
    return SHARPNESS_OK;

  /* Every entry point synchronises its stream before returning: nothing
   * in flight uses the old buffers. */
  const int rc = regions > ext->regions_cap ? regions : ext->regions_cap;
  const int tc = tiles > ext->tiles_cap ? tiles : ext->tiles_cap;
  const int hc = hist_tiles > ext->hist_tiles_cap ? hist_tiles :
      ext->hist_tiles_cap;
  ext_release (ext);

  const ExtLayout l = ext_layout (rc, tc, hc, desc_size);
  uint8_t *dev = NULL, *mapped = NULL, *mapped_dev = NULL;
  cudaError_t err = cudaMalloc ((void **) &dev, l.dev_size);
  if (err == cudaSuccess) {
    ext->dev_block = dev;
    err = cudaHostAlloc ((void **) &mapped, l.mapped_size,
        cudaHostAllocMapped | cudaHostAllocPortable);
  }
  if (err == cudaSuccess) {
    ext->mapped_block = mapped;
    err = cudaHostGetDevicePointer ((void **) &mapped_dev, mapped, 0);
  }
  if (err == cudaSuccess)
    err = cudaHostAlloc (&ext->desc_host, (size_t) rc * desc_size,
        cudaHostAllocPortable);
  if (err == cudaSuccess)
    err = cudaMemsetAsync (dev, 0, l.dev_size, cuda->stream);
  if (err != cudaSuccess) {
    SharpnessStatus st = sharpness_cuda_check (cuda, err,
        "tile and batch buffers");
    ext_release (ext);
    return err == cudaErrorMemoryAllocation ? SHARPNESS_ERROR_NO_MEMORY : st;
  }
  memset (mapped, 0, l.mapped_size);

  ext->regions_cap = rc;
  ext->tiles_cap = tc;
  ext->hist_tiles_cap = hc;
  ext->desc_size = desc_size;
  ext->blocks_done = (unsigned int *) (dev + l.blocks_done);
  ext->packed = (unsigned long long *) (dev + l.packed);
  ext->accum = (SharpnessCudaRegionSums *) (dev + l.accum);
  ext->tile_sum = (unsigned long long *) (dev + l.tile_sum);
  ext->tile_sq = (unsigned long long *) (dev + l.tile_sq);
  ext->tile_hist = (unsigned int *) (dev + l.tile_hist);
  ext->desc_dev = dev + l.desc;
  ext->seq = (unsigned long long *) (mapped + l.seq);
  ext->result = (SharpnessCudaRegionSums *) (mapped + l.result);
  ext->result_tile_sum = (unsigned long long *) (mapped + l.r_tile_sum);
  ext->result_tile_sq = (unsigned long long *) (mapped + l.r_tile_sq);
  ext->result_tile_hist = (unsigned int *) (mapped + l.r_tile_hist);
  ext->seq_dev = (unsigned long long *) (mapped_dev + l.seq);
  ext->result_dev = (SharpnessCudaRegionSums *) (mapped_dev + l.result);
  ext->result_tile_sum_dev = (unsigned long long *) (mapped_dev +
      l.r_tile_sum);
  ext->result_tile_sq_dev = (unsigned long long *) (mapped_dev + l.r_tile_sq);
  ext->result_tile_hist_dev = (unsigned int *) (mapped_dev + l.r_tile_hist);
  return SHARPNESS_OK;
}

SharpnessStatus
sharpness_cuda_sums_batch (SharpnessCuda * cuda, SharpnessMetric metric,
    const SharpnessRegion * regions, int n, SharpnessSums * sums)
{
  if (!cuda || !regions || !sums || n < 0 ||
      (unsigned) metric >= SHARPNESS_METRIC_COUNT)
    return SHARPNESS_ERROR_INVALID;
  if (!sharpness_metric_has_tiles (metric) || !cuda_metrics[metric]->batch)
    return SHARPNESS_ERROR_UNSUPPORTED;
  /* Everything is checked before anything is launched. */
  for (int i = 0; i < n; i++) {
    SharpnessRect rect;
    if (!sharpness_plane_is_valid (&regions[i].plane) ||
        !sharpness_region_rect (&regions[i], &rect) ||
        (regions[i].tiles && !sharpness_tile_sums_ok (regions[i].tiles,
                metric)))
      return SHARPNESS_ERROR_INVALID;
    /* 32-bit tile counts, packed single sums (as one frame). */
    if ((unsigned long long) rect.width * rect.height >= (1ull << 32))
      return SHARPNESS_ERROR_UNSUPPORTED;
  }
  if (n == 0)
    return SHARPNESS_OK;
  memset (sums, 0, sizeof *sums * n);
  return cuda_metrics[metric]->batch (cuda, regions, n, sums);
}

SharpnessStatus
sharpness_cuda_sums_tiles (SharpnessCuda * cuda, SharpnessMetric metric,
    const SharpnessPlane * plane, SharpnessSums * sums,
    SharpnessTileSums * tiles)
{
  if (!plane || !tiles)
    return SHARPNESS_ERROR_INVALID;

  SharpnessRegion region;
  memset (&region, 0, sizeof region);
  region.plane = *plane;
  region.tiles = tiles;
  return sharpness_cuda_sums_batch (cuda, metric, &region, 1, sums);
}

void *
sharpness_cuda_host_alloc (size_t size)
{
  void *ptr = NULL;
  if (cudaHostAlloc (&ptr, size, cudaHostAllocPortable) != cudaSuccess) {
    (void) cudaGetLastError ();
    return NULL;
  }
  return ptr;
}

void
sharpness_cuda_host_free (void *ptr)
{
  if (ptr && cudaFreeHost (ptr) != cudaSuccess)
    (void) cudaGetLastError ();
}
