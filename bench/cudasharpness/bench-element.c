/* bench-element.c: one element timed in "appsrc ! element ! fakesink"
 * by pad probes, on a ring of buffers or the pinned pool it proposes.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "bench-sharpness.h"

static GstPadProbeReturn
on_sink_buffer (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  ((Timing *) user_data)->t_in = now_ns ();
  return GST_PAD_PROBE_OK;
}

static GstPadProbeReturn
on_src_buffer (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  Timing *t = user_data;
  guint64 d = now_ns () - t->t_in;
  gint n = g_atomic_int_get (&t->n);
  gint seen = g_atomic_int_get (&t->seen);

  if (seen == 0)
    t->first = d;
  if ((guint) seen >= t->warmup && (guint) n < t->cap) {
    t->samples[n] = d;
    g_atomic_int_set (&t->n, n + 1);
  }
  g_atomic_int_set (&t->seen, seen + 1);
  return GST_PAD_PROBE_OK;
}

/* FALSE on an error.  Warnings (a fallback to the CPU, say) are counted:
 * such a run does not measure what it claims to. */
gboolean
handle_message (GstMessage * msg, guint * warnings, gchar ** first_warning)
{
  GError *err = NULL;

  switch (GST_MESSAGE_TYPE (msg)) {
    case GST_MESSAGE_ERROR:
      gst_message_parse_error (msg, &err, NULL);
      g_printerr ("error from %s: %s\n", GST_MESSAGE_SRC_NAME (msg),
          err->message);
      g_clear_error (&err);
      return FALSE;
    case GST_MESSAGE_WARNING:
      gst_message_parse_warning (msg, &err, NULL);
      if (!*first_warning)
        *first_warning = g_strdup (err->message);
      (*warnings)++;
      g_clear_error (&err);
      return TRUE;
    default:
      return TRUE;
  }
}

gboolean
drain_bus (GstBus * bus, guint * warnings, gchar ** first_warning)
{
  GstMessage *msg;
  gboolean ok = TRUE;

  while ((msg = gst_bus_pop (bus))) {
    ok = handle_message (msg, warnings, first_warning) && ok;
    gst_message_unref (msg);
  }
  return ok;
}

/* appsrc makes no allocation query of its own (its buffers come from the
 * application), so the benchmark asks as any upstream element would, once
 * the element has negotiated: the pool it gets first must be the element's
 * pinned pool.  The ring is acquired from it.  NULL with a reason in @r
 * otherwise; *@pool is the active pool to release afterwards. */
static GstBuffer **
acquire_pinned_ring (const Ring * ring, GstElement * src, Result * r,
    GstBufferPool ** pool)
{
  GstPad *pad = gst_element_get_static_pad (src, "src");
  GstCaps *caps = gst_pad_get_current_caps (pad);
  GstQuery *query = gst_query_new_allocation (caps, TRUE);
  GstStructure *config;
  GstAllocator *allocator = NULL;
  GstBuffer **bufs = NULL;
  guint i, size, min, max;

  *pool = NULL;
  if (!gst_pad_peer_query (pad, query) ||
      gst_query_get_n_allocation_pools (query) == 0) {
    result_fail (r, "no pool proposed");
    goto out;
  }
  gst_query_parse_nth_allocation_pool (query, 0, pool, &size, &min, &max);
  if (!*pool) {
    result_fail (r, "no pool proposed");
    goto out;
  }
  config = gst_buffer_pool_get_config (*pool);
  gst_buffer_pool_config_get_allocator (config, &allocator, NULL);
  if (!allocator || g_strcmp0 (allocator->mem_type, PINNED_MEMORY_TYPE)) {
    result_fail (r, "the first pool proposed is not the pinned pool");
    gst_structure_free (config);
    gst_clear_object (pool);
    goto out;
  }
  gst_buffer_pool_config_set_params (config, caps, size, min, max);
  if (!gst_buffer_pool_set_config (*pool, config) ||
      !gst_buffer_pool_set_active (*pool, TRUE))
    g_error ("cannot configure the pinned pool");

  bufs = g_new0 (GstBuffer *, ring->n);
  for (i = 0; i < ring->n; i++) {
    if (gst_buffer_pool_acquire_buffer (*pool, &bufs[i], NULL) != GST_FLOW_OK)
      g_error ("cannot acquire a pinned buffer");
    if (!gst_memory_is_type (gst_buffer_peek_memory (bufs[i], 0),
            PINNED_MEMORY_TYPE))
      g_error ("the pinned pool handed out other memory");
    fill_buffer (ring, i, bufs[i], &ring->nv12);
  }

out:
  gst_query_unref (query);
  gst_caps_unref (caps);
  gst_object_unref (pad);
  return bufs;
}

/* "appsrc name=src ! @element_desc ! fakesink" on the benchmark's CUDA
 * context (no per-run setup), the element named "el" timed into @t by
 * pad probes: the pipeline, its source, element and bus. */
