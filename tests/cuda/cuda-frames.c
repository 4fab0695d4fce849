/* Synthetic frames for the CUDA backend's tests and benchmark.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "cuda-frames.h"

#include <math.h>
#include <string.h>

const FrameLayout frame_layouts[] = {
  {"GRAY8", SHARPNESS_SAMPLES_Y8, 1, 8, 0, 0, 0, 0},
  {"GRAY16_LE", SHARPNESS_SAMPLES_Y16LE, 2, 16, 0, 0, 0, 0},
  {"I420_10LE", SHARPNESS_SAMPLES_Y16LE, 2, 10, 0, 0, 0, 0},
  {"P010_10LE", SHARPNESS_SAMPLES_Y16LE, 2, 10, 6, 0, 0, 0},
  {"RGB", SHARPNESS_SAMPLES_RGB8, 3, 8, 0, 0, 1, 2},
  {"BGR", SHARPNESS_SAMPLES_RGB8, 3, 8, 0, 2, 1, 0},
  {"RGBx", SHARPNESS_SAMPLES_RGB8, 4, 8, 0, 0, 1, 2},
  {"xRGB", SHARPNESS_SAMPLES_RGB8, 4, 8, 0, 1, 2, 3},
  {"BGRA", SHARPNESS_SAMPLES_RGB8, 4, 8, 0, 2, 1, 0},
  {"ABGR", SHARPNESS_SAMPLES_RGB8, 4, 8, 0, 3, 2, 1},
  {"UYVY", SHARPNESS_SAMPLES_Y8, 2, 8, 0, 0, 0, 0, 1},
  {"YUY2", SHARPNESS_SAMPLES_Y8, 2, 8, 0, 0, 0, 0, 0},
  {"v210", SHARPNESS_SAMPLES_V210, 0, 10, 0, 0, 0, 0},
};

/* Packed 4:2:2 with 8-bit samples: pairs of pixels in 4 bytes. */
static int
is_packed_pairs (const FrameLayout * layout)
{
  return layout->samples == SHARPNESS_SAMPLES_Y8 && layout->pixel_stride == 2;
}

const int frame_layout_count = sizeof frame_layouts / sizeof frame_layouts[0];

const FrameLayout *
frame_layout_find (const char *name)
{
  for (int i = 0; i < frame_layout_count; i++)
    if (strcmp (frame_layouts[i].name, name) == 0)
      return &frame_layouts[i];
  return NULL;
}

const char *
frame_content_name (FrameContent content)
{
  switch (content) {
    case FRAME_RANDOM:
      return "random";
    case FRAME_NATURAL:
      return "natural";
    case FRAME_EXTREME:
      return "extreme";
  }
  return "?";
}

