/* Capture-card formats through cudasharpness: UYVY, YUY2 (8-bit packed
 * 4:2:2) and v210 (10-bit) frames score exactly as the same frames in a
 * planar format, every classical metric, frame and tiles, at an odd width
 * (v210's last group padded) and with padded strides.  GStreamer's own
 * converter makes the packed frames, so the layout is not this project's
 * reading of it.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <gst/video/video.h>

#include "sharpness-harness.h"
#include "sharpness-metric.h"

#define W 77
#define H 41

/* A natural-ish frame of @format: shading, edges and noise in the luma,
 * noise in the chroma. */
static GstBuffer *
make_frame (const GstVideoInfo * info, GRand * rand)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (info),
      NULL);
  GstVideoFrame f;
  gboolean wide = GST_VIDEO_FORMAT_INFO_DEPTH (info->finfo, 0) > 8;
  gint max = wide ? 1023 : 255;

  gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_INFO_FORMAT (info), W, H, GST_VIDEO_INFO_N_PLANES (info),
      (gsize *) info->offset, (gint *) info->stride);
  fail_unless (gst_video_frame_map (&f, info, buf, GST_MAP_WRITE));
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (&f); p++) {
    guint8 *d = GST_VIDEO_FRAME_PLANE_DATA (&f, p);
    gint comp[GST_VIDEO_MAX_COMPONENTS];
    gint rows, cols;

    gst_video_format_info_component (info->finfo, p, comp);
    rows = GST_VIDEO_INFO_COMP_HEIGHT (info, comp[0]);
    cols = GST_VIDEO_INFO_COMP_WIDTH (info, comp[0]);
    for (gint y = 0; y < rows; y++)
      for (gint x = 0; x < cols; x++) {
        gint v = p == 0 ? ((x * 7 + y * 3) % 64) * max / 96 +
            (x > W / 2 ? max / 3 : 0) + g_rand_int_range (rand, 0, max / 16)
            : g_rand_int_range (rand, 0, max + 1);

        v = CLAMP (v, 0, max);
        if (wide)
          GST_WRITE_UINT16_LE (d + y * GST_VIDEO_FRAME_PLANE_STRIDE (&f, p) +
              2 * x, v);
        else
          d[y * GST_VIDEO_FRAME_PLANE_STRIDE (&f, p) + x] = v;
      }
  }
  gst_video_frame_unmap (&f);
  return buf;
}

/* @src converted to @format by GStreamer, rows padded by 64 bytes. */
static GstBuffer *
convert (GstBuffer * src, const GstVideoInfo * in, GstVideoFormat format,
    GstVideoInfo * out)
{
  GstVideoAlignment align;
  GstVideoConverter *conv;
  GstVideoFrame a, b;
  GstBuffer *dst;

  gst_video_info_set_format (out, format, W, H);
  gst_video_alignment_reset (&align);
  align.padding_right = 64;
  fail_unless (gst_video_info_align (out, &align));
  dst = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (out), NULL);
  gst_buffer_add_video_meta_full (dst, GST_VIDEO_FRAME_FLAG_NONE, format, W,
      H, GST_VIDEO_INFO_N_PLANES (out), out->offset, out->stride);
  /* The converter dithers by default when it packs 10 bits, which would
   * change the luma we compare. */
  conv = gst_video_converter_new ((GstVideoInfo *) in, out,
      gst_structure_new ("options", GST_VIDEO_CONVERTER_OPT_DITHER_METHOD,
          GST_TYPE_VIDEO_DITHER_METHOD, GST_VIDEO_DITHER_NONE, NULL));
  fail_unless (conv != NULL);
  fail_unless (gst_video_frame_map (&a, in, src, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&b, out, dst, GST_MAP_WRITE));
  gst_video_converter_frame (conv, &a, &b);
  gst_video_frame_unmap (&b);
  gst_video_frame_unmap (&a);
  gst_video_converter_free (conv);
  return dst;
}

