/* The local phase coherence (LPC) map of Hassen, Wang and Salama on the
 * GPU, shared by LPC-SI (cuda/lpc-si.cu) and CWTVNRS (cuda/cwtvnrs.cu);
 * the CPU reference is cpu/lpc-map.h.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * One SharpnessLpcMap per frame size holds the cuFFT plans and every
 * work buffer: nothing is allocated per frame.  For an image (double,
 * W x H, row-major, device memory) sharpness_lpc_map_run() queues on the
 * backend's stream: the forward transform in double, then per orientation
 * the three log-Gabor products, one batched inverse transform in single
 * precision and a kernel reducing the three responses to the energy and
 * phase-coherence term; then the thresholds and the map itself.
 * docs/notes-cuda-perceptual.md explains the precision choices.
 */
#ifndef SHARPNESS_LPC_MAP_CUDA_H
#define SHARPNESS_LPC_MAP_CUDA_H

#include "sharpness-cuda-private.h"

typedef struct SharpnessLpcMap SharpnessLpcMap;

/* Plans and buffers for @width x @height frames (current context, the
 * backend's stream).  SHARPNESS_ERROR_UNSUPPORTED when cuFFT cannot be
 * loaded (the reason is in the backend's error message). */
SharpnessStatus sharpness_lpc_map_new (SharpnessCuda * cuda, int width,
    int height, SharpnessLpcMap ** out);
void sharpness_lpc_map_free (SharpnessLpcMap * map);

int sharpness_lpc_map_width (const SharpnessLpcMap * map);
int sharpness_lpc_map_height (const SharpnessLpcMap * map);
/* The border B = round (min (W, H) / 16) of the centre crop. */
int sharpness_lpc_map_border (const SharpnessLpcMap * map);

/* Queues a kernel writing the gray image of @plane (device memory) into
 * @image: width x height doubles, row-major. */
SharpnessStatus sharpness_lpc_map_load_plane (SharpnessCuda * cuda,
    const SharpnessPlane * plane, double *image);

/* Queues the map of @image (the map's size); its centre crop
 * [B, W - B) x [B, H - B) lands in @out, (W - 2B) (H - 2B) floats,
 * row-major: the part LPC-SI and CWTVNRS pool. */
SharpnessStatus sharpness_lpc_map_run (SharpnessCuda * cuda,
    SharpnessLpcMap * map, const double *image, float *out);

#endif /* SHARPNESS_LPC_MAP_CUDA_H */
