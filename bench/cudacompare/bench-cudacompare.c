/* Benchmark of the cudacompare element (a program, not a test; GPU
 * machine).
 *
 *   bench-cudacompare element [W H FORMAT PAIRS]
 *     Per-pair cost of the element in a pipeline, both inputs the same two
 *     CUDA-memory frames (cudaupload) pushed PAIRS times by appsrc, for
 *     each metrics setting; then system memory through the CUDA backend
 *     (pinned-pool buffers are not used by appsrc: pageable copies, the
 *     copy floor's upper bound) and the CPU backend.  Cost = (time of
 *     PAIRS + 30 pairs - time of 30 pairs) / PAIRS: start-up excluded.
 *     Default 1920 1080 NV12 300.
 *
 *   bench-cudacompare pipeline REF.h264 DIST.h264 [RUNS [METRICS]]
 *     (BENCH_DECODER=avdec_h264: the same with software decoding)
 *     "2 x (filesrc ! h264parse ! nvh264dec ! queue) ! cudacompare ! fakesink"
 *     against the two decoders alone (each to its fakesink), both in CUDA
 *     memory, alternating, RUNS times (default 5); prints the best and
 *     median wall times and the ratio (target >= 0.95).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gst/gst.h>
#include <gst/app/gstappsrc.h>
#include <gst/app/gstappsink.h>

#include "test-stats.h"

#define CUDA_CAPS "video/x-raw(memory:CUDAMemory)"
#define WARMUP 30

/* One frame of @pattern, through cudaupload when @cuda. */
static GstSample *
capture (gint w, gint h, const gchar * format, const gchar * pattern,
    gboolean cuda)
{
  gchar *desc = g_strdup_printf ("videotestsrc num-buffers=1 pattern=%s ! "
      "video/x-raw,format=%s,width=%d,height=%d,framerate=60/1%s ! "
      "appsink name=s", pattern, format, w, h,
      cuda ? " ! cudaupload ! " CUDA_CAPS : "");
  GstElement *p = gst_parse_launch (desc, NULL);
  GstElement *s;
  GstSample *sample;

  g_free (desc);
  if (!p)
    return NULL;
  s = gst_bin_get_by_name (GST_BIN (p), "s");
  gst_element_set_state (p, GST_STATE_PLAYING);
  sample = gst_app_sink_try_pull_sample (GST_APP_SINK (s), 20 * GST_SECOND);
  /* The sample keeps its buffer (and the uploader's memory) alive. */
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (s);
  gst_object_unref (p);
  return sample;
}

/* Waits for EOS (TRUE) or an error; reads the pairs of a compare-summary
 * on the way when @pairs. */
static gboolean
wait_eos (GstElement * p, GstClockTime timeout, guint64 * pairs)
{
  for (;;) {
    GstMessage *msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (p),
        timeout, GST_MESSAGE_EOS | GST_MESSAGE_ERROR | GST_MESSAGE_ELEMENT);
    gboolean ok;

    if (!msg)
      return FALSE;
    if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ELEMENT) {
      const GstStructure *s = gst_message_get_structure (msg);

      if (pairs && gst_structure_has_name (s, "compare-summary"))
        gst_structure_get_uint64 (s, "pairs", pairs);
      gst_message_unref (msg);
      continue;
    }
    ok = GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS;
    if (!ok) {
      GError *err = NULL;

      gst_message_parse_error (msg, &err, NULL);
      g_printerr ("error: %s\n", err->message);
      g_clear_error (&err);
    }
    gst_message_unref (msg);
    return ok;
  }
}

