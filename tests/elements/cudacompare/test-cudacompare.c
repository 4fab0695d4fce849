/* The cudacompare element on the CPU (no GPU needed): pairing by running
 * time (dropped frames on either branch, different lengths, EOS on one pad
 * first, a caps change on one pad), size and format mismatch errors, the
 * distorted bytes unchanged, the meta and messages equal to the CPU core's
 * values, the formats that need plane extraction (NV12, P010, packed RGB),
 * the stats file, the metrics flags and the CPU fallback rule.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdio.h>

#include <glib/gstdio.h>
#include <gst/check/gstcheck.h>

#include "compare-element-util.h"

#define W 64
#define H 48

/* Samples of @n frames of @caps; skip[i] TRUE drops frame i. */
static GstSample **
frames (GstCaps * caps, guint n, const gboolean * skip, gint noise)
{
  GstSample **s = g_new0 (GstSample *, n + 1);
  guint k = 0;

  for (guint i = 0; i < n; i++) {
    GstBuffer *b;

    if (skip && skip[i])
      continue;
    b = util_frame (caps, i, noise, i + 100, i);
    s[k++] = gst_sample_new (b, caps, NULL, NULL);
    gst_buffer_unref (b);
  }
  return s;
}

static void
frames_free (GstSample ** s)
{
  for (guint i = 0; s[i]; i++)
    gst_sample_unref (s[i]);
  g_free (s);
}

static GstSample *
find_pts (GstSample ** s, GstClockTime pts)
{
  for (guint i = 0; s[i]; i++)
    if (GST_BUFFER_PTS (gst_sample_get_buffer (s[i])) == pts)
      return s[i];
  return NULL;
}

static const GstStructure *
meta_of (GstSample * sample)
{
  GstCustomMeta *meta = gst_buffer_get_custom_meta (gst_sample_get_buffer
      (sample), "GstCompareMeta");

  return meta ? gst_custom_meta_get_structure (meta) : NULL;
}

/* The output is @dist's buffer of the same PTS, bytes unchanged. */
static void
check_bytes (GstSample * out, GstSample ** dist)
{
  GstBuffer *ob = gst_sample_get_buffer (out);
  GstSample *in = find_pts (dist, GST_BUFFER_PTS (ob));
  GstMapInfo map;

  fail_unless (in != NULL);
  fail_unless (gst_buffer_map (gst_sample_get_buffer (in), &map,
          GST_MAP_READ));
  fail_unless_equals_uint64 (gst_buffer_get_size (ob), map.size);
  fail_unless (gst_buffer_memcmp (ob, 0, map.data, map.size) == 0);
  gst_buffer_unmap (gst_sample_get_buffer (in), &map);
}

/* The meta of @out equals the CPU core's PSNR and SSIM (ffmpeg mode) of
 * the reference and distorted frames of its PTS (planar YUV or gray). */
static void
check_values (GstSample * out, GstSample ** ref, GstSample ** dist)
{
  GstClockTime pts = GST_BUFFER_PTS (gst_sample_get_buffer (out));
  GstSample *rs = find_pts (ref, pts), *ds = find_pts (dist, pts);
  const GstStructure *m = meta_of (out);
  GstVideoFrame rf, df;
  ComparePair pair = { 0, };
  ComparePsnr psnr;
  CompareSsim ssim;
  CompareScratch *scratch = compare_scratch_new ();
  gdouble v;
  static const gchar *names[] = { "y", "u", "v" };
  gchar field[32];

  fail_unless (rs && ds && m);
  util_pair_side (&rf, gst_sample_get_caps (rs), gst_sample_get_buffer (rs),
      &pair, 0);
  util_pair_side (&df, gst_sample_get_caps (ds), gst_sample_get_buffer (ds),
      &pair, 1);
  fail_unless (compare_psnr (&pair, &psnr) == SHARPNESS_OK);
  fail_unless (compare_ssim_ffmpeg (scratch, &pair, &ssim) == SHARPNESS_OK);
  for (gint c = 0; c < pair.n_planes; c++) {
    g_snprintf (field, sizeof (field), "psnr-%s", names[c]);
    fail_unless (gst_structure_get_double (m, field, &v));
    fail_unless (v == psnr.psnr[c], "%s %.17g != %.17g", field, v,
        psnr.psnr[c]);
    g_snprintf (field, sizeof (field), "mse-%s", names[c]);
    fail_unless (gst_structure_get_double (m, field, &v) && v == psnr.mse[c]);
    g_snprintf (field, sizeof (field), "ssim-%s", names[c]);
    fail_unless (gst_structure_get_double (m, field, &v) &&
        v == ssim.ssim[c]);
  }
  fail_unless (gst_structure_get_double (m, "psnr-avg", &v) &&
      v == psnr.psnr_avg);
  fail_unless (gst_structure_get_double (m, "mse-avg", &v) &&
      v == psnr.mse_avg);
  fail_unless (gst_structure_get_double (m, "ssim-all", &v) && v == ssim.all);
  fail_unless (gst_structure_get_double (m, "ssim-db", &v) && v == ssim.db);
  gst_video_frame_unmap (&rf);
  gst_video_frame_unmap (&df);
  compare_scratch_free (scratch);
}

