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

#include <string.h>

#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudautils.h>

#include "sharpness-scorer.h"
#include "sharpness-cuda-backend.h"
#include "sharpness-cuda.h"
#include "sharpness-cuda-service.h"
#include "sharpness-focus.h"
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

/* The content measurements of one frame (sharpness-scorer.h's
 * SharpnessContentJob) as the CUDA backend takes them. */
typedef struct
{
  SharpnessContentJob *job;     /* NULL: nothing to measure */
  SharpnessContentParams params;
  SharpnessContentPlanes planes;
  gboolean begun;
} ContentRun;

/* What @job asks for, and where the frame's planes are. */
static void
content_plan (ContentRun * cr, SharpnessContentJob * job,
    const SharpnessCudaFrame * frame, const SharpnessPlane * plane)
{
  memset (cr, 0, sizeof (*cr));
  if (!job)
    return;
  job->measured = FALSE;
  job->has_sad = FALSE;
  job->focus_measured = FALSE;
  if (!job->black && !job->structure && !job->cpbd && !job->freeze)
    return;
  cr->job = job;
  cr->params.black = job->black;
  cr->params.black_threshold = job->black_threshold;
  cr->params.structure = job->structure;
  cr->params.edge_level = job->edge_level;
  cr->params.cpbd = job->cpbd;
  cr->planes.luma = *plane;
  if (job->freeze) {
    const SharpnessFreezeLayout *l = job->freeze;

    cr->params.n_planes = MIN (l->n_planes, 4);
    cr->params.bytes_per_sample = l->bytes_per_sample;
    cr->params.v210_samples = l->v210_samples;
    for (gint p = 0; p < cr->params.n_planes; p++) {
      cr->params.width[p] = l->width[p];
      cr->params.height[p] = l->height[p];
      cr->planes.data[p] = GST_VIDEO_FRAME_PLANE_DATA (&frame->frame, p);
      cr->planes.stride[p] = GST_VIDEO_FRAME_PLANE_STRIDE (&frame->frame, p);
    }
  }
}

/* Queues the measurement (@order: beside the metric on our stream, or in
 * order on it while the metric runs on the service's).  A frame the
 * backend cannot measure is scored all the same, unmeasured; a device
 * failure fails it. */
static SharpnessStatus
content_begin (SharpnessScorerCuda * self, ContentRun * cr,
    SharpnessContentOrder order)
{
  SharpnessStatus status;

  if (!cr->job)
    return SHARPNESS_OK;
  status = sharpness_cuda_content_begin (self->cuda, &cr->planes, &cr->params,
      order);
  if (status == SHARPNESS_OK) {
    cr->begun = TRUE;
    return SHARPNESS_OK;
  }
  GST_DEBUG_OBJECT (self->parent.parent.element, "content not measured: %s",
      sharpness_status_to_string (status));
  cr->job = NULL;
  return status == SHARPNESS_ERROR_DEVICE ? status : SHARPNESS_OK;
}

/* Reads the measurement back (after the metric's synchronisation: usually
 * without waiting) into the job. */
static SharpnessStatus
content_end (SharpnessScorerCuda * self, ContentRun * cr)
{
  SharpnessContentSums sums;
  SharpnessContentJob *c = cr->job;
  SharpnessStatus status;

  if (!cr->begun)
    return SHARPNESS_OK;
  cr->begun = FALSE;
  status = sharpness_cuda_content_end (self->cuda, &sums);
  if (status != SHARPNESS_OK)
    return status;
  c->measured = TRUE;
  c->black_count = sums.black_count;
  c->pixels = sums.pixels;
  c->edges = sums.edges;
  c->interior = sums.interior;
  c->cpbd_measured = c->cpbd;
  c->cpbd_edges = sums.cpbd_edges;
  c->cpbd_sharp = sums.cpbd_sharp;
  c->has_sad = sums.has_sad;
  c->sad = sums.sad;
  return SHARPNESS_OK;
}

