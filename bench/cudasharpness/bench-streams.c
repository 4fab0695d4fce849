/* bench-streams.c: the --streams mode: N pipelines in one process.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <dlfcn.h>

#include "bench-sharpness.h"

/* Latency samples kept per run, over all its streams (the last ones of
 * each stream when it scores more). */
#define STREAMS_SAMPLES (4u << 20)
#define STREAMS_MIN_SAMPLES 4096u

typedef struct _StreamsRun StreamsRun;

/* One "appsrc ! cudasharpness ! fakesink" pipeline and what it did. */
typedef struct
{
  StreamsRun *run;
  GstElement *pipeline, *src;
  GstBuffer **ring;             /* K frames of its own, CUDA memory */
  guint ring_n, next;
  gboolean eos_sent;            /* streaming thread only */
  guint64 t_in;                 /* streaming thread only */
  gint pushed, out, scored;     /* atomic */
  gint eos, errors, warnings;   /* atomic */
  guint64 *lat;                 /* ring of latency samples ... */
  guint lat_cap;
  guint lat_n;                  /* ... and how many were taken */
} Stream;

struct _StreamsRun
{
  const gchar *nick;            /* the metric the metas must carry */
  const GstMetaInfo *meta_info; /* GstSharpnessMeta's */
  gint stop;                    /* atomic: send EOS instead of frames */
  gint measuring;               /* atomic: take latency samples */
  GMutex lock;
  gchar *first_problem;         /* under lock */
};

typedef struct
{
  guint n;
  const gchar *nick;
  gboolean service;
  gdouble seconds, fps;
  guint64 frames, p50, p99;
  guint64 pushed, out, scored;
  guint streams_done;
  gboolean complete;
  gdouble per_round;            /* frames per service round; < 0: n/a */
  guint max_round;
  gchar note[200];
} StreamsResult;

typedef void (*ServiceTotalsFunc) (SharpnessCudaServiceStats * stats);

/* The plugin's sharpness_cuda_service_get_total_stats, found in the loaded
 * module (NULL for a plugin without it). */
static ServiceTotalsFunc
service_totals_func (void)
{
  GstPlugin *plugin = gst_registry_find_plugin (gst_registry_get (),
      "sharpness");
  GstPlugin *loaded = plugin ? gst_plugin_load (plugin) : NULL;
  const gchar *file = loaded ? gst_plugin_get_filename (loaded) : NULL;
  ServiceTotalsFunc func = NULL;
  void *handle;

  /* RTLD_NOLOAD: the handle GStreamer already opened, nothing new. */
  handle = file ? dlopen (file, RTLD_NOW | RTLD_NOLOAD) : NULL;
  if (handle)
    func = (ServiceTotalsFunc) dlsym (handle,
        "sharpness_cuda_service_get_total_stats");
  gst_clear_object (&plugin);
  gst_clear_object (&loaded);
  return func;
}

static void
streams_problem (StreamsRun * run, const gchar * what)
{
  g_mutex_lock (&run->lock);
  if (!run->first_problem)
    run->first_problem = g_strdup (what);
  g_mutex_unlock (&run->lock);
}

/* appsrc's streaming thread, whenever its queue is empty: the next frame
 * of the ring (a shallow copy: writable, as in a real pipeline), or EOS
 * once the run stops.  Feeding from here keeps each element busy without
 * a thread per stream. */
static void
streams_need_data (GstAppSrc * src, guint length, gpointer user_data)
{
  Stream *s = user_data;

  if (g_atomic_int_get (&s->run->stop)) {
    if (!s->eos_sent) {
      s->eos_sent = TRUE;
      gst_app_src_end_of_stream (src);
    }
    return;
  }
  g_atomic_int_inc (&s->pushed);
  if (gst_app_src_push_buffer (src,
          gst_buffer_copy (s->ring[s->next++ % s->ring_n])) != GST_FLOW_OK)
    g_atomic_int_inc (&s->errors);
}

static GstPadProbeReturn
streams_on_sink (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  ((Stream *) user_data)->t_in = now_ns ();
  return GST_PAD_PROBE_OK;
}

static GstPadProbeReturn
streams_on_src (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  Stream *s = user_data;
  guint64 d = now_ns () - s->t_in;
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  const GValue *metric = NULL;
  gpointer state = NULL;
  GstMeta *meta;

  /* By the meta's registered info and the field's quark, not by name: 64
   * streams looking names up every frame contend on GLib's quark lock
   * (gst/common/sharpness-fields.h). */
  while (!metric && (meta = gst_buffer_iterate_meta (buf, &state)))
    if (meta->info == s->run->meta_info)
      metric = sharpness_structure_get (gst_custom_meta_get_structure
          ((GstCustomMeta *) meta), SHARPNESS_FIELD_METRIC);
  if (metric && G_VALUE_HOLDS_STRING (metric) &&
      !g_strcmp0 (g_value_get_string (metric), s->run->nick))
    g_atomic_int_inc (&s->scored);
  if (g_atomic_int_get (&s->run->measuring))
    s->lat[s->lat_n++ % s->lat_cap] = d;
  g_atomic_int_inc (&s->out);
  return GST_PAD_PROBE_OK;
}

