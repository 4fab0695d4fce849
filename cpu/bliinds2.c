/* BLIINDS-II on the CPU backend: predicted LIVE DMOS of a frame.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "sharpness-cpu-private.h"
#include "bliinds2.h"

static void
bliinds2_state_free (void *data)
{
  sharpness_bliinds2_free (data);
}

SharpnessStatus
sharpness_cpu_bliinds2_score (SharpnessCpu * cpu, const SharpnessPlane * plane,
    double *score)
{
  SharpnessBliinds2 *b = cpu->state[SHARPNESS_METRIC_BLIINDS2].data;
  double features[SHARPNESS_BLIINDS2_N_FEATURES];

  if (plane->width < SHARPNESS_BLIINDS2_MIN_SIZE ||
      plane->height < SHARPNESS_BLIINDS2_MIN_SIZE)
    return SHARPNESS_ERROR_UNSUPPORTED;

  /* Scratch per resolution: rebuilt only when the frame size changes. */
  if (!sharpness_bliinds2_has_size (b, plane->width, plane->height)) {
    sharpness_cpu_set_state (cpu, SHARPNESS_METRIC_BLIINDS2, NULL, NULL);
    b = sharpness_bliinds2_new (plane->width, plane->height);
    if (!b)
      return SHARPNESS_ERROR_NO_MEMORY;
    sharpness_cpu_set_state (cpu, SHARPNESS_METRIC_BLIINDS2, b,
        bliinds2_state_free);
  }

  SharpnessStatus st = sharpness_bliinds2_features (b, plane, features);
  if (st != SHARPNESS_OK)
    return st;
  *score = sharpness_bliinds2_predict (&sharpness_bliinds2_live_model,
      features);
  return SHARPNESS_OK;
}
