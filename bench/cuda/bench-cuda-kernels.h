/* bench-cuda-kernels.h: what the files of bench-cuda-kernels share: the
 * timed loops' state (frames, warm-up, stream, events, samples), their
 * clock and report rows, and the tables of the other files.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef BENCH_CUDA_KERNELS_H
#define BENCH_CUDA_KERNELS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cuda_runtime.h>

#include "check-cuda.h"
#include "cuda-frames.h"
#include "sharpness-cuda.h"
#include "test-stats.h"

/* bench-cuda-timing.c: --frames calls timed after --warmup; every timed
 * call brackets its work by ev0 and ev1 on @stream and keeps the host's
 * (wall_us) and the events' (event_us) microseconds. */
extern int frames, warmup;
extern cudaStream_t stream;
extern cudaEvent_t ev0, ev1;
extern double *wall_us, *event_us;
double now_us (void);
double percentile (double *v, int n, double p);
void sample_end (int i, double t0, double t1);
void report (const char *what, const char *size, const char *layout,
    const char *metric, double bytes);

/* bench-cuda-content.c */
extern SharpnessMetric content_metric;
void bench_content_pass (SharpnessCuda * cuda, SharpnessCuda * other,
    const struct cudaDeviceProp *prop, const char *size_name, int w, int h,
    const char *format, int flat, FrameRng * rng);

/* bench-cuda-tiles.c */
void bench_tiles (SharpnessCuda * cuda, FrameRng * rng);

#endif /* BENCH_CUDA_KERNELS_H */
