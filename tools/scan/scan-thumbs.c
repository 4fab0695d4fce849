/* sharpness-scan's thumbnails: a copy of the worst frame of a run while
 * the file streams, and once it is done a scaled-down JPEG of it and a
 * JPEG of its centre at full resolution.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "scan.h"

#define THUMB_WIDTH 320

GstSample *
scan_thumb_copy_frame (const GstVideoInfo * info, GstCaps * caps,
    GstBuffer * buf)
{
  GstVideoFrame src, dst;
  GstBuffer *copy;
  GstSample *sample = NULL;

  if (!caps || !gst_video_frame_map (&src, (GstVideoInfo *) info, buf,
          GST_MAP_READ))
    return NULL;
  copy = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (info), NULL);
  if (gst_video_frame_map (&dst, (GstVideoInfo *) info, copy,
          GST_MAP_WRITE)) {
    if (gst_video_frame_copy (&dst, &src))
      sample = gst_sample_new (copy, caps, NULL, NULL);
    gst_video_frame_unmap (&dst);
  }
  gst_video_frame_unmap (&src);
  gst_buffer_unref (copy);
  return sample;
}

/* The centre @w x @h of @sample (system memory) at full resolution: the
 * thumbnail is scaled down, which hides blur; this crop shows it. */
static GstSample *
crop_sample (GstSample * sample, gint w, gint h)
{
  GstVideoInfo in, out;
  GstVideoFrame src, dst;
  GstBuffer *buf;
  GstCaps *caps;
  GstSample *res = NULL;
  gint x0, y0;

  if (!gst_video_info_from_caps (&in, gst_sample_get_caps (sample)))
    return NULL;
  w = MIN (w, GST_VIDEO_INFO_WIDTH (&in)) & ~7;
  h = MIN (h, GST_VIDEO_INFO_HEIGHT (&in)) & ~7;
  if (w <= 0 || h <= 0)
    return NULL;
  /* Multiples of 8: whole chroma samples for every subsampling. */
  x0 = ((GST_VIDEO_INFO_WIDTH (&in) - w) / 2) & ~7;
  y0 = ((GST_VIDEO_INFO_HEIGHT (&in) - h) / 2) & ~7;
  gst_video_info_set_format (&out, GST_VIDEO_INFO_FORMAT (&in), w, h);
  if (!gst_video_frame_map (&src, &in, gst_sample_get_buffer (sample),
          GST_MAP_READ))
    return NULL;
  buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&out), NULL);
  if (gst_video_frame_map (&dst, &out, buf, GST_MAP_WRITE)) {
    const GstVideoFormatInfo *finfo = in.finfo;
    gboolean ok = TRUE;

    /* Copy each plane's rows from the crop origin, as the dest frame's
     * width and height say. */
    for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (&dst) && ok; p++) {
      gint comp[GST_VIDEO_MAX_COMPONENTS];
      guint8 *sp, *dp = GST_VIDEO_FRAME_PLANE_DATA (&dst, p);
      gint c, rows, bytes;

      gst_video_format_info_component (finfo, p, comp);
      c = comp[0];
      if (c < 0) {
        ok = FALSE;
        break;
      }
      sp = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (&src, p) +
          (gsize) GST_VIDEO_FORMAT_INFO_SCALE_HEIGHT (finfo, c, y0) *
          GST_VIDEO_FRAME_PLANE_STRIDE (&src, p) +
          GST_VIDEO_FORMAT_INFO_SCALE_WIDTH (finfo, c, x0) *
          GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, c);
      rows = GST_VIDEO_FRAME_COMP_HEIGHT (&dst, c);
      bytes = GST_VIDEO_FRAME_COMP_WIDTH (&dst, c) *
          GST_VIDEO_FORMAT_INFO_PSTRIDE (finfo, c);
      for (gint y = 0; y < rows; y++)
        memcpy (dp + (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&dst, p),
            sp + (gsize) y * GST_VIDEO_FRAME_PLANE_STRIDE (&src, p), bytes);
    }
    gst_video_frame_unmap (&dst);
    if (ok) {
      caps = gst_video_info_to_caps (&out);
      res = gst_sample_new (buf, caps, NULL, NULL);
      gst_caps_unref (caps);
    }
  }
  gst_video_frame_unmap (&src);
  gst_buffer_unref (buf);
  return res;
}

static gchar *
jpeg_base64 (GstSample * sample, gint w, gint h)
{
  GstCaps *jpeg = gst_caps_new_simple ("image/jpeg", "width", G_TYPE_INT, w,
      "height", G_TYPE_INT, h, "pixel-aspect-ratio", GST_TYPE_FRACTION, 1, 1,
      NULL);
  GstSample *out = gst_video_convert_sample (sample, jpeg, 10 * GST_SECOND,
      NULL);
  gchar *b64 = NULL;
  GstMapInfo map;

  gst_caps_unref (jpeg);
  if (!out)
    return NULL;
  if (gst_buffer_map (gst_sample_get_buffer (out), &map, GST_MAP_READ)) {
    b64 = g_base64_encode (map.data, map.size);
    gst_buffer_unmap (gst_sample_get_buffer (out), &map);
  }
  gst_sample_unref (out);
  return b64;
}

void
scan_thumbs_make (ScanFile * f)
{
  for (guint i = 0; i < f->segments->len; i++) {
    ScanSegment *ss = &g_array_index (f->segments, ScanSegment, i);
    GstSample *crop;
    gint h;

    if (!ss->worst)
      continue;
    h = f->width > 0 ? (gint) (THUMB_WIDTH * (gint64) f->height /
        f->width) & ~1 : 180;
    ss->jpeg_base64 = jpeg_base64 (ss->worst, THUMB_WIDTH, MAX (h, 2));
    crop = crop_sample (ss->worst, THUMB_WIDTH, MAX (h, 8));
    if (crop) {
      GstVideoInfo ci;
      gst_video_info_from_caps (&ci, gst_sample_get_caps (crop));
      ss->crop_base64 = jpeg_base64 (crop, GST_VIDEO_INFO_WIDTH (&ci),
          GST_VIDEO_INFO_HEIGHT (&ci));
      gst_sample_unref (crop);
    }
    scan_clear_sample (&ss->worst);
  }
}
