/* sharpness-monitor's routes: the page, /metrics, /healthz and the JSON
 * API (docs/reference/sharpness-monitor.md, "HTTP").  Channel names in
 * paths are percent-decoded and looked up, never used as paths; URIs and
 * errors shown are redacted (sharpness-tool-redact.h: user information
 * and credential-like query values).  Answers are json-glib trees written
 * by the tools' writer (sharpness-tool-json.h).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "monitor-app.h"
#include "monitor-scte35.h"
#include "sharpness-tool-redact.h"

#define EVENTS_LIMIT 500

/* The URI as shown: redacted. */
static gchar *
public_uri (const MonitorChannelConfig * cfg)
{
  return cfg->uri ? sharpness_redact (cfg->uri) :
      g_strdup ("(source fragment)");
}

/* Wall-clock microseconds as seconds to the millisecond (0: never). */
static void
add_wall_time (JsonBuilder * b, const gchar * key, gint64 us)
{
  sharpness_json_add_exact (b, key, (gdouble) ((us + 500) / 1000) / 1000);
}

/* "transport": the TR 101 290 counts and the last error of each
 * indicator raised (where and what); nothing before the first packet. */
static void
add_transport (JsonBuilder * b, MonitorChannel * c)
{
  MonitorTransportStats ts;
  JsonNode *scte35;

  if (!c->transport)
    return;
  monitor_transport_snapshot (c->transport, &ts);
  if (!ts.seen)
    return;
  sharpness_json_begin_object (b, "transport");
  sharpness_json_add_bool (b, "in_sync", ts.in_sync);
  sharpness_json_add_int (b, "packets", (gint64) ts.packets);
  sharpness_json_add_number (b, "bitrate", ts.bitrate);
  sharpness_json_begin_object (b, "errors");
  for (gint k = 0; k < SHARPNESS_TR101290_N_INDICATORS; k++)
    sharpness_json_add_int (b, monitor_transport_indicator_name (k),
        (gint64) ts.errors[k]);
  json_builder_end_object (b);
  sharpness_json_begin_object (b, "last_errors");
  for (gint k = 0; k < SHARPNESS_TR101290_N_INDICATORS; k++) {
    const MonitorTransportError *l = &ts.last[k];

    if (!ts.errors[k])
      continue;
    sharpness_json_begin_object (b, monitor_transport_indicator_name (k));
    sharpness_json_add_int (b, "priority",
        monitor_transport_indicator_priority (k));
    sharpness_json_add_int (b, "packet", (gint64) l->packet);
    sharpness_json_add_int (b, "pid", l->pid);
    sharpness_json_add_int (b, "value", l->value);
    sharpness_json_add_int (b, "expected", l->expected);
    add_wall_time (b, "time", l->wall_us);
    json_builder_end_object (b);
  }
  json_builder_end_object (b);
  /* "scte35", where the transport declares it (monitor-scte35.c). */
  if ((scte35 = monitor_scte35_api_node (&ts))) {
    json_builder_set_member_name (b, "scte35");
    json_builder_add_value (b, scte35);
  }
  json_builder_end_object (b);
}

/* "loudness": EBU R 128, once measured. */
static void
add_loudness (JsonBuilder * b, MonitorChannel * c)
{
  MonitorLoudnessReading lr;

  monitor_loudness_peek (c->loudness, &lr);
  if (!lr.measured)
    return;
  sharpness_json_begin_object (b, "loudness");
  sharpness_json_add_number (b, "momentary", lr.momentary);
  sharpness_json_add_number (b, "short_term", lr.short_term);
  sharpness_json_add_number (b, "integrated", lr.integrated);
  sharpness_json_add_number (b, "range", lr.range);
  sharpness_json_add_number (b, "true_peak", lr.true_peak);
  json_builder_end_object (b);
}

/* "captions": present while pictures with captions keep coming; the
 * seconds since the last one (null: none yet); the counts. */
