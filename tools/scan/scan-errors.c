/* sharpness-scan: why an input failed, in words a user can act on.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Three things GStreamer leaves unsaid:
 * - Errors a bin drops.  decodebin ignores the errors of an element it is
 *   still plugging in (so that it can try another one), and keeps ignoring
 *   them once the element is in if they were posted before it was: a
 *   demuxer in pull mode that fails at once (an MP4 without `moov`) may
 *   post its error in that window, and the pipeline then waits for ever.
 *   A tracer hook sees every error decodebin's elements post; when the
 *   element that posted it is still in the pipeline and has started (the
 *   bin kept it: the error is real), the file fails with it.
 * - Why a network source failed: souphttpsrc ends a refused connection
 *   with a bare flow error ("Internal data stream error").  The tool then
 *   connects to the server itself and says what happened.
 * - What typefinding's errors mean for the user: not a video file.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include <gio/gio.h>

#include "scan-job.h"

#define SEEN_ERROR "sharpness-scan-error-seen"
/* A dropped error is checked every CHECK_MS, at most MAX_CHECKS times:
 * long enough for the bin to finish plugging the element in. */
#define CHECK_MS 100
#define MAX_CHECKS 50
#define CONNECT_TIMEOUT_S 10

static GQuark job_quark;

typedef struct
{
  GstTracer parent;
} ScanErrorTracer;

typedef struct
{
  GstTracerClass parent_class;
} ScanErrorTracerClass;

GType scan_error_tracer_get_type (void);
G_DEFINE_TYPE (ScanErrorTracer, scan_error_tracer, GST_TYPE_TRACER);

static void
scan_error_tracer_class_init (ScanErrorTracerClass * klass)
{
}

static void
scan_error_tracer_init (ScanErrorTracer * self)
{
}

/* The pipeline @element is in (a reference), or NULL. */
static GstObject *
top_of (GstObject * element)
{
  GstObject *top = gst_object_ref (element), *parent;

  while ((parent = gst_object_get_parent (top))) {
    gst_object_unref (top);
    top = parent;
  }
  return top;
}

/* Whether @element was plugged in by a decodebin: the elements whose
 * errors it may drop.  (Other bins that handle their children's errors,
 * such as adaptive demuxers retrying a download, are left alone.) */
static gboolean
in_decodebin (GstElement * element)
{
  GstObject *parent = gst_object_get_parent (GST_OBJECT (element));
  gboolean yes = parent &&
      g_str_equal (G_OBJECT_TYPE_NAME (parent), "GstDecodeBin");

  if (parent)
    gst_object_unref (parent);
  return yes;
}

/* Any thread: tells the job's main loop about every error posted by an
 * element of decodebin's in its pipeline, before decodebin can drop it. */
static void
on_post_message (GObject * tracer, GstClockTime ts, GstElement * element,
    GstMessage * msg)
{
  GstObject *top;
  GstBus *bus;

  if (GST_MESSAGE_TYPE (msg) != GST_MESSAGE_ERROR || !in_decodebin (element))
    return;
  top = top_of (GST_OBJECT (element));
  if (g_object_get_qdata (G_OBJECT (top), job_quark) &&
      (bus = gst_element_get_bus (GST_ELEMENT (top)))) {
    gst_bus_post (bus, gst_message_new_application (top,
            gst_structure_new (SEEN_ERROR, "message", GST_TYPE_MESSAGE, msg,
                NULL)));
    gst_object_unref (bus);
  }
  gst_object_unref (top);
}

void
scan_errors_init (void)
{
  static GstTracer *tracer;

  if (tracer)
    return;
  job_quark = g_quark_from_static_string ("sharpness-scan-job");
  tracer = g_object_new (scan_error_tracer_get_type (), NULL);
  gst_tracing_register_hook (tracer, "element-post-message-pre",
      G_CALLBACK (on_post_message));
}

void
scan_errors_watch_pipeline (ScanJob * job)
{
  g_object_set_qdata (G_OBJECT (job->pipeline), job_quark, job);
}