static guint64
summary_u64 (RunResult * r, const gchar * field)
{
  const GstStructure *s = util_element_message (r, "compare-summary", 0);
  guint64 v = G_MAXUINT64;

  fail_unless (s != NULL);
  fail_unless (gst_structure_get_uint64 (s, field, &v), "no %s", field);
  return v;
}

GST_START_TEST (test_pairs_equal_core)
{
  GstCaps *caps = util_caps ("I420", W, H, NULL);
  GstSample **ref = frames (caps, 8, NULL, 0);
  GstSample **dist = frames (caps, 8, NULL, 12);
  RunResult r;

  util_run ("backend=cpu", ref, dist, &r);
  fail_unless (r.eos && !r.error);
  fail_unless_equals_int (r.out->len, 8);
  for (guint i = 0; i < r.out->len; i++) {
    GstSample *o = g_ptr_array_index (r.out, i);
    guint64 frame;

    fail_unless_equals_uint64 (GST_BUFFER_PTS (gst_sample_get_buffer (o)),
        i * FRAME_DURATION);
    check_bytes (o, dist);
    check_values (o, ref, dist);
    fail_unless (gst_structure_get_uint64 (meta_of (o), "frame", &frame));
    fail_unless_equals_uint64 (frame, i);
  }
  fail_unless_equals_int (util_count_messages (&r, "compare"), 8);
  fail_unless (gst_structure_has_field (util_element_message (&r, "compare",
              3), "running-time"));
  fail_unless_equals_uint64 (summary_u64 (&r, "pairs"), 8);
  fail_unless_equals_uint64 (summary_u64 (&r, "unpaired-ref"), 0);
  fail_unless_equals_uint64 (summary_u64 (&r, "unpaired-dist"), 0);
  fail_if (util_has_text (&r, GST_MESSAGE_WARNING, "frame counts", NULL));
  util_result_clear (&r);
  frames_free (ref);
  frames_free (dist);
  gst_caps_unref (caps);
}

GST_END_TEST;

/* Frames missing on the distorted branch: their references are dropped,
 * every distorted frame is paired with its own reference. */
GST_START_TEST (test_dropped_dist)
{
  GstCaps *caps = util_caps ("I420", W, H, NULL);
  gboolean skip[10] = { 0, 0, 0, 1, 0, 0, 1, 0, 0, 0 };
  GstSample **ref = frames (caps, 10, NULL, 0);
  GstSample **dist = frames (caps, 10, skip, 9);
  RunResult r;

  util_run ("backend=cpu", ref, dist, &r);
  fail_unless (r.eos && !r.error);
  fail_unless_equals_int (r.out->len, 8);
  for (guint i = 0; i < r.out->len; i++) {
    check_bytes (g_ptr_array_index (r.out, i), dist);
    check_values (g_ptr_array_index (r.out, i), ref, dist);
  }
  fail_unless_equals_uint64 (summary_u64 (&r, "pairs"), 8);
  fail_unless_equals_uint64 (summary_u64 (&r, "unpaired-ref"), 2);
  fail_unless_equals_uint64 (summary_u64 (&r, "ref-frames"), 10);
  fail_unless_equals_uint64 (summary_u64 (&r, "dist-frames"), 8);
  fail_unless (util_has_text (&r, GST_MESSAGE_WARNING, "ref_sink 10",
          "dist_sink 8"));
  util_result_clear (&r);
  frames_free (ref);
  frames_free (dist);
  gst_caps_unref (caps);
}

GST_END_TEST;

/* Frames missing on the reference branch: their distorted frames go on
 * unscored (no meta), none is lost. */
