/* sharpness-monitor's webhooks: each event POSTed to every --webhook URL
 * as Alertmanager's webhook payload (version 4: firing for a start,
 * resolved for an end, labels alertname, channel and kind), with the
 * thumbnail as an annotation; and to every --alertmanager as alerts of
 * its API (monitor-alertmanager.c), the active ones posted again every
 * refresh period.  Per receiver: one request at a time in event order, a
 * bounded queue (the oldest dropped and counted), retries with backoff,
 * an I/O timeout.  All asynchronous on the main loop: a slow or hung
 * receiver delays its own queue only.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <string.h>

#include <libsoup/soup.h>

#include "monitor-app.h"
#include "sharpness-tool-json.h"

#define QUEUE_MAX 512
#define ATTEMPTS_MAX 8
#define TIMEOUT_S 5
#define BACKOFF_MAX_S 30
/* Active alerts are posted to Alertmanager again this often, each with an
 * endsAt this far ahead: three refreshes lost before it lapses. */
#define AM_REFRESH_S 60
#define AM_LAPSE_US (3 * AM_REFRESH_S * G_USEC_PER_SEC)
#define AM_API_PATH "/api/v2/alerts"

typedef struct
{
  GBytes *body;
  guint attempts;
} Delivery;

typedef struct
{
  MonitorWebhooks *owner;
  gchar *url;
  gboolean alertmanager;        /* API v2 alerts, not the webhook payload */
  GQueue queue;                 /* Delivery */
  gboolean busy;
  guint retry_id;
  guint64 sent, failed, dropped, retries;
} Receiver;

struct _MonitorWebhooks
{
  SoupSession *session;
  GPtrArray *receivers;         /* the webhooks, then the Alertmanagers */
  guint n_webhooks, n_alertmanagers;
  /* Alertmanagers: the start event of each active alarm, by alert_key. */
  GHashTable *active;
  guint refresh_id;
};

static void
delivery_free (Delivery * d)
{
  g_bytes_unref (d->body);
  g_free (d);
}

static void receiver_next (Receiver * r);

static gboolean
retry_cb (gpointer data)
{
  Receiver *r = data;

  r->retry_id = 0;
  receiver_next (r);
  return G_SOURCE_REMOVE;
}

static void
sent_cb (GObject * source, GAsyncResult * res, gpointer data)
{
  Receiver *r = data;
  SoupMessage *msg = soup_session_get_async_result_message (SOUP_SESSION
      (source), res);
  GError *error = NULL;
  GBytes *reply = soup_session_send_and_read_finish (SOUP_SESSION (source),
      res, &error);
  Delivery *d = g_queue_peek_head (&r->queue);
  guint status = msg ? soup_message_get_status (msg) : 0;

  r->busy = FALSE;
  if (reply)
    g_bytes_unref (reply);
  if (!error && status >= 200 && status < 300) {
    r->sent++;
    delivery_free (g_queue_pop_head (&r->queue));
    receiver_next (r);
  } else if (d && ++d->attempts >= ATTEMPTS_MAX) {
    g_printerr ("sharpness-monitor: webhook %s: giving an event up after "
        "%u attempts (%s)\n", r->url, d->attempts, error ? error->message :
        soup_message_get_reason_phrase (msg));
    r->failed++;
    delivery_free (g_queue_pop_head (&r->queue));
    receiver_next (r);
  } else if (d) {
    r->retries++;
    r->retry_id = g_timeout_add_seconds (MIN (1u << MIN (d->attempts - 1,
                5), BACKOFF_MAX_S), retry_cb, r);
  }
  g_clear_error (&error);
}

static void
receiver_next (Receiver * r)
{
  Delivery *d;
  SoupMessage *msg;

  if (r->busy || r->retry_id || !(d = g_queue_peek_head (&r->queue)))
    return;
  msg = soup_message_new (SOUP_METHOD_POST, r->url);
  if (!msg) {
    r->failed++;
    delivery_free (g_queue_pop_head (&r->queue));
    return;
  }
  soup_message_set_request_body_from_bytes (msg, "application/json",
      d->body);
  r->busy = TRUE;
  soup_session_send_and_read_async (r->owner->session, msg,
      G_PRIORITY_DEFAULT, NULL, sent_cb, r);
  g_object_unref (msg);
}

static void
receiver_new (MonitorWebhooks * w, const gchar * url, gboolean alertmanager)
{
  Receiver *r = g_new0 (Receiver, 1);

  r->owner = w;
  r->alertmanager = alertmanager;
  if (alertmanager) {
    gsize n = strlen (url);
    while (n > 0 && url[n - 1] == '/')
      n--;
    r->url = g_strdup_printf ("%.*s" AM_API_PATH, (int) n, url);
  } else {
    r->url = g_strdup (url);
  }
  g_queue_init (&r->queue);
  g_ptr_array_add (w->receivers, r);
}

