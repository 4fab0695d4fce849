/* The scorer interface: one frame (a GstBuffer of a negotiated
 * GstVideoInfo) in, one score out, on the CPU or on a CUDA device.  The
 * element keeps one code path over it.  Opening, closing, context sharing
 * and pools are the common backend entry points (sharpness-backend.h).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SHARPNESS_SCORER_H
#define SHARPNESS_SCORER_H

#include <gst/gst.h>
#include <gst/video/video.h>

#include "sharpness-backend.h"
#include "sharpness-metric.h"
#include "sharpness-tiles.h"

G_BEGIN_DECLS

typedef struct _SharpnessScorer SharpnessScorer;

/* What one backend call computes on a frame's first plane (the luma, or
 * the packed pixels, as the frame score reads). */
typedef enum
{
  SHARPNESS_SCORER_SCORE,       /* *score */
  SHARPNESS_SCORER_TILES,       /* *sums of the frame, and *tiles */
  SHARPNESS_SCORER_REGIONS      /* sums[i] of regions[i], i < n_regions */
} SharpnessScorerJobKind;

typedef struct
{
  SharpnessScorerJobKind kind;
  SharpnessMetric metric;
  gdouble *score;
  SharpnessSums *sums;
  SharpnessTileSums *tiles;
  /* rect and tiles set by the caller; the backend fills in plane. */
  SharpnessRegion *regions;
  gint n_regions;
} SharpnessScorerJob;

/* A backend (sharpness-backend.h) that scores frames. */
typedef struct
{
  SharpnessBackendClass parent;
  /* Maps @buffer for reading and runs @job on its first plane. */
  gboolean (*run) (SharpnessScorer * scorer, GstBuffer * buffer,
      const GstVideoInfo * info, const SharpnessScorerJob * job,
      GError ** error);
} SharpnessScorerClass;

struct _SharpnessScorer
{
  SharpnessBackend parent;
};

#define SHARPNESS_SCORER_GET_CLASS(s) \
  ((const SharpnessScorerClass *) ((SharpnessBackend *) (s))->klass)

/* Always available. */
SharpnessScorer *sharpness_scorer_new_cpu (GstElement * element);

/* Once, from plugin_init: loads libcuda and initialises libgstcuda.  FALSE
 * (with a reason) when no CUDA driver is usable or the plugin was built
 * without CUDA. */
gboolean sharpness_scorer_cuda_init_once (const gchar ** why);
/* NULL when sharpness_scorer_cuda_init_once() failed. */
SharpnessScorer *sharpness_scorer_new_cuda (GstElement * element);

/* Runs @job on @buffer (system or CUDA memory) laid out as @info says. */
gboolean sharpness_scorer_run (SharpnessScorer * scorer, GstBuffer * buffer,
    const GstVideoInfo * info, const SharpnessScorerJob * job,
    GError ** error);
G_END_DECLS
#endif /* SHARPNESS_SCORER_H */
