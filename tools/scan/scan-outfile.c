/* sharpness-scan's output files.  Each is written to a temporary file
 * beside it and renamed over it once complete, so that no reader ever
 * sees half a file: not while the scan runs, not after a crash, a second
 * Ctrl-C or a kill.  Standard output is written as it comes, and so is an
 * output that exists and is no regular file (a device such as /dev/null,
 * a FIFO): renaming over it would replace the node by a regular file.  A
 * symbolic link is followed: its target is written, the link stays.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "scan-setup.h"

/* Symbolic links followed before giving up (the kernel's own limit). */
#define MAX_LINKS 40

struct _ScanOutFile
{
  gchar *path;                  /* as given, or NULL for a side file */
  gchar *target;                /* what the temporary file is renamed to:
                                 * @path, its links followed */
  gchar *tmp;                   /* the temporary file, NULL: written in
                                 * place (standard output, a device...) */
  gboolean in_place;            /* @f is @target itself, not stdout */
  FILE *f;
  gint error;                   /* errno of the first failed write, or 0 */
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

/* A temporary file in @dir named after @base, opened in @f; its name, or
 * NULL with a message. */
static gchar *
open_tmp (const gchar * dir, const gchar * base, const gchar * shown,
    FILE ** f)
{
  gchar *name = g_strdup_printf (".%s.XXXXXX.part", base);
  gchar *tmp = g_build_filename (dir, name, NULL);
  mode_t mask;
  gint fd;

  g_free (name);
  fd = g_mkstemp (tmp);
  if (fd < 0 || !(*f = fdopen (fd, "w"))) {
    g_printerr ("sharpness-scan: %s: cannot write in %s (%s): check that "
        "the directory exists and is writable\n", shown, dir,
        g_strerror (errno));
    if (fd >= 0) {
      close (fd);
      g_unlink (tmp);
    }
    g_free (tmp);
    return NULL;
  }
  /* The permissions fopen () would have given, not mkstemp ()'s 0600. */
  mask = umask (0);
  umask (mask);
  fchmod (fd, 0666 & ~mask);
  return tmp;
}

/* @path with its symbolic links followed, to the file they name (which
 * may not exist yet); NULL with @errno set (ELOOP) when they never end. */
static gchar *
follow_links (const gchar * path)
{
  gchar *cur = g_strdup (path);

  for (gint i = 0; i < MAX_LINKS; i++) {
    struct stat st;
    gchar *link, *dir;

    if (lstat (cur, &st) != 0 || !S_ISLNK (st.st_mode))
      return cur;
    if (!(link = g_file_read_link (cur, NULL)))
      return cur;
    if (g_path_is_absolute (link)) {
      g_free (cur);
      cur = link;
      continue;
    }
    /* Relative: to the directory that holds the link. */
    dir = g_path_get_dirname (cur);
    g_free (cur);
    cur = g_build_filename (dir, link, NULL);
    g_free (dir);
    g_free (link);
  }
  g_free (cur);
  errno = ELOOP;
  return NULL;
}

/* Opens @o->target, which exists and is no regular file, for writing in
 * place.  A FIFO waits here for its reader, as a shell's redirection
 * does. */
static gboolean
open_in_place (ScanOutFile * o, const gchar * shown)
{
  gint fd = open (o->target, O_WRONLY | O_NOCTTY | O_CLOEXEC);

  if (fd < 0 || !(o->f = fdopen (fd, "w"))) {
    g_printerr ("sharpness-scan: %s: cannot write to it (%s)\n", shown,
        g_strerror (errno));
    if (fd >= 0)
      close (fd);
    return FALSE;
  }
  o->in_place = TRUE;
  return TRUE;
}

ScanOutFile *
scan_outfile_open (const gchar * path)
{
  ScanOutFile *o;
  gchar *dir, *base, *shown;
  struct stat st;

  if (g_strcmp0 (path, "-") == 0) {
    o = g_new0 (ScanOutFile, 1);
    o->path = g_strdup (path);
    o->f = stdout;
    o->slot = -1;
    return o;
  }
  shown = scan_name_for_line (path);
  o = g_new0 (ScanOutFile, 1);
  o->slot = -1;
  o->path = g_strdup (path);
  /* stat () follows the links as open () will (/dev/stdout's too, whose
   * last link names no file). */
  if (stat (path, &st) == 0 && S_ISDIR (st.st_mode)) {
    g_printerr ("sharpness-scan: %s: is a directory: give a file name\n",
        shown);
    goto failed;
  }
  if (stat (path, &st) == 0 && !S_ISREG (st.st_mode)) {
    o->target = g_strdup (path);
    if (!open_in_place (o, shown))
      goto failed;
    g_free (shown);
    return o;
  }
  /* A regular file, or none yet: the temporary file goes beside the file
   * the links lead to, and is renamed to it. */
  if (!(o->target = follow_links (path))) {
    g_printerr ("sharpness-scan: %s: cannot follow its symbolic links (%s)"
        "\n", shown, g_strerror (errno));
    goto failed;
  }
  dir = g_path_get_dirname (o->target);
  base = g_path_get_basename (o->target);
  o->tmp = open_tmp (dir, base, shown, &o->f);
  g_free (dir);
  g_free (base);
  if (!o->tmp)
    goto failed;
  o->slot = register_tmp (o->tmp);
  g_free (shown);
  return o;

failed:
  g_free (shown);
  g_free (o->target);
  g_free (o->path);
  g_free (o);
  return NULL;
}

ScanOutFile *
scan_outfile_open_side (const ScanOutFile * beside, const gchar * what)
{
  gchar *dir = beside->tmp ? g_path_get_dirname (beside->tmp) :
      g_strdup (g_get_tmp_dir ());
  gchar *name = beside->tmp ? g_path_get_basename (beside->target) :
      g_strdup ("stdout");
  gchar *base = g_strdup_printf ("%s.%s", name, what);
  gchar *shown = scan_name_for_line (beside->path);
  ScanOutFile *o = g_new0 (ScanOutFile, 1);

  o->slot = -1;
  o->tmp = open_tmp (dir, base, shown, &o->f);
  if (o->tmp)
    o->slot = register_tmp (o->tmp);
  else
    g_clear_pointer (&o, g_free);
  g_free (dir);
  g_free (name);
  g_free (base);
  g_free (shown);
  return o;
}

void
scan_outfile_write (ScanOutFile * o, GString * s)
{
  if (o && s->len && fwrite (s->str, 1, s->len, o->f) != s->len &&
      !o->error)
    o->error = errno ? errno : EIO;
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
    if (fwrite (buf, 1, n, o->f) != n && !o->error)
      o->error = errno ? errno : EIO;
  fclose (in);
  return !ferror (o->f);
}

static void
outfile_free (ScanOutFile * o)
{
  unregister_tmp (o);
  g_free (o->tmp);
  g_free (o->target);
  g_free (o->path);
  g_free (o);
}

void
scan_outfile_discard (ScanOutFile * o)
{
  if (!o)
    return;
  if (o->tmp) {
    fclose (o->f);
    g_unlink (o->tmp);
  } else if (o->in_place) {
    /* What was written to the device or FIFO stays written. */
    fclose (o->f);
  }
  outfile_free (o);
}

/* Flushes and closes @o's stream (not standard output's); FALSE with
 * @o->error set when anything written did not get there. */
static gboolean
close_stream (ScanOutFile * o)
{
  gboolean ok = !ferror (o->f) && o->error == 0;

  errno = 0;
  if (o->tmp || o->in_place) {
    if (fclose (o->f) != 0)
      ok = FALSE;
  } else if (fflush (o->f) != 0) {
    ok = FALSE;
  }
  if (!ok && !o->error)
    o->error = errno ? errno : EIO;
  return ok;
}

gboolean
scan_outfile_commit (ScanOutFile * o)
{
  gchar *shown;
  gboolean ok;

  if (!o)
    return TRUE;
  ok = close_stream (o);
  shown = o->tmp || o->in_place ? scan_name_for_line (o->path) :
      g_strdup ("standard output");
  if (!ok) {
    g_printerr ("sharpness-scan: %s: write failed (%s)%s\n", shown,
        g_strerror (o->error), o->tmp ? ": nothing written" : "");
    if (o->tmp)
      g_unlink (o->tmp);
  } else if (o->tmp && g_rename (o->tmp, o->target) != 0) {
    g_printerr ("sharpness-scan: %s: cannot replace it (%s): its output "
        "is left in %s\n", shown, g_strerror (errno), o->tmp);
    ok = FALSE;
    /* Left for the user: no longer ours to remove on a signal. */
    unregister_tmp (o);
  }
  g_free (shown);
  outfile_free (o);
  return ok;
}

void
scan_outfile_discard_all_signal_safe (void)
{
  for (gint i = 0; i < MAX_TMP; i++)
    if (tmp_used[i])
      unlink (tmp_paths[i]);
}

/* Whatever the main loop is doing, remove the outputs' temporary files
 * (the outputs stay as they were) and exit. */
static void
exit_at_once (int sig)
{
  scan_outfile_discard_all_signal_safe ();
  _exit (128 + sig);
}

void
scan_outfile_on_signals (void (*handler) (int))
{
  struct sigaction sa;

  memset (&sa, 0, sizeof sa);
  sa.sa_handler = handler;
  sigemptyset (&sa.sa_mask);
  sigaction (SIGINT, &sa, NULL);
  sigaction (SIGTERM, &sa, NULL);
}

void
scan_outfile_exit_on_signals (void)
{
  scan_outfile_on_signals (exit_at_once);
}
