/* BLIINDS-II on the CPU backend: predicted LIVE DMOS of a frame.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "sharpness-cpu-private.h"
#include "bliinds2.h"

/* Scratch per resolution: the backend rebuilds it only when the frame size
 * changes. */
static SharpnessStatus
bliinds2_state_new (void *backend, int width, int height, void **out)
{
  /* Three 2:1 scales need a pixel at the smallest: say that the size is
   * the reason, not the backend. */
  if (width < SHARPNESS_BLIINDS2_MIN_SIZE ||
      height < SHARPNESS_BLIINDS2_MIN_SIZE)
    return SHARPNESS_ERROR_TOO_SMALL;
  *out = sharpness_bliinds2_new (width, height);
  return *out ? SHARPNESS_OK : SHARPNESS_ERROR_NO_MEMORY;
}

static void
bliinds2_state_free (void *data)
{
  sharpness_bliinds2_free (data);
}

static SharpnessStatus
bliinds2_score (SharpnessCpu * cpu, void *state, const SharpnessPlane * plane,
    double *score)
{
  double features[SHARPNESS_BLIINDS2_N_FEATURES];
  SharpnessStatus st = sharpness_bliinds2_features (state, plane, features);

  if (st != SHARPNESS_OK)
    return st;
  *score = sharpness_bliinds2_predict (&sharpness_bliinds2_live_model,
      features);
  return SHARPNESS_OK;
}

const SharpnessCpuScoreMetric sharpness_cpu_metric_bliinds2 = {
  .metric = SHARPNESS_METRIC_BLIINDS2,
  .state_new = bliinds2_state_new,
  .state_free = bliinds2_state_free,
  .score = bliinds2_score,
};
