/* sharpness-scan: its inputs: the command line's, an --input-list, and the
 * URI each one is read from, and the files of a directory.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>
#include <sys/stat.h>

#include <glib/gstdio.h>

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

gboolean
scan_inputs_is_uri (const gchar * input)
{
  struct stat st;
  gchar *scheme;
  gboolean uri;

  if (!gst_uri_is_valid (input))
    return FALSE;
  /* An existing file is a file, whatever its name looks like ("take:2.ts",
   * a link that leads nowhere included). */
  if (g_lstat (input, &st) == 0)
    return FALSE;
  scheme = gst_uri_get_protocol (input);
  /* "scheme://" is a URI even of a scheme no element reads here (the
   * error then says so); "take:2.ts" is a file name that does not exist,
   * unless GStreamer reads "take:" URIs. */
  uri = g_str_has_prefix (input + strlen (scheme), "://") ||
      gst_uri_protocol_is_supported (GST_URI_SRC, scheme);
  g_free (scheme);
  return uri;
}

gchar *
scan_inputs_to_uri (const gchar * input)
{
  if (g_strcmp0 (input, "-") == 0)
    return g_strdup ("fd://0");
  if (scan_inputs_is_uri (input))
    return g_strdup (input);
  return gst_filename_to_uri (input, NULL);
}

/* What a directory's files are taken for, by extension: what GStreamer's
 * usual plugins read. */
static const gchar *const extensions[] = {
  /* still images */
  "jpg", "jpeg", "jpe", "png", "webp", "bmp", "tif", "tiff", "gif",
  /* videos */
  "mp4", "m4v", "mov", "qt", "mkv", "webm", "avi", "ts", "m2ts", "mts",
  "mxf", "mpg", "mpeg", "m2v", "vob", "ogv", "flv", "wmv", "asf", "3gp",
  "y4m", "dv", "h264", "264", "h265", "265", "hevc", "ivf", "nut",
  NULL
};

static gboolean
wanted (const gchar * name)
{
  const gchar *dot = strrchr (name, '.');

  if (name[0] == '.' || !dot)
    return FALSE;
  for (const gchar * const *e = extensions; *e; e++)
    if (g_ascii_strcasecmp (dot + 1, *e) == 0)
      return TRUE;
  return FALSE;
}

static gint
compare_names (gconstpointer a, gconstpointer b)
{
  return strcmp (*(const gchar * const *) a, *(const gchar * const *) b);
}

/* The files of @dir that are wanted, sorted by name (byte order: the
 * same on every machine), appended to @out; FALSE when none. */
static gboolean
expand_dir (const gchar * dir, GPtrArray * out)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  const gchar *name;
  gboolean any;

  while (d && (name = g_dir_read_name (d))) {
    gchar *path = g_build_filename (dir, name, NULL);
    if (wanted (name) && g_file_test (path, G_FILE_TEST_IS_REGULAR))
      g_ptr_array_add (names, path);
    else
      g_free (path);
  }
  if (d)
    g_dir_close (d);
  g_ptr_array_sort (names, compare_names);
  any = names->len > 0;
  for (guint i = 0; i < names->len; i++)
    g_ptr_array_add (out, g_strdup (names->pdata[i]));
  g_ptr_array_unref (names);
  return any;
}

void
scan_inputs_expand (GPtrArray * inputs)
{
  GPtrArray *out = g_ptr_array_new ();

  for (guint i = 0; i < inputs->len; i++) {
    gchar *in = inputs->pdata[i];

    if (!scan_inputs_is_uri (in) && g_file_test (in, G_FILE_TEST_IS_DIR) &&
        expand_dir (in, out))
      g_free (in);
    else
      g_ptr_array_add (out, in);
  }
  /* @inputs frees its strings: hand them over. */
  g_ptr_array_set_free_func (inputs, NULL);
  g_ptr_array_set_size (inputs, 0);
  g_ptr_array_set_free_func (inputs, g_free);
  for (guint i = 0; i < out->len; i++)
    g_ptr_array_add (inputs, out->pdata[i]);
  g_ptr_array_unref (out);
}
