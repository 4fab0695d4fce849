/* CUDA backend of the full-reference comparison (cpu/compare/compare.h):
 * PSNR and SSIM ffmpeg mode bit-identical to the CPU backend, SSIM Wang
 * mode and MS-SSIM in double precision.  No GStreamer.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Call with the owner's CUDA context current.  Work is queued on the
 * stream given at creation, after whatever the caller queued there; each
 * call synchronises that stream once before returning its values (one
 * launch per metric, per scale for MS-SSIM; results in mapped pinned
 * memory: no copy).  Device buffers grow to the largest frame seen (the
 * call that grows one synchronises once more): no allocation per
 * frame.
 */
#ifndef COMPARE_CUDA_H
#define COMPARE_CUDA_H

#include "compare.h"
#include "compare-metric.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct CompareCuda CompareCuda;

/* @stream: a cudaStream_t / CUstream of the current context (NULL: the
 * legacy default stream). */
SharpnessStatus compare_cuda_new (void *stream, CompareCuda ** out);
void compare_cuda_free (CompareCuda * cuda);
const char *compare_cuda_last_error (const CompareCuda * cuda);

/* The metrics of @req (CompareMetricId order), queued back to back, one
 * synchronisation; @pair holds device pointers (pitched rows as in
 * compare.h).  Returns a device or memory error of the call (no value is
 * then valid); otherwise SHARPNESS_OK, with each metric's own status in
 * result->status (a frame too small for one leaves the others) and its
 * values in @result. */
SharpnessStatus compare_cuda_compute (CompareCuda * cuda,
    const ComparePair * pair, const CompareRequest * req,
    CompareResult * result);

#ifdef __cplusplus
}
#endif
#endif /* COMPARE_CUDA_H */
