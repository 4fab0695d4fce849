/* Element warnings posted once per run (sharpness-warn-once.h).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "sharpness-warn-once.h"

void
sharpness_warn_once_init (SharpnessWarnOnce * once, GstObject * owner)
{
  once->owner = owner;
  once->posted = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
      NULL);
}

void
sharpness_warn_once_clear (SharpnessWarnOnce * once)
{
  g_clear_pointer (&once->posted, g_hash_table_unref);
}

void
sharpness_warn_once_reset (SharpnessWarnOnce * once)
{
  GST_OBJECT_LOCK (once->owner);
  g_hash_table_remove_all (once->posted);
  GST_OBJECT_UNLOCK (once->owner);
}

gboolean
sharpness_warn_once_first (SharpnessWarnOnce * once, const gchar * text)
{
  gboolean first;

  GST_OBJECT_LOCK (once->owner);
  first = !g_hash_table_contains (once->posted, text);
  if (first)
    g_hash_table_add (once->posted, g_strdup (text));
  GST_OBJECT_UNLOCK (once->owner);
  return first;
}
