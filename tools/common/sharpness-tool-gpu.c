/* The tools' GPU set-up (sharpness-scan, sharpness-monitor): the NVIDIA
 * decoders' rank, whether the CUDA backend is usable, whether a pad
 * gives CUDA memory.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "sharpness-tool-gpu.h"

static gboolean
is_nv_decoder (GstPluginFeature * feature)
{
  const gchar *name = GST_OBJECT_NAME (feature);
  const gchar *klass;

  if (!GST_IS_ELEMENT_FACTORY (feature) || !g_str_has_prefix (name, "nv") ||
      !g_str_has_suffix (name, "dec"))
    return FALSE;
  klass = gst_element_factory_get_metadata (GST_ELEMENT_FACTORY (feature),
      GST_ELEMENT_METADATA_KLASS);
  return klass && strstr (klass, "Decoder") != NULL;
}

/* Sets the rank of the NVIDIA decoders: above the software decoders (GPU
 * decoding, frames in CUDA memory) or out of autoplugging (--cpu).
 * Returns TRUE when there is at least one. */
gboolean
sharpness_tool_gpu_rank_decoders (guint rank)
{
  GList *features = gst_registry_get_feature_list (gst_registry_get (),
      GST_TYPE_ELEMENT_FACTORY);
  gboolean any = FALSE;

  for (GList * l = features; l; l = l->next)
    if (is_nv_decoder (l->data)) {
      gst_plugin_feature_set_rank (l->data, rank);
      any = TRUE;
    }
  gst_plugin_feature_list_free (features);
  return any;
}

/* Whether cudasharpness can score on a GPU: its backend=cuda refuses to
 * start without a usable device (@device_id, -1: any).  The CUDA context
 * it made goes to @context, for the pipelines to share. */
gboolean
sharpness_tool_gpu_backend_usable (gint device_id, GstContext ** context)
{
  GstElement *e = gst_element_factory_make ("cudasharpness", NULL);
  GstQuery *query;
  GstPad *pad;
  gboolean ok;

  if (!e)
    return FALSE;
  gst_util_set_object_arg (G_OBJECT (e), "backend", "cuda");
  g_object_set (e, "cuda-device-id", device_id, NULL);
  ok = gst_element_set_state (e, GST_STATE_PAUSED) !=
      GST_STATE_CHANGE_FAILURE;
  if (ok) {
    /* Its own pad answers for it (an element query would go to a peer). */
    query = gst_query_new_context ("gst.cuda.context");
    pad = gst_element_get_static_pad (e, "sink");
    if (gst_pad_query (pad, query)) {
      gst_query_parse_context (query, context);
      if (*context)
        gst_context_ref (*context);
    }
    gst_object_unref (pad);
    gst_query_unref (query);
  }
  gst_element_set_state (e, GST_STATE_NULL);
  gst_object_unref (e);
  return ok;
}

gboolean
sharpness_tool_pad_offers_cuda (GstPad * pad)
{
  GstCaps *caps = gst_pad_query_caps (pad, NULL);
  gboolean cuda = FALSE;

  for (guint i = 0; caps && i < gst_caps_get_size (caps) && !cuda; i++) {
    GstCapsFeatures *f = gst_caps_get_features (caps, i);
    cuda = f && gst_caps_features_contains (f, "memory:CUDAMemory");
  }
  gst_clear_caps (&caps);
  return cuda;
}
