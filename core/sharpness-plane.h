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
  SHARPNESS_SAMPLES_RGB8,
  /* v210, 10-bit 4:2:2 packed (capture cards): six pixels in each 16-byte
   * group of four little-endian 32-bit words of three 10-bit slots (bits
   * 0-9, 10-19, 20-29): Cb0 Y0 Cr0 | Y1 Cb1 Y2 | Cr1 Y3 Cb2 | Y4 Cr2 Y5.
   * `data` points at a group, whose pixel `phase` is column 0.  The luma
   * becomes gray as 10-bit Y16LE samples do (depth 10, shift 0), so a v210
   * frame scores as its I422_10LE conversion.  pixel_stride is unused. */
  SHARPNESS_SAMPLES_V210
} SharpnessSamples;

/* v210: pixels per group, bytes per group. */
#define SHARPNESS_V210_GROUP_PIXELS 6
#define SHARPNESS_V210_GROUP_BYTES 16

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
  /* SHARPNESS_SAMPLES_V210 only: the pixel (0..5) of the group at `data`
   * that is column 0; not 0 for a plane cropped inside a group. */
  int phase;
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

/* v210: luma k (0..5) of a group is slot 2k + 1 of its twelve 10-bit
 * slots, i.e. in word (2k + 1) / 3 at bit 10 * ((2k + 1) % 3). */
SHARPNESS_HD int
sharpness_v210_luma_word (int k)
{
  return (2 * k + 1) / 3;
}

SHARPNESS_HD int
sharpness_v210_luma_shift (int k)
{
  return 10 * ((2 * k + 1) % 3);
}

/* Gray value of the luma at bit @shift of a v210 word. */
SHARPNESS_HD uint8_t
sharpness_gray_from_v210 (uint32_t word, int shift)
{
  return sharpness_gray_from_y16 ((word >> shift) & 0x3ffu, 10, 0);
}

/* The little-endian 32-bit word at @b (any alignment). */
SHARPNESS_HD uint32_t
sharpness_load_le32 (const uint8_t * b)
{
#ifdef __CUDA_ARCH__
  /* One load where the word is aligned (v210 rows are): the GPU would
   * issue four byte loads for the expression below. */
  if (((uintptr_t) b & 3) == 0)
    return *(const uint32_t *) b;
#endif
  return b[0] | ((uint32_t) b[1] << 8) | ((uint32_t) b[2] << 16) |
      ((uint32_t) b[3] << 24);
}

/* Gray value of pixel (x, y); @row is the first byte of row y. */
SHARPNESS_HD uint8_t
sharpness_plane_gray_at (const SharpnessPlane * p, const uint8_t * row, int x)
{
  if (p->samples == SHARPNESS_SAMPLES_V210) {
    const int i = x + p->phase;
    const int k = i % SHARPNESS_V210_GROUP_PIXELS;
    const uint8_t *group = row +
        (size_t) (i / SHARPNESS_V210_GROUP_PIXELS) * SHARPNESS_V210_GROUP_BYTES;
    return sharpness_gray_from_v210 (sharpness_load_le32 (group +
            4 * sharpness_v210_luma_word (k)), sharpness_v210_luma_shift (k));
  }

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
 * RGB and one-sample pixels, one byte less for RGBx; every group holding
 * a pixel for v210 (its words are read whole). */
SHARPNESS_HD size_t
sharpness_plane_row_bytes (const SharpnessPlane * p)
{
  size_t last = 1;
  if (p->samples == SHARPNESS_SAMPLES_V210) {
    const size_t pixels = (size_t) p->phase + (size_t) p->width;
    return (pixels + SHARPNESS_V210_GROUP_PIXELS - 1) /
        SHARPNESS_V210_GROUP_PIXELS * SHARPNESS_V210_GROUP_BYTES;
  }
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
  if (!p || !p->data || p->width <= 0 || p->height <= 0)
    return 0;
  if (p->samples == SHARPNESS_SAMPLES_V210)
    return p->phase >= 0 && p->phase < SHARPNESS_V210_GROUP_PIXELS &&
        (p->height == 1 || p->stride >= sharpness_plane_row_bytes (p));
  return p->pixel_stride > 0 &&
      (p->samples == SHARPNESS_SAMPLES_Y8 ||
      p->samples == SHARPNESS_SAMPLES_Y16LE ||
      p->samples == SHARPNESS_SAMPLES_RGB8) &&
      (p->height == 1 || p->stride >= (size_t) p->width * p->pixel_stride);
}

#ifdef __cplusplus
}
#endif
#endif /* SHARPNESS_PLANE_H */
