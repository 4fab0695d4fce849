/* A frame as the metrics see it: one strided plane and how to turn its
 * samples into the 8-bit gray image of docs/reference/metrics.md.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Plain C, no GStreamer types: the CPU backend, the CUDA kernels (through
 * SHARPNESS_HD) and the tests share it, so every backend sees the same gray
 * image, sample for sample.
 */
#ifndef SHARPNESS_PLANE_H
#define SHARPNESS_PLANE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#include "sharpness-hd.h"

typedef enum
{
  /* One byte per sample, already gray (GRAY8, the Y plane of 8-bit YUV). */
  SHARPNESS_SAMPLES_Y8,
  /* Little-endian 16-bit samples holding `depth` significant bits starting
   * at bit `shift` (GRAY16_LE: 16/0, I420_10LE: 10/0, P010_10LE: 10/6). */
  SHARPNESS_SAMPLES_Y16LE,
  /* Packed 8-bit RGB(A/x): R, G, B at byte offsets inside each pixel. */
  SHARPNESS_SAMPLES_RGB8
} SharpnessSamples;

typedef struct
{
  SharpnessSamples samples;
  /* Address of the first pixel of row 0: a host pointer for the CPU
   * backend, a device pointer for the CUDA backend's device entry points. */
  const uint8_t *data;
  size_t stride;                /* bytes from one row to the next */
  int width, height;            /* in pixels */
  int pixel_stride;             /* bytes from one pixel to the next */
  int depth, shift;             /* SHARPNESS_SAMPLES_Y16LE only */
  int offset_r, offset_g, offset_b;     /* SHARPNESS_SAMPLES_RGB8 only */
} SharpnessPlane;

/* Fixed-point BT.601 luma: integer on purpose, so CPU and GPU agree. */
SHARPNESS_HD uint8_t
sharpness_gray_from_rgb (unsigned r, unsigned g, unsigned b)
{
  return (uint8_t) ((77u * r + 150u * g + 29u * b + 128u) >> 8);
}

/* Round a high-bit-depth sample to 8 bits:
 * g = min (255, (v + (1 << (s - 1))) >> s), s = depth - 8, v = significant bits. */
SHARPNESS_HD uint8_t
sharpness_gray_from_y16 (unsigned raw, int depth, int shift)
{
  unsigned v = raw >> shift;
  int s = depth - 8;
  unsigned g = s > 0 ? (v + (1u << (s - 1))) >> s : v;
  return (uint8_t) (g > 255u ? 255u : g);
}

/* Gray value of pixel (x, y); @row is the first byte of row y. */
SHARPNESS_HD uint8_t
sharpness_plane_gray_at (const SharpnessPlane * p, const uint8_t * row, int x)
{
  const uint8_t *px = row + (size_t) x * p->pixel_stride;
  switch (p->samples) {
    case SHARPNESS_SAMPLES_Y16LE:
      return sharpness_gray_from_y16 (px[0] | ((unsigned) px[1] << 8),
          p->depth, p->shift);
    case SHARPNESS_SAMPLES_RGB8:
      return sharpness_gray_from_rgb (px[p->offset_r], px[p->offset_g],
          px[p->offset_b]);
    case SHARPNESS_SAMPLES_Y8:
    default:
      return px[0];
  }
}

/* Bytes of a row up to its last sample: width * pixel_stride for packed
 * RGB and one-sample pixels, one byte less for RGBx. */
SHARPNESS_HD size_t
sharpness_plane_row_bytes (const SharpnessPlane * p)
{
  size_t last = 1;
  if (p->samples == SHARPNESS_SAMPLES_Y16LE) {
    last = 2;
  } else if (p->samples == SHARPNESS_SAMPLES_RGB8) {
    int hi = p->offset_r > p->offset_g ? p->offset_r : p->offset_g;
    hi = hi > p->offset_b ? hi : p->offset_b;
    last = (size_t) hi + 1;
  }
  return (size_t) (p->width - 1) * p->pixel_stride + last;
}

/* The checks every backend applies before reading @p: a known sample
 * layout, a non-empty frame and rows that do not overlap. */
SHARPNESS_HD int
sharpness_plane_is_valid (const SharpnessPlane * p)
{
  return p && p->data && p->width > 0 && p->height > 0 &&
      p->pixel_stride > 0 &&
      (p->samples == SHARPNESS_SAMPLES_Y8 ||
      p->samples == SHARPNESS_SAMPLES_Y16LE ||
      p->samples == SHARPNESS_SAMPLES_RGB8) &&
      (p->height == 1 || p->stride >= (size_t) p->width * p->pixel_stride);
}

#ifdef __cplusplus
}
#endif
#endif /* SHARPNESS_PLANE_H */