/* Every message of a stream's bus, in the posting thread: per-frame
 * "sharpness" messages are dropped unread (the run must not queue millions
 * of them), EOS and problems are recorded. */
static GstBusSyncReply
streams_bus_sync (GstBus * bus, GstMessage * msg, gpointer user_data)
{
  Stream *s = user_data;
  GError *err = NULL;

  switch (GST_MESSAGE_TYPE (msg)) {
    case GST_MESSAGE_EOS:
      g_atomic_int_set (&s->eos, 1);
      break;
    case GST_MESSAGE_ERROR:
    case GST_MESSAGE_WARNING:
      if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
        gst_message_parse_error (msg, &err, NULL);
        g_atomic_int_inc (&s->errors);
      } else {
        gst_message_parse_warning (msg, &err, NULL);
        g_atomic_int_inc (&s->warnings);
      }
      streams_problem (s->run, err->message);
      g_clear_error (&err);
      break;
    default:
      break;
  }
  return GST_BUS_DROP;
}

static gboolean
stream_setup (Stream * s, StreamsRun * run, GstBuffer ** ring, guint ring_n,
    const gchar * caps, guint lat_cap)
{
  GstAppSrcCallbacks callbacks = { streams_need_data, NULL, NULL };
  GstElement *el;
  GstPad *pad;
  GstBus *bus;
  GstContext *context;
  GError *err = NULL;
  gchar *desc;

  memset (s, 0, sizeof (*s));
  s->run = run;
  s->ring = ring;
  s->ring_n = ring_n;
  s->lat_cap = lat_cap;
  s->lat = g_new (guint64, lat_cap);
  /* block=false: the source is fed from its own streaming thread, which
   * must never wait for room in its own queue. */
  desc = g_strdup_printf ("appsrc name=src format=time block=false "
      "max-buffers=2 max-bytes=0 caps=\"%s\" ! cudasharpness name=el "
      "backend=cuda metric=%s %s ! fakesink sync=false async=false", caps,
      run->nick, opt.element_props);
  s->pipeline = gst_parse_launch (desc, &err);
  g_free (desc);
  if (!s->pipeline) {
    streams_problem (run, err ? err->message : "cannot build a pipeline");
    g_clear_error (&err);
    return FALSE;
  }
  context = gst_context_new_cuda_context (cuda_ctx);
  gst_element_set_context (s->pipeline, context);
  gst_context_unref (context);

  s->src = gst_bin_get_by_name (GST_BIN (s->pipeline), "src");
  gst_app_src_set_callbacks (GST_APP_SRC (s->src), &callbacks, s, NULL);
  el = gst_bin_get_by_name (GST_BIN (s->pipeline), "el");
  pad = gst_element_get_static_pad (el, "sink");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, streams_on_sink, s,
      NULL);
  gst_object_unref (pad);
  pad = gst_element_get_static_pad (el, "src");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, streams_on_src, s, NULL);
  gst_object_unref (pad);
  gst_object_unref (el);
  bus = gst_element_get_bus (s->pipeline);
  gst_bus_set_sync_handler (bus, streams_bus_sync, s, NULL);
  gst_object_unref (bus);
  return TRUE;
}

static void
stream_clear (Stream * s)
{
  if (s->pipeline) {
    gst_element_set_state (s->pipeline, GST_STATE_NULL);
    gst_object_unref (s->src);
    gst_object_unref (s->pipeline);
  }
  g_free (s->lat);
}

static guint64
streams_out_total (Stream * streams, guint n)
{
  guint64 total = 0;

  for (guint i = 0; i < n; i++)
    total += (guint) g_atomic_int_get (&streams[i].out);
  return total;
}

/* One case: @n pipelines of @nick for the measured time, then drained
 * within the grace time; @rings holds K frames per stream. */
