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
 * launch per metric, results in mapped pinned memory: no copy).  Device
 * buffers grow to the largest frame seen: no allocation per frame.
 */
#ifndef COMPARE_CUDA_H
#define COMPARE_CUDA_H

#include "compare.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct CompareCuda CompareCuda;

/* @stream: a cudaStream_t / CUstream of the current context (NULL: the
 * legacy default stream). */
SharpnessStatus compare_cuda_new (void *stream, CompareCuda ** out);
void compare_cuda_free (CompareCuda * cuda);
const char *compare_cuda_last_error (const CompareCuda * cuda);

/* What compare_cuda_compute computes. */
typedef enum
{
  COMPARE_CUDA_SSIM_NONE,
  COMPARE_CUDA_SSIM_FFMPEG,
  COMPARE_CUDA_SSIM_WANG
} CompareCudaSsim;

typedef struct
{
  int psnr;
  CompareCudaSsim ssim;
  int downsample;               /* Wang mode: ssim.m's downsampling */
  int ms_ssim;
} CompareCudaRequest;

/* Every metric of @req queued back to back, one synchronisation.  Returns
 * a device or memory error of the call; otherwise SHARPNESS_OK with each
 * requested metric's own status in @status (0 PSNR, 1 SSIM, 2 MS-SSIM: a
 * frame too small for one leaves the others), its values in @psnr, @ssim,
 * @ms (NULL where not requested). */
SharpnessStatus compare_cuda_compute (CompareCuda * cuda,
    const ComparePair * pair, const CompareCudaRequest * req,
    ComparePsnr * psnr, CompareSsim * ssim, CompareMsSsim * ms,
    SharpnessStatus status[3]);

/* One metric per call (tests, benchmarks).  @pair holds device pointers
 * (pitched rows as in compare.h). */
SharpnessStatus compare_cuda_psnr (CompareCuda * cuda,
    const ComparePair * pair, ComparePsnr * out);
SharpnessStatus compare_cuda_ssim_ffmpeg (CompareCuda * cuda,
    const ComparePair * pair, CompareSsim * out);
SharpnessStatus compare_cuda_ssim_wang (CompareCuda * cuda,
    const ComparePair * pair, int downsample, CompareSsim * out);
SharpnessStatus compare_cuda_ms_ssim (CompareCuda * cuda,
    const ComparePair * pair, CompareMsSsim * out);

/* PSNR and SSIM (ffmpeg mode) in one call. */
SharpnessStatus compare_cuda_psnr_ssim (CompareCuda * cuda,
    const ComparePair * pair, ComparePsnr * psnr, CompareSsim * ssim);

#ifdef __cplusplus
}
#endif
#endif /* COMPARE_CUDA_H */
