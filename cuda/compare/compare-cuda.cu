/* The CUDA compare backend's object and its one entry point,
 * compare_cuda_compute: each requested metric's launches queued back to
 * back (its file: compare-<sym>.cu), one synchronisation, the values read
 * from mapped pinned memory; see compare-cuda-private.cuh.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <cstdio>
#include <cstdlib>

#include "compare-cuda-private.cuh"

/* The metrics' descriptors, generated from COMPARE_METRIC_TABLE in
 * CompareMetricId order (a metric without its file does not link). */
#define COMPARE_CUDA_METRIC_ROW(ID, sym, nick, display, desc, cf, cw) \
  &compare_cuda_metric_##sym,
static const CompareCudaMetric *const cuda_metrics[] = {
  COMPARE_METRIC_TABLE (COMPARE_CUDA_METRIC_ROW)
};
#undef COMPARE_CUDA_METRIC_ROW

static_assert (sizeof cuda_metrics / sizeof cuda_metrics[0] ==
    COMPARE_N_METRICS, "the CUDA compare backend has one row per metric");

/* Why the last compare_cuda_new of this thread failed. */
static __thread char new_error[256];

SharpnessStatus
compare_cuda_check (CompareCuda * cuda, cudaError_t err, const char *what)
{
  if (err == cudaSuccess)
    return SHARPNESS_OK;
  snprintf (cuda ? cuda->error : new_error, 256, "%s: %s", what,
      cudaGetErrorString (err));
  return err == cudaErrorMemoryAllocation ? SHARPNESS_ERROR_NO_MEMORY :
      SHARPNESS_ERROR_DEVICE;
}

SharpnessStatus
compare_cuda_reserve (CompareCuda * cuda, CompareMetricId id, int which,
    size_t size, void **out)
{
  void **buf = &cuda->dbuf[id][which];
  size_t *cap = &cuda->dcap[id][which];
  SharpnessStatus st;

  if (*cap < size) {
    /* a larger frame: wait for queued work using the old buffer */
    if ((st = compare_cuda_check (cuda, cudaStreamSynchronize (cuda->stream),
                "synchronise before growing")))
      return st;
    cudaFree (*buf);
    *buf = nullptr;
    *cap = 0;
    if ((st = compare_cuda_check (cuda, cudaMalloc (buf, size),
                "device buffer")))
      return st;
    *cap = size;
  }
  *out = *buf;
  return SHARPNESS_OK;
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
  st = compare_cuda_check (nullptr, cudaHostAlloc ((void **) &cuda->results,
          sizeof (CompareCudaResults), cudaHostAllocMapped |
          cudaHostAllocPortable), "pinned results");
  if (st == SHARPNESS_OK)
    st = compare_cuda_check (nullptr, cudaHostGetDevicePointer ((void **)
            &cuda->results_dev, cuda->results, 0), "mapped results");
  if (st == SHARPNESS_OK)
    st = compare_cuda_check (nullptr, cudaMalloc ((void **) &cuda->accum,
            sizeof (CompareCudaAccum)), "device accumulators");
  if (st == SHARPNESS_OK)
    st = compare_cuda_check (nullptr, cudaMemset (cuda->accum, 0,
            sizeof (CompareCudaAccum)), "clear accumulators");
  /* Kernels two metrics share are initialised twice: init only sets
   * attributes. */
  for (int m = 0; m < COMPARE_N_METRICS; m++)
    for (const CompareCudaMetric * d = cuda_metrics[m];
        d && st == SHARPNESS_OK; d = d->wang)
      if (d->init)
        st = d->init ();
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
  for (int m = 0; m < COMPARE_N_METRICS; m++)
    for (int i = 0; i < COMPARE_CUDA_BUFS; i++)
      cudaFree (cuda->dbuf[m][i]);
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
device_failure (SharpnessStatus st)
{
  return st == SHARPNESS_ERROR_DEVICE || st == SHARPNESS_ERROR_NO_MEMORY;
}

extern "C" SharpnessStatus
compare_cuda_compute (CompareCuda * cuda, const ComparePair * pair,
    const CompareRequest * req, CompareResult * result)
{
  const CompareCudaMetric *steps[COMPARE_N_METRICS];
  SharpnessStatus st, queued = SHARPNESS_OK;

  for (int m = 0; m < COMPARE_N_METRICS; m++) {
    result->status[m] = SHARPNESS_ERROR_UNSUPPORTED;
    steps[m] = !(req->metrics & (1u << m)) ? nullptr :
        req->wang && cuda_metrics[m]->wang ? cuda_metrics[m]->wang :
        cuda_metrics[m];
  }
  if (!cuda)
    return SHARPNESS_ERROR_INVALID;
  /* compare_pair_check reads no sample: device pointers are fine */
  if ((st = compare_pair_check (pair)) != SHARPNESS_OK)
    return st;
  for (int m = 0; m < COMPARE_N_METRICS && !device_failure (queued); m++)
    if (steps[m])
      result->status[m] = queued = steps[m]->queue (cuda, pair, req);
  if (device_failure (queued))
    return queued;
  if ((st = compare_cuda_check (cuda, cudaStreamSynchronize (cuda->stream),
              "synchronise")))
    return st;
  for (int m = 0; m < COMPARE_N_METRICS; m++)
    if (steps[m] && result->status[m] == SHARPNESS_OK)
      steps[m]->finish (cuda, pair, req, result);
  return SHARPNESS_OK;
}
