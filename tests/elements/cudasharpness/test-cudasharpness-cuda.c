/* cudasharpness on a CUDA device: system memory with and without the
 * pinned pool, CUDA memory from cudaupload and from nvh264dec, scores
 * and content states (black, freeze, flat: the meta's content-state,
 * black-ratio, freeze-mafd and structure) against backend=cpu on the same
 * frames, CUDA context sharing and adoption, device-id, and the fallback
 * to the CPU after a CUDA failure.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Exits 77 ("skipped: no CUDA device") without a usable device, and 77
 * ("skipped: ...") too when a test could not run (no nvh264dec, or the
 * stream-ordering test on GStreamer < 1.24): no test passes without
 * running.  An argument picks one test case: general, nvdec,
 * stream-order.  Tests run in this process (no fork: CUDA does not
 * survive one), the one that breaks a CUDA context last.
 */
#include <math.h>
#include <string.h>

#include <gst/check/gstcheck.h>
#include <gst/video/video.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>
#include <gst/cuda/gstcudabufferpool.h>
#if GST_CHECK_VERSION (1, 24, 0)
#include <gst/cuda/gstcudastream.h>
#endif
#include <gst/check/gstharness.h>
#include <gmodule.h>

#include "sharpness-metric.h"

/* Why tests did not run, for the final "skipped: ..." line. */
static GString *skipped;

static void
skip (const gchar * why)
{
  g_print ("skipped: %s\n", why);
  if (skipped->len)
    g_string_append (skipped, "; ");
  g_string_append (skipped, why);
}

#define N_FRAMES 12
/* Frames of tests/data/testsrc2-320x240.h264. */
#define CLIP_FRAMES 30
#define MAX_FRAMES 64
#define PINNED_MEMORY_TYPE "SharpnessHostMemory"
/* Deterministic, different frames: a moving zone plate. */
/* cudaupload passes system memory through when downstream accepts it, as
 * cudasharpness does: ask for CUDA memory explicitly. */
#define CUDA_CAPS "video/x-raw(memory:CUDAMemory)"
#define SOURCE "videotestsrc num-buffers=" G_STRINGIFY (N_FRAMES) \
  " pattern=zone-plate kx2=20 ky2=20 kt=1 ! video/x-raw,format=%s," \
  "width=320,height=240,framerate=25/1"

typedef struct
{
  /* Scores of the element named "s", by frame. */
  gdouble scores[MAX_FRAMES];
  guint n_scores;
  /* Buffers entering "s", and how many of them were pinned / CUDA memory. */
  guint buffers, pinned, cuda;
  /* Warnings posted by "s" (domain and text of the first). */
  guint warnings;
  GQuark warning_domain;
  gchar *warning;
  /* The GstCudaContext "s" and "up" (if any) answer a context query with
   * at the end of the stream, before the pipeline stops. */
  GstCudaContext *context, *upstream_context;
  /* The tile-scores and roi-scores of each frame's message, serialized
   * (exact: doubles round-trip), or NULL. */
  gchar *regions[MAX_FRAMES];
  /* The content fields of each output buffer's meta, serialized (exact),
   * by buffer. */
  gchar *content[MAX_FRAMES];
  guint n_content;
} Run;

/* When set, the sink-pad probe of "s" adds these ROIs to every frame, as a
 * detector upstream would. */
static gboolean add_rois;
static const struct
{
  const gchar *type;
  guint x, y, w, h;
} rois[] = {
  {"face", 10, 8, 120, 90}, {"person", 200, 100, 200, 200},
  {"face", 0, 0, 3, 3}, {"face", 161, 47, 17, 33},
};

/* Called from the sink-pad probe of "s" with the buffer's index. */
typedef void (*BufferHook) (guint index, gpointer user_data);

typedef struct
{
  Run *run;
  BufferHook hook;
  gpointer hook_data;
} ProbeData;

static void
run_clear (Run * run)
{
  g_free (run->warning);
  for (guint i = 0; i < MAX_FRAMES; i++) {
    g_free (run->regions[i]);
    g_free (run->content[i]);
  }
  gst_clear_object (&run->context);
  gst_clear_object (&run->upstream_context);
  memset (run, 0, sizeof (*run));
}

static GstPadProbeReturn
on_buffer (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  ProbeData *pd = user_data;
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  GstMemory *mem;

  if (add_rois) {
    buf = gst_buffer_make_writable (buf);
    for (guint i = 0; i < G_N_ELEMENTS (rois); i++)
      gst_buffer_add_video_region_of_interest_meta (buf, rois[i].type,
          rois[i].x, rois[i].y, rois[i].w, rois[i].h)->id = i;
    GST_PAD_PROBE_INFO_DATA (info) = buf;
  }
  mem = gst_buffer_peek_memory (buf, 0);

  if (pd->hook)
    pd->hook (pd->run->buffers, pd->hook_data);
  pd->run->buffers++;
  if (gst_memory_is_type (mem, PINNED_MEMORY_TYPE))
    pd->run->pinned++;
  if (gst_is_cuda_memory (mem))
    pd->run->cuda++;
  return GST_PAD_PROBE_OK;
}

/* The content fields of a GstSharpnessMeta, "-" where absent: doubles
 * printed to round-trip, so that equal text is equal bits. */
static gchar *
serialize_content (const GstStructure * st)
{
  static const gchar *const doubles[] = { "black-ratio", "freeze-mafd",
    "structure", "cpbd", "focus"
  };
  const gchar *state = gst_structure_get_string (st, "content-state");
  GString *out = g_string_new (state ? state : "-");

  for (guint i = 0; i < G_N_ELEMENTS (doubles); i++) {
    gdouble v;

    if (gst_structure_get_double (st, doubles[i], &v))
      g_string_append_printf (out, " %s=%.17g", doubles[i], v);
    else
      g_string_append_printf (out, " %s=-", doubles[i]);
  }
  return g_string_free (out, FALSE);
}

/* Source-pad probe of "s": the content fields of each buffer's meta. */
static GstPadProbeReturn
on_output (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  Run *run = user_data;
  GstCustomMeta *meta =
      gst_buffer_get_custom_meta (GST_PAD_PROBE_INFO_BUFFER (info),
      "GstSharpnessMeta");

  if (run->n_content < MAX_FRAMES)
    run->content[run->n_content++] = meta ?
        serialize_content (gst_custom_meta_get_structure (meta)) :
        g_strdup ("no meta");
  return GST_PAD_PROBE_OK;
}

