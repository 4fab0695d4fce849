/* The tests' one frame-layout helper: test frames in every sample layout
 * the backends read, with stride padding and unused bytes filled with
 * garbage.  Used by the CPU tests and benchmarks (and meant for the CUDA
 * ones); link `test_common_dep` (tests/common/meson.build).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef TEST_FRAME_H
#define TEST_FRAME_H

#include <stddef.h>
#include <stdint.h>

#include "sharpness-plane.h"

typedef struct
{
  const char *name;
  SharpnessSamples samples;
  int pixel_stride;
  int depth, shift;
  int offset_r, offset_g, offset_b;
} TestLayout;

/* Y8 (also with a pixel stride of 2), Y16LE as GRAY16_LE, I420_10LE,
 * I420_12LE and P010_10LE, RGB8 as RGB, BGR, RGBx, BGRx, xRGB, ABGR. */
extern const TestLayout test_layouts[];
extern const int test_n_layouts;

/* Looks a layout up by name ("GRAY8" is an alias of "Y8"); NULL if
 * unknown. */
const TestLayout *test_layout_find (const char *name);

/* The plane of @layout over @data (@height rows of @stride bytes). */
SharpnessPlane test_layout_plane (const TestLayout * layout,
    const uint8_t * data, size_t stride, int width, int height);

/* Bytes from the first byte of such a plane to the end of its last
 * sample (what a copy of the frame must hold). */
size_t test_layout_extent (const TestLayout * layout, size_t stride,
    int width, int height);

typedef struct
{
  SharpnessPlane plane;
  uint8_t *mem;
  size_t size;
} TestFrame;

/* A @width x @height frame of @layout whose rows are @pad bytes longer than
 * the pixels; every byte starts as @fill.  The allocation ends right after
 * the last pixel, so reading past it is caught by valgrind.  Aborts when
 * out of memory. */
void test_frame_init (TestFrame * f, const TestLayout * layout, int width,
    int height, size_t pad, uint8_t fill);
void test_frame_clear (TestFrame * f);

/* Sets the raw sample of a Y8 or Y16LE pixel. */
void test_frame_set_raw (TestFrame * f, int x, int y, unsigned raw);
/* Sets the three colour bytes of an RGB8 pixel (not the x/alpha byte). */
void test_frame_set_rgb (TestFrame * f, int x, int y, unsigned r, unsigned g,
    unsigned b);
/* Sets a pixel whose gray value is @gray in any layout: the sample @gray
 * scaled up to the layout's depth, or R = G = B = @gray. */
void test_frame_set_gray (TestFrame * f, int x, int y, uint8_t gray);

/* Sets every padding byte (after the last pixel of each row but the last)
 * to @fill; returns how many there are. */
size_t test_frame_fill_padding (TestFrame * f, uint8_t fill);

/* Gray value of pixel (x, y) through the shared conversion. */
static inline uint8_t
test_frame_gray (const SharpnessPlane * p, int x, int y)
{
  return sharpness_plane_gray_at (p, p->data + (size_t) y * p->stride, x);
}

#endif /* TEST_FRAME_H */
