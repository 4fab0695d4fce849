/* cudacompare metrics=vmaf (GstHarness on both sink pads):
 *
 * - on golden pairs of tests/vmaf (libvmaf 3.0.0's numbers; the clips made
 *   by test_cudacompare_vmaf.py, which sets VMAF_GOLDEN_DIR and
 *   VMAF_CLIP_DIR, else those tests skip): every frame's `vmaf` and
 *   features of the compare-vmaf messages equal libvmaf's 6 printed
 *   decimals, for the default model (8-bit, odd sizes), the neg model and
 *   the phone transform (10-bit), the 4K model; the summary's pooled min,
 *   max, mean and harmonic mean equal libvmaf's pooled digits;
 * - stats-format=vmaf-json|vmaf-xml|vmaf-csv: the bytes of libvmaf's own
 *   `vmaf --json/--xml/--csv` logs of the pair (tests/vmaf/golden-logs),
 *   but for the "fps" each run measures;
 * - one frame late: frame n's VMAF arrives with pair n + 1, in its message
 *   and in the meta of frame n + 1 (vmaf-frame n), the last at EOS with
 *   motion2 its own motion; no frame held; the same values as
 *   cpu/compare's VMAF on the same planes; P010 gives I420_10LE's numbers;
 * - a bad vmaf-model fails the start with an error naming it and why;
 * - vmaf-percentiles=false: no percentiles in the summary, the rest of it
 *   and the messages as the default's;
 * - compare-message.h's reader reads what its writers wrote.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "compare-message.h"
#include "vmaf.h"
#include "vmaf-json.h"

#define FPS 25

/* The element, its two harnesses (dist_sink + src, ref_sink) and a bus. */
typedef struct
{
  GstHarness *dist, *ref;
  GstBus *bus;
  GList *held;                  /* messages popped before the summary */
} Pair;

static GstStaticPadTemplate any_src = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS_ANY);
static GstStaticPadTemplate any_sink = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS_ANY);

/* cudacompare (backend=cpu) with @props ("name=value ..."), a harness on
 * dist_sink and src, another on ref_sink, both sending @caps. */
static void
pair_start (Pair * p, const gchar * props, GstCaps * caps)
{
  GstElement *e = gst_element_factory_make ("cudacompare", NULL);
  gchar **kv = g_strsplit (props, " ", -1);

  fail_unless (e != NULL);
  gst_util_set_object_arg (G_OBJECT (e), "backend", "cpu");
  for (gint i = 0; kv[i]; i++) {
    gchar **pv = g_strsplit (kv[i], "=", 2);

    if (pv[0] && pv[1])
      gst_util_set_object_arg (G_OBJECT (e), pv[0], pv[1]);
    g_strfreev (pv);
  }
  g_strfreev (kv);
  p->bus = gst_bus_new ();
  p->held = NULL;
  gst_element_set_bus (e, p->bus);
  p->dist = gst_harness_new_empty ();
  gst_harness_add_element_full (p->dist, e, &any_src, "dist_sink", &any_sink,
      "src");
  gst_object_unref (e);
  p->ref = gst_harness_new_with_element (p->dist->element, "ref_sink", NULL);
  gst_harness_set_src_caps (p->dist, gst_caps_ref (caps));
  gst_harness_set_src_caps (p->ref, gst_caps_ref (caps));
}

static void
pair_stop (Pair * p)
{
  gst_harness_teardown (p->ref);
  gst_harness_teardown (p->dist);
  g_list_free_full (p->held, (GDestroyNotify) gst_message_unref);
  gst_object_unref (p->bus);
}

/* Pushes a pair and returns the distorted frame cudacompare sent on. */
static GstBuffer *
pair_push (Pair * p, GstBuffer * ref, GstBuffer * dist)
{
  fail_unless_equals_int (gst_harness_push (p->ref, ref), GST_FLOW_OK);
  fail_unless_equals_int (gst_harness_push (p->dist, dist), GST_FLOW_OK);
  return gst_harness_pull (p->dist);
}

/* EOS on both pads; the summary once it is posted. */
static GstMessage *
pair_eos (Pair * p)
{
  fail_unless (gst_harness_push_event (p->ref, gst_event_new_eos ()));
  fail_unless (gst_harness_push_event (p->dist, gst_event_new_eos ()));
  for (;;) {
    GstMessage *m = gst_bus_timed_pop_filtered (p->bus, 60 * GST_SECOND,
        GST_MESSAGE_ELEMENT | GST_MESSAGE_ERROR);
    const GstStructure *s;

    fail_unless (m != NULL, "no summary within 60 s");
    fail_if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_ERROR);
    s = gst_message_get_structure (m);
    if (gst_structure_has_name (s, "compare-summary"))
      return m;
    /* Others are the caller's, in order (pop_vmaf). */
    p->held = g_list_append (p->held, m);
  }
}

/* Every compare-vmaf message on the bus now, in order. */
static GList *
pop_vmaf (Pair * p)
{
  GList *l = NULL;
  GstMessage *m;

  while (p->held || (m = gst_bus_pop_filtered (p->bus, GST_MESSAGE_ELEMENT))) {
    if (p->held) {
      m = p->held->data;
      p->held = g_list_delete_link (p->held, p->held);
    }
    if (gst_structure_has_name (gst_message_get_structure (m),
            "compare-vmaf"))
      l = g_list_append (l, m);
    else
      gst_message_unref (m);
  }
  return l;
}

