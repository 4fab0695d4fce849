/* What of a host plane its copy in the staging buffer takes, for the two
 * ways host planes go up (sharpness-cuda.cu: whole; band-upload.cu: in
 * bands while the kernel runs).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SHARPNESS_HOST_STAGING_H
#define SHARPNESS_HOST_STAGING_H

#include <stddef.h>
#include <stdint.h>

#include "sharpness-plane.h"

/* Each row's copy starts this many bytes before the row's first sample: 0,
 * but 1 for packed 4:2:2 luma at an odd address (UYVY's luma is every
 * other byte from byte 1 of the frame's rows).  The copy then moves the
 * frame's rows as they are, from their aligned first byte, whole pairs:
 * the same transfer as a plain copy of the frame.  The byte before is the
 * chroma of the first pixel's pair, in the frame. */
static inline size_t
sharpness_cuda_staging_lead (const SharpnessPlane * plane)
{
  return plane->samples == SHARPNESS_SAMPLES_Y8 && plane->pixel_stride == 2 &&
      ((uintptr_t) plane->data & 1) ? 1 : 0;
}

/* Bytes of each row the copy takes, from the lead on. */
static inline size_t
sharpness_cuda_staging_width (const SharpnessPlane * plane)
{
  return sharpness_cuda_staging_lead (plane) +
      sharpness_plane_row_bytes (plane);
}

/* Row pitch of the copy in the staging buffer: the copied bytes, or the
 * whole pixels where the kernels' 16-byte loads of whole chunks read
 * beyond the last sample (the x byte of RGBx, the chroma byte after the
 * last luma of YUY2), rounded up to 16 bytes so that the copy takes the
 * kernels' fast path. */
static inline size_t
sharpness_cuda_staging_pitch (const SharpnessPlane * plane)
{
  const size_t row = sharpness_cuda_staging_width (plane);
  const size_t pixels = plane->samples == SHARPNESS_SAMPLES_V210 ? row :
      (size_t) plane->width * plane->pixel_stride;
  return ((row > pixels ? row : pixels) + 15) & ~(size_t) 15;
}

#endif /* SHARPNESS_HOST_STAGING_H */
