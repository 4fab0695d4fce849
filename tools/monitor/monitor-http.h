/* sharpness-monitor's HTTP: what the server (monitor-http.c) and the
 * routes (monitor-api.c) share.  The routes see one exchange, a request
 * and the answer being made, and nothing of the server library; the
 * server knows nothing of the monitor: its owner hands it the routes as a
 * callback.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef MONITOR_HTTP_H
#define MONITOR_HTTP_H

#include "monitor.h"
#include "sharpness-tool-json.h"

G_BEGIN_DECLS

/* The statuses the monitor answers with. */
typedef enum
{
  MONITOR_HTTP_OK = 200,
  MONITOR_HTTP_CREATED = 201,
  MONITOR_HTTP_NO_CONTENT = 204,
  MONITOR_HTTP_BAD_REQUEST = 400,
  MONITOR_HTTP_UNAUTHORIZED = 401,
  MONITOR_HTTP_FORBIDDEN = 403,
  MONITOR_HTTP_NOT_FOUND = 404,
  MONITOR_HTTP_METHOD_NOT_ALLOWED = 405,
  MONITOR_HTTP_CONFLICT = 409,
  MONITOR_HTTP_PAYLOAD_TOO_LARGE = 413,
  MONITOR_HTTP_MISDIRECTED = 421,
  MONITOR_HTTP_INTERNAL_ERROR = 500,
  MONITOR_HTTP_UNAVAILABLE = 503,
} MonitorHttpStatus;

/* One request (method, path, query, token, body of at most 64 KiB, read
 * whole before the route runs) and its answer (set by the route). */
typedef struct _MonitorHttpExchange MonitorHttpExchange;

const gchar *monitor_http_method (MonitorHttpExchange * x);
/* The path, percent-decoded by segment only where the route decodes it. */
const gchar *monitor_http_path (MonitorHttpExchange * x);
/* A query argument's value, or NULL. */
const gchar *monitor_http_query (MonitorHttpExchange * x, const gchar * key);
/* The request body (may be empty, never NULL). */
const gchar *monitor_http_body (MonitorHttpExchange * x, gsize * len);

/* Sets the status and (taking @body, may be NULL) the body. */
void monitor_http_reply (MonitorHttpExchange * x, MonitorHttpStatus status,
    const gchar * type, GString * body);
/* The same, with the bytes of @body (a reference is taken). */
void monitor_http_reply_bytes (MonitorHttpExchange * x,
    MonitorHttpStatus status, const gchar * type, GBytes * body);
/* A JSON error: {"error": @message}. */
void monitor_http_error (MonitorHttpExchange * x, MonitorHttpStatus status,
    const gchar * message);
/* Adds a header to the answer. */
void monitor_http_header (MonitorHttpExchange * x, const gchar * name,
    const gchar * value);
/* Whether the request carries @token (NULL: never). */
gboolean monitor_http_token_ok (MonitorHttpExchange * x, const gchar * token);

typedef struct _MonitorHttp MonitorHttp;
/* Answers @x (on the main loop): sets its status and body. */
typedef void (*MonitorHttpRoute) (MonitorHttpExchange * x, gpointer data);

/* Serves @s->listen (and the --allowed-host names) on the main loop;
 * every request whole is handed to @route. */
MonitorHttp *monitor_http_new (const MonitorSettings * s,
    MonitorHttpRoute route, gpointer route_data, GError ** error);
void monitor_http_free (MonitorHttp * h);
/* Open connections (for /metrics). */
guint monitor_http_connections (MonitorHttp * h);

G_END_DECLS
#endif /* MONITOR_HTTP_H */
