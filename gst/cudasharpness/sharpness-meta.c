/* Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "sharpness-fields.h"
#include "sharpness-meta.h"

/* Found once; a frame's meta is then added and found without the
 * registry's lock and name lookups (sharpness-fields.h says why).  A
 * reader in another module (a tool linking this file) finds the info the
 * plugin registered. */
static const GstMetaInfo *meta_info;

static const GstMetaInfo *
get_meta_info (void)
{
  const GstMetaInfo *info = g_atomic_pointer_get (&meta_info);

  if (!info) {
    info = gst_meta_get_info (SHARPNESS_META_NAME);
    if (info)
      g_atomic_pointer_set (&meta_info, info);
  }
  return info;
}

gboolean
sharpness_meta_register (void)
{
  static const gchar *tags[] = { NULL };

  /* No transform function: the default one copies the structure on
   * buffer copies and drops the meta on other transformations. */
  if (!get_meta_info ())
    gst_meta_register_custom (SHARPNESS_META_NAME, tags, NULL, NULL, NULL);
  return get_meta_info () != NULL;
}

/* The meta of @metric (NULL: any) on @buffer. */
static GstCustomMeta *
find_meta (GstBuffer * buffer, const gchar * metric)
{
  const GstMetaInfo *info = get_meta_info ();
  gpointer state = NULL;
  GstMeta *meta;

  if (!info)
    return NULL;
  while ((meta = gst_buffer_iterate_meta (buffer, &state))) {
    const gchar *m;

    if (meta->info != info)
      continue;
    m = sharpness_structure_get_string (gst_custom_meta_get_structure
        ((GstCustomMeta *) meta), SHARPNESS_FIELD_METRIC);
    if (!metric || g_strcmp0 (m, metric) == 0)
      return (GstCustomMeta *) meta;
  }
  return NULL;
}

/* @s's field @field: a GST_TYPE_ARRAY of @n values of @type taken from
 * @values (gint, gdouble or const gchar * each).  Thousands of tile scores
 * a frame, twice (meta and message): the array is sized once, and a number
 * is appended by taking a GValue that owns nothing, without a copy. */
static void
set_array (GstStructure * s, SharpnessField field, GType type, guint n,
    gconstpointer values)
{
  GValue array = G_VALUE_INIT, v = G_VALUE_INIT;

  gst_value_array_init (&array, n);
  for (guint i = 0; i < n; i++) {
    g_value_init (&v, type);
    if (type == G_TYPE_INT)
      g_value_set_int (&v, ((const gint *) values)[i]);
    else if (type == G_TYPE_DOUBLE)
      g_value_set_double (&v, ((const gdouble *) values)[i]);
    else
      g_value_set_string (&v, ((const gchar * const *) values)[i]);
    /* Moved into the array; @v is left as G_VALUE_INIT again. */
    gst_value_array_append_and_take_value (&array, &v);
    memset (&v, 0, sizeof (v));
  }
  sharpness_structure_take (s, field, &array);
}

static void
set_or_remove (GstStructure * s, SharpnessField field, gboolean set,
    gdouble value)
{
  if (set)
    sharpness_structure_set_double (s, field, value);
  else
    sharpness_structure_remove (s, field);
}

