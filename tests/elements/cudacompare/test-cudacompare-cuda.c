/* cudacompare on a CUDA device: both inputs in CUDA memory (cudaupload),
 * mixed memory (each way), system memory through the CUDA backend (the
 * pinned pool and the staging copies), the formats that need plane
 * extraction, and nvh264dec on both branches; every value against
 * backend=cpu on the same frames (PSNR, SSIM ffmpeg mode and VMAF to the
 * bit, wang mode and MS-SSIM <= 1e-6 relative), the output buffers the
 * input ones (zero copy) and in the input's memory; VMAF of an H.264 clip
 * and its re-encode after nvh264dec, equal across backends and libvmaf's
 * log of the same frames (tests/vmaf/golden-logs) but for fps.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Exits 77 with "skipped: no CUDA device" without a usable device (CI),
 * "skipped: ..." when a case could not run (no nvh264dec).  Tests run in
 * this process, without gst-check's fork (CUDA does not survive one).
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <gst/gst.h>
#include <gst/app/gstappsink.h>
#include <gst/video/video.h>

#define N_FRAMES 6
#define MAX_FRAMES 64
#define CUDA_CAPS "video/x-raw(memory:CUDAMemory)"
#define PROBE_CAPS "video/x-raw,format=NV12,width=64,height=64"

static gint failures;
static GString *skipped;

#define CHECK(cond, ...) G_STMT_START {                                 \
  if (!(cond)) {                                                        \
    failures++;                                                         \
    g_print ("FAIL %s:%d: ", __FILE__, __LINE__);                       \
    g_print (__VA_ARGS__);                                              \
    g_print ("\n");                                                     \
  }                                                                     \
} G_STMT_END

typedef struct
{
  GstStructure *meta[MAX_FRAMES];
  guint n, cuda_out;
  gboolean error;
  gchar *error_text;
} Run;

static void
run_clear (Run * r)
{
  for (guint i = 0; i < r->n; i++)
    gst_structure_free (r->meta[i]);
  g_free (r->error_text);
  memset (r, 0, sizeof (*r));
}

/* Runs "@ref ! c.ref_sink @dist ! c.dist_sink cudacompare name=c @props !
 * appsink"; collects the metas. */
static void
run (const gchar * ref, const gchar * dist, const gchar * props, Run * r)
{
  gchar *desc = g_strdup_printf ("cudacompare name=c %s ! appsink name=s "
      "sync=false wait-on-eos=false %s ! c.ref_sink %s ! c.dist_sink", props,
      ref, dist);
  GError *err = NULL;
  GstElement *pipe = gst_parse_launch (desc, &err);
  GstElement *sink;
  GstBus *bus;
  GstMessage *msg;
  GstSample *sample;

  memset (r, 0, sizeof (*r));
  if (!pipe) {
    r->error = TRUE;
    r->error_text = g_strdup_printf ("%s: %s", desc, err->message);
    g_clear_error (&err);
    g_free (desc);
    return;
  }
  g_free (desc);
  sink = gst_bin_get_by_name (GST_BIN (pipe), "s");
  bus = gst_element_get_bus (pipe);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  if (!msg || GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    r->error = TRUE;
    if (msg) {
      gchar *dbg = NULL;

      gst_message_parse_error (msg, &err, &dbg);
      r->error_text = g_strdup_printf ("%s (%s)", err->message, dbg);
      g_clear_error (&err);
      g_free (dbg);
    } else {
      r->error_text = g_strdup ("timeout (deadlock?)");
    }
  }
  while ((sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink), 0))) {
    GstBuffer *buf = gst_sample_get_buffer (sample);
    GstCustomMeta *meta = gst_buffer_get_custom_meta (buf, "GstCompareMeta");

    if (r->n < MAX_FRAMES) {
      r->meta[r->n] = meta ?
          gst_structure_copy (gst_custom_meta_get_structure (meta)) :
          gst_structure_new_empty ("none");
      r->cuda_out += gst_memory_is_type (gst_buffer_peek_memory (buf, 0),
          "gst.cuda.memory");
      r->n++;
    }
    gst_sample_unref (sample);
  }
  if (msg)
    gst_message_unref (msg);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (sink);
  gst_object_unref (pipe);
}

