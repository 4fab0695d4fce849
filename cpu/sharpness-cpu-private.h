/* CPU backend internals shared by its metric files: the backend object and
 * the metric descriptors.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Each metric defines one descriptor, sharpness_cpu_metric_<sym> (sym: the
 * second column of SHARPNESS_METRIC_TABLE), in its own file, in the style
 * of vmaf's VmafFeatureExtractor: its id, how to make and free its
 * per-size scratch, and its entry point.  The declarations below and the
 * backend's table (sharpness-cpu.c) are generated from the X-macro, so
 *  - a descriptor whose type does not match the metric's kind fails to
 *    compile ("conflicting types"): SHARPNESS_KIND_SUMS metrics define a
 *    SharpnessCpuSumsMetric, SHARPNESS_KIND_FLOAT ones a
 *    SharpnessCpuScoreMetric;
 *  - a metric without its descriptor does not link (undefined reference),
 *    and no row of the table can be left out.
 */
#ifndef SHARPNESS_CPU_PRIVATE_H
#define SHARPNESS_CPU_PRIVATE_H

#include <stddef.h>
#include <stdint.h>

#include "sharpness-cpu.h"
#include "sharpness-state.h"

struct SharpnessCpu
{
  /* Gray rows for formats that are not 8-bit gray in memory, shared by
   * every metric (gray-rows.h). */
  uint8_t *gray_rows;
  size_t gray_rows_size;
  /* Per-metric scratch for the current frame size (sharpness-state.h). */
  SharpnessStateSlot state[SHARPNESS_METRIC_COUNT];
};

/* Entry points.  @state is what the descriptor's state_new made for this
 * frame size (NULL for a metric without state_new); @plane is valid and
 * @sums zeroed by the caller. */
typedef SharpnessStatus (*SharpnessCpuSumsFunc) (SharpnessCpu * cpu,
    void *state, const SharpnessPlane * plane, SharpnessSums * sums);
/* The same sums and, in the same pass, those of each tile of @tiles
 * (valid for the metric, zeroed by the caller; sharpness-tiles.h). */
typedef SharpnessStatus (*SharpnessCpuTileSumsFunc) (SharpnessCpu * cpu,
    void *state, const SharpnessPlane * plane, SharpnessSums * sums,
    SharpnessTileSums * tiles);
typedef SharpnessStatus (*SharpnessCpuScoreFunc) (SharpnessCpu * cpu,
    void *state, const SharpnessPlane * plane, double *score);

/* Descriptor of a SHARPNESS_KIND_SUMS metric: exact integer sums, reduced
 * to the score by sharpness_score_from_sums(). */
typedef struct
{
  SharpnessMetric metric;
  SharpnessStateNew state_new;  /* NULL: the metric keeps no state */
  SharpnessStateFree state_free;
  SharpnessCpuSumsFunc sums;
  SharpnessCpuTileSumsFunc sums_tiles;  /* NULL: no tile sums */
} SharpnessCpuSumsMetric;

/* Descriptor of a SHARPNESS_KIND_FLOAT metric: the score itself. */
typedef struct
{
  SharpnessMetric metric;
  SharpnessStateNew state_new;  /* NULL: the metric keeps no state */
  SharpnessStateFree state_free;
  SharpnessCpuScoreFunc score;
} SharpnessCpuScoreMetric;

/* The descriptor type of each value of the `kind` column. */
typedef SharpnessCpuSumsMetric SharpnessCpuMetric_SHARPNESS_KIND_SUMS;
typedef SharpnessCpuScoreMetric SharpnessCpuMetric_SHARPNESS_KIND_FLOAT;

#define SHARPNESS_CPU_METRIC_DECLARE(ID, sym, nick, name, dir, kind, cpu, \
    range, desc) \
  extern const SharpnessCpuMetric_##kind sharpness_cpu_metric_##sym;
SHARPNESS_METRIC_TABLE (SHARPNESS_CPU_METRIC_DECLARE)
#undef SHARPNESS_CPU_METRIC_DECLARE

#endif /* SHARPNESS_CPU_PRIVATE_H */
