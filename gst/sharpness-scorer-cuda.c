/* The CUDA scorer: a CUDA session (sharpness-cuda-session.h: context
 * sharing and adoption, stream ordering, frame mapping, the pinned pool)
 * around the sharpness backend of cuda/.  Compiled only when HAVE_CUDA.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "sharpness-scorer.h"
#include "sharpness-cuda-session.h"
#include "sharpness-cuda.h"
#include "sharpness-frame.h"

typedef struct
{
  SharpnessScorer parent;
  SharpnessCudaSession *session;
  /* Made in the session's context by setup(), freed by teardown(). */
  SharpnessCuda *cuda;
} SharpnessScorerCuda;

gboolean
sharpness_scorer_cuda_init_once (const gchar ** why)
{
  return sharpness_cuda_session_init_once (why);
}

static gboolean
backend_setup (gpointer user_data, CUstream stream, GError ** error)
{
  SharpnessScorerCuda *self = user_data;
  SharpnessStatus status = sharpness_cuda_new (stream, &self->cuda);

  if (status == SHARPNESS_OK)
    return TRUE;
  self->cuda = NULL;
  g_set_error (error, SHARPNESS_SCORER_ERROR,
      SHARPNESS_SCORER_ERROR_NO_DEVICE, "cannot set up the CUDA backend: %s",
      sharpness_status_to_string (status));
  return FALSE;
}

static void
backend_teardown (gpointer user_data)
{
  SharpnessScorerCuda *self = user_data;

  g_clear_pointer (&self->cuda, sharpness_cuda_free);
}

static void
cuda_set_context (SharpnessScorer * scorer, GstContext * context,
    gint device_id)
{
  sharpness_cuda_session_set_context (((SharpnessScorerCuda *) scorer)->session,
      context, device_id);
}

static gboolean
cuda_handle_context_query (SharpnessScorer * scorer, GstQuery * query)
{
  return sharpness_cuda_session_handle_context_query (((SharpnessScorerCuda *)
          scorer)->session, query);
}

static gboolean
cuda_open (SharpnessScorer * scorer, gint device_id, GError ** error)
{
  return sharpness_cuda_session_open (((SharpnessScorerCuda *)
          scorer)->session, device_id, error);
}

static void
cuda_close (SharpnessScorer * scorer)
{
  sharpness_cuda_session_close (((SharpnessScorerCuda *) scorer)->session);
}

static gboolean
cuda_is_open (SharpnessScorer * scorer)
{
  return sharpness_cuda_session_is_open (((SharpnessScorerCuda *)
          scorer)->session);
}

/* Turns a backend failure into @error.  A device error is checked for
 * stickiness: after one (an illegal address, say) every call in the
 * context fails, and the element must not keep trying silently. */
static gboolean
fail (SharpnessScorerCuda * self, SharpnessStatus status, GError ** error)
{
  if (status == SHARPNESS_ERROR_DEVICE) {
    const gchar *msg = sharpness_cuda_last_error (self->cuda);
    gboolean lost = sharpness_cuda_session_check_lost (self->session);

    if (lost)
      GST_ERROR_OBJECT (self->parent.element, "CUDA context is unusable: %s",
          msg);
    g_set_error (error, SHARPNESS_SCORER_ERROR, lost ?
        SHARPNESS_SCORER_ERROR_DEVICE_LOST : SHARPNESS_SCORER_ERROR_FRAME,
        "CUDA backend: %s", msg);
  } else {
    g_set_error (error, SHARPNESS_SCORER_ERROR, SHARPNESS_SCORER_ERROR_METRIC,
        "%s", sharpness_status_to_string (status));
  }
  return FALSE;
}

static gboolean
cuda_score (SharpnessScorer * scorer, SharpnessMetric metric,
    GstBuffer * buffer, const GstVideoInfo * info, gdouble * score,
    GError ** error)
{
  SharpnessScorerCuda *self = (SharpnessScorerCuda *) scorer;
  SharpnessCudaFrame frame;
  SharpnessPlane plane;
  SharpnessStatus status;
  gint stride;

  if (!sharpness_cuda_session_ready (self->session, error))
    return FALSE;
  /* Device pointers for CUDA memory (in place), else host memory the
   * backend copies. */
  if (!sharpness_cuda_session_map (self->session, buffer, info, TRUE, &frame,
          error))
    return FALSE;

  stride = GST_VIDEO_FRAME_PLANE_STRIDE (&frame.frame, 0);
  if (stride <= 0 || !sharpness_plane_init (&plane, &frame.frame.info,
          GST_VIDEO_FRAME_PLANE_DATA (&frame.frame, 0), stride)) {
    g_set_error (error, SHARPNESS_SCORER_ERROR, SHARPNESS_SCORER_ERROR_MAP,
        "unsupported layout of %s (plane 0 stride %d)",
        GST_VIDEO_INFO_NAME (info), stride);
    sharpness_cuda_session_unmap (&frame);
    return FALSE;
  }

  if (!sharpness_cuda_session_push (self->session, error)) {
    sharpness_cuda_session_unmap (&frame);
    return FALSE;
  }
  if (frame.device)
    status = sharpness_cuda_score_device (self->cuda, metric, &plane, score);
  else
    status = sharpness_cuda_score_host (self->cuda, metric, &plane, score);
  sharpness_cuda_session_pop (self->session);
  sharpness_cuda_session_unmap (&frame);

  return status == SHARPNESS_OK ? TRUE : fail (self, status, error);
}

static gboolean
cuda_propose_allocation (SharpnessScorer * scorer, GstQuery * query)
{
  return sharpness_cuda_session_propose_allocation (((SharpnessScorerCuda *)
          scorer)->session, query);
}

static void
cuda_free (SharpnessScorer * scorer)
{
  SharpnessScorerCuda *self = (SharpnessScorerCuda *) scorer;

  sharpness_cuda_session_free (self->session);
  g_free (self);
}

static const SharpnessScorerClass cuda_class = {
  .name = "cuda",
  .open = cuda_open,
  .close = cuda_close,
  .is_open = cuda_is_open,
  .score = cuda_score,
  .set_context = cuda_set_context,
  .handle_context_query = cuda_handle_context_query,
  .propose_allocation = cuda_propose_allocation,
  .free = cuda_free,
};

SharpnessScorer *
sharpness_scorer_new_cuda (GstElement * element)
{
  SharpnessScorerCuda *self;

  if (!sharpness_scorer_cuda_init_once (NULL))
    return NULL;
  self = g_new0 (SharpnessScorerCuda, 1);
  self->parent.klass = &cuda_class;
  self->parent.element = element;
  self->session = sharpness_cuda_session_new (element, backend_setup,
      backend_teardown, self);
  return &self->parent;
}