static void
add_captions (JsonBuilder * b, MonitorChannel * c)
{
  MonitorCaptionsStats cs;
  gint64 age = 0;

  monitor_captions_snapshot (c->captions, &cs);
  if (cs.last_caption_us)
    age = g_get_monotonic_time () - cs.last_caption_us;
  sharpness_json_begin_object (b, "captions");
  sharpness_json_add_bool (b, "present", cs.last_caption_us &&
      age <= MONITOR_CAPTIONS_GAP_US);
  sharpness_json_add_number (b, "age", cs.last_caption_us ? age / 1e6 : NAN);
  sharpness_json_add_int (b, "frames", (gint64) cs.frames);
  sharpness_json_begin_object (b, "packets");
  for (gint t = 0; t < MONITOR_CAPTION_N_TYPES; t++)
    sharpness_json_add_int (b, monitor_caption_type_name (t),
        (gint64) cs.packets[t]);
  json_builder_end_object (b);
  json_builder_end_object (b);
}

/* "alarms": each enabled kind's state. */
static void
add_alarms (JsonBuilder * b, MonitorChannel * c)
{
  sharpness_json_begin_object (b, "alarms");
  for (gint k = 0; k < MONITOR_N_KINDS; k++) {
    const MonitorAlarmState *a = &c->alarms.kinds[k];

    if (!c->cfg->kinds[k].enabled)
      continue;
    sharpness_json_begin_object (b, monitor_kind_name (k));
    sharpness_json_add_bool (b, "active", a->active);
    sharpness_json_add_bool (b, "acked", a->acked);
    sharpness_json_add_int (b, "events", (gint64) a->events_total);
    add_wall_time (b, "last_change", a->last_change_us);
    json_builder_end_object (b);
  }
  json_builder_end_object (b);
}

/* "tiles" (when scored by tiles) and "sparkline", oldest point first. */
static void
add_tiles_and_sparkline (JsonBuilder * b, MonitorChannel * c,
    const MonitorChannelStats * st)
{
  if (st->tiles_cols)
    sharpness_json_add_tiles (b, "tiles", st->tiles_cols, st->tiles_rows,
        st->tiles);
  sharpness_json_begin_array (b, "sparkline");
  for (guint i = 0; i < c->spark_n; i++)
    sharpness_json_add_number (b, NULL, c->spark[(c->spark_pos +
                MONITOR_SPARK_POINTS - c->spark_n + i) %
            MONITOR_SPARK_POINTS]);
  json_builder_end_array (b);
}

/* "settings": every kind's, enabled or not. */
static void
add_kind_settings (JsonBuilder * b, MonitorChannel * c)
{
  const MonitorKindSettings *ks = c->cfg->kinds;

  sharpness_json_begin_object (b, "settings");
  for (gint k = 0; k < MONITOR_N_KINDS; k++) {
    sharpness_json_begin_object (b, monitor_kind_name (k));
    sharpness_json_add_bool (b, "enabled", ks[k].enabled);
    sharpness_json_add_number (b, "onset", ks[k].onset);
    sharpness_json_add_number (b, "clear", ks[k].clear);
    json_builder_end_object (b);
  }
  json_builder_end_object (b);
}