GST_START_TEST (test_dropped_ref)
{
  GstCaps *caps = util_caps ("I420", W, H, NULL);
  gboolean skip[10] = { 0, 0, 1, 0, 0, 1, 0, 0, 0, 0 };
  GstSample **ref = frames (caps, 10, skip, 0);
  GstSample **dist = frames (caps, 10, NULL, 9);
  RunResult r;

  util_run ("backend=cpu", ref, dist, &r);
  fail_unless (r.eos && !r.error);
  fail_unless_equals_int (r.out->len, 10);
  for (guint i = 0; i < r.out->len; i++) {
    GstSample *o = g_ptr_array_index (r.out, i);

    check_bytes (o, dist);
    if (i == 2 || i == 5)
      fail_unless (meta_of (o) == NULL);
    else
      check_values (o, ref, dist);
  }
  fail_unless_equals_int (util_count_messages (&r, "compare"), 8);
  fail_unless_equals_uint64 (summary_u64 (&r, "unpaired-dist"), 2);
  fail_unless_equals_uint64 (summary_u64 (&r, "frames"), 10);
  util_result_clear (&r);
  frames_free (ref);
  frames_free (dist);
  gst_caps_unref (caps);
}

GST_END_TEST;

/* Frames missing on both branches, as many on each: the counts are equal,
 * but a warning still says how many frames went unpaired and from when. */
GST_START_TEST (test_unpaired_equal_counts)
{
  GstCaps *caps = util_caps ("I420", W, H, NULL);
  gboolean skip_ref[10] = { 0, 0, 0, 0, 0, 0, 0, 1, 1, 0 };
  gboolean skip_dist[10] = { 0, 0, 1, 0, 0, 1, 0, 0, 0, 0 };
  GstSample **ref = frames (caps, 10, skip_ref, 0);
  GstSample **dist = frames (caps, 10, skip_dist, 9);
  gchar *first;
  RunResult r;

  util_run ("backend=cpu", ref, dist, &r);
  fail_unless (r.eos && !r.error);
  fail_unless_equals_uint64 (summary_u64 (&r, "ref-frames"), 8);
  fail_unless_equals_uint64 (summary_u64 (&r, "dist-frames"), 8);
  fail_unless_equals_uint64 (summary_u64 (&r, "pairs"), 6);
  fail_if (util_has_text (&r, GST_MESSAGE_WARNING, "frame counts", NULL));
  /* The first: distorted frame 2, whose reference is missing. */
  first = g_strdup_printf ("the first at %" GST_TIME_FORMAT,
      GST_TIME_ARGS (2 * FRAME_DURATION));
  fail_unless (util_has_text (&r, GST_MESSAGE_WARNING, "2 reference and 2 "
          "distorted frames had no frame", first));
  g_free (first);
  util_result_clear (&r);
  frames_free (ref);
  frames_free (dist);
  gst_caps_unref (caps);
}

GST_END_TEST;

/* The reference ends first (EOS on one pad while the other flows): every
 * distorted frame still leaves, the extra ones unscored; then the other
 * way round.  A warning names both counts. */
GST_START_TEST (test_different_lengths)
{
  GstCaps *caps = util_caps ("I420", W, H, NULL);
  GstSample **ref = frames (caps, 4, NULL, 0);
  GstSample **dist = frames (caps, 9, NULL, 9);
  GstSample *none[] = { NULL };
  RunResult r;

  util_run ("backend=cpu", ref, dist, &r);
  fail_unless (r.eos && !r.error);
  fail_unless_equals_int (r.out->len, 9);
  for (guint i = 0; i < r.out->len; i++)
    fail_unless ((meta_of (g_ptr_array_index (r.out, i)) != NULL) == (i < 4));
  fail_unless (util_has_text (&r, GST_MESSAGE_WARNING, "ref_sink 4",
          "dist_sink 9"));
  fail_unless_equals_uint64 (summary_u64 (&r, "unpaired-dist"), 5);
  util_result_clear (&r);

  /* The distorted branch ends first. */
  util_run ("backend=cpu", dist, ref, &r);
  fail_unless (r.eos && !r.error);
  fail_unless_equals_int (r.out->len, 4);
  fail_unless (util_has_text (&r, GST_MESSAGE_WARNING, "ref_sink 9",
          "dist_sink 4"));
  util_result_clear (&r);

  /* No reference at all. */
  util_run ("backend=cpu", none, dist, &r);
  fail_unless (r.eos && !r.error);
  fail_unless_equals_int (r.out->len, 9);
  util_result_clear (&r);

  frames_free (ref);
  frames_free (dist);
  gst_caps_unref (caps);
}

