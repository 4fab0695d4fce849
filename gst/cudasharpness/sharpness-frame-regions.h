/* Where in the frame cudasharpness scores (docs/reference/tiles.md): the
 * tile map (`tiles`, and `pooling=top-percent`) and the regions of
 * interest (GstVideoRegionOfInterestMeta, `roi-types`) of a frame of a
 * classical metric; the one backend job that scores them with the frame;
 * the results (frame score, tile scores, ROI scores and their `sharpness`
 * params).  The arrays are kept between frames and grown, never allocated
 * per frame.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SHARPNESS_FRAME_REGIONS_H
#define SHARPNESS_FRAME_REGIONS_H

#include <gst/gst.h>
#include <gst/video/video.h>

#include "sharpness-meta.h"
#include "sharpness-scorer.h"

G_BEGIN_DECLS

/* The grid top-percent pooling uses when `tiles` is off. */
#define SHARPNESS_POOLING_GRID 8

/* Parses a `tiles` value: "COLSxROWS" (1 .. SHARPNESS_TILES_MAX each,
 * blanks around the numbers allowed), "" or "off" (NULL too) for off
 * (cols = rows = 0).  FALSE for anything else, leaving @cols and @rows. */
gboolean sharpness_tiles_parse (const gchar * text, guint * cols,
    guint * rows);

/* Parses a `roi-types` value: comma-separated ROI type names (blanks
 * around them ignored).  NULL for "" (every type), else an array of
 * GQuark (never empty). */
GArray *sharpness_roi_types_parse (const gchar * text);
/* The canonical text of @types ("" for NULL). */
gchar *sharpness_roi_types_to_string (const GArray * types);

/* What a frame asks for. */
typedef struct
{
  SharpnessMetric metric;       /* with sharpness_metric_has_tiles () */
  gint width, height;           /* of the frame */
  guint tiles_cols, tiles_rows; /* `tiles`, 0: off */
  gboolean top_percent;         /* pooling=top-percent */
  gdouble percent;              /* pooling-percent */
  const GArray *roi_types;      /* GQuarks, NULL: every type */
  GstDebugCategory *category;   /* the element's, for its log */
} SharpnessRegionsRequest;

typedef struct
{
  /* The frame's tile grid (tiles.cols 0: none yet), of tiles_metric. */
  SharpnessTileSums tiles;
  SharpnessMetric tiles_metric;
  gdouble *tile_scores, *tile_scratch;
  guint tile_capacity;
  SharpnessSums frame_sums;
  /* This frame: the grid in use (NULL: none) and whether it is reported
   * (`tiles` on) or only pooled. */
  SharpnessTileSums *grid;
  gboolean report_tiles;
  /* This frame's ROIs: their metas (GstVideoRegionOfInterestMeta *), the
   * job's regions (the frame first) and sums, and the results. */
  GArray *roi_metas, *regions, *sums;
  GArray *roi_ids, *roi_type_names, *roi_scores;
} SharpnessFrameRegions;

void sharpness_frame_regions_init (SharpnessFrameRegions * fr);
void sharpness_frame_regions_clear (SharpnessFrameRegions * fr);

/* Sets up @job (metric already set) for @buffer: the frame's score alone,
 * its tiles (one backend call for the frame's and the tiles' sums), or the
 * frame and its ROIs (one batch: on CUDA one launch).  @score receives a
 * plain score.  ROIs are clipped to the frame; empty ones are skipped with
 * a debug line on @element.  FALSE when the tile arrays could not be
 * allocated (the job then scores the frame alone). */
gboolean sharpness_frame_regions_plan (SharpnessFrameRegions * fr,
    GstObject * element, const SharpnessRegionsRequest * req,
    GstBuffer * buffer, SharpnessScorerJob * job, gdouble * score);

/* After @job ran: the frame score (pooled with top-percent), and @result's
 * tile and ROI fields (pointing into @fr until the next plan). */
void sharpness_frame_regions_finish (SharpnessFrameRegions * fr,
    const SharpnessRegionsRequest * req, const SharpnessScorerJob * job,
    gdouble score, SharpnessFrameResult * result);

/* Adds (or updates, for the same metric) the `sharpness` param of each ROI
 * scored: metric (nick), score, blurry (worse than @threshold when
 * @threshold > 0, else FALSE).  The buffer must be writable. */
void sharpness_frame_regions_set_roi_params (SharpnessFrameRegions * fr,
    SharpnessMetric metric, gdouble threshold);

G_END_DECLS
#endif /* SHARPNESS_FRAME_REGIONS_H */
