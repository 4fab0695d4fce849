/* CPU reference backend: exactly the definitions of docs/reference/metrics.md, in
 * plain C, reading strided planes in place.  Also the fallback backend.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SHARPNESS_CPU_H
#define SHARPNESS_CPU_H

#include "sharpness-metric.h"
#include "sharpness-plane.h"
#include "sharpness-status.h"
#include "sharpness-sums.h"
#include "sharpness-tiles.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Scratch memory (gray rows, per-resolution tables) for one stream.  It
 * grows when a larger frame or a new metric first needs it and is reused
 * afterwards: no allocation per frame.  Not thread-safe: one per element. */
typedef struct SharpnessCpu SharpnessCpu;

SharpnessCpu *sharpness_cpu_new (void);
void sharpness_cpu_free (SharpnessCpu * cpu);

/* Score of @metric on @plane (host memory). */
SharpnessStatus sharpness_cpu_score (SharpnessCpu * cpu,
    SharpnessMetric metric, const SharpnessPlane * plane, double *score);

/* The exact integer sums of a SHARPNESS_KIND_SUMS metric, for comparing
 * backends; SHARPNESS_ERROR_UNSUPPORTED for other kinds. */
SharpnessStatus sharpness_cpu_sums (SharpnessCpu * cpu,
    SharpnessMetric metric, const SharpnessPlane * plane, SharpnessSums * sums);

/* The frame's sums and, in the same pass, those of each tile of
 * @tiles->cols x @tiles->rows (sharpness-tiles.h): the tiles' sums add up
 * to the frame's.  SHARPNESS_ERROR_UNSUPPORTED for a metric without tiles
 * (sharpness_metric_has_tiles()). */
SharpnessStatus sharpness_cpu_sums_tiles (SharpnessCpu * cpu,
    SharpnessMetric metric, const SharpnessPlane * plane, SharpnessSums * sums,
    SharpnessTileSums * tiles);

/* The CPU twin of sharpness_cuda_sums_batch(): the sums of each of the
 * @n @regions (and of their tiles, where asked) into @sums[0 .. n - 1],
 * each equal to scoring its rectangle as a plane of its own. */
SharpnessStatus sharpness_cpu_sums_batch (SharpnessCpu * cpu,
    SharpnessMetric metric, const SharpnessRegion * regions, int n,
    SharpnessSums * sums);

#ifdef __cplusplus
}
#endif
#endif /* SHARPNESS_CPU_H */