static gdouble
get_double (const GstStructure * s, const gchar * name)
{
  gdouble v = NAN;

  fail_unless (gst_structure_get_double (s, name, &v), "no %s in %"
      GST_PTR_FORMAT, name, s);
  return v;
}

static guint64
get_u64 (const GstStructure * s, const gchar * name)
{
  guint64 v = 0;

  fail_unless (gst_structure_get_uint64 (s, name, &v), "no %s in %"
      GST_PTR_FORMAT, name, s);
  return v;
}

/* ---- golden pairs --------------------------------------------------- */

static gchar *
golden_dir (void)
{
  const gchar *d = g_getenv ("VMAF_GOLDEN_DIR");

  return d && g_getenv ("VMAF_CLIP_DIR") ? g_strdup (d) : NULL;
}

typedef struct
{
  gchar *text;
  VmafJson *root;
  const VmafJson *metrics;
  gint width, height, depth, frames;
} Golden;

static gboolean
golden_load (Golden * g, const gchar * pair)
{
  gchar *dir = golden_dir (), *path;
  gsize len;
  gchar error[256];

  if (!dir)
    return FALSE;
  path = g_strdup_printf ("%s/golden/%s.json", dir, pair);
  fail_unless (g_file_get_contents (path, &g->text, &len, NULL), "%s", path);
  g->root = vmaf_json_parse (g->text, len, error, sizeof (error));
  fail_unless (g->root != NULL, "%s: %s", path, error);
  g->metrics = vmaf_json_member (g->root, "metrics_micro");
  g->width = vmaf_json_member (g->root, "width")->number;
  g->height = vmaf_json_member (g->root, "height")->number;
  g->depth = vmaf_json_member (g->root, "depth")->number;
  g->frames = vmaf_json_member (g->root, "frames")->number;
  g_free (path);
  g_free (dir);
  return TRUE;
}

static void
golden_clear (Golden * g)
{
  vmaf_json_free (g->root);
  g_free (g->text);
}

/* libvmaf's printed value of @metric at frame @i, in millionths. */
static long long
golden_micro (const Golden * g, const gchar * metric, gint i)
{
  const VmafJson *a = vmaf_json_member (g->metrics, metric);
  const VmafJson *v;

  fail_unless (a != NULL, "golden has no %s", metric);
  for (v = a->child; v && i > 0; v = v->next)
    i--;
  fail_unless (v != NULL);
  return (long long) v->number;
}

/* Whether @ours prints with 6 decimals as libvmaf printed @micro. */
static gboolean
same_digits (gdouble ours, long long micro)
{
  gchar a[64], b[64];

  g_snprintf (a, sizeof (a), "%.6f", ours);
  g_snprintf (b, sizeof (b), "%s%lld.%06lld", micro < 0 ? "-" : "",
      llabs (micro) / 1000000, llabs (micro) % 1000000);
  return strcmp (a, b) == 0;
}

/* Frame @i of a raw yuv420p / yuv420p10le clip as a buffer of @info. */
static GstBuffer *
clip_frame (FILE * f, const GstVideoInfo * info, gint i)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (info),
      NULL);
  GstVideoFrame vf;
  gint bps = GST_VIDEO_INFO_COMP_DEPTH (info, 0) > 8 ? 2 : 1;

  fail_unless (gst_video_frame_map (&vf, info, buf, GST_MAP_WRITE));
  for (gint c = 0; c < 3; c++) {
    gint w = GST_VIDEO_FRAME_COMP_WIDTH (&vf, c);
    gint h = GST_VIDEO_FRAME_COMP_HEIGHT (&vf, c);

    for (gint y = 0; y < h; y++)
      fail_unless (fread ((guint8 *) GST_VIDEO_FRAME_COMP_DATA (&vf, c) +
              y * GST_VIDEO_FRAME_COMP_STRIDE (&vf, c), bps, w, f) ==
          (size_t) w);
  }
  gst_video_frame_unmap (&vf);
  GST_BUFFER_PTS (buf) = gst_util_uint64_scale_int (i, GST_SECOND, FPS);
  GST_BUFFER_DURATION (buf) = gst_util_uint64_scale_int (i + 1, GST_SECOND,
      FPS) - GST_BUFFER_PTS (buf);
  return buf;
}

/* Runs the pair through cudacompare with @props and checks every frame's
 * compare-vmaf values against libvmaf's: `vmaf` against golden metric
 * @score, each feature against its libvmaf name with @suffix ("_egl_1"
 * for the neg model's gain limits; motion has none).  Returns the
 * summary (unref it); NULL when the golden set is not there. */