/* VMAF too: both backends score the same host luma with the same code. */
static gboolean
exact_field (const gchar * name)
{
  return g_str_has_prefix (name, "psnr-") || g_str_has_prefix (name, "mse-")
      || g_str_equal (name, "vmaf") || g_str_has_prefix (name, "integer_");
}

typedef struct
{
  const GstStructure *want;
  const gchar *what;
  guint frame;
  gboolean ssim_exact;
} CompareCtx;

static gboolean
compare_field (GQuark field, const GValue * value, gpointer user_data)
{
  CompareCtx *c = user_data;
  const gchar *name = g_quark_to_string (field);
  gdouble got, want;

  if (!G_VALUE_HOLDS_DOUBLE (value))
    return TRUE;
  got = g_value_get_double (value);
  if (!gst_structure_get_double (c->want, name, &want)) {
    CHECK (FALSE, "%s frame %u: %s only on the GPU", c->what, c->frame, name);
    return TRUE;
  }
  if (exact_field (name) || (c->ssim_exact && g_str_has_prefix (name,
              "ssim-")))
    CHECK (got == want || (isnan (got) && isnan (want)),
        "%s frame %u: %s GPU %.17g CPU %.17g", c->what, c->frame, name, got,
        want);
  else
    CHECK (fabs (got - want) <= 1e-6 * MAX (fabs (want), 1e-300) ||
        (isinf (got) && got == want), "%s frame %u: %s GPU %.17g CPU %.17g",
        c->what, c->frame, name, got, want);
  return TRUE;
}

/* @gpu's metas equal @cpu's (same fields, values as the module says). */
static void
check_same (const gchar * what, Run * gpu, Run * cpu, gboolean ssim_exact)
{
  CHECK (!gpu->error, "%s: %s", what, gpu->error_text);
  CHECK (!cpu->error, "%s (cpu): %s", what, cpu->error_text);
  CHECK (gpu->n == cpu->n && gpu->n == N_FRAMES, "%s: %u frames, cpu %u",
      what, gpu->n, cpu->n);
  for (guint i = 0; i < MIN (gpu->n, cpu->n); i++) {
    CompareCtx c = { cpu->meta[i], what, i, ssim_exact };

    CHECK (gst_structure_n_fields (gpu->meta[i]) ==
        gst_structure_n_fields (cpu->meta[i]), "%s frame %u: fields %s vs %s",
        what, i, gst_structure_to_string (gpu->meta[i]),
        gst_structure_to_string (cpu->meta[i]));
    gst_structure_foreach (gpu->meta[i], compare_field, &c);
  }
}

static gchar *
source (const gchar * format, gint w, gint h, gint kx2, gboolean cuda)
{
  return g_strdup_printf ("videotestsrc num-buffers=%d pattern=zone-plate "
      "kx2=%d ky2=20 kt=1 ! video/x-raw,format=%s,width=%d,height=%d,"
      "framerate=25/1%s", N_FRAMES, kx2, format, w, h,
      cuda ? " ! cudaupload ! " CUDA_CAPS : "");
}

