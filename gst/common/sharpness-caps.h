/* The caps the element accepts, and why it refuses others.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SHARPNESS_CAPS_H
#define SHARPNESS_CAPS_H

#include <gst/gst.h>
#include <gst/video/video.h>

#include "sharpness-frame.h"

G_BEGIN_DECLS

#define SHARPNESS_CUDA_MEMORY_FEATURE "memory:CUDAMemory"
/* Formats GStreamer 1.22's CUDA allocator lays out and the metrics read. */
#define SHARPNESS_CUDA_FORMATS "{ I420, YV12, NV12, NV21, P010_10LE, Y42B, " \
  "Y444, RGBA, BGRA, RGBx, BGRx, ARGB, ABGR, RGB, BGR }"

#ifdef HAVE_CUDA
#define SHARPNESS_CAPS \
  GST_VIDEO_CAPS_MAKE_WITH_FEATURES (SHARPNESS_CUDA_MEMORY_FEATURE, \
      SHARPNESS_CUDA_FORMATS) "; " \
  GST_VIDEO_CAPS_MAKE (SHARPNESS_SYSTEM_FORMATS)
#else
#define SHARPNESS_CAPS GST_VIDEO_CAPS_MAKE (SHARPNESS_SYSTEM_FORMATS)
#endif

/* Why @templ (the pad's template caps) refuses @caps, in words a user can
 * act on; NULL when it does not (the refusal then comes from elsewhere)
 * or when the caps name no single format. */
gchar *sharpness_caps_explain_refusal (GstCaps * caps, GstCaps * templ);

G_END_DECLS
#endif /* SHARPNESS_CAPS_H */