static GstMessage *
check_golden_pair (const gchar * pair, const gchar * props,
    const gchar * score, const gchar * suffix)
{
  static const gchar *const features[] = {
    "integer_adm2", "integer_adm_scale0", "integer_adm_scale1",
    "integer_adm_scale2", "integer_adm_scale3", "integer_motion2",
    "integer_motion", "integer_vif_scale0", "integer_vif_scale1",
    "integer_vif_scale2", "integer_vif_scale3",
  };
  Golden g;
  GstVideoInfo info;
  GstCaps *caps;
  Pair p;
  gchar *path;
  FILE *rf, *df;
  GList *msgs, *l;
  GstMessage *summary;
  gint n = 0;

  if (!golden_load (&g, pair))
    return NULL;
  gst_video_info_set_format (&info, g.depth > 8 ?
      GST_VIDEO_FORMAT_I420_10LE : GST_VIDEO_FORMAT_I420, g.width, g.height);
  GST_VIDEO_INFO_FPS_N (&info) = FPS;
  caps = gst_video_info_to_caps (&info);
  path = g_strdup_printf ("%s/%s.ref.yuv", g_getenv ("VMAF_CLIP_DIR"), pair);
  rf = fopen (path, "rb");
  fail_unless (rf != NULL, "%s", path);
  g_free (path);
  path = g_strdup_printf ("%s/%s.dist.yuv", g_getenv ("VMAF_CLIP_DIR"), pair);
  df = fopen (path, "rb");
  fail_unless (df != NULL, "%s", path);
  g_free (path);

  pair_start (&p, props, caps);
  for (gint i = 0; i < g.frames; i++)
    gst_buffer_unref (pair_push (&p, clip_frame (rf, &info, i),
            clip_frame (df, &info, i)));
  summary = pair_eos (&p);
  msgs = pop_vmaf (&p);
  for (l = msgs; l; l = l->next, n++) {
    const GstStructure *s = gst_message_get_structure (l->data);

    fail_unless_equals_uint64 (get_u64 (s, "frame"), n);
    fail_unless (same_digits (get_double (s, "vmaf"), golden_micro (&g,
                score, n)), "%s frame %d: vmaf %.6f, libvmaf %s %lld", pair,
        n, get_double (s, "vmaf"), score, golden_micro (&g, score, n));
    for (guint k = 0; k < G_N_ELEMENTS (features); k++) {
      gboolean motion = g_str_has_prefix (features[k], "integer_motion");
      gchar *name = g_strconcat (features[k], motion ? "" : suffix, NULL);
      gdouble v = get_double (s, features[k]);

      fail_unless (same_digits (v, golden_micro (&g, name, n)),
          "%s frame %d: %s %.6f, libvmaf %lld", pair, n, name, v,
          golden_micro (&g, name, n));
      g_free (name);
    }
  }
  fail_unless_equals_int (n, g.frames);
  /* The summary's pooled score: libvmaf's min, max, mean, harmonic mean
   * (golden pooled_micro, in that order). */
  {
    static const gchar *const pooled[] = { "vmaf-min", "vmaf-max",
      "vmaf-mean", "vmaf-harmonic-mean"
    };
    const VmafJson *pm = vmaf_json_member (vmaf_json_member (g.root,
            "pooled_micro"), score);
    const VmafJson *v = pm ? pm->child : NULL;
    const GstStructure *s = gst_message_get_structure (summary);

    for (guint k = 0; k < G_N_ELEMENTS (pooled); k++, v = v->next) {
      fail_unless (v != NULL, "golden has no pooled %s", score);
      fail_unless (same_digits (get_double (s, pooled[k]),
              (long long) v->number), "%s: %s %.6f, libvmaf %.0f", pair,
          pooled[k], get_double (s, pooled[k]), v->number);
    }
  }
  g_list_free_full (msgs, (GDestroyNotify) gst_message_unref);
  pair_stop (&p);
  fclose (rf);
  fclose (df);
  gst_caps_unref (caps);
  golden_clear (&g);
  return summary;
}

/* 8-bit, odd size (721 x 405), the default model. */
GST_START_TEST (test_vmaf_golden_default_model_odd_size)
{
  GstMessage *m = check_golden_pair ("odd-721x405-coffee-pan-crf28",
      "metrics=vmaf", "vmaf_v0.6.1", "");

  if (m) {
    const GstStructure *s = gst_message_get_structure (m);

    fail_unless_equals_string (gst_structure_get_string (s, "vmaf-model"),
        "vmaf_v0.6.1");
    fail_unless (gst_structure_has_field (s, "vmaf-harmonic-mean"));
    fail_unless (gst_structure_has_field (s, "vmaf-p5"));
    gst_message_unref (m);
  }
}

GST_END_TEST;

/* 10-bit, the neg model (gain limits 1: libvmaf's _egl_1 features). */
GST_START_TEST (test_vmaf_golden_neg_model_10bit)
{
  GstMessage *m = check_golden_pair ("p576-astronaut-zoom-scale2-10bit",
      "metrics=vmaf vmaf-model=vmaf_v0.6.1neg", "vmaf_v0.6.1neg", "_egl_1");

  if (m)
    gst_message_unref (m);
}

GST_END_TEST;

/* 10-bit, the phone transform (vmaf_v0.6.1 with enable_transform). */
GST_START_TEST (test_vmaf_golden_phone_transform_10bit)
{
  GstMessage *m = check_golden_pair ("p576-astronaut-zoom-scale2-10bit",
      "metrics=vmaf vmaf-enable-transform=true", "vmaf_v0.6.1_phone", "");

  if (m)
    gst_message_unref (m);
}

GST_END_TEST;

/* The 4K model, 8-bit, odd size 1279 x 719; with PSNR in the same pass. */
GST_START_TEST (test_vmaf_golden_4k_model_with_psnr)
{
  GstMessage *m = check_golden_pair ("odd-1279x719-chelsea-zoom-scale3",
      "metrics=psnr+vmaf vmaf-model=vmaf_4k_v0.6.1", "vmaf_4k_v0.6.1", "");

  if (m) {
    fail_unless (gst_structure_has_field (gst_message_get_structure (m),
            "psnr-avg-mean"));
    gst_message_unref (m);
  }
}

GST_END_TEST;

