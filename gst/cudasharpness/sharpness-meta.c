/* Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "sharpness-fields.h"
#include "sharpness-meta.h"

/* Registered once; kept so that a frame's meta is added and found without
 * the registry's lock and name lookups (sharpness-fields.h says why). */
static const GstMetaInfo *meta_info;

gboolean
sharpness_meta_register (void)
{
  static const gchar *tags[] = { NULL };
  static gsize once = 0;

  if (g_once_init_enter (&once)) {
    /* No transform function: the default one copies the structure on
     * buffer copies and drops the meta on other transformations. */
    meta_info = gst_meta_get_info (SHARPNESS_META_NAME);
    if (!meta_info)
      meta_info = gst_meta_register_custom (SHARPNESS_META_NAME, tags, NULL,
          NULL, NULL);
    g_once_init_leave (&once, 1);
  }
  return meta_info != NULL;
}

static GstCustomMeta *
find_meta (GstBuffer * buffer, const gchar * metric)
{
  gpointer state = NULL;
  GstMeta *meta;

  while ((meta = gst_buffer_iterate_meta (buffer, &state))) {
    const GValue *v;

    if (meta->info != meta_info)
      continue;
    v = sharpness_structure_get (gst_custom_meta_get_structure ((GstCustomMeta
                *) meta), SHARPNESS_FIELD_METRIC);
    if (v && G_VALUE_HOLDS_STRING (v) &&
        g_strcmp0 (g_value_get_string (v), metric) == 0)
      return (GstCustomMeta *) meta;
  }
  return NULL;
}

void
sharpness_meta_set (GstBuffer * buffer, const SharpnessFrameResult * r)
{
  GstCustomMeta *meta;
  GstStructure *s;

  g_return_if_fail (gst_buffer_is_writable (buffer));
  g_return_if_fail (meta_info != NULL);

  meta = find_meta (buffer, r->metric);
  if (!meta)
    meta = (GstCustomMeta *) gst_buffer_add_meta (buffer, meta_info, NULL);
  g_return_if_fail (meta != NULL);

  s = gst_custom_meta_get_structure (meta);
  sharpness_structure_set_static_string (s, SHARPNESS_FIELD_METRIC,
      r->metric);
  sharpness_structure_set_double (s, SHARPNESS_FIELD_SCORE, r->score);
  sharpness_structure_set_boolean (s, SHARPNESS_FIELD_BLURRY, r->blurry);
  sharpness_frame_result_set_regions (r, s);
}
