/* The freeze SAD of v210 frames (sharpness-freeze.h), alone in a header
 * without GLib so that the CUDA kernels (cuda/content.cuh) compile the
 * very function the CPU sums with.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A v210 row is little-endian 32-bit words of three 10-bit samples (bits
 * 0-9, 10-19, 20-29; bits 30-31 unused), in the order Cb0 Y0 Cr0 Y1 Cb1
 * Y2 Cr1 Y3 Cb2 Y4 Cr2 Y5 per group of six pixels.  FFmpeg's v210 decoder
 * (libavcodec/v210dec.c, decode_row) writes a row's first w + 2 ceil (w /
 * 2) samples into the yuv422p10le planes freezedetect compares, the same
 * prefix whether w is a multiple of 6 or not: the SAD of two such frames
 * is that of the first samples of their rows, word by word.
 */
#ifndef SHARPNESS_FREEZE_V210_H
#define SHARPNESS_FREEZE_V210_H

#include <stdint.h>

#include "sharpness-hd.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Samples of a v210 word. */
#define SHARPNESS_FREEZE_V210_WORD_SAMPLES 3

/* The 10-bit samples FFmpeg decodes from a v210 row of @width pixels: Y
 * @width, U and V ceil (@width / 2) each. */
SHARPNESS_HD int
sharpness_freeze_v210_samples (int width)
{
  return width + 2 * ((width + 1) / 2);
}

/* Sum of |a_k - b_k| over samples k < @n of words @a and @b (@n <= 0:
 * none, >= 3: all three); bits 30-31 never count. */
SHARPNESS_HD unsigned
sharpness_freeze_v210_word_sad (uint32_t a, uint32_t b, int n)
{
  unsigned sad = 0;

  for (int k = 0; k < SHARPNESS_FREEZE_V210_WORD_SAMPLES; k++) {
    const int va = (int) ((a >> (10 * k)) & 0x3ffu);
    const int vb = (int) ((b >> (10 * k)) & 0x3ffu);

    if (k < n)
      sad += (unsigned) (va > vb ? va - vb : vb - va);
  }
  return sad;
}

#ifdef __cplusplus
}
#endif
#endif /* SHARPNESS_FREEZE_V210_H */