static gboolean
check_dropped_error (gpointer user_data)
{
  ScanJob *job = user_data;
  GstObject *src = GST_MESSAGE_SRC (job->dropped_error);
  GstObject *parent = gst_object_get_parent (src);
  GstState state;

  if (parent)
    gst_object_unref (parent);
  if (!parent || job->finished) {
    /* The bin took the element out: it was trying it, and the error was
     * part of that. */
    job->dropped_error_timer = 0;
    gst_clear_message (&job->dropped_error);
    return G_SOURCE_REMOVE;
  }
  GST_OBJECT_LOCK (src);
  state = GST_STATE (src);
  GST_OBJECT_UNLOCK (src);
  if (state >= GST_STATE_PAUSED) {
    gchar *text;

    /* Kept and started: nobody will report the error but us. */
    job->dropped_error_timer = 0;
    text = scan_errors_describe (job, job->dropped_error);
    if (text)
      scan_job_finish (job, text);
    return G_SOURCE_REMOVE;
  }
  if (++job->dropped_error_checks >= MAX_CHECKS) {
    job->dropped_error_timer = 0;
    gst_clear_message (&job->dropped_error);
    return G_SOURCE_REMOVE;
  }
  return G_SOURCE_CONTINUE;
}

gboolean
scan_errors_handle_application (ScanJob * job, GstMessage * msg)
{
  const GstStructure *s = gst_message_get_structure (msg);
  GstMessage *seen = NULL;

  if (!gst_structure_has_name (s, SEEN_ERROR))
    return FALSE;
  /* The first one only: if the pipeline reports it, it ends the file. */
  if (job->dropped_error || job->finished || job->diagnosis)
    return TRUE;
  gst_structure_get (s, "message", GST_TYPE_MESSAGE, &seen, NULL);
  if (!seen)
    return TRUE;
  job->dropped_error = seen;
  job->dropped_error_checks = 0;
  job->dropped_error_timer = g_timeout_add (CHECK_MS, check_dropped_error,
      job);
  return TRUE;
}

void
scan_errors_stop (ScanJob * job)
{
  if (job->dropped_error_timer)
    g_source_remove (job->dropped_error_timer);
  job->dropped_error_timer = 0;
  gst_clear_message (&job->dropped_error);
  if (job->diagnosis)
    g_cancellable_cancel (job->diagnosis);
  g_clear_object (&job->diagnosis);
}

/* The network check. */

typedef struct
{
  ScanJob *job;
  GCancellable *cancellable;
  gchar *address;               /* host:port, for the message */
  gchar *gst_text;              /* what GStreamer said */
} Diagnosis;

static void
connected (GObject * client, GAsyncResult * res, gpointer user_data)
{
  Diagnosis *d = user_data;
  GError *err = NULL;
  GSocketConnection *conn = g_socket_client_connect_finish (G_SOCKET_CLIENT
      (client), res, &err);
  gchar *text;

  if (g_cancellable_is_cancelled (d->cancellable)) {
    /* The job ended meanwhile (a signal): it is not ours any more. */
  } else {
    if (conn)
      text = g_strdup_printf ("could not read from %s although it accepts "
          "connections (%s): check the URI and the server's log",
          d->address, d->gst_text);
    else if (g_error_matches (err, G_IO_ERROR,
            G_IO_ERROR_CONNECTION_REFUSED))
      text = g_strdup_printf ("could not connect to %s: connection refused "
          "(is the server running, and on that port?)", d->address);
    else if (g_error_matches (err, G_IO_ERROR, G_IO_ERROR_TIMED_OUT))
      text = g_strdup_printf ("could not connect to %s: no answer in %d s",
          d->address, CONNECT_TIMEOUT_S);
    else if (err && err->domain == G_RESOLVER_ERROR)
      text = g_strdup_printf ("could not connect to %s: host not found (%s)",
          d->address, err->message);
    else
      text = g_strdup_printf ("could not connect to %s: %s", d->address,
          err ? err->message : d->gst_text);
    g_clear_object (&d->job->diagnosis);
    scan_job_finish (d->job, text);
  }
  g_clear_error (&err);
  g_clear_object (&conn);
  g_object_unref (d->cancellable);
  g_free (d->address);
  g_free (d->gst_text);
  g_free (d);
}

