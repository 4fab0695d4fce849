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

struct SharpnessCuda
{
  cudaStream_t stream;
  /* Device copy of host planes, grown when a larger frame arrives. */
  uint8_t *staging;
  size_t staging_size;
  SharpnessCudaState state[SHARPNESS_METRIC_COUNT];
  char error[256];
  /* ... further members owned by cuda/sharpness-cuda.cu ... */
};

/* Records "@what: <cudaGetErrorString (err)>" as the last error; returns
 * SHARPNESS_ERROR_DEVICE when @err is not cudaSuccess, else SHARPNESS_OK. */
SharpnessStatus sharpness_cuda_check (SharpnessCuda * cuda, cudaError_t err,
    const char *what);

/* Replace the device state of @metric (freeing the old one). */
void sharpness_cuda_set_state (SharpnessCuda * cuda, SharpnessMetric metric,
    void *data, void (*free_func) (void *));

/* Perceptual metrics on a plane in DEVICE memory (cuda/lpc-si.cu,
 * cuda/cwtvnrs.cu, cuda/bliinds2.cu); results within 1e-4 of the CPU. */
SharpnessStatus sharpness_cuda_lpc_si_score (SharpnessCuda * cuda,
    const SharpnessPlane * plane, double *score);
SharpnessStatus sharpness_cuda_cwtvnrs_score (SharpnessCuda * cuda,
    const SharpnessPlane * plane, double *score);
SharpnessStatus sharpness_cuda_bliinds2_score (SharpnessCuda * cuda,
    const SharpnessPlane * plane, double *score);

#endif /* SHARPNESS_CUDA_PRIVATE_H */