/* The files @ours_path and @theirs_path the same but for libvmaf's fps (each run's speed). */
static void
check_same_but_fps (const gchar * ours_path, const gchar * theirs_path)
{
  GRegex *fps = g_regex_new ("fps(\"?[:=] ?\"?)[0-9.]+", 0, 0, NULL);
  gchar *ours, *theirs, *a, *b;

  fail_unless (g_file_get_contents (ours_path, &ours, NULL, NULL), "%s",
      ours_path);
  fail_unless (g_file_get_contents (theirs_path, &theirs, NULL, NULL), "%s",
      theirs_path);
  a = g_regex_replace (fps, ours, -1, 0, "fps\\1N", 0, NULL);
  b = g_regex_replace (fps, theirs, -1, 0, "fps\\1N", 0, NULL);
  fail_unless_equals_string (a, b);
  g_regex_unref (fps);
  g_free (a);
  g_free (b);
  g_free (ours);
  g_free (theirs);
}

/* Our log of @pair with @props in @format against libvmaf's own
 * (golden-logs/<pair>.<model>.<ext>): the same bytes but for the fps. */
static void
check_log (const gchar * pair, const gchar * model, const gchar * format,
    const gchar * ext)
{
  gchar *dir = golden_dir ();
  gchar *theirs_path, *ours_path, *props;
  GstMessage *m;

  if (!dir)
    return;
  ours_path = g_strdup_printf ("%s/cudacompare-vmaf-%s.%s", g_get_tmp_dir (),
      pair, ext);
  props = g_strdup_printf ("metrics=vmaf vmaf-model=%s stats-format=%s "
      "stats-file=%s", model, format, ours_path);
  m = check_golden_pair (pair, props, model, g_str_has_suffix (model, "neg")
      ? "_egl_1" : "");
  fail_unless (m != NULL);
  gst_message_unref (m);
  theirs_path = g_strdup_printf ("%s/golden-logs/%s.%s.%s", dir, pair, model,
      ext);
  check_same_but_fps (ours_path, theirs_path);
  remove (ours_path);
  g_free (ours_path);
  g_free (theirs_path);
  g_free (props);
  g_free (dir);
}

GST_START_TEST (test_vmaf_stats_json_is_libvmafs)
{
  check_log ("odd-1279x719-chelsea-zoom-scale3", "vmaf_v0.6.1", "vmaf-json",
      "json");
  /* The neg model's columns: libvmaf's _egl_1 names. */
  check_log ("p576-astronaut-zoom-scale2-10bit", "vmaf_v0.6.1neg",
      "vmaf-json", "json");
}

GST_END_TEST;

GST_START_TEST (test_vmaf_stats_xml_is_libvmafs)
{
  check_log ("odd-1279x719-chelsea-zoom-scale3", "vmaf_v0.6.1", "vmaf-xml",
      "xml");
}

GST_END_TEST;

GST_START_TEST (test_vmaf_stats_csv_is_libvmafs)
{
  check_log ("odd-1279x719-chelsea-zoom-scale3", "vmaf_v0.6.1", "vmaf-csv",
      "csv");
}

GST_END_TEST;

/* A real H.264 clip and its CRF 40 re-encode (tests/data), decoded by
 * avdec_h264 on both branches: the element's vmaf-json is libvmaf's log
 * of the same frames (decoded by FFmpeg), but for fps. */
GST_START_TEST (test_vmaf_h264_clip_equals_libvmaf)
{
  const gchar *root = g_getenv ("SHARPNESS_SOURCE_ROOT");
  gchar *ours = g_build_filename (g_get_tmp_dir (), "cudacompare-h264.json",
      NULL);
  gchar *theirs, *desc;
  GstElement *pipe;
  GstMessage *m;
  GError *err = NULL;

  if (!root || !gst_element_factory_find ("avdec_h264")) {
    g_print ("test_vmaf_h264_clip_equals_libvmaf SKIPPED: %s\n", root ?
        "no avdec_h264" : "SHARPNESS_SOURCE_ROOT unset");
    g_free (ours);
    return;
  }
  desc = g_strdup_printf ("cudacompare name=c backend=cpu metrics=vmaf "
      "stats-file=%s stats-format=vmaf-json ! fakesink "
      "filesrc location=%s/tests/data/testsrc2-320x240.h264 ! h264parse ! "
      "avdec_h264 ! c.ref_sink "
      "filesrc location=%s/tests/data/testsrc2-320x240-crf40.h264 ! "
      "h264parse ! avdec_h264 ! c.dist_sink", ours, root, root);
  pipe = gst_parse_launch (desc, &err);
  fail_unless (pipe != NULL, "%s", err ? err->message : desc);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  m = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipe), 120 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (m && GST_MESSAGE_TYPE (m) == GST_MESSAGE_EOS);
  gst_message_unref (m);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (pipe);
  theirs = g_build_filename (root, "tests", "vmaf", "golden-logs",
      "testsrc2-320x240-crf40.vmaf_v0.6.1.json", NULL);
  check_same_but_fps (ours, theirs);
  remove (ours);
  g_free (ours);
  g_free (theirs);
  g_free (desc);
}

GST_END_TEST;

/* ---- one frame late, no frame held --------------------------------- */

#define SW 96
#define SH 72

/* A frame of @format: a moving pattern with @noise, 10-bit samples in
 * P010's high bits or I420_10LE's low bits. */
