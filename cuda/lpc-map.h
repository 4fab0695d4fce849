/* The local phase coherence (LPC) map of Hassen, Wang and Salama on the
 * GPU, shared by LPC-SI (cuda/lpc-si.cu) and CWTVNRS (cuda/cwtvnrs.cu).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * One SharpnessLpcMap per frame size holds the cuFFT plans and every
 * buffer: nothing is allocated per frame.  The caller fills the real image
 * (double, W x H, row-major), then sharpness_lpc_map_run() queues on the
 * backend's stream: the forward transform in double, then per orientation
 * the three log-Gabor products, one batched inverse transform in single
 * precision and a kernel reducing the three responses to the energy and
 * phase-coherence term; then the thresholds and the map itself.
 * docs/notes-cuda-perceptual.md explains the precision choices.
 */
#ifndef SHARPNESS_LPC_MAP_H
#define SHARPNESS_LPC_MAP_H

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

/* The W x H input image (device memory), to be filled before each run. */
double *sharpness_lpc_map_image (SharpnessLpcMap * map);

/* Queues a kernel writing the gray image of @plane (device memory, the
 * map's size) into the input image. */
SharpnessStatus sharpness_lpc_map_load_plane (SharpnessCuda * cuda,
    SharpnessLpcMap * map, const SharpnessPlane * plane);

/* Queues the map of the input image; the rectangle (@x, @y, @w, @h) of it
 * lands in @out (device memory, rows @out_pitch floats apart). */
SharpnessStatus sharpness_lpc_map_run (SharpnessCuda * cuda,
    SharpnessLpcMap * map, int x, int y, int w, int h, float *out,
    size_t out_pitch);

#endif /* SHARPNESS_LPC_MAP_H */
