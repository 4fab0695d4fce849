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
sharpness_scorer_run (SharpnessScorer * scorer, GstBuffer * buffer,
    const GstVideoInfo * info, const SharpnessScorerJob * job,
    GError ** error)
{
  return SHARPNESS_SCORER_GET_CLASS (scorer)->run (scorer, buffer, info, job,
      error);
}

gboolean
sharpness_scorer_score (SharpnessScorer * scorer, SharpnessMetric metric,
    GstBuffer * buffer, const GstVideoInfo * info, gdouble * score,
    GError ** error)
{
  SharpnessScorerJob job = {.kind = SHARPNESS_SCORER_SCORE,.metric = metric,
    .score = score
  };

  return sharpness_scorer_run (scorer, buffer, info, &job, error);
}

gboolean
sharpness_scorer_tiles (SharpnessScorer * scorer, SharpnessMetric metric,
    GstBuffer * buffer, const GstVideoInfo * info, SharpnessSums * sums,
    SharpnessTileSums * tiles, GError ** error)
{
  SharpnessScorerJob job = {.kind = SHARPNESS_SCORER_TILES,.metric = metric,
    .sums = sums,.tiles = tiles
  };

  return sharpness_scorer_run (scorer, buffer, info, &job, error);
}

gboolean
sharpness_scorer_regions (SharpnessScorer * scorer, SharpnessMetric metric,
    GstBuffer * buffer, const GstVideoInfo * info, SharpnessRegion * regions,
    gint n_regions, SharpnessSums * sums, GError ** error)
{
  SharpnessScorerJob job = {.kind = SHARPNESS_SCORER_REGIONS,.metric =
        metric,.sums = sums,.regions = regions,.n_regions = n_regions
  };

  return sharpness_scorer_run (scorer, buffer, info, &job, error);
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