/* The channel's object; @detail: with its settings. */
static void
add_channel_object (JsonBuilder * b, MonitorChannel * c, gboolean detail)
{
  const SharpnessMetricInfo *metric = &sharpness_metric_info[c->cfg->metric];
  MonitorChannelStats st;
  gchar *uri = public_uri (c->cfg), *error = sharpness_redact (c->last_error);
  gchar *esc = g_uri_escape_string (c->cfg->name, NULL, FALSE);
  gchar *thumbnail = g_strdup_printf ("/api/channels/%s/thumbnail.jpg", esc);
  guint64 dropped = 0;

  monitor_channel_snapshot (c, &st);
  for (gint r = 0; r < MONITOR_N_DROP_REASONS; r++)
    dropped += st.dropped[r];
  json_builder_begin_object (b);
  sharpness_json_add_string (b, "name", c->cfg->name);
  sharpness_json_add_string (b, "uri", uri);
  sharpness_json_add_string (b, "state", monitor_channel_state_name
      (c->state));
  sharpness_json_add_bool (b, "up", c->state == MONITOR_CHANNEL_UP);
  sharpness_json_add_string (b, "metric", metric->nick);
  sharpness_json_add_number (b, "threshold", c->cfg->threshold);
  sharpness_json_add_int (b, "direction", metric->direction);
  sharpness_json_add_number (b, "score", st.score);
  sharpness_json_add_string (b, "content_state", st.content_state);
  sharpness_json_add_int (b, "frames_decoded", (gint64) st.decoded);
  sharpness_json_add_int (b, "frames_scored", (gint64) st.scored);
  sharpness_json_add_int (b, "frames_dropped", (gint64) dropped);
  sharpness_json_add_int (b, "blurry_frames", (gint64) st.blurry);
  sharpness_json_add_int (b, "reconnects", (gint64) c->reconnects);
  sharpness_json_add_int (b, "restarts", (gint64) c->restarts);
  sharpness_json_add_int (b, "width", st.width);
  sharpness_json_add_int (b, "height", st.height);
  sharpness_json_add_number (b, "fps", st.fps_d ? (gdouble) st.fps_n /
      st.fps_d : NAN);
  sharpness_json_add_string (b, "codec", c->codec);
  sharpness_json_add_string (b, "last_error", error);
  if (c->cfg->compare_with) {
    sharpness_json_add_string (b, "compare_with", c->cfg->compare_with);
    sharpness_json_add_number (b, "psnr", st.psnr);
    sharpness_json_add_number (b, "ssim", st.ssim);
    if (c->cfg->compare_vmaf)
      sharpness_json_add_number (b, "vmaf", st.vmaf);
  }
  add_transport (b, c);
  add_loudness (b, c);
  add_captions (b, c);
  add_alarms (b, c);
  add_tiles_and_sparkline (b, c, &st);
  sharpness_json_add_string (b, "thumbnail", thumbnail);
  sharpness_json_add_int (b, "thumbnail_seq", (gint64) c->thumb_seen_seq);
  if (detail)
    add_kind_settings (b, c);
  json_builder_end_object (b);
  g_free (thumbnail);
  g_free (esc);
  g_free (error);
  g_free (uri);
}

/* Replies with the tree @b built (it is freed), one line. */
static void
reply_json (MonitorHttpExchange * x, MonitorHttpStatus status,
    JsonBuilder * b)
{
  GString *o = g_string_new (NULL);

  sharpness_json_write_builder (o, b, SHARPNESS_JSON_COMPACT);
  g_string_append_c (o, '\n');
  monitor_http_reply (x, status, "application/json", o);
  g_object_unref (b);
}

static void
thumbnail_reply (MonitorHttpExchange * x, GBytes * jpeg)
{
  if (jpeg)
    monitor_http_reply_bytes (x, MONITOR_HTTP_OK, "image/jpeg", jpeg);
  else
    monitor_http_error (x, MONITOR_HTTP_NOT_FOUND, "no thumbnail yet");
}

/* GET /api/thumbnails: every channel's last thumbnail in one answer,
 * [{"name", "thumbnail_seq", "thumbnail_jpeg_base64"}] (channels without
 * one yet left out), so that a page of 200 tiles makes one request a
 * second, not 200: Chromium spent about half of its main thread on 200
 * image requests a second, measured on a 2-core machine with the
 * multiviewer at 200 channels. */
static JsonBuilder *
thumbnails_tree (Monitor * m)
{
  JsonBuilder *b = json_builder_new ();

  json_builder_begin_array (b);
  for (guint i = 0; i < m->channels->len; i++) {
    MonitorChannel *c = g_ptr_array_index (m->channels, i);
    guint64 seq = 0;
    GstSample *s = monitor_channel_get_thumbnail (c, &seq);
    GBytes *jpeg = s ? monitor_thumbnail_bytes (s) : NULL;

    if (jpeg) {
      gsize n;
      const guchar *d = g_bytes_get_data (jpeg, &n);
      gchar *b64 = g_base64_encode (d, n);

      json_builder_begin_object (b);
      sharpness_json_add_string (b, "name", c->cfg->name);
      sharpness_json_add_int (b, "thumbnail_seq", (gint64) seq);
      sharpness_json_add_string (b, "thumbnail_jpeg_base64", b64);
      json_builder_end_object (b);
      g_free (b64);
      g_bytes_unref (jpeg);
    }
    if (s)
      gst_sample_unref (s);
  }
  json_builder_end_array (b);
  return b;
}