static GstBuffer *
synthetic (GstVideoFormat format, gint i, gint noise)
{
  GstVideoInfo info;
  GstVideoFrame vf;
  GstBuffer *buf;
  guint32 rng = 12345 + i;

  gst_video_info_set_format (&info, format, SW, SH);
  buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
  fail_unless (gst_video_frame_map (&vf, &info, buf, GST_MAP_WRITE));
  for (guint c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS (&vf); c++) {
    gint shift = GST_VIDEO_FORMAT_INFO_SHIFT (info.finfo, c);
    gint depth = GST_VIDEO_FRAME_COMP_DEPTH (&vf, c);
    gint ps = GST_VIDEO_FRAME_COMP_PSTRIDE (&vf, c);

    for (gint y = 0; y < GST_VIDEO_FRAME_COMP_HEIGHT (&vf, c); y++)
      for (gint x = 0; x < GST_VIDEO_FRAME_COMP_WIDTH (&vf, c); x++) {
        guint8 *d = (guint8 *) GST_VIDEO_FRAME_COMP_DATA (&vf, c) +
            y * GST_VIDEO_FRAME_COMP_STRIDE (&vf, c) + x * ps;
        gint v = 128 + 90 * sin ((x + 3 * i) * 0.2) * cos (y * 0.15);

        rng = rng * 1103515245 + 12345;
        v += noise ? (gint) ((rng >> 16) % (2 * noise + 1)) - noise : 0;
        v = CLAMP (v, 0, 255);
        if (depth > 8)
          GST_WRITE_UINT16_LE (d, (v << (depth - 8)) << shift);
        else
          *d = v;
      }
  }
  gst_video_frame_unmap (&vf);
  GST_BUFFER_PTS (buf) = i * GST_SECOND / FPS;
  GST_BUFFER_DURATION (buf) = GST_SECOND / FPS;
  return buf;
}

/* Frame n's VMAF with pair n + 1, in a message and in frame n + 1's meta;
 * the last at EOS; the values those of cpu/compare's VMAF. */
GST_START_TEST (test_vmaf_one_frame_late_last_at_eos)
{
  const gint n = 5;
  GstCaps *caps = gst_caps_new_simple ("video/x-raw", "format",
      G_TYPE_STRING, "I420", "width", G_TYPE_INT, SW, "height", G_TYPE_INT,
      SH, "framerate", GST_TYPE_FRACTION, FPS, 1, NULL);
  CompareVmafModel *model = compare_vmaf_model_load_builtin ("vmaf_v0.6.1",
      0, NULL, 0);
  const CompareVmafModel *models[1] = { model };
  CompareVmafStream *stream = compare_vmaf_stream_new (models, 1);
  CompareVmafFrame want[8];
  GList *msgs;
  GstMessage *summary;
  Pair p;
  gint done = 0;

  pair_start (&p, "metrics=vmaf", caps);
  for (gint i = 0; i < n; i++) {
    GstBuffer *ref = synthetic (GST_VIDEO_FORMAT_I420, i, 0);
    GstBuffer *dist = synthetic (GST_VIDEO_FORMAT_I420, i, 12);
    GstMapInfo rm, dm;
    CompareVmafPlane rp = { NULL, SW, SW, SH, 8 };
    CompareVmafPlane dp = rp;
    GstBuffer *out;
    GstCustomMeta *meta;
    guint64 vmaf_frame;
    int complete;

    /* The library on the same planes (I420's luma first, stride 96). */
    fail_unless (gst_buffer_map (ref, &rm, GST_MAP_READ));
    fail_unless (gst_buffer_map (dist, &dm, GST_MAP_READ));
    rp.data = rm.data;
    dp.data = dm.data;
    fail_unless_equals_int (compare_vmaf_stream_push (stream, &rp, &dp,
            &want[done], &complete), SHARPNESS_OK);
    done += complete;
    gst_buffer_unmap (ref, &rm);
    gst_buffer_unmap (dist, &dm);

    out = pair_push (&p, ref, dist);
    /* Every frame leaves at once; frame i carries frame i - 1's VMAF. */
    fail_unless_equals_uint64 (GST_BUFFER_PTS (out), i * GST_SECOND / FPS);
    meta = gst_buffer_get_custom_meta (out, "GstCompareMeta");
    if (i == 0) {
      fail_unless (meta == NULL || !gst_structure_has_field
          (gst_custom_meta_get_structure (meta), "vmaf-frame"));
    } else {
      const GstStructure *s = gst_custom_meta_get_structure (meta);

      fail_unless (gst_structure_get_uint64 (s, "vmaf-frame", &vmaf_frame));
      fail_unless_equals_uint64 (vmaf_frame, i - 1);
      fail_unless_equals_uint64 (get_u64 (s, "frame"), i);
      fail_unless_equals_float (get_double (s, "vmaf"),
          want[i - 1].score[0]);
    }
    gst_buffer_unref (out);
    msgs = pop_vmaf (&p);
    fail_unless_equals_int (g_list_length (msgs), i > 0 ? 1 : 0);
    if (msgs) {
      const GstStructure *s = gst_message_get_structure (msgs->data);

      fail_unless_equals_uint64 (get_u64 (s, "frame"), i - 1);
      fail_unless_equals_uint64 (get_u64 (s, "timestamp"),
          (i - 1) * GST_SECOND / FPS);
      fail_unless_equals_float (get_double (s, "integer_motion2"),
          want[i - 1].value[0][COMPARE_VMAF_OUT_MOTION2]);
    }
    g_list_free_full (msgs, (GDestroyNotify) gst_message_unref);
  }
  fail_unless (compare_vmaf_stream_flush (stream, &want[done]));
  summary = pair_eos (&p);
  msgs = pop_vmaf (&p);
  fail_unless_equals_int (g_list_length (msgs), 1);
  {
    const GstStructure *s = gst_message_get_structure (msgs->data);

    fail_unless_equals_uint64 (get_u64 (s, "frame"), n - 1);
    /* libvmaf: the last frame's motion2 is its own motion. */
    fail_unless_equals_float (get_double (s, "integer_motion2"),
        get_double (s, "integer_motion"));
    fail_unless_equals_float (get_double (s, "vmaf"), want[n - 1].score[0]);
  }
  fail_unless_equals_float (get_double (gst_message_get_structure (summary),
          "vmaf-min"), MIN (MIN (MIN (want[0].score[0], want[1].score[0]),
              MIN (want[2].score[0], want[3].score[0])), want[4].score[0]));
  g_list_free_full (msgs, (GDestroyNotify) gst_message_unref);
  gst_message_unref (summary);
  pair_stop (&p);
  compare_vmaf_stream_free (stream);
  compare_vmaf_model_free (model);
  gst_caps_unref (caps);
}

