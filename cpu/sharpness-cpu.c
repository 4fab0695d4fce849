/* CPU backend: dispatch through the metric descriptors.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "sharpness-cpu-private.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

/* A row holds the descriptor of the metric's kind, the other one NULL. */
typedef struct
{
  const SharpnessCpuSumsMetric *sums;
  const SharpnessCpuScoreMetric *score;
} SharpnessCpuEntry;

#define SHARPNESS_CPU_ENTRY_SHARPNESS_KIND_SUMS(desc) { &(desc), NULL }
#define SHARPNESS_CPU_ENTRY_SHARPNESS_KIND_FLOAT(desc) { NULL, &(desc) }
#define SHARPNESS_CPU_ENTRY(ID, sym, nick, name, dir, kind, cpu, range, \
    desc) \
  [SHARPNESS_METRIC_##ID] = \
      SHARPNESS_CPU_ENTRY_##kind (sharpness_cpu_metric_##sym),

/* Generated: one row per row of SHARPNESS_METRIC_TABLE, in its order. */
static const SharpnessCpuEntry cpu_entries[] = {
  SHARPNESS_METRIC_TABLE (SHARPNESS_CPU_ENTRY)
};
#undef SHARPNESS_CPU_ENTRY

_Static_assert (sizeof cpu_entries / sizeof cpu_entries[0] ==
    SHARPNESS_METRIC_COUNT, "the CPU backend needs one row per metric");

SharpnessCpu *
sharpness_cpu_new (void)
{
  /* The one thing the compiler cannot see: that a descriptor names the
   * metric of the row it was generated for (a copy-paste slip). */
  for (int m = 0; m < SHARPNESS_METRIC_COUNT; m++)
    assert (cpu_entries[m].sums ? (int) cpu_entries[m].sums->metric == m :
        (int) cpu_entries[m].score->metric == m);

  return calloc (1, sizeof (SharpnessCpu));
}

void
sharpness_cpu_free (SharpnessCpu * cpu)
{
  if (!cpu)
    return;
  for (int m = 0; m < SHARPNESS_METRIC_COUNT; m++)
    sharpness_state_clear (&cpu->state[m]);
  free (cpu->gray_rows);
  free (cpu);
}

/* The scratch of @metric for @plane's size (NULL for a metric without
 * state), rebuilt when the size changed. */
static SharpnessStatus
cpu_state (SharpnessCpu * cpu, SharpnessMetric metric,
    SharpnessStateNew state_new, SharpnessStateFree state_free,
    const SharpnessPlane * plane, void **state)
{
  SharpnessStatus st = SHARPNESS_OK;

  *state = NULL;
  if (state_new)
    *state = sharpness_state_get (&cpu->state[metric], cpu, plane->width,
        plane->height, state_new, state_free, &st);
  return st;
}

static SharpnessStatus
cpu_sums (SharpnessCpu * cpu, const SharpnessCpuSumsMetric * desc,
    const SharpnessPlane * plane, SharpnessSums * sums)
{
  void *state;
  SharpnessStatus st = cpu_state (cpu, desc->metric, desc->state_new,
      desc->state_free, plane, &state);

  if (st != SHARPNESS_OK)
    return st;
  memset (sums, 0, sizeof *sums);
  return desc->sums (cpu, state, plane, sums);
}

SharpnessStatus
sharpness_cpu_sums (SharpnessCpu * cpu, SharpnessMetric metric,
    const SharpnessPlane * plane, SharpnessSums * sums)
{
  if (!cpu || !sums || !sharpness_plane_is_valid (plane) ||
      (unsigned) metric >= SHARPNESS_METRIC_COUNT)
    return SHARPNESS_ERROR_INVALID;
  if (!cpu_entries[metric].sums)
    return SHARPNESS_ERROR_UNSUPPORTED;
  return cpu_sums (cpu, cpu_entries[metric].sums, plane, sums);
}

SharpnessStatus
sharpness_cpu_sums_tiles (SharpnessCpu * cpu, SharpnessMetric metric,
    const SharpnessPlane * plane, SharpnessSums * sums,
    SharpnessTileSums * tiles)
{
  if (!cpu || !sums || !sharpness_plane_is_valid (plane) ||
      (unsigned) metric >= SHARPNESS_METRIC_COUNT)
    return SHARPNESS_ERROR_INVALID;

  const SharpnessCpuSumsMetric *desc = cpu_entries[metric].sums;
  if (!desc || !desc->sums_tiles)
    return SHARPNESS_ERROR_UNSUPPORTED;
  if (!sharpness_tile_sums_ok (tiles, metric))
    return SHARPNESS_ERROR_INVALID;

  void *state;
  SharpnessStatus st = cpu_state (cpu, metric, desc->state_new,
      desc->state_free, plane, &state);
  if (st != SHARPNESS_OK)
    return st;
  memset (sums, 0, sizeof *sums);
  sharpness_tile_sums_zero (tiles, metric);
  return desc->sums_tiles (cpu, state, plane, sums, tiles);
}

SharpnessStatus
sharpness_cpu_sums_batch (SharpnessCpu * cpu, SharpnessMetric metric,
    const SharpnessRegion * regions, int n, SharpnessSums * sums)
{
  if (!cpu || !regions || !sums || n < 0 ||
      (unsigned) metric >= SHARPNESS_METRIC_COUNT)
    return SHARPNESS_ERROR_INVALID;
  if (!sharpness_metric_has_tiles (metric) || !cpu_entries[metric].sums)
    return SHARPNESS_ERROR_UNSUPPORTED;

  /* Everything is checked before anything is scored. */
  for (int i = 0; i < n; i++) {
    SharpnessPlane crop;
    if (!sharpness_plane_is_valid (&regions[i].plane) ||
        !sharpness_plane_crop (&regions[i].plane, &regions[i].rect, &crop) ||
        (regions[i].tiles && !sharpness_tile_sums_ok (regions[i].tiles,
                metric)))
      return SHARPNESS_ERROR_INVALID;
  }
  /* One pass per region over its rectangle alone: on the CPU a region is
   * simply the cropped plane. */
  for (int i = 0; i < n; i++) {
    SharpnessPlane crop;
    SharpnessStatus st;
    sharpness_plane_crop (&regions[i].plane, &regions[i].rect, &crop);
    st = regions[i].tiles ?
        sharpness_cpu_sums_tiles (cpu, metric, &crop, &sums[i],
        regions[i].tiles) : sharpness_cpu_sums (cpu, metric, &crop, &sums[i]);
    if (st != SHARPNESS_OK)
      return st;
  }
  return SHARPNESS_OK;
}

SharpnessStatus
sharpness_cpu_score (SharpnessCpu * cpu, SharpnessMetric metric,
    const SharpnessPlane * plane, double *score)
{
  if (!cpu || !score || !sharpness_plane_is_valid (plane) ||
      (unsigned) metric >= SHARPNESS_METRIC_COUNT)
    return SHARPNESS_ERROR_INVALID;

  const SharpnessCpuEntry *entry = &cpu_entries[metric];
  if (entry->score) {
    void *state;
    SharpnessStatus st = cpu_state (cpu, metric, entry->score->state_new,
        entry->score->state_free, plane, &state);
    if (st != SHARPNESS_OK)
      return st;
    return entry->score->score (cpu, state, plane, score);
  }

  SharpnessSums sums;
  SharpnessStatus st = cpu_sums (cpu, entry->sums, plane, &sums);
  if (st == SHARPNESS_OK)
    *score = sharpness_score_from_sums (metric, &sums, plane->width,
        plane->height);
  return st;
}
