/* The gray image of a plane, one row at a time, for metrics that slide a
 * window of a few rows down the frame.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * 8-bit gray rows are read in place.  Other layouts are converted, one row
 * when it is first asked for, into a ring of a few gray rows kept in
 * SharpnessCpu::gray_rows, with the conversion functions of
 * sharpness-plane.h, so the CPU and CUDA backends see the same gray image.
 * Only the sharpness_plane_row_bytes () of a row are read: the stride
 * padding never is.
 */
#ifndef SHARPNESS_GRAY_ROWS_H
#define SHARPNESS_GRAY_ROWS_H

#include "sharpness-cpu-private.h"

/* Converts the @plane->width samples starting at @src into gray bytes. */
typedef void (*SharpnessGrayRowFunc) (const SharpnessPlane * plane,
    const uint8_t * src, uint8_t * dst);

typedef struct
{
  const SharpnessPlane *plane;
  SharpnessGrayRowFunc convert; /* NULL when rows are read in place */
  uint8_t *ring;
  size_t ring_stride;
  int ring_rows;
} SharpnessGrayRows;

/* Prepares @rows to read @plane keeping the last @ring_rows rows available;
 * grows @cpu's gray rows when the frame is wider than any before. */
SharpnessStatus sharpness_gray_rows_init (SharpnessGrayRows * rows,
    SharpnessCpu * cpu, const SharpnessPlane * plane, int ring_rows);

/* Gray row @y (plane->width bytes).  Ask for each row once, in order: a
 * converted row lands in ring slot y % ring_rows, so the pointers returned
 * for the previous ring_rows - 1 rows stay valid. */
static inline const uint8_t *
sharpness_gray_rows_get (SharpnessGrayRows * rows, int y)
{
  const SharpnessPlane *p = rows->plane;
  const uint8_t *src = p->data + (size_t) y * p->stride;

  if (!rows->convert)
    return src;

  uint8_t *dst = rows->ring + (size_t) (y % rows->ring_rows) * rows->ring_stride;
  rows->convert (p, src, dst);
  return dst;
}

#endif /* SHARPNESS_GRAY_ROWS_H */
