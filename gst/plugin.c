/* The sharpness plugin: one element, cudasharpness, and its buffer meta.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/gst.h>

#include "gstcudasharpness.h"
#include "sharpness-meta.h"
#ifdef HAVE_CUDA
#include "sharpness-gpu.h"
#endif

static gboolean
plugin_init (GstPlugin * plugin)
{
#ifdef HAVE_CUDA
  const gchar *why = NULL;
#endif

  if (!sharpness_meta_register ()) {
    GST_ERROR_OBJECT (plugin, "could not register " SHARPNESS_META_NAME);
    return FALSE;
  }

#ifdef HAVE_CUDA
  /* Without a usable driver the element still works, on the CPU. */
  if (!sharpness_gpu_init_once (&why))
    gst_cuda_sharpness_set_cuda_unavailable (why ? why : "CUDA is unusable");
#endif

  return GST_ELEMENT_REGISTER (cudasharpness, plugin);
}

GST_PLUGIN_DEFINE (GST_VERSION_MAJOR, GST_VERSION_MINOR, sharpness,
    "Video sharpness analysis on the GPU (CUDA) or the CPU",
    plugin_init, VERSION, "LGPL", GST_PACKAGE_NAME, GST_PACKAGE_ORIGIN)