GstElement *
timed_pipeline_new (const gchar * caps, const gchar * element_desc,
    Timing * t, GstElement ** src, GstElement ** el, GstBus ** bus)
{
  GstElement *pipeline;
  GstContext *context;
  GstPad *pad;
  GError *err = NULL;
  gchar *desc = g_strdup_printf ("appsrc name=src format=time block=true "
      "max-buffers=2 max-bytes=0 caps=\"%s\" ! %s ! fakesink sync=false "
      "async=false", caps, element_desc);

  pipeline = gst_parse_launch (desc, &err);
  g_free (desc);
  if (!pipeline)
    g_error ("cannot build the pipeline: %s", err->message);
  context = gst_context_new_cuda_context (cuda_ctx);
  gst_element_set_context (pipeline, context);
  gst_context_unref (context);

  *src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  *el = gst_bin_get_by_name (GST_BIN (pipeline), "el");
  pad = gst_element_get_static_pad (*el, "sink");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, on_sink_buffer, t, NULL);
  gst_object_unref (pad);
  pad = gst_element_get_static_pad (*el, "src");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, on_src_buffer, t, NULL);
  gst_object_unref (pad);
  *bus = gst_element_get_bus (pipeline);
  return pipeline;
}

/* Runs "appsrc ! @element_desc ! fakesink", pushing shallow copies of the
 * ring (writable buffers, as in a real pipeline) round-robin, and times the
 * element named "el".  @ring_bufs NULL: acquire the ring from the pinned
 * pool (MODE_PINNED). */
void
run_element (const Ring * ring, GstBuffer ** ring_bufs, const gchar * caps,
    const gchar * element_desc, gdouble seconds, guint warmup,
    guint min_samples, Result * r)
{
  GstElement *pipeline, *src, *el;
  GstBus *bus;
  GstBuffer **pinned = NULL;
  GstBufferPool *pinned_pool = NULL;
  Timing t = { 0, };
  gchar *first_warning = NULL;
  guint warnings = 0, pushed = 0, in_flight;
  guint64 start;
  gboolean ok = TRUE;

  t.warmup = warmup;
  t.cap = opt.max_frames;
  t.samples = g_new (guint64, t.cap);
  pipeline = timed_pipeline_new (caps, element_desc, &t, &src, &el, &bus);

  if (gst_element_set_state (pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE) {
    gst_element_set_state (pipeline, GST_STATE_NULL);
    drain_bus (bus, &warnings, &first_warning);
    result_fail (r, "pipeline did not start%s%s", first_warning ? ": " : "",
        first_warning ? first_warning : "");
    goto done;
  }

  if (!ring_bufs) {
    /* One ordinary frame through the element settles the caps. */
    GstBuffer *prime = gst_buffer_new_allocate (NULL,
        GST_VIDEO_INFO_SIZE (&ring->nv12), NULL);
    fill_buffer (ring, 0, prime, &ring->nv12);
    gst_app_src_push_buffer (GST_APP_SRC (src), prime);
    pushed++;
    guint64 deadline = now_ns () + 30 * GST_SECOND;

    while (g_atomic_int_get (&t.seen) == 0 && now_ns () < deadline)
      g_usleep (100);
    if (g_atomic_int_get (&t.seen) == 0) {
      result_fail (r, "the first frame did not come through");
      goto stop;
    }
    pinned = acquire_pinned_ring (ring, src, r, &pinned_pool);
    if (!pinned)
      goto stop;
    ring_bufs = pinned;
  }

  /* Slow runs (one sample will do) keep one buffer in flight, so that
   * stopping does not wait for queued frames; fast ones keep the element
   * busy. */
  in_flight = min_samples > 1 ? 3 : 1;
  start = now_ns ();
  for (;;) {
    guint n = g_atomic_int_get (&t.n), seen = g_atomic_int_get (&t.seen);
    guint64 elapsed = now_ns () - start;

    if (!drain_bus (bus, &warnings, &first_warning)) {
      ok = FALSE;
      break;
    }
    if (n >= t.cap || (elapsed > seconds * GST_SECOND && (n >= min_samples
                || (min_samples == 1 && seen > 0))))
      break;
    if (pushed - seen >= in_flight) {
      g_usleep (20);
      continue;
    }
    if (gst_app_src_push_buffer (GST_APP_SRC (src),
            gst_buffer_copy (ring_bufs[pushed % ring->n])) != GST_FLOW_OK) {
      ok = FALSE;
      break;
    }
    pushed++;
  }

stop:
  gst_app_src_end_of_stream (GST_APP_SRC (src));
  while (ok) {
    GstMessage *msg = gst_bus_timed_pop (bus, 600 * GST_SECOND);
    gboolean eos;

    if (!msg) {
      g_printerr ("timeout waiting for EOS\n");
      ok = FALSE;
      break;
    }
    eos = GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS;
    ok = handle_message (msg, &warnings, &first_warning);
    gst_message_unref (msg);
    if (eos)
      break;
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  ok = drain_bus (bus, &warnings, &first_warning) && ok;

  if (!r->failed) {
    guint n = g_atomic_int_get (&t.n);

    /* A frame slower than the whole budget: its first (warm-up) time is
     * the only one there is; the CSV shows frames = 1. */
    if (n == 0 && g_atomic_int_get (&t.seen) > 0) {
      t.samples[0] = t.first;
      n = 1;
    }
    result_from_samples (r, t.samples, n);
    if (!ok)
      result_fail (r, "pipeline error");
    else if (warnings)
      result_fail (r, "%u warnings: %s", warnings, first_warning);
  }

done:
  free_buffers (pinned, ring->n);
  if (pinned_pool) {
    gst_buffer_pool_set_active (pinned_pool, FALSE);
    gst_object_unref (pinned_pool);
  }
  g_free (first_warning);
  g_free (t.samples);
  gst_object_unref (bus);
  gst_object_unref (src);
  gst_object_unref (el);
  gst_object_unref (pipeline);
}
