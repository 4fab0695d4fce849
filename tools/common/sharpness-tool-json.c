/* Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "sharpness-tool-json.h"

/* The escape of the ASCII character @c, or NULL when it stands for
 * itself. */
static const gchar *
ascii_escape (guchar c)
{
  switch (c) {
    case '"':
      return "\\\"";
    case '\\':
      return "\\\\";
    case '\n':
      return "\\n";
    case '\r':
      return "\\r";
    case '\t':
      return "\\t";
    case '<':
      return "\\u003c";
    case '>':
      return "\\u003e";
    case '&':
      return "\\u0026";
    default:
      return NULL;
  }
}

void
sharpness_json_string (GString * out, const gchar * s)
{
  const gchar *p;

  if (!s) {
    g_string_append (out, "null");
    return;
  }
  g_string_append_c (out, '"');
  for (p = s; *p;) {
    guchar c = *p;
    const gchar *esc, *run = p;

    /* A run of characters that stand for themselves, at once (a
     * thumbnail's base64 is tens of kilobytes of them). */
    while (c >= 0x20 && c < 0x7f && !ascii_escape (c))
      c = *++p;
    g_string_append_len (out, run, p - run);
    if (!c)
      break;
    if (c < 0x80) {
      if ((esc = ascii_escape (c)))
        g_string_append (out, esc);
      else if (c < 0x20 || c == 0x7f)
        g_string_append_printf (out, "\\u%04x", c);
      else
        g_string_append_c (out, c);
      p++;
    } else if ((gint32) g_utf8_get_char_validated (p, -1) >= 0) {
      /* A whole character of valid UTF-8: as it is. */
      const gchar *next = g_utf8_next_char (p);

      g_string_append_len (out, p, next - p);
      p = next;
    } else {
      /* A byte that starts no valid character (a file name in another
       * encoding, say): JSON text is UTF-8, so it becomes U+FFFD, and the
       * next byte starts afresh. */
      g_string_append (out, "\\ufffd");
      p++;
    }
  }
  g_string_append_c (out, '"');
}

void
sharpness_json_double (GString * out, gdouble v)
{
  /* The shortest of %.10g, %.15g and %.17g that reads back: %.10g writes
   * a measurement rounded to 10 digits as the tools always printed it,
   * %.15g gives every decimal of up to 15 digits back as written (times to
   * the nanosecond), %.17g always reads back.  Below 10^10, %.15g writes
   * whatever %.10g would have written and read back, so %.10g is tried
   * only above (where it writes 1.23456789e+10, %.15g 12345678900).
   * libc's snprintf and strtod, not g_ascii_formatd and g_ascii_strtod
   * (2.5 times slower, and --json-full writes millions of numbers): the
   * tools run in the C locale (neither calls setlocale). */
  static const gchar *const formats[] = { "%.10g", "%.15g", "%.17g" };
  gchar buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (!isfinite (v)) {
    g_string_append (out, "null");
    return;
  }
  for (guint i = fabs (v) < 1e10 ? 1 : 0; i < G_N_ELEMENTS (formats); i++) {
    snprintf (buf, sizeof buf, formats[i], v);
    if (i == G_N_ELEMENTS (formats) - 1 || strtod (buf, NULL) == v)
      break;
  }
  g_string_append (out, buf);
}

/* @v rounded as the C format @format prints it: the double that text
 * reads back as; not finite: as it is. */
static gdouble
round_as (gdouble v, const gchar * format)
{
  gchar buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (!isfinite (v))
    return v;
  snprintf (buf, sizeof buf, format, v);
  return strtod (buf, NULL);
}

static void
json_value (GString * out, JsonNode * node)
{
  GType type = json_node_get_value_type (node);

  if (type == G_TYPE_STRING)
    sharpness_json_string (out, json_node_get_string (node));
  else if (type == G_TYPE_DOUBLE)
    sharpness_json_double (out, json_node_get_double (node));
  else if (type == G_TYPE_BOOLEAN)
    g_string_append (out, json_node_get_boolean (node) ? "true" : "false");
  else
    g_string_append_printf (out, "%" G_GINT64_FORMAT,
        json_node_get_int (node));
}

static const gchar *
separator (SharpnessJsonStyle style)
{
  return style == SHARPNESS_JSON_SPACED ? ", " : ",";
}

