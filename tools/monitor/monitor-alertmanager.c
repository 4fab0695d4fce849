/* sharpness-monitor's alarms as Alertmanager alerts: the body of a POST to
 * Alertmanager's API (/api/v2/alerts, a JSON array of postable alerts),
 * so that the monitor feeds Alertmanager's routing, grouping and silences
 * without a Prometheus in between.  The labels are those of the shipped
 * rule SharpnessAlarm (deploy/sharpness-rules.yml): alertname, channel,
 * kind and severity, so that one Alertmanager configuration serves both
 * routes.  A firing alert carries an endsAt a few refresh periods ahead:
 * the sender re-posts it while the alarm lasts (as Prometheus re-sends),
 * and an alert no longer re-posted (the monitor gone) resolves by itself.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "monitor-app.h"
#include "sharpness-tool-json.h"

static void
alert (JsonBuilder * b, const MonitorEvent * e, gint64 ends_at_us)
{
  const gchar *kind = monitor_kind_name (e->kind);
  gchar *summary = g_strdup_printf ("%s on %s", kind, e->channel);
  gchar *description = g_strdup_printf ("sharpness-monitor reports %s on "
      "channel %s.", kind, e->channel);
  GString *ev = g_string_new (NULL);

  monitor_event_to_json (e, ev, FALSE);
  json_builder_begin_object (b);
  json_builder_set_member_name (b, "labels");
  json_builder_begin_object (b);
  sharpness_json_add_string (b, "alertname", "SharpnessAlarm");
  sharpness_json_add_string (b, "channel", e->channel);
  sharpness_json_add_string (b, "kind", kind);
  sharpness_json_add_string (b, "severity",
      e->kind == MONITOR_KIND_NO_SIGNAL ? "critical" : "warning");
  json_builder_end_object (b);
  json_builder_set_member_name (b, "annotations");
  json_builder_begin_object (b);
  sharpness_json_add_string (b, "summary", summary);
  sharpness_json_add_string (b, "description", description);
  sharpness_json_add_string (b, "event", ev->str);
  json_builder_end_object (b);
  /* Alertmanager reads RFC 3339; milliseconds, as Prometheus sends. */
  monitor_json_add_rfc3339 (b, "startsAt", e->start_wall_us, 3);
  monitor_json_add_rfc3339 (b, "endsAt", e->is_end ? e->end_wall_us :
      ends_at_us, 3);
  json_builder_end_object (b);
  g_string_free (ev, TRUE);
  g_free (description);
  g_free (summary);
}

GBytes *
monitor_alertmanager_body (MonitorEvent * const *events, guint n,
    gint64 ends_at_us)
{
  JsonBuilder *b = json_builder_new ();
  GString *o = g_string_new (NULL);

  json_builder_begin_array (b);
  for (guint i = 0; i < n; i++)
    alert (b, events[i], ends_at_us);
  json_builder_end_array (b);
  sharpness_json_write_builder (o, b, SHARPNESS_JSON_COMPACT);
  g_object_unref (b);
  return g_string_free_to_bytes (o);
}
