/* From GStreamer video formats to the SharpnessPlane the backends read.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SHARPNESS_FRAME_H
#define SHARPNESS_FRAME_H

#include <gst/video/video.h>

#include "sharpness-freeze.h"
#include "sharpness-plane.h"

G_BEGIN_DECLS

/* Describes the gray source of a frame of @info, a format that
 * sharpness-formats.h gives SHARPNESS_FORMAT_SCORE (plane 0: the luma plane
 * of YUV and gray formats, the packed plane of RGB formats), whose first
 * byte is @data, with @stride bytes per row.  @data may be a device
 * pointer. */
gboolean sharpness_plane_init (SharpnessPlane * plane, const GstVideoInfo * info,
    const guint8 * data, gsize stride);

/* The planes freeze detection compares in frames of @info: FFmpeg's
 * freezedetect layout of the equivalent FFmpeg format
 * (sharpness_format_ffmpeg_name()), for v210 that of the yuv422p10le
 * frame FFmpeg decodes it to (SHARPNESS_FREEZE_FORMAT_V210, read in
 * place), else every plane of the frame as
 * stored (16-bit words where samples have more than 8 bits, taken as
 * 16-bit samples).  FALSE when the format has no planes to compare. */
gboolean sharpness_freeze_layout_from_info (SharpnessFreezeLayout * layout,
    const GstVideoInfo * info);

G_END_DECLS
#endif /* SHARPNESS_FRAME_H */
