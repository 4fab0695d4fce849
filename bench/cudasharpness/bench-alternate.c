/* bench-alternate.c: the --alternate mode: one property switched
 * within one pipeline.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "bench-sharpness.h"

/* Frames left out after each change of setting (what the element sets up
 * for the new one: a freeze reference, say), and frames before the first
 * round (the pipeline's start, the first frame's setup). */
#define ALT_WARMUP 16
#define ALT_SETTLE 64
/* A segment that has not come through in this long failed. */
#define ALT_SEGMENT_TIMEOUT (60 * GST_SECOND)

/* One metric's alternating run: for each setting the median (and p10,
 * p90) over all its measured frames; over the rounds, the ratio of the
 * second setting's segment median to the first's (median, p10, p90). */
typedef struct
{
  Result setting[2];
  gdouble ratio_median, ratio_p10, ratio_p90;
  gboolean failed;
  gchar note[160];
} AltResult;

/* The two values of --alternate as GValues of the property's type;
 * FALSE with a message when the property or a value is unknown. */
gboolean
alt_values (GValue values[2])
{
  GstElement *el = gst_element_factory_make ("cudasharpness", NULL);
  GParamSpec *ps = g_object_class_find_property (G_OBJECT_GET_CLASS (el),
      opt.alt_prop);
  gboolean ok = ps != NULL;
  guint i;

  if (!ps)
    g_printerr ("--alternate: cudasharpness has no property \"%s\"\n",
        opt.alt_prop);
  for (i = 0; i < 2 && ok; i++) {
    g_value_init (&values[i], ps->value_type);
    ok = gst_value_deserialize (&values[i], opt.alt_values[i]);
    if (!ok)
      g_printerr ("--alternate: \"%s\" is not a value of %s\n",
          opt.alt_values[i], opt.alt_prop);
  }
  gst_object_unref (el);
  return ok;
}

/* Pushes @frames more frames of the ring (three in flight) and waits
 * until all have left the element.  FALSE on an error or a timeout. */
static gboolean
alt_push (GstElement * src, GstBus * bus, Timing * t, GstBuffer ** ring_bufs,
    guint ring_n, guint * pushed, guint frames, guint * warnings,
    gchar ** first_warning)
{
  const guint target = *pushed + frames;
  const guint64 deadline = now_ns () + ALT_SEGMENT_TIMEOUT;

  while ((guint) g_atomic_int_get (&t->seen) < target) {
    guint seen = g_atomic_int_get (&t->seen);

    if (!drain_bus (bus, warnings, first_warning) || now_ns () > deadline)
      return FALSE;
    if (*pushed < target && *pushed - seen < 3) {
      if (gst_app_src_push_buffer (GST_APP_SRC (src),
              gst_buffer_copy (ring_bufs[*pushed % ring_n])) != GST_FLOW_OK)
        return FALSE;
      (*pushed)++;
    } else {
      g_usleep (20);
    }
  }
  return TRUE;
}

/* "appsrc ! @element_desc ! fakesink" on the ring in CUDA memory, the
 * element's property switched between the two values of --alternate:
 * rounds of one segment each (ABBA order, so that a drift weighs on both
 * alike), a segment being ALT_WARMUP frames left out then
 * --alternate-frames measured, with nothing in flight at the switch. */
static void
run_alternating (const Ring * ring, GstBuffer ** ring_bufs, const gchar * caps,
    const gchar * element_desc, const GValue values[2], AltResult * res)
{
  const guint rounds = opt.alt_rounds, frames = opt.alt_frames;
  GstElement *pipeline, *src, *el;
  GstBus *bus;
  Timing t = { 0, };
  gchar *first_warning = NULL;
  guint warnings = 0, pushed = 0, r, k, n_all[2] = { 0, 0 };
  guint64 *all[2];
  gdouble *ratios = g_new (gdouble, rounds);
  gboolean ok;

  memset (res, 0, sizeof (*res));
  t.samples = g_new (guint64, frames);
  all[0] = g_new (guint64, (gsize) rounds * frames);
  all[1] = g_new (guint64, (gsize) rounds * frames);
  pipeline = timed_pipeline_new (caps, element_desc, &t, &src, &el, &bus);

  g_object_set_property (G_OBJECT (el), opt.alt_prop, &values[0]);
  t.warmup = G_MAXUINT;
  ok = gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE && alt_push (src, bus, &t, ring_bufs, ring->n,
      &pushed, ALT_SETTLE, &warnings, &first_warning);

  for (r = 0; r < rounds && ok; r++) {
    guint64 median[2];

    for (k = 0; k < 2 && ok; k++) {
      const guint s = r % 2 ? 1 - k : k;
      Result seg;
      guint n;

      /* Nothing in flight: the streaming thread is idle. */
      g_object_set_property (G_OBJECT (el), opt.alt_prop, &values[s]);
      t.warmup = pushed + ALT_WARMUP;
      t.cap = frames;
      g_atomic_int_set (&t.n, 0);
      ok = alt_push (src, bus, &t, ring_bufs, ring->n, &pushed,
          ALT_WARMUP + frames, &warnings, &first_warning);
      if (!ok)
        break;
      n = g_atomic_int_get (&t.n);
      memcpy (all[s] + n_all[s], t.samples, n * sizeof (guint64));
      n_all[s] += n;
      result_from_samples (&seg, t.samples, n);
      median[s] = seg.median;
    }
    if (ok)
      ratios[r] = (gdouble) median[1] / MAX (median[0], 1);
  }

  gst_app_src_end_of_stream (GST_APP_SRC (src));
  gst_element_set_state (pipeline, GST_STATE_NULL);
  ok = drain_bus (bus, &warnings, &first_warning) && ok;
  if (!ok || warnings) {
    res->failed = TRUE;
    g_snprintf (res->note, sizeof (res->note), "%s%s%s", !ok ?
        "pipeline error or timeout" : "warnings",
        first_warning ? ": " : "", first_warning ? first_warning : "");
  } else {
    result_from_samples (&res->setting[0], all[0], n_all[0]);
    result_from_samples (&res->setting[1], all[1], n_all[1]);
    qsort (ratios, rounds, sizeof (gdouble), test_cmp_double);
    res->ratio_median = rounds % 2 ? ratios[rounds / 2] :
        (ratios[rounds / 2 - 1] + ratios[rounds / 2]) / 2;
    res->ratio_p10 = ratios[rounds / 10];
    res->ratio_p90 = ratios[rounds - 1 - rounds / 10];
  }

  g_free (first_warning);
  g_free (t.samples);
  g_free (all[0]);
  g_free (all[1]);
  g_free (ratios);
  gst_object_unref (bus);
  gst_object_unref (src);
  gst_object_unref (el);
  gst_object_unref (pipeline);
}

