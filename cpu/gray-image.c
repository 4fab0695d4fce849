/* The gray image of a plane as doubles.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gray-image.h"

#include "gray-rows.h"

SharpnessStatus
sharpness_cpu_gray_image (SharpnessCpu * cpu, const SharpnessPlane * plane,
    double *out)
{
  SharpnessGrayRows rows;
  SharpnessStatus st = sharpness_gray_rows_init (&rows, cpu, plane, 1);

  if (st != SHARPNESS_OK)
    return st;
  for (int y = 0; y < plane->height; y++) {
    const uint8_t *g = sharpness_gray_rows_get (&rows, y);
    double *dst = out + (size_t) y * plane->width;
    for (int x = 0; x < plane->width; x++)
      dst[x] = g[x];
  }
  return SHARPNESS_OK;
}
