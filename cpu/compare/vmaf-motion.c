/* VMAF's motion feature, libvmaf's integer_motion: the reference's 5-tap
 * Gaussian blur in fixed point and the mean absolute difference of
 * consecutive blurs.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The fixed-point definition (filter, shifts, the mirror that repeats the
 * last sample, the float normalisation) follows libvmaf 3.0.0's
 * src/feature/integer_motion.c and integer_motion.h, Copyright 2016-2020
 * Netflix, Inc., BSD-2-Clause-Patent; this is an independent
 * implementation of it, equal to it on tests/vmaf's golden set.
 */
#include <stdlib.h>

#include "vmaf-private.h"

static const uint16_t motion_filter[5] = { 3571, 16004, 26386, 16004, 3571 };

/* -k is k; n + k is n - 1 - k (libvmaf's "MIRROR | ЯOЯЯIM": unlike VIF's,
 * the last sample is repeated). */
static inline int
motion_mirror (int i, int n)
{
  if (i < 0)
    return -i;
  if (i >= n)
    return 2 * n - i - 1;
  return i;
}

SharpnessStatus
compare_vmaf_motion_blur (CompareVmafScratch * scratch,
    const CompareVmafPlane * ref, uint16_t * blur)
{
  SharpnessStatus st = compare_vmaf_planes_check (ref, ref);
  const int w = ref->width, h = ref->height, bpc = ref->depth;
  const uint32_t add = 1u << (bpc - 1);
  uint16_t *tmp;

  if (st != SHARPNESS_OK)
    return st;
  st = compare_vmaf_scratch_reserve (scratch, VMAF_BUF_MOTION_ROWS,
      (size_t) w * h * sizeof (uint16_t));
  if (st != SHARPNESS_OK)
    return st;
  tmp = scratch->buf[VMAF_BUF_MOTION_ROWS];

  /* Vertical: samples to 16 bits. */
  for (int i = 0; i < h; i++) {
    const uint8_t *row[5];

    for (int k = 0; k < 5; k++)
      row[k] = (const uint8_t *) ref->data +
          (size_t) motion_mirror (i - 2 + k, h) * ref->stride;
    for (int j = 0; j < w; j++) {
      uint32_t accum = 0;

      for (int k = 0; k < 5; k++)
        accum += motion_filter[k] * (uint32_t) (bpc == 8 ? row[k][j] :
            (row[k][2 * j] | (row[k][2 * j + 1] << 8)));
      tmp[(size_t) i * w + j] = (accum + add) >> bpc;
    }
  }
  /* Horizontal. */
  for (int i = 0; i < h; i++) {
    const uint16_t *row = tmp + (size_t) i * w;

    for (int j = 0; j < w; j++) {
      uint32_t accum = 0;

      for (int k = 0; k < 5; k++)
        accum += motion_filter[k] * (uint32_t) row[motion_mirror (j - 2 + k,
                w)];
      blur[(size_t) i * w + j] = (accum + 32768) >> 16;
    }
  }
  return SHARPNESS_OK;
}

double
compare_vmaf_motion_sad (const uint16_t * a, const uint16_t * b, int width,
    int height)
{
  uint64_t sad = 0;

  for (int i = 0; i < height; i++) {
    uint32_t inner = 0;

    for (int j = 0; j < width; j++)
      inner += abs (a[(size_t) i * width + j] - b[(size_t) i * width + j]);
    sad += inner;
  }
  return compare_vmaf_motion_score (sad, width, height);
}

double
compare_vmaf_motion_score (uint64_t sad, int width, int height)
{
  /* float / unsigned: a float division, as libvmaf's. */
  return (float) (sad / 256.) / ((unsigned) width * (unsigned) height);
}