/* Seconds to push @pairs pairs through cudacompare @props. */
static gdouble
time_pairs (GstSample * ref, GstSample * dist, const gchar * props,
    guint pairs)
{
  gchar *desc = g_strdup_printf ("cudacompare name=c post-messages=false %s "
      "! fakesink sync=false appsrc name=r format=time max-bytes=0 ! "
      "c.ref_sink appsrc name=d format=time max-bytes=0 ! c.dist_sink",
      props);
  GstElement *p = gst_parse_launch (desc, NULL);
  GstElement *r = gst_bin_get_by_name (GST_BIN (p), "r");
  GstElement *d = gst_bin_get_by_name (GST_BIN (p), "d");
  gint64 t0;
  gdouble secs;

  g_free (desc);
  gst_app_src_set_caps (GST_APP_SRC (r), gst_sample_get_caps (ref));
  gst_app_src_set_caps (GST_APP_SRC (d), gst_sample_get_caps (dist));
  for (guint i = 0; i < pairs; i++) {
    /* Shallow copies: the same memory, new timestamps. */
    GstBuffer *rb = gst_buffer_copy (gst_sample_get_buffer (ref));
    GstBuffer *db = gst_buffer_copy (gst_sample_get_buffer (dist));

    GST_BUFFER_PTS (rb) = GST_BUFFER_PTS (db) = i * GST_SECOND / 60;
    GST_BUFFER_DURATION (rb) = GST_BUFFER_DURATION (db) = GST_SECOND / 60;
    gst_app_src_push_buffer (GST_APP_SRC (r), rb);
    gst_app_src_push_buffer (GST_APP_SRC (d), db);
  }
  gst_app_src_end_of_stream (GST_APP_SRC (r));
  gst_app_src_end_of_stream (GST_APP_SRC (d));

  t0 = g_get_monotonic_time ();
  gst_element_set_state (p, GST_STATE_PLAYING);
  secs = wait_eos (p, 300 * GST_SECOND, NULL) ?
      (g_get_monotonic_time () - t0) * 1e-6 : -1;
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (r);
  gst_object_unref (d);
  gst_object_unref (p);
  return secs;
}

static gdouble
per_pair_us (GstSample * ref, GstSample * dist, const gchar * props,
    guint pairs)
{
  gdouble best = -1;

  /* Best of 3 of the difference: start-up and first allocations cancel. */
  for (gint k = 0; k < 3; k++) {
    gdouble a = time_pairs (ref, dist, props, WARMUP);
    gdouble b = time_pairs (ref, dist, props, WARMUP + pairs);
    gdouble us = (b - a) / pairs * 1e6;

    if (a < 0 || b < 0)
      return -1;
    if (best < 0 || us < best)
      best = us;
  }
  return best;
}

static int
bench_element (gint w, gint h, const gchar * format, guint pairs)
{
  static const gchar *const configs[] = {
    "metrics=0",
    "metrics=psnr",
    "metrics=ssim",
    "metrics=psnr+ssim",
    "metrics=ssim ssim-mode=wang",
    "metrics=ssim ssim-mode=wang ssim-downsample=true",
    "metrics=ms-ssim",
    "metrics=psnr+ssim+ms-ssim",
  };
  GstSample *rc = capture (w, h, format, "zone-plate kx2=20 ky2=20", TRUE);
  GstSample *dc = capture (w, h, format, "zone-plate kx2=21 ky2=20", TRUE);
  GstSample *rs = capture (w, h, format, "zone-plate kx2=20 ky2=20", FALSE);
  GstSample *ds = capture (w, h, format, "zone-plate kx2=21 ky2=20", FALSE);

  gboolean cuda = rc && dc;

  if (!rs || !ds) {
    g_printerr ("cannot make frames of %s\n", format);
    return 1;
  }
  g_print ("# cudacompare per pair, %dx%d %s, best of 3 (element in a "
      "pipeline: appsrc x2 -> cudacompare -> fakesink)\n", w, h, format);
  g_print ("%-56s %12s\n", "setting", "us/pair");
  if (!cuda)
    g_print ("# no CUDA frames (cudaupload, a GPU?): CPU rows only\n");
  for (guint i = 0; cuda && i < G_N_ELEMENTS (configs); i++) {
    gchar *props = g_strdup_printf ("backend=cuda %s", configs[i]);

    g_print ("%-56s %12.1f\n", props, per_pair_us (rc, dc, props, pairs));
    g_free (props);
  }
  if (cuda) {
    g_print ("# system memory (pageable, from appsrc) through the CUDA "
        "backend\n");
    g_print ("%-56s %12.1f\n", "backend=cuda metrics=0 (copies only)",
        per_pair_us (rs, ds, "backend=cuda metrics=0", pairs));
    g_print ("%-56s %12.1f\n", "backend=cuda metrics=psnr+ssim",
        per_pair_us (rs, ds, "backend=cuda metrics=psnr+ssim", pairs));
  }
  g_print ("# CPU backend, system memory, one thread (20 pairs)\n");
  for (guint i = 0; i < G_N_ELEMENTS (configs); i++) {
    gchar *props = g_strdup_printf ("backend=cpu %s", configs[i]);

    g_print ("%-56s %12.1f\n", props, per_pair_us (rs, ds, props, 20));
    g_free (props);
  }
  if (rc)
    gst_sample_unref (rc);
  if (dc)
    gst_sample_unref (dc);
  gst_sample_unref (rs);
  gst_sample_unref (ds);
  return cuda ? 0 : 77;
}