/* The score of @buf and, with @tiles, its tile scores. */
static GValue *
score (GstBuffer * buf, const GstVideoInfo * info, const gchar * metric,
    gboolean tiles, gdouble * out)
{
  gchar *props = g_strdup_printf ("detect=0 metric=%s%s", metric,
      tiles ? " tiles=5x3" : "");
  GstBus *bus;
  GstHarness *h = harness_new (&bus, props);
  GstCaps *caps = gst_video_info_to_caps (info);
  GstBuffer *res;
  GstCustomMeta *meta;
  const GstStructure *s;
  GValue *tile_scores = NULL;

  gst_harness_set_src_caps (h, caps);
  res = gst_harness_push_and_pull (h, gst_buffer_ref (buf));
  meta = gst_buffer_get_custom_meta (res, "GstSharpnessMeta");
  fail_unless (meta != NULL, "%s: no meta", metric);
  s = gst_custom_meta_get_structure (meta);
  fail_unless (gst_structure_get_double (s, "score", out));
  if (tiles) {
    tile_scores = g_new0 (GValue, 1);
    g_value_init (tile_scores, GST_TYPE_ARRAY);
    g_value_copy (gst_structure_get_value (s, "tile-scores"), tile_scores);
  }
  gst_buffer_unref (res);
  harness_free (h, bus);
  g_free (props);
  return tile_scores;
}

static void
check_same (GstBuffer * a, const GstVideoInfo * ia, GstBuffer * b,
    const GstVideoInfo * ib)
{
  for (gint m = 0; m < SHARPNESS_METRIC_COUNT; m++) {
    const SharpnessMetricInfo *mi = &sharpness_metric_info[m];
    gboolean tiles = mi->kind == SHARPNESS_KIND_SUMS &&
        m != SHARPNESS_METRIC_BLUR_EFFECT;
    gdouble sa, sb;
    GValue *ta, *tb;

    if (mi->cpu == SHARPNESS_CPU_HEAVY)
      continue;
    ta = score (a, ia, mi->nick, tiles, &sa);
    tb = score (b, ib, mi->nick, tiles, &sb);
    fail_unless (sa == sb, "%s: %s %.17g, %s %.17g", mi->nick,
        GST_VIDEO_INFO_NAME (ia), sa, GST_VIDEO_INFO_NAME (ib), sb);
    if (ta) {
      fail_unless (gst_value_compare (ta, tb) == GST_VALUE_EQUAL,
          "%s: tiles differ between %s and %s", mi->nick,
          GST_VIDEO_INFO_NAME (ia), GST_VIDEO_INFO_NAME (ib));
      g_value_unset (ta);
      g_value_unset (tb);
      g_free (ta);
      g_free (tb);
    }
  }
}

GST_START_TEST (test_uyvy_yuy2_as_planar)
{
  GRand *rand = g_rand_new_with_seed (1);
  GstVideoInfo planar, packed;
  GstBuffer *src;

  gst_video_info_set_format (&planar, GST_VIDEO_FORMAT_Y42B, W, H);
  src = make_frame (&planar, rand);
  for (gint k = 0; k < 2; k++) {
    GstBuffer *p = convert (src, &planar, k ? GST_VIDEO_FORMAT_YUY2 :
        GST_VIDEO_FORMAT_UYVY, &packed);

    check_same (p, &packed, src, &planar);
    gst_buffer_unref (p);
  }
  gst_buffer_unref (src);
  g_rand_free (rand);
}

GST_END_TEST;

GST_START_TEST (test_v210_as_planar)
{
  GRand *rand = g_rand_new_with_seed (2);
  GstVideoInfo planar, packed;
  GstBuffer *src, *p;

  /* The element reads I420_10LE; its luma is v210's. */
  gst_video_info_set_format (&planar, GST_VIDEO_FORMAT_I420_10LE, W, H);
  src = make_frame (&planar, rand);
  p = convert (src, &planar, GST_VIDEO_FORMAT_v210, &packed);
  check_same (p, &packed, src, &planar);
  gst_buffer_unref (p);
  gst_buffer_unref (src);
  g_rand_free (rand);
}

GST_END_TEST;

static Suite *
capture_suite (void)
{
  Suite *s = suite_create ("cudasharpness-capture");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_uyvy_yuy2_as_planar);
  tcase_add_test (tc, test_v210_as_planar);
  return s;
}

GST_CHECK_MAIN (capture);
