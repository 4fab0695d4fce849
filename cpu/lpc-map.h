/* The local phase coherence (LPC) map of Hassen, Wang and Salama and its
 * LPC-SI pooling, on the CPU (docs/reference/metrics.md, "LPC-SI").
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The reference for the CUDA backend: images and maps are width * height
 * doubles, row-major, without padding.
 */
#ifndef SHARPNESS_CPU_LPC_MAP_H
#define SHARPNESS_CPU_LPC_MAP_H

#include "sharpness-status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* lpc_si.m: phase weights of the three scales, the map's constant C and
 * the pooling's beta_k. */
extern const int sharpness_lpc_weights[3];
#define SHARPNESS_LPC_C 2.0
#define SHARPNESS_LPC_BETA 1e-4

typedef struct SharpnessCpuLpc SharpnessCpuLpc;

/* Filter bank, FFT plan and work buffers for @width x @height images
 * (about 100 bytes a pixel). */
SharpnessStatus sharpness_cpu_lpc_new (int width, int height,
    SharpnessCpuLpc ** out);
void sharpness_cpu_lpc_free (SharpnessCpuLpc * lpc);

/* The border B = round (min (W, H) / 16) cut off by the centre crop
 * [B, W - B) x [B, H - B) that the thresholds and the pooling use. */
int sharpness_cpu_lpc_border (int width, int height);

/* LPC map of @image (gray levels 0..255) into @map; both the plan's
 * size.  Values in [0, 1). */
void sharpness_cpu_lpc_map (SharpnessCpuLpc * lpc, const double *image,
    double *map);

/* LPC-SI of @map: its centre crop sorted in descending order, weighted by
 * exp (-(k / (K - 1)) / beta_k).  @scratch holds the crop's K values. */
double sharpness_cpu_lpc_si_pool (const double *map, int width, int height,
    double *scratch);

#ifdef __cplusplus
}
#endif
#endif /* SHARPNESS_CPU_LPC_MAP_H */
