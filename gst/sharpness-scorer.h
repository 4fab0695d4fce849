/* The scorer interface: one frame (a GstBuffer of a negotiated
 * GstVideoInfo) in, one score out, on the CPU or on a CUDA device.  The
 * element keeps one code path over it, and a second element can reuse the
 * CUDA side (context sharing and adoption, stream ordering, frame mapping,
 * the pinned pool) as it is.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SHARPNESS_SCORER_H
#define SHARPNESS_SCORER_H

#include <gst/gst.h>
#include <gst/video/video.h>

#include "sharpness-metric.h"

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

/* A backend.  Only open, close, is_open and score are required. */
typedef struct
{
  const gchar *name;
  gboolean (*open) (SharpnessScorer * scorer, gint device_id,
      GError ** error);
  void (*close) (SharpnessScorer * scorer);
  gboolean (*is_open) (SharpnessScorer * scorer);
  gboolean (*score) (SharpnessScorer * scorer, SharpnessMetric metric,
      GstBuffer * buffer, const GstVideoInfo * info, gdouble * score,
      GError ** error);
  void (*set_context) (SharpnessScorer * scorer, GstContext * context,
      gint device_id);
  gboolean (*handle_context_query) (SharpnessScorer * scorer,
      GstQuery * query);
  gboolean (*propose_allocation) (SharpnessScorer * scorer,
      GstQuery * query);
  void (*free) (SharpnessScorer * scorer);
} SharpnessScorerClass;

struct _SharpnessScorer
{
  const SharpnessScorerClass *klass;
  GstElement *element;          /* owner, not reffed: queries, messages */
};

/* Always available. */
SharpnessScorer *sharpness_scorer_new_cpu (GstElement * element);

/* Once, from plugin_init: loads libcuda and initialises libgstcuda.  FALSE
 * (with a reason) when no CUDA driver is usable or the plugin was built
 * without CUDA. */
gboolean sharpness_scorer_cuda_init_once (const gchar ** why);
/* NULL when sharpness_scorer_cuda_init_once() failed. */
SharpnessScorer *sharpness_scorer_new_cuda (GstElement * element);

/* @device_id: CUDA device, -1 for any (ignored by the CPU). */
gboolean sharpness_scorer_open (SharpnessScorer * scorer, gint device_id,
    GError ** error);
void sharpness_scorer_close (SharpnessScorer * scorer);
gboolean sharpness_scorer_is_open (SharpnessScorer * scorer);
/* Scores @buffer (system or CUDA memory) laid out as @info says. */
gboolean sharpness_scorer_score (SharpnessScorer * scorer,
    SharpnessMetric metric, GstBuffer * buffer, const GstVideoInfo * info,
    gdouble * score, GError ** error);
/* GstElement::set_context. */
void sharpness_scorer_set_context (SharpnessScorer * scorer,
    GstContext * context, gint device_id);
/* GST_QUERY_CONTEXT; FALSE when not answered. */
gboolean sharpness_scorer_handle_context_query (SharpnessScorer * scorer,
    GstQuery * query);
/* After downstream answered @query (an in-place element forwards it):
 * adds what the backend offers upstream.  TRUE when it added something. */
gboolean sharpness_scorer_propose_allocation (SharpnessScorer * scorer,
    GstQuery * query);
void sharpness_scorer_free (SharpnessScorer * scorer);

/* TRUE for metrics the CPU scores far slower than a live stream needs
 * (seconds per 1080p frame): LPC-SI and CWTVNRS.  A fallback to the CPU
 * leaves their frames unscored rather than late (docs/element.md). */
gboolean sharpness_metric_is_heavy (SharpnessMetric metric);

G_END_DECLS
#endif /* SHARPNESS_SCORER_H */