static void
run_streams_case (guint n, const gchar * nick, gboolean service,
    GstBuffer ** rings, const gchar * caps, ServiceTotalsFunc totals,
    StreamsResult * res)
{
  StreamsRun run = { 0, };
  Stream *streams = g_new0 (Stream, n);
  SharpnessCudaServiceStats st0 = { 0, }, st1 = { 0, };
  const guint lat_cap = MAX (STREAMS_SAMPLES / n, STREAMS_MIN_SAMPLES);
  guint64 t0, t1, out0, out1, deadline, *all;
  guint i, n_all = 0, started = 0;
  gboolean failed = FALSE;

  memset (res, 0, sizeof (*res));
  res->n = n;
  res->nick = nick;
  res->service = service;
  res->per_round = -1;
  run.nick = nick;
  g_mutex_init (&run.lock);
  /* Read by the elements when they open: set before the pipelines start. */
  if (service)
    g_unsetenv ("SHARPNESS_CUDA_NO_SERVICE");
  else
    g_setenv ("SHARPNESS_CUDA_NO_SERVICE", "1", TRUE);

  for (i = 0; i < n && !failed; i++) {
    failed = !stream_setup (&streams[i], &run, rings + (gsize) i *
        opt.streams_ring, opt.streams_ring, caps, lat_cap);
  }
  /* Registered by the plugin, loaded by now (the pipelines hold its
   * element); read by the probes once frames flow. */
  run.meta_info = gst_meta_get_info ("GstSharpnessMeta");
  /* Each stream starts pushing as soon as it plays. */
  for (i = 0; i < n && !failed; i++) {
    if (gst_element_set_state (streams[i].pipeline, GST_STATE_PLAYING) ==
        GST_STATE_CHANGE_FAILURE) {
      streams_problem (&run, "a pipeline did not start");
      failed = TRUE;
    } else {
      started++;
    }
  }

  g_usleep ((gulong) (opt.streams_warmup * G_USEC_PER_SEC));
  if (totals)
    totals (&st0);
  out0 = streams_out_total (streams, n);
  t0 = now_ns ();
  g_atomic_int_set (&run.measuring, 1);
  /* The measured time, cut short by an error. */
  while (!failed && now_ns () - t0 < opt.streams_seconds * GST_SECOND) {
    for (i = 0; i < n; i++)
      failed |= g_atomic_int_get (&streams[i].errors) > 0;
    g_usleep (10000);
  }
  g_atomic_int_set (&run.measuring, 0);
  t1 = now_ns ();
  out1 = streams_out_total (streams, n);
  if (totals)
    totals (&st1);

  /* Stop pushing and wait, within the grace time, for every stream to
   * drain: a collapsed run still ends. */
  g_atomic_int_set (&run.stop, 1);
  deadline = now_ns () + (guint64) (opt.streams_grace * GST_SECOND);
  for (;;) {
    guint done = 0;

    for (i = 0; i < started; i++)
      done += g_atomic_int_get (&streams[i].eos) ||
          g_atomic_int_get (&streams[i].errors) > 0;
    res->streams_done = done;
    if (done == started || now_ns () > deadline)
      break;
    g_usleep (5000);
  }

  res->seconds = (t1 - t0) / 1e9;
  res->frames = out1 - out0;
  res->fps = res->seconds > 0 ? res->frames / res->seconds : 0;
  all = g_new (guint64, (gsize) MIN (lat_cap, STREAMS_SAMPLES) * n + 1);
  for (i = 0; i < n; i++) {
    Stream *s = &streams[i];
    guint k = MIN (s->lat_n, s->lat_cap);

    memcpy (all + n_all, s->lat, k * sizeof (guint64));
    n_all += k;
  }
  if (n_all) {
    qsort (all, n_all, sizeof (guint64), test_cmp_u64);
    res->p50 = all[n_all / 2];
    res->p99 = all[MIN (n_all - 1, (guint) ((guint64) n_all * 99 / 100))];
  }
  g_free (all);

  if (totals && st1.batches > st0.batches) {
    res->per_round = (gdouble) (st1.requests - st0.requests) /
        (st1.batches - st0.batches);
    res->max_round = st1.max_batch;
  }

  for (i = 0; i < n; i++)
    stream_clear (&streams[i]);
  /* Counted after the pipelines stopped: nothing moves any more. */
  for (i = 0; i < n; i++) {
    res->pushed += (guint) g_atomic_int_get (&streams[i].pushed);
    res->out += (guint) g_atomic_int_get (&streams[i].out);
    res->scored += (guint) g_atomic_int_get (&streams[i].scored);
  }
  res->complete = !failed && res->streams_done == n &&
      res->pushed == res->out && res->scored == res->out;
  if (run.first_problem)
    g_snprintf (res->note, sizeof (res->note), "%s", run.first_problem);
  else if (res->streams_done < n)
    g_snprintf (res->note, sizeof (res->note), "%u of %u streams not "
        "drained %.0f s after the stop", n - res->streams_done, n,
        opt.streams_grace);
  else if (res->scored != res->out || res->pushed != res->out)
    g_snprintf (res->note, sizeof (res->note), "frames lost or unscored");
  g_free (run.first_problem);
  g_mutex_clear (&run.lock);
  g_free (streams);
  g_unsetenv ("SHARPNESS_CUDA_NO_SERVICE");
}