/* The CUDA context @element answers a context query with, or NULL. */
static GstCudaContext *
query_context (GstElement * element)
{
  GstQuery *query = gst_query_new_context (GST_CUDA_CONTEXT_TYPE);
  GstCudaContext *ctx = NULL;
  GstContext *context = NULL;

  if (gst_element_query (element, query)) {
    gst_query_parse_context (query, &context);
    if (context)
      gst_structure_get (gst_context_get_structure (context),
          GST_CUDA_CONTEXT_TYPE, GST_TYPE_CUDA_CONTEXT, &ctx, NULL);
  }
  gst_query_unref (query);
  return ctx;
}

static guint
context_device (GstCudaContext * ctx)
{
  guint device = G_MAXUINT;

  g_object_get (ctx, "cuda-device-id", &device, NULL);
  return device;
}

/* The tile and ROI scores of a `sharpness` message as text. */
static gchar *
serialize_regions (const GstStructure * st)
{
  const GValue *tiles = gst_structure_get_value (st, "tile-scores");
  const GValue *roi_scores = gst_structure_get_value (st, "roi-scores");
  gchar *t = tiles ? gst_value_serialize (tiles) : g_strdup ("-");
  gchar *r = roi_scores ? gst_value_serialize (roi_scores) : g_strdup ("-");
  gchar *out = g_strdup_printf ("tiles %s rois %s", t, r);

  g_free (t);
  g_free (r);
  return out;
}

/* Runs @desc (with an element "s" and optionally "up") to EOS, calling
 * @hook before each buffer enters "s".  @pipeline_ctx, @s_ctx and @up_ctx,
 * when given, are set on the pipeline, "s" and "up" first.  FALSE when the
 * pipeline does not start or posts an error. */
static gboolean
run_pipeline (const gchar * desc, GstCudaContext * pipeline_ctx,
    GstCudaContext * s_ctx, GstCudaContext * up_ctx, BufferHook hook,
    gpointer hook_data, Run * run)
{
  GstElement *pipeline, *s, *up;
  GstPad *pad;
  GstBus *bus;
  GError *err = NULL;
  ProbeData pd = { run, hook, hook_data };
  gboolean ok = TRUE, done = FALSE;

  memset (run, 0, sizeof (*run));
  pipeline = gst_parse_launch (desc, &err);
  fail_unless (pipeline != NULL, "cannot build %s: %s", desc,
      err ? err->message : "?");
  s = gst_bin_get_by_name (GST_BIN (pipeline), "s");
  up = gst_bin_get_by_name (GST_BIN (pipeline), "up");
  fail_unless (s != NULL);

  if (pipeline_ctx) {
    GstContext *c = gst_context_new_cuda_context (pipeline_ctx);
    gst_element_set_context (pipeline, c);
    gst_context_unref (c);
  }
  if (s_ctx) {
    GstContext *c = gst_context_new_cuda_context (s_ctx);
    gst_element_set_context (s, c);
    gst_context_unref (c);
  }
  if (up_ctx && up) {
    GstContext *c = gst_context_new_cuda_context (up_ctx);
    gst_element_set_context (up, c);
    gst_context_unref (c);
  }

  pad = gst_element_get_static_pad (s, "sink");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, on_buffer, &pd, NULL);
  gst_object_unref (pad);
  pad = gst_element_get_static_pad (s, "src");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, on_output, run, NULL);
  gst_object_unref (pad);

  bus = gst_element_get_bus (pipeline);
  if (gst_element_set_state (pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE)
    ok = FALSE;

  while (ok && !done) {
    GstMessage *msg = gst_bus_timed_pop (bus, 60 * GST_SECOND);
    const GstStructure *st;

    fail_unless (msg != NULL, "timeout running %s", desc);
    switch (GST_MESSAGE_TYPE (msg)) {
      case GST_MESSAGE_EOS:
        done = TRUE;
        break;
      case GST_MESSAGE_ERROR:
        gst_message_parse_error (msg, &err, NULL);
        GST_INFO ("error from %s: %s", GST_MESSAGE_SRC_NAME (msg),
            err->message);
        g_clear_error (&err);
        ok = FALSE;
        break;
      case GST_MESSAGE_WARNING:
        if (GST_MESSAGE_SRC (msg) == GST_OBJECT (s)) {
          gst_message_parse_warning (msg, &err, NULL);
          if (!run->warnings++) {
            run->warning_domain = err->domain;
            run->warning = g_strdup (err->message);
          }
          GST_INFO ("warning: %s", err->message);
          g_clear_error (&err);
        }
        break;
      case GST_MESSAGE_ELEMENT:
        st = gst_message_get_structure (msg);
        if (GST_MESSAGE_SRC (msg) == GST_OBJECT (s) &&
            gst_structure_has_name (st, "sharpness")) {
          guint64 frame = 0;
          gdouble score = 0;

          fail_unless (gst_structure_get (st, "frame", G_TYPE_UINT64, &frame,
                  "score", G_TYPE_DOUBLE, &score, NULL));
          fail_unless (frame == run->n_scores && frame < MAX_FRAMES,
              "unexpected frame %" G_GUINT64_FORMAT, frame);
          run->regions[run->n_scores] = serialize_regions (st);
          run->scores[run->n_scores++] = score;
        }
        break;
      default:
        break;
    }
    gst_message_unref (msg);
  }

  if (ok) {
    run->context = query_context (s);
    if (up)
      run->upstream_context = query_context (up);
  }

  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (s);
  gst_clear_object (&up);
  gst_object_unref (pipeline);
  return ok;
}

/* backend=cpu on the same frames (system memory of @format). */
static void
reference_scores (const gchar * format, SharpnessMetric metric, Run * ref)
{
  gchar *src = g_strdup_printf (SOURCE, format);
  gchar *desc = g_strdup_printf ("%s ! cudasharpness name=s backend=cpu "
      "metric=%s ! fakesink", src, sharpness_metric_info[metric].nick);

  fail_unless (run_pipeline (desc, NULL, NULL, NULL, NULL, NULL, ref));
  fail_unless_equals_int (ref->n_scores, N_FRAMES);
  fail_unless_equals_int (ref->warnings, 0);
  g_free (desc);
  g_free (src);
}

