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

#include "sharpness-cuda-private.h"

typedef SharpnessStatus (*SharpnessCudaSumsFunc) (SharpnessCuda * cuda,
    const SharpnessPlane * plane, SharpnessSums * sums);
typedef SharpnessStatus (*SharpnessCudaScoreFunc) (SharpnessCuda * cuda,
    const SharpnessPlane * plane, double *score);

typedef struct
{
  SharpnessMetric metric;
  SharpnessCudaSumsFunc sums;   /* SHARPNESS_KIND_SUMS metrics */
  SharpnessCudaScoreFunc score; /* SHARPNESS_KIND_FLOAT metrics */
} SharpnessCudaEntry;

/* One row per metric of SHARPNESS_METRIC_TABLE, in its order. */
static constexpr SharpnessCudaEntry cuda_entries[] = {
  {SHARPNESS_METRIC_VARIANCE, sharpness_cuda_variance_sums, nullptr},
  {SHARPNESS_METRIC_ROBERTS, sharpness_cuda_roberts_sums, nullptr},
  {SHARPNESS_METRIC_TENENGRAD, sharpness_cuda_tenengrad_sums, nullptr},
  {SHARPNESS_METRIC_LAPLACIAN, sharpness_cuda_laplacian_sums, nullptr},
  {SHARPNESS_METRIC_SMD, sharpness_cuda_smd_sums, nullptr},
  {SHARPNESS_METRIC_SMD2, sharpness_cuda_smd2_sums, nullptr},
  {SHARPNESS_METRIC_MAXMIN, sharpness_cuda_maxmin_sums, nullptr},
  {SHARPNESS_METRIC_ENTROPY, sharpness_cuda_entropy_sums, nullptr},
  {SHARPNESS_METRIC_LPC_SI, nullptr, sharpness_cuda_lpc_si_score},
  {SHARPNESS_METRIC_CWTVNRS, nullptr, sharpness_cuda_cwtvnrs_score},
  {SHARPNESS_METRIC_BLIINDS2, nullptr, sharpness_cuda_bliinds2_score},
};

static_assert (sizeof cuda_entries / sizeof cuda_entries[0] ==
    SHARPNESS_METRIC_COUNT, "the CUDA backend needs one row per metric");

static constexpr bool
entries_in_metric_order (void)
{
  for (int m = 0; m < SHARPNESS_METRIC_COUNT; m++)
    if (cuda_entries[m].metric != m || !cuda_entries[m].sums == !cuda_entries[m].score)
      return false;
  return true;
}

static_assert (entries_in_metric_order (),
    "rows in SharpnessMetric order, each with exactly one entry point");

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

void
sharpness_cuda_set_state (SharpnessCuda * cuda, SharpnessMetric metric,
    void *data, void (*free_func) (void *))
{
  SharpnessCudaState *st = &cuda->state[metric];
  if (st->data && st->free)
    st->free (st->data);
  st->data = data;
  st->free = free_func;
}

