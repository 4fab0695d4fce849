/* sharpness-monitor's webhooks: each event POSTed to every --webhook URL
 * as Alertmanager's webhook payload (version 4: firing for a start,
 * resolved for an end, labels alertname, channel and kind), with the
 * thumbnail as an annotation; and to every --alertmanager as alerts of
 * its API (monitor-alertmanager.c), the active ones posted again every
 * refresh period.  Per receiver: one request at a time in event order, a
 * bounded queue (the oldest dropped and counted), retries with backoff.
 * A receiver is not trusted to answer well: each delivery has a total
 * deadline (connect, send, answer) besides the I/O timeout, which a
 * receiver dripping its answer never trips; of the answer only the
 * status line, the headers and ANSWER_MAX bytes of body are read, then
 * the connection is dropped.  Each receiver has a session of its own, so
 * that receivers that hang hold their own connections, never another's.
 * All asynchronous on the main loop: a slow or hung receiver delays its
 * own queue only.  A receiver's URL may hold credentials: the log shows
 * it redacted, /metrics numbers it.
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
#include "sharpness-tool-redact.h"

#define QUEUE_MAX 512
#define ATTEMPTS_MAX 8
/* No byte for this long: the attempt fails (libsoup's I/O timeout). */
#define TIMEOUT_S 5
/* A delivery's whole, from connecting to the end of the answer read. */
#define DEADLINE_S 10
/* Body bytes of an answer read; a longer answer's connection is closed
 * (a receiver answering an endless body costs nothing more). */
#define ANSWER_MAX 4096
#define BACKOFF_MAX_S 30
/* What a failing receiver's log line quotes of its reason phrase. */
#define REASON_MAX 80
/* At exit: how long the cancelled attempts get to unwind. */
#define UNWIND_MS 1000
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
  gchar *shown;                 /* the URL redacted: what the log says */
  gboolean alertmanager;        /* API v2 alerts, not the webhook payload */
  SoupSession *session;
  GQueue queue;                 /* Delivery */
  guint retry_id;
  /* The attempt in flight (busy): its message, the answer being read,
   * what cancels it (the deadline, a long answer, the exit). */
  gboolean busy;
  SoupMessage *msg;
  GInputStream *answer;
  GCancellable *cancellable;
  guint deadline_id;
  gboolean timed_out;
  gsize answer_len;
  GError *error;
  guint8 scratch[ANSWER_MAX];   /* the answer's body, read and dropped */
  /* Failing since its last delivered event: logged once each way. */
  gboolean failing;
  guint64 given_up;             /* events given up while failing */
  guint64 sent, failed, dropped, retries;
} Receiver;

struct _MonitorWebhooks
{
  GPtrArray *receivers;         /* the webhooks, then the Alertmanagers */
  guint n_webhooks, n_alertmanagers;
  /* Alertmanagers: the start event of each active alarm, by alert_key. */
  GHashTable *active;
  guint refresh_id;
  gboolean closing;             /* no new attempt, no retry */
};

static void
delivery_free (Delivery * d)
{
  g_bytes_unref (d->body);
  g_free (d);
}

static const gchar *
receiver_kind (const Receiver * r)
{
  return r->alertmanager ? "alertmanager" : "webhook";
}

/* Why the attempt failed, for the log: the receiver's own words (its
 * reason phrase, an error naming its host) redacted, cut short, valid
 * UTF-8 and without control characters (a hostile receiver chooses them:
 * no terminal escape reaches the log). */
static gchar *
failure_reason (Receiver * r, guint status)
{
  gchar *raw, *redacted, *shown;

  if (r->timed_out)
    raw = g_strdup_printf ("no complete answer within %d s", DEADLINE_S);
  else if (r->error)
    raw = g_strdup (r->error->message);
  else {
    const gchar *phrase = r->msg ? soup_message_get_reason_phrase (r->msg) :
        NULL;
    raw = g_strdup_printf ("HTTP %u %.*s", status, REASON_MAX,
        phrase ? phrase : "");
  }
  redacted = sharpness_redact (raw);
  shown = g_utf8_make_valid (redacted, -1);
  for (gchar * c = shown; *c; c++)
    if (g_ascii_iscntrl (*c))
      *c = '?';
  g_free (redacted);
  g_free (raw);
  return shown;
}

