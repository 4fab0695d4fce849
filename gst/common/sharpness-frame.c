/* Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "sharpness-frame.h"
#include "sharpness-formats.h"

gboolean
sharpness_plane_init (SharpnessPlane * plane, const GstVideoInfo * info,
    const guint8 * data, gsize stride)
{
  const GstVideoFormatInfo *finfo = info->finfo;

  if (!sharpness_format_has_use (GST_VIDEO_INFO_FORMAT (info),
          SHARPNESS_FORMAT_SCORE, FALSE))
    return FALSE;

  *plane = (SharpnessPlane) {
    .data = data,
    .stride = stride,
    .width = GST_VIDEO_INFO_WIDTH (info),
    .height = GST_VIDEO_INFO_HEIGHT (info),
    .pixel_stride = GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, 0),
  };

  if (GST_VIDEO_FORMAT_INFO_IS_RGB (finfo)) {
    /* Packed RGB: every component lives in plane 0 at its pixel offset. */
    plane->samples = SHARPNESS_SAMPLES_RGB8;
    plane->offset_r = GST_VIDEO_FORMAT_INFO_POFFSET (finfo, GST_VIDEO_COMP_R);
    plane->offset_g = GST_VIDEO_FORMAT_INFO_POFFSET (finfo, GST_VIDEO_COMP_G);
    plane->offset_b = GST_VIDEO_FORMAT_INFO_POFFSET (finfo, GST_VIDEO_COMP_B);
  } else if (GST_VIDEO_FORMAT_INFO_DEPTH (finfo, 0) > 8) {
    plane->samples = SHARPNESS_SAMPLES_Y16LE;
    plane->depth = GST_VIDEO_FORMAT_INFO_DEPTH (finfo, 0);
    plane->shift = GST_VIDEO_FORMAT_INFO_SHIFT (finfo, 0);
  } else {
    plane->samples = SHARPNESS_SAMPLES_Y8;
  }
  return TRUE;
}