static void
emit_streams_result (const StreamsResult * r)
{
  gchar *round = r->per_round < 0 ? g_strdup ("n/a") :
      g_strdup_printf ("%.1f (max %u)", r->per_round, r->max_round);

  fprintf (csv, "%u,%s,%s,%.3f,%" G_GUINT64_FORMAT ",%.1f,%" G_GUINT64_FORMAT
      ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%"
      G_GUINT64_FORMAT ",%d,%.2f,\"%s\"\n", r->n, r->nick,
      r->service ? "on" : "off", r->seconds, r->frames, r->fps, r->p50,
      r->p99, r->pushed, r->out, r->scored, r->complete, r->per_round,
      r->note);
  fflush (csv);
  g_string_append_printf (markdown, "| %u | %s | %s | %.0f | %.1f | %.1f | "
      "%" G_GUINT64_FORMAT " / %" G_GUINT64_FORMAT " | %s | %s |\n", r->n,
      r->nick, r->service ? "on" : "off", r->fps, r->p50 / 1000.0,
      r->p99 / 1000.0, r->scored, r->pushed, round, r->complete ? "yes" :
      r->note[0] ? r->note : "no");
  g_printerr ("  %u streams, %s, service %s: %.0f frames/s, p50 %.1f us, "
      "p99 %.1f us, %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT " scored%s%s\n",
      r->n, r->nick, r->service ? "on" : "off", r->fps, r->p50 / 1000.0,
      r->p99 / 1000.0, r->scored, r->pushed, r->note[0] ? ": " : "",
      r->note);
  g_free (round);
}

/* The --streams mode; FALSE when a case was incomplete. */
gboolean
run_streams_mode (const Tiles * tiles, const SharpnessMetric * metrics,
    guint n_metrics)
{
  const Resolution *res = &all_resolutions[1];        /* 1080p */
  ServiceTotalsFunc totals = service_totals_func ();
  guint max_n = 0, i, m;
  GstBuffer **rings;
  gchar *caps;
  Ring ring;
  gboolean all_ok = TRUE;

  for (i = 0; i < opt.n_streams; i++)
    max_n = MAX (max_n, opt.streams[i]);
  ring_init (&ring, tiles, res);
  g_printerr ("%s: %u streams at most, %u frames each in CUDA memory "
      "(pictures from a ring of %u)\n", res->name, max_n, opt.streams_ring,
      ring.n);
  /* Every stream's frames are its own memory, made once for the largest
   * count and shared by the cases. */
  rings = make_cuda_buffers_n (&ring, max_n * opt.streams_ring);
  caps = g_strdup_printf ("video/x-raw(memory:CUDAMemory),format=NV12,"
      "width=%d,height=%d,framerate=30/1", res->width, res->height);

  fprintf (csv, "streams,metric,service,seconds,frames,fps,p50_ns,p99_ns,"
      "pushed,out,scored,complete,frames_per_round,note\n");
  g_string_append_printf (markdown, "\n### Many streams, %s NV12 in CUDA "
      "memory\n\n%u pipelines `appsrc ! cudasharpness ! fakesink` at most in "
      "one process, each fed as fast as it takes frames; %.1f s measured "
      "after %.1f s of warm-up. Latency: sink to src pad of the element. "
      "Round: frames per scoring-service launch round.%s\n\n"
      "| streams | metric | service | frames/s | p50 us | p99 us | scored / "
      "pushed | frames per round | complete |\n"
      "|---:|---|---|---:|---:|---:|---:|---:|---|\n", res->name, max_n,
      opt.streams_seconds, opt.streams_warmup, totals ? "" :
      " (the plugin has no scoring service: rounds n/a)");

  for (m = 0; m < n_metrics; m++) {
    const gchar *nick = sharpness_metric_info[metrics[m]].nick;

    for (i = 0; i < opt.n_streams; i++) {
      StreamsResult r;

      g_printerr ("%u streams, %s\n", opt.streams[i], nick);
      run_streams_case (opt.streams[i], nick, TRUE, rings, caps, totals, &r);
      emit_streams_result (&r);
      all_ok &= r.complete;
      if (opt.compare_no_service) {
        run_streams_case (opt.streams[i], nick, FALSE, rings, caps, totals,
            &r);
        emit_streams_result (&r);
        all_ok &= r.complete;
      }
    }
  }

  free_buffers (rings, max_n * opt.streams_ring);
  g_free (caps);
  ring_clear (&ring);
  return all_ok;
}
