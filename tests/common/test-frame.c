/* Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "test-frame.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const TestLayout test_layouts[] = {
  {"Y8", SHARPNESS_SAMPLES_Y8, 1, 0, 0, 0, 0, 0},
  {"Y8/2", SHARPNESS_SAMPLES_Y8, 2, 0, 0, 0, 0, 0},
  {"GRAY16_LE", SHARPNESS_SAMPLES_Y16LE, 2, 16, 0, 0, 0, 0},
  {"I420_10LE", SHARPNESS_SAMPLES_Y16LE, 2, 10, 0, 0, 0, 0},
  {"I420_12LE", SHARPNESS_SAMPLES_Y16LE, 2, 12, 0, 0, 0, 0},
  {"P010_10LE", SHARPNESS_SAMPLES_Y16LE, 2, 10, 6, 0, 0, 0},
  {"RGB", SHARPNESS_SAMPLES_RGB8, 3, 0, 0, 0, 1, 2},
  {"BGR", SHARPNESS_SAMPLES_RGB8, 3, 0, 0, 2, 1, 0},
  {"RGBx", SHARPNESS_SAMPLES_RGB8, 4, 0, 0, 0, 1, 2},
  {"BGRx", SHARPNESS_SAMPLES_RGB8, 4, 0, 0, 2, 1, 0},
  {"xRGB", SHARPNESS_SAMPLES_RGB8, 4, 0, 0, 1, 2, 3},
  {"ABGR", SHARPNESS_SAMPLES_RGB8, 4, 0, 0, 3, 2, 1},
};

const int test_n_layouts = sizeof test_layouts / sizeof test_layouts[0];

const TestLayout *
test_layout_find (const char *name)
{
  if (strcmp (name, "GRAY8") == 0)
    name = "Y8";
  for (int i = 0; i < test_n_layouts; i++)
    if (strcmp (test_layouts[i].name, name) == 0)
      return &test_layouts[i];
  return NULL;
}

SharpnessPlane
test_layout_plane (const TestLayout * l, const uint8_t * data, size_t stride,
    int width, int height)
{
  SharpnessPlane p = {
    .samples = l->samples,
    .data = data,
    .stride = stride,
    .width = width,
    .height = height,
    .pixel_stride = l->pixel_stride,
    .depth = l->depth,
    .shift = l->shift,
    .offset_r = l->offset_r,
    .offset_g = l->offset_g,
    .offset_b = l->offset_b,
  };
  return p;
}

size_t
test_layout_extent (const TestLayout * l, size_t stride, int width,
    int height)
{
  SharpnessPlane p = test_layout_plane (l, NULL, stride, width, height);

  return (size_t) (height - 1) * stride + sharpness_plane_row_bytes (&p);
}

void
test_frame_init (TestFrame * f, const TestLayout * l, int width, int height,
    size_t pad, uint8_t fill)
{
  size_t row = (size_t) width * l->pixel_stride;

  f->plane = test_layout_plane (l, NULL, row + pad, width, height);
  f->size = (row + pad) * (size_t) (height - 1) + row;
  f->mem = malloc (f->size);
  if (!f->mem) {
    fprintf (stderr, "out of memory for a %dx%d frame\n", width, height);
    abort ();
  }
  memset (f->mem, fill, f->size);
  f->plane.data = f->mem;
}

void
test_frame_clear (TestFrame * f)
{
  free (f->mem);
  f->mem = NULL;
}

static uint8_t *
pixel (TestFrame * f, int x, int y)
{
  return f->mem + (size_t) y * f->plane.stride + (size_t) x * f->plane.pixel_stride;
}

void
test_frame_set_raw (TestFrame * f, int x, int y, unsigned raw)
{
  uint8_t *px = pixel (f, x, y);

  px[0] = raw & 0xff;
  if (f->plane.samples == SHARPNESS_SAMPLES_Y16LE)
    px[1] = raw >> 8;
}

void
test_frame_set_rgb (TestFrame * f, int x, int y, unsigned r, unsigned g,
    unsigned b)
{
  uint8_t *px = pixel (f, x, y);

  px[f->plane.offset_r] = r;
  px[f->plane.offset_g] = g;
  px[f->plane.offset_b] = b;
}

void
test_frame_set_gray (TestFrame * f, int x, int y, uint8_t gray)
{
  switch (f->plane.samples) {
    case SHARPNESS_SAMPLES_Y16LE:
      /* (g << s + 2^(s-1)) >> s == g */
      test_frame_set_raw (f, x, y,
          ((unsigned) gray << (f->plane.depth - 8)) << f->plane.shift);
      break;
    case SHARPNESS_SAMPLES_RGB8:
      /* (77 + 150 + 29) g = 256 g, and (256 g + 128) >> 8 == g */
      test_frame_set_rgb (f, x, y, gray, gray, gray);
      break;
    case SHARPNESS_SAMPLES_Y8:
    default:
      test_frame_set_raw (f, x, y, gray);
      break;
  }
}

size_t
test_frame_fill_padding (TestFrame * f, uint8_t fill)
{
  size_t row = (size_t) f->plane.width * f->plane.pixel_stride;
  size_t pad = f->plane.stride - row;

  for (int y = 0; y + 1 < f->plane.height; y++)
    memset (f->mem + (size_t) y * f->plane.stride + row, fill, pad);
  return pad * (size_t) (f->plane.height - 1);
}
