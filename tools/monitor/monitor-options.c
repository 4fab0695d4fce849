/* sharpness-monitor's command line: its options, their checks (each bad
 * value named with what is valid), the channels of the command line and
 * of --config, --shard, and the manual page (--help).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <string.h>

#include "monitor.h"
#include "sharpness-tool-redact.h"
#include "sharpness-tool-shard.h"

#define DEFAULT_LISTEN "127.0.0.1:8080"
#define DEFAULT_THUMB_WIDTH 320
#define DEFAULT_RESTART_AFTER 10.0
#define DEFAULT_EVENTS_MAX_MB 64
#define DEFAULT_EVENTS_KEEP 5
/* Bytes of a UDP source's receive buffer; 0: the system's (about 200 kB).
 * The system's held more 1080p30 channels on the GPU machine than 4 MiB,
 * whose backlog after a slow start took seconds to drain. */
#define DEFAULT_UDP_BUFFER 0

static gchar *opt_config, *opt_listen, *opt_token_file, *opt_token,
    *opt_events,
    *opt_shard, *opt_metric, *opt_tiles;
static gchar **opt_webhooks, **opt_alertmanagers, **opt_uris,
    **opt_allowed_hosts;
static gchar **opt_webhook_files, **opt_alertmanager_files;
static gint opt_max_backoff = 30;
static gint opt_device = -1, opt_thumb = DEFAULT_THUMB_WIDTH,
    opt_events_mb = DEFAULT_EVENTS_MAX_MB, opt_events_keep =
    DEFAULT_EVENTS_KEEP, opt_udp_buffer = DEFAULT_UDP_BUFFER;
static gdouble opt_threshold = NAN, opt_signal_timeout = NAN,
    opt_restart_after = DEFAULT_RESTART_AFTER;
static gboolean opt_cpu, opt_afap, opt_loop, opt_quiet, opt_version,
    opt_check, opt_decode_only;

