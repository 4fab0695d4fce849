/* Secrets out of what the tools show: a URI's user information and the
 * values of its credential-like query parameters (passphrase, token, sig,
 * key, password, auth, secret) replaced with "REDACTED", wherever they
 * stand in a text (a channel's URI, a GStreamer error quoting it, a
 * receiver's URL).  The API, the page, events, logs and metrics show only
 * redacted text (docs/reference/sharpness-monitor.md, "Security").
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SHARPNESS_TOOL_REDACT_H
#define SHARPNESS_TOOL_REDACT_H

#include <glib.h>

G_BEGIN_DECLS

#define SHARPNESS_REDACTED "REDACTED"

/* @text with every secret replaced (newly allocated; NULL for NULL). */
gchar *sharpness_redact (const gchar * text);
/* Whether a query parameter named @name (@len bytes) carries a secret. */
gboolean sharpness_redact_is_secret_name (const gchar * name, gsize len);

G_END_DECLS
#endif /* SHARPNESS_TOOL_REDACT_H */
