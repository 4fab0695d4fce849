/* Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "compare-meta.h"

gboolean
compare_meta_register (void)
{
  static const gchar *tags[] = { NULL };

  if (gst_meta_get_info (COMPARE_META_NAME))
    return TRUE;
  /* No transform function: the default one copies the structure on buffer
   * copies and drops the meta on other transformations. */
  return gst_meta_register_custom (COMPARE_META_NAME, tags, NULL, NULL,
      NULL) != NULL;
}

static gboolean
copy_field (GQuark field, const GValue * value, gpointer user_data)
{
  gst_structure_id_set_value (user_data, field, value);
  return TRUE;
}

void
compare_meta_set (GstBuffer * buffer, const GstStructure * values)
{
  GstCustomMeta *meta;

  g_return_if_fail (gst_buffer_is_writable (buffer));

  meta = gst_buffer_get_custom_meta (buffer, COMPARE_META_NAME);
  if (!meta)
    meta = gst_buffer_add_custom_meta (buffer, COMPARE_META_NAME);
  g_return_if_fail (meta != NULL);
  gst_structure_foreach (values, copy_field,
      gst_custom_meta_get_structure (meta));
}
