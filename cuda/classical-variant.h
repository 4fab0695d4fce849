/* Which kernel variant of a classical metric reads a plane: the rule that
 * classical.cuh launches by and that content.cu asks about for fused
 * launches.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SHARPNESS_CLASSICAL_VARIANT_H
#define SHARPNESS_CLASSICAL_VARIANT_H

#include <cstdint>

#include "sharpness-cuda-private.h"

namespace sharpness_cuda
{

/* The fast layouts, and the generic one last: kernels, shapes and
 * variant_of() all follow this order. */
enum Variant
{
  kVariantY8,
  kVariantPacked422,            /* the luma bytes of UYVY and YUY2 */
  kVariantY16,
  kVariantV210,
  kVariantRgb3,
  kVariantRgb4,
  kVariantGeneric
};
static_assert (kVariantGeneric + 1 == SHARPNESS_CUDA_CLASSICAL_VARIANTS,
    "one kernel per variant");

/* The fast path needs 16-byte aligned rows and the natural pixel stride
 * (with the RGB components inside the pixel; v210 from a group's first
 * pixel); anything else is generic.  Packed 4:2:2 luma may start at byte
 * 1 of an aligned row (UYVY): its chunks are the aligned vectors. */
static inline int
variant_of (const SharpnessPlane * p)
{
  const bool rows_aligned = p->height == 1 || p->stride % 16 == 0;
  const bool aligned = (uintptr_t) p->data % 16 == 0 && rows_aligned;

  switch (p->samples) {
    case SHARPNESS_SAMPLES_Y8:
      if (aligned && p->pixel_stride == 1)
        return kVariantY8;
      if (rows_aligned && p->pixel_stride == 2 &&
          (uintptr_t) p->data % 16 <= 1)
        return kVariantPacked422;
      return kVariantGeneric;
    case SHARPNESS_SAMPLES_Y16LE:
      return aligned && p->pixel_stride == 2 ? kVariantY16 : kVariantGeneric;
    case SHARPNESS_SAMPLES_V210:
      return aligned && p->phase == 0 ? kVariantV210 : kVariantGeneric;
    case SHARPNESS_SAMPLES_RGB8:{
      const int ps = p->pixel_stride;
      const bool inside = p->offset_r >= 0 && p->offset_r < ps &&
          p->offset_g >= 0 && p->offset_g < ps &&
          p->offset_b >= 0 && p->offset_b < ps;
      if (aligned && inside && (ps == 3 || ps == 4))
        return ps == 3 ? kVariantRgb3 : kVariantRgb4;
      return kVariantGeneric;
    }
  }
  return -1;
}

/* The variants whose kernels also run a frame's content items in their
 * launch (classical_content_kernel): the luma of NV12, I420 and P010, what
 * the decoders give; the content items of other planes get a launch of
 * their own.  Fewer instantiations keep the build time. */
static inline bool
variant_fuses_content (int v)
{
  return v == kVariantY8 || v == kVariantY16;
}

}  /* namespace sharpness_cuda */

#endif /* SHARPNESS_CLASSICAL_VARIANT_H */
