/* sharpness-scan's thumbnails: a copy of a segment's frame while the file
 * streams (the worst of a blurry run, one of a black or frozen stretch),
 * and once it is done a scaled-down JPEG of it and a JPEG of its centre
 * at full resolution.
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
 * thumbnail is scaled down, which hides blur; this crop shows it.
 *
 * Copied through the format's unpacked lines (AYUV, AYUV64, ARGB or
 * ARGB64: whole pixels, 4 components each), not as bytes of its planes: a
 * packed format's pixels do not start at whole bytes (v210 packs 6 pixels
 * in 16 bytes, and GStreamer gives it a pixel stride of 0, so a byte copy
 * copied nothing and the JPEG encoder read uninitialised memory).  Each
 * line is unpacked whole, from x = 0: the unpack functions of some formats
 * ignore a start within the line (v210's).  The crop is in the unpacked
 * format, except 8-bit RGB, packed as RGB: the JPEG encoder takes that
 * (an RGB JPEG, as the frame's), not ARGB, which it would get converted to
 * YUV. */
static GstSample *
crop_sample (GstSample * sample, gint w, gint h)
{
  GstVideoInfo in, out;
  GstVideoFrame src, dst;
  GstBuffer *buf;
  GstCaps *caps;
  GstSample *res = NULL;
  const GstVideoFormatInfo *finfo;
  GstVideoPackFlags flags;
  guint8 *line;
  gint x0, y0, unpack_pstride;

  if (!gst_video_info_from_caps (&in, gst_sample_get_caps (sample)))
    return NULL;
  finfo = in.finfo;
  if (!finfo->unpack_func || GST_VIDEO_FORMAT_INFO_IS_TILED (finfo))
    return NULL;
  w = MIN (w, GST_VIDEO_INFO_WIDTH (&in)) & ~7;
  h = MIN (h, GST_VIDEO_INFO_HEIGHT (&in)) & ~7;
  if (w <= 0 || h <= 0)
    return NULL;
  /* Multiples of 8: whole chroma samples for every subsampling. */
  x0 = ((GST_VIDEO_INFO_WIDTH (&in) - w) / 2) & ~7;
  y0 = ((GST_VIDEO_INFO_HEIGHT (&in) - h) / 2) & ~7;
  /* The unpacked format (8-bit RGB: RGB), with the frame's colorimetry:
   * its values are the frame's, only laid out 4:4:4. */
  gst_video_info_set_format (&out, finfo->unpack_format ==
      GST_VIDEO_FORMAT_ARGB ? GST_VIDEO_FORMAT_RGB : finfo->unpack_format,
      w, h);
  out.colorimetry = in.colorimetry;
  unpack_pstride = GST_VIDEO_FORMAT_INFO_PSTRIDE (gst_video_format_get_info
      (finfo->unpack_format), 0);
  flags = GST_VIDEO_INFO_IS_INTERLACED (&in) ?
      GST_VIDEO_PACK_FLAG_INTERLACED : GST_VIDEO_PACK_FLAG_NONE;
  if (!gst_video_frame_map (&src, &in, gst_sample_get_buffer (sample),
          GST_MAP_READ))
    return NULL;
  buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&out), NULL);
  /* A whole line, and the 6-pixel groups v210's unpacking rounds up to. */
  line = g_malloc ((gsize) (GST_VIDEO_INFO_WIDTH (&in) + 8) *
      unpack_pstride);
  if (gst_video_frame_map (&dst, &out, buf, GST_MAP_WRITE)) {
    for (gint y = 0; y < h; y++) {
      finfo->unpack_func (finfo, flags, line, src.data, src.info.stride,
          0, y0 + y, GST_VIDEO_INFO_WIDTH (&in));
      out.finfo->pack_func (out.finfo, GST_VIDEO_PACK_FLAG_NONE,
          line + (gsize) x0 * unpack_pstride, 0, dst.data, dst.info.stride,
          GST_VIDEO_CHROMA_SITE_UNKNOWN, y, w);
    }
    gst_video_frame_unmap (&dst);
    caps = gst_video_info_to_caps (&out);
    res = gst_sample_new (buf, caps, NULL, NULL);
    gst_caps_unref (caps);
  }
  g_free (line);
  gst_video_frame_unmap (&src);
  gst_buffer_unref (buf);
  return res;
}