void
sharpness_cuda_free (SharpnessCuda * cuda)
{
  if (!cuda)
    return;
  /* Nothing to report to at this point: a failure here leaves at worst a
   * leak in a context that is already broken. */
  (void) cudaStreamSynchronize (cuda->stream);
  for (int m = 0; m < SHARPNESS_METRIC_COUNT; m++)
    sharpness_cuda_set_state (cuda, (SharpnessMetric) m, NULL, NULL);
  if (cuda->staging)
    (void) cudaFree (cuda->staging);
  if (cuda->accum)
    (void) cudaFree (cuda->accum);
  if (cuda->result)
    (void) cudaFreeHost (cuda->result);
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

  if ((st = sharpness_cuda_classical_init (cuda)) != SHARPNESS_OK)
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

static const SharpnessCudaEntry *
lookup (SharpnessCuda * cuda, SharpnessMetric metric,
    const SharpnessPlane * plane, const void *out)
{
  if (!cuda || !out || !sharpness_plane_is_valid (plane) ||
      (unsigned) metric >= SHARPNESS_METRIC_COUNT)
    return NULL;
  return &cuda_entries[metric];
}

/* Copies the host plane into the staging buffer (rows padded to 16 bytes,
 * so the kernels' fast path applies) and describes the copy in @dev.  Only
 * the bytes up to each row's last sample travel. */
static SharpnessStatus
upload (SharpnessCuda * cuda, const SharpnessPlane * plane,
    SharpnessPlane * dev)
{
  const size_t width_bytes = sharpness_plane_row_bytes (plane);
  const size_t pixels_bytes = (size_t) plane->width * plane->pixel_stride;
  const size_t pitch = ((width_bytes > pixels_bytes ? width_bytes :
          pixels_bytes) + 15) & ~(size_t) 15;
  const size_t size = pitch * plane->height;
  SharpnessStatus st;

  if (size > cuda->staging_size) {
    if (cuda->staging) {
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
  }

  const size_t src_pitch = plane->height > 1 ? plane->stride : width_bytes;
  st = sharpness_cuda_check (cuda, cudaMemcpy2DAsync (cuda->staging, pitch,
          plane->data, src_pitch, width_bytes, plane->height,
          cudaMemcpyHostToDevice, cuda->stream), "plane upload");
  if (st != SHARPNESS_OK)
    return st;

  *dev = *plane;
  dev->data = cuda->staging;
  dev->stride = pitch;
  return SHARPNESS_OK;
}

SharpnessStatus
sharpness_cuda_sums_device (SharpnessCuda * cuda, SharpnessMetric metric,
    const SharpnessPlane * plane, SharpnessSums * sums)
{
  const SharpnessCudaEntry *entry = lookup (cuda, metric, plane, sums);
  if (!entry)
    return SHARPNESS_ERROR_INVALID;
  if (!entry->sums)
    return SHARPNESS_ERROR_UNSUPPORTED;
  memset (sums, 0, sizeof *sums);
  return entry->sums (cuda, plane, sums);
}

SharpnessStatus
sharpness_cuda_score_device (SharpnessCuda * cuda, SharpnessMetric metric,
    const SharpnessPlane * plane, double *score)
{
  const SharpnessCudaEntry *entry = lookup (cuda, metric, plane, score);
  if (!entry)
    return SHARPNESS_ERROR_INVALID;
  if (entry->score)
    return entry->score (cuda, plane, score);

  SharpnessSums sums;
  memset (&sums, 0, sizeof sums);
  SharpnessStatus st = entry->sums (cuda, plane, &sums);
  if (st == SHARPNESS_OK)
    *score = sharpness_score_from_sums (metric, &sums, plane->width,
        plane->height);
  return st;
}

SharpnessStatus
sharpness_cuda_sums_host (SharpnessCuda * cuda, SharpnessMetric metric,
    const SharpnessPlane * plane, SharpnessSums * sums)
{
  const SharpnessCudaEntry *entry = lookup (cuda, metric, plane, sums);
  if (!entry)
    return SHARPNESS_ERROR_INVALID;
  if (!entry->sums)
    return SHARPNESS_ERROR_UNSUPPORTED;

  SharpnessPlane dev;
  SharpnessStatus st = upload (cuda, plane, &dev);
  if (st != SHARPNESS_OK)
    return st;
  return sharpness_cuda_sums_device (cuda, metric, &dev, sums);
}

SharpnessStatus
sharpness_cuda_score_host (SharpnessCuda * cuda, SharpnessMetric metric,
    const SharpnessPlane * plane, double *score)
{
  if (!lookup (cuda, metric, plane, score))
    return SHARPNESS_ERROR_INVALID;

  SharpnessPlane dev;
  SharpnessStatus st = upload (cuda, plane, &dev);
  if (st != SHARPNESS_OK)
    return st;
  return sharpness_cuda_score_device (cuda, metric, &dev, score);
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
