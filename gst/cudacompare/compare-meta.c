/* Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "compare-meta.h"

SharpnessField
compare_value_plane_field (SharpnessField kind, gchar plane)
{
  static const gchar planes[] = "yuvrgb";
  const gchar *p = strchr (planes, plane);

  g_return_val_if_fail (plane && p, kind);
  return kind + (p - planes);
}

void
compare_values_add (CompareValues * values, SharpnessField field, gdouble v)
{
  g_return_if_fail (values->n < COMPARE_MAX_VALUES);
  values->field[values->n] = field;
  values->v[values->n++] = v;
}

void
compare_values_to_structure (const CompareValues * values, GstStructure * s)
{
  for (gint i = 0; i < values->n; i++)
    sharpness_structure_set_double (s, values->field[i], values->v[i]);
}

/* Found once: a pair's meta is then added without the registry's lock. */
static const GstMetaInfo *meta_info;

static const GstMetaInfo *
get_meta_info (void)
{
  const GstMetaInfo *info = g_atomic_pointer_get (&meta_info);

  if (!info) {
    info = gst_meta_get_info (COMPARE_META_NAME);
    if (info)
      g_atomic_pointer_set (&meta_info, info);
  }
  return info;
}

gboolean
compare_meta_register (void)
{
  static const gchar *tags[] = { NULL };

  /* No transform function: the default one copies the structure on buffer
   * copies and drops the meta on other transformations. */
  if (!get_meta_info ())
    gst_meta_register_custom (COMPARE_META_NAME, tags, NULL, NULL, NULL);
  return get_meta_info () != NULL;
}

static GstCustomMeta *
find_meta (GstBuffer * buffer)
{
  const GstMetaInfo *info = get_meta_info ();
  gpointer state = NULL;
  GstMeta *meta;

  while (info && (meta = gst_buffer_iterate_meta (buffer, &state)))
    if (meta->info == info)
      return (GstCustomMeta *) meta;
  return NULL;
}

/* The meta of @buffer (added when missing) with @frame_field and
 * @values set. */
static void
meta_set (GstBuffer * buffer, SharpnessField frame_field, guint64 frame,
    const CompareValues * values)
{
  const GstMetaInfo *info = get_meta_info ();
  GstCustomMeta *meta;
  GstStructure *s;

  g_return_if_fail (gst_buffer_is_writable (buffer));
  g_return_if_fail (info != NULL);

  meta = find_meta (buffer);
  if (!meta)
    meta = (GstCustomMeta *) gst_buffer_add_meta (buffer, info, NULL);
  g_return_if_fail (meta != NULL);
  s = gst_custom_meta_get_structure (meta);
  sharpness_structure_set_uint64 (s, frame_field, frame);
  compare_values_to_structure (values, s);
}

void
compare_meta_set (GstBuffer * buffer, guint64 frame,
    const CompareValues * values)
{
  meta_set (buffer, SHARPNESS_FIELD_FRAME, frame, values);
}

void
compare_meta_set_vmaf (GstBuffer * buffer, guint64 frame, guint64 vmaf_frame,
    const CompareValues * values)
{
  CompareValues none = { 0 };

  /* `frame` too: with metrics=vmaf alone no pair value set it. */
  meta_set (buffer, SHARPNESS_FIELD_FRAME, frame, &none);
  meta_set (buffer, SHARPNESS_FIELD_VMAF_FRAME, vmaf_frame, values);
}
