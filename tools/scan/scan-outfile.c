/* sharpness-scan's output files: opened before the scan, closed after.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>

#include "scan-setup.h"

FILE *
scan_outfile_open (const gchar * path)
{
  FILE *f;

  if (g_strcmp0 (path, "-") == 0)
    return stdout;
  f = fopen (path, "w");
  if (!f)
    g_printerr ("sharpness-scan: %s: %s\n", path, g_strerror (errno));
  return f;
}

gboolean
scan_outfile_close (FILE * f, const gchar * path)
{
  gboolean ok;

  if (!f)
    return TRUE;
  ok = !ferror (f);
  if (f == stdout)
    ok = fflush (f) == 0 && ok;
  else
    ok = fclose (f) == 0 && ok;
  if (!ok)
    g_printerr ("sharpness-scan: %s: write failed\n", path);
  return ok;
}
