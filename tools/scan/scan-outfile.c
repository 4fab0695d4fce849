/* sharpness-scan's output files.  Each is written to a temporary file
 * beside it and renamed over it once complete, so that no reader ever
 * sees half a file: not while the scan runs, not after a crash, a second
 * Ctrl-C or a kill.  Standard output is written as it comes.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "scan-setup.h"

struct _ScanOutFile
{
  gchar *path;                  /* as given, or NULL for a side file */
  gchar *tmp;                   /* the temporary file, NULL: stdout */
  FILE *f;
  gint slot;                    /* in tmp_paths, or -1 */
};

/* The temporary files, for scan_outfile_discard_all_signal_safe (): fixed
 * buffers, since a signal handler may not allocate. */
#define MAX_TMP 8
static char tmp_paths[MAX_TMP][PATH_MAX];
static volatile sig_atomic_t tmp_used[MAX_TMP];

static gint
register_tmp (const gchar * path)
{
  for (gint i = 0; i < MAX_TMP; i++)
    if (!tmp_used[i] && strlen (path) < PATH_MAX) {
      g_strlcpy (tmp_paths[i], path, PATH_MAX);
      tmp_used[i] = 1;
      return i;
    }
  return -1;
}

static void
unregister_tmp (ScanOutFile * o)
{
  if (o->slot >= 0)
    tmp_used[o->slot] = 0;
  o->slot = -1;
}

/* A temporary file in @dir named after @base; NULL with a message. */
static ScanOutFile *
open_tmp (const gchar * dir, const gchar * base, const gchar * shown)
{
  ScanOutFile *o = g_new0 (ScanOutFile, 1);
  gchar *name = g_strdup_printf (".%s.XXXXXX.part", base);
  mode_t mask;
  gint fd;

  o->tmp = g_build_filename (dir, name, NULL);
  g_free (name);
  fd = g_mkstemp (o->tmp);
  if (fd < 0 || !(o->f = fdopen (fd, "w"))) {
    g_printerr ("sharpness-scan: %s: cannot write in %s (%s): check that "
        "the directory exists and is writable\n", shown, dir,
        g_strerror (errno));
    if (fd >= 0) {
      close (fd);
      g_unlink (o->tmp);
    }
    g_free (o->tmp);
    g_free (o);
    return NULL;
  }
  /* The permissions fopen () would have given, not mkstemp ()'s 0600. */
  mask = umask (0);
  umask (mask);
  fchmod (fd, 0666 & ~mask);
  o->slot = register_tmp (o->tmp);
  return o;
}

ScanOutFile *
scan_outfile_open (const gchar * path)
{
  ScanOutFile *o;
  gchar *dir, *base;

  if (g_strcmp0 (path, "-") == 0) {
    o = g_new0 (ScanOutFile, 1);
    o->path = g_strdup (path);
    o->f = stdout;
    o->slot = -1;
    return o;
  }
  if (g_file_test (path, G_FILE_TEST_IS_DIR)) {
    g_printerr ("sharpness-scan: %s: is a directory: give a file name\n",
        path);
    return NULL;
  }
  dir = g_path_get_dirname (path);
  base = g_path_get_basename (path);
  o = open_tmp (dir, base, path);
  g_free (dir);
  g_free (base);
  if (o)
    o->path = g_strdup (path);
  return o;
}

ScanOutFile *
scan_outfile_open_side (const ScanOutFile * beside, const gchar * what)
{
  gchar *dir = beside->tmp ? g_path_get_dirname (beside->tmp) :
      g_strdup (g_get_tmp_dir ());
  gchar *name = beside->tmp ? g_path_get_basename (beside->path) :
      g_strdup ("stdout");
  gchar *base = g_strdup_printf ("%s.%s", name, what);
  ScanOutFile *o = open_tmp (dir, base, beside->path);

  g_free (dir);
  g_free (name);
  g_free (base);
  return o;
}

void
scan_outfile_write (ScanOutFile * o, GString * s)
{
  if (o && s->len)
    fwrite (s->str, 1, s->len, o->f);
  g_string_truncate (s, 0);
}

gboolean
scan_outfile_append (ScanOutFile * o, ScanOutFile * side)
{
  gchar buf[65536];
  gsize n;
  FILE *in;

  /* The side file was opened for writing only: read it anew. */
  if (fflush (side->f) != 0 || !(in = g_fopen (side->tmp, "rb")))
    return FALSE;
  while ((n = fread (buf, 1, sizeof buf, in)) > 0)
    fwrite (buf, 1, n, o->f);
  fclose (in);
  return !ferror (o->f);
}

void
scan_outfile_discard (ScanOutFile * o)
{
  if (!o)
    return;
  if (o->tmp) {
    fclose (o->f);
    g_unlink (o->tmp);
  }
  unregister_tmp (o);
  g_free (o->tmp);
  g_free (o->path);
  g_free (o);
}

gboolean
scan_outfile_commit (ScanOutFile * o)
{
  gboolean ok;

  if (!o)
    return TRUE;
  ok = !ferror (o->f);
  if (!o->tmp) {
    ok = fflush (o->f) == 0 && ok;
  } else {
    ok = fclose (o->f) == 0 && ok;
    if (ok && g_rename (o->tmp, o->path) != 0) {
      g_printerr ("sharpness-scan: %s: cannot replace it (%s): its output "
          "is left in %s\n", o->path, g_strerror (errno), o->tmp);
      unregister_tmp (o);
      g_free (o->tmp);
      g_free (o->path);
      g_free (o);
      return FALSE;
    }
    if (!ok) {
      g_printerr ("sharpness-scan: %s: write failed (disk full?): nothing "
          "written\n", o->path);
      g_unlink (o->tmp);
    }
  }
  unregister_tmp (o);
  g_free (o->tmp);
  g_free (o->path);
  g_free (o);
  return ok;
}

void
scan_outfile_discard_all_signal_safe (void)
{
  for (gint i = 0; i < MAX_TMP; i++)
    if (tmp_used[i])
      unlink (tmp_paths[i]);
}
