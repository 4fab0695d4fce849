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
#include "sharpness-freeze.h"
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

/* What the content states (sharpness-content.h) need of a frame, measured
 * in the same backend call as its score. */
typedef struct
{
  /* In: what to measure. */
  gboolean black;               /* luma samples <= black_threshold */
  guint black_threshold;
  gboolean structure;           /* edge pixels at edge_level */
  guint edge_level;
  gboolean cpbd;                /* CPBD's edge counts (sharpness-cpbd.h) */
  /* The blur rule reads CPBD only for a frame whose score is worse than
   * this (its absolute threshold): a backend that measures after the
   * score (the CPU) may skip the others, and leaves cpbd_measured FALSE
   * for them. */
  gdouble cpbd_over;
  /* The focus of the frame's sharpest textured part (sharpness-focus.h),
   * which the rule's absolute test also reads: measured, after the score,
   * only for a frame whose score is worse than cpbd_over. */
  gboolean focus;
  /* SAD of every plane against the backend's freeze reference, laid out
   * as @freeze (NULL: no freeze detection); the frame becomes the
   * candidate reference that sharpness_scorer_keep_reference() keeps. */
  const SharpnessFreezeLayout *freeze;
  /* Out: measured is FALSE when the backend measured nothing (it cannot,
   * or the frame failed), and the rest is then unset. */
  gboolean measured;
  guint64 black_count, pixels;
  guint64 edges, interior;
  gboolean cpbd_measured;
  guint64 cpbd_edges, cpbd_sharp;
  gboolean focus_measured;
  gdouble focus_value;
  gboolean has_sad;             /* a reference was there to compare with */
  guint64 sad;
} SharpnessContentJob;

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
  /* Content measurements, or NULL. */
  SharpnessContentJob *content;
} SharpnessScorerJob;

/* A backend (sharpness-backend.h) that scores frames. */
typedef struct
{
  SharpnessBackendClass parent;
  /* Maps @buffer for reading and runs @job on its first plane. */
  gboolean (*run) (SharpnessScorer * scorer, GstBuffer * buffer,
      const GstVideoInfo * info, const SharpnessScorerJob * job,
      GError ** error);
  /* The candidate of the last run with a freeze layout becomes the
   * reference (@keep), or the reference is forgotten (!@keep). */
  void (*reference) (SharpnessScorer * scorer, gboolean keep);
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

/* Keeps the frame of the last run that measured freeze as the freeze
 * reference, replacing the one before. */
void sharpness_scorer_keep_reference (SharpnessScorer * scorer);
/* Forgets the freeze reference (flush, caps change, backend switch). */
void sharpness_scorer_drop_reference (SharpnessScorer * scorer);

/* Runs @job on @buffer (system or CUDA memory) laid out as @info says. */
gboolean sharpness_scorer_run (SharpnessScorer * scorer, GstBuffer * buffer,
    const GstVideoInfo * info, const SharpnessScorerJob * job,
    GError ** error);
G_END_DECLS
#endif /* SHARPNESS_SCORER_H */
