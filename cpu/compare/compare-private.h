/* Internals shared by the compare sources (and the CUDA backend's tests).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef COMPARE_PRIVATE_H
#define COMPARE_PRIVATE_H

#include "compare.h"

enum
{
  COMPARE_BUF_SUMS,             /* two rows of 4x4 block sums */
  COMPARE_BUF_REF,              /* double images of the float modes */
  COMPARE_BUF_DIST,
  COMPARE_BUF_REF2,             /* the next MS-SSIM scale */
  COMPARE_BUF_DIST2,
  COMPARE_BUF_RING,             /* 5 x 11 rows of horizontal Gaussian sums */
  COMPARE_N_BUFS
};

struct CompareScratch
{
  void *buf[COMPARE_N_BUFS];
  size_t cap[COMPARE_N_BUFS];
};

/* Grows buffer @which to @size bytes (never shrinks). */
SharpnessStatus compare_scratch_reserve (CompareScratch * scratch, int which,
    size_t size);

float compare_ssim_ffmpeg_window8 (const int64_t (*sum0)[4],
    const int64_t (*sum1)[4], int i, int n);
double compare_ssim_ffmpeg_row (const int64_t (*sum0)[4],
    const int64_t (*sum1)[4], int windows, int max, int high_depth);

/* The 'max' vf_psnr.c uses for psnr_avg: the plane-weighted max, rounded
 * with lrint (255 for 8-bit 4:2:0). */
int compare_psnr_average_max (const ComparePair * layout);

static inline size_t
compare_bytes (const ComparePair * pair)
{
  return pair->depth > 8 ? 2 : 1;
}

static inline const uint8_t *
compare_row (const void *data, size_t stride, int y)
{
  return (const uint8_t *) data + (size_t) y * stride;
}

static inline unsigned
compare_load16 (const uint8_t * row, int x)
{
  return (unsigned) row[2 * x] | ((unsigned) row[2 * x + 1] << 8);
}

static inline unsigned
compare_sample (const ComparePair * pair, const uint8_t * row, int x)
{
  return pair->depth > 8 ? compare_load16 (row, x) : row[x];
}

#endif /* COMPARE_PRIVATE_H */
