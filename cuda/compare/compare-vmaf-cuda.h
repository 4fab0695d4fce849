/* VMAF's integer features on a CUDA device: libvmaf's VIF, ADM and motion
 * (cpu/compare/vmaf.h) as kernels over luma planes in CUDA memory.  The
 * kernels compute the same integer sums as the CPU extractors (integer
 * addition: any order gives the same sum) and the host finishes them with
 * the CPU's own code (vmaf-private.h), so that every feature, and the
 * score, equal the CPU backend's to the bit: tests/compare/test-cuda-vmaf
 * checks it on a GPU (docs/reference/cudacompare.md says where it has
 * run).  No GStreamer.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Call with the owner's CUDA context current.  A frame's kernels are
 * queued on the stream given at creation, after whatever the caller
 * queued there, and the stream is synchronised once per frame.  Device
 * buffers are made for a frame size and made again only when the size
 * changes: no allocation per frame.
 */
#ifndef COMPARE_VMAF_CUDA_H
#define COMPARE_VMAF_CUDA_H

#include "vmaf.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct CompareVmafCuda CompareVmafCuda;

/* @stream: a cudaStream_t / CUstream of the current context (NULL: the
 * legacy default stream). */
SharpnessStatus compare_vmaf_cuda_new (void *stream, CompareVmafCuda ** out);
void compare_vmaf_cuda_free (CompareVmafCuda * vc);
/* Why the last call failed ("what: CUDA's error"); for a failed
 * compare_vmaf_cuda_new, pass NULL. */
const char *compare_vmaf_cuda_last_error (const CompareVmafCuda * vc);

/* The extractor of compare_vmaf_stream_push_with: planes' data are device
 * pointers (8-bit samples, or 16-bit little-endian ones in the low bits). */
void compare_vmaf_cuda_extractor (CompareVmafCuda * vc,
    CompareVmafExtractor * extractor);

#ifdef __cplusplus
}
#endif
#endif /* COMPARE_VMAF_CUDA_H */