static GOptionEntry entries[] = {
  {"config", 'c', 0, G_OPTION_ARG_FILENAME, &opt_config,
      "Channels and their settings (YAML, docs/reference/sharpness-monitor.md)", "FILE"},
  {"listen", 'l', 0, G_OPTION_ARG_STRING, &opt_listen,
      "HTTP address (default " DEFAULT_LISTEN "; 0.0.0.0:PORT exposes it)",
      "ADDR:PORT"},
  {"allowed-host", 0, 0, G_OPTION_ARG_STRING_ARRAY, &opt_allowed_hosts,
      "Also answer requests whose Host is NAME (a reverse proxy's or DNS "
      "name; the listen address is always allowed); repeatable", "NAME"},
  {"api-token-file", 0, 0, G_OPTION_ARG_FILENAME, &opt_token_file,
      "Allow POST/DELETE with the token this file holds", "FILE"},
  {"api-token", 0, 0, G_OPTION_ARG_STRING, &opt_token,
      "The same, the token given here (other users see it in ps: prefer "
      "the file)", "TOKEN"},
  {"events", 'e', 0, G_OPTION_ARG_FILENAME, &opt_events,
      "Append every alarm event to FILE as a JSON line", "FILE"},
  {"events-max-size", 0, 0, G_OPTION_ARG_INT, &opt_events_mb,
      "Rotate the event log at this size (default 64)", "MB"},
  {"events-keep", 0, 0, G_OPTION_ARG_INT, &opt_events_keep,
      "Rotated event logs kept (default 5)", "N"},
  {"webhook", 'w', 0, G_OPTION_ARG_STRING_ARRAY, &opt_webhooks,
      "POST events to URL (Alertmanager's webhook format, not its API: "
      "see --alertmanager); repeatable", "URL"},
  {"webhook-file", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &opt_webhook_files,
      "The same for each URL in FILE, one a line, # comments (a URL with "
      "credentials stays out of ps); repeatable", "FILE"},
  {"alertmanager", 0, 0, G_OPTION_ARG_STRING_ARRAY, &opt_alertmanagers,
      "Post alarms to the Alertmanager at URL (its base address: its API "
      "v2); repeatable", "URL"},
  {"alertmanager-file", 0, 0, G_OPTION_ARG_FILENAME_ARRAY,
        &opt_alertmanager_files,
      "The same for each URL in FILE, as --webhook-file; repeatable",
      "FILE"},
  {"cuda-device-id", 'd', 0, G_OPTION_ARG_INT, &opt_device,
      "CUDA device of this process' channels (default -1: any)", "N"},
  {"cpu", 0, 0, G_OPTION_ARG_NONE, &opt_cpu,
      "Decode and score on the CPU even where a GPU is usable", NULL},
  {"decode-only", 0, 0, G_OPTION_ARG_NONE, &opt_decode_only,
      "Decode and count frames only, without analysis (no score, "
      "thumbnail, audio level or compared pair; only no-signal alarms): "
      "the baseline of bench/monitor/bench-monitor.py", NULL},
  {"as-fast-as-possible", 0, 0, G_OPTION_ARG_NONE, &opt_afap,
      "Play file:// inputs as fast as they decode, not at real-time pace",
      NULL},
  {"loop", 0, 0, G_OPTION_ARG_NONE, &opt_loop,
      "Play file:// inputs again when they end", NULL},
  {"shard", 0, 0, G_OPTION_ARG_STRING, &opt_shard,
      "Monitor every N-th channel from the I-th (0-based)", "I/N"},
  {"metric", 'm', 0, G_OPTION_ARG_STRING, &opt_metric,
      "Metric of the command line's channels (default blur-effect)",
      "NAME"},
  {"threshold", 't', 0, G_OPTION_ARG_DOUBLE, &opt_threshold,
      "Absolute blur threshold of the command line's channels, alone "
      "(default: blur-effect > 0.52 or 0.8 of the recent sharpest, as "
      "sharpness-scan; other metrics: the relative rule at 0.6)", "VALUE"},
  {"tiles", 0, 0, G_OPTION_ARG_STRING, &opt_tiles,
      "Tile map of the command line's channels", "COLSxROWS"},
  {"signal-timeout", 0, 0, G_OPTION_ARG_DOUBLE, &opt_signal_timeout,
      "No frame this long: no-signal alarm (default 2)", "SECONDS"},
  {"restart-after", 0, 0, G_OPTION_ARG_DOUBLE, &opt_restart_after,
      "No frame this long: the channel's pipeline is rebuilt (default 10, "
      "0 = never)", "SECONDS"},
  {"max-backoff", 0, 0, G_OPTION_ARG_INT, &opt_max_backoff,
      "Longest wait before restarting a failed channel (default 30)",
      "SECONDS"},
  {"thumbnail-width", 0, 0, G_OPTION_ARG_INT, &opt_thumb,
      "Width of thumbnails (default 320)", "PIXELS"},
  {"udp-buffer-size", 0, 0, G_OPTION_ARG_INT, &opt_udp_buffer,
      "Receive buffer of each UDP source (default 0: the system's; "
      "capped by net.core.rmem_max unless root)", "BYTES"},
  {"check-config", 0, 0, G_OPTION_ARG_NONE, &opt_check,
      "Check the configuration and the URIs, print the channels, exit",
      NULL},
  {"quiet", 'q', 0, G_OPTION_ARG_NONE, &opt_quiet,
      "Print errors only (not each alarm)", NULL},
  {"version", 'V', 0, G_OPTION_ARG_NONE, &opt_version,
      "Print the version and exit", NULL},
  {G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &opt_uris, NULL,
      NULL},
  {NULL}
};

static const gchar summary[] =
    "Watches live video channels and raises alarms: blur, black, freeze,\n"
    "audio silence, loss of signal, and PSNR/SSIM/VMAF drops between two\n"
    "points of a chain. Serves Prometheus metrics, a JSON API and a\n"
    "multiviewer page; writes an event log; calls webhooks.";

