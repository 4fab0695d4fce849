/* Capture-card test frames: the same luma as packed 4:2:2 (UYVY, YUY2,
 * v210) and as the Y plane of its planar conversion (I422, I422_10LE), so
 * that a test can check that a backend scores both alike.  Chroma, the
 * unused top bits of v210 words, the padding samples of a last v210 group
 * and the stride padding hold random bytes.  Used by the CPU and CUDA
 * tests and benchmarks; part of `test_common_dep`.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef TEST_PACKED422_H
#define TEST_PACKED422_H

#include <stddef.h>
#include <stdint.h>

#include "sharpness-plane.h"
#include "test-rng.h"

typedef enum
{
  TEST_PACKED_UYVY,             /* U0 Y0 V0 Y1, 8-bit */
  TEST_PACKED_YUY2,             /* Y0 U0 Y1 V0, 8-bit */
  TEST_PACKED_V210,             /* 10-bit, 6 pixels in 16 bytes */
  TEST_PACKED_COUNT
} TestPackedFormat;

typedef enum
{
  TEST_LUMA_RANDOM,             /* every sample uniform */
  TEST_LUMA_NATURAL,            /* shading, hard edges, mild noise */
  TEST_LUMA_EXTREME,            /* every sample at its minimum or maximum */
  TEST_LUMA_COUNT
} TestLumaContent;

const char *test_packed_name (TestPackedFormat format);
const char *test_luma_name (TestLumaContent content);

/* The natural stride of a row of @width pixels (GStreamer's: UYVY and YUY2
 * 4-byte aligned pairs, v210 ((width + 47) / 48) * 128). */
size_t test_packed_stride (TestPackedFormat format, int width);

/* Bytes of a packed row that hold pixels: whole pairs, whole groups. */
size_t test_packed_row_bytes (TestPackedFormat format, int width);

typedef struct
{
  TestPackedFormat format;
  int width, height;
  /* The packed frame: @height rows of @stride bytes, the allocation ending
   * right after the last row's last pair or group. */
  uint8_t *mem;
  size_t stride, size;
  /* The Y plane of the planar conversion: Y8, or Y16LE depth 10. */
  uint8_t *planar_mem;
  size_t planar_stride, planar_size;
} TestPacked422;

/* A @width x @height frame of @format whose rows are @pad bytes longer
 * than test_packed_stride() (planar rows: @pad bytes longer than the
 * pixels), filled with random bytes from @rng.  Aborts when out of
 * memory. */
void test_packed422_init (TestPacked422 * f, TestPackedFormat format,
    int width, int height, size_t pad, TestRng * rng);
void test_packed422_clear (TestPacked422 * f);

/* Sets the luma of pixel (x, y), 0..255 (8-bit) or 0..1023 (v210), in both
 * frames. */
void test_packed422_set_luma (TestPacked422 * f, int x, int y, unsigned v);

/* Sets every luma of both frames from @content. */
void test_packed422_fill (TestPacked422 * f, TestLumaContent content,
    TestRng * rng);

/* The planes the backends read: the packed frame's luma (Y8 with a pixel
 * stride of 2 at byte 1 or 0; V210) over @data (@f->mem or a copy of it
 * with the same stride), and the planar Y plane over @planar_data. */
SharpnessPlane test_packed422_plane (const TestPacked422 * f,
    const uint8_t * data);
SharpnessPlane test_packed422_planar_plane (const TestPacked422 * f,
    const uint8_t * planar_data);

#endif /* TEST_PACKED422_H */
