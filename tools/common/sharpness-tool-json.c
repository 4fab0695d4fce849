/* Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

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
    const gchar *esc;

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
sharpness_json_number (GString * out, gdouble v)
{
  if (isfinite (v))
    g_string_append_printf (out, "%.10g", v);
  else
    g_string_append (out, "null");
}

static void
json_value (GString * out, JsonNode * node)
{
  GType type = json_node_get_value_type (node);

  if (type == G_TYPE_STRING)
    sharpness_json_string (out, json_node_get_string (node));
  else if (type == G_TYPE_DOUBLE)
    sharpness_json_number (out, json_node_get_double (node));
  else if (type == G_TYPE_BOOLEAN)
    g_string_append (out, json_node_get_boolean (node) ? "true" : "false");
  else
    g_string_append_printf (out, "%" G_GINT64_FORMAT,
        json_node_get_int (node));
}

void
sharpness_json_node (GString * out, JsonNode * node)
{
  switch (JSON_NODE_TYPE (node)) {
    case JSON_NODE_OBJECT:{
      JsonObjectIter it;
      const gchar *name;
      JsonNode *member;
      gboolean first = TRUE;

      g_string_append_c (out, '{');
      json_object_iter_init_ordered (&it, json_node_get_object (node));
      while (json_object_iter_next_ordered (&it, &name, &member)) {
        if (!first)
          g_string_append_c (out, ',');
        first = FALSE;
        sharpness_json_string (out, name);
        g_string_append_c (out, ':');
        sharpness_json_node (out, member);
      }
      g_string_append_c (out, '}');
      break;
    }
    case JSON_NODE_ARRAY:{
      JsonArray *a = json_node_get_array (node);

      g_string_append_c (out, '[');
      for (guint i = 0; i < json_array_get_length (a); i++) {
        if (i)
          g_string_append_c (out, ',');
        sharpness_json_node (out, json_array_get_element (a, i));
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
