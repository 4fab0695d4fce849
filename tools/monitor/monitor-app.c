/* sharpness-monitor: the monitor's own functions.  It owns the channels
 * (added, found, removed) and hears from them through the callbacks it
 * hands them (MonitorChannelHost): an alarm's start or end goes to the
 * event store and log, the webhooks and stdout; a file channel's end may
 * end the run.  Nothing below calls up into it.  Main thread only.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gio/gio.h>

#include "monitor-app.h"

/* An alarm started or ended on a channel: kept and logged, sent, said. */
static void
on_channel_event (MonitorEvent * e, gpointer data)
{
  Monitor *m = data;

  monitor_events_add (m->events, e);
  /* A SCTE 35 cue (an event with a body) is no alarm: not for the
   * webhooks and Alertmanagers, which take starts and ends. */
  if (e->body) {
    if (!m->settings->quiet)
      g_print ("%s scte35 %s\n", e->channel, json_object_get_string_member
          (json_node_get_object (e->body), "event"));
    return;
  }
  if (m->webhooks)
    monitor_webhooks_send (m->webhooks, e);
  if (!m->settings->quiet)
    g_print ("%s %s %s\n", e->channel, monitor_kind_name (e->kind),
        e->is_end ? "end" : "start");
}

/* A file channel ended: the run quits once every channel has (without
 * --loop, when no live channel is left). */
static void
on_channel_finished (gpointer data)
{
  Monitor *m = data;

  for (guint i = 0; i < m->channels->len; i++) {
    MonitorChannel *c = g_ptr_array_index (m->channels, i);
    if (c->state != MONITOR_CHANNEL_FINISHED)
      return;
  }
  if (!m->settings->quiet)
    g_printerr ("sharpness-monitor: every channel ended\n");
  g_main_loop_quit (m->loop);
}

void
monitor_init (Monitor * m, MonitorSettings * settings)
{
  m->settings = settings;
  m->host.settings = settings;
  m->host.owner = m;
  m->host.event = on_channel_event;
  m->host.finished = on_channel_finished;
  m->channels = g_ptr_array_new ();
  m->started_us = g_get_real_time ();
  m->device_label = "cpu";
}

MonitorChannel *
monitor_find_channel (Monitor * m, const gchar * name)
{
  for (guint i = 0; i < m->channels->len; i++) {
    MonitorChannel *c = g_ptr_array_index (m->channels, i);
    if (g_str_equal (c->cfg->name, name))
      return c;
  }
  return NULL;
}

gboolean
monitor_add_channel (Monitor * m, const MonitorChannelConfig * cfg,
    GError ** error)
{
  MonitorChannel *c;

  if (!monitor_channel_config_check (cfg, NULL, error))
    return FALSE;
  if (monitor_find_channel (m, cfg->name)) {
    g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS, "a channel named "
        "'%s' exists already: choose another name", cfg->name);
    return FALSE;
  }
  c = monitor_channel_new (&m->host, cfg, m->next_index++);
  g_ptr_array_add (m->channels, c);
  monitor_channel_start (c);
  return TRUE;
}

gboolean
monitor_remove_channel (Monitor * m, const gchar * name)
{
  MonitorChannel *c = monitor_find_channel (m, name);

  if (!c)
    return FALSE;
  monitor_channel_stop (c);
  g_ptr_array_remove (m->channels, c);
  monitor_channel_unref (c);
  return TRUE;
}