GST_END_TEST;

/* Pushes I420 pairs @from .. @to - 1 (the distorted ones noisy), the
 * outputs dropped. */
static void
push_i420 (Pair * p, gint from, gint to)
{
  for (gint i = from; i < to; i++)
    gst_buffer_unref (pair_push (p, synthetic (GST_VIDEO_FORMAT_I420, i, 0),
            synthetic (GST_VIDEO_FORMAT_I420, i, 12)));
}

/* vmaf-percentiles=false (a monitor's endless channel: no score kept per
 * frame): the summary has no percentiles, and the rest of it, the
 * messages' values included, is what the default gives on the same
 * frames. */
GST_START_TEST (test_vmaf_percentiles_off)
{
  GstCaps *caps = gst_caps_new_simple ("video/x-raw", "format",
      G_TYPE_STRING, "I420", "width", G_TYPE_INT, SW, "height", G_TYPE_INT,
      SH, "framerate", GST_TYPE_FRACTION, FPS, 1, NULL);
  static const gchar *const pooled[] = { "vmaf-min", "vmaf-max",
    "vmaf-mean", "vmaf-harmonic-mean"
  };
  gdouble want[G_N_ELEMENTS (pooled)], vmaf[2][6];
  const gchar *props[2] = { "metrics=vmaf",
    "metrics=vmaf vmaf-percentiles=false"
  };

  for (gint run = 0; run < 2; run++) {
    GstMessage *summary;
    const GstStructure *s;
    GList *msgs;
    gint i = 0;
    Pair p;

    pair_start (&p, props[run], caps);
    push_i420 (&p, 0, 6);
    summary = pair_eos (&p);
    s = gst_message_get_structure (summary);
    for (GList * l = msgs = pop_vmaf (&p); l && i < 6; l = l->next)
      vmaf[run][i++] = get_double (gst_message_get_structure (l->data),
          "vmaf");
    fail_unless_equals_int (i, 6);
    fail_unless_equals_int (gst_structure_has_field (s, "vmaf-p50"),
        run == 0);
    fail_unless_equals_int (gst_structure_has_field (s, "vmaf-p1"),
        run == 0);
    for (guint k = 0; k < G_N_ELEMENTS (pooled); k++) {
      if (run == 0)
        want[k] = get_double (s, pooled[k]);
      else
        fail_unless_equals_float (get_double (s, pooled[k]), want[k]);
    }
    g_list_free_full (msgs, (GDestroyNotify) gst_message_unref);
    gst_message_unref (summary);
    pair_stop (&p);
  }
  for (gint i = 0; i < 6; i++)
    fail_unless_equals_float (vmaf[1][i], vmaf[0][i]);
  gst_caps_unref (caps);
}

GST_END_TEST;

/* A flush (a flushing seek) ends the sequence as libvmaf's end: the
 * pending frame's VMAF is posted then, with motion2 its own motion, and
 * the next frame starts a new sequence (motion 0). */
GST_START_TEST (test_vmaf_flush_ends_sequence)
{
  GstCaps *caps = gst_caps_new_simple ("video/x-raw", "format",
      G_TYPE_STRING, "I420", "width", G_TYPE_INT, SW, "height", G_TYPE_INT,
      SH, "framerate", GST_TYPE_FRACTION, FPS, 1, NULL);
  GstSegment seg;
  GstEvent *ev;
  GList *msgs;
  GstMessage *summary;
  Pair p;

  pair_start (&p, "metrics=vmaf", caps);
  push_i420 (&p, 0, 3);
  g_list_free_full (pop_vmaf (&p), (GDestroyNotify) gst_message_unref);

  /* As a flushing seek sends them: one seqnum on both pads. */
  ev = gst_event_new_flush_start ();
  fail_unless (gst_harness_push_event (p.ref, gst_event_ref (ev)));
  fail_unless (gst_harness_push_event (p.dist, ev));
  ev = gst_event_new_flush_stop (TRUE);
  fail_unless (gst_harness_push_event (p.ref, gst_event_ref (ev)));
  fail_unless (gst_harness_push_event (p.dist, ev));
  msgs = pop_vmaf (&p);
  fail_unless_equals_int (g_list_length (msgs), 1);
  if (msgs) {
    const GstStructure *s = gst_message_get_structure (msgs->data);

    fail_unless_equals_uint64 (get_u64 (s, "frame"), 2);
    fail_unless_equals_float (get_double (s, "integer_motion2"),
        get_double (s, "integer_motion"));
    fail_unless (get_double (s, "integer_motion") > 0);
  }
  g_list_free_full (msgs, (GDestroyNotify) gst_message_unref);

  /* After the flush: a new segment, frames 3 and 4; frame 3 is a first. */
  gst_segment_init (&seg, GST_FORMAT_TIME);
  fail_unless (gst_harness_push_event (p.ref, gst_event_new_segment (&seg)));
  fail_unless (gst_harness_push_event (p.dist, gst_event_new_segment (&seg)));
  push_i420 (&p, 3, 5);
  summary = pair_eos (&p);
  msgs = pop_vmaf (&p);
  fail_unless_equals_int (g_list_length (msgs), 2);
  if (msgs) {
    const GstStructure *s = gst_message_get_structure (msgs->data);

    fail_unless_equals_uint64 (get_u64 (s, "frame"), 3);
    fail_unless_equals_float (get_double (s, "integer_motion"), 0.0);
    fail_unless_equals_float (get_double (s, "integer_motion2"), 0.0);
  }
  g_list_free_full (msgs, (GDestroyNotify) gst_message_unref);
  gst_message_unref (summary);
  pair_stop (&p);
  gst_caps_unref (caps);
}

