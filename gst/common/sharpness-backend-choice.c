/* The `backend` property and the CPU/GPU choice of the elements
 * (sharpness-backend-choice.h).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "sharpness-backend-choice.h"

/* Why the CUDA driver is unusable (set once by plugin_init), or NULL. */
static gchar *cuda_unavailable_reason;

GType
gst_sharpness_backend_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    {GST_SHARPNESS_BACKEND_AUTO,
        "CUDA when a device is usable, else the CPU", "auto"},
    {GST_SHARPNESS_BACKEND_CPU, "CPU", "cpu"},
    {GST_SHARPNESS_BACKEND_CUDA,
        "CUDA; the element fails to start without a usable device", "cuda"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&type))
    g_once_init_leave (&type,
        g_enum_register_static ("GstSharpnessBackend", values));
  return type;
}

void
sharpness_backend_choice_set_cuda_unavailable (const gchar * why)
{
  g_free (cuda_unavailable_reason);
  cuda_unavailable_reason = g_strdup (why);
}

const gchar *
sharpness_backend_choice_cuda_unavailable (void)
{
  return cuda_unavailable_reason;
}

void
sharpness_backend_choice_init (SharpnessBackendChoice * choice,
    GstElement * element, GstDebugCategory * category,
    SharpnessWarnOnce * warned, SharpnessBackend * gpu, const gchar * verb,
    const gchar * gerund)
{
  choice->element = element;
  choice->category = category;
  choice->warned = warned;
  choice->gpu = gpu;
  choice->verb = verb;
  choice->gerund = gerund;
  choice->tried = FALSE;
}

/* Opens the CUDA backend; NULL on success, else why it is unusable. */
static gchar *
open_gpu (SharpnessBackendChoice * choice, gint device_id)
{
  GError *err = NULL;
  gchar *why;

  choice->tried = TRUE;
  if (!choice->gpu)
    return g_strdup (cuda_unavailable_reason);
  if (sharpness_backend_open (choice->gpu, device_id, &err))
    return NULL;
  why = g_strdup (err ? err->message : "the CUDA backend failed to open");
  g_clear_error (&err);
  return why;
}

static void
warn_fallback (SharpnessBackendChoice * choice, const gchar * why)
{
  SHARPNESS_WARN_ONCE (choice->element, choice->warned, RESOURCE, NOT_FOUND,
      "No usable CUDA device, %s on the CPU: %s", choice->gerund, why);
}

gboolean
sharpness_backend_choice_start (SharpnessBackendChoice * choice,
    GstSharpnessBackend backend, gint device_id)
{
  gchar *why;

  if (backend == GST_SHARPNESS_BACKEND_CPU)
    return TRUE;
  why = open_gpu (choice, device_id);
  if (!why) {
    GST_CAT_INFO_OBJECT (choice->category, choice->element,
        "%s on the CUDA backend", choice->gerund);
    return TRUE;
  }
  if (backend == GST_SHARPNESS_BACKEND_CUDA) {
    GST_ELEMENT_ERROR (choice->element, RESOURCE, NOT_FOUND,
        ("backend=cuda, but no CUDA device is usable: %s", why),
        ("set backend=auto or backend=cpu to %s on the CPU", choice->verb));
    g_free (why);
    return FALSE;
  }
  warn_fallback (choice, why);
  g_free (why);
  return TRUE;
}

gboolean
sharpness_backend_choice_use_gpu (SharpnessBackendChoice * choice,
    GstSharpnessBackend backend, gint device_id)
{
  gchar *why;

  if (backend == GST_SHARPNESS_BACKEND_CPU)
    return FALSE;
  if (sharpness_backend_is_open (choice->gpu))
    return TRUE;
  if (choice->tried)
    return FALSE;
  why = open_gpu (choice, device_id);
  if (!why)
    return TRUE;
  warn_fallback (choice, why);
  g_free (why);
  return FALSE;
}

void
sharpness_backend_choice_stop (SharpnessBackendChoice * choice)
{
  sharpness_backend_close (choice->gpu);
  choice->tried = FALSE;
}
