/* sharpness-monitor's event store: the last events in memory (for the API
 * and the page), each also written as one JSON line to the event log,
 * which is rotated by size (FILE, FILE.1 ... FILE.N).
 *
 * The log is written with one write () per line, so that a failure (a
 * full disk) never leaves part of a line for the next event to be
 * appended to: a short write is cut off again (or, where it cannot be,
 * the next line starts with a newline).  The first failure and the
 * recovery are said on stderr; every failed line is counted.  A path that
 * is not a regular file (a device, a FIFO) is written in place and never
 * rotated.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "monitor-events.h"
#include "sharpness-tool-json.h"

struct _MonitorEvents
{
  gchar *path;
  gint fd;                      /* the log, append mode; -1: none open */
  gboolean regular;             /* a regular file: rotated by size */
  guint64 size, max_bytes;
  guint keep;
  guint64 log_errors;
  /* Lines lost since the first failure, which was said (0: writing). */
  guint64 failing;
  /* A short write could not be cut off: the next line starts with a
   * newline, ending the partial one. */
  gboolean partial;
  GQueue kept;                  /* MonitorEvent, oldest first */
  guint64 next_id;
};

MonitorEvent *
monitor_event_new (const gchar * channel, MonitorKind kind, gboolean is_end)
{
  MonitorEvent *e = g_new0 (MonitorEvent, 1);

  e->ref_count = 1;
  e->channel = g_strdup (channel);
  e->kind = kind;
  e->is_end = is_end;
  e->emitted_us = g_get_real_time ();
  e->start_rt = e->end_rt = e->start_pts = e->end_pts = GST_CLOCK_TIME_NONE;
  e->start_frame = e->end_frame = GST_CLOCK_TIME_NONE;
  e->min = e->mean = e->max = e->worst_score = e->duration = NAN;
  return e;
}

MonitorEvent *
monitor_event_ref (MonitorEvent * e)
{
  g_atomic_int_inc (&e->ref_count);
  return e;
}

void
monitor_event_unref (MonitorEvent * e)
{
  if (!e || !g_atomic_int_dec_and_test (&e->ref_count))
    return;
  g_free (e->channel);
  g_free (e->tiles);
  if (e->jpeg)
    g_bytes_unref (e->jpeg);
  if (e->errors)
    json_node_unref (e->errors);
  if (e->body)
    json_node_unref (e->body);
  g_free (e);
}

gchar *
monitor_rfc3339 (gint64 us, guint digits)
{
  GDateTime *t;
  gchar *s, *text;
  gint64 frac = us % G_USEC_PER_SEC;

  if (!us)
    return NULL;
  t = g_date_time_new_from_unix_utc (us / G_USEC_PER_SEC);
  s = g_date_time_format (t, "%Y-%m-%dT%H:%M:%S");
  for (guint i = digits; i < 6; i++)
    frac /= 10;
  text = g_strdup_printf ("%s.%0*" G_GINT64_FORMAT "Z", s, (gint) digits,
      frac);
  g_free (s);
  g_date_time_unref (t);
  return text;
}

void
monitor_json_add_rfc3339 (JsonBuilder * b, const gchar * key, gint64 us,
    guint digits)
{
  gchar *t = monitor_rfc3339 (us, digits);

  sharpness_json_add_string (b, key, t);
  g_free (t);
}

/* A stream time member in seconds (10 digits), null when NONE. */
static void
add_ns (JsonBuilder * b, const gchar * key, guint64 t)
{
  if (t == GST_CLOCK_TIME_NONE)
    sharpness_json_add_null (b, key);
  else
    sharpness_json_add_number (b, key, (gdouble) t / GST_SECOND);
}

/* An event made whole by its maker (a SCTE 35 cue), with its id. */
static JsonNode *
body_node (const MonitorEvent * e)
{
  JsonNode *n = json_node_copy (e->body);

  json_object_set_int_member (json_node_get_object (n), "id", (gint64) e->id);
  return n;
}

