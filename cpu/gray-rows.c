/* Row converters from the plane layouts to 8-bit gray, and the ring they
 * write into.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "gray-rows.h"

#include <stdlib.h>

#include "classical-simd.h"

/* Each layout has one loop, inlined with the usual pixel strides as
 * constants so that the compiler vectorises the strided loads, and once
 * with the stride as a variable for anything else. */

static SHARPNESS_ALWAYS_INLINE void
convert_y8 (const SharpnessPlane * p, const uint8_t * restrict src,
    uint8_t * restrict dst, size_t ps)
{
  for (int x = 0; x < p->width; x++)
    dst[x] = src[x * ps];
}

static SHARPNESS_ALWAYS_INLINE void
convert_y16 (const SharpnessPlane * p, const uint8_t * restrict src,
    uint8_t * restrict dst, size_t ps)
{
  const int depth = p->depth, shift = p->shift;

  for (int x = 0; x < p->width; x++) {
    const uint8_t *px = src + x * ps;
    dst[x] = sharpness_gray_from_y16 (px[0] | ((unsigned) px[1] << 8),
        depth, shift);
  }
}

static SHARPNESS_ALWAYS_INLINE void
convert_rgb (const SharpnessPlane * p, const uint8_t * restrict src,
    uint8_t * restrict dst, size_t ps)
{
  const uint8_t *r = src + p->offset_r;
  const uint8_t *g = src + p->offset_g;
  const uint8_t *b = src + p->offset_b;

  for (int x = 0; x < p->width; x++)
    dst[x] = sharpness_gray_from_rgb (r[x * ps], g[x * ps], b[x * ps]);
}

static void
gray_from_y8_any (const SharpnessPlane * p, const uint8_t * src, uint8_t * dst)
{
  convert_y8 (p, src, dst, p->pixel_stride);
}

SHARPNESS_SIMD_CLONES static void
gray_from_y16_2 (const SharpnessPlane * p, const uint8_t * src, uint8_t * dst)
{
  convert_y16 (p, src, dst, 2);
}

SHARPNESS_SIMD_CLONES static void
gray_from_y16_any (const SharpnessPlane * p, const uint8_t * src, uint8_t * dst)
{
  convert_y16 (p, src, dst, p->pixel_stride);
}

SHARPNESS_SIMD_CLONES static void
gray_from_rgb_3 (const SharpnessPlane * p, const uint8_t * src, uint8_t * dst)
{
  convert_rgb (p, src, dst, 3);
}

SHARPNESS_SIMD_CLONES static void
gray_from_rgb_4 (const SharpnessPlane * p, const uint8_t * src, uint8_t * dst)
{
  convert_rgb (p, src, dst, 4);
}

SHARPNESS_SIMD_CLONES static void
gray_from_rgb_any (const SharpnessPlane * p, const uint8_t * src, uint8_t * dst)
{
  convert_rgb (p, src, dst, p->pixel_stride);
}

static SharpnessGrayRowFunc
pick_converter (const SharpnessPlane * p)
{
  switch (p->samples) {
    case SHARPNESS_SAMPLES_Y8:
      return p->pixel_stride == 1 ? NULL : gray_from_y8_any;
    case SHARPNESS_SAMPLES_Y16LE:
      return p->pixel_stride == 2 ? gray_from_y16_2 : gray_from_y16_any;
    case SHARPNESS_SAMPLES_RGB8:
      switch (p->pixel_stride) {
        case 3:
          return gray_from_rgb_3;
        case 4:
          return gray_from_rgb_4;
        default:
          return gray_from_rgb_any;
      }
  }
  return NULL;
}

static int
plane_layout_is_valid (const SharpnessPlane * p)
{
  switch (p->samples) {
    case SHARPNESS_SAMPLES_Y8:
      return 1;
    case SHARPNESS_SAMPLES_Y16LE:
      return p->pixel_stride >= 2 && p->depth >= 1 && p->depth <= 16 &&
          p->shift >= 0 && p->depth + p->shift <= 16;
    case SHARPNESS_SAMPLES_RGB8:
      return p->offset_r >= 0 && p->offset_r < p->pixel_stride &&
          p->offset_g >= 0 && p->offset_g < p->pixel_stride &&
          p->offset_b >= 0 && p->offset_b < p->pixel_stride;
  }
  return 0;
}

SharpnessStatus
sharpness_gray_rows_init (SharpnessGrayRows * rows, SharpnessCpu * cpu,
    const SharpnessPlane * plane, int ring_rows)
{
  if (!plane_layout_is_valid (plane))
    return SHARPNESS_ERROR_INVALID;

  rows->plane = plane;
  rows->convert = pick_converter (plane);
  rows->ring = NULL;
  rows->ring_rows = ring_rows;
  /* Cache-line aligned rows: two rows never share a line. */
  rows->ring_stride = ((size_t) plane->width + 63) & ~(size_t) 63;
  if (!rows->convert)
    return SHARPNESS_OK;

  size_t size = rows->ring_stride * (size_t) ring_rows;
  if (cpu->gray_rows_size < size) {
    /* The old rows hold nothing worth keeping: no realloc copy. */
    free (cpu->gray_rows);
    cpu->gray_rows = malloc (size);
    cpu->gray_rows_size = cpu->gray_rows ? size : 0;
    if (!cpu->gray_rows)
      return SHARPNESS_ERROR_NO_MEMORY;
  }
  rows->ring = cpu->gray_rows;
  return SHARPNESS_OK;
}