void
frame_rng_seed (FrameRng * rng, uint64_t seed)
{
  /* splitmix64 spreads any seed over both words. */
  for (int i = 0; i < 2; i++) {
    uint64_t z = (seed += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    rng->s[i] = z ^ (z >> 31);
  }
  if (!rng->s[0] && !rng->s[1])
    rng->s[0] = 1;
}

uint64_t
frame_rng_next (FrameRng * rng)
{
  /* xorshift128+ */
  uint64_t s1 = rng->s[0];
  const uint64_t s0 = rng->s[1];
  rng->s[0] = s0;
  s1 ^= s1 << 23;
  rng->s[1] = s1 ^ s0 ^ (s1 >> 17) ^ (s0 >> 26);
  return rng->s[1] + s0;
}

size_t
frame_row_bytes (const FrameLayout * layout, int width)
{
  if (layout->samples == SHARPNESS_SAMPLES_V210)
    return (size_t) ((width + 5) / 6) * 16;
  if (is_packed_pairs (layout))
    return ((size_t) width + 1) / 2 * 4;

  int last = 1;
  if (layout->samples == SHARPNESS_SAMPLES_Y16LE)
    last = 2;
  else if (layout->samples == SHARPNESS_SAMPLES_RGB8)
    last = layout->pixel_stride;
  return (size_t) (width - 1) * layout->pixel_stride + last;
}

size_t
frame_plane_extent (const FrameLayout * layout, size_t stride, int width,
    int height)
{
  return (size_t) (height - 1) * stride + frame_row_bytes (layout, width);
}

SharpnessPlane
frame_plane (const FrameLayout * layout, const uint8_t * data, size_t stride,
    int width, int height)
{
  SharpnessPlane p = {
    .samples = layout->samples,
    .data = data ? data + layout->offset_y : NULL,
    .stride = stride,
    .width = width,
    .height = height,
    .pixel_stride = layout->pixel_stride,
    .depth = layout->depth,
    .shift = layout->shift,
    .offset_r = layout->offset_r,
    .offset_g = layout->offset_g,
    .offset_b = layout->offset_b,
  };
  return p;
}

/* Writes the 10-bit luma of pixel @x of a v210 row: slot 2 (x % 6) + 1 of
 * its group, the slots packed three to a little-endian word from bit 0
 * (written out independently of core/sharpness-plane.h). */
static void
v210_set_luma (uint8_t * row, int x, unsigned v)
{
  const int slot = 2 * (x % 6) + 1;
  uint8_t *w = row + (size_t) (x / 6) * 16 + 4 * (slot / 3);
  const int shift = 10 * (slot % 3);
  uint32_t u = w[0] | ((uint32_t) w[1] << 8) | ((uint32_t) w[2] << 16) |
      ((uint32_t) w[3] << 24);

  u = (u & ~(0x3ffu << shift)) | ((v & 0x3ffu) << shift);
  for (int k = 0; k < 4; k++)
    w[k] = (uint8_t) (u >> (8 * k));
}

/* Intensity 0..255 of a "natural" frame: shading, a few hard edges, noise. */
static double
natural_level (int x, int y, double phase, FrameRng * rng)
{
  double v = 120.0 + 60.0 * sin (x * 0.031 + phase) * cos (y * 0.023 - phase);
  v += ((x / 37 + y / 53) & 1) ? 35.0 : -35.0;
  v += (double) (frame_rng_next (rng) % 13) - 6.0;
  return v < 0.0 ? 0.0 : v > 255.0 ? 255.0 : v;
}

static unsigned
sample_value (FrameContent content, unsigned max, double level, FrameRng * rng)
{
  switch (content) {
    case FRAME_RANDOM:
      return (unsigned) (frame_rng_next (rng) % ((uint64_t) max + 1));
    case FRAME_EXTREME:
      return (frame_rng_next (rng) & 1) ? max : 0;
    case FRAME_NATURAL:
    default:
      return (unsigned) (level * max / 255.0 + 0.5);
  }
}

void
frame_fill (uint8_t * data, size_t stride, const FrameLayout * layout,
    int width, int height, FrameContent content, FrameRng * rng)
{
  const double phase = (double) (frame_rng_next (rng) % 1000) / 100.0;
  const size_t extent = frame_plane_extent (layout, stride, width, height);

  /* Padding, alpha and unused bits stay random: a kernel that reads them
   * as samples gets caught. */
  for (size_t i = 0; i < extent; i += 8) {
    uint64_t r = frame_rng_next (rng);
    size_t n = extent - i < 8 ? extent - i : 8;
    memcpy (data + i, &r, n);
  }

  for (int y = 0; y < height; y++) {
    uint8_t *row = data + (size_t) y * stride;
    for (int x = 0; x < width; x++) {
      uint8_t *px = row + (size_t) x * layout->pixel_stride;
      const double level = content == FRAME_NATURAL ?
          natural_level (x, y, phase, rng) : 0.0;

      switch (layout->samples) {
        case SHARPNESS_SAMPLES_Y8:
          px[layout->offset_y] = (uint8_t) sample_value (content, 255, level,
              rng);
          break;
        case SHARPNESS_SAMPLES_V210:
          /* Random content: the random bytes, top bits of words too. */
          if (content != FRAME_RANDOM)
            v210_set_luma (row, x, sample_value (content, 1023, level, rng));
          break;
        case SHARPNESS_SAMPLES_Y16LE:{
          unsigned v;
          if (content == FRAME_RANDOM) {
            /* All 16 bits, also those outside depth/shift. */
            v = (unsigned) (frame_rng_next (rng) & 0xffff);
          } else {
            v = sample_value (content, (1u << layout->depth) - 1, level, rng)
                << layout->shift;
          }
          px[0] = (uint8_t) (v & 0xff);
          px[1] = (uint8_t) (v >> 8);
          break;
        }
        case SHARPNESS_SAMPLES_RGB8:{
          /* Channels apart, so that their offsets matter. */
          double l = level;
          px[layout->offset_r] = (uint8_t) sample_value (content, 255,
              l > 215 ? 255 : l + 40, rng);
          px[layout->offset_g] = (uint8_t) sample_value (content, 255, l, rng);
          px[layout->offset_b] = (uint8_t) sample_value (content, 255,
              255 - l, rng);
          break;
        }
      }
    }
  }
}
