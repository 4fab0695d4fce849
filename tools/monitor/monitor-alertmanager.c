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

void
monitor_rfc3339 (GString * out, gint64 us)
{
  GDateTime *t = g_date_time_new_from_unix_utc (us / G_USEC_PER_SEC);
  gchar *s = g_date_time_format (t, "%Y-%m-%dT%H:%M:%S");

  g_string_append_printf (out, "\"%s.%03dZ\"", s,
      (gint) ((us % G_USEC_PER_SEC) / 1000));
  g_free (s);
  g_date_time_unref (t);
}

static void
alert (GString * o, const MonitorEvent * e, gint64 ends_at_us)
{
  const gchar *kind = monitor_kind_name (e->kind);
  gchar *summary = g_strdup_printf ("%s on %s", kind, e->channel);
  gchar *description = g_strdup_printf ("sharpness-monitor reports %s on "
      "channel %s.", kind, e->channel);
  GString *ev = g_string_new (NULL);

  g_string_append (o, "{\"labels\":{\"alertname\":\"SharpnessAlarm\","
      "\"channel\":");
  sharpness_json_string (o, e->channel);
  g_string_append_printf (o, ",\"kind\":\"%s\",\"severity\":\"%s\"},"
      "\"annotations\":{\"summary\":", kind,
      e->kind == MONITOR_KIND_NO_SIGNAL ? "critical" : "warning");
  sharpness_json_string (o, summary);
  g_string_append (o, ",\"description\":");
  sharpness_json_string (o, description);
  g_string_append (o, ",\"event\":");
  monitor_event_to_json (e, ev, FALSE);
  sharpness_json_string (o, ev->str);
  g_string_append (o, "},\"startsAt\":");
  monitor_rfc3339 (o, e->start_wall_us);
  g_string_append (o, ",\"endsAt\":");
  monitor_rfc3339 (o, e->is_end ? e->end_wall_us : ends_at_us);
  g_string_append_c (o, '}');
  g_string_free (ev, TRUE);
  g_free (description);
  g_free (summary);
}

GBytes *
monitor_alertmanager_body (MonitorEvent * const *events, guint n,
    gint64 ends_at_us)
{
  GString *o = g_string_new ("[");

  for (guint i = 0; i < n; i++) {
    if (i)
      g_string_append_c (o, ',');
    alert (o, events[i], ends_at_us);
  }
  g_string_append_c (o, ']');
  return g_string_free_to_bytes (o);
}
