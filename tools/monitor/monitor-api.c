/* sharpness-monitor's routes: the page, /metrics, /healthz and the JSON
 * API (docs/reference/sharpness-monitor.md, "HTTP API").  Channel names in paths are
 * percent-decoded and looked up, never used as paths; URIs and errors
 * shown are redacted (sharpness-tool-redact.h: user information and
 * credential-like query values).
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

static void
channel_json (MonitorChannel * c, GString * o, gboolean detail)
{
  MonitorChannelStats st;
  gchar *uri = public_uri (c->cfg), *esc, *error;
  guint64 dropped = 0;

  monitor_channel_snapshot (c, &st);
  for (gint r = 0; r < MONITOR_N_DROP_REASONS; r++)
    dropped += st.dropped[r];
  g_string_append (o, "{\"name\":");
  sharpness_json_string (o, c->cfg->name);
  g_string_append (o, ",\"uri\":");
  sharpness_json_string (o, uri);
  g_free (uri);
  g_string_append_printf (o, ",\"state\":\"%s\",\"up\":%s,\"metric\":\"%s\","
      "\"threshold\":", monitor_channel_state_name (c->state),
      c->state == MONITOR_CHANNEL_UP ? "true" : "false",
      sharpness_metric_info[c->cfg->metric].nick);
  sharpness_json_number (o, c->cfg->threshold);
  g_string_append_printf (o, ",\"direction\":%d,\"score\":",
      sharpness_metric_info[c->cfg->metric].direction);
  sharpness_json_number (o, st.score);
  g_string_append (o, ",\"content_state\":");
  sharpness_json_string (o, st.content_state);
  g_string_append_printf (o, ",\"frames_decoded\":%" G_GUINT64_FORMAT
      ",\"frames_scored\":%" G_GUINT64_FORMAT ",\"frames_dropped\":%"
      G_GUINT64_FORMAT ",\"blurry_frames\":%" G_GUINT64_FORMAT
      ",\"reconnects\":%" G_GUINT64_FORMAT ",\"restarts\":%" G_GUINT64_FORMAT
      ",\"width\":%d,\"height\":%d,\"fps\":", st.decoded, st.scored,
      dropped, st.blurry, c->reconnects, c->restarts,
      st.width, st.height);
  sharpness_json_number (o, st.fps_d ? (gdouble) st.fps_n / st.fps_d : NAN);
  g_string_append (o, ",\"codec\":");
  sharpness_json_string (o, c->codec);
  g_string_append (o, ",\"last_error\":");
  error = sharpness_redact (c->last_error);
  sharpness_json_string (o, error);
  g_free (error);
  if (c->cfg->compare_with) {
    g_string_append (o, ",\"compare_with\":");
    sharpness_json_string (o, c->cfg->compare_with);
    g_string_append (o, ",\"psnr\":");
    sharpness_json_number (o, st.psnr);
    g_string_append (o, ",\"ssim\":");
    sharpness_json_number (o, st.ssim);
  }
  if (c->transport) {
    MonitorTransportStats ts;
    JsonNode *scte35;

    monitor_transport_snapshot (c->transport, &ts);
    if (ts.seen) {
      g_string_append_printf (o, ",\"transport\":{\"in_sync\":%s,"
          "\"packets\":%" G_GUINT64_FORMAT ",\"bitrate\":",
          ts.in_sync ? "true" : "false", ts.packets);
      sharpness_json_number (o, ts.bitrate);
      g_string_append (o, ",\"errors\":{");
      for (gint k = 0; k < SHARPNESS_TR101290_N_INDICATORS; k++)
        g_string_append_printf (o, "%s\"%s\":%" G_GUINT64_FORMAT, k ? "," :
            "", monitor_transport_indicator_name (k), ts.errors[k]);
      /* The last error of each indicator raised: where and what. */
      g_string_append (o, "},\"last_errors\":{");
      for (gint k = 0, first = 1; k < SHARPNESS_TR101290_N_INDICATORS; k++) {
        const MonitorTransportError *l = &ts.last[k];
        if (!ts.errors[k])
          continue;
        g_string_append_printf (o, "%s\"%s\":{\"priority\":%u,\"packet\":%"
            G_GUINT64_FORMAT ",\"pid\":%d,\"value\":%" G_GINT64_FORMAT
            ",\"expected\":%" G_GINT64_FORMAT ",\"time\":%.3f}",
            first ? "" : ",", monitor_transport_indicator_name (k),
            monitor_transport_indicator_priority (k), l->packet, l->pid,
            l->value, l->expected, l->wall_us / 1e6);
        first = 0;
      }
      g_string_append_c (o, '}');
      /* "scte35", where the transport declares it (monitor-scte35.c). */
      if ((scte35 = monitor_scte35_api_node (&ts))) {
        g_string_append (o, ",\"scte35\":");
        sharpness_json_node (o, scte35);
        json_node_unref (scte35);
      }
      g_string_append_c (o, '}');
    }
  }
  {
    MonitorLoudnessReading lr;

    monitor_loudness_peek (c->loudness, &lr);
    if (lr.measured) {
      g_string_append (o, ",\"loudness\":{\"momentary\":");
      sharpness_json_number (o, lr.momentary);
      g_string_append (o, ",\"short_term\":");
      sharpness_json_number (o, lr.short_term);
      g_string_append (o, ",\"integrated\":");
      sharpness_json_number (o, lr.integrated);
      g_string_append (o, ",\"range\":");
      sharpness_json_number (o, lr.range);
      g_string_append (o, ",\"true_peak\":");
      sharpness_json_number (o, lr.true_peak);
      g_string_append_c (o, '}');
    }
  }
  {
    /* Captions: present while pictures with captions keep coming; the
     * seconds since the last one (null: none yet); the counts. */
    MonitorCaptionsStats cs;
    gint64 age = 0;

    monitor_captions_snapshot (c->captions, &cs);
    if (cs.last_caption_us)
      age = g_get_monotonic_time () - cs.last_caption_us;
    g_string_append_printf (o, ",\"captions\":{\"present\":%s,\"age\":",
        cs.last_caption_us && age <= MONITOR_CAPTIONS_GAP_US ? "true" :
        "false");
    sharpness_json_number (o, cs.last_caption_us ? age / 1e6 : NAN);
    g_string_append_printf (o, ",\"frames\":%" G_GUINT64_FORMAT
        ",\"packets\":{", cs.frames);
    for (gint t = 0; t < MONITOR_CAPTION_N_TYPES; t++)
      g_string_append_printf (o, "%s\"%s\":%" G_GUINT64_FORMAT, t ? "," :
          "", monitor_caption_type_name (t), cs.packets[t]);
    g_string_append (o, "}}");
  }
  g_string_append (o, ",\"alarms\":{");
  for (gint k = 0, first = 1; k < MONITOR_N_KINDS; k++) {
    const MonitorAlarmState *a = &c->alarms.kinds[k];
    if (!c->cfg->kinds[k].enabled)
      continue;
    g_string_append_printf (o, "%s\"%s\":{\"active\":%s,\"acked\":%s,"
        "\"events\":%" G_GUINT64_FORMAT ",\"last_change\":%.3f}",
        first ? "" : ",", monitor_kind_name (k), a->active ? "true" :
        "false", a->acked ? "true" : "false", a->events_total,
        a->last_change_us / 1e6);
    first = 0;
  }
  g_string_append_c (o, '}');
  if (st.tiles_cols) {
    g_string_append_printf (o, ",\"tiles\":{\"cols\":%u,\"rows\":%u,"
        "\"scores\":[", st.tiles_cols, st.tiles_rows);
    for (guint i = 0; i < st.tiles_cols * st.tiles_rows; i++) {
      if (i)
        g_string_append_c (o, ',');
      sharpness_json_number (o, st.tiles[i]);
    }
    g_string_append (o, "]}");
  }
  g_string_append (o, ",\"sparkline\":[");
  for (guint i = 0; i < c->spark_n; i++) {
    guint at = (c->spark_pos + MONITOR_SPARK_POINTS - c->spark_n + i) %
        MONITOR_SPARK_POINTS;
    if (i)
      g_string_append_c (o, ',');
    sharpness_json_number (o, c->spark[at]);
  }
  esc = g_uri_escape_string (c->cfg->name, NULL, FALSE);
  g_string_append_printf (o, "],\"thumbnail\":\"/api/channels/%s/"
      "thumbnail.jpg\",\"thumbnail_seq\":%" G_GUINT64_FORMAT, esc,
      c->thumb_seen_seq);
  g_free (esc);
  if (detail) {
    const MonitorKindSettings *ks = c->cfg->kinds;
    g_string_append (o, ",\"settings\":{");
    for (gint k = 0; k < MONITOR_N_KINDS; k++) {
      g_string_append_printf (o, "%s\"%s\":{\"enabled\":%s,\"onset\":",
          k ? "," : "", monitor_kind_name (k), ks[k].enabled ? "true" :
          "false");
      sharpness_json_number (o, ks[k].onset);
      g_string_append (o, ",\"clear\":");
      sharpness_json_number (o, ks[k].clear);
      g_string_append_c (o, '}');
    }
    g_string_append_c (o, '}');
  }
  g_string_append_c (o, '}');
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
static void
thumbnails_json (Monitor * m, GString * b)
{
  gboolean first = TRUE;

  g_string_append_c (b, '[');
  for (guint i = 0; i < m->channels->len; i++) {
    MonitorChannel *c = g_ptr_array_index (m->channels, i);
    guint64 seq = 0;
    GstSample *s = monitor_channel_get_thumbnail (c, &seq);
    GBytes *jpeg = s ? monitor_thumbnail_bytes (s) : NULL;

    if (jpeg) {
      gsize n;
      const guchar *d = g_bytes_get_data (jpeg, &n);
      gchar *b64 = g_base64_encode (d, n);

      g_string_append (b, first ? "{\"name\":" : ",{\"name\":");
      first = FALSE;
      sharpness_json_string (b, c->cfg->name);
      g_string_append_printf (b, ",\"thumbnail_seq\":%" G_GUINT64_FORMAT
          ",\"thumbnail_jpeg_base64\":\"%s\"}", seq, b64);
      g_free (b64);
      g_bytes_unref (jpeg);
    }
    if (s)
      gst_sample_unref (s);
  }
  g_string_append (b, "]\n");
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
    GString *b = g_string_new (NULL);
    channel_json (monitor_find_channel (m, cfg.name), b, TRUE);
    monitor_http_reply (x, MONITOR_HTTP_CREATED, "application/json", b);
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
  GString *b;

  if (g_str_equal (path, "/") || g_str_equal (path, "/index.html")) {
    if (get)
      page (x);
    else
      monitor_http_error (x, MONITOR_HTTP_METHOD_NOT_ALLOWED, "GET only");
    return;
  }
  if (g_str_equal (path, "/metrics") && get) {
    b = g_string_sized_new (64 * 1024);
    monitor_metrics_render (m, b);
    monitor_http_reply (x, MONITOR_HTTP_OK,
        "text/plain; version=0.0.4; charset=utf-8", b);
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
      b = g_string_new ("[");
      for (guint i = 0; i < m->channels->len; i++) {
        if (i)
          g_string_append_c (b, ',');
        channel_json (g_ptr_array_index (m->channels, i), b, FALSE);
      }
      g_string_append (b, "]\n");
      monitor_http_reply (x, MONITOR_HTTP_OK, "application/json", b);
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
      b = g_string_new (NULL);
      channel_json (c, b, TRUE);
      g_string_append_c (b, '\n');
      monitor_http_reply (x, MONITOR_HTTP_OK, "application/json", b);
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
    b = g_string_sized_new (4096 * (m->channels->len + 1));
    thumbnails_json (m, b);
    monitor_http_reply (x, MONITOR_HTTP_OK, "application/json", b);
  } else if (n == 1 && g_str_equal (seg[0], "events") && get) {
    const gchar *since = monitor_http_query (x, "since");
    const gchar *ch = monitor_http_query (x, "channel");
    guint64 s = 0;

    if (since && !g_ascii_string_to_unsigned (since, 10, 0, G_MAXUINT64, &s,
            NULL)) {
      monitor_http_error (x, MONITOR_HTTP_BAD_REQUEST, "since: an event id "
          "(a whole number) expected");
    } else {
      b = g_string_new (NULL);
      g_string_append_printf (b, "{\"last_id\":%" G_GUINT64_FORMAT
          ",\"events\":", monitor_events_last_id (m->events));
      monitor_events_json (m->events, s, ch, EVENTS_LIMIT, b);
      g_string_append (b, "}\n");
      monitor_http_reply (x, MONITOR_HTTP_OK, "application/json", b);
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
    else
      monitor_http_reply (x, MONITOR_HTTP_OK, "application/json",
          g_string_new ("{\"acked\":true}\n"));
  } else {
    monitor_http_error (x, MONITOR_HTTP_NOT_FOUND, "no such API call: see "
        "docs/reference/sharpness-monitor.md");
  }
  g_strfreev (seg);
}
