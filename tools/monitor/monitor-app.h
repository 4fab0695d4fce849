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
#include "monitor-http.h"
#include "monitor-thumbs.h"

G_BEGIN_DECLS

typedef struct _MonitorWebhooks MonitorWebhooks;

struct _Monitor
{
  MonitorSettings *settings;
  /* What the channels have of the monitor: the settings, the CUDA context
   * shared by every pipeline, the teardowns in flight (channels removed,
   * their threads may still run, and pipelines being torn down), and the
   * monitor's callbacks (monitor_init sets them). */
  MonitorChannelHost host;
  GPtrArray *channels;          /* MonitorChannel, in configured order */
  guint next_index;
  const gchar *device_label;    /* "cuda:N" or "cpu" */
  MonitorEvents *events;
  MonitorWebhooks *webhooks;
  MonitorHttp *http;
  GMainLoop *loop;
  gint64 started_us;
  guint tick_id;
};

/* The monitor's own functions (monitor-app.c).  @m's settings, loop,
 * events and webhooks are the caller's; monitor_init sets the rest. */
void monitor_init (Monitor * m, MonitorSettings * settings);
MonitorChannel *monitor_find_channel (Monitor * m, const gchar * name);
/* Adds and starts a channel; FALSE (with @error) for a bad or duplicate
 * one. */
gboolean monitor_add_channel (Monitor * m, const MonitorChannelConfig * cfg,
    GError ** error);
gboolean monitor_remove_channel (Monitor * m, const gchar * name);

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

/* The routes (monitor-api.c): a MonitorHttpRoute, @monitor a Monitor. */
void monitor_api_route (MonitorHttpExchange * x, gpointer monitor);
/* /metrics (monitor-metrics.c). */
void monitor_metrics_render (Monitor * m, GString * out);

G_END_DECLS
#endif /* MONITOR_APP_H */
