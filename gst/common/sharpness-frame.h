/* From GStreamer video formats to the SharpnessPlane the backends read.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SHARPNESS_FRAME_H
#define SHARPNESS_FRAME_H

#include <gst/video/video.h>

#include "sharpness-plane.h"

G_BEGIN_DECLS

/* The formats the element accepts in system memory, as a caps string list. */
#define SHARPNESS_SYSTEM_FORMATS "{ GRAY8, GRAY16_LE, I420, YV12, NV12, NV21, " \
  "Y41B, Y42B, Y444, I420_10LE, P010_10LE, RGB, BGR, RGBx, BGRx, xRGB, " \
  "xBGR, RGBA, BGRA, ARGB, ABGR }"

/* TRUE when @format is one of SHARPNESS_SYSTEM_FORMATS. */
gboolean sharpness_format_is_supported (GstVideoFormat format);

/* Describes the gray source of a frame of @info (plane 0: the luma plane of
 * YUV and gray formats, the packed plane of RGB formats) whose first byte
 * is @data, with @stride bytes per row.  @data may be a device pointer. */
gboolean sharpness_plane_init (SharpnessPlane * plane, const GstVideoInfo * info,
    const guint8 * data, gsize stride);

G_END_DECLS
#endif /* SHARPNESS_FRAME_H */