JsonNode *
monitor_event_to_node (const MonitorEvent * e, gboolean thumbnail_inline)
{
  if (e->body)
    return body_node (e);
  JsonBuilder *b = json_builder_new ();
  JsonNode *root;

  json_builder_begin_object (b);
  sharpness_json_add_int (b, "id", e->id);
  sharpness_json_add_string (b, "channel", e->channel);
  sharpness_json_add_string (b, "kind", monitor_kind_name (e->kind));
  sharpness_json_add_string (b, "event", e->is_end ? "end" : "start");
  monitor_json_add_rfc3339 (b, "time", e->emitted_us, 6);
  monitor_json_add_rfc3339 (b, "start_utc", e->start_wall_us, 6);
  add_ns (b, "start_running_time", e->start_rt);
  add_ns (b, "start_pts", e->start_pts);
  if (e->start_frame != GST_CLOCK_TIME_NONE)
    sharpness_json_add_int (b, "start_frame", e->start_frame);
  if (e->is_end) {
    monitor_json_add_rfc3339 (b, "end_utc", e->end_wall_us, 6);
    add_ns (b, "end_running_time", e->end_rt);
    add_ns (b, "end_pts", e->end_pts);
    if (e->end_frame != GST_CLOCK_TIME_NONE)
      sharpness_json_add_int (b, "end_frame", e->end_frame);
    sharpness_json_add_number (b, "duration", e->duration);
  }
  sharpness_json_add_number (b, "min", e->min);
  sharpness_json_add_number (b, "mean", e->mean);
  sharpness_json_add_number (b, "max", e->max);
  if (!isnan (e->worst_score))
    sharpness_json_add_number (b, "worst_score", e->worst_score);
  if (e->errors) {
    json_builder_set_member_name (b, "errors");
    json_builder_add_value (b, json_node_copy (e->errors));
  }
  if (e->tiles)
    sharpness_json_add_tiles (b, "tiles", e->tiles_cols, e->tiles_rows,
        e->tiles);
  if (e->jpeg && thumbnail_inline) {
    gsize n;
    const guchar *d = g_bytes_get_data (e->jpeg, &n);
    gchar *b64 = g_base64_encode (d, n);

    sharpness_json_add_string (b, "thumbnail_jpeg_base64", b64);
    g_free (b64);
  } else if (e->jpeg) {
    gchar *url = g_strdup_printf ("/api/events/%" G_GUINT64_FORMAT
        "/thumbnail.jpg", e->id);

    sharpness_json_add_string (b, "thumbnail", url);
    g_free (url);
  }
  json_builder_end_object (b);
  root = json_builder_get_root (b);
  g_object_unref (b);
  return root;
}

void
monitor_event_to_json (const MonitorEvent * e, GString * out,
    gboolean thumbnail_inline)
{
  JsonNode *node = monitor_event_to_node (e, thumbnail_inline);

  sharpness_json_node (out, node);
  json_node_unref (node);
}

static gboolean
open_log (MonitorEvents * ev, GError ** error)
{
  GStatBuf st;

  /* Not blocking in open (): a FIFO without a reader would stop the main
   * loop there (it fails with ENXIO instead); writes block as before. */
  ev->fd = g_open (ev->path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC |
      O_NONBLOCK, 0644);
  if (ev->fd >= 0 && fcntl (ev->fd, F_SETFL, O_APPEND) != 0) {
    int saved = errno;

    close (ev->fd);
    ev->fd = -1;
    errno = saved;
  }
  if (ev->fd < 0) {
    int saved = errno;

    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved),
        "cannot write the event log %s: %s (check the directory exists and "
        "is writable; a FIFO needs its reader first)", ev->path,
        g_strerror (saved));
    errno = saved;
    return FALSE;
  }
  /* A device or a FIFO (/dev/stdout, a pipe to a collector) is written
   * as it is: renaming it away would replace it with a regular file. */
  ev->regular = fstat (ev->fd, &st) == 0 && S_ISREG (st.st_mode);
  ev->size = ev->regular ? (guint64) st.st_size : 0;
  /* A new file starts with no partial line of ours. */
  ev->partial = FALSE;
  return TRUE;
}

static void
close_log (MonitorEvents * ev)
{
  if (ev->fd >= 0)
    close (ev->fd);
  ev->fd = -1;
}

MonitorEvents *
monitor_events_new (const gchar * path, guint64 max_bytes, guint keep,
    GError ** error)
{
  MonitorEvents *ev = g_new0 (MonitorEvents, 1);

  g_queue_init (&ev->kept);
  ev->fd = -1;
  ev->next_id = 1;
  ev->max_bytes = max_bytes;
  ev->keep = keep;
  if (path) {
    ev->path = g_strdup (path);
    if (!open_log (ev, error)) {
      monitor_events_free (ev);
      return NULL;
    }
  }
  return ev;
}

void
monitor_events_free (MonitorEvents * ev)
{
  close_log (ev);
  g_queue_clear_full (&ev->kept, (GDestroyNotify) monitor_event_unref);
  g_free (ev->path);
  g_free (ev);
}

/* A line not written: counted, and the first of a run said once (a full
 * disk would otherwise print one message per event). */
static void
log_failed (MonitorEvents * ev, const gchar * what, int err)
{
  ev->log_errors++;
  if (ev->failing++ == 0)
    g_printerr ("sharpness-monitor: cannot %s the event log %s: %s; events "
        "are not logged (they are kept for the API) until it can be "
        "written again\n", what, ev->path, g_strerror (err));
}

static void
log_written (MonitorEvents * ev)
{
  if (ev->failing == 0)
    return;
  g_printerr ("sharpness-monitor: the event log %s is written again (%"
      G_GUINT64_FORMAT " event%s not logged)\n", ev->path, ev->failing,
      ev->failing == 1 ? "" : "s");
  ev->failing = 0;
}

/* FILE.N-1 -> FILE.N ... FILE -> FILE.1, the oldest dropped. */
static void
rotate (MonitorEvents * ev)
{
  close_log (ev);
  for (guint i = ev->keep; i >= 1; i--) {
    gchar *from = i == 1 ? g_strdup (ev->path) :
        g_strdup_printf ("%s.%u", ev->path, i - 1);
    gchar *to = g_strdup_printf ("%s.%u", ev->path, i);
    g_rename (from, to);
    g_free (from);
    g_free (to);
  }
  if (ev->keep == 0)
    g_remove (ev->path);
  if (!open_log (ev, NULL))
    log_failed (ev, "open", errno);
}

