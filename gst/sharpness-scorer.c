/* The scorer interface's dispatch, and the CUDA stubs of a build without
 * CUDA (so that the element needs no #ifdef HAVE_CUDA).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "sharpness-scorer.h"

G_DEFINE_QUARK (sharpness-scorer-error-quark, sharpness_scorer_error);

gboolean
sharpness_scorer_open (SharpnessScorer * scorer, gint device_id,
    GError ** error)
{
  return scorer->klass->open (scorer, device_id, error);
}

void
sharpness_scorer_close (SharpnessScorer * scorer)
{
  scorer->klass->close (scorer);
}

gboolean
sharpness_scorer_is_open (SharpnessScorer * scorer)
{
  return scorer && scorer->klass->is_open (scorer);
}

gboolean
sharpness_scorer_score (SharpnessScorer * scorer, SharpnessMetric metric,
    GstBuffer * buffer, const GstVideoInfo * info, gdouble * score,
    GError ** error)
{
  return scorer->klass->score (scorer, metric, buffer, info, score, error);
}

void
sharpness_scorer_set_context (SharpnessScorer * scorer, GstContext * context,
    gint device_id)
{
  if (scorer && scorer->klass->set_context)
    scorer->klass->set_context (scorer, context, device_id);
}

gboolean
sharpness_scorer_handle_context_query (SharpnessScorer * scorer,
    GstQuery * query)
{
  return scorer && scorer->klass->handle_context_query &&
      scorer->klass->handle_context_query (scorer, query);
}

gboolean
sharpness_scorer_propose_allocation (SharpnessScorer * scorer,
    GstQuery * query)
{
  return scorer && scorer->klass->propose_allocation &&
      scorer->klass->propose_allocation (scorer, query);
}

void
sharpness_scorer_free (SharpnessScorer * scorer)
{
  if (scorer)
    scorer->klass->free (scorer);
}

gboolean
sharpness_metric_is_heavy (SharpnessMetric metric)
{
  /* Kept here, keyed on the id, rather than as a column of the shared
   * metric table: docs/performance-cpu.md has both at seconds per 1080p
   * frame on the CPU; every other metric keeps up with 1080p60. */
  switch (metric) {
    case SHARPNESS_METRIC_LPC_SI:
    case SHARPNESS_METRIC_CWTVNRS:
      return TRUE;
    default:
      return FALSE;
  }
}

#ifndef HAVE_CUDA
gboolean
sharpness_scorer_cuda_init_once (const gchar ** why)
{
  if (why)
    *why = "the plugin was built without CUDA support";
  return FALSE;
}

SharpnessScorer *
sharpness_scorer_new_cuda (GstElement * element)
{
  return NULL;
}
#endif