/* Classical metrics: the same bits; the others: docs/reference/metrics.md's 1e-4. */
static void
assert_scores_match (SharpnessMetric metric, const Run * run, const Run * ref)
{
  guint i;

  fail_unless_equals_int (run->n_scores, ref->n_scores);
  for (i = 0; i < ref->n_scores; i++) {
    gdouble a = run->scores[i], b = ref->scores[i];

    if (sharpness_metric_info[metric].kind == SHARPNESS_KIND_SUMS)
      fail_unless (a == b, "%s frame %u: GPU %.17g, CPU %.17g",
          sharpness_metric_info[metric].nick, i, a, b);
    else
      fail_unless (fabs (a - b) <= 1e-4 * MAX (1.0, fabs (b)),
          "%s frame %u: GPU %.17g, CPU %.17g",
          sharpness_metric_info[metric].nick, i, a, b);
  }
}

/* The content states and their measurements: the same bits as the CPU's
 * on every frame (the GPU leaving a measurement out shows as a missing
 * field where the CPU has one). */
static void
assert_content_match (const Run * run, const Run * ref, const gchar * what)
{
  fail_unless (ref->n_content > 0, "%s: no frames", what);
  fail_unless_equals_int (run->n_content, ref->n_content);
  for (guint i = 0; i < ref->n_content; i++)
    fail_unless (g_strcmp0 (run->content[i], ref->content[i]) == 0,
        "%s frame %u: GPU \"%s\", CPU \"%s\"", what, i, run->content[i],
        ref->content[i]);
}

/* System-memory NV12 from videotestsrc, which takes the pool the element
 * proposes (pinned) or, with pinned-pool=false, its own. */
static void
check_system_memory (gboolean pinned_pool)
{
  guint m;

  for (m = 0; m < SHARPNESS_METRIC_COUNT; m++) {
    gchar *src = g_strdup_printf (SOURCE, "NV12");
    gchar *desc = g_strdup_printf ("%s ! cudasharpness name=s backend=cuda "
        "metric=%s pinned-pool=%s ! fakesink", src,
        sharpness_metric_info[m].nick, pinned_pool ? "true" : "false");
    Run run, ref;

    GST_INFO ("%s", desc);
    fail_unless (run_pipeline (desc, NULL, NULL, NULL, NULL, NULL, &run),
        "%s failed", desc);
    fail_unless_equals_int (run.warnings, 0);
    fail_unless_equals_int (run.buffers, N_FRAMES);
    fail_unless_equals_int (run.cuda, 0);
    fail_unless_equals_int (run.pinned, pinned_pool ? N_FRAMES : 0);
    reference_scores ("NV12", m, &ref);
    assert_scores_match (m, &run, &ref);
    assert_content_match (&run, &ref, desc);

    run_clear (&run);
    run_clear (&ref);
    g_free (desc);
    g_free (src);
  }
}

GST_START_TEST (test_system_memory_pinned)
{
  check_system_memory (TRUE);
}

GST_END_TEST;

GST_START_TEST (test_system_memory_pageable)
{
  check_system_memory (FALSE);
}

GST_END_TEST;

/* cudaupload ! cudasharpness: every metric on NV12, and the plane layouts
 * of other formats in CUDA memory (pitched, 16-bit, packed RGB). */
GST_START_TEST (test_cudaupload)
{
  static const struct
  {
    const gchar *format;
    SharpnessMetric metric;
  } cases[] = {
    {"I420", SHARPNESS_METRIC_LAPLACIAN},
    {"P010_10LE", SHARPNESS_METRIC_TENENGRAD},
    {"BGRx", SHARPNESS_METRIC_SMD},
    {"RGB", SHARPNESS_METRIC_VARIANCE},
  };
  guint i, n = SHARPNESS_METRIC_COUNT + G_N_ELEMENTS (cases);

  for (i = 0; i < n; i++) {
    const gchar *format = i < SHARPNESS_METRIC_COUNT ? "NV12" :
        cases[i - SHARPNESS_METRIC_COUNT].format;
    SharpnessMetric m = i < SHARPNESS_METRIC_COUNT ? (SharpnessMetric) i :
        cases[i - SHARPNESS_METRIC_COUNT].metric;
    gchar *src = g_strdup_printf (SOURCE, format);
    gchar *desc = g_strdup_printf ("%s ! cudaupload name=up ! "
        CUDA_CAPS " ! cudasharpness name=s backend=cuda metric=%s ! fakesink",
        src, sharpness_metric_info[m].nick);
    Run run, ref;

    GST_INFO ("%s", desc);
    fail_unless (run_pipeline (desc, NULL, NULL, NULL, NULL, NULL, &run),
        "%s failed", desc);
    fail_unless_equals_int (run.warnings, 0);
    fail_unless_equals_int (run.cuda, N_FRAMES);
    /* One context for the whole chain, found through the context query. */
    fail_unless (run.context != NULL && run.context == run.upstream_context,
        "%s: cudasharpness uses context %p, cudaupload %p", format,
        run.context, run.upstream_context);
    reference_scores (format, m, &ref);
    assert_scores_match (m, &run, &ref);
    assert_content_match (&run, &ref, desc);

    run_clear (&run);
    run_clear (&ref);
    g_free (desc);
    g_free (src);
  }
}

GST_END_TEST;

/* Whether cudaupload can put @format into CUDA memory (its source
 * template lists the formats GStreamer's CUDA memory holds, which grew
 * over releases: the capture formats are recent). */
static gboolean
cuda_memory_takes (const gchar * format)
{
  GstElementFactory *f = gst_element_factory_find ("cudaupload");
  gchar *want = g_strdup_printf (CUDA_CAPS ",format=%s", format);
  GstCaps *caps = gst_caps_from_string (want);
  gboolean ok = FALSE;

  if (f) {
    for (const GList * l = gst_element_factory_get_static_pad_templates (f);
        l; l = l->next) {
      GstStaticPadTemplate *t = l->data;
      GstCaps *tc;

      if (t->direction != GST_PAD_SRC)
        continue;
      tc = gst_static_pad_template_get_caps (t);
      ok = ok || gst_caps_can_intersect (tc, caps);
      gst_caps_unref (tc);
    }
    gst_object_unref (f);
  }
  gst_caps_unref (caps);
  g_free (want);
  return ok;
}

