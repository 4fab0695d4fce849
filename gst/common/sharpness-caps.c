/* Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "sharpness-caps.h"

#ifdef HAVE_CUDA
#define CUDA_BUILD TRUE
#define READABLE_MEMORY "system memory and memory:CUDAMemory"
#else
#define CUDA_BUILD FALSE
#define READABLE_MEMORY "system memory only (built without CUDA support)"
#endif

gchar *
sharpness_caps_explain_refusal (GstCaps * caps, GstCaps * templ)
{
  GstStructure *s;
  GstCapsFeatures *f;
  const gchar *format;
  gboolean cuda;

  if (!caps || gst_caps_is_empty (caps) || gst_caps_is_any (caps))
    return NULL;
  if (gst_caps_can_intersect (caps, templ))
    return NULL;

  s = gst_caps_get_structure (caps, 0);
  f = gst_caps_get_features (caps, 0);
  cuda = f && gst_caps_features_contains (f, SHARPNESS_CUDA_MEMORY_FEATURE);
  if (!gst_structure_has_name (s, "video/x-raw"))
    return g_strdup_printf ("cudasharpness analyses raw video (video/x-raw), "
        "not %s", gst_structure_get_name (s));
  if (f && !gst_caps_features_is_any (f) && !(cuda && CUDA_BUILD) &&
      !gst_caps_features_is_equal (f, GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY)) {
    gchar *features = gst_caps_features_to_string (f);
    gchar *text = g_strdup_printf ("cudasharpness cannot read buffers with "
        "caps features %s; it reads " READABLE_MEMORY, features);
    g_free (features);
    return text;
  }

  format = gst_structure_get_string (s, "format");
  if (!format)
    return NULL;
  return g_strdup_printf ("cudasharpness does not support video format %s "
      "in %s memory; supported formats: %s", format, cuda ? "CUDA" : "system",
      cuda ? SHARPNESS_CUDA_FORMATS : SHARPNESS_SYSTEM_FORMATS);
}
