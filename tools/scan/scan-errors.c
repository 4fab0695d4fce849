/* sharpness-scan: why an input failed, in words a user can act on.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Two things GStreamer leaves unsaid (a third, the errors decodebin drops,
 * comes back on the bus through tools/common/sharpness-tool-dropped-errors.c
 * and is said here as any other):
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

#define CONNECT_TIMEOUT_S 10

void
scan_errors_stop (ScanJob * job)
{
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