/* The frame score of a classical metric in CUDA memory through the
 * context's scoring service, on its stream: the frame must be complete on
 * the device first.  From 1.24 upstream may have written the memory on our
 * stream (the pool we propose carries it); 1.22's producers finish before
 * pushing.  The content measurement goes on our stream after that wait,
 * so that it runs while the service's launch does.  Pushed. */
static SharpnessStatus
score_by_service (SharpnessScorerCuda * self, const SharpnessScorerJob * job,
    const SharpnessPlane * plane, ContentRun * cr, const gchar ** msg)
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
  status = content_begin (self, cr, SHARPNESS_CONTENT_IN_ORDER);
  if (status != SHARPNESS_OK)
    return status;
  status = sharpness_cuda_service_sums (self->service, job->metric, plane,
      &sums, msg);
  if (status == SHARPNESS_OK)
    *job->score = sharpness_score_from_sums (job->metric, &sums,
        plane->width, plane->height);
  return status;
}

/* Whether the frame's content measurement goes into the launch of its
 * score (one launch, one ending, on our stream). */
static gboolean
content_fuses (const SharpnessScorerJob * job, const SharpnessPlane * plane,
    const ContentRun * cr)
{
  return cr->job && job->kind == SHARPNESS_SCORER_SCORE &&
      sharpness_cuda_content_fuses (job->metric, plane);
}

/* Frames the service batches: classical frame scores in CUDA memory.  A
 * frame in system memory is bound by its copy, which the backend overlaps
 * with the kernel on our own stream (cuda/band-upload.cu): batching it
 * with other streams' frames would wait for the copy first.  A frame whose
 * content measurement its score's launch takes stays on our stream too:
 * one launch instead of the service's plus one of its own. */
static gboolean
by_service (SharpnessScorerCuda * self, const SharpnessScorerJob * job,
    const SharpnessPlane * plane, gboolean device, const ContentRun * cr)
{
  return self->service && device && job->kind == SHARPNESS_SCORER_SCORE &&
      sharpness_cuda_service_handles (job->metric) &&
      !content_fuses (job, plane, cr);
}

/* Runs @job on @plane, a device plane when @device, else host memory the
 * backend copies (staged once for tiles and regions), on our own stream.
 * Pushed. */