/* One format and size, every memory combination, against the CPU. */
static void
check_format (const gchar * format, gint w, gint h, const gchar * props)
{
  gchar *rs = source (format, w, h, 20, FALSE);
  gchar *ds = source (format, w, h, 21, FALSE);
  gchar *rc = source (format, w, h, 20, TRUE);
  gchar *dc = source (format, w, h, 21, TRUE);
  gchar *cpu_props = g_strdup_printf ("backend=cpu %s", props);
  gchar *gpu_props = g_strdup_printf ("backend=cuda %s", props);
  gboolean wang = strstr (props, "wang") != NULL;
  Run cpu, gpu;
  gchar *what;

  run (rs, ds, cpu_props, &cpu);

  what = g_strdup_printf ("%s %dx%d %s cuda+cuda", format, w, h, props);
  run (rc, dc, gpu_props, &gpu);
  check_same (what, &gpu, &cpu, !wang);
  CHECK (gpu.cuda_out == gpu.n, "%s: %u of %u outputs in CUDA memory", what,
      gpu.cuda_out, gpu.n);
  run_clear (&gpu);
  g_free (what);

  what = g_strdup_printf ("%s %dx%d %s cuda+system", format, w, h, props);
  run (rc, ds, gpu_props, &gpu);
  check_same (what, &gpu, &cpu, !wang);
  CHECK (gpu.cuda_out == 0, "%s: outputs in CUDA memory", what);
  run_clear (&gpu);
  g_free (what);

  what = g_strdup_printf ("%s %dx%d %s system+cuda", format, w, h, props);
  run (rs, dc, gpu_props, &gpu);
  check_same (what, &gpu, &cpu, !wang);
  run_clear (&gpu);
  g_free (what);

  what = g_strdup_printf ("%s %dx%d %s system+system", format, w, h, props);
  run (rs, ds, gpu_props, &gpu);
  check_same (what, &gpu, &cpu, !wang);
  run_clear (&gpu);
  g_free (what);

  what = g_strdup_printf ("%s %dx%d %s system, no pinned pool", format, w, h,
      props);
  {
    gchar *p = g_strdup_printf ("%s pinned-pool=false", gpu_props);

    run (rs, ds, p, &gpu);
    g_free (p);
  }
  check_same (what, &gpu, &cpu, !wang);
  run_clear (&gpu);
  g_free (what);

  run_clear (&cpu);
  g_free (rs);
  g_free (ds);
  g_free (rc);
  g_free (dc);
  g_free (cpu_props);
  g_free (gpu_props);
  g_print ("ok %s %dx%d %s\n", format, w, h, props);
}

/* nvh264dec on both branches: identical frames, PSNR +inf, SSIM 1 (All
 * within rounding), in
 * CUDA memory end to end. */
static void
check_nvdec (const gchar * clip)
{
  gchar *src = g_strdup_printf ("filesrc location=%s ! h264parse ! "
      "nvh264dec ! " CUDA_CAPS, clip);
  Run r;
  gdouble v;

  if (!gst_element_factory_find ("nvh264dec") ||
      !g_file_test (clip, G_FILE_TEST_EXISTS)) {
    g_print ("skipped: nvh264dec or %s missing\n", clip);
    g_string_append (skipped, "nvdec ");
    g_free (src);
    return;
  }
  run (src, src, "backend=cuda metrics=psnr+ssim+ms-ssim", &r);
  CHECK (!r.error, "nvdec: %s", r.error_text);
  CHECK (r.n > 0 && r.cuda_out == r.n, "nvdec: %u outputs, %u in CUDA "
      "memory", r.n, r.cuda_out);
  for (guint i = 0; i < r.n; i++) {
    CHECK (gst_structure_get_double (r.meta[i], "psnr-y", &v) && isinf (v),
        "nvdec frame %u: psnr-y %g", i, v);
    CHECK (gst_structure_get_double (r.meta[i], "ssim-y", &v) && v == 1.0,
        "nvdec frame %u: ssim-y %.17g", i, v);
    /* 'All' weights the planes 4/6, 1/6, 1/6 in double, as vf_ssim.c:
     * 1 - 1.1e-16 for identical frames (FFmpeg prints 1.000000). */
    CHECK (gst_structure_get_double (r.meta[i], "ssim-all", &v) &&
        fabs (v - 1.0) <= 4 * DBL_EPSILON, "nvdec frame %u: ssim-all %.17g",
        i, v);
  }
  run_clear (&r);
  g_free (src);
  g_print ("ok nvh264dec x2\n");
}