/* Black, freeze and flat measured on the GPU, from CUDA memory
 * (through the scoring service and, with it off, beside the metric on the
 * element's stream) and from system memory (staged once for the metric
 * and the freeze SAD): every frame's content state, black ratio, freeze
 * MAFD and structure equal to backend=cpu's.  Frames repeat (5 fps shown
 * at 25), so that freeze references are kept and not kept; a short
 * freeze-min-duration makes frozen states; dark frames make black ones. */
GST_START_TEST (test_content_states)
{
  static const struct
  {
    const gchar *format, *pattern, *upload, *metric, *options;
    gboolean no_service;
    gint width, height;         /* 0: 320x240 or 318x237 by turns */
  } cases[] = {
    /* Capture-card formats, read in place: system memory, and CUDA memory
     * where cudaupload takes them. */
    {"UYVY", "ball", "", "laplacian", "", FALSE},
    {"YUY2", "zone-plate kx2=20 ky2=20 kt=1", "cudaupload name=up ! "
          CUDA_CAPS " ! ", "tenengrad", "", FALSE},
    {"UYVY", "black", "cudaupload name=up ! " CUDA_CAPS " ! ", "laplacian",
        "black-min-duration=100000000", TRUE},
    /* v210: freeze on the yuv422p10le sum FFmpeg's decoded frame gives,
     * read from the packed words (the kernel's SAD items against the
     * CPU's sharpness_freeze_sad), black and flat; widths whose last
     * 6-pixel group is partly used (320, 1918, 49, 7) and not (318). */
    {"v210", "zone-plate kx2=20 ky2=20 kt=1", "", "laplacian", "", FALSE},
    {"v210", "black", "", "variance", "black-min-duration=100000000", FALSE},
    {"v210", "ball", "", "laplacian", "", FALSE, 1918, 1080},
    {"v210", "snow", "", "tenengrad", "", TRUE, 49, 7},
    {"v210", "ball", "", "laplacian", "", FALSE, 7, 5},
    /* ProRes 4:2:2's decoder output: yuv422p10le, no conversion. */
    {"I422_10LE", "ball", "", "laplacian", "", FALSE, 1918, 1080},
    {"I420_10LE", "ball", "", "laplacian", "", FALSE},
    {"NV12", "zone-plate kx2=20 ky2=20 kt=1", "cudaupload name=up ! "
          CUDA_CAPS " ! ", "laplacian", "", FALSE},
    {"NV12", "zone-plate kx2=20 ky2=20 kt=1", "cudaupload name=up ! "
          CUDA_CAPS " ! ", "laplacian", "", TRUE},
    {"NV12", "zone-plate kx2=20 ky2=20 kt=1", "", "laplacian", "", FALSE},
    {"I420", "ball", "cudaupload name=up ! " CUDA_CAPS " ! ", "tenengrad",
        "tiles=8x4", FALSE},
    {"P010_10LE", "zone-plate kx2=20 ky2=20 kt=1", "cudaupload name=up ! "
          CUDA_CAPS " ! ", "smd", "", FALSE},
    {"RGBA", "ball", "cudaupload name=up ! " CUDA_CAPS " ! ", "variance",
        "", TRUE},
    {"GRAY8", "snow", "", "entropy", "", FALSE},
    {"NV12", "black", "cudaupload name=up ! " CUDA_CAPS " ! ", "laplacian",
        "black-min-duration=100000000", FALSE},
    {"Y444", "smpte", "", "lpc-si", "", FALSE},
    /* CPBD and the focus tiles, read by the absolute test: every frame
     * over the threshold, so that the CPU, which measures them only
     * there, measures them on all (the GPU's focus from CUDA memory and
     * from a host frame it copies). */
    {"I420", "ball", "cudaupload name=up ! " CUDA_CAPS " ! ", "blur-effect",
        "threshold=0.000001 cpbd-threshold=0.3 focus-threshold=0.4", FALSE,
        1918, 1080},
    {"NV12", "zone-plate kx2=20 ky2=20 kt=1", "", "laplacian",
        "threshold=1e300 cpbd-threshold=0.3 focus-threshold=0.4", TRUE},
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    if (cases[i].upload[0] && !cuda_memory_takes (cases[i].format)) {
      GST_INFO ("cudaupload does not take %s: case %u left out",
          cases[i].format, i);
      continue;
    }
    /* The last frames in full range: the black threshold moves. */
    gchar *src = g_strdup_printf ("videotestsrc num-buffers=6 pattern=%s ! "
        "video/x-raw,format=%s,width=%d,height=%d,framerate=5/1%s ! "
        "videorate ! video/x-raw,framerate=25/1", cases[i].pattern,
        cases[i].format, cases[i].width ? cases[i].width : i % 2 ? 320 : 318,
        cases[i].height ? cases[i].height : i % 2 ? 240 : 237,
        i + 1 == G_N_ELEMENTS (cases) ? ",colorimetry=jpeg" : "");
    gchar *opts = g_strdup_printf ("metric=%s detect=black+freeze+flat "
        "freeze-min-duration=100000000 %s", cases[i].metric,
        cases[i].options);
    gchar *desc = g_strdup_printf ("%s ! %scudasharpness name=s backend=cuda "
        "%s ! fakesink", src, cases[i].upload, opts);
    gchar *ref_desc = g_strdup_printf ("%s ! cudasharpness name=s "
        "backend=cpu %s ! fakesink", src, opts);
    Run run, ref;

    if (cases[i].no_service)
      g_setenv ("SHARPNESS_CUDA_NO_SERVICE", "1", TRUE);
    GST_INFO ("%s", desc);
    fail_unless (run_pipeline (desc, NULL, NULL, NULL, NULL, NULL, &run),
        "%s failed", desc);
    g_unsetenv ("SHARPNESS_CUDA_NO_SERVICE");
    fail_unless_equals_int (run.warnings, 0);
    fail_unless (run_pipeline (ref_desc, NULL, NULL, NULL, NULL, NULL, &ref),
        "%s failed", ref_desc);
    fail_unless (ref.n_content > 20, "%s: %u frames", ref_desc,
        ref.n_content);
    /* Measured, not left out: every field is there (v210's freeze
     * too); CPBD and the focus with an absolute threshold. */
    for (guint f = 0; f < ref.n_content; f++) {
      gchar *fields = g_strdup (ref.content[f]);
      gchar *cpbd = strstr (fields, " cpbd=");
      gchar *focus = strstr (fields, " focus=");

      fail_unless (cpbd != NULL && focus != NULL);
      fail_unless ((strstr (opts, "focus-threshold=") != NULL) ==
          (strcmp (focus, " focus=-") != 0), "%s frame %u: %s", ref_desc, f,
          ref.content[f]);
      *focus = '\0';
      fail_unless ((strstr (opts, "cpbd-threshold=") != NULL) ==
          (strcmp (cpbd, " cpbd=-") != 0), "%s frame %u: %s", ref_desc, f,
          ref.content[f]);
      *cpbd = '\0';
      fail_unless (strstr (fields, "=-") == NULL, "%s frame %u: %s",
          ref_desc, f, ref.content[f]);
      g_free (fields);
    }
    assert_content_match (&run, &ref, desc);

    run_clear (&run);
    run_clear (&ref);
    g_free (ref_desc);
    g_free (desc);
    g_free (opts);
    g_free (src);
  }
}

