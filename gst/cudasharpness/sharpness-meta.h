/* GstSharpnessMeta, the score of a frame carried by its buffer, and the
 * `sharpness` param of each scored region of interest: how cudasharpness
 * writes them and how the overlay, the tools and applications read them.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A GstCustomMeta: applications in other languages read it by name, e.g.
 * Python's buf.get_custom_meta ("GstSharpnessMeta") (docs/examples/
 * sharpness_meta.py).  Its structure, named "GstSharpnessMeta", holds:
 *   metric  G_TYPE_STRING   metric nick ("laplacian", ...)
 *   score   G_TYPE_DOUBLE
 *   blurry  G_TYPE_BOOLEAN
 *   content-state  G_TYPE_STRING  normal, black, frozen, flat or blurry
 * and the measurements behind the state, each when its detection is on:
 *   black-ratio    G_TYPE_DOUBLE  share of black luma samples
 *   freeze-mafd    G_TYPE_DOUBLE  FFmpeg's MAFD against the reference
 *   structure      G_TYPE_DOUBLE  share of edge pixels
 *   cpbd           G_TYPE_DOUBLE  CPBD, the share of edges not noticeably
 *                                 blurred (sharpness-cpbd.h), when the
 *                                 absolute test reads it
 *   focus          G_TYPE_DOUBLE  the lowest blur effect of the frame's
 *                                 textured 64 x 64 tiles
 *                                 (sharpness-focus.h), when the absolute
 *                                 test reads it (Since: 0.2)
 * and, when the element's `tiles` is on (classical metrics):
 *   tiles-cols   G_TYPE_UINT
 *   tiles-rows   G_TYPE_UINT
 *   tile-scores  GST_TYPE_ARRAY of G_TYPE_DOUBLE, tiles-cols x tiles-rows,
 *                row-major
 * and, when regions of interest were scored:
 *   roi-ids      GST_TYPE_ARRAY of G_TYPE_INT (the ROI metas' ids)
 *   roi-types    GST_TYPE_ARRAY of G_TYPE_STRING (their type names)
 *   roi-scores   GST_TYPE_ARRAY of G_TYPE_DOUBLE
 * Each scored GstVideoRegionOfInterestMeta gets a param named "sharpness"
 * with metric, score and blurry.  The meta has no tags, so elements that
 * keep tag-less metas (videoconvert, queues, tees) pass it on; a buffer
 * copy copies it.  Field names: sharpness-fields.h.
 */
#ifndef SHARPNESS_META_H
#define SHARPNESS_META_H

#include <gst/gst.h>
#include <gst/video/video.h>

#include "sharpness-times.h"

G_BEGIN_DECLS

#define SHARPNESS_META_NAME "GstSharpnessMeta"

/* One scored frame: what its meta and its `sharpness` message say. */
typedef struct
{
  SharpnessTimes times;
  guint64 frame;                /* index since the element started */
  const gchar *metric;          /* nick */
  gdouble score;
  gboolean blurry;
  const gchar *content_state;   /* sharpness_content_state_name () */
  gboolean has_black, has_freeze, has_structure;
  gdouble black_ratio, freeze_mafd, structure;
  gboolean has_cpbd;
  gdouble cpbd;
  gboolean has_focus;
  gdouble focus;
  guint64 unscored;             /* frames left unscored since the previous
                                 * `sharpness` message */
  /* The tile map (tiles_cols 0: none): tiles_cols x tiles_rows scores,
   * row-major. */
  guint tiles_cols, tiles_rows;
  const gdouble *tile_scores;
  /* The regions of interest scored (n_rois 0: none): their meta's id,
   * type name and score. */
  guint n_rois;
  const gint *roi_ids;
  const gchar *const *roi_types;
  const gdouble *roi_scores;
} SharpnessFrameResult;

/* From plugin_init; registering twice is harmless. */
gboolean sharpness_meta_register (void);

/* Records @result on @buffer, which must be writable.  A meta of the same
 * metric already on the buffer (a second pass over the frame) is updated
 * rather than duplicated; metas of other metrics are left alone. */
void sharpness_meta_set (GstBuffer * buffer,
    const SharpnessFrameResult * result);

/* Sets on @s what the meta and the `sharpness` message share: metric,
 * score, blurry, the content state and its measurements, the tile map and
 * the ROIs; removes the tile and ROI fields
 * @result has none of (a meta updated by a second pass). */
void sharpness_frame_result_to_structure (const SharpnessFrameResult * result,
    GstStructure * s);

/* Adds (or updates, for the same metric) the `sharpness` param of @roi.
 * Its buffer must be writable. */
void sharpness_roi_param_set (GstVideoRegionOfInterestMeta * roi,
    const gchar * metric, gdouble score, gboolean blurry);

/* A GstSharpnessMeta as read back; the pointers live as long as the
 * buffer's meta. */
typedef struct
{
  const gchar *metric;
  gdouble score;
  gboolean blurry;
  const gchar *content_state;   /* NULL from an element without states */
  /* The measurements behind the state, each with has_* FALSE when the
   * meta lacks it (its detection off, or the frame not measured). */
  gboolean has_black, has_freeze, has_structure;
  gdouble black_ratio, freeze_mafd, structure;
  /* The tile map: 0 x 0 when the meta has none or a malformed one. */
  guint tiles_cols, tiles_rows;
  const GValue *tile_scores;
  /* The ROIs the meta lists: 0 when none or malformed. */
  guint n_rois;
  const GValue *roi_ids, *roi_types, *roi_scores;
} SharpnessMetaReading;

/* The meta of @metric (NULL: the first one) on @buffer; FALSE when there
 * is none. */
gboolean sharpness_meta_read (GstBuffer * buffer, const gchar * metric,
    SharpnessMetaReading * reading);
/* Tile @index (row-major) of a reading with a tile map. */
gdouble sharpness_meta_reading_tile (const SharpnessMetaReading * reading,
    guint index);

/* The `sharpness` param of @metric (NULL: the first) on @roi: its metric,
 * score and blurry flag; FALSE when there is none. */
gboolean sharpness_roi_param_read (const GstVideoRegionOfInterestMeta * roi,
    const gchar * metric, const gchar ** metric_out, gdouble * score,
    gboolean * blurry);

G_END_DECLS
#endif /* SHARPNESS_META_H */
