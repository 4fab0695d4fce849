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
    SharpnessWarnOnce * warned, SharpnessBackend * cpu,
    SharpnessBackend * gpu, const gchar * verb, const gchar * gerund)
{
  choice->element = element;
  choice->category = category;
  choice->warned = warned;
  choice->cpu = cpu;
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

void
sharpness_backend_choice_clear (SharpnessBackendChoice * choice)
{
  g_clear_pointer (&choice->gpu, sharpness_backend_free);
  g_clear_pointer (&choice->cpu, sharpness_backend_free);
}

gboolean
sharpness_backend_choice_start (SharpnessBackendChoice * choice,
    GstSharpnessBackend backend, gint device_id)
{
  GError *err = NULL;
  gchar *why;

  if (!sharpness_backend_open (choice->cpu, -1, &err)) {
    GST_ELEMENT_ERROR (choice->element, CORE, FAILED, ("%s", err->message),
        (NULL));
    g_clear_error (&err);
    return FALSE;
  }
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
    sharpness_backend_close (choice->cpu);
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
  sharpness_backend_close (choice->cpu);
  choice->tried = FALSE;
}

#define WARN(choice, domain, code, ...) \
  SHARPNESS_WARN_ONCE ((choice)->element, (choice)->warned, domain, code, \
      __VA_ARGS__)

/* "Scoring laplacian", "Comparing": the subject of the warnings. */
static gchar *
subject (SharpnessBackendChoice * choice, const gchar * what)
{
  gchar *s = g_strconcat (choice->gerund, what ? " " : "", what, NULL);

  s[0] = g_ascii_toupper (s[0]);
  return s;
}

/* TRUE when the GPU computed @job; else (warned) whether the CPU may. */
static gboolean
run_gpu (SharpnessBackendChoice * choice, SharpnessBackendRun run,
    gpointer job, const gchar * what, gboolean * cpu_may)
{
  GError *err = NULL;
  gchar *subj;

  *cpu_may = TRUE;
  if (run (choice->gpu, job, &err))
    return TRUE;
  subj = subject (choice, what);
  if (g_error_matches (err, SHARPNESS_BACKEND_ERROR,
          SHARPNESS_BACKEND_ERROR_DEVICE_LOST)) {
    /* The context is unusable: stay off the GPU until the next start. */
    WARN (choice, RESOURCE, FAILED, "The CUDA device was lost, %s on the "
        "CPU from now on: %s", choice->gerund, err->message);
    sharpness_backend_close (choice->gpu);
  } else if (g_error_matches (err, SHARPNESS_BACKEND_ERROR,
          SHARPNESS_BACKEND_ERROR_METRIC)) {
    /* The metric refused the frame (too small, say): so would the CPU. */
    WARN (choice, STREAM, FAILED, "%s failed (%s): frames go on unscored",
        subj, err->message);
    *cpu_may = FALSE;
  } else {
    WARN (choice, RESOURCE, FAILED, "%s on the GPU failed, %s on the CPU "
        "instead: %s", subj, choice->gerund, err->message);
  }
  g_free (subj);
  g_clear_error (&err);
  return FALSE;
}

SharpnessBackend *
sharpness_backend_choice_run (SharpnessBackendChoice * choice,
    GstSharpnessBackend backend, gint device_id, SharpnessBackendRun run,
    SharpnessCpuLimit cpu_limit, gpointer user_data, gpointer job,
    const gchar * what)
{
  GError *err = NULL;
  gchar *subj;
  gboolean cpu_may = TRUE;

  if (sharpness_backend_choice_use_gpu (choice, backend, device_id)) {
    if (run_gpu (choice, run, job, what, &cpu_may))
      return choice->gpu;
    if (!cpu_may)
      return NULL;
  }
  if (backend != GST_SHARPNESS_BACKEND_CPU && cpu_limit &&
      !cpu_limit (job, user_data))
    return NULL;
  if (run (choice->cpu, job, &err))
    return choice->cpu;

  if (g_error_matches (err, SHARPNESS_BACKEND_ERROR,
          SHARPNESS_BACKEND_ERROR_MAP)) {
    WARN (choice, STREAM, DECODE, "Could not map a frame for reading: "
        "frames go on unscored");
  } else {
    subj = subject (choice, what);
    WARN (choice, STREAM, FAILED, "%s on the CPU failed (%s): frames go on "
        "unscored", subj, err->message);
    g_free (subj);
  }
  g_clear_error (&err);
  return NULL;
}
