/* sharpness-monitor's event store: the last events in memory (for the API
 * and the page), each also written as one JSON line to the event log,
 * which is rotated by size (FILE, FILE.1 ... FILE.N).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <math.h>
#include <stdio.h>

#include <glib/gstdio.h>

#include "monitor-events.h"
#include "sharpness-tool-json.h"

struct _MonitorEvents
{
  gchar *path;
  FILE *log;
  guint64 size, max_bytes;
  guint keep;
  guint64 log_errors;
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
  g_free (e);
}

static void
json_time_utc (GString * out, gint64 us)
{
  GDateTime *t;
  gchar *s;

  if (!us) {
    g_string_append (out, "null");
    return;
  }
  t = g_date_time_new_from_unix_utc (us / G_USEC_PER_SEC);
  s = g_date_time_format (t, "%Y-%m-%dT%H:%M:%S");
  g_string_append_printf (out, "\"%s.%06" G_GINT64_FORMAT "Z\"", s,
      us % G_USEC_PER_SEC);
  g_free (s);
  g_date_time_unref (t);
}

static void
json_ns (GString * out, guint64 t)
{
  if (t == GST_CLOCK_TIME_NONE)
    g_string_append (out, "null");
  else
    sharpness_json_number (out, (gdouble) t / GST_SECOND);
}

void
monitor_event_to_json (const MonitorEvent * e, GString * out,
    gboolean thumbnail_inline)
{
  g_string_append_printf (out, "{\"id\":%" G_GUINT64_FORMAT ",\"channel\":",
      e->id);
  sharpness_json_string (out, e->channel);
  g_string_append_printf (out, ",\"kind\":\"%s\",\"event\":\"%s\",\"time\":",
      monitor_kind_name (e->kind), e->is_end ? "end" : "start");
  json_time_utc (out, e->emitted_us);
  g_string_append (out, ",\"start_utc\":");
  json_time_utc (out, e->start_wall_us);
  g_string_append (out, ",\"start_running_time\":");
  json_ns (out, e->start_rt);
  g_string_append (out, ",\"start_pts\":");
  json_ns (out, e->start_pts);
  if (e->start_frame != GST_CLOCK_TIME_NONE)
    g_string_append_printf (out, ",\"start_frame\":%" G_GUINT64_FORMAT,
        e->start_frame);
  if (e->is_end) {
    g_string_append (out, ",\"end_utc\":");
    json_time_utc (out, e->end_wall_us);
    g_string_append (out, ",\"end_running_time\":");
    json_ns (out, e->end_rt);
    g_string_append (out, ",\"end_pts\":");
    json_ns (out, e->end_pts);
    if (e->end_frame != GST_CLOCK_TIME_NONE)
      g_string_append_printf (out, ",\"end_frame\":%" G_GUINT64_FORMAT,
          e->end_frame);
    g_string_append (out, ",\"duration\":");
    sharpness_json_number (out, e->duration);
  }
  g_string_append (out, ",\"min\":");
  sharpness_json_number (out, e->min);
  g_string_append (out, ",\"mean\":");
  sharpness_json_number (out, e->mean);
  g_string_append (out, ",\"max\":");
  sharpness_json_number (out, e->max);
  if (!isnan (e->worst_score)) {
    g_string_append (out, ",\"worst_score\":");
    sharpness_json_number (out, e->worst_score);
  }
  if (e->tiles) {
    g_string_append_printf (out, ",\"tiles\":{\"cols\":%u,\"rows\":%u,"
        "\"scores\":[", e->tiles_cols, e->tiles_rows);
    for (guint i = 0; i < e->tiles_cols * e->tiles_rows; i++) {
      if (i)
        g_string_append_c (out, ',');
      sharpness_json_number (out, e->tiles[i]);
    }
    g_string_append (out, "]}");
  }
  if (e->jpeg && thumbnail_inline) {
    gsize n;
    const guchar *d = g_bytes_get_data (e->jpeg, &n);
    gchar *b64 = g_base64_encode (d, n);
    g_string_append_printf (out, ",\"thumbnail_jpeg_base64\":\"%s\"", b64);
    g_free (b64);
  } else if (e->jpeg) {
    g_string_append_printf (out, ",\"thumbnail\":\"/api/events/%"
        G_GUINT64_FORMAT "/thumbnail.jpg\"", e->id);
  }
  g_string_append_c (out, '}');
}

static gboolean
open_log (MonitorEvents * ev, GError ** error)
{
  GStatBuf st;

  ev->log = g_fopen (ev->path, "ab");
  if (!ev->log) {
    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (errno),
        "cannot write the event log %s: %s (check the directory exists and "
        "is writable)", ev->path, g_strerror (errno));
    return FALSE;
  }
  ev->size = g_stat (ev->path, &st) == 0 ? (guint64) st.st_size : 0;
  return TRUE;
}

MonitorEvents *
monitor_events_new (const gchar * path, guint64 max_bytes, guint keep,
    GError ** error)
{
  MonitorEvents *ev = g_new0 (MonitorEvents, 1);

  g_queue_init (&ev->kept);
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
  if (ev->log)
    fclose (ev->log);
  g_queue_clear_full (&ev->kept, (GDestroyNotify) monitor_event_unref);
  g_free (ev->path);
  g_free (ev);
}

/* FILE.N-1 -> FILE.N ... FILE -> FILE.1, the oldest dropped. */
static void
rotate (MonitorEvents * ev)
{
  fclose (ev->log);
  ev->log = NULL;
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
    ev->log_errors++;
}

void
monitor_events_add (MonitorEvents * ev, MonitorEvent * e)
{
  e->id = ev->next_id++;
  g_queue_push_tail (&ev->kept, monitor_event_ref (e));
  while (g_queue_get_length (&ev->kept) > MONITOR_EVENTS_KEPT)
    monitor_event_unref (g_queue_pop_head (&ev->kept));
  if (ev->log) {
    GString *line = g_string_new (NULL);

    monitor_event_to_json (e, line, TRUE);
    g_string_append_c (line, '\n');
    if (fwrite (line->str, 1, line->len, ev->log) != line->len ||
        fflush (ev->log) != 0)
      ev->log_errors++;
    ev->size += line->len;
    g_string_free (line, TRUE);
    if (ev->max_bytes && ev->size >= ev->max_bytes)
      rotate (ev);
  }
}

void
monitor_events_json (MonitorEvents * ev, guint64 since, const gchar * channel,
    guint limit, GString * out)
{
  guint n = 0;

  g_string_append_c (out, '[');
  for (GList * l = ev->kept.head; l && n < limit; l = l->next) {
    MonitorEvent *e = l->data;
    if (e->id <= since || (channel && g_strcmp0 (channel, e->channel)))
      continue;
    if (n++)
      g_string_append_c (out, ',');
    monitor_event_to_json (e, out, FALSE);
  }
  g_string_append_c (out, ']');
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
