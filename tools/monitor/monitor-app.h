/* sharpness-monitor: the monitor, which owns the channels, the event
 * store, the webhooks and the HTTP server, all on the main thread.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef MONITOR_APP_H
#define MONITOR_APP_H

#include "monitor.h"
#include "monitor-channel.h"
#include "monitor-events.h"

G_BEGIN_DECLS

typedef struct _MonitorWebhooks MonitorWebhooks;
typedef struct _MonitorHttp MonitorHttp;

struct _Monitor
{
  MonitorSettings *settings;
  GPtrArray *channels;          /* MonitorChannel, in configured order */
  guint next_index;
  GstContext *cuda_context;     /* shared by every pipeline, or NULL */
  const gchar *device_label;    /* "cuda:N" or "cpu" */
  MonitorEvents *events;
  MonitorWebhooks *webhooks;
  MonitorHttp *http;
  GMainLoop *loop;
  gint64 started_us;
  guint tick_id;
  gboolean stopping;
  /* Channels removed (their teardown threads may still run) and pipelines
   * being torn down. */
  gint teardowns;
};

MonitorChannel *monitor_find_channel (Monitor * m, const gchar * name);
/* Adds and starts a channel; FALSE (with @error) for a bad or duplicate
 * one. */
gboolean monitor_add_channel (Monitor * m, const MonitorChannelConfig * cfg,
    GError ** error);
gboolean monitor_remove_channel (Monitor * m, const gchar * name);
/* Quits the main loop once every file channel has finished (without
 * --loop, when no live channel is left). */
void monitor_check_all_finished (Monitor * m);

/* Webhooks and Alertmanagers (monitor-webhook.c): NULL when both lists
 * are empty. */
MonitorWebhooks *monitor_webhooks_new (gchar ** webhooks,
    gchar ** alertmanagers);
/* Runs the main context until every queue is empty or @timeout_ms has
 * passed (the end events of a stop delivered, a hung receiver not waited
 * for), then frees. */
void monitor_webhooks_free (MonitorWebhooks * w, guint timeout_ms);
/* Queues @e for every receiver; never blocks. */
void monitor_webhooks_send (MonitorWebhooks * w, MonitorEvent * e);
/* Counters for /metrics. */
void monitor_webhooks_metrics (MonitorWebhooks * w, GString * out);

/* Alertmanager's API v2 (monitor-alertmanager.c): a JSON array of the
 * alerts of @events (starts and ends); a start's endsAt is @ends_at_us. */
GBytes *monitor_alertmanager_body (MonitorEvent * const *events, guint n,
    gint64 ends_at_us);
/* @us (UTC, µs since the epoch) as a JSON RFC 3339 string. */
void monitor_rfc3339 (GString * out, gint64 us);

/* Alarms (monitor-alarms.c): the channel's element events, level and
 * compare messages, and the main tick. */
void monitor_alarms_init (MonitorChannel * c);
void monitor_alarms_clear (MonitorChannel * c);
/* A message from the channel's pipeline; TRUE when it was an alarm's. */
gboolean monitor_alarms_message (MonitorChannel * c, GstMessage * msg);
void monitor_alarms_tick (MonitorChannel * c, gint64 now_us);
/* The pipeline went away (error, restart, end): open stretches of the
 * element's kinds end where they were last seen; a channel removed or
 * stopped for good ends its no-signal alarm too (nothing watches it any
 * more, and an alarm never ended would stay firing downstream). */
void monitor_alarms_pipeline_gone (MonitorChannel * c);
/* POST /api/alarms/CHANNEL/KIND/ack: FALSE when not active. */
gboolean monitor_alarms_ack (MonitorChannel * c, MonitorKind kind);

/* Thumbnails (monitor-thumbs.c): the JPEG of an event, the one place to
 * change when the element's own event thumbnails are used. */
GstSample *monitor_thumbnail_for_event (MonitorChannel * c,
    GstMessage * event_message);
GBytes *monitor_thumbnail_bytes (GstSample * jpeg);

/* HTTP (monitor-http.c, monitor-api.c, monitor-metrics.c). */
MonitorHttp *monitor_http_new (Monitor * m, GError ** error);
void monitor_http_free (MonitorHttp * h);
/* Open connections (for /metrics). */
guint monitor_http_connections (MonitorHttp * h);
void monitor_metrics_render (Monitor * m, GString * out);

G_END_DECLS
#endif /* MONITOR_APP_H */