GST_END_TEST;

/* The distorted branch changes size mid-stream, the reference does not:
 * frames go on (with their new caps) unscored, with one warning; when both
 * change, scoring goes on. */
GST_START_TEST (test_caps_change_one_pad)
{
  GstCaps *big = util_caps ("I420", W, H, NULL);
  GstCaps *small = util_caps ("I420", W / 2, H / 2, NULL);
  GstSample *ref[9], *dist[9];
  RunResult r;

  for (guint i = 0; i < 8; i++) {
    GstCaps *rc = big, *dc = i < 4 ? big : small;
    GstBuffer *rb = util_frame (rc, i, 0, 1, i), *db = util_frame (dc, i, 5,
        2, i);

    ref[i] = gst_sample_new (rb, rc, NULL, NULL);
    dist[i] = gst_sample_new (db, dc, NULL, NULL);
    gst_buffer_unref (rb);
    gst_buffer_unref (db);
  }
  ref[8] = dist[8] = NULL;
  util_run ("backend=cpu", ref, dist, &r);
  fail_unless (r.eos && !r.error);
  fail_unless_equals_int (r.out->len, 8);
  for (guint i = 0; i < 8; i++) {
    GstSample *o = g_ptr_array_index (r.out, i);
    GstVideoInfo info;

    check_bytes (o, dist);
    fail_unless (gst_video_info_from_caps (&info, gst_sample_get_caps (o)));
    fail_unless_equals_int (GST_VIDEO_INFO_WIDTH (&info), i < 4 ? W : W / 2);
    fail_unless ((meta_of (o) != NULL) == (i < 4));
  }
  fail_unless (util_has_text (&r, GST_MESSAGE_WARNING, "ref_sink has 64x48",
          "dist_sink has 32x24"));
  fail_unless_equals_uint64 (summary_u64 (&r, "unscored"), 4);
  util_result_clear (&r);

  /* Both change at frame 4. */
  for (guint i = 4; i < 8; i++) {
    GstBuffer *rb = util_frame (small, i, 0, 1, i);

    gst_sample_unref (ref[i]);
    ref[i] = gst_sample_new (rb, small, NULL, NULL);
    gst_buffer_unref (rb);
  }
  util_run ("backend=cpu", ref, dist, &r);
  fail_unless (r.eos && !r.error);
  fail_unless_equals_int (r.out->len, 8);
  for (guint i = 0; i < 8; i++)
    check_values (g_ptr_array_index (r.out, i), ref, dist);
  util_result_clear (&r);

  for (guint i = 0; i < 8; i++) {
    gst_sample_unref (ref[i]);
    gst_sample_unref (dist[i]);
  }
  gst_caps_unref (big);
  gst_caps_unref (small);
}

GST_END_TEST;

/* Different sizes or formats from the start: an error naming both pads'
 * caps and the elements that fix it; no deadlock. */
GST_START_TEST (test_mismatch_errors)
{
  GstCaps *a = util_caps ("I420", W, H, NULL);
  GstCaps *b = util_caps ("I420", W / 2, H, NULL);
  GstCaps *c = util_caps ("NV12", W, H, NULL);
  GstSample **ra = frames (a, 3, NULL, 0), **db = frames (b, 3, NULL, 0);
  GstSample **dc = frames (c, 3, NULL, 0);
  RunResult r;

  util_run ("backend=cpu", ra, db, &r);
  fail_unless (r.error);
  fail_unless (util_has_text (&r, GST_MESSAGE_ERROR,
          "ref_sink has 64x48 I420, dist_sink has 32x48 I420", "videoscale"));
  fail_unless (util_has_text (&r, GST_MESSAGE_ERROR, "cudaconvertscale",
          NULL));
  util_result_clear (&r);

  util_run ("backend=cpu", ra, dc, &r);
  fail_unless (r.error);
  fail_unless (util_has_text (&r, GST_MESSAGE_ERROR,
          "ref_sink has 64x48 I420, dist_sink has 64x48 NV12", NULL));
  util_result_clear (&r);

  frames_free (ra);
  frames_free (db);
  frames_free (dc);
  gst_caps_unref (a);
  gst_caps_unref (b);
  gst_caps_unref (c);
}

