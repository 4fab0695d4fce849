/* sharpness-monitor's HTTP: what the server (monitor-http.c) and the
 * routes (monitor-api.c) share.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef MONITOR_HTTP_H
#define MONITOR_HTTP_H

#include <libsoup/soup.h>

#include "monitor-app.h"
#include "sharpness-tool-json.h"

G_BEGIN_DECLS

/* Sets the status and (taking @body, may be NULL) the body. */
void monitor_http_reply (SoupServerMessage * msg, guint status,
    const gchar * type, GString * body);
/* A JSON error: {"error": @message}. */
void monitor_http_error (SoupServerMessage * msg, guint status,
    const gchar * message);
/* Whether the request carries the API token. */
gboolean monitor_http_token_ok (Monitor * m, SoupServerMessage * msg);
/* Answers @msg (monitor-api.c). */
void monitor_api_route (Monitor * m, SoupServerMessage * msg,
    const gchar * path, GHashTable * query);

G_END_DECLS
#endif /* MONITOR_HTTP_H */
