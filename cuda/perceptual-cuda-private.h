/* Intermediate results of the CUDA perceptual metrics, for the tests that
 * compare them with the CPU reference's (tests/cuda/test-cuda-perceptual.c):
 * no element or tool calls them, hence -private.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Same rules as sharpness-cuda.h: the owner's context current, planes in
 * device memory, the stream synchronised before returning.
 */
#ifndef SHARPNESS_PERCEPTUAL_CUDA_PRIVATE_H
#define SHARPNESS_PERCEPTUAL_CUDA_PRIVATE_H

#include "sharpness-cuda.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The LPC map's centre crop [B, W - B) x [B, H - B) (B as LPC-SI's), as
 * LPC-SI pools it: (W - 2B) (H - 2B) floats, row-major, into @out (host
 * memory). */
SharpnessStatus sharpness_cuda_lpc_si_crop_map (SharpnessCuda * cuda,
    const SharpnessPlane * plane, float *out);

/* The 24 BLIINDS-II features, in the CPU's order (cpu/bliinds2.h). */
SharpnessStatus sharpness_cuda_bliinds2_features (SharpnessCuda * cuda,
    const SharpnessPlane * plane, double features[24]);

#ifdef __cplusplus
}
#endif
#endif /* SHARPNESS_PERCEPTUAL_CUDA_PRIVATE_H */
