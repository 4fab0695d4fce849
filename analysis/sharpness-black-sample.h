/* The per-sample rule of black detection (sharpness-black.h), alone in a
 * header without GLib so that the CUDA kernels (cuda/content.cu) compile
 * the very functions the CPU counts with.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SHARPNESS_BLACK_SAMPLE_H
#define SHARPNESS_BLACK_SAMPLE_H

#include "sharpness-plane.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The native-depth luma value of pixel @x of the row starting at @row:
 * SHARPNESS_SAMPLES_Y8: the byte at x * pixel_stride (GRAY8, planar and
 * semi-planar 8-bit Y; packed 4:2:2 read in place: UYVY = data + 1,
 * YUY2/YVYU = data + 0, pixel_stride 2);
 * SHARPNESS_SAMPLES_Y16LE: the little-endian 16-bit word at x *
 * pixel_stride shifted right by `shift` (I420_10LE: shift 0, P010: 6, so
 * that the value is what FFmpeg's converted yuv420p10 frame holds);
 * SHARPNESS_SAMPLES_V210: the 10-bit luma of pixel x + phase of the
 * groups from @row (what FFmpeg's v210 decoder puts in its yuv422p10
 * frame; sharpness_black_v210_luma for phase 0).
 * Not defined for SHARPNESS_SAMPLES_RGB8 (FFmpeg converts RGB to YUV
 * before blackdetect; that conversion is not reproduced here). */
SHARPNESS_HD unsigned
sharpness_black_sample_at (const SharpnessPlane * p, const uint8_t * row,
    int x)
{
  if (p->samples == SHARPNESS_SAMPLES_V210) {
    const int i = x + p->phase;
    const int k = i % SHARPNESS_V210_GROUP_PIXELS;
    const uint8_t *group = row +
        (size_t) (i / SHARPNESS_V210_GROUP_PIXELS) * SHARPNESS_V210_GROUP_BYTES;

    return (sharpness_load_le32 (group + 4 * sharpness_v210_luma_word (k)) >>
        sharpness_v210_luma_shift (k)) & 0x3ffu;
  }

  const uint8_t *px = row + (size_t) x * p->pixel_stride;

  if (p->samples == SHARPNESS_SAMPLES_Y16LE)
    return (unsigned) (px[0] | ((unsigned) px[1] << 8)) >> p->shift;
  return px[0];
}

/* FFmpeg's comparison: a sample is black when it is <= the threshold. */
SHARPNESS_HD int
sharpness_black_sample_is_black (unsigned value, unsigned threshold)
{
  return value <= threshold;
}

#ifdef __cplusplus
}
#endif
#endif /* SHARPNESS_BLACK_SAMPLE_H */
