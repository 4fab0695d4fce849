/* CWTVNRS (Shao, Zeng, Wang 2017) on the CPU: the frame and a re-blurred
 * copy compared through their LPC and total-variation maps.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The paper publishes no code; docs/reference/metrics-lpc.md lists every choice it
 * leaves open and the one made here.  The metric's descriptor in
 * cwtvnrs.c is what the backend uses; this state and its functions are
 * declared here, apart, so that tests (tests/perceptual/test-lpc-maps.c)
 * can read every intermediate map.
 */
#ifndef SHARPNESS_CPU_CWTVNRS_PRIVATE_H
#define SHARPNESS_CPU_CWTVNRS_PRIVATE_H

#include "lpc-map.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Re-blur: 11 x 11 Gaussian of standard deviation 1 (fspecial
 * ('gaussian', 11, 1)), zero padding, same size (imfilter's default). */
#define SHARPNESS_CWTVNRS_BLUR_RADIUS 5
#define SHARPNESS_CWTVNRS_BLUR_SIGMA 1.0
/* S3 = S1^alpha * S2^(1 - alpha) with alpha = 0.5, taken as
 * sqrt (S1) * sqrt (S2); T of the similarity. */
#define SHARPNESS_CWTVNRS_T 0.1

typedef struct
{
  int width, height;
  SharpnessCpuLpc *lpc;
  /* Normalised 1-D Gaussian: the 2-D kernel is its outer product. */
  double kernel[2 * SHARPNESS_CWTVNRS_BLUR_RADIUS + 1];
  /* width * height values each.  [0]: the frame x, [1]: its re-blurred
   * copy y. */
  double *image[2];
  double *lpc_map[2];           /* S1 */
  double *tv_map[2];            /* S2 */
  double *blur_rows;            /* scratch: the horizontal blur pass */
} SharpnessCpuCwtvnrs;

SharpnessStatus sharpness_cpu_cwtvnrs_new (int width, int height,
    SharpnessCpuCwtvnrs ** out);
void sharpness_cpu_cwtvnrs_free (SharpnessCpuCwtvnrs * cw);

/* Writes image[1] from image[0] (the re-blur). */
void sharpness_cpu_cwtvnrs_reblur (SharpnessCpuCwtvnrs * cw);

/* Score of the frame in image[0]: re-blurs it, fills every map, pools
 * over the LPC centre crop.  In [0, 1); 0 when both S3 maps are 0 there. */
double sharpness_cpu_cwtvnrs_run (SharpnessCpuCwtvnrs * cw);

#ifdef __cplusplus
}
#endif
#endif /* SHARPNESS_CPU_CWTVNRS_PRIVATE_H */