static void
log_failing (Receiver * r, guint status)
{
  gchar *reason = failure_reason (r, status);

  g_printerr ("sharpness-monitor: %s %s: failing (%s); retried up to %d "
      "times per event, logged again once it recovers\n", receiver_kind (r),
      r->shown, reason, ATTEMPTS_MAX);
  g_free (reason);
}

static void
log_recovered (Receiver * r)
{
  g_printerr ("sharpness-monitor: %s %s: recovered (%" G_GUINT64_FORMAT
      " event(s) given up while it failed)\n", receiver_kind (r), r->shown,
      r->given_up);
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

/* A receiver's state, failing or not, logged where it changes. */
static void
receiver_set_failing (Receiver * r, gboolean failing, guint status)
{
  if (failing && !r->failing)
    log_failing (r, status);
  else if (!failing && r->failing)
    log_recovered (r);
  if (!failing)
    r->given_up = 0;
  r->failing = failing;
}

/* Lets the attempt in flight go; whether it delivered. */
static gboolean
attempt_finish (Receiver * r)
{
  guint status = r->msg ? soup_message_get_status (r->msg) : 0;
  gboolean ok = !r->error && !r->timed_out && status >= 200 && status < 300;

  /* Cancelled at the exit, it says nothing of the receiver. */
  if (!r->owner->closing)
    receiver_set_failing (r, !ok, status);
  if (r->deadline_id)
    g_source_remove (r->deadline_id);
  r->deadline_id = 0;
  g_clear_error (&r->error);
  g_clear_object (&r->cancellable);
  g_clear_object (&r->msg);
  r->timed_out = FALSE;
  r->busy = FALSE;
  return ok;
}

/* The outcome of the attempt in flight: the head of the queue delivered,
 * or retried with backoff, or given up after ATTEMPTS_MAX. */
static void
attempt_end (Receiver * r)
{
  gboolean ok = attempt_finish (r);
  Delivery *d = g_queue_peek_head (&r->queue);

  if (r->owner->closing)
    return;
  if (ok) {
    r->sent++;
    delivery_free (g_queue_pop_head (&r->queue));
    receiver_next (r);
  } else if (++d->attempts >= ATTEMPTS_MAX) {
    r->failed++;
    r->given_up++;
    delivery_free (g_queue_pop_head (&r->queue));
    receiver_next (r);
  } else {
    r->retries++;
    r->retry_id = g_timeout_add_seconds (MIN (1u << MIN (d->attempts - 1,
                5), BACKOFF_MAX_S), retry_cb, r);
  }
}

static void
answer_closed_cb (GObject * source, GAsyncResult * res, gpointer data)
{
  Receiver *r = data;

  /* A close cancelled on purpose (a long answer, the deadline) fails:
   * what counts is the status, or the error, met before. */
  g_input_stream_close_finish (G_INPUT_STREAM (source), res, NULL);
  g_clear_object (&r->answer);
  attempt_end (r);
}

/* Ends reading the answer.  Closing a stream whose body is not at its end
 * makes libsoup read the rest to keep the connection: cancelled first, the
 * close drops the connection instead. */
static void
answer_close (Receiver * r, gboolean drop)
{
  if (drop)
    g_cancellable_cancel (r->cancellable);
  g_input_stream_close_async (r->answer, G_PRIORITY_DEFAULT,
      r->cancellable, answer_closed_cb, r);
}

static void answer_read (Receiver * r);

static void
answer_read_cb (GObject * source, GAsyncResult * res, gpointer data)
{
  Receiver *r = data;
  gssize n = g_input_stream_read_finish (G_INPUT_STREAM (source), res,
      &r->error);

  if (n < 0) {
    answer_close (r, TRUE);
  } else if (n == 0) {
    answer_close (r, FALSE);
  } else {
    r->answer_len += n;
    if (r->answer_len >= ANSWER_MAX)
      answer_close (r, TRUE);
    else
      answer_read (r);
  }
}

static void
answer_read (Receiver * r)
{
  g_input_stream_read_async (r->answer, r->scratch, ANSWER_MAX -
      r->answer_len, G_PRIORITY_DEFAULT, r->cancellable, answer_read_cb, r);
}

static void
sent_cb (GObject * source, GAsyncResult * res, gpointer data)
{
  Receiver *r = data;

  r->answer = soup_session_send_finish (SOUP_SESSION (source), res,
      &r->error);
  if (!r->answer) {
    attempt_end (r);
    return;
  }
  r->answer_len = 0;
  answer_read (r);
}

static gboolean
deadline_cb (gpointer data)
{
  Receiver *r = data;

  r->deadline_id = 0;
  r->timed_out = TRUE;
  g_cancellable_cancel (r->cancellable);
  return G_SOURCE_REMOVE;
}

static void
receiver_next (Receiver * r)
{
  Delivery *d;

  while (!r->busy && !r->retry_id && !r->owner->closing &&
      (d = g_queue_peek_head (&r->queue))) {
    r->msg = soup_message_new (SOUP_METHOD_POST, r->url);
    if (!r->msg) {
      /* Checked at the start: not expected. */
      r->failed++;
      delivery_free (g_queue_pop_head (&r->queue));
      continue;
    }
    soup_message_set_request_body_from_bytes (r->msg, "application/json",
        d->body);
    r->busy = TRUE;
    r->cancellable = g_cancellable_new ();
    r->deadline_id = g_timeout_add_seconds (DEADLINE_S, deadline_cb, r);
    soup_session_send_async (r->session, r->msg, G_PRIORITY_DEFAULT,
        r->cancellable, sent_cb, r);
  }
}

/* Alertmanager's API under its base URL, the base's query kept after the
 * path (a proxy's token, say). */
static gchar *
alertmanager_url (const gchar * base)
{
  const GUriFlags flags = G_URI_FLAGS_ENCODED;
  GUri *u = g_uri_parse (base, flags, NULL), *api;
  gchar *path, *url;
  gsize n;

  if (!u)                       /* checked at the start: not expected */
    return g_strconcat (base, AM_API_PATH, NULL);
  n = strlen (g_uri_get_path (u));
  while (n > 0 && g_uri_get_path (u)[n - 1] == '/')
    n--;
  path = g_strdup_printf ("%.*s" AM_API_PATH, (int) n, g_uri_get_path (u));
  api = g_uri_build (flags, g_uri_get_scheme (u), g_uri_get_userinfo (u),
      g_uri_get_host (u), g_uri_get_port (u), path, g_uri_get_query (u),
      g_uri_get_fragment (u));
  url = g_uri_to_string (api);
  g_uri_unref (api);
  g_uri_unref (u);
  g_free (path);
  return url;
}

static void
receiver_new (MonitorWebhooks * w, const gchar * url, gboolean alertmanager)
{
  Receiver *r = g_new0 (Receiver, 1);

  r->owner = w;
  r->alertmanager = alertmanager;
  r->url = alertmanager ? alertmanager_url (url) : g_strdup (url);
  r->shown = sharpness_redact (r->url);
  /* One connection: one request at a time. */
  r->session = soup_session_new_with_options ("timeout", TIMEOUT_S,
      "idle-timeout", 60, "max-conns", 1, "max-conns-per-host", 1,
      "user-agent", "sharpness-monitor/" VERSION, NULL);
  g_queue_init (&r->queue);
  g_ptr_array_add (w->receivers, r);
}

static void
receiver_free (Receiver * r)
{
  if (r->retry_id)
    g_source_remove (r->retry_id);
  g_queue_clear_full (&r->queue, (GDestroyNotify) delivery_free);
  g_object_unref (r->session);
  g_free (r->shown);
  g_free (r->url);
  g_free (r);
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

static gboolean
busy (MonitorWebhooks * w)
{
  for (guint i = 0; i < w->receivers->len; i++)
    if (((Receiver *) g_ptr_array_index (w->receivers, i))->busy)
      return TRUE;
  return FALSE;
}

/* Runs the main context until @done (@w) is false or @ms have passed. */
static void
run_while (MonitorWebhooks * w, gboolean (*done) (MonitorWebhooks *),
    guint ms)
{
  gboolean expired = FALSE;
  guint wake = g_timeout_add (ms, expired_cb, &expired);

  while (!expired && done (w))
    g_main_context_iteration (NULL, TRUE);
  if (!expired)
    g_source_remove (wake);
}

void
monitor_webhooks_free (MonitorWebhooks * w, guint timeout_ms)
{
  if (!w)
    return;
  run_while (w, pending, timeout_ms);

  /* The attempts still in flight are cancelled and unwind through their
   * callbacks, which start nothing new once closing. */
  w->closing = TRUE;
  if (w->refresh_id)
    g_source_remove (w->refresh_id);
  for (guint i = 0; i < w->receivers->len; i++) {
    Receiver *r = g_ptr_array_index (w->receivers, i);
    if (r->busy)
      g_cancellable_cancel (r->cancellable);
  }
  run_while (w, busy, UNWIND_MS);
  /* An attempt that has not unwound yet (not expected) would write to
   * its receiver after: everything is left to the process' exit. */
  if (busy (w))
    return;
  for (guint i = 0; i < w->receivers->len; i++)
    receiver_free (g_ptr_array_index (w->receivers, i));
  g_ptr_array_unref (w->receivers);
  g_hash_table_unref (w->active);
  g_free (w);
}

/* The alarm an event belongs to: its channel and kind. */
static gchar *
alert_key (const MonitorEvent * e)
{
  return g_strdup_printf ("%s\x1f%s", e->channel, monitor_kind_name (e->kind));
}

static void
add_labels (JsonBuilder * b, const gchar * key, const MonitorEvent * e)
{
  sharpness_json_begin_object (b, key);
  sharpness_json_add_string (b, "alertname", "SharpnessAlarm");
  sharpness_json_add_string (b, "channel", e->channel);
  sharpness_json_add_string (b, "kind", monitor_kind_name (e->kind));
  json_builder_end_object (b);
}

/* The one alert of the payload: its labels, the event (whole, as JSON
 * text, and its thumbnail) as annotations. */
static void
add_alert (JsonBuilder * b, const MonitorEvent * e, const gchar * status,
    const gchar * fingerprint)
{
  gchar *summary = g_strdup_printf ("%s on %s", monitor_kind_name (e->kind),
      e->channel);
  GString *ev = g_string_new (NULL);
  /* Alertmanager's webhook times: RFC 3339 with milliseconds; a firing
   * alert's end is Go's zero time, as Alertmanager sends it. */
  gchar *starts = monitor_rfc3339 (e->start_wall_us, 3);
  gchar *ends = e->is_end ? monitor_rfc3339 (e->end_wall_us, 3) : NULL;

  monitor_event_to_json (e, ev, FALSE);
  sharpness_json_begin_object (b, NULL);
  sharpness_json_add_string (b, "status", status);
  add_labels (b, "labels", e);
  sharpness_json_begin_object (b, "annotations");
  sharpness_json_add_string (b, "summary", summary);
  sharpness_json_add_string (b, "event", ev->str);
  if (e->jpeg) {
    gsize n;
    const guchar *d = g_bytes_get_data (e->jpeg, &n);
    gchar *b64 = g_base64_encode (d, n);

    sharpness_json_add_string (b, "thumbnail_jpeg_base64", b64);
    g_free (b64);
  }
  json_builder_end_object (b);
  sharpness_json_add_string (b, "startsAt", starts);
  sharpness_json_add_string (b, "endsAt", ends ? ends :
      "0001-01-01T00:00:00Z");
  sharpness_json_add_string (b, "generatorURL", "");
  sharpness_json_add_string (b, "fingerprint", fingerprint);
  json_builder_end_object (b);
  g_free (ends);
  g_free (starts);
  g_string_free (ev, TRUE);
  g_free (summary);
}

/* Alertmanager's webhook payload (version 4) for one event. */
static GBytes *
payload (const MonitorEvent * e)
{
  JsonBuilder *b = json_builder_new ();
  GString *o = g_string_new (NULL);
  const gchar *status = e->is_end ? "resolved" : "firing";
  gchar *key = alert_key (e);
  gchar *fp = g_compute_checksum_for_string (G_CHECKSUM_SHA256, key, -1);
  gchar *group = g_strdup_printf ("{}:{channel=\"%s\", kind=\"%s\"}",
      e->channel, monitor_kind_name (e->kind));

  fp[16] = '\0';
  json_builder_begin_object (b);
  sharpness_json_add_string (b, "version", "4");
  sharpness_json_add_string (b, "groupKey", group);
  sharpness_json_add_int (b, "truncatedAlerts", 0);
  sharpness_json_add_string (b, "status", status);
  sharpness_json_add_string (b, "receiver", "sharpness-monitor");
  add_labels (b, "groupLabels", e);
  add_labels (b, "commonLabels", e);
  sharpness_json_begin_object (b, "commonAnnotations");
  json_builder_end_object (b);
  sharpness_json_add_string (b, "externalURL", "");
  sharpness_json_begin_array (b, "alerts");
  add_alert (b, e, status, fp);
  json_builder_end_array (b);
  json_builder_end_object (b);
  sharpness_json_write_builder (o, b, SHARPNESS_JSON_COMPACT);
  g_object_unref (b);
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
