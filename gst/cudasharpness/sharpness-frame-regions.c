/* Where in the frame cudasharpness scores (sharpness-frame-regions.h).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "sharpness-frame-regions.h"

/* Reads a decimal number of at most 5 digits at *@p (enough to tell
 * 1 .. 64 from anything larger without overflow). */
static gboolean
parse_count (const gchar ** p, guint * value)
{
  guint v = 0, digits = 0;

  while (g_ascii_isspace (**p))
    (*p)++;
  while (g_ascii_isdigit (**p)) {
    if (++digits > 5)
      return FALSE;
    v = v * 10 + (**p - '0');
    (*p)++;
  }
  while (g_ascii_isspace (**p))
    (*p)++;
  *value = v;
  return digits > 0;
}

gboolean
sharpness_tiles_parse (const gchar * text, guint * cols, guint * rows)
{
  const gchar *p = text;
  gchar *stripped = g_strstrip (g_strdup (text ? text : ""));
  gboolean off = !*stripped || g_ascii_strcasecmp (stripped, "off") == 0;
  guint c, r;

  g_free (stripped);
  if (off) {
    *cols = *rows = 0;
    return TRUE;
  }
  if (!parse_count (&p, &c) || (*p != 'x' && *p != 'X'))
    return FALSE;
  p++;
  if (!parse_count (&p, &r) || *p != '\0' ||
      !sharpness_tiles_valid ((gint) c, (gint) r))
    return FALSE;
  *cols = c;
  *rows = r;
  return TRUE;
}

GArray *
sharpness_roi_types_parse (const gchar * text)
{
  gchar **names = g_strsplit (text ? text : "", ",", -1);
  GArray *types = g_array_new (FALSE, FALSE, sizeof (GQuark));

  for (gchar ** n = names; *n; n++) {
    GQuark q;

    g_strstrip (*n);
    if (!**n)
      continue;
    q = g_quark_from_string (*n);
    g_array_append_val (types, q);
  }
  g_strfreev (names);
  if (types->len == 0) {
    g_array_unref (types);
    return NULL;
  }
  return types;
}

gchar *
sharpness_roi_types_to_string (const GArray * types)
{
  GString *s = g_string_new (NULL);

  for (guint i = 0; types && i < types->len; i++)
    g_string_append_printf (s, "%s%s", i ? "," : "",
        g_quark_to_string (g_array_index (types, GQuark, i)));
  return g_string_free (s, FALSE);
}

void
sharpness_frame_regions_init (SharpnessFrameRegions * fr)
{
  memset (fr, 0, sizeof *fr);
  fr->roi_metas = g_array_new (FALSE, FALSE, sizeof (gpointer));
  fr->regions = g_array_new (FALSE, TRUE, sizeof (SharpnessRegion));
  fr->sums = g_array_new (FALSE, TRUE, sizeof (SharpnessSums));
  fr->roi_ids = g_array_new (FALSE, FALSE, sizeof (gint));
  fr->roi_type_names = g_array_new (FALSE, FALSE, sizeof (const gchar *));
  fr->roi_scores = g_array_new (FALSE, FALSE, sizeof (gdouble));
}

void
sharpness_frame_regions_clear (SharpnessFrameRegions * fr)
{
  sharpness_tile_sums_clear (&fr->tiles);
  g_clear_pointer (&fr->tile_scores, g_free);
  g_clear_pointer (&fr->tile_scratch, g_free);
  fr->tile_capacity = 0;
  g_clear_pointer (&fr->roi_metas, g_array_unref);
  g_clear_pointer (&fr->regions, g_array_unref);
  g_clear_pointer (&fr->sums, g_array_unref);
  g_clear_pointer (&fr->roi_ids, g_array_unref);
  g_clear_pointer (&fr->roi_type_names, g_array_unref);
  g_clear_pointer (&fr->roi_scores, g_array_unref);
}

