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
cpu_open (SharpnessScorer * scorer, gint device_id, GError ** error)
{
  SharpnessScorerCpu *self = (SharpnessScorerCpu *) scorer;

  if (self->cpu)
    return TRUE;
  self->cpu = sharpness_cpu_new ();
  if (!self->cpu) {
    g_set_error (error, SHARPNESS_SCORER_ERROR, SHARPNESS_SCORER_ERROR_NO_DEVICE,
        "could not allocate the CPU backend");
    return FALSE;
  }
  return TRUE;
}

static void
cpu_close (SharpnessScorer * scorer)
{
  SharpnessScorerCpu *self = (SharpnessScorerCpu *) scorer;

  g_clear_pointer (&self->cpu, sharpness_cpu_free);
}

static gboolean
cpu_is_open (SharpnessScorer * scorer)
{
  return ((SharpnessScorerCpu *) scorer)->cpu != NULL;
}

static gboolean
cpu_score (SharpnessScorer * scorer, SharpnessMetric metric,
    GstBuffer * buffer, const GstVideoInfo * info, gdouble * score,
    GError ** error)
{
  SharpnessScorerCpu *self = (SharpnessScorerCpu *) scorer;
  GstVideoFrame frame;
  SharpnessPlane plane;
  SharpnessStatus status = SHARPNESS_ERROR_UNSUPPORTED;

  g_return_val_if_fail (self->cpu != NULL, FALSE);

  if (!gst_video_frame_map (&frame, info, buffer, GST_MAP_READ)) {
    g_set_error (error, SHARPNESS_SCORER_ERROR, SHARPNESS_SCORER_ERROR_MAP,
        "could not map a frame for reading");
    return FALSE;
  }
  if (GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0) > 0 &&
      sharpness_plane_init (&plane, info,
          GST_VIDEO_FRAME_PLANE_DATA (&frame, 0),
          GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0)))
    status = sharpness_cpu_score (self->cpu, metric, &plane, score);
  gst_video_frame_unmap (&frame);

  if (status != SHARPNESS_OK) {
    g_set_error (error, SHARPNESS_SCORER_ERROR, SHARPNESS_SCORER_ERROR_METRIC,
        "%s", sharpness_status_to_string (status));
    return FALSE;
  }
  return TRUE;
}

static void
cpu_free (SharpnessScorer * scorer)
{
  cpu_close (scorer);
  g_free (scorer);
}

static const SharpnessScorerClass cpu_class = {
  .name = "cpu",
  .open = cpu_open,
  .close = cpu_close,
  .is_open = cpu_is_open,
  .score = cpu_score,
  .free = cpu_free,
};

SharpnessScorer *
sharpness_scorer_new_cpu (GstElement * element)
{
  SharpnessScorerCpu *self = g_new0 (SharpnessScorerCpu, 1);

  self->parent.klass = &cpu_class;
  self->parent.element = element;
  return &self->parent;
}