static const gchar description[] =
    "INPUTS\n"
    "  Each URI is a channel: udp://[@]ADDR:PORT (MPEG-TS, multicast too),\n"
    "  rtp://, srt://HOST:PORT (caller) or srt://:PORT?mode=listener,\n"
    "  rtsp://, http(s):// (HLS), file:// (a file name works too; played\n"
    "  at real-time pace unless --as-fast-as-possible). A channel without\n"
    "  a name is named after its URI: the file name, or host:port.\n"
    "  --config names channels and sets each one's metric, thresholds,\n"
    "  alarm onsets and hold-offs, tiles, ROIs, compare-with (with\n"
    "  compare-vmaf and vmaf-model for VMAF), or a\n"
    "  GStreamer source fragment (a DeckLink or NDI source, say).\n"
    "\n"
    "DECODING\n"
    "  On the GPU (nvh264dec ...) with one CUDA context for every channel\n"
    "  where one is usable and not --cpu; on the CPU otherwise. A channel\n"
    "  that fails (source gone, decoder error, garbage, no frame for\n"
    "  --restart-after) is rebuilt after 1 s, 2 s ... up to 30 s, alone.\n"
    "  --decode-only keeps all of this (source, decoder, CUDA context,\n"
    "  pacing, queue, frame counts, no-signal alarms, restarts) and drops\n"
    "  the analysis: no scorer, thumbnails, audio level or compare-with\n"
    "  (its reference is not decoded), so blur, black, freeze, silence\n"
    "  and drop alarms never fire and frames_scored stays 0.\n"
    "\n"
    "ALARMS\n"
    "  blur       the element's blurry runs (metric, threshold,\n"
    "             min-blurry-duration = the onset, max-blurry-gap)\n"
    "  black      black frames, as FFmpeg's blackdetect (onset: its d)\n"
    "  freeze     frozen frames, as FFmpeg's freezedetect (onset: its d)\n"
    "  silence    the first audio stream below -60 dBFS (level)\n"
    "  no-signal  no frame for --signal-timeout\n"
    "  psnr-drop, ssim-drop  a compared pair below 30 dB, 0.9\n"
    "  vmaf-drop  a compared frame's VMAF below 70 (compare-vmaf: true)\n"
    "  A black or frozen stretch is never a blur alarm. Each alarm has a\n"
    "  start and an end event: JSON lines (--events), webhooks\n"
    "  (--webhook, Alertmanager's format: firing, resolved), alerts in an\n"
    "  Alertmanager (--alertmanager: active ones posted again every\n"
    "  minute, resolved at their end), gauges. A delivery has 10 s in\n"
    "  all, is retried up to 8 times, and a receiver that fails or\n"
    "  recovers is logged once each way, its URL redacted (as everywhere:\n"
    "  user information and token-like query values). --webhook-file and\n"
    "  --alertmanager-file keep URLs with credentials out of ps.\n"
    "\n"
    "HTTP\n"
    "  /            the multiviewer page\n"
    "  /metrics     Prometheus metrics\n"
    "  /healthz     ok\n"
    "  /api/channels, /api/channels/NAME, /api/thumbnails,\n"
    "  /api/events?since=ID\n"
    "  POST /api/channels, DELETE /api/channels/NAME and\n"
    "  POST /api/alarms/NAME/KIND/ack need the --api-token(-file) token\n"
    "  (Authorization: Bearer TOKEN) and take URIs only.\n"
    "\n"
    "EXIT STATUS\n"
    "  0  stopped by SIGINT, SIGTERM or SIGQUIT, or every file channel\n"
    "     ended\n"
    "  2  a bad command line or configuration, or the HTTP port is taken\n"
    "\n"
    "EXAMPLES\n"
    "  sharpness-monitor udp://@239.1.1.1:5000 srt://encoder:9000\n"
    "  sharpness-monitor --config channels.yaml --listen 0.0.0.0:8080 \\\n"
    "      --events /var/log/sharpness/events.jsonl \\\n"
    "      --alertmanager http://alertmanager:9093 \\\n"
    "      --webhook https://hooks.example/sharpness\n"
    "\n"
    "See docs/reference/sharpness-monitor.md.\n";

