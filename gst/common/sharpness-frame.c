/* Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "sharpness-frame.h"
#include "sharpness-formats.h"

#include <string.h>

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

gboolean
sharpness_freeze_layout_from_info (SharpnessFreezeLayout * l,
    const GstVideoInfo * info)
{
  const GstVideoFormatInfo *finfo = info->finfo;
  const gchar *ffmpeg = sharpness_format_ffmpeg_name (GST_VIDEO_INFO_FORMAT
      (info));
  gint bytes;

  if (ffmpeg)
    return sharpness_freeze_layout_init (l,
        sharpness_freeze_format_from_name (ffmpeg),
        GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info));
  /* FFmpeg decodes v210 to yuv422p10le sample for sample: compared as
   * that frame, read in place. */
  if (GST_VIDEO_INFO_FORMAT (info) == GST_VIDEO_FORMAT_v210)
    return sharpness_freeze_layout_init (l, SHARPNESS_FREEZE_FORMAT_V210,
        GST_VIDEO_INFO_WIDTH (info), GST_VIDEO_INFO_HEIGHT (info));

  memset (l, 0, sizeof (*l));
  l->format = SHARPNESS_FREEZE_FORMAT_INVALID;
  bytes = GST_VIDEO_FORMAT_INFO_DEPTH (finfo, 0) > 8 ? 2 : 1;
  l->bytes_per_sample = bytes;
  l->depth = 8 * bytes;
  l->n_planes = GST_VIDEO_INFO_N_PLANES (info);
  for (gint p = 0; p < l->n_planes && p < 4; p++) {
    gint comp[GST_VIDEO_MAX_COMPONENTS];

    gst_video_format_info_component (finfo, p, comp);
    l->width[p] = GST_VIDEO_INFO_COMP_WIDTH (info, comp[0]) *
        GST_VIDEO_INFO_COMP_PSTRIDE (info, comp[0]) / bytes;
    l->height[p] = GST_VIDEO_INFO_COMP_HEIGHT (info, comp[0]);
    l->count += (guint64) l->width[p] * l->height[p];
  }
  return l->count > 0;
}
