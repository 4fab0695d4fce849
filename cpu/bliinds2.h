/* BLIINDS-II on the CPU: per-block statistics and per-frame features of the
 * reference implementation, shared with its tests.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The metric follows the reference `bliinds2_feature_extraction.m`
 * (docs/reference/metrics-bliinds2.md); constants, tables and the prediction model
 * are in the shared core, core/bliinds2-model.h.
 */
#ifndef SHARPNESS_BLIINDS2_H
#define SHARPNESS_BLIINDS2_H

#include "bliinds2-model.h"
#include "sharpness-plane.h"
#include "sharpness-status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The SHARPNESS_BLIINDS2_N_MAPS values of the 5x5 window whose top-left
 * sample is @window, rows @stride doubles apart. */
void sharpness_bliinds2_block_values (const SharpnessBliinds2Tables * tables,
    const double *window, size_t stride,
    double values[SHARPNESS_BLIINDS2_N_MAPS]);

/* Scratch for one frame size: zero-bordered scale images, block maps and
 * the tables.  Created once per resolution, reused for every frame. */
typedef struct SharpnessBliinds2 SharpnessBliinds2;

/* NULL when out of memory or smaller than SHARPNESS_BLIINDS2_MIN_SIZE. */
SharpnessBliinds2 *sharpness_bliinds2_new (int width, int height);
void sharpness_bliinds2_free (SharpnessBliinds2 * b);
int sharpness_bliinds2_has_size (const SharpnessBliinds2 * b, int width,
    int height);

/* The 24 features of the gray image of @plane (same size as @b): per scale
 * 1, 2, 3: mean zeta, top-10% zeta, mean gamma, bottom-10% gamma, mean
 * energy, top-10% energy, mean orientation, top-10% orientation. */
SharpnessStatus sharpness_bliinds2_features (SharpnessBliinds2 * b,
    const SharpnessPlane * plane,
    double features[SHARPNESS_BLIINDS2_N_FEATURES]);

#ifdef __cplusplus
}
#endif
#endif /* SHARPNESS_BLIINDS2_H */
