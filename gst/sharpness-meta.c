/* Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "sharpness-meta.h"

gboolean
sharpness_meta_register (void)
{
  static const gchar *tags[] = { NULL };

  if (gst_meta_get_info (SHARPNESS_META_NAME))
    return TRUE;
  /* No transform function: the default one copies the structure on buffer
   * copies and drops the meta on other transformations. */
  return gst_meta_register_custom (SHARPNESS_META_NAME, tags, NULL, NULL,
      NULL) != NULL;
}

static GstCustomMeta *
find_meta (GstBuffer * buffer, const gchar * metric)
{
  gpointer state = NULL;
  GstMeta *meta;

  while ((meta = gst_buffer_iterate_meta (buffer, &state))) {
    GstCustomMeta *custom;

    if (!gst_meta_info_is_custom (meta->info))
      continue;
    custom = (GstCustomMeta *) meta;
    if (gst_custom_meta_has_name (custom, SHARPNESS_META_NAME) &&
        g_strcmp0 (gst_structure_get_string (gst_custom_meta_get_structure
                (custom), "metric"), metric) == 0)
      return custom;
  }
  return NULL;
}

void
sharpness_meta_set (GstBuffer * buffer, const SharpnessFrameResult * r)
{
  GstCustomMeta *meta;
  GstStructure *s;

  g_return_if_fail (gst_buffer_is_writable (buffer));

  meta = find_meta (buffer, r->metric);
  if (!meta)
    meta = gst_buffer_add_custom_meta (buffer, SHARPNESS_META_NAME);
  g_return_if_fail (meta != NULL);

  s = gst_custom_meta_get_structure (meta);
  gst_structure_set (s, "metric", G_TYPE_STRING, r->metric,
      "score", G_TYPE_DOUBLE, r->score, "blurry", G_TYPE_BOOLEAN, r->blurry,
      NULL);
  sharpness_frame_result_set_regions (r, s);
}