/* The page, compiled in (monitor-page.html). */
static void
page (MonitorHttpExchange * x)
{
  GBytes *b = g_resources_lookup_data ("/org/gst-sharpness/monitor/"
      "monitor-page.html", 0, NULL);

  if (!b) {
    monitor_http_error (x, MONITOR_HTTP_INTERNAL_ERROR,
        "the page is missing from this build");
    return;
  }
  /* Everything the page needs is in it: nothing else may load, and no
   * other site may frame it. */
  monitor_http_header (x, "Content-Security-Policy",
      "default-src 'none'; img-src 'self' data:; connect-src 'self'; "
      "style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
      "frame-ancestors 'none'");
  monitor_http_header (x, "X-Frame-Options", "DENY");
  monitor_http_reply_bytes (x, MONITOR_HTTP_OK, "text/html; charset=utf-8",
      b);
  g_bytes_unref (b);
}

static gboolean
need_token (Monitor * m, MonitorHttpExchange * x)
{
  if (!m->settings->api_token) {
    monitor_http_error (x, MONITOR_HTTP_FORBIDDEN, "changes over HTTP are "
        "off: start sharpness-monitor with --api-token-file (or "
        "--api-token) to allow them");
    return FALSE;
  }
  if (!monitor_http_token_ok (x, m->settings->api_token)) {
    monitor_http_header (x, "WWW-Authenticate", "Bearer");
    monitor_http_error (x, MONITOR_HTTP_UNAUTHORIZED, "missing or wrong "
        "token: send 'Authorization: Bearer <token>'");
    return FALSE;
  }
  return TRUE;
}

static const gchar *
member_string (JsonObject * o, const gchar * name)
{
  JsonNode *n = json_object_get_member (o, name);
  return n && JSON_NODE_HOLDS_VALUE (n) &&
      json_node_get_value_type (n) == G_TYPE_STRING ?
      json_node_get_string (n) : NULL;
}

/* POST /api/channels {"name": ..., "uri": ..., "tiles": ...}: URIs only,
 * of the allowed schemes; no pipeline fragment. */
static void
add_channel (Monitor * m, MonitorHttpExchange * x)
{
  JsonParser *p = json_parser_new ();
  GError *error = NULL;
  JsonNode *root;
  JsonObject *o;
  MonitorChannelConfig cfg;
  const gchar *uri, *name, *tiles;
  gsize n;
  const gchar *d = monitor_http_body (x, &n);

  if (!json_parser_load_from_data (p, d, n, &error)) {
    gchar *why = g_strdup_printf ("the body is not JSON: %s",
        error->message);
    monitor_http_error (x, MONITOR_HTTP_BAD_REQUEST, why);
    g_free (why);
    goto done;
  }
  root = json_parser_get_root (p);
  if (!root || !JSON_NODE_HOLDS_OBJECT (root)) {
    monitor_http_error (x, MONITOR_HTTP_BAD_REQUEST, "a JSON object "
        "{\"uri\": ..., \"name\": ...} expected");
    goto done;
  }
  o = json_node_get_object (root);
  {
    GList *members = json_object_get_members (o);
    const gchar *bad = NULL;

    for (GList * k = members; k && !bad; k = k->next)
      if (g_strcmp0 (k->data, "uri") && g_strcmp0 (k->data, "name") &&
          g_strcmp0 (k->data, "tiles"))
        bad = k->data;
    if (bad) {
      gchar *why = g_strdup_printf ("unknown member '%s' (uri, name, tiles;"
          " other settings go in the configuration file)", bad);
      monitor_http_error (x, MONITOR_HTTP_BAD_REQUEST, why);
      g_free (why);
    }
    g_list_free (members);
    if (bad)
      goto done;
  }
  uri = member_string (o, "uri");
  name = member_string (o, "name");
  tiles = member_string (o, "tiles");
  if (!uri || !monitor_uri_scheme_allowed (uri)) {
    monitor_http_error (x, MONITOR_HTTP_BAD_REQUEST, "\"uri\" must be a "
        "string with the scheme udp, rtp, srt, rtsp, http, https or file");
    goto done;
  }
  monitor_channel_config_defaults (&cfg);
  cfg.uri = g_strdup (uri);
  cfg.name = name ? g_strdup (name) : monitor_channel_name_from_uri (uri);
  cfg.tiles = g_strdup (tiles);
  if (!monitor_add_channel (m, &cfg, &error)) {
    monitor_http_error (x, g_error_matches (error, G_IO_ERROR,
            G_IO_ERROR_EXISTS) ? MONITOR_HTTP_CONFLICT :
        MONITOR_HTTP_BAD_REQUEST, error->message);
  } else {
    JsonBuilder *b = json_builder_new ();

    add_channel_object (b, monitor_find_channel (m, cfg.name), TRUE);
    reply_json (x, MONITOR_HTTP_CREATED, b);
  }
  g_free (cfg.uri);
  g_free (cfg.name);
  g_free (cfg.tiles);
done:
  g_clear_error (&error);
  g_object_unref (p);
}

