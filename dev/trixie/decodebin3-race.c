/* decodebin3-race: `filesrc location=FILE ! decodebin3 ! fakesink` played
 * N times in each of T threads of one process, the failures counted by
 * their error text: GStreamer 1.26's decodebin3 decoder race
 * (docs/reference/gstreamer-versions.md), lost mostly by a process'
 * second and later pipelines.  --fix applies sharpness-monitor's
 * workaround (tools/monitor/monitor-pipeline.c: the stream gets the caps
 * the parser will send when parsebin's pad appears), so that both are
 * counted in the same conditions.
 *
 *   cc -O2 -o decodebin3-race dev/trixie/decodebin3-race.c \
 *       $(pkg-config --cflags --libs gstreamer-1.0)
 *   dev/trixie/chroot-run.sh ROOT ./decodebin3-race [--fix] FILE N T
 *
 * Exit status: 0 when every run ended in EOS, 1 when one did not, 2 on
 * bad arguments.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include <gst/gst.h>

/* A run that has not ended in this time counts as failed ("timeout"):
 * the clips meant here last seconds and fakesink waits for their clock. */
#define RUN_TIMEOUT (60 * GST_SECOND)

static const gchar *file;
static gint runs;
static gboolean fix;

static GMutex lock;
static GHashTable *failures;    /* error text -> count */
static gint ended;

/* What monitor-pipeline.c does, written out again here so that the
 * program builds alone against the root's GStreamer. */
static void
parsebin_pad_added (GstElement * parsebin, GstPad * pad, gpointer user_data)
{
  GstStream *stream = gst_pad_get_stream (pad);
  GstCaps *current = gst_pad_get_current_caps (pad);
  GstCaps *have = stream ? gst_stream_get_caps (stream) : NULL;

  if (have && !current) {
    GstCaps *can = gst_pad_query_caps (pad, NULL);
    GstCaps *caps = gst_caps_intersect_full (can, have,
        GST_CAPS_INTERSECT_FIRST);

    if (!gst_caps_is_empty (caps)) {
      caps = gst_caps_fixate (caps);
      gst_stream_set_caps (stream, caps);
    }
    gst_caps_unref (caps);
    gst_caps_unref (can);
  }
  if (have)
    gst_caps_unref (have);
  if (current)
    gst_caps_unref (current);
  if (stream)
    gst_object_unref (stream);
}

static void
element_added (GstBin * bin, GstBin * sub_bin, GstElement * element,
    gpointer user_data)
{
  GstElementFactory *f = gst_element_get_factory (element);

  if (f && g_str_equal (gst_plugin_feature_get_name (f), "parsebin"))
    g_signal_connect (element, "pad-added", G_CALLBACK (parsebin_pad_added),
        NULL);
}

/* The first pad decodebin3 exposes goes to the fakesink; the others stay
 * unlinked (the clips meant here have one stream). */
static void
link_first (GstElement * dec, GstPad * pad, gpointer user_data)
{
  GstPad *sinkpad = gst_element_get_static_pad (GST_ELEMENT (user_data),
      "sink");

  if (!gst_pad_is_linked (sinkpad))
    gst_pad_link (pad, sinkpad);
  gst_object_unref (sinkpad);
}

/* NULL when the run ended in EOS, else what stopped it. */
static gchar *
play_once (void)
{
  GstElement *pipe = gst_pipeline_new (NULL);
  GstElement *src = gst_element_factory_make ("filesrc", NULL);
  GstElement *dec = gst_element_factory_make ("decodebin3", NULL);
  GstElement *sink = gst_element_factory_make ("fakesink", NULL);
  GstMessage *msg;
  gchar *why = NULL;

  if (!src || !dec || !sink)
    return g_strdup ("filesrc, decodebin3 or fakesink missing");
  g_object_set (src, "location", file, NULL);
  /* Before the link: decodebin3 makes its parsebin when it is linked. */
  if (fix)
    g_signal_connect (dec, "deep-element-added", G_CALLBACK (element_added),
        NULL);
  gst_bin_add_many (GST_BIN (pipe), src, dec, sink, NULL);
  gst_element_link (src, dec);
  g_signal_connect (dec, "pad-added", G_CALLBACK (link_first), sink);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  msg = gst_bus_timed_pop_filtered (GST_ELEMENT_BUS (pipe), RUN_TIMEOUT,
      GST_MESSAGE_EOS | GST_MESSAGE_ERROR);
  if (!msg) {
    why = g_strdup ("timeout");
  } else if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
    GError *err;

    gst_message_parse_error (msg, &err, NULL);
    why = g_strdup (err->message);
    g_error_free (err);
  }
  if (msg)
    gst_message_unref (msg);
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (pipe);
  return why;
}

static gpointer
play (gpointer data)
{
  for (gint i = 0; i < runs; i++) {
    gchar *why = play_once ();

    g_mutex_lock (&lock);
    if (why)
      g_hash_table_insert (failures, why, GINT_TO_POINTER (GPOINTER_TO_INT
              (g_hash_table_lookup (failures, why)) + 1));
    else
      ended++;
    g_mutex_unlock (&lock);
  }
  return NULL;
}

int
main (int argc, char **argv)
{
  GHashTableIter it;
  gpointer key, value;
  GThread **threads;
  gint n_threads, first = 1;

  gst_init (&argc, &argv);
  if (argc > 1 && strcmp (argv[1], "--fix") == 0) {
    fix = TRUE;
    first = 2;
  }
  if (argc != first + 3 || (runs = atoi (argv[first + 1])) < 1 ||
      (n_threads = atoi (argv[first + 2])) < 1 || n_threads > 64) {
    g_printerr ("usage: %s [--fix] FILE RUNS THREADS (1-64)\n", argv[0]);
    return 2;
  }
  file = argv[first];
  failures = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  threads = g_new (GThread *, n_threads);
  for (gint i = 0; i < n_threads; i++)
    threads[i] = g_thread_new ("play", play, NULL);
  for (gint i = 0; i < n_threads; i++)
    g_thread_join (threads[i]);
  g_free (threads);
  g_print ("%s, %s%s, %d threads x %d runs: %d ended, %d failed\n",
      gst_version_string (), file, fix ? " (--fix)" : "", n_threads, runs,
      ended, runs * n_threads - ended);
  g_hash_table_iter_init (&it, failures);
  while (g_hash_table_iter_next (&it, &key, &value))
    g_print ("  %d x %s\n", GPOINTER_TO_INT (value), (const gchar *) key);
  g_hash_table_unref (failures);
  return ended == runs * n_threads ? 0 : 1;
}