GST_END_TEST;

/* With `interval`, one compare-vmaf message per interval: the means of
 * its frames' values and their count. */
GST_START_TEST (test_vmaf_interval_means)
{
  GstCaps *caps = gst_caps_new_simple ("video/x-raw", "format",
      G_TYPE_STRING, "I420", "width", G_TYPE_INT, SW, "height", G_TYPE_INT,
      SH, "framerate", GST_TYPE_FRACTION, FPS, 1, NULL);
  gdouble each[6], sum = 0;
  GList *msgs, *l;
  GstMessage *summary;
  Pair p;
  gint k = 0;

  pair_start (&p, "metrics=vmaf", caps);
  push_i420 (&p, 0, 6);
  summary = pair_eos (&p);
  msgs = pop_vmaf (&p);
  for (l = msgs; l; l = l->next)
    each[k++] = get_double (gst_message_get_structure (l->data), "vmaf");
  fail_unless_equals_int (k, 6);
  g_list_free_full (msgs, (GDestroyNotify) gst_message_unref);
  gst_message_unref (summary);
  pair_stop (&p);

  /* 3 frames of 40 ms: 120 ms intervals, two messages. */
  pair_start (&p, "metrics=vmaf interval=120000000", caps);
  push_i420 (&p, 0, 6);
  summary = pair_eos (&p);
  msgs = pop_vmaf (&p);
  fail_unless_equals_int (g_list_length (msgs), 2);
  k = 0;
  for (l = msgs; l; l = l->next, k++) {
    const GstStructure *s = gst_message_get_structure (l->data);

    sum = each[3 * k] + each[3 * k + 1] + each[3 * k + 2];
    fail_unless_equals_uint64 (get_u64 (s, "frames"), 3);
    fail_unless (fabs (get_double (s, "vmaf") - sum / 3) < 1e-9);
  }
  g_list_free_full (msgs, (GDestroyNotify) gst_message_unref);
  gst_message_unref (summary);
  pair_stop (&p);
  gst_caps_unref (caps);
}

GST_END_TEST;

/* The VMAF values of @n pairs of @format (P010's samples shifted). */
static void
vmaf_of_format (const gchar * format, gint n, gdouble * out)
{
  GstCaps *caps = gst_caps_new_simple ("video/x-raw", "format",
      G_TYPE_STRING, format, "width", G_TYPE_INT, SW, "height", G_TYPE_INT,
      SH, "framerate", GST_TYPE_FRACTION, FPS, 1, NULL);
  GstVideoFormat f = gst_video_format_from_string (format);
  GList *msgs, *l;
  GstMessage *summary;
  Pair p;
  gint k = 0;

  pair_start (&p, "metrics=vmaf", caps);
  for (gint i = 0; i < n; i++)
    gst_buffer_unref (pair_push (&p, synthetic (f, i, 0), synthetic (f, i,
                20)));
  summary = pair_eos (&p);
  msgs = pop_vmaf (&p);
  for (l = msgs; l; l = l->next)
    out[k++] = get_double (gst_message_get_structure (l->data), "vmaf");
  fail_unless_equals_int (k, n);
  g_list_free_full (msgs, (GDestroyNotify) gst_message_unref);
  gst_message_unref (summary);
  pair_stop (&p);
  gst_caps_unref (caps);
}

/* P010 (NVDEC's 10-bit output) and NV12: the luma read as I420_10LE's and
 * I420's. */
GST_START_TEST (test_vmaf_p010_nv12_equal_planar)
{
  gdouble a[4], b[4];

  vmaf_of_format ("I420_10LE", 4, a);
  vmaf_of_format ("P010_10LE", 4, b);
  for (gint i = 0; i < 4; i++)
    fail_unless_equals_float (a[i], b[i]);
  vmaf_of_format ("I420", 4, a);
  vmaf_of_format ("NV12", 4, b);
  for (gint i = 0; i < 4; i++)
    fail_unless_equals_float (a[i], b[i]);
}

GST_END_TEST;

/* ---- the messages' typed reader -------------------------------------- */

/* compare_message_read() gets back what the writers wrote, and refuses
 * the other message. */
