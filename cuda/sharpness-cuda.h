/* CUDA backend: a small C API over the kernels of cuda/.  No GStreamer.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Every function must be called with the owner's CUDA context current on the
 * calling thread (the element pushes its GstCudaContext around each call).
 * All work is queued on the stream given at creation; results are read back
 * through pinned memory and the stream is synchronised before returning.
 */
#ifndef SHARPNESS_CUDA_H
#define SHARPNESS_CUDA_H

#include "sharpness-metric.h"
#include "sharpness-plane.h"
#include "sharpness-status.h"
#include "sharpness-sums.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct SharpnessCuda SharpnessCuda;

/* Number of usable CUDA devices (0 with no driver or no GPU); on failure
 * @why (if not NULL) points to a static explanation. */
int sharpness_cuda_device_count (const char **why);

/* @stream is a CUstream / cudaStream_t created in the current context. */
SharpnessStatus sharpness_cuda_new (void *stream, SharpnessCuda ** out);
/* Synchronises the stream first: free before destroying the stream. */
void sharpness_cuda_free (SharpnessCuda * cuda);

/* Score from a plane in device memory (plane->data is a device pointer). */
SharpnessStatus sharpness_cuda_score_device (SharpnessCuda * cuda,
    SharpnessMetric metric, const SharpnessPlane * plane, double *score);

/* Score from a plane in host memory: copies the rows the metric reads into
 * a device buffer kept between frames (pinned host memory copies at full
 * speed, pageable memory works too), then as above. */
SharpnessStatus sharpness_cuda_score_host (SharpnessCuda * cuda,
    SharpnessMetric metric, const SharpnessPlane * plane, double *score);

/* Exact sums of a SHARPNESS_KIND_SUMS metric, for bit-identity tests. */
SharpnessStatus sharpness_cuda_sums_device (SharpnessCuda * cuda,
    SharpnessMetric metric, const SharpnessPlane * plane, SharpnessSums * sums);
SharpnessStatus sharpness_cuda_sums_host (SharpnessCuda * cuda,
    SharpnessMetric metric, const SharpnessPlane * plane, SharpnessSums * sums);

/* Message of the last SHARPNESS_ERROR_DEVICE, e.g. "tenengrad kernel: an
 * illegal memory access was encountered".  With @cuda NULL: why the last
 * sharpness_cuda_new of the calling thread failed. */
const char *sharpness_cuda_last_error (const SharpnessCuda * cuda);

/* Pinned host memory for upstream buffer pools (cudaHostAlloc, portable). */
void *sharpness_cuda_host_alloc (size_t size);
void sharpness_cuda_host_free (void *ptr);

#ifdef __cplusplus
}
#endif
#endif /* SHARPNESS_CUDA_H */
