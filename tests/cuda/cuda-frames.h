/* Synthetic frames for the CUDA backend's tests and benchmark.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CUDA_FRAMES_H
#define CUDA_FRAMES_H

#include <stddef.h>
#include <stdint.h>

#include "sharpness-plane.h"

/* A sample layout as the element describes it (gst/common/sharpness-frame.c).
 * The packed 4:2:2 formats: UYVY and YUY2 as Y8 with a pixel stride of 2,
 * their luma at byte offset_y of each pixel (the plane starts there), and
 * v210 (SHARPNESS_SAMPLES_V210, pixel_stride unused). */
typedef struct
{
  const char *name;
  SharpnessSamples samples;
  int pixel_stride;
  int depth, shift;
  int offset_r, offset_g, offset_b;
  int offset_y;
} FrameLayout;

extern const FrameLayout frame_layouts[];
extern const int frame_layout_count;

/* Looks a layout up by name; NULL if unknown. */
const FrameLayout *frame_layout_find (const char *name);

typedef enum
{
  FRAME_RANDOM,                 /* every byte uniform, samples unrestricted */
  FRAME_NATURAL,                /* smooth shading, edges and mild noise */
  FRAME_EXTREME                 /* every sample at its minimum or maximum */
} FrameContent;

const char *frame_content_name (FrameContent content);

/* xoshiro-style generator: small, fast, reproducible from a seed. */
typedef struct
{
  uint64_t s[2];
} FrameRng;

void frame_rng_seed (FrameRng * rng, uint64_t seed);
uint64_t frame_rng_next (FrameRng * rng);

/* Bytes of a row up to the last sample of its last pixel (packed 4:2:2:
 * whole pairs or groups, from the row's first byte). */
size_t frame_row_bytes (const FrameLayout * layout, int width);

/* Plane of @layout over the frame whose first byte is @data (packed 4:2:2:
 * the plane's data is @data + offset_y). */
SharpnessPlane frame_plane (const FrameLayout * layout, const uint8_t * data,
    size_t stride, int width, int height);

/* Fills @data (height rows of @stride bytes; bytes between rows included)
 * with @content; padding and unused bytes are random. */
void frame_fill (uint8_t * data, size_t stride, const FrameLayout * layout,
    int width, int height, FrameContent content, FrameRng * rng);

/* Bytes from the first byte of @plane to the end of its last sample. */
size_t frame_plane_extent (const FrameLayout * layout, size_t stride,
    int width, int height);

#endif /* CUDA_FRAMES_H */
