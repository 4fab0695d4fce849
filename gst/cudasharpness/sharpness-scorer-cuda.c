/* The CUDA scorer: a CUDA session (sharpness-cuda-session.h: context
 * sharing and adoption, stream ordering, frame mapping, the pinned pool)
 * around the sharpness backend of cuda/; the frame scores of the classical
 * metrics go through the context's scoring service
 * (sharpness-cuda-service.h), which batches the frames of all elements
 * sharing the context.  Compiled only when HAVE_CUDA.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudautils.h>

#include "sharpness-scorer.h"
#include "sharpness-cuda-backend.h"
#include "sharpness-cuda.h"
#include "sharpness-cuda-service.h"
#include "sharpness-frame.h"

/* A SharpnessScorer: its common entry points are the session's. */
typedef struct
{
  SharpnessCudaBackend parent;
  /* Made in the session's context by setup(), freed by teardown(). */
  SharpnessCuda *cuda;
  /* The context's scoring service, or NULL (SHARPNESS_CUDA_NO_SERVICE, or
   * it could not be set up): then every frame runs on our own stream. */
  SharpnessCudaService *service;
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
  GError *err = NULL;

  if (status == SHARPNESS_OK) {
    self->service = sharpness_cuda_service_acquire_current (&err);
    if (err) {
      GST_WARNING_OBJECT (self->parent.parent.element, "scoring each frame "
          "on the element's own stream: %s", err->message);
      g_clear_error (&err);
    }
    return TRUE;
  }
  self->cuda = NULL;
  g_set_error (error, SHARPNESS_BACKEND_ERROR,
      SHARPNESS_BACKEND_ERROR_NO_DEVICE, "cannot set up the CUDA backend: %s",
      sharpness_status_to_string (status));
  return FALSE;
}

static void
backend_teardown (gpointer user_data)
{
  SharpnessScorerCuda *self = user_data;

  g_clear_pointer (&self->service, sharpness_cuda_service_release);
  g_clear_pointer (&self->cuda, sharpness_cuda_free);
}

/* Turns a backend failure into @error (@msg: the device error's message,
 * NULL: our backend's last).  A device error is checked for stickiness:
 * after one (an illegal address, say) every call in the context fails,
 * and the element must not keep trying silently. */
static gboolean
fail (SharpnessScorerCuda * self, SharpnessStatus status, const gchar * msg,
    GError ** error)
{
  if (status == SHARPNESS_ERROR_DEVICE) {
    gboolean lost = sharpness_cuda_session_check_lost (self->parent.session);

    if (!msg)
      msg = sharpness_cuda_last_error (self->cuda);
    if (lost)
      GST_ERROR_OBJECT (self->parent.parent.element, "CUDA context is unusable: %s",
          msg);
    g_set_error (error, SHARPNESS_BACKEND_ERROR, lost ?
        SHARPNESS_BACKEND_ERROR_DEVICE_LOST : SHARPNESS_BACKEND_ERROR_FRAME,
        "CUDA backend: %s", msg);
  } else {
    g_set_error (error, SHARPNESS_BACKEND_ERROR, SHARPNESS_BACKEND_ERROR_METRIC,
        "%s", sharpness_status_to_string (status));
  }
  return FALSE;
}

/* The frame score of a classical metric in CUDA memory through the
 * context's scoring service, on its stream: the frame must be complete on
 * the device first.  From 1.24 upstream may have written the memory on our
 * stream (the pool we propose carries it); 1.22's producers finish before
 * pushing.  Pushed. */
static SharpnessStatus
score_by_service (SharpnessScorerCuda * self, const SharpnessScorerJob * job,
    const SharpnessPlane * plane, const gchar ** msg)
{
  SharpnessSums sums;
  SharpnessStatus status;

#if GST_CHECK_VERSION (1, 24, 0)
  if (CuStreamSynchronize (sharpness_cuda_session_stream
          (self->parent.session)) != CUDA_SUCCESS) {
    *msg = "cannot wait for the element's CUDA stream";
    return SHARPNESS_ERROR_DEVICE;
  }
#endif
  status = sharpness_cuda_service_sums (self->service, job->metric, plane,
      &sums, msg);
  if (status == SHARPNESS_OK)
    *job->score = sharpness_score_from_sums (job->metric, &sums,
        plane->width, plane->height);
  return status;
}

/* Frames the service batches: classical frame scores in CUDA memory.  A
 * frame in system memory is bound by its copy, which the backend overlaps
 * with the kernel on our own stream (cuda/band-upload.cu): batching it
 * with other streams' frames would wait for the copy first. */
