/* BLIINDS-II (Saad, Bovik, Charrier, IEEE TIP 21(8) 2012): the constants,
 * the resolution-independent tables and the prediction model, shared by the
 * CPU and CUDA backends (the per-frame feature code is in each backend).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The metric follows the reference `bliinds2_feature_extraction.m` and
 * `bliinds_prediction.m` (docs/reference/metrics-bliinds2.md): 24 features from the
 * 5x5 block DCTs of three scales, then the predicted LIVE DMOS of a
 * multivariate generalized Gaussian model.  Double precision throughout.
 */
#ifndef SHARPNESS_BLIINDS2_MODEL_H
#define SHARPNESS_BLIINDS2_MODEL_H


#ifdef __cplusplus
extern "C" {
#endif

#define SHARPNESS_BLIINDS2_N_SCALES 3
#define SHARPNESS_BLIINDS2_N_FEATURES 24
/* Smallest frame whose third scale still has a pixel. */
#define SHARPNESS_BLIINDS2_MIN_SIZE 4

/* The four per-block values, in feature order.  Each is pooled into two
 * features: the mean, and the mean of the first ceil(n/10) values sorted
 * in the direction SHARPNESS_BLIINDS2_MAP_DESCENDING gives. */
typedef enum
{
  SHARPNESS_BLIINDS2_ZETA,              /* DCT coefficient of variation */
  SHARPNESS_BLIINDS2_GAMMA,             /* generalized Gaussian shape */
  SHARPNESS_BLIINDS2_ENERGY,            /* subband energy ratio */
  SHARPNESS_BLIINDS2_ORIENTATION,       /* variance over three orientations */
  SHARPNESS_BLIINDS2_N_MAPS
} SharpnessBliinds2Map;

/* Top 10% of zeta, energy, orientation; bottom 10% of gamma. */
#define SHARPNESS_BLIINDS2_MAP_DESCENDING {1, 0, 1, 1}

/* Blocks: 5x5 windows at stride 3 (blkproc (I, [3 3], [1 1])). */
#define SHARPNESS_BLIINDS2_BLOCK 5
#define SHARPNESS_BLIINDS2_STEP 3

/* Coefficient sets, as indices 5 * col + row (0-based, MATLAB's
 * column-major x(:) order, so the AC coefficients are x[1..24]) into the
 * 5x5 DCT block: the spec's 1-based (row, col) lists, in their order. */
#define SHARPNESS_BLIINDS2_ORIENT1 {5, 10, 15, 20, 11, 16, 21, 22}
#define SHARPNESS_BLIINDS2_ORIENT2 {6, 12, 17, 13, 18, 23, 19, 24}
#define SHARPNESS_BLIINDS2_ORIENT3 {1, 2, 3, 4, 7, 8, 9, 14}
#define SHARPNESS_BLIINDS2_BAND1 {5, 1, 10, 2, 6}
#define SHARPNESS_BLIINDS2_BAND2 {3, 4, 7, 8, 9, 11, 12, 13, 15, 16, 17, 20, 21}
#define SHARPNESS_BLIINDS2_BAND3 {22, 18, 14, 23, 19, 24}

/* Shape grid g_j = 0.03 + 0.001 j (MATLAB 0.03:0.001:10), as the exact
 * decimals (30 + j) / 1000; a rho outside the table gives 11. */
#define SHARPNESS_BLIINDS2_GAMMA_COUNT 9971
#define SHARPNESS_BLIINDS2_GAMMA_NOT_FOUND 11.0

/* Resolution-independent tables. */
typedef struct
{
  /* Orthonormal DCT-II matrix: dct[k][n] = a_k cos (pi (2n + 1) k / 10). */
  double dct[SHARPNESS_BLIINDS2_BLOCK][SHARPNESS_BLIINDS2_BLOCK];
  /* r(g_j) = G(1/g) G(3/g) / G(2/g)^2, strictly falling in j. */
  double gamma_ratio[SHARPNESS_BLIINDS2_GAMMA_COUNT];
  /* fspecial ('gaussian', 3, 0.5): exp (-(x^2 + y^2) / 0.5), normalised;
   * the low-pass applied before each 2:1 decimation. */
  double gaussian[3][3];
} SharpnessBliinds2Tables;

void sharpness_bliinds2_tables_init (SharpnessBliinds2Tables * tables);

/* g_j of the first j with r(j) >= @rho > r(j + 1), else 11 (NaN included). */
double sharpness_bliinds2_gamma_lookup (const SharpnessBliinds2Tables * tables,
    double rho);

/* Multivariate generalized Gaussian over [24 features, DMOS]. */
#define SHARPNESS_BLIINDS2_MODEL_DIM (SHARPNESS_BLIINDS2_N_FEATURES + 1)
typedef struct
{
  double b;
  double gamma;
  double mu[SHARPNESS_BLIINDS2_MODEL_DIM];
  double sigma_inv[SHARPNESS_BLIINDS2_MODEL_DIM][SHARPNESS_BLIINDS2_MODEL_DIM];
} SharpnessBliinds2Model;

/* The `live_*` model of the release's parameters_from_training.mat
 * (trained on all of LIVE), full precision, not the 4-decimal copy in
 * bliinds_prediction.m. */
extern const SharpnessBliinds2Model sharpness_bliinds2_live_model;

/* Predicted DMOS in {0, 0.5, .., 99} (d - 1 at the best of the 199 grid
 * points d = 1, 1.5, .., 100, the reference's off-by-one): higher is worse. */
double sharpness_bliinds2_predict (const SharpnessBliinds2Model * model,
    const double features[SHARPNESS_BLIINDS2_N_FEATURES]);

#ifdef __cplusplus
}
#endif
#endif /* SHARPNESS_BLIINDS2_MODEL_H */
