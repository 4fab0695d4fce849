/* One component of an interleaved (NV12 chroma, packed RGB) or shifted
 * (P010) plane copied into a planar one that compare-cuda.h reads.  Used by
 * the cudacompare element for layouts ComparePair cannot describe.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef COMPARE_CUDA_EXTRACT_H
#define COMPARE_CUDA_EXTRACT_H

#include <stddef.h>

#include "sharpness-status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* dst[y][x] = src[y * src_stride + x * step] >> shift, samples of
 * @sample_bytes (1, or 2: little-endian 16-bit) in both; device pointers.
 * Queued on @stream (a cudaStream_t of the current context), not waited
 * for.  SHARPNESS_ERROR_DEVICE when the launch fails. */
SharpnessStatus compare_cuda_extract (void *stream, void *dst,
    size_t dst_stride, const void *src, size_t src_stride, int width,
    int height, int step, int sample_bytes, int shift);

#ifdef __cplusplus
}
#endif
#endif /* COMPARE_CUDA_EXTRACT_H */