static gboolean
quarter_turn (GstVideoOrientationMethod m)
{
  return m == GST_VIDEO_ORIENTATION_90R || m == GST_VIDEO_ORIENTATION_90L ||
      m == GST_VIDEO_ORIENTATION_UL_LR || m == GST_VIDEO_ORIENTATION_UR_LL;
}

/* @sample (RGB) turned as @m says. */
static GstSample *
orient_rgb (GstSample * sample, GstVideoOrientationMethod m)
{
  GstVideoInfo in, out;
  GstVideoFrame src, dst;
  GstBuffer *buf;
  GstCaps *caps;
  GstSample *res = NULL;
  gint w, h;

  if (!gst_video_info_from_caps (&in, gst_sample_get_caps (sample)))
    return NULL;
  w = GST_VIDEO_INFO_WIDTH (&in);
  h = GST_VIDEO_INFO_HEIGHT (&in);
  gst_video_info_set_format (&out, GST_VIDEO_FORMAT_RGB,
      quarter_turn (m) ? h : w, quarter_turn (m) ? w : h);
  if (!gst_video_frame_map (&src, &in, gst_sample_get_buffer (sample),
          GST_MAP_READ))
    return NULL;
  buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&out), NULL);
  if (gst_video_frame_map (&dst, &out, buf, GST_MAP_WRITE)) {
    const guint8 *sp = GST_VIDEO_FRAME_PLANE_DATA (&src, 0);
    guint8 *dp = GST_VIDEO_FRAME_PLANE_DATA (&dst, 0);
    gint ss = GST_VIDEO_FRAME_PLANE_STRIDE (&src, 0);
    gint ds = GST_VIDEO_FRAME_PLANE_STRIDE (&dst, 0);

    for (gint y = 0; y < GST_VIDEO_INFO_HEIGHT (&out); y++)
      for (gint x = 0; x < GST_VIDEO_INFO_WIDTH (&out); x++) {
        gint sx, sy;

        switch (m) {
          case GST_VIDEO_ORIENTATION_90R:
            sx = y, sy = h - 1 - x;
            break;
          case GST_VIDEO_ORIENTATION_180:
            sx = w - 1 - x, sy = h - 1 - y;
            break;
          case GST_VIDEO_ORIENTATION_90L:
            sx = w - 1 - y, sy = x;
            break;
          case GST_VIDEO_ORIENTATION_HORIZ:
            sx = w - 1 - x, sy = y;
            break;
          case GST_VIDEO_ORIENTATION_VERT:
            sx = x, sy = h - 1 - y;
            break;
          case GST_VIDEO_ORIENTATION_UL_LR:
            sx = y, sy = x;
            break;
          case GST_VIDEO_ORIENTATION_UR_LL:
            sx = w - 1 - y, sy = h - 1 - x;
            break;
          default:
            sx = x, sy = y;
            break;
        }
        memcpy (dp + (gsize) y * ds + 3 * x, sp + (gsize) sy * ss + 3 * sx,
            3);
      }
    gst_video_frame_unmap (&dst);
    caps = gst_video_info_to_caps (&out);
    res = gst_sample_new (buf, caps, NULL, NULL);
    gst_caps_unref (caps);
  }
  gst_video_frame_unmap (&src);
  gst_buffer_unref (buf);
  return res;
}

/* @sample scaled to @w x @h (before orientation), turned as @m says, as a
 * base64 JPEG. */