void
sharpness_frame_result_to_structure (const SharpnessFrameResult * r,
    GstStructure * s)
{
  sharpness_structure_set_static_string (s, SHARPNESS_FIELD_METRIC,
      r->metric);
  sharpness_structure_set_double (s, SHARPNESS_FIELD_SCORE, r->score);
  sharpness_structure_set_boolean (s, SHARPNESS_FIELD_BLURRY, r->blurry);
  if (r->content_state)
    sharpness_structure_set_static_string (s, SHARPNESS_FIELD_CONTENT_STATE,
        r->content_state);
  set_or_remove (s, SHARPNESS_FIELD_BLACK_RATIO, r->has_black,
      r->black_ratio);
  set_or_remove (s, SHARPNESS_FIELD_FREEZE_MAFD, r->has_freeze,
      r->freeze_mafd);
  set_or_remove (s, SHARPNESS_FIELD_STRUCTURE, r->has_structure,
      r->structure);
  set_or_remove (s, SHARPNESS_FIELD_CPBD, r->has_cpbd, r->cpbd);
  set_or_remove (s, SHARPNESS_FIELD_FOCUS, r->has_focus, r->focus);
  if (r->tiles_cols > 0) {
    sharpness_structure_set_uint (s, SHARPNESS_FIELD_TILES_COLS,
        r->tiles_cols);
    sharpness_structure_set_uint (s, SHARPNESS_FIELD_TILES_ROWS,
        r->tiles_rows);
    set_array (s, SHARPNESS_FIELD_TILE_SCORES, G_TYPE_DOUBLE,
        r->tiles_cols * r->tiles_rows, r->tile_scores);
  } else {
    sharpness_structure_remove (s, SHARPNESS_FIELD_TILES_COLS);
    sharpness_structure_remove (s, SHARPNESS_FIELD_TILES_ROWS);
    sharpness_structure_remove (s, SHARPNESS_FIELD_TILE_SCORES);
  }
  if (r->n_rois > 0) {
    set_array (s, SHARPNESS_FIELD_ROI_IDS, G_TYPE_INT, r->n_rois, r->roi_ids);
    set_array (s, SHARPNESS_FIELD_ROI_TYPES, G_TYPE_STRING, r->n_rois,
        r->roi_types);
    set_array (s, SHARPNESS_FIELD_ROI_SCORES, G_TYPE_DOUBLE, r->n_rois,
        r->roi_scores);
  } else {
    sharpness_structure_remove (s, SHARPNESS_FIELD_ROI_IDS);
    sharpness_structure_remove (s, SHARPNESS_FIELD_ROI_TYPES);
    sharpness_structure_remove (s, SHARPNESS_FIELD_ROI_SCORES);
  }
}

void
sharpness_meta_set (GstBuffer * buffer, const SharpnessFrameResult * r)
{
  const GstMetaInfo *info = get_meta_info ();
  GstCustomMeta *meta;

  g_return_if_fail (gst_buffer_is_writable (buffer));
  g_return_if_fail (info != NULL);

  meta = find_meta (buffer, r->metric);
  if (!meta)
    meta = (GstCustomMeta *) gst_buffer_add_meta (buffer, info, NULL);
  g_return_if_fail (meta != NULL);
  sharpness_frame_result_to_structure (r, gst_custom_meta_get_structure
      (meta));
}

/* The `sharpness` param of @metric (NULL: any) on @roi, or NULL. */
static GstStructure *
find_param (const GstVideoRegionOfInterestMeta * roi, const gchar * metric)
{
  for (GList * l = roi->params; l; l = l->next) {
    GstStructure *s = l->data;

    if (sharpness_structure_has_name (s, SHARPNESS_FIELD_ROI_PARAM) &&
        (!metric || g_strcmp0 (sharpness_structure_get_string (s,
                    SHARPNESS_FIELD_METRIC), metric) == 0))
      return s;
  }
  return NULL;
}

void
sharpness_roi_param_set (GstVideoRegionOfInterestMeta * roi,
    const gchar * metric, gdouble score, gboolean blurry)
{
  GstStructure *param = find_param (roi, metric);

  /* A second pass of the same metric replaces its values. */
  if (!param) {
    param = sharpness_structure_new (SHARPNESS_FIELD_ROI_PARAM);
    sharpness_structure_set_static_string (param, SHARPNESS_FIELD_METRIC,
        metric);
    gst_video_region_of_interest_meta_add_param (roi, param);
  }
  sharpness_structure_set_double (param, SHARPNESS_FIELD_SCORE, score);
  sharpness_structure_set_boolean (param, SHARPNESS_FIELD_BLURRY, blurry);
}

