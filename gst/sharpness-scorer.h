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

/* Domain of the errors below; messages are a reason a user can act on. */
#define SHARPNESS_SCORER_ERROR (sharpness_scorer_error_quark ())
GQuark sharpness_scorer_error_quark (void);

typedef enum
{
  /* open: no CUDA context could be made for the requested device. */
  SHARPNESS_SCORER_ERROR_NO_DEVICE,
  /* score: the frame could not be mapped (too small for its caps, bad
   * video meta). */
  SHARPNESS_SCORER_ERROR_MAP,
  /* score: the metric refused the frame; the message is
   * sharpness_status_to_string() of its status. */
  SHARPNESS_SCORER_ERROR_METRIC,
  /* score: this frame failed on the device; later ones may not. */
  SHARPNESS_SCORER_ERROR_FRAME,
  /* score: the CUDA context hit a sticky error (an illegal address, maybe
   * from another element sharing it) and is unusable until closed. */
  SHARPNESS_SCORER_ERROR_DEVICE_LOST
} SharpnessScorerError;

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
/* Scores @buffer (system or CUDA memory) laid out as @info says. */
gboolean sharpness_scorer_score (SharpnessScorer * scorer,
    SharpnessMetric metric, GstBuffer * buffer, const GstVideoInfo * info,
    gdouble * score, GError ** error);
/* Tiles and regions (docs/tiles.md) of the metrics with
 * sharpness_metric_has_tiles(); the metric error (UNSUPPORTED) for others.
 * The CPU and CUDA scorers give the same integer sums.
 *
 * The frame's sums and, in the same backend call, those of each tile of
 * @tiles (a grid of sharpness_tile_sums_init()). */
gboolean sharpness_scorer_tiles (SharpnessScorer * scorer,
    SharpnessMetric metric, GstBuffer * buffer, const GstVideoInfo * info,
    SharpnessSums * sums, SharpnessTileSums * tiles, GError ** error);
/* The sums of @n_regions rectangles of the frame (on CUDA in one launch):
 * the caller sets each region's rect (inside the frame; width or height 0:
 * the whole frame) and tiles (or NULL); the scorer fills in its plane. */
gboolean sharpness_scorer_regions (SharpnessScorer * scorer,
    SharpnessMetric metric, GstBuffer * buffer, const GstVideoInfo * info,
    SharpnessRegion * regions, gint n_regions, SharpnessSums * sums,
    GError ** error);

/* TRUE for metrics the CPU scores far slower than a live stream needs
 * (seconds per 1080p frame): LPC-SI and CWTVNRS.  A fallback to the CPU
 * leaves their frames unscored rather than late (docs/element.md). */
gboolean sharpness_metric_is_heavy (SharpnessMetric metric);

G_END_DECLS
#endif /* SHARPNESS_SCORER_H */