/* Starts the network check of @job's URI; FALSE when it is not a network
 * URI the tool can check. */
static gboolean
diagnose_network (ScanJob * job, const gchar * gst_text)
{
  static const struct
  {
    const gchar *scheme;
    guint16 port;
  } schemes[] = { {"http", 80}, {"https", 443}, {"rtsp", 554},
  {"rtmp", 1935}
  };
  gchar *scheme = g_uri_parse_scheme (job->file.uri);
  GSocketConnectable *addr = NULL;
  GSocketClient *client;
  Diagnosis *d;

  for (guint i = 0; scheme && i < G_N_ELEMENTS (schemes); i++)
    if (g_ascii_strcasecmp (scheme, schemes[i].scheme) == 0)
      addr = g_network_address_parse_uri (job->file.uri, schemes[i].port,
          NULL);
  g_free (scheme);
  if (!addr)
    return FALSE;
  d = g_new0 (Diagnosis, 1);
  d->job = job;
  d->cancellable = g_cancellable_new ();
  d->address = g_strdup_printf ("%s:%u",
      g_network_address_get_hostname (G_NETWORK_ADDRESS (addr)),
      g_network_address_get_port (G_NETWORK_ADDRESS (addr)));
  d->gst_text = g_strdup (gst_text);
  job->diagnosis = g_object_ref (d->cancellable);
  client = g_socket_client_new ();
  g_socket_client_set_timeout (client, CONNECT_TIMEOUT_S);
  g_socket_client_connect_async (client, addr, d->cancellable, connected, d);
  g_object_unref (client);
  g_object_unref (addr);
  return TRUE;
}

/* The last line of an error's debug string (the first lines say where in
 * the code), without souphttpsrc's empty redirection; NULL when none. */
static gchar *
last_line (const gchar * dbg)
{
  const gchar *nl = dbg ? strrchr (dbg, '\n') : NULL;
  gchar *line, *cut;

  if (!nl || !nl[1])
    return NULL;
  line = g_strstrip (g_strdup (nl + 1));
  if ((cut = strstr (line, ", Redirect to: (NULL)")))
    *cut = '\0';
  return line;
}

gchar *
scan_errors_describe (ScanJob * job, GstMessage * msg)
{
  GstObject *src = GST_MESSAGE_SRC (msg);
  GError *err = NULL;
  gchar *dbg = NULL, *text, *detail = NULL;

  if (job->no_video)
    return g_strdup ("no video stream (audio only?)");
  gst_message_parse_error (msg, &err, &dbg);
  if (g_error_matches (err, GST_STREAM_ERROR, GST_STREAM_ERROR_TYPE_NOT_FOUND))
    text = g_strdup ("not a video file GStreamer can read (could not "
        "determine its type)");
  else if (g_error_matches (err, GST_STREAM_ERROR,
          GST_STREAM_ERROR_WRONG_TYPE))
    text = g_strdup_printf ("not a video file GStreamer can read (%s)",
        strstr (err->message, "text file") ? "it appears to be a text file" :
        err->message);
  else if (GST_IS_ELEMENT (src) &&
      GST_OBJECT_FLAG_IS_SET (src, GST_ELEMENT_FLAG_SOURCE) &&
      g_error_matches (err, GST_STREAM_ERROR, GST_STREAM_ERROR_FAILED) &&
      diagnose_network (job, err->message))
    text = NULL;
  else if (job->source_warning && GST_IS_ELEMENT (src) &&
      GST_OBJECT_FLAG_IS_SET (src, GST_ELEMENT_FLAG_SOURCE))
    text = g_strdup_printf ("%s (%s, after: %s)", err->message,
        GST_OBJECT_NAME (src), job->source_warning);
  else if (err->domain == GST_RESOURCE_ERROR && (detail = last_line (dbg)))
    /* A source's own words: "Not Found (404), URL: ...". */
    text = g_strdup_printf ("%s (%s: %s)", err->message,
        GST_OBJECT_NAME (src), detail);
  else
    text = g_strdup_printf ("%s (%s)", err->message, GST_OBJECT_NAME (src));
  g_clear_error (&err);
  g_free (dbg);
  g_free (detail);
  return text;
}