GST_END_TEST;

/* Values of the field @name in the meta of every output. */
static void
meta_values (RunResult * r, const gchar * name, gdouble * out)
{
  for (guint i = 0; i < r->out->len; i++)
    fail_unless (gst_structure_get_double (meta_of (g_ptr_array_index
                (r->out, i)), name, &out[i]), "no %s", name);
}

/* A format whose planes are extracted (interleaved, shifted, packed) gives
 * the values of the same content in the planar format. */
static void
check_same_as_planar (const gchar * format, const gchar * planar,
    const gchar * const *fields)
{
  GstCaps *fc = util_caps (format, 70, 46, NULL);
  GstCaps *pc = util_caps (planar, 70, 46, NULL);
  GstSample **fr = frames (fc, 3, NULL, 0), **fd = frames (fc, 3, NULL, 7);
  GstSample **pr = frames (pc, 3, NULL, 0), **pd = frames (pc, 3, NULL, 7);
  RunResult a, b;

  util_run ("backend=cpu", fr, fd, &a);
  util_run ("backend=cpu", pr, pd, &b);
  fail_unless (a.eos && b.eos);
  fail_unless_equals_int (a.out->len, 3);
  fail_unless_equals_int (b.out->len, 3);
  for (guint i = 0; i < a.out->len; i++)
    check_bytes (g_ptr_array_index (a.out, i), fd);
  for (guint k = 0; fields[k]; k++) {
    gdouble va[3], vb[3];

    meta_values (&a, fields[k], va);
    meta_values (&b, fields[k], vb);
    for (guint i = 0; i < 3; i++)
      fail_unless (va[i] == vb[i], "%s %s: %.17g != %s %.17g", format,
          fields[k], va[i], planar, vb[i]);
  }
  util_result_clear (&a);
  util_result_clear (&b);
  frames_free (fr);
  frames_free (fd);
  frames_free (pr);
  frames_free (pd);
  gst_caps_unref (fc);
  gst_caps_unref (pc);
}

GST_START_TEST (test_extracted_formats)
{
  static const gchar *const yuv[] = { "psnr-y", "psnr-u", "psnr-v",
    "psnr-avg", "ssim-y", "ssim-u", "ssim-v", "ssim-all", NULL
  };
  static const gchar *const rgb[] = { "psnr-r", "psnr-g", "psnr-b",
    "psnr-avg", "mse-r", "ssim-r", "ssim-g", "ssim-b", "ssim-all", NULL
  };

  check_same_as_planar ("NV12", "I420", yuv);
  check_same_as_planar ("NV21", "I420", yuv);
  check_same_as_planar ("P010_10LE", "I420_10LE", yuv);
  /* Packed RGB as FFmpeg's gbrp: names r g b. */
  check_same_as_planar ("RGBx", "GBR", rgb);
  check_same_as_planar ("BGR", "GBR", rgb);
  check_same_as_planar ("ABGR", "RGBP", rgb);
}

GST_END_TEST;

/* The r g b values are those of the R, G and B planes. */
GST_START_TEST (test_rgb_planes)
{
  GstCaps *caps = util_caps ("GBR", W, H, NULL);
  GstSample **ref = frames (caps, 2, NULL, 0), **dist = frames (caps, 2,
      NULL, 20);
  RunResult r;
  GstVideoFrame rf, df;
  ComparePair pair = { 0, };
  ComparePsnr psnr;
  gdouble v;

  util_run ("backend=cpu", ref, dist, &r);
  fail_unless_equals_int (r.out->len, 2);
  /* GBR: planes G B R; compare each as a gray plane. */
  util_pair_side (&rf, gst_sample_get_caps (ref[0]),
      gst_sample_get_buffer (ref[0]), &pair, 0);
  util_pair_side (&df, gst_sample_get_caps (dist[0]),
      gst_sample_get_buffer (dist[0]), &pair, 1);
  fail_unless (compare_psnr (&pair, &psnr) == SHARPNESS_OK);
  /* util_pair_side took components R G B in that order. */
  fail_unless (gst_structure_get_double (meta_of (g_ptr_array_index (r.out,
                  0)), "psnr-r", &v) && v == psnr.psnr[0]);
  fail_unless (gst_structure_get_double (meta_of (g_ptr_array_index (r.out,
                  0)), "psnr-g", &v) && v == psnr.psnr[1]);
  fail_unless (gst_structure_get_double (meta_of (g_ptr_array_index (r.out,
                  0)), "psnr-b", &v) && v == psnr.psnr[2]);
  gst_video_frame_unmap (&rf);
  gst_video_frame_unmap (&df);
  util_result_clear (&r);
  frames_free (ref);
  frames_free (dist);
  gst_caps_unref (caps);
}