/* /api/channels/NAME[/thumbnail.jpg]: the decoded name, or NULL. */
static MonitorChannel *
channel_of (Monitor * m, const gchar * seg)
{
  gchar *name = g_uri_unescape_string (seg, NULL);
  MonitorChannel *c = name ? monitor_find_channel (m, name) : NULL;

  g_free (name);
  return c;
}

void
monitor_api_route (MonitorHttpExchange * x, gpointer monitor)
{
  Monitor *m = monitor;
  const gchar *method = monitor_http_method (x);
  const gchar *path = monitor_http_path (x);
  gboolean get = g_str_equal (method, "GET") || g_str_equal (method, "HEAD");
  gchar **seg;
  guint n;
  JsonBuilder *b;

  if (g_str_equal (path, "/") || g_str_equal (path, "/index.html")) {
    if (get)
      page (x);
    else
      monitor_http_error (x, MONITOR_HTTP_METHOD_NOT_ALLOWED, "GET only");
    return;
  }
  if (g_str_equal (path, "/metrics") && get) {
    GString *text = g_string_sized_new (64 * 1024);

    monitor_metrics_render (m, text);
    monitor_http_reply (x, MONITOR_HTTP_OK,
        "text/plain; version=0.0.4; charset=utf-8", text);
    return;
  }
  if (g_str_equal (path, "/healthz") && get) {
    monitor_http_reply (x, MONITOR_HTTP_OK, "text/plain",
        g_string_new ("ok\n"));
    return;
  }
  if (!g_str_has_prefix (path, "/api/")) {
    monitor_http_error (x, MONITOR_HTTP_NOT_FOUND, "no such page: see / "
        "(the multiviewer), /metrics, /healthz and /api/");
    return;
  }
  seg = g_strsplit (path + 5, "/", 6);
  n = g_strv_length (seg);

  if (n == 1 && g_str_equal (seg[0], "channels")) {
    if (get) {
      b = json_builder_new ();
      json_builder_begin_array (b);
      for (guint i = 0; i < m->channels->len; i++)
        add_channel_object (b, g_ptr_array_index (m->channels, i), FALSE);
      json_builder_end_array (b);
      reply_json (x, MONITOR_HTTP_OK, b);
    } else if (g_str_equal (method, "POST")) {
      if (need_token (m, x))
        add_channel (m, x);
    } else {
      monitor_http_error (x, MONITOR_HTTP_METHOD_NOT_ALLOWED,
          "GET or POST");
    }
  } else if (n >= 2 && n <= 3 && g_str_equal (seg[0], "channels")) {
    MonitorChannel *c = channel_of (m, seg[1]);

    if (!c) {
      monitor_http_error (x, MONITOR_HTTP_NOT_FOUND, "no such channel");
    } else if (n == 3 && g_str_equal (seg[2], "thumbnail.jpg") && get) {
      GstSample *s = monitor_channel_get_thumbnail (c, NULL);
      GBytes *jpeg = s ? monitor_thumbnail_bytes (s) : NULL;
      thumbnail_reply (x, jpeg);
      if (jpeg)
        g_bytes_unref (jpeg);
      if (s)
        gst_sample_unref (s);
    } else if (n == 3) {
      monitor_http_error (x, MONITOR_HTTP_NOT_FOUND, "no such resource");
    } else if (get) {
      b = json_builder_new ();
      add_channel_object (b, c, TRUE);
      reply_json (x, MONITOR_HTTP_OK, b);
    } else if (g_str_equal (method, "DELETE")) {
      if (need_token (m, x)) {
        monitor_remove_channel (m, c->cfg->name);
        monitor_http_reply (x, MONITOR_HTTP_NO_CONTENT, NULL, NULL);
      }
    } else {
      monitor_http_error (x, MONITOR_HTTP_METHOD_NOT_ALLOWED,
          "GET or DELETE");
    }
  } else if (n == 1 && g_str_equal (seg[0], "thumbnails") && get) {
    reply_json (x, MONITOR_HTTP_OK, thumbnails_tree (m));
  } else if (n == 1 && g_str_equal (seg[0], "events") && get) {
    const gchar *since = monitor_http_query (x, "since");
    const gchar *ch = monitor_http_query (x, "channel");
    guint64 s = 0;

    if (since && !g_ascii_string_to_unsigned (since, 10, 0, G_MAXUINT64, &s,
            NULL)) {
      monitor_http_error (x, MONITOR_HTTP_BAD_REQUEST, "since: an event id "
          "(a whole number) expected");
    } else {
      b = json_builder_new ();
      json_builder_begin_object (b);
      sharpness_json_add_int (b, "last_id",
          (gint64) monitor_events_last_id (m->events));
      json_builder_set_member_name (b, "events");
      monitor_events_add_json (m->events, s, ch, EVENTS_LIMIT, b);
      json_builder_end_object (b);
      reply_json (x, MONITOR_HTTP_OK, b);
    }
  } else if (n == 3 && g_str_equal (seg[0], "events") &&
      g_str_equal (seg[2], "thumbnail.jpg") && get) {
    guint64 id;
    MonitorEvent *e = g_ascii_string_to_unsigned (seg[1], 10, 1, G_MAXUINT64,
        &id, NULL) ? monitor_events_get (m->events, id) : NULL;
    thumbnail_reply (x, e ? e->jpeg : NULL);
    monitor_event_unref (e);
  } else if (n == 4 && g_str_equal (seg[0], "alarms") &&
      g_str_equal (seg[3], "ack")) {
    MonitorChannel *c = channel_of (m, seg[1]);
    gint k = monitor_kind_from_name (seg[2]);

    if (!g_str_equal (method, "POST"))
      monitor_http_error (x, MONITOR_HTTP_METHOD_NOT_ALLOWED, "POST only");
    else if (!need_token (m, x))
      ;
    else if (!c || k < 0)
      monitor_http_error (x, MONITOR_HTTP_NOT_FOUND, "no such channel or "
          "alarm kind");
    else if (!monitor_alarms_ack (&c->alarms, k))
      monitor_http_error (x, MONITOR_HTTP_CONFLICT, "that alarm is not "
          "active");
    else {
      b = json_builder_new ();
      json_builder_begin_object (b);
      sharpness_json_add_bool (b, "acked", TRUE);
      json_builder_end_object (b);
      reply_json (x, MONITOR_HTTP_OK, b);
    }
  } else {
    monitor_http_error (x, MONITOR_HTTP_NOT_FOUND, "no such API call: see "
        "docs/reference/sharpness-monitor.md");
  }
  g_strfreev (seg);
}
