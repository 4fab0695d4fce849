/* JSON text for the tools' outputs (sharpness-scan's report, the monitor's
 * API, events and webhooks): strings escaped so that no input (a file
 * name, a channel name, a stream tag) can end a string or open markup
 * when the JSON is embedded in a page, and numbers that are not finite
 * written as null.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SHARPNESS_TOOL_JSON_H
#define SHARPNESS_TOOL_JSON_H

#include <glib.h>

G_BEGIN_DECLS

/* @s as a JSON string; NULL: null.  '<', '>' and '&' are escaped too
 * (\u003c...), so the text is safe inside an HTML <script>.  The string
 * written is valid UTF-8 whatever @s holds: a byte of @s that starts no
 * valid UTF-8 character is written as U+FFFD (\ufffd). */
void sharpness_json_string (GString * out, const gchar * s);
/* %.10g, or null when not finite. */
void sharpness_json_number (GString * out, gdouble v);

G_END_DECLS
#endif /* SHARPNESS_TOOL_JSON_H */