GST_END_TEST;

/* metrics=psnr: no SSIM fields; ms-ssim on the CPU with backend=cpu; with
 * backend=auto and no GPU the heavy metrics are left out with a warning. */
GST_START_TEST (test_metrics_flags)
{
  GstCaps *caps = util_caps ("GRAY8", 192, 180, NULL);
  GstSample **ref = frames (caps, 2, NULL, 0), **dist = frames (caps, 2,
      NULL, 9);
  RunResult r;
  const GstStructure *m;

  util_run ("backend=cpu metrics=psnr", ref, dist, &r);
  m = meta_of (g_ptr_array_index (r.out, 0));
  fail_unless (gst_structure_has_field (m, "psnr-y"));
  fail_unless (!gst_structure_has_field (m, "psnr-u"));
  fail_unless (!gst_structure_has_field (m, "ssim-y"));
  util_result_clear (&r);

  /* 180 rows: MS-SSIM needs 176. */
  util_run ("backend=cpu metrics=ssim+ms-ssim ssim-mode=wang", ref, dist, &r);
  m = meta_of (g_ptr_array_index (r.out, 0));
  fail_unless (gst_structure_has_field (m, "ms-ssim"));
  fail_unless (gst_structure_has_field (m, "ssim-y"));
  fail_unless (!gst_structure_has_field (m, "psnr-y"));
  util_result_clear (&r);

  util_run ("backend=auto metrics=psnr+ms-ssim", ref, dist, &r);
  m = meta_of (g_ptr_array_index (r.out, 0));
  fail_unless (gst_structure_has_field (m, "psnr-y"));
  if (util_has_text (&r, GST_MESSAGE_WARNING, "No usable CUDA device",
          NULL)) {
    /* The CPU fallback never computes what would make frames late. */
    fail_unless (!gst_structure_has_field (m, "ms-ssim"));
    fail_unless (util_has_text (&r, GST_MESSAGE_WARNING,
            "MS-SSIM is too slow", "backend=cpu"));
  } else {
    fail_unless (gst_structure_has_field (m, "ms-ssim"));
  }
  util_result_clear (&r);
  frames_free (ref);
  frames_free (dist);
  gst_caps_unref (caps);
}

GST_END_TEST;

/* interval: one message per interval with the means; post-messages=false:
 * none, the meta still there. */
GST_START_TEST (test_interval)
{
  GstCaps *caps = util_caps ("I420", W, H, NULL);
  GstSample **ref = frames (caps, 10, NULL, 0), **dist = frames (caps, 10,
      NULL, 9);
  RunResult r;
  const GstStructure *s;
  guint64 n;
  gdouble mean, v[10];

  util_run ("backend=cpu interval=200000000", ref, dist, &r);
  fail_unless_equals_int (util_count_messages (&r, "compare"), 2);
  s = util_element_message (&r, "compare", 0);
  fail_unless (gst_structure_get_uint64 (s, "frames", &n));
  fail_unless_equals_uint64 (n, 5);
  meta_values (&r, "ssim-all", v);
  fail_unless (gst_structure_get_double (s, "ssim-all", &mean));
  fail_unless (fabs (mean - (v[0] + v[1] + v[2] + v[3] + v[4]) / 5) < 1e-12);
  util_result_clear (&r);

  util_run ("backend=cpu post-messages=false", ref, dist, &r);
  fail_unless_equals_int (util_count_messages (&r, "compare"), 0);
  fail_unless_equals_int (util_count_messages (&r, "compare-summary"), 0);
  fail_unless (meta_of (g_ptr_array_index (r.out, 0)) != NULL);
  util_result_clear (&r);
  frames_free (ref);
  frames_free (dist);
  gst_caps_unref (caps);
}

GST_END_TEST;

