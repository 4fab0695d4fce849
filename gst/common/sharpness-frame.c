/* Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "sharpness-frame.h"

gboolean
sharpness_format_is_supported (GstVideoFormat format)
{
  switch (format) {
    case GST_VIDEO_FORMAT_GRAY8:
    case GST_VIDEO_FORMAT_GRAY16_LE:
    case GST_VIDEO_FORMAT_I420:
    case GST_VIDEO_FORMAT_YV12:
    case GST_VIDEO_FORMAT_NV12:
    case GST_VIDEO_FORMAT_NV21:
    case GST_VIDEO_FORMAT_Y41B:
    case GST_VIDEO_FORMAT_Y42B:
    case GST_VIDEO_FORMAT_Y444:
    case GST_VIDEO_FORMAT_I420_10LE:
    case GST_VIDEO_FORMAT_P010_10LE:
    case GST_VIDEO_FORMAT_RGB:
    case GST_VIDEO_FORMAT_BGR:
    case GST_VIDEO_FORMAT_RGBx:
    case GST_VIDEO_FORMAT_BGRx:
    case GST_VIDEO_FORMAT_xRGB:
    case GST_VIDEO_FORMAT_xBGR:
    case GST_VIDEO_FORMAT_RGBA:
    case GST_VIDEO_FORMAT_BGRA:
    case GST_VIDEO_FORMAT_ARGB:
    case GST_VIDEO_FORMAT_ABGR:
    case GST_VIDEO_FORMAT_UYVY:
    case GST_VIDEO_FORMAT_YUY2:
    case GST_VIDEO_FORMAT_v210:
      return TRUE;
    default:
      return FALSE;
  }
}

gboolean
sharpness_plane_init (SharpnessPlane * plane, const GstVideoInfo * info,
    const guint8 * data, gsize stride)
{
  const GstVideoFormatInfo *finfo = info->finfo;

  if (!sharpness_format_is_supported (GST_VIDEO_INFO_FORMAT (info)))
    return FALSE;

  *plane = (SharpnessPlane) {
    .data = data,
    .stride = stride,
    .width = GST_VIDEO_INFO_WIDTH (info),
    .height = GST_VIDEO_INFO_HEIGHT (info),
    .pixel_stride = GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, 0),
  };

  if (GST_VIDEO_INFO_FORMAT (info) == GST_VIDEO_FORMAT_v210) {
    /* 10-bit 4:2:2 in 16-byte groups of six pixels, read in place. */
    plane->samples = SHARPNESS_SAMPLES_V210;
    plane->pixel_stride = 0;
  } else if (GST_VIDEO_FORMAT_INFO_IS_RGB (finfo)) {
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
    /* Planar luma, or the luma bytes of packed 4:2:2 (UYVY: every other
     * byte from byte 1, YUY2: from byte 0), read in place. */
    plane->samples = SHARPNESS_SAMPLES_Y8;
    plane->data += GST_VIDEO_FORMAT_INFO_POFFSET (finfo, GST_VIDEO_COMP_Y);
  }
  return TRUE;
}