static gboolean
by_service (SharpnessScorerCuda * self, const SharpnessScorerJob * job,
    gboolean device)
{
  return self->service && device && job->kind == SHARPNESS_SCORER_SCORE &&
      sharpness_cuda_service_handles (job->metric);
}

/* Runs @job on @plane, a device plane when @device, else host memory the
 * backend copies (staged once for tiles and regions).  Pushed. */
static SharpnessStatus
run_on_plane (SharpnessScorerCuda * self, const SharpnessScorerJob * job,
    const SharpnessPlane * plane, gboolean device, const gchar ** msg)
{
  SharpnessCuda *cuda = self->cuda;
  SharpnessPlane staged;
  SharpnessStatus status;

  if (by_service (self, job, device))
    return score_by_service (self, job, plane, msg);
  if (job->kind == SHARPNESS_SCORER_SCORE)
    return device ?
        sharpness_cuda_score_device (cuda, job->metric, plane, job->score) :
        sharpness_cuda_score_host (cuda, job->metric, plane, job->score);
  if (!device) {
    status = sharpness_cuda_stage_host (cuda, plane, &staged);
    if (status != SHARPNESS_OK)
      return status;
    plane = &staged;
  }
  if (job->kind == SHARPNESS_SCORER_TILES)
    return sharpness_cuda_sums_tiles (cuda, job->metric, plane, job->sums,
        job->tiles);
  for (gint i = 0; i < job->n_regions; i++)
    job->regions[i].plane = *plane;
  return sharpness_cuda_sums_batch (cuda, job->metric, job->regions,
      job->n_regions, job->sums);
}

static gboolean
cuda_run (SharpnessScorer * scorer, GstBuffer * buffer,
    const GstVideoInfo * info, const SharpnessScorerJob * job,
    GError ** error)
{
  SharpnessScorerCuda *self = (SharpnessScorerCuda *) scorer;
  SharpnessCudaFrame frame;
  SharpnessPlane plane;
  SharpnessStatus status;
  const gchar *msg = NULL;
  gint stride;

  if (!sharpness_cuda_session_ready (self->parent.session, error))
    return FALSE;
  /* Device pointers for CUDA memory (in place), else host memory the
   * backend copies. */
  if (!sharpness_cuda_session_map (self->parent.session, buffer, info, TRUE, &frame,
          error))
    return FALSE;

  stride = GST_VIDEO_FRAME_PLANE_STRIDE (&frame.frame, 0);
  if (stride <= 0 || !sharpness_plane_init (&plane, &frame.frame.info,
          GST_VIDEO_FRAME_PLANE_DATA (&frame.frame, 0), stride)) {
    g_set_error (error, SHARPNESS_BACKEND_ERROR, SHARPNESS_BACKEND_ERROR_MAP,
        "unsupported layout of %s (plane 0 stride %d)",
        GST_VIDEO_INFO_NAME (info), stride);
    sharpness_cuda_session_unmap (&frame);
    return FALSE;
  }

  if (!sharpness_cuda_session_push (self->parent.session, error)) {
    sharpness_cuda_session_unmap (&frame);
    return FALSE;
  }
  {
    /* Work the service does not batch still goes through its admission:
     * a few threads of the context launch at once, the others sleep. */
    gboolean guest = self->service && !by_service (self, job, frame.device);

    if (guest)
      sharpness_cuda_service_enter (self->service);
    status = run_on_plane (self, job, &plane, frame.device, &msg);
    if (guest)
      sharpness_cuda_service_leave (self->service);
  }
  /* A failed call may leave a staging copy from host memory queued: it
   * must be done before that memory is unmapped. */
  if (status != SHARPNESS_OK && !frame.device)
    CuStreamSynchronize (sharpness_cuda_session_stream (self->parent.session));
  sharpness_cuda_session_pop (self->parent.session);
  sharpness_cuda_session_unmap (&frame);

  return status == SHARPNESS_OK ? TRUE : fail (self, status, msg, error);
}

static const SharpnessScorerClass cuda_class = {
  .parent = SHARPNESS_CUDA_BACKEND_CLASS ("cuda"),
  .run = cuda_run,
};

SharpnessScorer *
sharpness_scorer_new_cuda (GstElement * element)
{
  return (SharpnessScorer *) sharpness_cuda_backend_new (sizeof
      (SharpnessScorerCuda), &cuda_class.parent, element, backend_setup,
      backend_teardown);
}