GST_END_TEST;

/* Tiles, top-percent pooling and ROIs on the GPU, from system
 * memory (staged) and CUDA memory: frame, tile and ROI scores equal to
 * backend=cpu's, to the bit.  64x64 tiles of 320x240 (5x3 pixels) take
 * the kernels' slow tile path, 8x4 the fast one. */
GST_START_TEST (test_tiles_and_rois)
{
  static const struct
  {
    const gchar *format, *upload, *options;
    SharpnessMetric metric;
  } cases[] = {
    {"NV12", "", "tiles=8x4", SHARPNESS_METRIC_LAPLACIAN},
    {"NV12", "", "tiles=64x64 pooling=top-percent",
        SHARPNESS_METRIC_TENENGRAD},
    {"NV12", "cudaupload name=up ! " CUDA_CAPS " ! ", "tiles=8x4",
        SHARPNESS_METRIC_ENTROPY},
    {"I420", "cudaupload name=up ! " CUDA_CAPS " ! ",
        "tiles=7x5 pooling=top-percent pooling-percent=30",
        SHARPNESS_METRIC_VARIANCE},
    {"BGRx", "cudaupload name=up ! " CUDA_CAPS " ! ", "pooling=top-percent",
        SHARPNESS_METRIC_SMD},
  };

  add_rois = TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    const gchar *nick = sharpness_metric_info[cases[i].metric].nick;
    gchar *src = g_strdup_printf (SOURCE, cases[i].format);
    gchar *desc = g_strdup_printf ("%s ! %scudasharpness name=s backend=cuda "
        "metric=%s %s ! fakesink", src, cases[i].upload, nick,
        cases[i].options);
    gchar *ref_desc = g_strdup_printf ("%s ! cudasharpness name=s "
        "backend=cpu metric=%s %s ! fakesink", src, nick, cases[i].options);
    Run run, ref;

    GST_INFO ("%s", desc);
    fail_unless (run_pipeline (desc, NULL, NULL, NULL, NULL, NULL, &run),
        "%s failed", desc);
    fail_unless_equals_int (run.warnings, 0);
    fail_unless (run_pipeline (ref_desc, NULL, NULL, NULL, NULL, NULL, &ref));
    assert_scores_match (cases[i].metric, &run, &ref);
    for (guint f = 0; f < ref.n_scores; f++) {
      /* Every frame has ROI scores (the zero-sized ones are none here). */
      fail_unless (strstr (ref.regions[f], "rois <") != NULL, "%s",
          ref.regions[f]);
      fail_unless_equals_string (run.regions[f], ref.regions[f]);
    }
    run_clear (&run);
    run_clear (&ref);
    g_free (ref_desc);
    g_free (desc);
    g_free (src);
  }
  add_rois = FALSE;
}

GST_END_TEST;

/* Given a context of its own, the element switches to the one the
 * incoming CUDA memory lives in rather than reading it from another. */
GST_START_TEST (test_adopts_memory_context)
{
  GstCudaContext *theirs = gst_cuda_context_new (0);
  GstCudaContext *ours = gst_cuda_context_new (0);
  gchar *src = g_strdup_printf (SOURCE, "NV12");
  gchar *desc = g_strdup_printf ("%s ! cudaupload name=up ! " CUDA_CAPS
      " ! cudasharpness name=s backend=cuda metric=tenengrad ! fakesink", src);
  Run run, ref;

  fail_unless (theirs && ours);
  fail_unless (run_pipeline (desc, NULL, ours, theirs, NULL, NULL, &run));
  fail_unless_equals_int (run.warnings, 0);
  fail_unless_equals_int (run.cuda, N_FRAMES);
  fail_unless (run.upstream_context == theirs);
  fail_unless (run.context == theirs, "element kept context %p, memory is "
      "in %p", run.context, theirs);
  reference_scores ("NV12", SHARPNESS_METRIC_TENENGRAD, &ref);
  assert_scores_match (SHARPNESS_METRIC_TENENGRAD, &run, &ref);

  run_clear (&run);
  run_clear (&ref);
  g_free (desc);
  g_free (src);
  gst_object_unref (theirs);
  gst_object_unref (ours);
}

GST_END_TEST;

/* Frames decoded by NVDEC, read in place: the same scores as the decoder's
 * system-memory output scored on the CPU. */
GST_START_TEST (test_nvh264dec)
{
  const gchar *root = g_getenv ("SHARPNESS_SOURCE_ROOT");
  gchar *clip, *desc, *ref_desc;
  Run run, ref;
  guint m;

  if (!gst_registry_check_feature_version (gst_registry_get (), "nvh264dec",
          1, 22, 0) || !gst_registry_check_feature_version (gst_registry_get (),
          "h264parse", 1, 22, 0)) {
    skip ("test_nvh264dec: nvh264dec or h264parse missing");
    return;
  }
  fail_unless (root != NULL, "SHARPNESS_SOURCE_ROOT is not set");
  clip = g_build_filename (root, "tests", "data", "testsrc2-320x240.h264",
      NULL);

  for (m = 0; m < SHARPNESS_METRIC_COUNT; m++) {
    const gchar *nick = sharpness_metric_info[m].nick;

    desc = g_strdup_printf ("filesrc location=\"%s\" ! h264parse ! "
        "nvh264dec ! cudasharpness name=s backend=cuda metric=%s ! "
        "fakesink", clip, nick);
    ref_desc = g_strdup_printf ("filesrc location=\"%s\" ! h264parse ! "
        "nvh264dec ! video/x-raw,format=NV12 ! cudasharpness name=s "
        "backend=cpu metric=%s ! fakesink", clip, nick);

    fail_unless (run_pipeline (desc, NULL, NULL, NULL, NULL, NULL, &run),
        "%s failed", desc);
    fail_unless (run_pipeline (ref_desc, NULL, NULL, NULL, NULL, NULL, &ref),
        "%s failed", ref_desc);
    fail_unless_equals_int (ref.n_scores, CLIP_FRAMES);
    fail_unless_equals_int (run.warnings, 0);
    fail_unless (run.cuda > 0 && run.cuda == run.buffers,
        "nvh264dec gave %u CUDA buffers of %u", run.cuda, run.buffers);
    fail_unless_equals_int (ref.cuda, 0);
    assert_scores_match (m, &run, &ref);
    assert_content_match (&run, &ref, desc);

    run_clear (&run);
    run_clear (&ref);
    g_free (desc);
    g_free (ref_desc);
  }
  g_free (clip);
}

