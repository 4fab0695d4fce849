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

gboolean
sharpness_scorer_run (SharpnessScorer * scorer, GstBuffer * buffer,
    const GstVideoInfo * info, const SharpnessScorerJob * job,
    GError ** error)
{
  return SHARPNESS_SCORER_GET_CLASS (scorer)->run (scorer, buffer, info, job,
      error);
}

void
sharpness_scorer_keep_reference (SharpnessScorer * scorer)
{
  if (scorer && SHARPNESS_SCORER_GET_CLASS (scorer)->reference)
    SHARPNESS_SCORER_GET_CLASS (scorer)->reference (scorer, TRUE);
}

void
sharpness_scorer_drop_reference (SharpnessScorer * scorer)
{
  if (scorer && SHARPNESS_SCORER_GET_CLASS (scorer)->reference)
    SHARPNESS_SCORER_GET_CLASS (scorer)->reference (scorer, FALSE);
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