static gchar *
jpeg_base64 (GstSample * sample, gint w, gint h, GstVideoOrientationMethod m)
{
  GstCaps *jpeg = gst_caps_new_simple ("image/jpeg", "pixel-aspect-ratio",
      GST_TYPE_FRACTION, 1, 1, NULL);
  GstSample *out, *turned = NULL;
  gchar *b64 = NULL;
  GstMapInfo map;

  if (m != GST_VIDEO_ORIENTATION_IDENTITY) {
    /* Scaled first: the turn then costs a thumbnail's pixels. */
    GstCaps *rgb = gst_caps_new_simple ("video/x-raw", "format",
        G_TYPE_STRING, "RGB", "width", G_TYPE_INT, w, "height", G_TYPE_INT,
        h, "pixel-aspect-ratio", GST_TYPE_FRACTION, 1, 1, NULL);
    GstSample *scaled = gst_video_convert_sample (sample, rgb,
        10 * GST_SECOND, NULL);

    gst_caps_unref (rgb);
    if (scaled) {
      turned = orient_rgb (scaled, m);
      gst_sample_unref (scaled);
    }
    if (!turned) {
      gst_caps_unref (jpeg);
      return NULL;
    }
    sample = turned;
  } else {
    gst_caps_set_simple (jpeg, "width", G_TYPE_INT, w, "height", G_TYPE_INT,
        h, NULL);
  }
  out = gst_video_convert_sample (sample, jpeg, 10 * GST_SECOND, NULL);
  gst_caps_unref (jpeg);
  if (turned)
    gst_sample_unref (turned);
  if (!out)
    return NULL;
  if (gst_buffer_map (gst_sample_get_buffer (out), &map, GST_MAP_READ)) {
    b64 = g_base64_encode (map.data, map.size);
    gst_buffer_unmap (gst_sample_get_buffer (out), &map);
  }
  gst_sample_unref (out);
  return b64;
}

/* The thumbnail of @sample, THUMB_WIDTH wide as displayed. */
static gchar *
thumbnail (GstSample * sample, GstVideoOrientationMethod m)
{
  GstVideoInfo vi;
  gint w, h, tw, th;

  if (!gst_video_info_from_caps (&vi, gst_sample_get_caps (sample)))
    return NULL;
  w = GST_VIDEO_INFO_WIDTH (&vi);
  h = GST_VIDEO_INFO_HEIGHT (&vi);
  if (quarter_turn (m)) {
    /* THUMB_WIDTH wide once turned: that many rows now. */
    th = THUMB_WIDTH;
    tw = MAX ((gint) (THUMB_WIDTH * (gint64) w / MAX (h, 1)) & ~1, 2);
  } else {
    tw = THUMB_WIDTH;
    th = MAX ((gint) (THUMB_WIDTH * (gint64) h / MAX (w, 1)) & ~1, 2);
  }
  return jpeg_base64 (sample, tw, th, m);
}

gchar *
scan_thumb_jpeg (GstSample * sample)
{
  return thumbnail (sample, GST_VIDEO_ORIENTATION_IDENTITY);
}

void
scan_thumbs_make (ScanFile * f)
{
  GstVideoOrientationMethod m = f->orientation_method;
  gboolean turn = quarter_turn (m);

  for (guint i = 0; i < f->segments->len; i++) {
    ScanSegment *ss = &g_array_index (f->segments, ScanSegment, i);
    GstSample *crop;
    gint h;

    if (!ss->thumb)
      continue;
    ss->jpeg_base64 = thumbnail (ss->thumb, m);
    /* The centre at full resolution, as wide as the thumbnail once
     * turned. */
    h = f->width > 0 ? (gint) (THUMB_WIDTH * (gint64) f->height /
        f->width) & ~1 : 180;
    crop = turn ? crop_sample (ss->thumb, MAX (h, 8), THUMB_WIDTH) :
        crop_sample (ss->thumb, THUMB_WIDTH, MAX (h, 8));
    if (crop) {
      GstVideoInfo ci;
      gst_video_info_from_caps (&ci, gst_sample_get_caps (crop));
      ss->crop_base64 = jpeg_base64 (crop, GST_VIDEO_INFO_WIDTH (&ci),
          GST_VIDEO_INFO_HEIGHT (&ci), m);
      gst_sample_unref (crop);
    }
    scan_clear_sample (&ss->thumb);
  }
  if (f->image) {
    f->image_base64 = thumbnail (f->image, m);
    scan_clear_sample (&f->image);
  }
}