static void enqueue (Receiver * r, GBytes * body);

/* Every active alarm again, with a new endsAt, to every Alertmanager. */
static gboolean
refresh_cb (gpointer data)
{
  MonitorWebhooks *w = data;
  GPtrArray *events;
  GHashTableIter it;
  gpointer value;
  GBytes *body;

  if (g_hash_table_size (w->active) == 0)
    return G_SOURCE_CONTINUE;
  events = g_ptr_array_sized_new (g_hash_table_size (w->active));
  g_hash_table_iter_init (&it, w->active);
  while (g_hash_table_iter_next (&it, NULL, &value))
    g_ptr_array_add (events, value);
  body = monitor_alertmanager_body ((MonitorEvent * const *) events->pdata,
      events->len, g_get_real_time () + AM_LAPSE_US);
  for (guint i = 0; i < w->receivers->len; i++) {
    Receiver *r = g_ptr_array_index (w->receivers, i);
    if (r->alertmanager)
      enqueue (r, body);
  }
  g_bytes_unref (body);
  g_ptr_array_unref (events);
  return G_SOURCE_CONTINUE;
}

MonitorWebhooks *
monitor_webhooks_new (gchar ** webhooks, gchar ** alertmanagers)
{
  MonitorWebhooks *w;

  if ((!webhooks || !webhooks[0]) && (!alertmanagers || !alertmanagers[0]))
    return NULL;
  w = g_new0 (MonitorWebhooks, 1);
  w->session = soup_session_new_with_options ("timeout", TIMEOUT_S,
      "idle-timeout", 60, "user-agent", "sharpness-monitor/" VERSION, NULL);
  w->receivers = g_ptr_array_new ();
  w->active = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      (GDestroyNotify) monitor_event_unref);
  for (gchar ** u = webhooks; u && *u; u++, w->n_webhooks++)
    receiver_new (w, *u, FALSE);
  for (gchar ** u = alertmanagers; u && *u; u++, w->n_alertmanagers++)
    receiver_new (w, *u, TRUE);
  if (w->n_alertmanagers)
    w->refresh_id = g_timeout_add_seconds (AM_REFRESH_S, refresh_cb, w);
  return w;
}

static gboolean
pending (MonitorWebhooks * w)
{
  for (guint i = 0; i < w->receivers->len; i++) {
    Receiver *r = g_ptr_array_index (w->receivers, i);
    if (!g_queue_is_empty (&r->queue))
      return TRUE;
  }
  return FALSE;
}

