/* Where an element computes: the `backend` property (auto, cpu, cuda) of
 * cudasharpness and cudacompare, the choice it makes at start and per
 * frame (open the CUDA backend once; with auto, fall back to the CPU with
 * one warning saying why; with cuda, fail to start), and the one fallback
 * policy: a frame the GPU fails on goes to the CPU, unless the CPU could
 * not keep up with the stream doing it, since a fallback may never make a
 * frame late.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SHARPNESS_BACKEND_CHOICE_H
#define SHARPNESS_BACKEND_CHOICE_H

#include <gst/gst.h>

#include "sharpness-backend.h"
#include "sharpness-warn-once.h"

G_BEGIN_DECLS

typedef enum
{
  GST_SHARPNESS_BACKEND_AUTO,
  GST_SHARPNESS_BACKEND_CPU,
  GST_SHARPNESS_BACKEND_CUDA
} GstSharpnessBackend;

#define GST_TYPE_SHARPNESS_BACKEND (gst_sharpness_backend_get_type ())
GType gst_sharpness_backend_get_type (void);

/* Once, from plugin_init, when no CUDA driver is usable: @why is then the
 * reason every element gives for its fallback. */
void sharpness_backend_choice_set_cuda_unavailable (const gchar * why);
/* NULL when CUDA may be usable. */
const gchar *sharpness_backend_choice_cuda_unavailable (void);

typedef struct
{
  GstElement *element;
  GstDebugCategory *category;   /* the element's, for its log */
  SharpnessWarnOnce *warned;    /* the element's */
  SharpnessBackend *cpu;        /* the element's CPU backend */
  SharpnessBackend *gpu;        /* the element's CUDA backend, or NULL */
  /* For the messages: what the element does ("score", "scoring"). */
  const gchar *verb, *gerund;
  gboolean tried;               /* gpu opened, or failed to, since start */
} SharpnessBackendChoice;

/* The choice owns @cpu and @gpu (NULL when CUDA is unusable): freed by
 * sharpness_backend_choice_clear(). */
void sharpness_backend_choice_init (SharpnessBackendChoice * choice,
    GstElement * element, GstDebugCategory * category,
    SharpnessWarnOnce * warned, SharpnessBackend * cpu,
    SharpnessBackend * gpu, const gchar * verb, const gchar * gerund);
void sharpness_backend_choice_clear (SharpnessBackendChoice * choice);

/* From start: opens the CPU backend, and the CUDA backend unless @backend
 * is cpu.  FALSE (an error posted) when the CPU backend fails, or when
 * @backend is cuda and no device is usable; with auto, one warning and
 * TRUE. */
gboolean sharpness_backend_choice_start (SharpnessBackendChoice * choice,
    GstSharpnessBackend backend, gint device_id);
/* Per frame: TRUE when it goes to the GPU.  A switch from cpu to auto or
 * cuda while playing opens the device then; a failure is a warning there,
 * since the stream must keep flowing. */
gboolean sharpness_backend_choice_use_gpu (SharpnessBackendChoice * choice,
    GstSharpnessBackend backend, gint device_id);
/* From stop: closes the backends; the next start tries the GPU again. */
void sharpness_backend_choice_stop (SharpnessBackendChoice * choice);

/* Runs @job on @backend; errors in SHARPNESS_BACKEND_ERROR. */
typedef gboolean (*SharpnessBackendRun) (SharpnessBackend * backend,
    gpointer job, GError ** error);
/* Called before a fallback (not backend=cpu) hands @job to the CPU:
 * removes from @job what the CPU cannot compute at the stream's pace,
 * warning once; FALSE when nothing is left to compute. */
typedef gboolean (*SharpnessCpuLimit) (gpointer job, gpointer user_data);

/* Per frame: runs @job on the GPU when in use, else, or when the GPU failed
 * on it, on the CPU (through @cpu_limit unless @backend is cpu).  @what
 * names the work in warnings ("laplacian"), or NULL.  The backend that ran
 * it, NULL (warned once) when the frame goes on unscored.  A lost device closes the GPU backend
 * until the next start; a job the metric refuses is not retried on the
 * CPU, which would refuse it too. */
SharpnessBackend *sharpness_backend_choice_run (SharpnessBackendChoice * choice,
    GstSharpnessBackend backend, gint device_id, SharpnessBackendRun run,
    SharpnessCpuLimit cpu_limit, gpointer user_data, gpointer job,
    const gchar * what);

G_END_DECLS
#endif /* SHARPNESS_BACKEND_CHOICE_H */