/* @v when it is a GST_TYPE_ARRAY of @n values of @type, else NULL. */
static const GValue *
array_of (const GValue * v, guint n, GType type)
{
  if (!v || !GST_VALUE_HOLDS_ARRAY (v) || gst_value_array_get_size (v) != n)
    return NULL;
  for (guint i = 0; i < n; i++)
    if (!G_VALUE_HOLDS (gst_value_array_get_value (v, i), type))
      return NULL;
  return v;
}

gboolean
sharpness_meta_read (GstBuffer * buffer, const gchar * metric,
    SharpnessMetaReading * r)
{
  GstCustomMeta *meta = find_meta (buffer, metric);
  const GstStructure *s;
  const GValue *ids;
  guint cols = 0, rows = 0;

  memset (r, 0, sizeof (*r));
  if (!meta)
    return FALSE;
  s = gst_custom_meta_get_structure (meta);
  r->metric = sharpness_structure_get_string (s, SHARPNESS_FIELD_METRIC);
  if (!sharpness_structure_get_double (s, SHARPNESS_FIELD_SCORE, &r->score))
    return FALSE;
  sharpness_structure_get_boolean (s, SHARPNESS_FIELD_BLURRY, &r->blurry);
  r->content_state = sharpness_structure_get_string (s,
      SHARPNESS_FIELD_CONTENT_STATE);
  r->has_black = sharpness_structure_get_double (s,
      SHARPNESS_FIELD_BLACK_RATIO, &r->black_ratio);
  r->has_freeze = sharpness_structure_get_double (s,
      SHARPNESS_FIELD_FREEZE_MAFD, &r->freeze_mafd);
  r->has_structure = sharpness_structure_get_double (s,
      SHARPNESS_FIELD_STRUCTURE, &r->structure);

  if (sharpness_structure_get_uint (s, SHARPNESS_FIELD_TILES_COLS, &cols) &&
      sharpness_structure_get_uint (s, SHARPNESS_FIELD_TILES_ROWS, &rows) &&
      cols > 0 && rows > 0 && cols <= G_MAXUINT / rows) {
    r->tile_scores = array_of (sharpness_structure_get (s,
            SHARPNESS_FIELD_TILE_SCORES), cols * rows, G_TYPE_DOUBLE);
    if (r->tile_scores) {
      r->tiles_cols = cols;
      r->tiles_rows = rows;
    }
  }

  ids = sharpness_structure_get (s, SHARPNESS_FIELD_ROI_IDS);
  if (ids && GST_VALUE_HOLDS_ARRAY (ids)) {
    guint n = gst_value_array_get_size (ids);

    r->roi_ids = array_of (ids, n, G_TYPE_INT);
    r->roi_types = array_of (sharpness_structure_get (s,
            SHARPNESS_FIELD_ROI_TYPES), n, G_TYPE_STRING);
    r->roi_scores = array_of (sharpness_structure_get (s,
            SHARPNESS_FIELD_ROI_SCORES), n, G_TYPE_DOUBLE);
    if (r->roi_ids && r->roi_types && r->roi_scores)
      r->n_rois = n;
  }
  return TRUE;
}

gdouble
sharpness_meta_reading_tile (const SharpnessMetaReading * r, guint index)
{
  g_return_val_if_fail (index < r->tiles_cols * r->tiles_rows, 0.0);
  return g_value_get_double (gst_value_array_get_value (r->tile_scores,
          index));
}

gboolean
sharpness_roi_param_read (const GstVideoRegionOfInterestMeta * roi,
    const gchar * metric, const gchar ** metric_out, gdouble * score,
    gboolean * blurry)
{
  const GstStructure *p = find_param (roi, metric);

  if (!p || !sharpness_structure_get_double (p, SHARPNESS_FIELD_SCORE, score))
    return FALSE;
  if (!sharpness_structure_get_boolean (p, SHARPNESS_FIELD_BLURRY, blurry))
    *blurry = FALSE;
  if (metric_out)
    *metric_out = sharpness_structure_get_string (p, SHARPNESS_FIELD_METRIC);
  return TRUE;
}
