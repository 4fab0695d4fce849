/* sharpness-monitor: the live multi-channel quality monitor.  main: the
 * signals (first of all), the command line, GPU or CPU set-up, the
 * channels, the HTTP server, the main loop's tick, and a clean stop on
 * SIGINT, SIGTERM or SIGQUIT; SIGHUP reopens the event log.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <gio/gio.h>
#include <glib-unix.h>

#include "monitor-app.h"
#include "sharpness-tool-gpu.h"
#include "sharpness-tool-redact.h"

#define TICK_MS 100
#define MONITOR_MALLOC_ARENAS 2
/* At a stop, the end events of the alarms it closes get this long to
 * reach the webhooks and Alertmanagers (a hung receiver is not waited
 * for longer). */
#define STOP_DELIVERY_MS 2000
/* At a stop, pipelines get this long to reach NULL; one whose source
 * blocks (open() on a FIFO without a writer, a hung NFS path) holds its
 * thread for ever and is not waited for. */
#define STOP_TEARDOWN_MS 3000

static gboolean
tick (gpointer data)
{
  Monitor *m = data;
  gint64 now = g_get_monotonic_time ();

  for (guint i = 0; i < m->channels->len; i++) {
    MonitorChannel *c = g_ptr_array_index (m->channels, i);
    monitor_channel_tick (c, now);
  }
  return G_SOURCE_CONTINUE;
}

/* Signals: the handler only writes the signal's number to a pipe, which
 * the main loop reads (GLib's own signal sources take no SIGQUIT).  They
 * are installed before anything starts, so that no signal finds the
 * default action (death without end events) while the channels start. */
static const int handled_signals[] = {
  SIGINT, SIGTERM, SIGQUIT, SIGHUP, SIGUSR1, SIGUSR2
};

static int signal_pipe[2] = { -1, -1 };

static void
on_posix_signal (int signum)
{
  int saved = errno;
  guchar b = (guchar) signum;

  /* A full pipe already holds signals to handle: this one may go. */
  if (write (signal_pipe[1], &b, 1) < 0) {
  }
  errno = saved;
}

static gboolean
install_signal_handlers (void)
{
  struct sigaction sa;

  if (!g_unix_open_pipe (signal_pipe, FD_CLOEXEC, NULL) ||
      !g_unix_set_fd_nonblocking (signal_pipe[0], TRUE, NULL) ||
      !g_unix_set_fd_nonblocking (signal_pipe[1], TRUE, NULL))
    return FALSE;
  memset (&sa, 0, sizeof (sa));
  sa.sa_handler = on_posix_signal;
  sa.sa_flags = SA_RESTART;
  sigemptyset (&sa.sa_mask);
  for (guint i = 0; i < G_N_ELEMENTS (handled_signals); i++)
    if (sigaction (handled_signals[i], &sa, NULL) != 0)
      return FALSE;
  return TRUE;
}

/* SIGHUP: the event log closed and opened again at its path (logrotate
 * moved it: new events go to a new file). */
static void
reopen_event_log (Monitor * m)
{
  if (!m->settings->events_path)
    return;
  if (monitor_events_reopen (m->events)) {
    if (!m->settings->quiet)
      g_printerr ("sharpness-monitor: SIGHUP: event log %s reopened\n",
          m->settings->events_path);
  } else {
    g_printerr ("sharpness-monitor: SIGHUP: cannot reopen the event log "
        "%s: %s\n", m->settings->events_path, g_strerror (errno));
  }
}

static const gchar *
signal_name (int signum)
{
  switch (signum) {
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
    case SIGQUIT:
      return "SIGQUIT";
    case SIGUSR1:
      return "SIGUSR1";
    case SIGUSR2:
      return "SIGUSR2";
    default:
      return "a signal";
  }
}

static void
handle_signal (Monitor * m, int signum)
{
  switch (signum) {
    case SIGHUP:
      reopen_event_log (m);
      break;
    case SIGUSR1:
    case SIGUSR2:
      /* Their default action ends the process: a stray kill -USR1 must
       * not stop the monitoring. */
      g_printerr ("sharpness-monitor: %s ignored\n", signal_name (signum));
      break;
    default:
      if (!m->settings->quiet)
        g_printerr ("sharpness-monitor: %s: stopping\n",
            signal_name (signum));
      g_main_loop_quit (m->loop);
      break;
  }
}

static gboolean
on_signal_pipe (gint fd, GIOCondition condition, gpointer data)
{
  Monitor *m = data;
  guchar b;

  while (read (fd, &b, 1) == 1)
    handle_signal (m, b);
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
  gint64 deadline;

  if (!install_signal_handlers ()) {
    g_printerr ("sharpness-monitor: cannot install the signal handlers: "
        "%s\n", g_strerror (errno));
    return 2;
  }

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
  monitor_init (&m, &settings);
  /* Read from the main loop once it runs (before then, the signals wait
   * in the pipe). */
  g_unix_fd_add (signal_pipe[0], G_IO_IN, on_signal_pipe, &m);

  /* GPU decoding and scoring with one CUDA context for every channel,
   * where a GPU is usable; the NVIDIA decoders out of autoplugging
   * otherwise (they would fail without a device). */
  if (settings.cpu) {
    sharpness_tool_gpu_rank_decoders (GST_RANK_NONE);
  } else if (sharpness_tool_gpu_backend_usable (settings.cuda_device_id,
          &m.host.cuda_context)) {
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
  m.http = monitor_http_new (&settings, monitor_api_route, &m, &error);
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
      gchar *text = sharpness_redact (error->message);

      g_printerr ("sharpness-monitor: %s\n", text);
      g_free (text);
      g_clear_error (&error);
    }
  }
  m.tick_id = g_timeout_add (TICK_MS, tick, &m);
  g_main_loop_run (m.loop);

  /* Stop: every pipeline torn down, open alarms closed (their end events
   * logged), then the server. */
  m.host.stopping = TRUE;
  g_source_remove (m.tick_id);
  for (guint i = 0; i < m.channels->len; i++)
    monitor_channel_stop (g_ptr_array_index (m.channels, i));
  /* The main context runs meanwhile: starts in flight hand their
   * pipelines back there, to be torn down. */
  deadline = g_get_monotonic_time () + STOP_TEARDOWN_MS * 1000;
  while (g_atomic_int_get (&m.host.teardowns) > 0 &&
      g_get_monotonic_time () < deadline) {
    while (g_main_context_iteration (NULL, FALSE));
    g_usleep (10000);
  }
  if (g_atomic_int_get (&m.host.teardowns) > 0) {
    /* Their threads hold the channels and GStreamer's locks: nothing
     * they touch is freed; the end events are delivered and logged. */
    g_printerr ("sharpness-monitor: %d pipeline(s) did not stop (a source "
        "blocked in open() or read()?): not waited for\n",
        g_atomic_int_get (&m.host.teardowns));
    monitor_webhooks_free (m.webhooks, STOP_DELIVERY_MS);
    monitor_events_free (m.events);
    fflush (stdout);
    fflush (stderr);
    _exit (0);
  }
  monitor_http_free (m.http);
  for (guint i = 0; i < m.channels->len; i++)
    monitor_channel_unref (g_ptr_array_index (m.channels, i));
  g_ptr_array_unref (m.channels);
  monitor_webhooks_free (m.webhooks, STOP_DELIVERY_MS);
  monitor_events_free (m.events);
  if (m.host.cuda_context)
    gst_context_unref (m.host.cuda_context);
  g_main_loop_unref (m.loop);
  return 0;
}