/* The --alternate mode, 1080p unless --resolutions says otherwise, with
 * the two @values of the property: one table of each metric's two
 * settings, in the CSV and the markdown. */
gboolean
run_alternate_mode (const Tiles * tiles, const SharpnessMetric * metrics,
    guint n_metrics, const GValue values[2])
{
  gboolean all_ok = TRUE;
  guint r, m;

  fprintf (csv, "resolution,metric,setting,frames,median_ns,p10_ns,p90_ns,"
      "round_ratio_median,round_ratio_p10,round_ratio_p90,note\n");
  for (r = 0; r < N_RESOLUTIONS; r++) {
    const Resolution *res = &all_resolutions[r];
    guint64 sum[2] = { 0, 0 };
    GstBuffer **cuda_bufs;
    gchar *caps;
    Ring ring;

    if (!g_strv_contains ((const gchar * const *) opt.resolutions, res->name))
      continue;
    ring_init (&ring, tiles, res);
    cuda_bufs = make_cuda_buffers (&ring);
    caps = g_strdup_printf ("video/x-raw(memory:CUDAMemory),format=NV12,"
        "width=%d,height=%d,framerate=30/1", res->width, res->height);
    g_string_append_printf (markdown, "\n### %s NV12 in CUDA memory, %s=%s "
        "against %s=%s\n\nOne pipeline a metric, the property switched "
        "between segments of %u measured frames (after %u left out), %u "
        "rounds in ABBA order. Times: medians in us over every measured "
        "frame of a setting. Per round: the second setting's segment median "
        "over the first's.\n\n| metric | %s=%s | %s=%s | ratio of medians "
        "| per round: median (p10-p90) |\n|---|---:|---:|---:|---|\n",
        res->name, opt.alt_prop, opt.alt_values[1], opt.alt_prop,
        opt.alt_values[0], opt.alt_frames, ALT_WARMUP, opt.alt_rounds,
        opt.alt_prop, opt.alt_values[0], opt.alt_prop, opt.alt_values[1]);

    for (m = 0; m < n_metrics; m++) {
      const gchar *nick = sharpness_metric_info[metrics[m]].nick;
      gchar *desc = g_strdup_printf ("cudasharpness name=el backend=cuda "
          "metric=%s %s", nick, opt.element_props);
      AltResult a;
      guint s;

      g_printerr ("%s %s: %s=%s against %s\n", res->name, nick, opt.alt_prop,
          opt.alt_values[1], opt.alt_values[0]);
      run_alternating (&ring, cuda_bufs, caps, desc, values, &a);
      g_free (desc);
      if (a.failed) {
        all_ok = FALSE;
        fprintf (csv, "%s,%s,,0,,,,,,,\"%s\"\n", res->name, nick, a.note);
        g_string_append_printf (markdown, "| %s | n/a | n/a | n/a | %s |\n",
            nick, a.note);
        continue;
      }
      for (s = 0; s < 2; s++) {
        fprintf (csv, "%s,%s,%s=%s,%u,%" G_GUINT64_FORMAT ",%"
            G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%.4f,%.4f,%.4f,\n",
            res->name, nick, opt.alt_prop, opt.alt_values[s],
            a.setting[s].frames, a.setting[s].median, a.setting[s].p10,
            a.setting[s].p90, a.ratio_median, a.ratio_p10, a.ratio_p90);
        sum[s] += a.setting[s].median;
      }
      fflush (csv);
      g_string_append_printf (markdown, "| %s | %.2f | %.2f | %.3f | %.3f "
          "(%.3f-%.3f) |\n", nick, a.setting[0].median / 1000.0,
          a.setting[1].median / 1000.0, (gdouble) a.setting[1].median /
          a.setting[0].median, a.ratio_median, a.ratio_p10, a.ratio_p90);
    }
    if (sum[0] > 0)
      g_string_append_printf (markdown, "| all, sum of medians | %.2f | %.2f "
          "| %.3f | |\n", sum[0] / 1000.0, sum[1] / 1000.0,
          (gdouble) sum[1] / sum[0]);
    free_buffers (cuda_bufs, ring.n);
    g_free (caps);
    ring_clear (&ring);
  }
  return all_ok;
}
