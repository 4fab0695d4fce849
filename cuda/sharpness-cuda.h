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
#include "sharpness-tiles.h"

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

/* Tiles and batches (docs/reference/tiles.md) of the metrics with
 * sharpness_metric_has_tiles(); SHARPNESS_ERROR_UNSUPPORTED for others.
 * Results are bit-identical to the CPU backend's
 * (sharpness_cpu_sums_tiles, sharpness_cpu_sums_batch).
 *
 * The frame's sums and, in the same launch, those of each tile of
 * @tiles->cols x @tiles->rows (a device plane). */
SharpnessStatus sharpness_cuda_sums_tiles (SharpnessCuda * cuda,
    SharpnessMetric metric, const SharpnessPlane * plane, SharpnessSums * sums,
    SharpnessTileSums * tiles);

/* The sums of @n regions of device planes (each its own plane, size,
 * stride, rectangle and optional tile grid) into @sums[0 .. n - 1], in one
 * launch per sample-layout variant among them (one for regions of one
 * frame, or frames of one format): each equal to scoring its rectangle as
 * a plane of its own.  For the ROIs of a frame pass the frame's plane and
 * each ROI's rectangle (the kernels keep their aligned fast path); for
 * frames of several streams, each frame's plane with an empty rectangle. */
SharpnessStatus sharpness_cuda_sums_batch (SharpnessCuda * cuda,
    SharpnessMetric metric, const SharpnessRegion * regions, int n,
    SharpnessSums * sums);

/* Copies a host plane into the backend's device staging buffer (as the
 * _host entry points do) and describes the copy in @dev, valid until the
 * next call of this backend that stages a plane: for tiles or a batch of
 * ROIs of a frame in system memory. */
SharpnessStatus sharpness_cuda_stage_host (SharpnessCuda * cuda,
    const SharpnessPlane * plane, SharpnessPlane * dev);

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
