/* The element's CUDA side: GstCudaContext sharing, the element's stream,
 * the pinned-memory pool offered upstream, and scoring of system-memory and
 * CUDA-memory buffers.  Compiled only when HAVE_CUDA.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SHARPNESS_GPU_H
#define SHARPNESS_GPU_H

#include <gst/gst.h>
#include <gst/video/video.h>

#include "sharpness-metric.h"

G_BEGIN_DECLS

typedef struct _SharpnessGpu SharpnessGpu;

/* Domain of the errors below; messages carry the CUDA backend's reason. */
#define SHARPNESS_GPU_ERROR (sharpness_gpu_error_quark ())
GQuark sharpness_gpu_error_quark (void);

typedef enum
{
  /* open: no CUDA context could be made for the requested device. */
  SHARPNESS_GPU_ERROR_NO_DEVICE,
  /* score: this frame could not be scored on the GPU; later ones may be. */
  SHARPNESS_GPU_ERROR_FRAME,
  /* score: the CUDA context hit a sticky error (e.g. an illegal address,
   * possibly caused by another element sharing it): the context is
   * unusable and every later call fails at once with this code. */
  SHARPNESS_GPU_ERROR_DEVICE_LOST
} SharpnessGpuError;

/* Once, from plugin_init: loads libcuda and initialises libgstcuda.
 * FALSE (with a reason) when no CUDA driver is usable. */
gboolean sharpness_gpu_init_once (const gchar ** why);

/* @element: the owner, used for context queries and messages. */
SharpnessGpu *sharpness_gpu_new (GstElement * element);
void sharpness_gpu_free (SharpnessGpu * gpu);

/* Called from GstElement::set_context. */
void sharpness_gpu_set_context (SharpnessGpu * gpu, GstContext * context,
    gint device_id);

/* Answers GST_QUERY_CONTEXT for the CUDA context; FALSE if not handled. */
gboolean sharpness_gpu_handle_context_query (SharpnessGpu * gpu,
    GstQuery * query);

/* From GstBaseTransform::start: finds or creates the GstCudaContext for
 * @device_id (-1 = any), its stream and kernels.  On failure sets @error
 * (a reason a user can act on) and returns FALSE. */
gboolean sharpness_gpu_open (SharpnessGpu * gpu, gint device_id,
    GError ** error);
/* From GstBaseTransform::stop. */
void sharpness_gpu_close (SharpnessGpu * gpu);
gboolean sharpness_gpu_is_open (SharpnessGpu * gpu);

/* From GstBaseTransform::propose_allocation, after chaining up: for system
 * memory caps, puts a pool of pinned host memory first in @query. */
void sharpness_gpu_propose_allocation (SharpnessGpu * gpu, GstQuery * query);

/* Scores @buffer (system or CUDA memory, as @info/@cuda_memory say).
 * On FALSE, @error says why; the caller falls back to the CPU. */
gboolean sharpness_gpu_score (SharpnessGpu * gpu, SharpnessMetric metric,
    GstBuffer * buffer, const GstVideoInfo * info, gboolean cuda_memory,
    gdouble * score, GError ** error);

G_END_DECLS
#endif /* SHARPNESS_GPU_H */