/* write () without SIGPIPE: a FIFO whose reader went away would raise it,
 * and end the monitor.  It is blocked around the write and, raised by
 * this write, taken back; the write then fails with EPIPE, a failure as
 * any other.  Main thread only. */
static gssize
write_no_sigpipe (gint fd, const gchar * buf, gsize n)
{
  sigset_t pipe_only, old, pending;
  gboolean was_pending;
  gssize done;
  int err;

  sigemptyset (&pipe_only);
  sigaddset (&pipe_only, SIGPIPE);
  pthread_sigmask (SIG_BLOCK, &pipe_only, &old);
  was_pending = sigpending (&pending) == 0 && sigismember (&pending,
      SIGPIPE);
  do
    done = write (fd, buf, n);
  while (done < 0 && errno == EINTR);
  err = errno;
  if (done < 0 && err == EPIPE && !was_pending) {
    const struct timespec now = { 0, 0 };

    sigtimedwait (&pipe_only, NULL, &now);
  }
  pthread_sigmask (SIG_SETMASK, &old, NULL);
  errno = err;
  return done;
}

/* @line (ending in a newline) in one write (), so that a failure leaves
 * no part of it for the next line to be appended to: what a short write
 * left is cut off, or else ended by the next line's leading newline. */
static gboolean
write_line (MonitorEvents * ev, const gchar * line, gsize len)
{
  const gchar *buf = line;
  gchar *joined = NULL;
  gsize n = len;
  gssize done;
  GStatBuf st;
  int err;

  /* Where the log ends before this line: what to cut back to (another
   * program may have truncated it, logrotate's copytruncate). */
  if (ev->regular && fstat (ev->fd, &st) == 0)
    ev->size = (guint64) st.st_size;
  if (ev->partial) {
    buf = joined = g_strconcat ("\n", line, NULL);
    n = len + 1;
  }
  done = write_no_sigpipe (ev->fd, buf, n);
  err = done < 0 ? errno : ENOSPC;
  g_free (joined);
  if (done == (gssize) n) {
    ev->partial = FALSE;
    ev->size += n;
    return TRUE;
  }
  /* Part of it went out.  Cut back, the partial line before it (if any)
   * still waiting for its newline; a device cannot be cut. */
  if (done > 0 && !(ev->regular &&
          ftruncate (ev->fd, (off_t) ev->size) == 0)) {
    ev->partial = TRUE;
    ev->size += done;
  }
  errno = err;
  return FALSE;
}

void
monitor_events_add (MonitorEvents * ev, MonitorEvent * e)
{
  GString *line;

  e->id = ev->next_id++;
  g_queue_push_tail (&ev->kept, monitor_event_ref (e));
  while (g_queue_get_length (&ev->kept) > MONITOR_EVENTS_KEPT)
    monitor_event_unref (g_queue_pop_head (&ev->kept));
  if (!ev->path)
    return;
  /* A log that could not be opened (rotation, SIGHUP) is tried again. */
  if (ev->fd < 0 && !open_log (ev, NULL)) {
    log_failed (ev, "open", errno);
    return;
  }
  line = g_string_new (NULL);
  monitor_event_to_json (e, line, TRUE);
  g_string_append_c (line, '\n');
  if (write_line (ev, line->str, line->len))
    log_written (ev);
  else
    log_failed (ev, "write", errno);
  g_string_free (line, TRUE);
  if (ev->regular && ev->max_bytes && ev->size >= ev->max_bytes)
    rotate (ev);
}

gboolean
monitor_events_reopen (MonitorEvents * ev)
{
  if (!ev->path)
    return TRUE;
  close_log (ev);
  /* On failure (errno set by open_log) the caller says so, and the next
   * event tries again. */
  return open_log (ev, NULL);
}

void
monitor_events_add_json (MonitorEvents * ev, guint64 since,
    const gchar * channel, guint limit, JsonBuilder * b)
{
  guint n = 0;

  json_builder_begin_array (b);
  for (GList * l = ev->kept.head; l && n < limit; l = l->next) {
    MonitorEvent *e = l->data;
    if (e->id <= since || (channel && g_strcmp0 (channel, e->channel)))
      continue;
    json_builder_add_value (b, monitor_event_to_node (e, FALSE));
    n++;
  }
  json_builder_end_array (b);
}

MonitorEvent *
monitor_events_get (MonitorEvents * ev, guint64 id)
{
  for (GList * l = ev->kept.tail; l; l = l->prev) {
    MonitorEvent *e = l->data;
    if (e->id == id)
      return monitor_event_ref (e);
    if (e->id < id)
      break;
  }
  return NULL;
}

guint64
monitor_events_last_id (MonitorEvents * ev)
{
  return ev->next_id - 1;
}

guint64
monitor_events_log_errors (MonitorEvents * ev)
{
  return ev->log_errors;
}