/* The tile arrays for @metric on a @cols x @rows grid: kept while neither
 * changes (the kind of sums depends on the metric). */
static gboolean
ensure_grid (SharpnessFrameRegions * fr, SharpnessMetric metric, guint cols,
    guint rows)
{
  guint n = cols * rows;

  if (fr->tiles.cols == (gint) cols && fr->tiles.rows == (gint) rows &&
      fr->tiles_metric == metric)
    return TRUE;
  sharpness_tile_sums_clear (&fr->tiles);
  if (sharpness_tile_sums_init (&fr->tiles, metric, cols, rows) !=
      SHARPNESS_OK) {
    sharpness_tile_sums_clear (&fr->tiles);
    return FALSE;
  }
  fr->tiles_metric = metric;
  if (n > fr->tile_capacity) {
    g_free (fr->tile_scores);
    g_free (fr->tile_scratch);
    fr->tile_scores = g_new (gdouble, n);
    fr->tile_scratch = g_new (gdouble, n);
    fr->tile_capacity = n;
  }
  return TRUE;
}

static gboolean
type_wanted (const GArray * types, GQuark type)
{
  if (!types)
    return TRUE;
  for (guint i = 0; i < types->len; i++)
    if (g_array_index (types, GQuark, i) == type)
      return TRUE;
  return FALSE;
}

/* Appends @roi clipped to the frame as a region; FALSE when nothing of it
 * is inside. */
static gboolean
add_roi (SharpnessFrameRegions * fr, const SharpnessRegionsRequest * req,
    GstVideoRegionOfInterestMeta * roi)
{
  guint64 x1 = MIN ((guint64) roi->x + roi->w, (guint64) req->width);
  guint64 y1 = MIN ((guint64) roi->y + roi->h, (guint64) req->height);
  SharpnessRegion region = { 0, };

  /* A zero size would mean the whole plane to the backends. */
  if (roi->x >= x1 || roi->y >= y1)
    return FALSE;
  region.rect.x = roi->x;
  region.rect.y = roi->y;
  region.rect.width = x1 - roi->x;
  region.rect.height = y1 - roi->y;
  if (fr->regions->len == 0) {
    /* The frame first (empty rectangle: the whole plane), with its tiles,
     * so that the frame and its ROIs go out in one backend call. */
    SharpnessRegion frame = {.tiles = fr->grid };

    g_array_append_val (fr->regions, frame);
  }
  g_array_append_val (fr->regions, region);
  g_array_append_val (fr->roi_metas, roi);
  return TRUE;
}

gboolean
sharpness_frame_regions_plan (SharpnessFrameRegions * fr,
    GstObject * element, const SharpnessRegionsRequest * req,
    GstBuffer * buffer, SharpnessScorerJob * job, gdouble * score)
{
  guint cols = req->tiles_cols, rows = req->tiles_rows;
  gboolean ok = TRUE;
  gpointer state = NULL;
  GstMeta *meta;

  fr->grid = NULL;
  fr->report_tiles = FALSE;
  g_array_set_size (fr->roi_metas, 0);
  g_array_set_size (fr->regions, 0);
  g_array_set_size (fr->roi_ids, 0);
  g_array_set_size (fr->roi_type_names, 0);
  g_array_set_size (fr->roi_scores, 0);

  /* Pooling needs tiles: without a `tiles` grid, a fixed one, not
   * reported. */
  if (cols == 0 && req->top_percent)
    cols = rows = SHARPNESS_POOLING_GRID;
  if (cols > 0) {
    ok = ensure_grid (fr, req->metric, cols, rows);
    if (ok) {
      fr->grid = &fr->tiles;
      fr->report_tiles = req->tiles_cols > 0;
    }
  }

  while ((meta = gst_buffer_iterate_meta_filtered (buffer, &state,
              GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE))) {
    GstVideoRegionOfInterestMeta *roi = (GstVideoRegionOfInterestMeta *) meta;

    if (!type_wanted (req->roi_types, roi->roi_type))
      continue;
    if (!add_roi (fr, req, roi))
      GST_CAT_DEBUG_OBJECT (req->category, element, "ROI %d (%s) at %u,%u %ux%u has nothing "
          "inside the %dx%d frame: skipped", roi->id,
          g_quark_to_string (roi->roi_type), roi->x, roi->y, roi->w, roi->h,
          req->width, req->height);
  }

  if (fr->regions->len > 0) {
    g_array_set_size (fr->sums, fr->regions->len);
    job->kind = SHARPNESS_SCORER_REGIONS;
    job->regions = (SharpnessRegion *) fr->regions->data;
    job->n_regions = fr->regions->len;
    job->sums = (SharpnessSums *) fr->sums->data;
  } else if (fr->grid) {
    job->kind = SHARPNESS_SCORER_TILES;
    job->sums = &fr->frame_sums;
    job->tiles = fr->grid;
  } else {
    job->kind = SHARPNESS_SCORER_SCORE;
    job->score = score;
  }
  return ok;
}

