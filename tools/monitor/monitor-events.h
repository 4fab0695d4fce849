/* sharpness-monitor's events: the start and end of every alarm, kept in
 * memory for the API (the last ones), written to the JSON-lines log
 * (rotated by size), and handed to the webhooks.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef MONITOR_EVENTS_H
#define MONITOR_EVENTS_H

#include <gst/gst.h>
#include <json-glib/json-glib.h>

#include "monitor.h"

G_BEGIN_DECLS

/* Events kept for /api/events. */
#define MONITOR_EVENTS_KEPT 2000

typedef struct
{
  gint ref_count;
  guint64 id;                   /* from 1, in order */
  gchar *channel;
  MonitorKind kind;
  gboolean is_end;
  gint64 emitted_us;            /* wall clock when raised */
  /* The alarm's first frame and (ends) the end of its last one: UTC wall
   * clock (µs), running time and PTS (ns, NONE when unknown). */
  gint64 start_wall_us, end_wall_us;
  guint64 start_rt, end_rt, start_pts, end_pts;
  gdouble duration;             /* s; ends */
  guint64 start_frame, end_frame;       /* element kinds, else NONE */
  gdouble min, mean, max;       /* scores (blur...), levels; NaN: none */
  gdouble worst_score;
  guint tiles_cols, tiles_rows;
  gfloat *tiles;                /* the worst frame's map, or NULL */
  GBytes *jpeg;                 /* its thumbnail, or NULL */
  /* tr101290-p1/-p2: a JSON array of the indicators counted (the start:
   * in the tick that raised it; the end: while it lasted), each with its
   * count and its last error's packet, PID and values; else NULL. */
  JsonNode *errors;
  /* Not an alarm's: the event's JSON whole (a SCTE 35 cue,
   * monitor-scte35.c), written as it is with its id; NULL for alarms. */
  JsonNode *body;
} MonitorEvent;

MonitorEvent *monitor_event_new (const gchar * channel, MonitorKind kind,
    gboolean is_end);
MonitorEvent *monitor_event_ref (MonitorEvent * e);
void monitor_event_unref (MonitorEvent * e);
/* The event as a JSON tree; @thumbnail_inline: the JPEG in base64 (the
 * log), else its URL (the API). */
JsonNode *monitor_event_to_node (const MonitorEvent * e,
    gboolean thumbnail_inline);
/* The same as JSON text (sharpness_json_node). */
void monitor_event_to_json (const MonitorEvent * e, GString * out,
    gboolean thumbnail_inline);

/* @us (UTC, µs since the epoch) in RFC 3339 with @digits (1 to 6) of the
 * second's fraction; NULL when @us is 0 (unknown). */
gchar *monitor_rfc3339 (gint64 us, guint digits);
/* A member @key of @b: @us as monitor_rfc3339 () writes it, null when
 * unknown. */
void monitor_json_add_rfc3339 (JsonBuilder * b, const gchar * key,
    gint64 us, guint digits);

typedef struct _MonitorEvents MonitorEvents;

/* @path NULL: no log.  NULL with @error when the log cannot be opened.
 * A path that is not a regular file (a device, a FIFO) is written in
 * place, never rotated. */
MonitorEvents *monitor_events_new (const gchar * path, guint64 max_bytes,
    guint keep, GError ** error);
void monitor_events_free (MonitorEvents * ev);
/* Numbers, keeps and logs @e (a reference is taken): one line, never
 * merged with the next one by a failed write; a failure is counted
 * (monitor_events_log_errors), the first one of a run and the recovery
 * said on stderr. */
void monitor_events_add (MonitorEvents * ev, MonitorEvent * e);
/* Adds to @b the array of the kept events with id > @since (of @channel,
 * NULL: all), at most @limit, oldest first. */
void monitor_events_add_json (MonitorEvents * ev, guint64 since,
    const gchar * channel, guint limit, JsonBuilder * b);
/* The kept event @id, or NULL (a reference). */
MonitorEvent *monitor_events_get (MonitorEvents * ev, guint64 id);
guint64 monitor_events_last_id (MonitorEvents * ev);
guint64 monitor_events_log_errors (MonitorEvents * ev);
/* The log closed and opened again at its path, in append mode (SIGHUP:
 * logrotate moved the file away).  FALSE (errno set) when it cannot be
 * opened: the next event tries again. */
gboolean monitor_events_reopen (MonitorEvents * ev);

G_END_DECLS
#endif /* MONITOR_EVENTS_H */