GST_END_TEST;

GST_START_TEST (test_device_id)
{
  gchar *src = g_strdup_printf (SOURCE, "NV12");
  gchar *desc;
  Run run, ref;
  int count = 0;

  fail_unless (CuDeviceGetCount (&count) == CUDA_SUCCESS && count > 0);

  /* The last device by number: the element's context is on it. */
  desc = g_strdup_printf ("%s ! cudasharpness name=s backend=cuda "
      "cuda-device-id=%d metric=smd ! fakesink", src, count - 1);
  fail_unless (run_pipeline (desc, NULL, NULL, NULL, NULL, NULL, &run));
  fail_unless_equals_int (run.warnings, 0);
  fail_unless (run.context != NULL);
  fail_unless_equals_int (context_device (run.context), count - 1);
  reference_scores ("NV12", SHARPNESS_METRIC_SMD, &ref);
  assert_scores_match (SHARPNESS_METRIC_SMD, &run, &ref);
  run_clear (&run);
  g_free (desc);

  /* A device that does not exist: backend=cuda refuses to start ... */
  desc = g_strdup_printf ("%s ! cudasharpness name=s backend=cuda "
      "device-id=%d metric=smd ! fakesink", src, count);
  fail_if (run_pipeline (desc, NULL, NULL, NULL, NULL, NULL, &run));
  run_clear (&run);
  g_free (desc);

  /* ... backend=auto warns and scores on the CPU. */
  desc = g_strdup_printf ("%s ! cudasharpness name=s backend=auto "
      "device-id=%d metric=smd ! fakesink", src, count);
  fail_unless (run_pipeline (desc, NULL, NULL, NULL, NULL, NULL, &run));
  fail_unless_equals_int (run.warnings, 1);
  assert_scores_match (SHARPNESS_METRIC_SMD, &run, &ref);
  run_clear (&run);
  run_clear (&ref);
  g_free (desc);
  g_free (src);
}

GST_END_TEST;

/* Answers the allocation query at fakesink with a pool of its own, as a
 * zero-copy sink does. */
static GstPadProbeReturn
sink_offers_pool (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  GstQuery *query = GST_PAD_PROBE_INFO_QUERY (info);
  GstCaps *caps = NULL;
  GstVideoInfo vinfo;
  GstBufferPool *pool;
  GstStructure *config;

  if (GST_QUERY_TYPE (query) != GST_QUERY_ALLOCATION)
    return GST_PAD_PROBE_OK;
  gst_query_parse_allocation (query, &caps, NULL);
  if (!caps || !gst_video_info_from_caps (&vinfo, caps))
    return GST_PAD_PROBE_OK;
  pool = gst_video_buffer_pool_new ();
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, vinfo.size, 0, 0);
  gst_buffer_pool_set_config (pool, config);
  gst_query_add_allocation_pool (query, pool, vinfo.size, 0, 0);
  gst_object_unref (pool);
  return GST_PAD_PROBE_HANDLED;
}

/* Downstream's pool stands; the pinned pool is only
 * offered where downstream proposed none. */
GST_START_TEST (test_downstream_pool_stands)
{
  gchar *src = g_strdup_printf (SOURCE, "NV12");
  gchar *desc = g_strdup_printf ("%s ! cudasharpness name=s backend=cuda "
      "metric=laplacian pinned-pool=true ! fakesink name=sink", src);
  GError *err = NULL;
  GstElement *pipeline = gst_parse_launch (desc, &err);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (pipeline), "sink");
  GstElement *s = gst_bin_get_by_name (GST_BIN (pipeline), "s");
  GstPad *pad = gst_element_get_static_pad (sink, "sink");
  GstBus *bus = gst_element_get_bus (pipeline);
  Run run = { 0, };
  ProbeData pd = { &run, NULL, NULL };
  GstPad *spad = gst_element_get_static_pad (s, "sink");
  GstMessage *msg;

  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_QUERY_DOWNSTREAM,
      sink_offers_pool, NULL, NULL);
  gst_pad_add_probe (spad, GST_PAD_PROBE_TYPE_BUFFER, on_buffer, &pd, NULL);
  fail_unless (gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE);
  msg = gst_bus_timed_pop_filtered (bus, 60 * GST_SECOND,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  fail_unless (msg && GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS);
  gst_message_unref (msg);
  fail_unless_equals_int (run.buffers, N_FRAMES);
  fail_unless_equals_int (run.pinned, 0);

  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (spad);
  gst_object_unref (pad);
  gst_object_unref (bus);
  gst_object_unref (s);
  gst_object_unref (sink);
  gst_object_unref (pipeline);
  g_free (desc);
  g_free (src);
}

GST_END_TEST;

#if GST_CHECK_VERSION (1, 24, 0)
typedef CUresult (CUDAAPI * LaunchHostFunc) (CUstream stream,
    void (CUDAAPI * fn) (void *), void *data);

/* Holds the producer's stream: the copy queued behind it lands late. */
static void CUDAAPI
slow_host_func (void *data)
{
  g_usleep (300 * G_TIME_SPAN_MILLISECOND);
}

/* The laplacian of @buf (system memory NV12) on the CPU. */
static gdouble
cpu_score (GstBuffer * buf, const gchar * caps)
{
  GstHarness *h = gst_harness_new_parse ("cudasharpness backend=cpu "
      "metric=laplacian");
  GstBuffer *out;
  GstCustomMeta *meta;
  gdouble score = -1;

  gst_harness_set_src_caps_str (h, caps);
  out = gst_harness_push_and_pull (h, buf);
  meta = gst_buffer_get_custom_meta (out, "GstSharpnessMeta");
  fail_unless (meta != NULL);
  gst_structure_get_double (gst_custom_meta_get_structure (meta), "score",
      &score);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
  return score;
}
#endif