/* The file @ours the bytes of @theirs but for libvmaf's fps. */
static gboolean
same_but_fps (const gchar * ours, const gchar * theirs)
{
  GRegex *fps = g_regex_new ("fps(\"?[:=] ?\"?)[0-9.]+", 0, 0, NULL);
  gchar *a = NULL, *b = NULL, *x, *y;
  gboolean same = FALSE;

  if (g_file_get_contents (ours, &a, NULL, NULL) &&
      g_file_get_contents (theirs, &b, NULL, NULL)) {
    x = g_regex_replace (fps, a, -1, 0, "fps\\1N", 0, NULL);
    y = g_regex_replace (fps, b, -1, 0, "fps\\1N", 0, NULL);
    same = g_strcmp0 (x, y) == 0;
    g_free (x);
    g_free (y);
  }
  g_free (a);
  g_free (b);
  g_regex_unref (fps);
  return same;
}

/* VMAF of a real H.264 clip (reference) and its CRF 40 re-encode
 * (distorted), both through nvh264dec into CUDA memory: backend=cuda
 * (the luma downloaded from the decoder's frames) equal to backend=cpu
 * (the frames mapped to the host) to the bit, every frame's VMAF and
 * features; the outputs stay in CUDA memory. */
static void
check_nvdec_vmaf (const gchar * ref_clip, const gchar * dist_clip,
    const gchar * golden_log)
{
  gchar *log = g_build_filename (g_get_tmp_dir (), "cudacompare-nvdec.json",
      NULL);
  gchar *gpu_props = g_strdup_printf ("backend=cuda metrics=psnr+vmaf "
      "stats-file=%s stats-format=vmaf-json", log);
  gchar *ref = g_strdup_printf ("filesrc location=%s ! h264parse ! "
      "nvh264dec ! " CUDA_CAPS, ref_clip);
  gchar *dist = g_strdup_printf ("filesrc location=%s ! h264parse ! "
      "nvh264dec ! " CUDA_CAPS, dist_clip);
  Run gpu, cpu;
  gdouble v;

  if (!gst_element_factory_find ("nvh264dec") ||
      !g_file_test (ref_clip, G_FILE_TEST_EXISTS) ||
      !g_file_test (dist_clip, G_FILE_TEST_EXISTS)) {
    g_print ("skipped: nvh264dec or the clips missing\n");
    g_string_append (skipped, "nvdec-vmaf ");
    g_free (ref);
    g_free (dist);
    g_free (log);
    g_free (gpu_props);
    return;
  }
  run (ref, dist, gpu_props, &gpu);
  /* H.264 decoding is exact: nvh264dec's frames are FFmpeg's, and the
   * GPU path's log libvmaf's of them. */
  CHECK (same_but_fps (log, golden_log), "nvdec vmaf: %s is not libvmaf's "
      "%s (but for fps)", log, golden_log);
  remove (log);
  run (ref, dist, "backend=cpu metrics=psnr+vmaf", &cpu);
  CHECK (!gpu.error && !cpu.error, "nvdec vmaf: %s / %s", gpu.error_text,
      cpu.error_text);
  CHECK (gpu.n == 30 && cpu.n == 30, "nvdec vmaf: %u and %u frames", gpu.n,
      cpu.n);
  CHECK (gpu.cuda_out == gpu.n, "nvdec vmaf: %u of %u outputs in CUDA "
      "memory", gpu.cuda_out, gpu.n);
  for (guint i = 0; i < MIN (gpu.n, cpu.n); i++) {
    CompareCtx c = { cpu.meta[i], "nvdec vmaf", i, TRUE };

    CHECK (gst_structure_n_fields (gpu.meta[i]) ==
        gst_structure_n_fields (cpu.meta[i]), "nvdec vmaf frame %u: fields "
        "differ", i);
    gst_structure_foreach (gpu.meta[i], compare_field, &c);
    /* Frame i's meta holds frame i - 1's VMAF; a re-encode scores low. */
    if (i > 0)
      CHECK (gst_structure_get_double (gpu.meta[i], "vmaf", &v) && v > 0 &&
          v < 100, "nvdec vmaf frame %u: vmaf %g", i, v);
  }
  run_clear (&gpu);
  run_clear (&cpu);
  g_free (ref);
  g_free (dist);
  g_free (log);
  g_free (gpu_props);
  g_print ("ok nvh264dec vmaf\n");
}

