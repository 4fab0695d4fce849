/* JSON for the tools' outputs (sharpness-scan's JSON, the monitor's API,
 * events and webhooks): objects built as json-glib trees (JsonBuilder,
 * with the member helpers below) and written by one writer, whose strings
 * are escaped so that no input (a file name, a channel name, a stream tag)
 * can end a string or open markup when the JSON is embedded in a page,
 * and whose numbers read back as the very double the tree holds.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SHARPNESS_TOOL_JSON_H
#define SHARPNESS_TOOL_JSON_H

#include <glib.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/* How the writer separates members and elements. */
typedef enum
{
  /* {"a":1,"b":[1,2]}: answers read by programs (the monitor). */
  SHARPNESS_JSON_COMPACT,
  /* {"a": 1, "b": [1, 2]}: files people also read (the scan's JSON). */
  SHARPNESS_JSON_SPACED,
} SharpnessJsonStyle;

/* @s as a JSON string; NULL: null.  '<', '>' and '&' are escaped too
 * (\u003c...), so the text is safe inside an HTML <script>.  The string
 * written is valid UTF-8 whatever @s holds: a byte of @s that starts no
 * valid UTF-8 character is written as U+FFFD (\ufffd). */
void sharpness_json_string (GString * out, const gchar * s);
/* @v as the shortest of %.10g, %.15g and %.17g that reads back as @v
 * (every bit, and no noise digits: 0.1, not 0.10000000000000001); null
 * when not finite.  A measurement added by sharpness_json_add_number ()
 * is written as %.10g wrote it. */
void sharpness_json_double (GString * out, gdouble v);
/* @node (built with json-glib's JsonBuilder) as JSON text: strings by
 * sharpness_json_string, doubles by sharpness_json_double, integers
 * whole, members in the order they were added.  Not json-glib's
 * generator: in json-glib 1.6 (Debian 12) it writes 1e21 as 1e+21.0 and
 * 0.1 as 0.10000000000000001, and copies bytes that are not UTF-8 into
 * the text, none of which a JSON reader takes. */
void sharpness_json_write (GString * out, JsonNode * node,
    SharpnessJsonStyle style);
/* sharpness_json_write (@out, @node, SHARPNESS_JSON_COMPACT). */
void sharpness_json_node (GString * out, JsonNode * node);
/* The tree @b has built, written (sharpness_json_write). */
void sharpness_json_write_builder (GString * out, JsonBuilder * b,
    SharpnessJsonStyle style);
/* The members of the object @node without its braces: for an object
 * whose last members are too long to hold as a tree and are streamed
 * after these (the scan's frames). */
void sharpness_json_members (GString * out, JsonNode * node,
    SharpnessJsonStyle style);

/* Members (or, with @key NULL, elements of an array) for a JsonBuilder,
 * one call each. */
/* A string; NULL: null. */
void sharpness_json_add_string (JsonBuilder * b, const gchar * key,
    const gchar * v);
void sharpness_json_add_int (JsonBuilder * b, const gchar * key, gint64 v);
void sharpness_json_add_bool (JsonBuilder * b, const gchar * key,
    gboolean v);
/* A measurement to 10 significant digits: the double that %.10g's text
 * reads back as, so that it is written as %.10g wrote it; not finite:
 * null. */
void sharpness_json_add_number (JsonBuilder * b, const gchar * key,
    gdouble v);
/* A double with every bit (a merge reads it back); not finite: null. */
void sharpness_json_add_exact (JsonBuilder * b, const gchar * key,
    gdouble v);
/* @ns nanoseconds as seconds with every nanosecond, 0.033366667: @ns / 1e9
 * is the double nearest that decimal, and the writer prints it back with
 * up to 15 digits, so exactly below 10^6 s. */
void sharpness_json_add_seconds (JsonBuilder * b, const gchar * key,
    gint64 ns);
void sharpness_json_add_null (JsonBuilder * b, const gchar * key);
/* Opens an object (an array) as the member @key, or with @key NULL as an
 * element; json_builder_end_object (end_array) closes it. */
void sharpness_json_begin_object (JsonBuilder * b, const gchar * key);
void sharpness_json_begin_array (JsonBuilder * b, const gchar * key);
/* A tile map (the monitor's channels and events): {"cols", "rows",
 * "scores": [row by row, 10 digits each]}. */
void sharpness_json_add_tiles (JsonBuilder * b, const gchar * key,
    guint cols, guint rows, const gfloat * scores);

G_END_DECLS
#endif /* SHARPNESS_TOOL_JSON_H */