/* From GStreamer 1.24 a producer hands out CUDA memory
 * still being written on its own stream (GST_CUDA_MEMORY_TRANSFER_NEED_SYNC).
 * Here the final content is copied in on another stream, behind a 300 ms
 * host function, over stale (uniform) content: the score must be the
 * final content's; without the ordering it is the stale one, 0. */
GST_START_TEST (test_waits_for_producer_stream)
{
#if GST_CHECK_VERSION (1, 24, 0)
  const gint w = 320, hgt = 240;
  const gchar *sys_caps = "video/x-raw,format=NV12,width=320,height=240,"
      "framerate=25/1";
  GstCudaContext *ctx = gst_cuda_context_new (0);
  GstCudaStream *producer = gst_cuda_stream_new (ctx);
  GModule *libcuda = g_module_open ("libcuda.so.1", G_MODULE_BIND_LAZY);
  LaunchHostFunc launch_host_func = NULL;
  GstVideoInfo info;
  GstMemory *mem;
  GstCudaMemory *cmem;
  GstBuffer *buf, *final, *out;
  GstMapInfo map, fmap;
  CUdeviceptr staging = 0;
  CUDA_MEMCPY2D copy = { 0, };
  GstHarness *h;
  GstCustomMeta *meta;
  gdouble want, got = -1;
  guint8 *stale;
  gint stride;

  fail_unless (ctx && producer && libcuda);
  fail_unless (g_module_symbol (libcuda, "cuLaunchHostFunc",
          (gpointer *) & launch_host_func));
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_NV12, w, hgt);

  /* The final content, in system memory: stripes, scored on the CPU. */
  final = gst_buffer_new_allocate (NULL, info.size, NULL);
  gst_buffer_map (final, &fmap, GST_MAP_WRITE);
  for (gsize i = 0; i < fmap.size; i++)
    fmap.data[i] = (i % w) % 2 ? 235 : 16;
  gst_buffer_unmap (final, &fmap);
  want = cpu_score (gst_buffer_ref (final), sys_caps);
  fail_unless (want > 0);

  mem = gst_cuda_allocator_alloc (NULL, ctx, producer, &info);
  fail_unless (mem != NULL);
  cmem = GST_CUDA_MEMORY_CAST (mem);
  stride = cmem->info.stride[0];
  stale = g_malloc (stride * hgt);
  memset (stale, 128, stride * hgt);

  fail_unless (gst_memory_map (mem, &map, GST_MAP_WRITE | GST_MAP_CUDA));
  gst_buffer_map (final, &fmap, GST_MAP_READ);
  fail_unless (gst_cuda_context_push (ctx));
  /* Stale luma now, synchronously ... */
  copy.srcMemoryType = CU_MEMORYTYPE_HOST;
  copy.srcHost = stale;
  copy.srcPitch = stride;
  copy.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  copy.dstDevice = (CUdeviceptr) map.data + cmem->info.offset[0];
  copy.dstPitch = stride;
  copy.WidthInBytes = w;
  copy.Height = hgt;
  fail_unless_equals_int (CuMemcpy2D (&copy), CUDA_SUCCESS);
  /* ... the final luma later, on the producer's stream. */
  fail_unless_equals_int (CuMemAlloc (&staging, (gsize) w * hgt),
      CUDA_SUCCESS);
  copy.srcMemoryType = CU_MEMORYTYPE_HOST;
  copy.srcHost = fmap.data;
  copy.srcPitch = w;
  copy.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  copy.dstDevice = staging;
  copy.dstPitch = w;
  fail_unless_equals_int (CuMemcpy2D (&copy), CUDA_SUCCESS);
  fail_unless_equals_int (launch_host_func (gst_cuda_stream_get_handle
          (producer), slow_host_func, NULL), CUDA_SUCCESS);
  copy.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  copy.srcDevice = staging;
  copy.srcHost = NULL;
  copy.dstDevice = (CUdeviceptr) map.data + cmem->info.offset[0];
  copy.dstPitch = stride;
  fail_unless_equals_int (CuMemcpy2DAsync (&copy,
          gst_cuda_stream_get_handle (producer)), CUDA_SUCCESS);
  gst_cuda_context_pop (NULL);
  gst_buffer_unmap (final, &fmap);
  gst_memory_unmap (mem, &map);
  GST_MINI_OBJECT_FLAG_SET (mem, GST_CUDA_MEMORY_TRANSFER_NEED_SYNC);

  buf = gst_buffer_new ();
  gst_buffer_append_memory (buf, mem);
  GST_BUFFER_PTS (buf) = 0;

  /* The element adopts the memory's context (cuda-device-id=-1). */
  h = gst_harness_new_parse ("cudasharpness backend=cuda metric=laplacian");
  gst_harness_set_src_caps_str (h, CUDA_CAPS ",format=NV12,width=320,"
      "height=240,framerate=25/1");
  out = gst_harness_push_and_pull (h, buf);
  meta = gst_buffer_get_custom_meta (out, "GstSharpnessMeta");
  fail_unless (meta != NULL, "the frame was not scored");
  gst_structure_get_double (gst_custom_meta_get_structure (meta), "score",
      &got);
  fail_unless (got == want, "scored %.17g, the final content scores %.17g "
      "(stale content scores 0): the element read before the producer's "
      "stream finished", got, want);
  gst_buffer_unref (out);
  gst_harness_teardown (h);

  fail_unless (gst_cuda_context_push (ctx));
  CuStreamSynchronize (gst_cuda_stream_get_handle (producer));
  CuMemFree (staging);
  gst_cuda_context_pop (NULL);
  g_free (stale);
  gst_buffer_unref (final);
  g_module_close (libcuda);
  gst_cuda_stream_unref (producer);
  gst_object_unref (ctx);
#else
  skip ("test_waits_for_producer_stream: needs GStreamer >= 1.24 "
      "(built against " G_STRINGIFY (GST_VERSION_MAJOR) "."
      G_STRINGIFY (GST_VERSION_MINOR) ")");
#endif
}

GST_END_TEST;

/* Another element sharing the context crashes a kernel (a store to
 * address 0): the context hits a sticky illegal-address error.  The PTX is
 * JIT-compiled by the driver, so the test needs no GPU code of its own. */