void
sharpness_json_members (GString * out, JsonNode * node,
    SharpnessJsonStyle style)
{
  JsonObjectIter it;
  const gchar *name;
  JsonNode *member;
  gboolean first = TRUE;

  json_object_iter_init_ordered (&it, json_node_get_object (node));
  while (json_object_iter_next_ordered (&it, &name, &member)) {
    if (!first)
      g_string_append (out, separator (style));
    first = FALSE;
    sharpness_json_string (out, name);
    g_string_append (out, style == SHARPNESS_JSON_SPACED ? ": " : ":");
    sharpness_json_write (out, member, style);
  }
}

void
sharpness_json_write (GString * out, JsonNode * node,
    SharpnessJsonStyle style)
{
  switch (JSON_NODE_TYPE (node)) {
    case JSON_NODE_OBJECT:
      g_string_append_c (out, '{');
      sharpness_json_members (out, node, style);
      g_string_append_c (out, '}');
      break;
    case JSON_NODE_ARRAY:{
      JsonArray *a = json_node_get_array (node);

      g_string_append_c (out, '[');
      for (guint i = 0; i < json_array_get_length (a); i++) {
        if (i)
          g_string_append (out, separator (style));
        sharpness_json_write (out, json_array_get_element (a, i), style);
      }
      g_string_append_c (out, ']');
      break;
    }
    case JSON_NODE_VALUE:
      json_value (out, node);
      break;
    case JSON_NODE_NULL:
      g_string_append (out, "null");
      break;
  }
}

void
sharpness_json_node (GString * out, JsonNode * node)
{
  sharpness_json_write (out, node, SHARPNESS_JSON_COMPACT);
}

void
sharpness_json_write_builder (GString * out, JsonBuilder * b,
    SharpnessJsonStyle style)
{
  JsonNode *root = json_builder_get_root (b);

  sharpness_json_write (out, root, style);
  json_node_unref (root);
}

/* ---- members ---------------------------------------------------------- */

static void
member (JsonBuilder * b, const gchar * key)
{
  if (key)
    json_builder_set_member_name (b, key);
}

void
sharpness_json_add_string (JsonBuilder * b, const gchar * key,
    const gchar * v)
{
  member (b, key);
  if (v)
    json_builder_add_string_value (b, v);
  else
    json_builder_add_null_value (b);
}

void
sharpness_json_add_int (JsonBuilder * b, const gchar * key, gint64 v)
{
  member (b, key);
  json_builder_add_int_value (b, v);
}

void
sharpness_json_add_bool (JsonBuilder * b, const gchar * key, gboolean v)
{
  member (b, key);
  json_builder_add_boolean_value (b, v);
}

void
sharpness_json_add_exact (JsonBuilder * b, const gchar * key, gdouble v)
{
  member (b, key);
  if (isfinite (v))
    json_builder_add_double_value (b, v);
  else
    json_builder_add_null_value (b);
}

void
sharpness_json_add_number (JsonBuilder * b, const gchar * key, gdouble v)
{
  sharpness_json_add_exact (b, key, round_as (v, "%.10g"));
}

void
sharpness_json_add_seconds (JsonBuilder * b, const gchar * key, gint64 ns)
{
  /* One correctly rounded division: the double nearest ns / 10^9. */
  sharpness_json_add_exact (b, key, ns / 1e9);
}

void
sharpness_json_add_null (JsonBuilder * b, const gchar * key)
{
  member (b, key);
  json_builder_add_null_value (b);
}

void
sharpness_json_begin_object (JsonBuilder * b, const gchar * key)
{
  member (b, key);
  json_builder_begin_object (b);
}

void
sharpness_json_begin_array (JsonBuilder * b, const gchar * key)
{
  member (b, key);
  json_builder_begin_array (b);
}

void
sharpness_json_add_tiles (JsonBuilder * b, const gchar * key, guint cols,
    guint rows, const gfloat * scores)
{
  sharpness_json_begin_object (b, key);
  sharpness_json_add_int (b, "cols", cols);
  sharpness_json_add_int (b, "rows", rows);
  sharpness_json_begin_array (b, "scores");
  for (guint i = 0; i < cols * rows; i++)
    sharpness_json_add_number (b, NULL, scores[i]);
  json_builder_end_array (b);
  json_builder_end_object (b);
}
