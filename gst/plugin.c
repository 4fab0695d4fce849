/* The sharpness plugin: cudasharpness, cudacompare and sharpnessoverlay,
 * and the two metas the first two write (GstSharpnessMeta, GstCompareMeta).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/gst.h>

#include "gstcudasharpness.h"
#include "gstcudacompare.h"
#include "gstsharpnessoverlay.h"
#include "compare-meta.h"
#include "sharpness-backend-choice.h"
#include "sharpness-meta.h"
#include "sharpness-scorer.h"

static gboolean
plugin_init (GstPlugin * plugin)
{
  const gchar *why = NULL;

  if (!sharpness_meta_register ()) {
    GST_ERROR_OBJECT (plugin, "could not register " SHARPNESS_META_NAME);
    return FALSE;
  }
  if (!compare_meta_register ()) {
    GST_ERROR_OBJECT (plugin, "could not register " COMPARE_META_NAME);
    return FALSE;
  }

  /* Without a usable driver the elements still work, on the CPU. */
  if (!sharpness_scorer_cuda_init_once (&why)) {
    sharpness_backend_choice_set_cuda_unavailable (why ? why :
        "CUDA is unusable");
  }

  return GST_ELEMENT_REGISTER (cudasharpness, plugin) &&
      GST_ELEMENT_REGISTER (cudacompare, plugin) &&
      GST_ELEMENT_REGISTER (sharpnessoverlay, plugin);
}

GST_PLUGIN_DEFINE (GST_VERSION_MAJOR, GST_VERSION_MINOR, sharpness,
    "Video sharpness analysis on the GPU (CUDA) or the CPU",
    plugin_init, VERSION, "LGPL", GST_PACKAGE_NAME, GST_PACKAGE_ORIGIN)
