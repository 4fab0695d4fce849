/* The CPU scorer: maps the frame for reading (honouring GstVideoMeta
 * strides; CUDA memory is downloaded, which is slow but only a fallback)
 * and runs the plain-C backend.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "sharpness-scorer.h"
#include "sharpness-cpu.h"
#include "sharpness-frame.h"

typedef struct
{
  SharpnessScorer parent;
  SharpnessCpu *cpu;            /* between open and close */
} SharpnessScorerCpu;

static gboolean
cpu_open (SharpnessBackend * scorer, gint device_id, GError ** error)
{
  SharpnessScorerCpu *self = (SharpnessScorerCpu *) scorer;

  if (self->cpu)
    return TRUE;
  self->cpu = sharpness_cpu_new ();
  if (!self->cpu) {
    g_set_error (error, SHARPNESS_BACKEND_ERROR, SHARPNESS_BACKEND_ERROR_NO_DEVICE,
        "could not allocate the CPU backend");
    return FALSE;
  }
  return TRUE;
}

static void
cpu_close (SharpnessBackend * scorer)
{
  SharpnessScorerCpu *self = (SharpnessScorerCpu *) scorer;

  g_clear_pointer (&self->cpu, sharpness_cpu_free);
}

static gboolean
cpu_is_open (SharpnessBackend * scorer)
{
  return ((SharpnessScorerCpu *) scorer)->cpu != NULL;
}

static SharpnessStatus
run_on_plane (SharpnessCpu * cpu, const SharpnessScorerJob * job,
    const SharpnessPlane * plane)
{
  switch (job->kind) {
    case SHARPNESS_SCORER_SCORE:
      return sharpness_cpu_score (cpu, job->metric, plane, job->score);
    case SHARPNESS_SCORER_TILES:
      return sharpness_cpu_sums_tiles (cpu, job->metric, plane, job->sums,
          job->tiles);
    case SHARPNESS_SCORER_REGIONS:
      for (gint i = 0; i < job->n_regions; i++)
        job->regions[i].plane = *plane;
      return sharpness_cpu_sums_batch (cpu, job->metric, job->regions,
          job->n_regions, job->sums);
  }
  return SHARPNESS_ERROR_INVALID;
}

static gboolean
cpu_run (SharpnessScorer * scorer, GstBuffer * buffer,
    const GstVideoInfo * info, const SharpnessScorerJob * job,
    GError ** error)
{
  SharpnessScorerCpu *self = (SharpnessScorerCpu *) scorer;
  GstVideoFrame frame;
  SharpnessPlane plane;
  SharpnessStatus status = SHARPNESS_ERROR_UNSUPPORTED;

  g_return_val_if_fail (self->cpu != NULL, FALSE);

  if (!gst_video_frame_map (&frame, info, buffer, GST_MAP_READ)) {
    g_set_error (error, SHARPNESS_BACKEND_ERROR, SHARPNESS_BACKEND_ERROR_MAP,
        "could not map a frame for reading");
    return FALSE;
  }
  if (GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0) > 0 &&
      sharpness_plane_init (&plane, info,
          GST_VIDEO_FRAME_PLANE_DATA (&frame, 0),
          GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0)))
    status = run_on_plane (self->cpu, job, &plane);
  gst_video_frame_unmap (&frame);

  if (status != SHARPNESS_OK) {
    g_set_error (error, SHARPNESS_BACKEND_ERROR, SHARPNESS_BACKEND_ERROR_METRIC,
        "%s", sharpness_status_to_string (status));
    return FALSE;
  }
  return TRUE;
}

static void
cpu_free (SharpnessBackend * scorer)
{
  cpu_close (scorer);
  g_free (scorer);
}

static const SharpnessScorerClass cpu_class = {
  .parent = {
        .name = "cpu",
        .open = cpu_open,
        .close = cpu_close,
        .is_open = cpu_is_open,
        .free = cpu_free,
      },
  .run = cpu_run,
};

SharpnessScorer *
sharpness_scorer_new_cpu (GstElement * element)
{
  SharpnessScorerCpu *self = g_new0 (SharpnessScorerCpu, 1);

  self->parent.parent.klass = &cpu_class.parent;
  self->parent.parent.element = element;
  return &self->parent;
}