static gboolean
http_url (const gchar * url)
{
  gchar *scheme = g_uri_parse_scheme (url);
  gboolean ok = scheme && (!g_ascii_strcasecmp (scheme, "http") ||
      !g_ascii_strcasecmp (scheme, "https")) &&
      g_uri_is_valid (url, G_URI_FLAGS_NONE, NULL);

  g_free (scheme);
  return ok;
}

static gint
usage_error (const gchar * format, ...) G_GNUC_PRINTF (1, 2);

static gint
usage_error (const gchar * format, ...)
{
  va_list ap;
  gchar *msg, *shown;

  va_start (ap, format);
  msg = g_strdup_vprintf (format, ap);
  va_end (ap);
  /* Errors quote URIs and paths, which may carry credentials. */
  shown = sharpness_redact (msg);
  g_printerr ("sharpness-monitor: %s\n", shown);
  g_free (shown);
  g_free (msg);
  return 2;
}

/* Adds @url to @urls where it is an http(s) URL; the usage error (the
 * URL redacted: it may hold credentials) otherwise.  @where names it. */
static gint
receiver_add (GPtrArray * urls, const gchar * url, const gchar * where,
    const gchar * hint)
{
  gchar *shown;

  if (http_url (url)) {
    g_ptr_array_add (urls, g_strdup (url));
    return -1;
  }
  shown = sharpness_redact (url);
  usage_error ("%s '%s': an http:// or https:// URL expected%s", where,
      shown, hint);
  g_free (shown);
  return 2;
}

/* The URLs of @path, one a line; blank lines and lines starting with '#'
 * are skipped, and a file without one is refused (a mistake, not a wish
 * for no receiver). */
static gint
receivers_from_file (GPtrArray * urls, const gchar * option,
    const gchar * path, const gchar * hint)
{
  GError *error = NULL;
  gchar *text, **lines;
  guint before = urls->len;
  gint status = -1;

  if (!g_file_get_contents (path, &text, NULL, &error)) {
    status = usage_error ("%s-file: %s", option, error->message);
    g_error_free (error);
    return status;
  }
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] && status < 0; i++) {
    gchar *line = g_strstrip (lines[i]), *where;

    if (!line[0] || line[0] == '#')
      continue;
    where = g_strdup_printf ("%s-file %s:%u:", option, path, i + 1);
    status = receiver_add (urls, line, where, hint);
    g_free (where);
  }
  if (status < 0 && urls->len == before)
    status = usage_error ("%s-file %s: no URL (one a line; '#' starts a "
        "comment)", option, path);
  g_strfreev (lines);
  g_free (text);
  return status;
}

/* @option's receivers: its URLs on the command line, then those of its
 * files, each checked; NULL in @out for none. */
static gint
receivers_parse (const gchar * option, gchar ** cli, gchar ** files,
    const gchar * hint, gchar *** out)
{
  GPtrArray *urls = g_ptr_array_new_with_free_func (g_free);
  gint status = -1;

  for (gchar ** u = cli; u && *u && status < 0; u++)
    status = receiver_add (urls, *u, option, hint);
  for (gchar ** f = files; f && *f && status < 0; f++)
    status = receivers_from_file (urls, option, *f, hint);
  *out = NULL;
  if (status < 0 && urls->len) {
    g_ptr_array_add (urls, NULL);
    *out = (gchar **) g_ptr_array_steal (urls, NULL);
  }
  g_ptr_array_unref (urls);
  return status;
}