static gdouble
time_launch (const gchar * desc, guint64 * pairs)
{
  GstElement *p = gst_parse_launch (desc, NULL);
  gint64 t0 = g_get_monotonic_time ();
  gdouble secs;

  gst_element_set_state (p, GST_STATE_PLAYING);
  secs = wait_eos (p, 600 * GST_SECOND, pairs) ?
      (g_get_monotonic_time () - t0) * 1e-6 : -1;
  gst_element_set_state (p, GST_STATE_NULL);
  gst_object_unref (p);
  return secs;
}

static int
bench_pipeline (const gchar * ref, const gchar * dist, guint runs,
    const gchar * metrics)
{
  /* BENCH_DECODER=avdec_h264 runs the same on the CPU (no GPU needed). */
  const gchar *decoder = g_getenv ("BENCH_DECODER") ?
      g_getenv ("BENCH_DECODER") : "nvh264dec";
  const gchar *caps = g_str_has_prefix (decoder, "nv") ? CUDA_CAPS :
      "video/x-raw";
  /* A queue on each branch, as with any aggregator: without one a decoder
   * waits while the pair before is compared (GstAggregator's non-live
   * pads hold one buffer). */
  gchar *dec_r = g_strdup_printf ("filesrc location=%s ! h264parse ! "
      "%s ! %s ! queue", ref, decoder, caps);
  gchar *dec_d = g_strdup_printf ("filesrc location=%s ! h264parse ! "
      "%s ! %s ! queue", dist, decoder, caps);
  gchar *alone = g_strdup_printf ("%s ! fakesink sync=false %s ! fakesink "
      "sync=false", dec_r, dec_d);
  gchar *with = g_strdup_printf ("cudacompare name=c metrics=%s "
      "post-messages=true interval=1000000000 ! fakesink sync=false "
      "%s ! c.ref_sink %s ! c.dist_sink", metrics, dec_r, dec_d);
  gdouble *ta = g_new0 (gdouble, runs), *tw = g_new0 (gdouble, runs);
  guint64 pairs = 0;

  if (!gst_element_factory_find (decoder)) {
    g_printerr ("no %s\n", decoder);
    return 77;
  }
  /* Warm-up (driver, files in the page cache). */
  time_launch (alone, NULL);
  time_launch (with, NULL);
  for (guint i = 0; i < runs; i++) {
    ta[i] = time_launch (alone, NULL);
    tw[i] = time_launch (with, &pairs);
  }
  qsort (ta, runs, sizeof (gdouble), test_cmp_double);
  qsort (tw, runs, sizeof (gdouble), test_cmp_double);
  g_print ("# %s vs %s, metrics=%s, %u runs, %" G_GUINT64_FORMAT
      " pairs compared\n", ref, dist, metrics, runs, pairs);
  g_print ("%-40s %10s %10s %10s\n", "pipeline", "best s", "median s",
      "pairs/s");
  g_print ("2 x %-36s %10.3f %10.3f %10.1f\n", decoder,
      ta[0], ta[runs / 2], pairs / ta[runs / 2]);
  g_print ("2 x %-24s cudacompare %10.3f %10.3f %10.1f\n", decoder,
      tw[0], tw[runs / 2], pairs / tw[runs / 2]);
  g_print ("speed ratio (decoders alone / with cudacompare): best %.3f, "
      "median %.3f (target >= 0.95)\n", ta[0] / tw[0],
      ta[runs / 2] / tw[runs / 2]);
  g_free (ta);
  g_free (tw);
  g_free (dec_r);
  g_free (dec_d);
  g_free (alone);
  g_free (with);
  return 0;
}

int
main (int argc, char **argv)
{
  gst_init (&argc, &argv);
  if (argc >= 2 && !strcmp (argv[1], "element"))
    return bench_element (argc > 2 ? atoi (argv[2]) : 1920,
        argc > 3 ? atoi (argv[3]) : 1080, argc > 4 ? argv[4] : "NV12",
        argc > 5 ? atoi (argv[5]) : 300);
  if (argc >= 4 && !strcmp (argv[1], "pipeline"))
    return bench_pipeline (argv[2], argv[3], argc > 4 ? atoi (argv[4]) : 5,
        argc > 5 ? argv[5] : "psnr+ssim");
  g_printerr ("usage: %s element [W H FORMAT PAIRS]\n"
      "       %s pipeline REF.h264 DIST.h264 [RUNS [METRICS]]\n", argv[0],
      argv[0]);
  return 2;
}
