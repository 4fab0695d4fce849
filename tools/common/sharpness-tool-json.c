/* Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include "sharpness-tool-json.h"

void
sharpness_json_string (GString * out, const gchar * s)
{
  if (!s) {
    g_string_append (out, "null");
    return;
  }
  g_string_append_c (out, '"');
  for (const guchar * p = (const guchar *) s; *p; p++) {
    switch (*p) {
      case '"':
        g_string_append (out, "\\\"");
        break;
      case '\\':
        g_string_append (out, "\\\\");
        break;
      case '\n':
        g_string_append (out, "\\n");
        break;
      case '\r':
        g_string_append (out, "\\r");
        break;
      case '\t':
        g_string_append (out, "\\t");
        break;
      case '<':
      case '>':
      case '&':
        g_string_append_printf (out, "\\u%04x", *p);
        break;
      default:
        if (*p < 0x20)
          g_string_append_printf (out, "\\u%04x", *p);
        else
          g_string_append_c (out, *p);
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
