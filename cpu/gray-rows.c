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

/* The luma bytes of packed 4:2:2 (UYVY, YUY2): every other byte. */
SHARPNESS_SIMD_CLONES static void
gray_from_y8_2 (const SharpnessPlane * p, const uint8_t * src, uint8_t * dst)
{
  convert_y8 (p, src, dst, 2);
}

/* v210, @n whole groups.  Read as pairs of words, the luma sits the same
 * way in every pair (Y0 | Y1 Y2, then Y3 | Y4 Y5 of a group): bits 10-19
 * of the first word, bits 0-9 and 20-29 of the second.  A loop over pairs
 * (two loads in, three bytes out) is one the compiler vectorises; one over
 * groups of four words and six bytes it does not. */
SHARPNESS_SIMD_CLONES static void
convert_v210_groups (const uint8_t * restrict src, uint8_t * restrict dst,
    int n)
{
  for (int m = 0; m < 2 * n; m++) {
    const uint32_t a = sharpness_load_le32 (src + 8 * m);
    const uint32_t b = sharpness_load_le32 (src + 8 * m + 4);
    dst[3 * m] = sharpness_gray_from_v210 (a, 10);
    dst[3 * m + 1] = sharpness_gray_from_v210 (b, 0);
    dst[3 * m + 2] = sharpness_gray_from_v210 (b, 20);
  }
}

/* The whole groups through convert_v210_groups(); the pixels of a group
 * the row starts or ends inside (a plane cropped inside a group, widths
 * that are not a multiple of 6) one by one. */
static void
gray_from_v210 (const SharpnessPlane * p, const uint8_t * src, uint8_t * dst)
{
  const int w = p->width;
  int x = 0;

  /* Column x is pixel x + phase of the row's groups. */
  if (p->phase)
    for (; x < w && x + p->phase < SHARPNESS_V210_GROUP_PIXELS; x++)
      dst[x] = sharpness_plane_gray_at (p, src, x);
  const int first = (x + p->phase) / SHARPNESS_V210_GROUP_PIXELS;
  const int groups = (w - x) / SHARPNESS_V210_GROUP_PIXELS;
  convert_v210_groups (src + (size_t) first * SHARPNESS_V210_GROUP_BYTES,
      dst + x, groups);
  for (x += groups * SHARPNESS_V210_GROUP_PIXELS; x < w; x++)
    dst[x] = sharpness_plane_gray_at (p, src, x);
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
      switch (p->pixel_stride) {
        case 1:
          return NULL;
        case 2:
          return gray_from_y8_2;
        default:
          return gray_from_y8_any;
      }
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
    case SHARPNESS_SAMPLES_V210:
      return gray_from_v210;
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
    case SHARPNESS_SAMPLES_V210:
      return p->phase >= 0 && p->phase < SHARPNESS_V210_GROUP_PIXELS;
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
