/* The gray image of a plane as doubles, for the metrics that work on
 * the whole frame in floating point (LPC-SI, CWTVNRS).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SHARPNESS_GRAY_IMAGE_H
#define SHARPNESS_GRAY_IMAGE_H

#include "sharpness-cpu-private.h"

/* Writes the gray levels of @plane (docs/reference/metrics.md, "Gray image") into
 * @out as doubles in 0..255: width * height values, row-major, no
 * padding.  The conversion is sharpness-plane.h's, through gray-rows.h. */
SharpnessStatus sharpness_cpu_gray_image (SharpnessCpu * cpu,
    const SharpnessPlane * plane, double *out);

#endif /* SHARPNESS_GRAY_IMAGE_H */
