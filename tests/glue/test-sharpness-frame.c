/* Capture-card formats through gst/common/sharpness-frame.c: UYVY, YUY2
 * and v210 frames described by sharpness_plane_init() score exactly as
 * GStreamer's own conversion of them to I422 (Y42B) / I422_10LE, for every
 * classical metric, with the CPU backend.  GStreamer's video converter is
 * the independent reference for where the luma sits in the packed bytes.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include <gst/check/gstcheck.h>
#include <gst/video/video.h>

#include "sharpness-cpu.h"
#include "sharpness-formats.h"
#include "sharpness-frame.h"
#include "test-rng.h"
#include "test-sums.h"
#include "test-video.h"

static const GstVideoFormat packed[] = {
  GST_VIDEO_FORMAT_UYVY, GST_VIDEO_FORMAT_YUY2, GST_VIDEO_FORMAT_v210,
};

GST_START_TEST (test_packed_formats_supported)
{
  for (guint i = 0; i < G_N_ELEMENTS (packed); i++)
    fail_unless (sharpness_format_has_use (packed[i],
            SHARPNESS_FORMAT_SCORE, FALSE), "%s",
        gst_video_format_to_string (packed[i]));
}

GST_END_TEST;

/* GStreamer's conversion of @in to @format, without dithering (10 bits
 * to 10 bits). */
static GstBuffer *
convert (const GstVideoInfo * in, GstBuffer * src, GstVideoFormat format,
    GstVideoInfo * out)
{
  GstVideoFrame a, b;
  GstVideoConverter *conv;
  GstBuffer *dst;

  gst_video_info_set_format (out, format, GST_VIDEO_INFO_WIDTH (in),
      GST_VIDEO_INFO_HEIGHT (in));
  dst = gst_buffer_new_allocate (NULL, out->size, NULL);
  conv = gst_video_converter_new ((GstVideoInfo *) in, out,
      gst_structure_new ("config", GST_VIDEO_CONVERTER_OPT_DITHER_METHOD,
          GST_TYPE_VIDEO_DITHER_METHOD, GST_VIDEO_DITHER_NONE, NULL));
  fail_unless (conv != NULL);
  fail_unless (gst_video_frame_map (&a, (GstVideoInfo *) in, src,
          GST_MAP_READ));
  fail_unless (gst_video_frame_map (&b, out, dst, GST_MAP_WRITE));
  gst_video_converter_frame (conv, &a, &b);
  gst_video_frame_unmap (&a);
  gst_video_frame_unmap (&b);
  gst_video_converter_free (conv);
  return dst;
}

/* The Y plane of a planar frame, described by hand (I422_10LE is not one
 * of the element's formats). */
static SharpnessPlane
planar_y (const GstVideoFrame * f)
{
  SharpnessPlane p = {
    .samples = SHARPNESS_SAMPLES_Y8,
    .data = GST_VIDEO_FRAME_COMP_DATA (f, 0),
    .stride = GST_VIDEO_FRAME_COMP_STRIDE (f, 0),
    .width = GST_VIDEO_FRAME_WIDTH (f),
    .height = GST_VIDEO_FRAME_HEIGHT (f),
    .pixel_stride = GST_VIDEO_FRAME_COMP_PSTRIDE (f, 0),
  };

  if (GST_VIDEO_FRAME_COMP_DEPTH (f, 0) > 8) {
    p.samples = SHARPNESS_SAMPLES_Y16LE;
    p.depth = GST_VIDEO_FRAME_COMP_DEPTH (f, 0);
    p.shift = GST_VIDEO_FORMAT_INFO_SHIFT ((f)->info.finfo, 0);
  }
  return p;
}

static void
check_format (SharpnessCpu * cpu, GstVideoFormat format, int w, int h,
    TestRng * rng)
{
  const GstVideoFormat planar = format == GST_VIDEO_FORMAT_v210 ?
      GST_VIDEO_FORMAT_I422_10LE : GST_VIDEO_FORMAT_Y42B;
  const gchar *name = gst_video_format_to_string (format);
  GstVideoInfo in, out;
  GstVideoFrame a, b;
  SharpnessPlane pa, pb;

  gst_video_info_set_format (&in, format, w, h);
  GstBuffer *src = test_video_random_frame (&in, rng);
  GstBuffer *dst = convert (&in, src, planar, &out);

  fail_unless (gst_video_frame_map (&a, &in, src, GST_MAP_READ));
  fail_unless (gst_video_frame_map (&b, &out, dst, GST_MAP_READ));
  fail_unless (sharpness_plane_init (&pa, &in,
          GST_VIDEO_FRAME_PLANE_DATA (&a, 0),
          GST_VIDEO_FRAME_PLANE_STRIDE (&a, 0)), "%s", name);
  fail_unless (sharpness_plane_is_valid (&pa), "%s %dx%d", name, w, h);
  pb = planar_y (&b);

  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      const guint8 ga = sharpness_plane_gray_at (&pa,
          pa.data + (gsize) y * pa.stride, x);
      const guint8 gb = sharpness_plane_gray_at (&pb,
          pb.data + (gsize) y * pb.stride, x);
      fail_unless (ga == gb, "%s %dx%d: gray (%d, %d) %u, converted %u", name,
          w, h, x, y, ga, gb);
    }

  for (int i = 0; i < SHARPNESS_METRIC_COUNT; i++) {
    const SharpnessMetric m = (SharpnessMetric) i;
    SharpnessSums sa, sb;

    if (sharpness_metric_info[m].kind != SHARPNESS_KIND_SUMS)
      continue;
    fail_unless_equals_int (sharpness_cpu_sums (cpu, m, &pa, &sa),
        SHARPNESS_OK);
    fail_unless_equals_int (sharpness_cpu_sums (cpu, m, &pb, &sb),
        SHARPNESS_OK);
    fail_unless (test_sums_equal (m, &sa, &sb), "%s %dx%d %s", name, w, h,
        sharpness_metric_info[m].nick);
  }
  gst_video_frame_unmap (&a);
  gst_video_frame_unmap (&b);
  gst_buffer_unref (src);
  gst_buffer_unref (dst);
}

GST_START_TEST (test_packed_scores_as_converted)
{
  static const int sizes[][2] = {
    {1, 1}, {2, 3}, {5, 4}, {6, 2}, {7, 5}, {13, 3}, {47, 3}, {48, 2},
    {49, 7}, {97, 13}, {1921, 5}, {641, 97},
  };
  SharpnessCpu *cpu = sharpness_cpu_new ();
  TestRng rng;

  test_rng_seed (&rng, test_rng_seed_from_env (0x210));
  for (guint f = 0; f < G_N_ELEMENTS (packed); f++)
    for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
      check_format (cpu, packed[f], sizes[s][0], sizes[s][1], &rng);
  sharpness_cpu_free (cpu);
}

GST_END_TEST;

static Suite *
sharpness_frame_suite (void)
{
  Suite *s = suite_create ("sharpness-frame");
  TCase *tc = tcase_create ("packed 4:2:2");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_packed_formats_supported);
  tcase_add_test (tc, test_packed_scores_as_converted);
  return s;
}

GST_CHECK_MAIN (sharpness_frame);
