/* CPU backend: dispatch through its row of entry points per metric.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "sharpness-cpu-private.h"

#include <stdlib.h>
#include <string.h>

typedef struct
{
  SharpnessCpuSumsFunc sums;    /* SHARPNESS_KIND_SUMS metrics */
  SharpnessCpuScoreFunc score;  /* SHARPNESS_KIND_FLOAT metrics */
} SharpnessCpuEntry;

/* One row per metric of SHARPNESS_METRIC_TABLE. */
static const SharpnessCpuEntry cpu_entries[] = {
  [SHARPNESS_METRIC_VARIANCE] = {sharpness_cpu_variance_sums, NULL},
  [SHARPNESS_METRIC_ROBERTS] = {sharpness_cpu_roberts_sums, NULL},
  [SHARPNESS_METRIC_TENENGRAD] = {sharpness_cpu_tenengrad_sums, NULL},
  [SHARPNESS_METRIC_LAPLACIAN] = {sharpness_cpu_laplacian_sums, NULL},
  [SHARPNESS_METRIC_SMD] = {sharpness_cpu_smd_sums, NULL},
  [SHARPNESS_METRIC_SMD2] = {sharpness_cpu_smd2_sums, NULL},
  [SHARPNESS_METRIC_MAXMIN] = {sharpness_cpu_maxmin_sums, NULL},
  [SHARPNESS_METRIC_ENTROPY] = {sharpness_cpu_entropy_sums, NULL},
  [SHARPNESS_METRIC_LPC_SI] = {NULL, sharpness_cpu_lpc_si_score},
  [SHARPNESS_METRIC_CWTVNRS] = {NULL, sharpness_cpu_cwtvnrs_score},
  [SHARPNESS_METRIC_BLIINDS2] = {NULL, sharpness_cpu_bliinds2_score},
};

_Static_assert (sizeof cpu_entries / sizeof cpu_entries[0] ==
    SHARPNESS_METRIC_COUNT, "the CPU backend needs one row per metric");

SharpnessCpu *
sharpness_cpu_new (void)
{
  return calloc (1, sizeof (SharpnessCpu));
}

void
sharpness_cpu_set_state (SharpnessCpu * cpu, SharpnessMetric metric,
    void *data, void (*free_func) (void *))
{
  SharpnessCpuState *st = &cpu->state[metric];
  if (st->data && st->free)
    st->free (st->data);
  st->data = data;
  st->free = free_func;
}

void
sharpness_cpu_free (SharpnessCpu * cpu)
{
  if (!cpu)
    return;
  for (int m = 0; m < SHARPNESS_METRIC_COUNT; m++)
    sharpness_cpu_set_state (cpu, (SharpnessMetric) m, NULL, NULL);
  free (cpu->gray_rows);
  free (cpu);
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
  memset (sums, 0, sizeof *sums);
  return cpu_entries[metric].sums (cpu, plane, sums);
}

SharpnessStatus
sharpness_cpu_score (SharpnessCpu * cpu, SharpnessMetric metric,
    const SharpnessPlane * plane, double *score)
{
  if (!cpu || !score || !sharpness_plane_is_valid (plane) ||
      (unsigned) metric >= SHARPNESS_METRIC_COUNT)
    return SHARPNESS_ERROR_INVALID;

  const SharpnessCpuEntry *entry = &cpu_entries[metric];
  if (entry->score)
    return entry->score (cpu, plane, score);
  if (!entry->sums)
    return SHARPNESS_ERROR_UNSUPPORTED;

  SharpnessSums sums;
  memset (&sums, 0, sizeof sums);
  SharpnessStatus st = entry->sums (cpu, plane, &sums);
  if (st == SHARPNESS_OK)
    *score = sharpness_score_from_sums (metric, &sums, plane->width,
        plane->height);
  return st;
}
