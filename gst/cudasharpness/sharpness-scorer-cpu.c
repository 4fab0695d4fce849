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

#include <string.h>

#include "sharpness-black.h"
#include "sharpness-cpbd.h"
#include "sharpness-focus.h"
#include "sharpness-scorer.h"
#include "sharpness-cpu.h"
#include "sharpness-frame.h"
#include "sharpness-structure.h"

/* A host copy of a frame's compared planes. */
typedef struct
{
  guint8 *data;
  gsize size;
  gsize offset[4], stride[4];
} FrameCopy;

typedef struct
{
  SharpnessScorer parent;
  SharpnessCpu *cpu;            /* between open and close */
  /* Freeze detection: the reference and the last measured frame, of
   * layout (grown, never allocated per frame). */
  SharpnessFreezeLayout layout;
  FrameCopy copies[2];
  FrameCopy *reference, *candidate;
  gboolean have_reference, have_candidate;
  SharpnessFocusScratch focus;  /* grown, never allocated per frame */
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
  sharpness_focus_scratch_clear (&self->focus);
  for (gint i = 0; i < 2; i++) {
    g_clear_pointer (&self->copies[i].data, g_free);
    self->copies[i].size = 0;
  }
  self->have_reference = self->have_candidate = FALSE;
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

/* Sizes @copy for @l; FALSE when out of memory. */
static gboolean
copy_layout (FrameCopy * copy, const SharpnessFreezeLayout * l)
{
  gsize size = 0;

  for (gint p = 0; p < l->n_planes; p++) {
    copy->offset[p] = size;
    copy->stride[p] = (gsize) l->width[p] * l->bytes_per_sample;
    size += copy->stride[p] * l->height[p];
  }
  if (size > copy->size) {
    g_free (copy->data);
    copy->data = g_try_malloc (size);
    copy->size = copy->data ? size : 0;
  }
  return copy->data != NULL;
}

/* SAD of @frame against the reference, then @frame into the candidate. */
static void
measure_freeze (SharpnessScorerCpu * self, const GstVideoFrame * frame,
    SharpnessContentJob * c)
{
  const SharpnessFreezeLayout *l = c->freeze;
  const guint8 *planes[4] = { NULL, }, *ref[4] = { NULL, };
  gsize strides[4] = { 0, };

  if (memcmp (l, &self->layout, sizeof (*l)) != 0) {
    /* Another layout: the old reference compares with nothing. */
    self->layout = *l;
    self->have_reference = self->have_candidate = FALSE;
    self->reference = &self->copies[0];
    self->candidate = &self->copies[1];
    if (!copy_layout (self->reference, l) || !copy_layout (self->candidate,
            l)) {
      memset (&self->layout, 0, sizeof (self->layout));
      return;
    }
  }
  for (gint p = 0; p < l->n_planes; p++) {
    planes[p] = GST_VIDEO_FRAME_PLANE_DATA (frame, p);
    strides[p] = GST_VIDEO_FRAME_PLANE_STRIDE (frame, p);
    ref[p] = self->reference->data + self->reference->offset[p];
  }
  if (self->have_reference) {
    c->sad = sharpness_freeze_sad (l, planes, strides, ref,
        self->reference->stride);
    c->has_sad = TRUE;
  }
  for (gint p = 0; p < l->n_planes; p++)
    for (gint y = 0; y < l->height[p]; y++)
      memcpy (self->candidate->data + self->candidate->offset[p] +
          y * self->candidate->stride[p], planes[p] + y * strides[p],
          self->candidate->stride[p]);
  self->have_candidate = TRUE;
}

static void
measure_content (SharpnessScorerCpu * self, const GstVideoFrame * frame,
    const SharpnessPlane * plane, const SharpnessScorerJob * job,
    SharpnessContentJob * c)
{
  gboolean over;
  gint n_tiles;

  c->has_sad = FALSE;
  c->measured = TRUE;
  if (c->black) {
    c->black_count = 0;
    c->pixels = (guint64) plane->width * plane->height;
    if (plane->samples == SHARPNESS_SAMPLES_V210) {
      c->black_count = sharpness_black_count_v210 (plane->data,
          plane->stride, plane->width, plane->height, c->black_threshold);
    } else if (!sharpness_black_count_plane (plane, c->black_threshold,
            &c->black_count)) {
      /* Packed RGB: black on the gray conversion, full range. */
      for (gint y = 0; y < plane->height; y++)
        for (gint x = 0; x < plane->width; x++)
          c->black_count += sharpness_plane_gray_at (plane, plane->data +
              (gsize) y * plane->stride, x) <= c->black_threshold;
    }
  }
  if (c->structure)
    c->edges = sharpness_structure_count (plane, c->edge_level, &c->interior);
  /* CPBD costs several times the score on the CPU; the rule reads it
   * only where the score is over the absolute threshold. */
  over = job->kind != SHARPNESS_SCORER_SCORE ||
      sharpness_metric_is_worse (job->metric, *job->score, c->cpbd_over);
  c->cpbd_measured = c->cpbd && over;
  if (c->cpbd_measured)
    sharpness_cpbd_count (plane, &c->cpbd_edges, &c->cpbd_sharp);
  /* Short of memory, the frame is judged as without the gate. */
  c->focus_measured = c->focus && over &&
      sharpness_focus_tiles (plane, &self->focus, &n_tiles);
  if (c->focus_measured)
    c->focus_value = sharpness_focus_lowest (self->focus.tiles, n_tiles);
  if (c->freeze)
    measure_freeze (self, frame, c);
}

static void
cpu_reference (SharpnessScorer * scorer, gboolean keep)
{
  SharpnessScorerCpu *self = (SharpnessScorerCpu *) scorer;

  if (!keep) {
    self->have_reference = self->have_candidate = FALSE;
    return;
  }
  if (self->have_candidate) {
    FrameCopy *old = self->reference;

    self->reference = self->candidate;
    self->candidate = old;
    self->have_reference = TRUE;
    self->have_candidate = FALSE;
  }
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
          GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0))) {
    status = run_on_plane (self->cpu, job, &plane);
    if (status == SHARPNESS_OK && job->content)
      measure_content (self, &frame, &plane, job, job->content);
  }
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
  .reference = cpu_reference,
};

SharpnessScorer *
sharpness_scorer_new_cpu (GstElement * element)
{
  SharpnessScorerCpu *self = g_new0 (SharpnessScorerCpu, 1);

  self->parent.parent.klass = &cpu_class.parent;
  self->parent.parent.element = element;
  return &self->parent;
}
