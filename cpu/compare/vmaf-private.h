/* Internals shared by the VMAF sources: the scratch buffers and the
 * plane readers.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef COMPARE_VMAF_PRIVATE_H
#define COMPARE_VMAF_PRIVATE_H

#include "vmaf.h"

enum
{
  /* VIF: the current and the next scale of reference and distorted
   * (uint16, w x h), the filtered rows (uint32, with their mirrors). */
  VMAF_BUF_VIF_LEVEL,
  VMAF_BUF_VIF_ROWS,
  VMAF_BUF_VIF_LOG2,            /* libvmaf's log2 table, made once */
  /* ADM: the bands of one scale (int16 at scale 0, int32 at 1..3) and
   * the approximation band fed to the next scale. */
  VMAF_BUF_ADM_BANDS,
  VMAF_BUF_ADM_APPROX,
  VMAF_BUF_ADM_ROWS,
  VMAF_BUF_ADM_DIV,             /* libvmaf's Q30 reciprocal table, made once */
  /* Motion: the vertical pass. */
  VMAF_BUF_MOTION_ROWS,
  VMAF_N_BUFS
};

struct CompareVmafScratch
{
  void *buf[VMAF_N_BUFS];
  size_t cap[VMAF_N_BUFS];
};

/* Grows buffer @which to @size bytes (never shrinks). */
SharpnessStatus compare_vmaf_scratch_reserve (CompareVmafScratch * scratch,
    int which, size_t size);

/* SHARPNESS_OK when @ref and @dist are usable luma planes of one size. */
SharpnessStatus compare_vmaf_planes_check (const CompareVmafPlane * ref,
    const CompareVmafPlane * dist);

static inline unsigned
compare_vmaf_sample (const CompareVmafPlane * p, int x, int y)
{
  const uint8_t *row = (const uint8_t *) p->data + (size_t) y * p->stride;

  if (p->depth == 8)
    return row[x];
  return (unsigned) row[2 * x] | ((unsigned) row[2 * x + 1] << 8);
}

#endif /* COMPARE_VMAF_PRIVATE_H */