/* Identical frames: PSNR +inf, as FFmpeg's "inf"; summary keeps it. */
GST_START_TEST (test_identical)
{
  GstCaps *caps = util_caps ("I420", W, H, NULL);
  GstSample **ref = frames (caps, 3, NULL, 0);
  RunResult r;
  gdouble v;
  gchar *path = g_build_filename (g_get_tmp_dir (), "compare-identical.log",
      NULL);
  gchar *props = g_strdup_printf ("backend=cpu stats-file=%s "
      "stats-format=ffmpeg-psnr", path);
  gchar *text = NULL;

  util_run (props, ref, ref, &r);
  fail_unless (gst_structure_get_double (meta_of (g_ptr_array_index (r.out,
                  0)), "psnr-y", &v) && isinf (v) && v > 0);
  fail_unless (gst_structure_get_double (util_element_message (&r,
              "compare-summary", 0), "ffmpeg-psnr-average", &v) && isinf (v));
  fail_unless (g_file_get_contents (path, &text, NULL, NULL));
  fail_unless (g_str_has_prefix (text, "n:1 mse_avg:0.00 mse_y:0.00 "
          "mse_u:0.00 mse_v:0.00 psnr_avg:inf psnr_y:inf "), "%s", text);
  g_free (text);
  util_result_clear (&r);
  g_unlink (path);
  g_free (path);
  g_free (props);
  frames_free (ref);
  gst_caps_unref (caps);
}

GST_END_TEST;

/* CSV and JSON stats files: one line/object per pair, the meta's values. */
GST_START_TEST (test_stats_csv_json)
{
  GstCaps *caps = util_caps ("I420", W, H, NULL);
  GstSample **ref = frames (caps, 4, NULL, 0), **dist = frames (caps, 4,
      NULL, 9);
  gchar *path = g_build_filename (g_get_tmp_dir (), "compare-stats.txt",
      NULL);
  gchar *props, *text;
  gchar **lines;
  RunResult r;
  gdouble v;

  props = g_strdup_printf ("backend=cpu stats-file=%s stats-format=csv",
      path);
  util_run (props, ref, dist, &r);
  g_free (props);
  fail_unless (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  fail_unless_equals_string (lines[0], "n,frame,pts,psnr-y,psnr-u,psnr-v,"
      "psnr-avg,mse-y,mse-u,mse-v,mse-avg,ssim-y,ssim-u,ssim-v,ssim-all,"
      "ssim-db");
  fail_unless_equals_int (g_strv_length (lines), 6);    /* + "" */
  {
    gchar **cells = g_strsplit (lines[2], ",", -1);

    fail_unless_equals_string (cells[0], "2");
    /* PTS in seconds, exactly. */
    fail_unless_equals_string (cells[2], "0.040000000");
    fail_unless (gst_structure_get_double (meta_of (g_ptr_array_index (r.out,
                    1)), "ssim-all", &v));
    fail_unless (g_ascii_strtod (cells[14], NULL) == v);
    g_strfreev (cells);
  }
  g_strfreev (lines);
  g_free (text);
  util_result_clear (&r);

  props = g_strdup_printf ("backend=cpu stats-file=%s stats-format=json",
      path);
  util_run (props, ref, dist, &r);
  g_free (props);
  fail_unless (g_file_get_contents (path, &text, NULL, NULL));
  fail_unless (g_str_has_prefix (text, "[\n{\"n\": 1, \"frame\": 0, "
          "\"pts\": 0.000000000, \"psnr-y\": "), "%s", text);
  fail_unless (g_str_has_suffix (text, "}\n]\n"));
  g_free (text);
  util_result_clear (&r);

  g_unlink (path);
  g_free (path);
  frames_free (ref);
  frames_free (dist);
  gst_caps_unref (caps);
}

GST_END_TEST;

static Suite *
compare_element_suite (void)
{
  Suite *s = suite_create ("cudacompare");
  TCase *tc = tcase_create ("element");

  tcase_set_timeout (tc, 120);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_pairs_equal_core);
  tcase_add_test (tc, test_dropped_dist);
  tcase_add_test (tc, test_dropped_ref);
  tcase_add_test (tc, test_unpaired_equal_counts);
  tcase_add_test (tc, test_different_lengths);
  tcase_add_test (tc, test_caps_change_one_pad);
  tcase_add_test (tc, test_mismatch_errors);
  tcase_add_test (tc, test_extracted_formats);
  tcase_add_test (tc, test_rgb_planes);
  tcase_add_test (tc, test_metrics_flags);
  tcase_add_test (tc, test_interval);
  tcase_add_test (tc, test_identical);
  tcase_add_test (tc, test_stats_csv_json);
  return s;
}

GST_CHECK_MAIN (compare_element);