static SharpnessStatus
run_on_plane (SharpnessScorerCuda * self, const SharpnessScorerJob * job,
    const SharpnessPlane * plane, gboolean device)
{
  SharpnessCuda *cuda = self->cuda;
  SharpnessPlane staged;
  SharpnessStatus status;

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

/* The frame's score (and tiles, regions) and its content measurement.
 * One synchronisation per frame: the metric's.  A classical frame score of
 * NV12, I420 or P010 luma runs the measurement's items in its own launch
 * (FUSED); otherwise, on our stream, the measurement runs beside the
 * metric's launch (forked after the frame's producer and copies), and
 * through the service it runs on our stream while the service's launch
 * runs on its own.  Either way it is read back from mapped memory once the
 * metric's wait returns.  A host frame measured is copied once, all its
 * compared planes, and the metric reads that copy.  Pushed. */
static SharpnessStatus
run_frame (SharpnessScorerCuda * self, const SharpnessScorerJob * job,
    const SharpnessPlane * plane, gboolean device, ContentRun * cr,
    const gchar ** msg)
{
  SharpnessContentPlanes staged;
  SharpnessStatus status, content;

  if (by_service (self, job, plane, device, cr))
    status = score_by_service (self, job, plane, cr, msg);
  else {
    if (cr->job && !device) {
      status = sharpness_cuda_content_stage_host (self->cuda, &cr->planes,
          &cr->params, &staged);
      if (status == SHARPNESS_OK) {
        cr->planes = staged;
        plane = &staged.luma;
        device = TRUE;
      } else if (status == SHARPNESS_ERROR_DEVICE) {
        return status;
      } else {
        /* Scored all the same, from host memory, unmeasured. */
        GST_DEBUG_OBJECT (self->parent.parent.element, "content not "
            "measured: %s", sharpness_status_to_string (status));
        cr->job = NULL;
      }
    }
    status = content_begin (self, cr, content_fuses (job, plane, cr) ?
        SHARPNESS_CONTENT_FUSED : SHARPNESS_CONTENT_BESIDE);
    if (status == SHARPNESS_OK)
      status = run_on_plane (self, job, plane, device);
  }
  /* Always, once begun: the launch may read the frame until it is done. */
  content = content_end (self, cr);
  return status != SHARPNESS_OK ? status : content;
}

/* The focus tiles of a frame whose score the rule's absolute test flags
 * (sharpness-scorer.h), once the score is known: a launch, a copy back and
 * a wait for those frames alone; a host frame is copied again.  A frame
 * the backend cannot measure is judged without the gate; a device failure
 * fails it.  Pushed. */
static SharpnessStatus
measure_focus (SharpnessScorerCuda * self, const SharpnessScorerJob * job,
    const SharpnessPlane * plane, gboolean device)
{
  SharpnessContentJob *c = job->content;
  const SharpnessFocusTile *tiles;
  SharpnessPlane staged;
  SharpnessStatus status;
  gint n;

  if (!c || !c->focus || (job->kind == SHARPNESS_SCORER_SCORE &&
          !sharpness_metric_is_worse (job->metric, *job->score,
              c->cpbd_over)))
    return SHARPNESS_OK;
  status = device ? SHARPNESS_OK :
      sharpness_cuda_stage_host (self->cuda, plane, &staged);
  if (status == SHARPNESS_OK)
    status = sharpness_cuda_focus_tiles (self->cuda, device ? plane :
        &staged, &tiles, &n);
  if (status == SHARPNESS_OK) {
    c->focus_measured = TRUE;
    c->focus_value = sharpness_focus_lowest (tiles, n);
    return SHARPNESS_OK;
  }
  GST_DEBUG_OBJECT (self->parent.parent.element, "focus not measured: %s",
      sharpness_status_to_string (status));
  return status == SHARPNESS_ERROR_DEVICE ? status : SHARPNESS_OK;
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
  ContentRun cr;
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
  content_plan (&cr, job->content, &frame, &plane);

  if (!sharpness_cuda_session_push (self->parent.session, error)) {
    sharpness_cuda_session_unmap (&frame);
    return FALSE;
  }
  {
    /* Work the service does not batch still goes through its admission:
     * a few threads of the context launch at once, the others sleep. */
    gboolean guest = self->service &&
        !by_service (self, job, &plane, frame.device, &cr);

    if (guest)
      sharpness_cuda_service_enter (self->service);
    status = run_frame (self, job, &plane, frame.device, &cr, &msg);
    if (status == SHARPNESS_OK)
      status = measure_focus (self, job, &plane, frame.device);
    if (guest)
      sharpness_cuda_service_leave (self->service);
  }
  /* A failed call may leave a staging copy from host memory queued: it
   * must be done before that memory is unmapped. */
  if (status != SHARPNESS_OK && !frame.device)
    CuStreamSynchronize (sharpness_cuda_session_stream (self->parent.session));
  sharpness_cuda_session_pop (self->parent.session);
  sharpness_cuda_session_unmap (&frame);

  if (status != SHARPNESS_OK && cr.job)
    cr.job->measured = FALSE;
  return status == SHARPNESS_OK ? TRUE : fail (self, status, msg, error);
}

/* The candidate becomes the reference (a swap of two device buffers), or
 * the reference is forgotten.  Bookkeeping only: no CUDA call. */
static void
cuda_reference (SharpnessScorer * scorer, gboolean keep)
{
  SharpnessScorerCuda *self = (SharpnessScorerCuda *) scorer;

  if (self->cuda)
    sharpness_cuda_content_reference (self->cuda, keep);
}

static const SharpnessScorerClass cuda_class = {
  .parent = SHARPNESS_CUDA_BACKEND_CLASS ("cuda"),
  .run = cuda_run,
  .reference = cuda_reference,
};

SharpnessScorer *
sharpness_scorer_new_cuda (GstElement * element)
{
  return (SharpnessScorer *) sharpness_cuda_backend_new (sizeof
      (SharpnessScorerCuda), &cuda_class.parent, element, backend_setup,
      backend_teardown);
}
