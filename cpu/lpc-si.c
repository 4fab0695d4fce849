/* LPC-SI (Hassen, Wang, Salama, IEEE TIP 2013) on the CPU backend.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The frame's gray image, its LPC map (cpu/lpc-map.h), and the pooling of
 * the map's centre crop.  Everything that depends on the frame size lives
 * in the metric's state, rebuilt by the backend when the size changes.
 */
#include "sharpness-cpu-private.h"

#include <stdlib.h>

#include "gray-image.h"
#include "lpc-map.h"

typedef struct
{
  int width, height;
  SharpnessCpuLpc *lpc;
  double *image;
  double *map;
  double *pool;                 /* the crop, sorted by the pooling */
} LpcSiState;

static void
lpc_si_state_free (void *data)
{
  LpcSiState *st = data;

  if (!st)
    return;
  sharpness_cpu_lpc_free (st->lpc);
  free (st->image);
  free (st->map);
  free (st->pool);
  free (st);
}

static SharpnessStatus
lpc_si_state_new (void *backend, int width, int height, void **out)
{
  const size_t n = (size_t) width * height;
  LpcSiState *st;
  SharpnessStatus ret;

  st = calloc (1, sizeof *st);
  if (!st)
    return SHARPNESS_ERROR_NO_MEMORY;
  st->width = width;
  st->height = height;
  ret = sharpness_cpu_lpc_new (width, height, &st->lpc);
  if (ret != SHARPNESS_OK) {
    lpc_si_state_free (st);
    return ret;
  }
  st->image = malloc (n * sizeof (double));
  st->map = malloc (n * sizeof (double));
  st->pool = malloc (n * sizeof (double));
  if (!st->image || !st->map || !st->pool) {
    lpc_si_state_free (st);
    return SHARPNESS_ERROR_NO_MEMORY;
  }
  *out = st;
  return SHARPNESS_OK;
}

static SharpnessStatus
lpc_si_score (SharpnessCpu * cpu, void *state, const SharpnessPlane * plane,
    double *score)
{
  LpcSiState *st = state;
  SharpnessStatus ret;

  ret = sharpness_cpu_gray_image (cpu, plane, st->image);
  if (ret != SHARPNESS_OK)
    return ret;

  sharpness_cpu_lpc_map (st->lpc, st->image, st->map);
  *score = sharpness_cpu_lpc_si_pool (st->map, st->width, st->height,
      st->pool);
  return SHARPNESS_OK;
}

const SharpnessCpuScoreMetric sharpness_cpu_metric_lpc_si = {
  .metric = SHARPNESS_METRIC_LPC_SI,
  .state_new = lpc_si_state_new,
  .state_free = lpc_si_state_free,
  .score = lpc_si_score,
};
