/* sharpness-scan: its inputs: the command line's, an --input-list, and the
 * URI each one is read from.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "scan-setup.h"

gboolean
scan_inputs_read_list (const gchar * path, GPtrArray * inputs, GError ** error)
{
  gchar *text = NULL;
  gchar **lines;

  if (g_strcmp0 (path, "-") == 0) {
    GString *s = g_string_new (NULL);
    gchar buf[4096];
    gsize n;
    while ((n = fread (buf, 1, sizeof buf, stdin)) > 0)
      g_string_append_len (s, buf, n);
    text = g_string_free (s, FALSE);
  } else if (!g_file_get_contents (path, &text, NULL, error)) {
    return FALSE;
  }
  lines = g_strsplit (text, "\n", -1);
  for (gchar ** l = lines; *l; l++) {
    gchar *line = g_strstrip (*l);
    if (*line && *line != '#')
      g_ptr_array_add (inputs, g_strdup (line));
  }
  g_strfreev (lines);
  g_free (text);
  return TRUE;
}

gchar *
scan_inputs_to_uri (const gchar * input)
{
  if (gst_uri_is_valid (input))
    return g_strdup (input);
  return gst_filename_to_uri (input, NULL);
}