static const gchar fault_ptx[] =
    ".version 7.0\n"
    ".target sm_75\n"
    ".address_size 64\n"
    ".visible .entry sharpness_test_fault ()\n"
    "{\n"
    "  .reg .b64 %rd<2>;\n"
    "  .reg .b32 %r<2>;\n"
    "  mov.u64 %rd1, 0;\n"
    "  mov.u32 %r1, 1;\n"
    "  st.global.u32 [%rd1], %r1;\n"
    "  ret;\n"
    "}\n";

#define FAULT_AT 5

typedef struct
{
  GstCudaContext *ctx;
  /* What each step of the injection returned (it runs on the streaming
   * thread, where the test cannot fail; the test checks them after). */
  gboolean pushed;
  CUresult load, get, launch, sync;
} Fault;

static void
fault_before_frame (guint index, gpointer user_data)
{
  Fault *f = user_data;
  CUmodule module = NULL;
  CUfunction func = NULL;

  if (index != FAULT_AT)
    return;
  f->pushed = gst_cuda_context_push (f->ctx);
  if (!f->pushed)
    return;
  f->load = CuModuleLoadData (&module, fault_ptx);
  if (f->load == CUDA_SUCCESS)
    f->get = CuModuleGetFunction (&func, module, "sharpness_test_fault");
  if (f->load == CUDA_SUCCESS && f->get == CUDA_SUCCESS)
    f->launch = CuLaunchKernel (func, 1, 1, 1, 1, 1, 1, 0, NULL, NULL, NULL);
  if (f->load == CUDA_SUCCESS && f->get == CUDA_SUCCESS &&
      f->launch == CUDA_SUCCESS)
    f->sync = CuStreamSynchronize (NULL);
  gst_cuda_context_pop (NULL);
}

GST_START_TEST (test_fallback_after_cuda_failure)
{
  Fault fault = { gst_cuda_context_new (0), FALSE, CUDA_ERROR_UNKNOWN,
    CUDA_ERROR_UNKNOWN, CUDA_ERROR_UNKNOWN, CUDA_SUCCESS
  };
  gchar *src = g_strdup_printf (SOURCE, "NV12");
  gchar *desc = g_strdup_printf ("%s ! cudasharpness name=s backend=cuda "
      "pinned-pool=false metric=laplacian ! fakesink", src);
  Run run, ref;

  fail_unless (fault.ctx != NULL);
  fail_unless (run_pipeline (desc, fault.ctx, NULL, NULL, fault_before_frame,
          &fault, &run), "the stream stopped after the CUDA failure");
  fail_unless (fault.pushed && fault.load == CUDA_SUCCESS &&
      fault.get == CUDA_SUCCESS && fault.launch == CUDA_SUCCESS,
      "fault injection failed: load %d, get %d, launch %d", fault.load,
      fault.get, fault.launch);
  fail_unless (fault.sync == CUDA_ERROR_ILLEGAL_ADDRESS,
      "the faulting kernel ended with %d", fault.sync);
  /* Every frame went through and was scored, on the CPU from FAULT_AT on;
   * the failure was reported once. */
  fail_unless_equals_int (run.buffers, N_FRAMES);
  fail_unless_equals_int (run.warnings, 1);
  fail_unless (run.warning_domain == GST_RESOURCE_ERROR, "%s", run.warning);
  reference_scores ("NV12", SHARPNESS_METRIC_LAPLACIAN, &ref);
  assert_scores_match (SHARPNESS_METRIC_LAPLACIAN, &run, &ref);

  run_clear (&run);
  run_clear (&ref);
  g_free (desc);
  g_free (src);
  /* The context is broken for good; its teardown errors are expected. */
  gst_object_unref (fault.ctx);
}

GST_END_TEST;

/* A failed test leaves no ROIs behind for the next ones. */
static void
no_rois (void)
{
  add_rois = FALSE;
}

static Suite *
cuda_element_suite (void)
{
  Suite *s = suite_create ("cuda-element");
  TCase *tc = tcase_create ("general");
  TCase *nvdec = tcase_create ("nvdec");
  TCase *order = tcase_create ("stream-order");

  tcase_set_timeout (tc, 300);
  tcase_set_timeout (nvdec, 300);
  tcase_set_timeout (order, 60);
  tcase_add_checked_fixture (tc, NULL, no_rois);
  /* Before "general", whose last test breaks a context. */
  suite_add_tcase (s, order);
  suite_add_tcase (s, nvdec);
  suite_add_tcase (s, tc);
  tcase_add_test (order, test_waits_for_producer_stream);
  tcase_add_test (nvdec, test_nvh264dec);
  tcase_add_test (tc, test_system_memory_pinned);
  tcase_add_test (tc, test_system_memory_pageable);
  tcase_add_test (tc, test_downstream_pool_stands);
  tcase_add_test (tc, test_cudaupload);
  tcase_add_test (tc, test_content_states);
  tcase_add_test (tc, test_tiles_and_rois);
  tcase_add_test (tc, test_adopts_memory_context);
  tcase_add_test (tc, test_device_id);
  /* Last: it leaves a broken context behind. */
  tcase_add_test (tc, test_fallback_after_cuda_failure);
  return s;
}

static gboolean
have_cuda_device (void)
{
  int count = 0;

  return gst_cuda_load_library () && CuInit (0) == CUDA_SUCCESS &&
      CuDeviceGetCount (&count) == CUDA_SUCCESS && count > 0;
}

int
main (int argc, char **argv)
{
  SRunner *sr;
  int failed;

  const gchar *tcase;

  gst_check_init (&argc, &argv);
  tcase = argc > 1 ? argv[1] : NULL;
  if (!have_cuda_device ()) {
    g_print ("skipped: no CUDA device\n");
    return 77;
  }
  gst_cuda_memory_init_once ();
  skipped = g_string_new (NULL);

  sr = srunner_create (cuda_element_suite ());
  srunner_set_fork_status (sr, CK_NOFORK);
  if (tcase)
    srunner_run (sr, NULL, tcase, CK_NORMAL);
  else
    srunner_run_all (sr, CK_NORMAL);
  failed = srunner_ntests_failed (sr);
  srunner_free (sr);
  if (failed)
    return 1;
  if (skipped->len) {
    /* Some test did not run: SKIP, never a PASS it did not earn. */
    g_print ("skipped: %s\n", skipped->str);
    return 77;
  }
  return 0;
}