static gboolean
expired_cb (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

void
monitor_webhooks_free (MonitorWebhooks * w, guint timeout_ms)
{
  gboolean expired = FALSE;
  guint wake;

  if (!w)
    return;
  wake = g_timeout_add (timeout_ms, expired_cb, &expired);
  while (!expired && pending (w))
    g_main_context_iteration (NULL, TRUE);
  if (!expired)
    g_source_remove (wake);

  if (w->refresh_id)
    g_source_remove (w->refresh_id);
  soup_session_abort (w->session);
  for (guint i = 0; i < w->receivers->len; i++) {
    Receiver *r = g_ptr_array_index (w->receivers, i);
    if (r->retry_id)
      g_source_remove (r->retry_id);
    g_queue_clear_full (&r->queue, (GDestroyNotify) delivery_free);
    g_free (r->url);
    g_free (r);
  }
  g_ptr_array_unref (w->receivers);
  g_hash_table_unref (w->active);
  g_object_unref (w->session);
  g_free (w);
}

/* The alarm an event belongs to: its channel and kind. */
static gchar *
alert_key (const MonitorEvent * e)
{
  return g_strdup_printf ("%s\x1f%s", e->channel, monitor_kind_name (e->kind));
}

static void
labels (GString * out, const MonitorEvent * e)
{
  g_string_append (out, "{\"alertname\":\"SharpnessAlarm\",\"channel\":");
  sharpness_json_string (out, e->channel);
  g_string_append_printf (out, ",\"kind\":\"%s\"}",
      monitor_kind_name (e->kind));
}

static GBytes *
payload (const MonitorEvent * e)
{
  GString *o = g_string_new (NULL);
  const gchar *status = e->is_end ? "resolved" : "firing";
  gchar *key = alert_key (e);
  gchar *fp = g_compute_checksum_for_string (G_CHECKSUM_SHA256, key, -1);
  gchar *group = g_strdup_printf ("{}:{channel=\"%s\", kind=\"%s\"}",
      e->channel, monitor_kind_name (e->kind));

  fp[16] = '\0';
  g_string_append_printf (o, "{\"version\":\"4\",\"groupKey\":");
  sharpness_json_string (o, group);
  g_string_append_printf (o, ",\"truncatedAlerts\":0,\"status\":\"%s\","
      "\"receiver\":\"sharpness-monitor\",\"groupLabels\":", status);
  labels (o, e);
  g_string_append (o, ",\"commonLabels\":");
  labels (o, e);
  g_string_append (o, ",\"commonAnnotations\":{},\"externalURL\":\"\","
      "\"alerts\":[{\"status\":");
  g_string_append_printf (o, "\"%s\",\"labels\":", status);
  labels (o, e);
  g_string_append (o, ",\"annotations\":{\"summary\":");
  {
    gchar *summary = g_strdup_printf ("%s on %s", monitor_kind_name (e->kind),
        e->channel);
    sharpness_json_string (o, summary);
    g_free (summary);
  }
  g_string_append (o, ",\"event\":");
  {
    GString *ev = g_string_new (NULL);
    monitor_event_to_json (e, ev, FALSE);
    sharpness_json_string (o, ev->str);
    g_string_free (ev, TRUE);
  }
  if (e->jpeg) {
    gsize n;
    const guchar *d = g_bytes_get_data (e->jpeg, &n);
    gchar *b64 = g_base64_encode (d, n);
    g_string_append_printf (o, ",\"thumbnail_jpeg_base64\":\"%s\"", b64);
    g_free (b64);
  }
  g_string_append (o, "},\"startsAt\":");
  monitor_rfc3339 (o, e->start_wall_us);
  g_string_append (o, ",\"endsAt\":");
  if (e->is_end)
    monitor_rfc3339 (o, e->end_wall_us);
  else
    g_string_append (o, "\"0001-01-01T00:00:00Z\"");
  g_string_append_printf (o, ",\"generatorURL\":\"\",\"fingerprint\":\"%s\""
      "}]}", fp);
  g_free (fp);
  g_free (key);
  g_free (group);
  return g_string_free_to_bytes (o);
}

static void
enqueue (Receiver * r, GBytes * body)
{
  Delivery *d = g_new0 (Delivery, 1);

  d->body = g_bytes_ref (body);
  /* Full: the oldest waiting event goes (not the one being sent). */
  if (g_queue_get_length (&r->queue) >= QUEUE_MAX) {
    GList *victim = r->busy || r->retry_id ? r->queue.head->next :
        r->queue.head;
    if (victim) {
      delivery_free (victim->data);
      g_queue_delete_link (&r->queue, victim);
      r->dropped++;
    }
  }
  g_queue_push_tail (&r->queue, d);
  receiver_next (r);
}

void
monitor_webhooks_send (MonitorWebhooks * w, MonitorEvent * e)
{
  GBytes *hook = w->n_webhooks ? payload (e) : NULL, *am = NULL;

  if (w->n_alertmanagers) {
    gchar *key = alert_key (e);
    if (e->is_end) {
      g_hash_table_remove (w->active, key);
      g_free (key);
    } else {
      g_hash_table_replace (w->active, key, monitor_event_ref (e));
    }
    am = monitor_alertmanager_body (&e, 1, g_get_real_time () + AM_LAPSE_US);
  }
  for (guint i = 0; i < w->receivers->len; i++) {
    Receiver *r = g_ptr_array_index (w->receivers, i);
    enqueue (r, r->alertmanager ? am : hook);
  }
  if (hook)
    g_bytes_unref (hook);
  if (am)
    g_bytes_unref (am);
}

void
monitor_webhooks_metrics (MonitorWebhooks * w, GString * out)
{
  static const gchar *names[] = { "sent", "failed", "dropped", "retried" };

  if (!w)
    return;
  /* Receivers are numbered in --webhook order, then --alertmanager
   * order: their URLs may hold secrets, which /metrics must not show. */
  g_string_append (out, "# HELP sharpness_webhook_deliveries_total Webhook and "
      "Alertmanager deliveries by outcome (failed: given up after retries; dropped: "
      "queue full; retried: attempts that failed and were retried).\n"
      "# TYPE sharpness_webhook_deliveries_total counter\n");
  for (guint i = 0; i < w->receivers->len; i++) {
    Receiver *r = g_ptr_array_index (w->receivers, i);
    guint64 v[] = { r->sent, r->failed, r->dropped, r->retries };
    for (guint k = 0; k < G_N_ELEMENTS (names); k++)
      g_string_append_printf (out, "sharpness_webhook_deliveries_total{"
          "receiver=\"%u\",outcome=\"%s\"} %" G_GUINT64_FORMAT "\n", i,
          names[k], v[k]);
  }
  g_string_append (out, "# HELP sharpness_webhook_queue_length Events "
      "waiting for a webhook receiver.\n"
      "# TYPE sharpness_webhook_queue_length gauge\n");
  for (guint i = 0; i < w->receivers->len; i++) {
    Receiver *r = g_ptr_array_index (w->receivers, i);
    g_string_append_printf (out, "sharpness_webhook_queue_length{receiver="
        "\"%u\"} %u\n", i, g_queue_get_length (&r->queue));
  }
}