gint
monitor_options_parse (int *argc, char ***argv, MonitorSettings * s)
{
  GOptionContext *ctx = g_option_context_new ("[URI...]");
  GError *error = NULL;
  GPtrArray *all = g_ptr_array_new_with_free_func ((GDestroyNotify)
      monitor_channel_config_free);
  GHashTable *names;
  MonitorChannelConfig base;
  gint status = -1;

  g_option_context_set_summary (ctx, summary);
  g_option_context_set_description (ctx, description);
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  if (!g_option_context_parse (ctx, argc, argv, &error)) {
    status = usage_error ("%s (see --help)", error->message);
    goto out;
  }
  if (opt_version) {
    g_print ("sharpness-monitor %s\n", VERSION);
    status = 0;
    goto out;
  }
  memset (s, 0, sizeof (*s));
  s->listen = g_strdup (opt_listen ? opt_listen : DEFAULT_LISTEN);
  s->cuda_device_id = opt_device;
  s->cpu = opt_cpu;
  s->decode_only = opt_decode_only;
  s->as_fast_as_possible = opt_afap;
  s->loop = opt_loop;
  s->quiet = opt_quiet;
  s->allowed_hosts = g_strdupv (opt_allowed_hosts);
  s->events_path = g_strdup (opt_events);
  s->shard_n = 1;
  if (opt_device < -1)
    status = usage_error ("--cuda-device-id must be -1 (any) or a device "
        "number >= 0");
  else if (opt_thumb < 16 || opt_thumb > 1920)
    status = usage_error ("--thumbnail-width must be in [16, 1920]");
  else if (opt_events_mb < 1)
    status = usage_error ("--events-max-size must be at least 1 (MB)");
  else if (opt_events_keep < 0 || opt_events_keep > 1000)
    status = usage_error ("--events-keep must be in [0, 1000]");
  else if (opt_max_backoff < 1 || opt_max_backoff > 3600)
    status = usage_error ("--max-backoff must be in [1, 3600] s");
  else if (opt_udp_buffer < 0)
    status = usage_error ("--udp-buffer-size must be 0 (the system's) or "
        "a number of bytes");
  else if (!(opt_restart_after >= 0))
    status = usage_error ("--restart-after must be >= 0 s (0: never)");
  else if (!isnan (opt_signal_timeout) && !(opt_signal_timeout >= 0.1))
    status = usage_error ("--signal-timeout must be at least 0.1 s");
  else if (opt_shard && !sharpness_tool_parse_shard (opt_shard, &s->shard_i,
          &s->shard_n))
    status = usage_error ("--shard '%s': I/N expected, 0 <= I < N (e.g. "
        "0/4)", opt_shard);
  if (status < 0)
    status = receivers_parse ("--webhook", opt_webhooks, opt_webhook_files,
        "", &s->webhooks);
  if (status < 0)
    status = receivers_parse ("--alertmanager", opt_alertmanagers,
        opt_alertmanager_files, " (Alertmanager's address, e.g. "
        "http://host:9093)", &s->alertmanagers);
  if (status >= 0)
    goto out;
  s->thumbnail_width = opt_thumb;
  s->udp_buffer_size = opt_udp_buffer;
  s->events_max_bytes = (guint64) opt_events_mb * 1024 * 1024;
  s->events_keep = opt_events_keep;
  s->restart_after = opt_restart_after;
  s->max_backoff = opt_max_backoff;

  if (opt_token_file || opt_token) {
    gchar *t = NULL;
    if (opt_token_file && opt_token) {
      status = usage_error ("give --api-token-file or --api-token, not "
          "both");
      goto out;
    }
    if (opt_token)
      t = g_strdup (opt_token);
    else if (!g_file_get_contents (opt_token_file, &t, NULL, &error)) {
      status = usage_error ("--api-token-file: %s", error->message);
      goto out;
    }
    g_strstrip (t);
    if (strlen (t) < 16) {
      g_free (t);
      status = usage_error ("--api-token: the token must be at least 16 "
          "characters (e.g. head -c 24 /dev/urandom | base64)");
      goto out;
    }
    s->api_token = t;
  }

  /* The command line's channels: the defaults, and its options. */
  monitor_channel_config_defaults (&base);
  if (opt_metric) {
    gint m = sharpness_metric_from_nick (opt_metric);
    if (m < 0) {
      status = usage_error ("--metric: unknown metric '%s' (see "
          "gst-inspect-1.0 cudasharpness)", opt_metric);
      goto out;
    }
    monitor_channel_config_set_metric (&base, m);
  }
  if (!isnan (opt_threshold)) {
    base.threshold = opt_threshold;
    base.relative_threshold = 0;
  }
  base.tiles = g_strdup (opt_tiles);
  if (!isnan (opt_signal_timeout))
    base.kinds[MONITOR_KIND_NO_SIGNAL].onset = opt_signal_timeout;
  for (gchar ** u = opt_uris; u && *u; u++) {
    MonitorChannelConfig *c = monitor_channel_config_copy (&base);
    gchar *scheme = g_uri_parse_scheme (*u);

    /* A plain file name is a file. */
    if (!scheme) {
      gchar *abs = g_canonicalize_filename (*u, NULL);
      c->uri = g_filename_to_uri (abs, NULL, NULL);
      g_free (abs);
    } else {
      c->uri = g_strdup (*u);
    }
    g_free (scheme);
    c->name = monitor_channel_name_from_uri (c->uri);
    if (!monitor_channel_config_check (c, *u, &error) ||
        !monitor_channel_config_check_input (c, *u, &error)) {
      monitor_channel_config_free (c);
      status = usage_error ("%s", error->message);
      goto out_base;
    }
    g_ptr_array_add (all, c);
  }
  if (opt_config && !monitor_config_load (opt_config, all, &error)) {
    status = usage_error ("%s", error->message);
    goto out_base;
  }
  if (!isnan (opt_signal_timeout))
    for (guint i = 0; i < all->len; i++)
      ((MonitorChannelConfig *) g_ptr_array_index (all, i))->kinds
          [MONITOR_KIND_NO_SIGNAL].onset = opt_signal_timeout;
  if (all->len == 0) {
    status = usage_error ("no channel: give URIs or --config FILE (see "
        "--help)");
    goto out_base;
  }
  names = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < all->len && status < 0; i++) {
    MonitorChannelConfig *c = g_ptr_array_index (all, i);
    MonitorChannelConfig *prev = g_hash_table_lookup (names, c->name);
    if (prev)
      status = usage_error ("two channels are named '%s'%s: names must be "
          "unique (name them in --config)", c->name, c->line ?
          g_strdup_printf (" (line %u)", c->line) : "");
    g_hash_table_insert (names, c->name, c);
  }
  for (guint i = 0; i < all->len && status < 0; i++) {
    MonitorChannelConfig *c = g_ptr_array_index (all, i);
    if (c->compare_with && (!g_hash_table_lookup (names, c->compare_with) ||
            g_str_equal (c->compare_with, c->name)))
      status = usage_error ("channel '%s': compare-with '%s' is not another "
          "configured channel", c->name, c->compare_with);
  }
  g_hash_table_unref (names);
  if (status >= 0)
    goto out_base;

  /* --shard: every N-th channel, in configured order. */
  s->channels = g_ptr_array_new_with_free_func ((GDestroyNotify)
      monitor_channel_config_free);
  for (guint i = 0; i < all->len; i++)
    if (i % s->shard_n == s->shard_i)
      g_ptr_array_add (s->channels,
          monitor_channel_config_copy (g_ptr_array_index (all, i)));
  s->all_channels = g_ptr_array_ref (all);
  if (opt_check) {
    for (guint i = 0; i < s->channels->len; i++) {
      MonitorChannelConfig *c = g_ptr_array_index (s->channels, i);
      gchar *shown = sharpness_redact (c->uri ? c->uri : c->source);
      g_print ("%s\t%s\n", c->name, shown);
      g_free (shown);
    }
    status = 0;
  }
out_base:
  g_free (base.tiles);
out:
  g_clear_error (&error);
  g_ptr_array_unref (all);
  g_option_context_free (ctx);
  return status;
}
