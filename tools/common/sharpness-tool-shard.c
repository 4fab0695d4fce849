/* Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "sharpness-tool-shard.h"

gboolean
sharpness_tool_parse_shard (const gchar * text, guint * index, guint * count)
{
  gchar **parts = g_strsplit (text, "/", 3);
  guint64 i, n;
  gboolean ok = g_strv_length (parts) == 2 &&
      g_ascii_string_to_unsigned (parts[0], 10, 0, G_MAXUINT - 1, &i, NULL)
      && g_ascii_string_to_unsigned (parts[1], 10, 1, G_MAXUINT, &n, NULL)
      && i < n;

  g_strfreev (parts);
  if (ok) {
    *index = (guint) i;
    *count = (guint) n;
  }
  return ok;
}
