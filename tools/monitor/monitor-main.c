/* sharpness-monitor: the live multi-channel quality monitor.  main: the
 * command line, GPU or CPU set-up, the channels, the HTTP server, the main
 * loop's tick, and a clean stop on SIGINT or SIGTERM.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdlib.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <gio/gio.h>
#include <glib-unix.h>

#include "monitor-app.h"
#include "sharpness-tool-gpu.h"

#define TICK_MS 100
#define MONITOR_MALLOC_ARENAS 2
/* At a stop, the end events of the alarms it closes get this long to
 * reach the webhooks and Alertmanagers (a hung receiver is not waited
 * for longer). */
#define STOP_DELIVERY_MS 2000

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
  c = monitor_channel_new (m, cfg, m->next_index++);
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

void
monitor_check_all_finished (Monitor * m)
{
  for (guint i = 0; i < m->channels->len; i++) {
    MonitorChannel *c = g_ptr_array_index (m->channels, i);
    if (c->state != MONITOR_CHANNEL_FINISHED)
      return;
  }
  if (!m->settings->quiet)
    g_printerr ("sharpness-monitor: every channel ended\n");
  g_main_loop_quit (m->loop);
}

static gboolean
tick (gpointer data)
{
  Monitor *m = data;
  gint64 now = g_get_monotonic_time ();

  for (guint i = 0; i < m->channels->len; i++) {
    MonitorChannel *c = g_ptr_array_index (m->channels, i);
    monitor_channel_tick (c, now);
    monitor_alarms_tick (c, now);
  }
  return G_SOURCE_CONTINUE;
}

static gboolean
on_signal (gpointer data)
{
  Monitor *m = data;

  if (!m->settings->quiet)
    g_printerr ("sharpness-monitor: stopping\n");
  g_main_loop_quit (m->loop);
  return G_SOURCE_CONTINUE;
}

/* UDP sources get --udp-buffer-size, but without root the kernel caps a
 * socket's buffer at net.core.rmem_max (about 200 kB by default): said
 * once at the start, with the fix, when a channel is a UDP one. */
static void
note_udp_buffer_cap (const MonitorSettings * s)
{
  gchar *text = NULL;
  guint64 max;
  gboolean udp = FALSE;

  for (guint i = 0; i < s->channels->len; i++) {
    const MonitorChannelConfig *c = g_ptr_array_index (s->channels, i);
    udp |= c->uri && (g_str_has_prefix (c->uri, "udp://") ||
        g_str_has_prefix (c->uri, "rtp://"));
  }
  if (!udp || s->udp_buffer_size == 0 || geteuid () == 0 ||
      !g_file_get_contents ("/proc/sys/net/core/rmem_max", &text, NULL,
          NULL))
    return;
  max = g_ascii_strtoull (text, NULL, 10);
  if (max > 0 && max < s->udp_buffer_size)
    g_printerr ("sharpness-monitor: UDP receive buffers stay at %"
        G_GUINT64_FORMAT " bytes (net.core.rmem_max), below --udp-buffer-size "
        "%u: with many channels datagrams may be dropped; raise it: sysctl "
        "-w net.core.rmem_max=%u\n", max, s->udp_buffer_size,
        s->udp_buffer_size);
  g_free (text);
}

int
main (int argc, char **argv)
{
  MonitorSettings settings;
  Monitor m = { 0 };
  GError *error = NULL;
  gint status;

#ifdef __GLIBC__
  /* glibc gives each thread that allocates an arena of its own, up to
   * eight per core; pipelines rebuilt again and again (restarts, looping
   * files) start new streaming threads, and the arenas' fragments grew the
   * resident memory without end (a leak-free soak grew 20 % in 4 minutes;
   * flat with few arenas).  MALLOC_ARENA_MAX still decides when set. */
  if (!g_getenv ("MALLOC_ARENA_MAX"))
    mallopt (M_ARENA_MAX, MONITOR_MALLOC_ARENAS);
#endif
  status = monitor_options_parse (&argc, &argv, &settings);
  if (status >= 0)
    return status;
  gst_init (NULL, NULL);
  note_udp_buffer_cap (&settings);
  if (!gst_element_factory_find ("cudasharpness")) {
    g_printerr ("sharpness-monitor: element cudasharpness missing: is the "
        "gst-sharpness plugin installed, or GST_PLUGIN_PATH set?\n");
    return 2;
  }
  m.settings = &settings;
  m.channels = g_ptr_array_new ();
  m.started_us = g_get_real_time ();
  m.device_label = "cpu";

  /* GPU decoding and scoring with one CUDA context for every channel,
   * where a GPU is usable; the NVIDIA decoders out of autoplugging
   * otherwise (they would fail without a device). */
  if (settings.cpu) {
    sharpness_tool_gpu_rank_decoders (GST_RANK_NONE);
  } else if (sharpness_tool_gpu_backend_usable (settings.cuda_device_id,
          &m.cuda_context)) {
    settings.gpu_decode = sharpness_tool_gpu_rank_decoders (GST_RANK_PRIMARY
        + 1);
    m.device_label = g_strdup_printf ("cuda:%d", MAX (settings.cuda_device_id,
            0));
  } else {
    sharpness_tool_gpu_rank_decoders (GST_RANK_NONE);
    settings.cpu = TRUE;
  }

  m.events = monitor_events_new (settings.events_path,
      settings.events_max_bytes, settings.events_keep, &error);
  if (!m.events) {
    g_printerr ("sharpness-monitor: %s\n", error->message);
    return 2;
  }
  m.webhooks = monitor_webhooks_new (settings.webhooks,
      settings.alertmanagers);
  m.loop = g_main_loop_new (NULL, FALSE);
  m.http = monitor_http_new (&m, &error);
  if (!m.http) {
    g_printerr ("sharpness-monitor: %s (is another process using the "
        "port? choose another with --listen)\n", error->message);
    return 2;
  }
  if (!settings.quiet)
    g_printerr ("sharpness-monitor: %u channel(s), %s, http://%s/\n",
        settings.channels->len, m.device_label, settings.listen);

  for (guint i = 0; i < settings.channels->len; i++) {
    if (!monitor_add_channel (&m, g_ptr_array_index (settings.channels, i),
            &error)) {
      g_printerr ("sharpness-monitor: %s\n", error->message);
      g_clear_error (&error);
    }
  }
  m.tick_id = g_timeout_add (TICK_MS, tick, &m);
  g_unix_signal_add (SIGINT, on_signal, &m);
  g_unix_signal_add (SIGTERM, on_signal, &m);
  g_main_loop_run (m.loop);

  /* Stop: every pipeline torn down, open alarms closed (their end events
   * logged), then the server. */
  m.stopping = TRUE;
  g_source_remove (m.tick_id);
  for (guint i = 0; i < m.channels->len; i++)
    monitor_channel_stop (g_ptr_array_index (m.channels, i));
  while (g_atomic_int_get (&m.teardowns) > 0)
    g_usleep (10000);
  monitor_http_free (m.http);
  for (guint i = 0; i < m.channels->len; i++)
    monitor_channel_unref (g_ptr_array_index (m.channels, i));
  g_ptr_array_unref (m.channels);
  monitor_webhooks_free (m.webhooks, STOP_DELIVERY_MS);
  monitor_events_free (m.events);
  if (m.cuda_context)
    gst_context_unref (m.cuda_context);
  g_main_loop_unref (m.loop);
  return 0;
}
