/* Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "test-packed422.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *
test_packed_name (TestPackedFormat format)
{
  switch (format) {
    case TEST_PACKED_UYVY:
      return "UYVY";
    case TEST_PACKED_YUY2:
      return "YUY2";
    case TEST_PACKED_V210:
      return "v210";
    default:
      return "?";
  }
}

const char *
test_luma_name (TestLumaContent content)
{
  switch (content) {
    case TEST_LUMA_RANDOM:
      return "random";
    case TEST_LUMA_NATURAL:
      return "natural";
    case TEST_LUMA_EXTREME:
      return "extreme";
    default:
      return "?";
  }
}

size_t
test_packed_stride (TestPackedFormat format, int width)
{
  if (format == TEST_PACKED_V210)
    return (size_t) ((width + 47) / 48) * 128;
  return (((size_t) width + 1) / 2 * 4 + 3) & ~(size_t) 3;
}

size_t
test_packed_row_bytes (TestPackedFormat format, int width)
{
  if (format == TEST_PACKED_V210)
    return (size_t) ((width + 5) / 6) * 16;
  return ((size_t) width + 1) / 2 * 4;
}

static void *
alloc_random (size_t size, TestRng * rng)
{
  uint8_t *mem = malloc (size ? size : 1);

  if (!mem) {
    fprintf (stderr, "out of memory for a test frame of %zu bytes\n", size);
    abort ();
  }
  for (size_t i = 0; i < size; i++)
    mem[i] = (uint8_t) test_rng_u32 (rng);
  return mem;
}

void
test_packed422_init (TestPacked422 * f, TestPackedFormat format, int width,
    int height, size_t pad, TestRng * rng)
{
  const int sample_bytes = format == TEST_PACKED_V210 ? 2 : 1;

  f->format = format;
  f->width = width;
  f->height = height;
  f->stride = test_packed_stride (format, width) + pad;
  f->size = f->stride * (size_t) (height - 1) + test_packed_row_bytes (format,
      width);
  f->mem = alloc_random (f->size, rng);
  f->planar_stride = (size_t) width * sample_bytes + pad;
  f->planar_size = f->planar_stride * (size_t) (height - 1) +
      (size_t) width * sample_bytes;
  f->planar_mem = alloc_random (f->planar_size, rng);
}

void
test_packed422_clear (TestPacked422 * f)
{
  free (f->mem);
  free (f->planar_mem);
  f->mem = f->planar_mem = NULL;
}

void
test_packed422_set_luma (TestPacked422 * f, int x, int y, unsigned v)
{
  uint8_t *row = f->mem + (size_t) y * f->stride;
  uint8_t *prow = f->planar_mem + (size_t) y * f->planar_stride;

  switch (f->format) {
    case TEST_PACKED_UYVY:
      row[2 * x + 1] = (uint8_t) v;
      prow[x] = (uint8_t) v;
      break;
    case TEST_PACKED_YUY2:
      row[2 * x] = (uint8_t) v;
      prow[x] = (uint8_t) v;
      break;
    case TEST_PACKED_V210:{
      /* The layout written out as GStreamer's pack_v210 does, slot by
       * slot, independently of sharpness-plane.h's arithmetic. */
      static const int word[6] = { 0, 1, 1, 2, 3, 3 };
      static const int shift[6] = { 10, 0, 20, 10, 0, 20 };
      uint8_t *w = row + (size_t) (x / 6) * 16 + 4 * word[x % 6];
      uint32_t u = w[0] | ((uint32_t) w[1] << 8) | ((uint32_t) w[2] << 16) |
          ((uint32_t) w[3] << 24);
      u = (u & ~(0x3ffu << shift[x % 6])) | ((v & 0x3ffu) << shift[x % 6]);
      for (int k = 0; k < 4; k++)
        w[k] = (uint8_t) (u >> (8 * k));
      prow[2 * x] = (uint8_t) (v & 0xff);
      prow[2 * x + 1] = (uint8_t) ((v >> 8) & 0x3);
      break;
    }
    default:
      abort ();
  }
}

/* 0..255: a triangle-wave ramp, blocks with hard edges, mild noise. */
static unsigned
natural_level (int x, int y, TestRng * rng)
{
  int v = (x * 5 + y * 3) % 512;
  v = v < 256 ? v : 511 - v;
  v = 64 + v / 2 + (((x / 37 + y / 53) & 1) ? 35 : -35);
  v += (int) (test_rng_u32 (rng) % 13) - 6;
  return v < 0 ? 0 : v > 255 ? 255 : (unsigned) v;
}

void
test_packed422_fill (TestPacked422 * f, TestLumaContent content,
    TestRng * rng)
{
  const unsigned max = f->format == TEST_PACKED_V210 ? 1023 : 255;

  for (int y = 0; y < f->height; y++)
    for (int x = 0; x < f->width; x++) {
      unsigned v;
      switch (content) {
        case TEST_LUMA_RANDOM:
          v = test_rng_u32 (rng) % (max + 1);
          break;
        case TEST_LUMA_EXTREME:
          v = test_rng_u32 (rng) & 1 ? max : 0;
          break;
        case TEST_LUMA_NATURAL:
        default:
          v = natural_level (x, y, rng);
          /* Random low bits: the rounding to 8 bits is exercised. */
          if (max == 1023)
            v = 4 * v + test_rng_u32 (rng) % 4;
          break;
      }
      test_packed422_set_luma (f, x, y, v);
    }
}

SharpnessPlane
test_packed422_plane (const TestPacked422 * f, const uint8_t * data)
{
  SharpnessPlane p = {
    .samples = SHARPNESS_SAMPLES_Y8,
    .data = data,
    .stride = f->stride,
    .width = f->width,
    .height = f->height,
    .pixel_stride = 2,
  };

  if (f->format == TEST_PACKED_UYVY) {
    p.data = data + 1;
  } else if (f->format == TEST_PACKED_V210) {
    p.samples = SHARPNESS_SAMPLES_V210;
    p.pixel_stride = 0;
  }
  return p;
}

SharpnessPlane
test_packed422_planar_plane (const TestPacked422 * f,
    const uint8_t * planar_data)
{
  SharpnessPlane p = {
    .samples = SHARPNESS_SAMPLES_Y8,
    .data = planar_data,
    .stride = f->planar_stride,
    .width = f->width,
    .height = f->height,
    .pixel_stride = 1,
  };

  if (f->format == TEST_PACKED_V210) {
    p.samples = SHARPNESS_SAMPLES_Y16LE;
    p.pixel_stride = 2;
    p.depth = 10;
    p.shift = 0;
  }
  return p;
}