static gboolean
have_cuda (void)
{
  GstElement *p;
  GstMessage *msg;
  GError *err = NULL;
  gboolean ok;

  if (!gst_element_factory_find ("cudaupload"))
    return FALSE;
  /* Both branches fixed to one format and size: a mismatch would read as
   * "no device".  Pads named: gst_parse_launch links an unnamed pad
   * request to the first free sink pad, ref_sink. */
  p = gst_parse_launch ("cudacompare name=c backend=cuda ! fakesink "
      "videotestsrc num-buffers=1 ! " PROBE_CAPS " ! cudaupload ! " CUDA_CAPS
      " ! c.dist_sink videotestsrc num-buffers=1 ! " PROBE_CAPS
      " ! c.ref_sink", &err);
  if (!p || err) {
    g_print ("probe pipeline: %s\n", err ? err->message : "?");
    g_clear_error (&err);
    gst_clear_object (&p);
    return FALSE;
  }
  gst_element_set_state (p, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (p), 30 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  ok = msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS;
  if (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    GError *err = NULL;

    gst_message_parse_error (msg, &err, NULL);
    g_print ("probe pipeline failed: %s\n", err ? err->message : "?");
    g_clear_error (&err);
  }
  if (msg)
    gst_message_unref (msg);
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (p);
  return ok;
}

int
main (int argc, char **argv)
{
  const gchar *root = g_getenv ("SHARPNESS_SOURCE_ROOT");
  gchar *clip;

  gst_init (&argc, &argv);
  skipped = g_string_new (NULL);
  if (!have_cuda ()) {
    g_print ("skipped: no CUDA device\n");
    return 77;
  }

  /* 8-bit 4:2:0 (FFmpeg-mode SSIM and PSNR bit-identical), odd sizes. */
  check_format ("I420", 320, 240, "");
  check_format ("I420", 457, 299, "metrics=psnr+ssim+ms-ssim");
  check_format ("NV12", 1920, 1080, "");
  check_format ("NV12", 322, 242, "ssim-mode=wang metrics=ssim+ms-ssim");
  check_format ("I420", 640, 360, "ssim-mode=wang ssim-downsample=true");
  check_format ("P010_10LE", 320, 240, "metrics=psnr+ssim+ms-ssim");
  check_format ("Y444", 320, 240, "");
  check_format ("Y42B", 321, 241, "");
  check_format ("RGBA", 320, 240, "");
  check_format ("BGR", 318, 238, "");
  /* VMAF: the CUDA backend's download path against the CPU's map. */
  check_format ("I420", 320, 240, "metrics=psnr+vmaf");
  check_format ("NV12", 322, 242, "metrics=vmaf");
  check_format ("P010_10LE", 320, 240, "metrics=vmaf");

  clip = g_build_filename (root ? root : ".", "tests", "data",
      "testsrc2-320x240.h264", NULL);
  check_nvdec (clip);
  {
    gchar *dist = g_build_filename (root ? root : ".", "tests", "data",
        "testsrc2-320x240-crf40.h264", NULL);
    gchar *golden = g_build_filename (root ? root : ".", "tests", "vmaf",
        "golden-logs", "testsrc2-320x240-crf40.vmaf_v0.6.1.json", NULL);

    check_nvdec_vmaf (clip, dist, golden);
    g_free (dist);
    g_free (golden);
  }
  g_free (clip);

  if (failures) {
    g_print ("%d failures\n", failures);
    return 1;
  }
  g_print ("all passed%s%s\n", skipped->len ? "; skipped: " : "",
      skipped->str);
  return 0;
}
