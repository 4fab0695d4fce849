/* CPU backend internals shared by its metric files.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SHARPNESS_CPU_PRIVATE_H
#define SHARPNESS_CPU_PRIVATE_H

#include "sharpness-cpu.h"

typedef SharpnessStatus (*SharpnessCpuSumsFunc) (SharpnessCpu * cpu,
    const SharpnessPlane * plane, SharpnessSums * sums);
typedef SharpnessStatus (*SharpnessCpuScoreFunc) (SharpnessCpu * cpu,
    const SharpnessPlane * plane, double *score);

/* Per-metric scratch owned by the backend: created by the metric on first
 * use (or when the frame size changes) and freed with the backend. */
typedef struct
{
  void *data;
  void (*free) (void *data);
} SharpnessCpuState;

struct SharpnessCpu
{
  /* Gray rows for formats that are not 8-bit gray in memory. */
  uint8_t *gray_rows;
  size_t gray_rows_size;
  SharpnessCpuState state[SHARPNESS_METRIC_COUNT];
};

/* Replace the scratch of @metric (freeing the old one). */
void sharpness_cpu_set_state (SharpnessCpu * cpu, SharpnessMetric metric,
    void *data, void (*free_func) (void *));

/* Classical metrics, cpu/classical.c */
SharpnessStatus sharpness_cpu_variance_sums (SharpnessCpu *, const SharpnessPlane *, SharpnessSums *);
SharpnessStatus sharpness_cpu_roberts_sums (SharpnessCpu *, const SharpnessPlane *, SharpnessSums *);
SharpnessStatus sharpness_cpu_tenengrad_sums (SharpnessCpu *, const SharpnessPlane *, SharpnessSums *);
SharpnessStatus sharpness_cpu_laplacian_sums (SharpnessCpu *, const SharpnessPlane *, SharpnessSums *);
SharpnessStatus sharpness_cpu_smd_sums (SharpnessCpu *, const SharpnessPlane *, SharpnessSums *);
SharpnessStatus sharpness_cpu_smd2_sums (SharpnessCpu *, const SharpnessPlane *, SharpnessSums *);
SharpnessStatus sharpness_cpu_maxmin_sums (SharpnessCpu *, const SharpnessPlane *, SharpnessSums *);
SharpnessStatus sharpness_cpu_entropy_sums (SharpnessCpu *, const SharpnessPlane *, SharpnessSums *);

/* Perceptual metrics: cpu/lpc-si.c, cpu/cwtvnrs.c, cpu/bliinds2.c */
SharpnessStatus sharpness_cpu_lpc_si_score (SharpnessCpu *, const SharpnessPlane *, double *);
SharpnessStatus sharpness_cpu_cwtvnrs_score (SharpnessCpu *, const SharpnessPlane *, double *);
SharpnessStatus sharpness_cpu_bliinds2_score (SharpnessCpu *, const SharpnessPlane *, double *);

#endif /* SHARPNESS_CPU_PRIVATE_H */
