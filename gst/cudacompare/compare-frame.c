/* Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "compare-frame.h"

static gboolean
format_supported (GstVideoFormat format)
{
  switch (format) {
    case GST_VIDEO_FORMAT_GRAY8:
    case GST_VIDEO_FORMAT_GRAY16_LE:
    case GST_VIDEO_FORMAT_I420:
    case GST_VIDEO_FORMAT_YV12:
    case GST_VIDEO_FORMAT_Y41B:
    case GST_VIDEO_FORMAT_Y42B:
    case GST_VIDEO_FORMAT_Y444:
    case GST_VIDEO_FORMAT_NV12:
    case GST_VIDEO_FORMAT_NV21:
    case GST_VIDEO_FORMAT_NV16:
    case GST_VIDEO_FORMAT_NV61:
    case GST_VIDEO_FORMAT_NV24:
    case GST_VIDEO_FORMAT_I420_10LE:
    case GST_VIDEO_FORMAT_I420_12LE:
    case GST_VIDEO_FORMAT_I422_10LE:
    case GST_VIDEO_FORMAT_I422_12LE:
    case GST_VIDEO_FORMAT_Y444_10LE:
    case GST_VIDEO_FORMAT_Y444_12LE:
    case GST_VIDEO_FORMAT_Y444_16LE:
    case GST_VIDEO_FORMAT_P010_10LE:
    case GST_VIDEO_FORMAT_P012_LE:
    case GST_VIDEO_FORMAT_P016_LE:
    case GST_VIDEO_FORMAT_GBR:
    case GST_VIDEO_FORMAT_GBR_10LE:
    case GST_VIDEO_FORMAT_GBR_12LE:
    case GST_VIDEO_FORMAT_RGBP:
    case GST_VIDEO_FORMAT_BGRP:
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
      return TRUE;
    default:
      return FALSE;
  }
}

gboolean
compare_layout_init (CompareLayout * l, const GstVideoInfo * info)
{
  const GstVideoFormatInfo *finfo = info->finfo;

  memset (l, 0, sizeof (*l));
  if (!finfo || !format_supported (GST_VIDEO_INFO_FORMAT (info)))
    return FALSE;

  l->format = GST_VIDEO_INFO_FORMAT (info);
  l->depth = GST_VIDEO_FORMAT_INFO_DEPTH (finfo, 0);
  l->sample_bytes = l->depth > 8 ? 2 : 1;
  l->rgb = GST_VIDEO_FORMAT_INFO_IS_RGB (finfo);
  if (GST_VIDEO_FORMAT_INFO_IS_GRAY (finfo)) {
    l->n_planes = 1;
    l->comp[0] = GST_VIDEO_COMP_Y;
    l->display[0] = 0;
    l->names = "y";
  } else if (l->rgb) {
    /* FFmpeg compares packed RGB as gbrp (its psnr and ssim filters take
     * planar formats only): planes G B R, printed r g b. */
    l->n_planes = 3;
    l->comp[0] = GST_VIDEO_COMP_G;
    l->comp[1] = GST_VIDEO_COMP_B;
    l->comp[2] = GST_VIDEO_COMP_R;
    l->display[0] = 2;
    l->display[1] = 0;
    l->display[2] = 1;
    l->names = "rgb";
  } else {
    l->n_planes = 3;
    for (gint c = 0; c < 3; c++)
      l->comp[c] = l->display[c] = c;
    l->names = "yuv";
  }
  for (gint c = 0; c < l->n_planes; c++) {
    gint comp = l->comp[c];

    l->plane[c] = GST_VIDEO_FORMAT_INFO_PLANE (finfo, comp);
    l->poffset[c] = GST_VIDEO_FORMAT_INFO_POFFSET (finfo, comp);
    /* 16-bit samples start at even bytes. */
    if (l->sample_bytes == 2 && (l->poffset[c] & 1))
      l->poffset[c] *= 2;
  }
  return TRUE;
}