GST_START_TEST (test_compare_message_reader_reads_writers)
{
  SharpnessTimes t = { 40 * GST_MSECOND, 41 * GST_MSECOND, 42 * GST_MSECOND,
    GST_SECOND / FPS
  };
  CompareValues v = { 0 };
  CompareMessage m;
  GstMessage *pair, *vmaf;

  compare_values_add (&v, SHARPNESS_FIELD_PSNR_Y, 31.5);
  compare_values_add (&v, SHARPNESS_FIELD_SSIM_ALL, 0.97);
  pair = compare_message_new (NULL, &t, 7, &v, 3, 1);
  v.n = 0;
  compare_values_add (&v, SHARPNESS_FIELD_VMAF, 88.25);
  compare_values_add (&v, SHARPNESS_FIELD_INTEGER_MOTION2, 2.5);
  vmaf = compare_vmaf_message_new (NULL, &t, 6, &v, 0);

  fail_unless (compare_message_read (pair, FALSE, &m));
  fail_unless_equals_uint64 (m.frame, 7);
  fail_unless_equals_uint64 (m.frames, 3);
  fail_unless_equals_uint64 (m.unpaired, 1);
  fail_unless_equals_uint64 (m.times.running_time, 42 * GST_MSECOND);
  fail_unless_equals_int (m.values.n, 2);
  fail_unless_equals_float (compare_message_value (&m,
          SHARPNESS_FIELD_PSNR_Y), 31.5);
  fail_unless_equals_float (compare_message_value (&m,
          SHARPNESS_FIELD_SSIM_ALL), 0.97);
  fail_unless (isnan (compare_message_value (&m, SHARPNESS_FIELD_VMAF)));
  fail_if (compare_message_read (pair, TRUE, &m));

  fail_unless (compare_message_read (vmaf, TRUE, &m));
  fail_unless_equals_uint64 (m.frame, 6);
  fail_unless_equals_uint64 (m.frames, 0);
  fail_unless_equals_float (compare_message_value (&m, SHARPNESS_FIELD_VMAF),
      88.25);
  fail_unless_equals_float (compare_message_value (&m,
          SHARPNESS_FIELD_INTEGER_MOTION2), 2.5);
  fail_if (compare_message_read (vmaf, FALSE, &m));
  gst_message_unref (pair);
  gst_message_unref (vmaf);
}

GST_END_TEST;

/* ---- bad models ------------------------------------------------------ */

/* Starting with vmaf-model=@model fails with an error containing @want. */
static void
check_refused (const gchar * model, const gchar * want)
{
  GstElement *e = gst_element_factory_make ("cudacompare", NULL);
  GstBus *bus = gst_bus_new ();
  GstMessage *m;
  GError *err = NULL;

  g_object_set (e, "vmaf-model", model, NULL);
  gst_util_set_object_arg (G_OBJECT (e), "metrics", "vmaf");
  gst_element_set_bus (e, bus);
  fail_unless_equals_int (gst_element_set_state (e, GST_STATE_PAUSED),
      GST_STATE_CHANGE_FAILURE);
  m = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  fail_unless (m != NULL, "no error for vmaf-model=%s", model);
  gst_message_parse_error (m, &err, NULL);
  fail_unless (strstr (err->message, want) != NULL, "\"%s\" lacks \"%s\"",
      err->message, want);
  g_clear_error (&err);
  gst_message_unref (m);
  gst_element_set_state (e, GST_STATE_NULL);
  gst_object_unref (e);
  gst_object_unref (bus);
}

GST_START_TEST (test_vmaf_bad_model_refused_with_reason)
{
  gchar *path = g_build_filename (g_get_tmp_dir (), "cudacompare-bad.json",
      NULL);

  check_refused ("/nonexistent/model.json",
      "/nonexistent/model.json: No such file");
  check_refused ("vmaf_v9", "vmaf_v9: not a built-in model");
  fail_unless (g_file_set_contents (path, "{\"model_dict\": {\"model_type\": "
          "\"LIBSVMNUSVR\"", -1, NULL));
  check_refused (path, path);
  remove (path);
  g_free (path);
}

GST_END_TEST;

static Suite *
cudacompare_vmaf_suite (void)
{
  Suite *s = suite_create ("cudacompare-vmaf");
  TCase *tc = tcase_create ("vmaf");

  tcase_set_timeout (tc, 600);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_vmaf_one_frame_late_last_at_eos);
  tcase_add_test (tc, test_vmaf_p010_nv12_equal_planar);
  tcase_add_test (tc, test_vmaf_flush_ends_sequence);
  tcase_add_test (tc, test_vmaf_percentiles_off);
  tcase_add_test (tc, test_vmaf_interval_means);
  tcase_add_test (tc, test_vmaf_bad_model_refused_with_reason);
  tcase_add_test (tc, test_compare_message_reader_reads_writers);
  tcase_add_test (tc, test_vmaf_golden_default_model_odd_size);
  tcase_add_test (tc, test_vmaf_golden_neg_model_10bit);
  tcase_add_test (tc, test_vmaf_golden_phone_transform_10bit);
  tcase_add_test (tc, test_vmaf_golden_4k_model_with_psnr);
  tcase_add_test (tc, test_vmaf_stats_json_is_libvmafs);
  tcase_add_test (tc, test_vmaf_stats_xml_is_libvmafs);
  tcase_add_test (tc, test_vmaf_stats_csv_is_libvmafs);
  tcase_add_test (tc, test_vmaf_h264_clip_equals_libvmaf);
  return s;
}

GST_CHECK_MAIN (cudacompare_vmaf);
