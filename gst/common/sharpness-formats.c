/* Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "sharpness-formats.h"

typedef struct
{
  GstVideoFormat format;
  const gchar *name;
  const gchar *ffmpeg;
  guint uses;
} FormatRow;

#define ROW(fmt, ffmpeg, uses) \
  { GST_VIDEO_FORMAT_##fmt, #fmt, ffmpeg, ROW_USES (uses) },
#define SCORE SHARPNESS_FORMAT_SCORE
#define COMPARE SHARPNESS_FORMAT_COMPARE
#define CUDA_MEMORY SHARPNESS_FORMAT_CUDA_MEMORY
#define ROW_USES(uses) (uses)
static const FormatRow rows[] = {
  SHARPNESS_FORMAT_TABLE (ROW)
};
#undef ROW
#undef ROW_USES
#undef SCORE
#undef COMPARE
#undef CUDA_MEMORY

static gboolean
row_has_use (const FormatRow * row, SharpnessFormatUse use,
    gboolean cuda_memory)
{
  return (row->uses & use) &&
      (!cuda_memory || (row->uses & SHARPNESS_FORMAT_CUDA_MEMORY));
}

const gchar *
sharpness_format_ffmpeg_name (GstVideoFormat format)
{
  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    if (rows[i].format == format)
      return rows[i].ffmpeg;
  return NULL;
}

gboolean
sharpness_format_has_use (GstVideoFormat format, SharpnessFormatUse use,
    gboolean cuda_memory)
{
  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    if (rows[i].format == format)
      return row_has_use (&rows[i], use, cuda_memory);
  return FALSE;
}

/* The lists are made once per (use, memory) and kept: they end up in pad
 * templates and in error messages for the life of the process. */
const gchar *
sharpness_formats_list (SharpnessFormatUse use, gboolean cuda_memory)
{
  static gchar *lists[3][2];
  static gsize once[3][2];
  gint u = use == SHARPNESS_FORMAT_COMPARE ? 1 :
      use == SHARPNESS_FORMAT_CUDA_MEMORY ? 2 : 0, c = cuda_memory != 0;

  g_return_val_if_fail (use == SHARPNESS_FORMAT_SCORE ||
      use == SHARPNESS_FORMAT_COMPARE ||
      use == SHARPNESS_FORMAT_CUDA_MEMORY, NULL);
  if (g_once_init_enter (&once[u][c])) {
    GString *s = g_string_new ("{ ");
    gboolean first = TRUE;

    for (guint i = 0; i < G_N_ELEMENTS (rows); i++) {
      if (!row_has_use (&rows[i], use, cuda_memory))
        continue;
      g_string_append_printf (s, "%s%s", first ? "" : ", ", rows[i].name);
      first = FALSE;
    }
    g_string_append (s, " }");
    lists[u][c] = g_string_free (s, FALSE);
    g_once_init_leave (&once[u][c], 1);
  }
  return lists[u][c];
}

GstCaps *
sharpness_formats_caps (SharpnessFormatUse use)
{
  GString *text = g_string_new (NULL);
  GstCaps *caps;

#ifdef HAVE_CUDA
  g_string_append_printf (text, GST_VIDEO_CAPS_MAKE_WITH_FEATURES
      (SHARPNESS_CAPS_FEATURE_CUDA, "%s") "; ",
      sharpness_formats_list (use, TRUE));
#endif
  g_string_append_printf (text, GST_VIDEO_CAPS_MAKE ("%s"),
      sharpness_formats_list (use, FALSE));
  caps = gst_caps_from_string (text->str);
  g_string_free (text, TRUE);
  return caps;
}

GstPadTemplate *
sharpness_formats_pad_template (SharpnessFormatUse use, const gchar * name,
    GstPadDirection direction, GType gtype)
{
  GstCaps *caps = sharpness_formats_caps (use);
  GstPadTemplate *templ = gst_pad_template_new_with_gtype (name, direction,
      GST_PAD_ALWAYS, caps, gtype);

  gst_caps_unref (caps);
  return templ;
}

gboolean
sharpness_caps_are_cuda (const GstCaps * caps)
{
  GstCapsFeatures *f = gst_caps_get_features (caps, 0);

  return f && gst_caps_features_contains (f, SHARPNESS_CAPS_FEATURE_CUDA);
}