void
sharpness_frame_regions_finish (SharpnessFrameRegions * fr,
    const SharpnessRegionsRequest * req, const SharpnessScorerJob * job,
    gdouble score, SharpnessFrameResult * r)
{
  /* Classical scores from the sums: the same bits as the plain score. */
  if (job->kind != SHARPNESS_SCORER_SCORE)
    score = sharpness_score_from_sums (req->metric, &job->sums[0],
        req->width, req->height);

  if (fr->grid) {
    guint n = fr->grid->cols * fr->grid->rows;

    sharpness_tile_scores (req->metric, fr->grid, req->width, req->height,
        fr->tile_scores);
    if (req->top_percent)
      score = sharpness_pool_top_percent (req->metric, fr->tile_scores, n,
          req->percent, fr->tile_scratch);
    if (fr->report_tiles) {
      r->tiles_cols = fr->grid->cols;
      r->tiles_rows = fr->grid->rows;
      r->tile_scores = fr->tile_scores;
    }
  }

  for (guint i = 0; i < fr->roi_metas->len; i++) {
    GstVideoRegionOfInterestMeta *roi =
        g_array_index (fr->roi_metas, GstVideoRegionOfInterestMeta *, i);
    const SharpnessRect *rect =
        &g_array_index (fr->regions, SharpnessRegion, i + 1).rect;
    gdouble s = sharpness_score_from_sums (req->metric, &job->sums[i + 1],
        rect->width, rect->height);
    const gchar *type = g_quark_to_string (roi->roi_type);

    g_array_append_val (fr->roi_ids, roi->id);
    g_array_append_val (fr->roi_type_names, type);
    g_array_append_val (fr->roi_scores, s);
  }
  if (fr->roi_metas->len > 0) {
    r->n_rois = fr->roi_metas->len;
    r->roi_ids = (const gint *) fr->roi_ids->data;
    r->roi_types = (const gchar * const *) fr->roi_type_names->data;
    r->roi_scores = (const gdouble *) fr->roi_scores->data;
  }
  r->score = score;
}

void
sharpness_frame_regions_set_roi_params (SharpnessFrameRegions * fr,
    SharpnessMetric metric, gdouble threshold)
{
  const gchar *nick = sharpness_metric_info[metric].nick;

  for (guint i = 0; i < fr->roi_metas->len; i++) {
    GstVideoRegionOfInterestMeta *roi =
        g_array_index (fr->roi_metas, GstVideoRegionOfInterestMeta *, i);
    gdouble score = g_array_index (fr->roi_scores, gdouble, i);
    gboolean blurry = threshold > 0.0 &&
        sharpness_metric_is_worse (metric, score, threshold);

    sharpness_roi_param_set (roi, nick, score, blurry);
  }
}
