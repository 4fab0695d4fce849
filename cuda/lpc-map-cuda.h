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
 * backend's stream: the forward transform in double, then per chunk of
 * orientations (all 8 at 1080p) one kernel for the log-Gabor products of
 * every filter of the chunk, one batched inverse transform in single
 * precision, the finest scale's energy statistics, the thresholds and the
 * map's sums straight from the responses.
 * docs/performance/notes-cuda-perceptual.md explains the precision choices and gives
 * the timings of this and the older per-orientation sequence.
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

/* The border B = round (min (W, H) / 16) of the centre crop. */
int sharpness_lpc_map_border (const SharpnessLpcMap * map);

/* Queues a kernel writing the gray image of @plane (device memory) into
 * @image: width x height doubles, row-major. */
SharpnessStatus sharpness_lpc_map_load_plane (SharpnessCuda * cuda,
    const SharpnessPlane * plane, double *image);

/* Queues the map of @image (the map's size); its centre crop
 * [B, W - B) x [B, H - B) lands in @out, (W - 2B) (H - 2B) floats,
 * row-major: the part LPC-SI and CWTVNRS pool.  Only queues work (no
 * synchronisation, no allocation), so it can be captured in a graph. */
SharpnessStatus sharpness_lpc_map_run (SharpnessCuda * cuda,
    SharpnessLpcMap * map, const double *image, float *out);

/* SHARPNESS_CUDA_LPC_BATCH=1|2|4|8 in the environment when the state is
 * built forces the orientations per inverse cuFFT call (a tuning option,
 * sharpness-cuda-tuning.h). */

/* --- a metric's per-frame work as one CUDA graph -------------------- */

typedef enum
{
  SHARPNESS_CUDA_GRAPH_UNTRIED,
  SHARPNESS_CUDA_GRAPH_READY,
  SHARPNESS_CUDA_GRAPH_OFF      /* disabled, or capture refused: launches */
} SharpnessCudaGraphMode;

/* Kept in a metric's per-size state: everything the captured work touches
 * (buffers, plans) belongs to that state, so the graph stays valid as long
 * as the state does and is rebuilt with it when the size changes. */
typedef struct
{
  cudaGraphExec_t exec;
  SharpnessCudaGraphMode mode;
} SharpnessCudaGraph;

/* Queues a metric's per-frame work on cuda->stream, nothing else: no
 * synchronisation, allocation or host read of results. */
typedef SharpnessStatus (*SharpnessGraphBody) (SharpnessCuda * cuda,
    void *data);

/* No graph yet; OFF when SHARPNESS_CUDA_NO_GRAPH=1 is in the environment. */
void sharpness_cuda_graph_init (SharpnessCudaGraph * graph);
void sharpness_cuda_graph_clear (SharpnessCudaGraph * graph);

/* Runs @body (@data): on the first call captures it on cuda->stream and
 * instantiates the graph, then launches the graph (this frame included);
 * where capture or instantiation fails, plain launches from then on. */
SharpnessStatus sharpness_cuda_graph_run (SharpnessCuda * cuda,
    SharpnessCudaGraph * graph, SharpnessGraphBody body, void *data);

#endif /* SHARPNESS_LPC_MAP_CUDA_H */
