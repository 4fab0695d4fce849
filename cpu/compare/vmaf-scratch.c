/* The VMAF extractors' scratch and plane checks.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>

#include "vmaf-private.h"

CompareVmafScratch *
compare_vmaf_scratch_new (void)
{
  return calloc (1, sizeof (CompareVmafScratch));
}

void
compare_vmaf_scratch_free (CompareVmafScratch * scratch)
{
  if (!scratch)
    return;
  for (int i = 0; i < VMAF_N_BUFS; i++)
    free (scratch->buf[i]);
  free (scratch);
}

SharpnessStatus
compare_vmaf_scratch_reserve (CompareVmafScratch * scratch, int which,
    size_t size)
{
  void *p;

  if (scratch->cap[which] >= size)
    return SHARPNESS_OK;
  p = realloc (scratch->buf[which], size);
  if (!p)
    return SHARPNESS_ERROR_NO_MEMORY;
  scratch->buf[which] = p;
  scratch->cap[which] = size;
  return SHARPNESS_OK;
}

static int
plane_ok (const CompareVmafPlane * p)
{
  const size_t bytes = p->depth > 8 ? 2 : 1;

  return p->data && p->depth >= 8 && p->depth <= 16 &&
      p->width > 0 && p->height > 0 &&
      p->stride >= (size_t) p->width * bytes;
}

SharpnessStatus
compare_vmaf_planes_check (const CompareVmafPlane * ref,
    const CompareVmafPlane * dist)
{
  if (!ref || !dist || !plane_ok (ref) || !plane_ok (dist) ||
      ref->width != dist->width || ref->height != dist->height ||
      ref->depth != dist->depth)
    return SHARPNESS_ERROR_INVALID;
  if (ref->width < COMPARE_VMAF_MIN_SIZE || ref->height < COMPARE_VMAF_MIN_SIZE)
    return SHARPNESS_ERROR_TOO_SMALL;
  return SHARPNESS_OK;
}
