/* CUDA backend internals shared by the .cu files of cuda/.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SHARPNESS_CUDA_PRIVATE_H
#define SHARPNESS_CUDA_PRIVATE_H

#include <cuda_runtime.h>

#include "sharpness-cuda.h"

/* Per-metric device state (filters, tables, work buffers) built once per
 * resolution by the metric and freed with the backend. */
typedef struct
{
  void *data;
  void (*free) (void *data);
} SharpnessCudaState;

/* Device accumulators of the classical kernels.  Zero between launches:
 * the last block of each launch reads them out and resets them, so a frame
 * costs one launch and no memset. */
typedef struct
{
  unsigned long long sum;
  unsigned long long sum_sq;
  unsigned long long hist[256];
  unsigned int blocks_done;
} SharpnessCudaAccum;

/* What that last block writes into mapped pinned host memory; @seq tells
 * the host the launch it waited for really wrote it. */
typedef struct
{
  unsigned long long seq;
  unsigned long long sum;
  unsigned long long sum_sq;
  unsigned long long hist[256];
} SharpnessCudaResult;

/* Kernels per classical metric (cuda/classical.cu): one per natural sample
 * layout of aligned planes (Y8, Y16LE, RGB8 with 3 and 4 bytes per pixel)
 * and one per layout for any other pixel stride or alignment. */
#define SHARPNESS_CUDA_CLASSICAL_VARIANTS 7

struct SharpnessCuda
{
  cudaStream_t stream;
  /* Device copy of host planes, grown when a larger frame arrives.  Owned by
   * cuda/sharpness-cuda.cu: metrics read it as their input, never write it. */
  uint8_t *staging;
  size_t staging_size;
  SharpnessCudaState state[SHARPNESS_METRIC_COUNT];
  char error[256];

  int device;
  int sm_count;
  SharpnessCudaAccum *accum;            /* device memory */
  SharpnessCudaResult *result;          /* mapped pinned host memory ... */
  SharpnessCudaResult *result_dev;      /* ... and its device address */
  unsigned long long seq;               /* launches so far */
  /* Resident blocks per multiprocessor of each classical kernel, read once
   * by sharpness_cuda_classical_init. */
  int classical_blocks_per_sm[SHARPNESS_METRIC_COUNT]
      [SHARPNESS_CUDA_CLASSICAL_VARIANTS];
};

/* Records "@what: <cudaGetErrorString (err)>" as the last error; returns
 * SHARPNESS_ERROR_DEVICE when @err is not cudaSuccess, else SHARPNESS_OK. */
SharpnessStatus sharpness_cuda_check (SharpnessCuda * cuda, cudaError_t err,
    const char *what);

/* Replace the device state of @metric (freeing the old one). */
void sharpness_cuda_set_state (SharpnessCuda * cuda, SharpnessMetric metric,
    void *data, void (*free_func) (void *));

/* Classical metrics on a plane in DEVICE memory (cuda/classical.cu): one
 * launch, then the stream is synchronised and @sums filled. */
SharpnessStatus sharpness_cuda_classical_init (SharpnessCuda * cuda);
SharpnessStatus sharpness_cuda_variance_sums (SharpnessCuda * cuda,
    const SharpnessPlane * plane, SharpnessSums * sums);
SharpnessStatus sharpness_cuda_roberts_sums (SharpnessCuda * cuda,
    const SharpnessPlane * plane, SharpnessSums * sums);
SharpnessStatus sharpness_cuda_tenengrad_sums (SharpnessCuda * cuda,
    const SharpnessPlane * plane, SharpnessSums * sums);
SharpnessStatus sharpness_cuda_laplacian_sums (SharpnessCuda * cuda,
    const SharpnessPlane * plane, SharpnessSums * sums);
SharpnessStatus sharpness_cuda_smd_sums (SharpnessCuda * cuda,
    const SharpnessPlane * plane, SharpnessSums * sums);
SharpnessStatus sharpness_cuda_smd2_sums (SharpnessCuda * cuda,
    const SharpnessPlane * plane, SharpnessSums * sums);
SharpnessStatus sharpness_cuda_maxmin_sums (SharpnessCuda * cuda,
    const SharpnessPlane * plane, SharpnessSums * sums);
SharpnessStatus sharpness_cuda_entropy_sums (SharpnessCuda * cuda,
    const SharpnessPlane * plane, SharpnessSums * sums);

/* Perceptual metrics on a plane in DEVICE memory (cuda/lpc-si.cu,
 * cuda/cwtvnrs.cu, cuda/bliinds2.cu); results within 1e-4 of the CPU. */
SharpnessStatus sharpness_cuda_lpc_si_score (SharpnessCuda * cuda,
    const SharpnessPlane * plane, double *score);
SharpnessStatus sharpness_cuda_cwtvnrs_score (SharpnessCuda * cuda,
    const SharpnessPlane * plane, double *score);
SharpnessStatus sharpness_cuda_bliinds2_score (SharpnessCuda * cuda,
    const SharpnessPlane * plane, double *score);

#endif /* SHARPNESS_CUDA_PRIVATE_H */
