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
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* @s as a JSON string; NULL: null.  '<', '>' and '&' are escaped too
 * (\u003c...), so the text is safe inside an HTML <script>.  The string
 * written is valid UTF-8 whatever @s holds: a byte of @s that starts no
 * valid UTF-8 character is written as U+FFFD (\ufffd). */
void sharpness_json_string (GString * out, const gchar * s);
/* %.10g, or null when not finite. */
void sharpness_json_number (GString * out, gdouble v);
/* @node (built with json-glib's JsonBuilder) as JSON text, written as
 * above: strings by sharpness_json_string, doubles by
 * sharpness_json_number, integers whole, members in the order they were
 * added.  Not json-glib's generator: in json-glib 1.6 (Debian 12) it
 * writes 1e21 as 1e+21.0 and 0.1 as 0.10000000000000001, and copies bytes
 * that are not UTF-8 into the text, none of which a JSON reader takes. */
void sharpness_json_node (GString * out, JsonNode * node);

G_END_DECLS
#endif /* SHARPNESS_TOOL_JSON_H */