void
compare_layout_pair (const CompareLayout * l, const GstVideoInfo * info,
    ComparePair * pair)
{
  memset (pair, 0, sizeof (*pair));
  pair->n_planes = l->n_planes;
  pair->depth = l->depth;
  for (gint c = 0; c < l->n_planes; c++) {
    pair->width[c] = GST_VIDEO_INFO_COMP_WIDTH (info, l->comp[c]);
    pair->height[c] = GST_VIDEO_INFO_COMP_HEIGHT (info, l->comp[c]);
  }
}

gboolean
compare_layout_plane_direct (const CompareLayout * l,
    const GstVideoFrame * frame, gint c)
{
  gint comp = l->comp[c];

  return GST_VIDEO_FRAME_COMP_PSTRIDE (frame, comp) == l->sample_bytes &&
      GST_VIDEO_FORMAT_INFO_SHIFT (frame->info.finfo, comp) == 0;
}

void
compare_layout_psnr_to_display (const CompareLayout * l, ComparePsnr * p)
{
  ComparePsnr in = *p;

  for (gint j = 0; j < l->n_planes; j++) {
    p->sse[j] = in.sse[l->display[j]];
    p->mse[j] = in.mse[l->display[j]];
    p->psnr[j] = in.psnr[l->display[j]];
  }
}

void
compare_layout_ssim_to_display (const CompareLayout * l, CompareSsim * s)
{
  CompareSsim in = *s;

  for (gint j = 0; j < l->n_planes; j++)
    s->ssim[j] = in.ssim[l->display[j]];
}

void
compare_host_scratch_clear (CompareHostScratch * scratch)
{
  for (guint i = 0; i < G_N_ELEMENTS (scratch->data); i++)
    g_free (scratch->data[i]);
  memset (scratch, 0, sizeof (*scratch));
}

gboolean
compare_frame_fill_host_plane (const CompareLayout * l,
    const GstVideoFrame * vf, gint which, gint c,
    CompareHostScratch * scratch, ComparePair * pair)
{
  gint comp = l->comp[c];
  const guint8 *src = COMPARE_LAYOUT_DATA (l, vf, c);
  gsize stride = GST_VIDEO_FRAME_COMP_STRIDE (vf, comp);
  gint w = GST_VIDEO_FRAME_COMP_WIDTH (vf, comp);
  gint h = GST_VIDEO_FRAME_COMP_HEIGHT (vf, comp);
  gint step = GST_VIDEO_FRAME_COMP_PSTRIDE (vf, comp);
  gint shift = GST_VIDEO_FORMAT_INFO_SHIFT (vf->info.finfo, comp);
  gsize out_stride = (gsize) w * l->sample_bytes;
  guint slot = which * COMPARE_MAX_PLANES + c;
  guint8 *dst;

  if (compare_layout_plane_direct (l, vf, c)) {
    if (which)
      pair->dist[c] = src, pair->dist_stride[c] = stride;
    else
      pair->ref[c] = src, pair->ref_stride[c] = stride;
    return TRUE;
  }

  if (scratch->size[slot] < out_stride * h) {
    g_free (scratch->data[slot]);
    scratch->size[slot] = 0;
    scratch->data[slot] = g_try_malloc (out_stride * h);
    if (!scratch->data[slot])
      return FALSE;
    scratch->size[slot] = out_stride * h;
  }
  dst = scratch->data[slot];
  for (gint y = 0; y < h; y++) {
    const guint8 *s = src + y * stride;

    if (l->sample_bytes == 1) {
      guint8 *d = dst + y * out_stride;

      for (gint x = 0; x < w; x++)
        d[x] = s[x * step];
    } else {
      guint16 *d = (guint16 *) (dst + y * out_stride);

      for (gint x = 0; x < w; x++)
        d[x] = GST_READ_UINT16_LE (s + x * step) >> shift;
    }
  }
  if (which)
    pair->dist[c] = dst, pair->dist_stride[c] = out_stride;
  else
    pair->ref[c] = dst, pair->ref_stride[c] = out_stride;
  return TRUE;
}

gboolean
compare_frame_fill_host (const CompareLayout * l, const GstVideoFrame * vf,
    gint which, CompareHostScratch * scratch, ComparePair * pair)
{
  for (gint c = 0; c < l->n_planes; c++)
    if (!compare_frame_fill_host_plane (l, vf, which, c, scratch, pair))
      return FALSE;
  return TRUE;
}
