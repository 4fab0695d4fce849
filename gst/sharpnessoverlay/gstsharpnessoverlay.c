/* Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/**
 * SECTION:element-sharpnessoverlay
 * @title: sharpnessoverlay
 *
 * Draws what `cudasharpness` measured on a frame over the frame itself:
 * the tile map (`tiles=COLSxROWS`) as a translucent colour grid, the scored
 * regions of interest as boxes with their scores, and the frame score
 * (with "BLURRY" when flagged) in the top-left corner.
 *
 * It reads, through the readers of sharpness-meta.h, the "GstSharpnessMeta"
 * custom meta of the metric drawn (`metric`, else the buffer's first):
 * its metric, score, blurry flag and tile map; and the `sharpness` param of
 * that metric on each GstVideoRegionOfInterestMeta (score, blurry).  The
 * metric's direction and range come from the metric table.
 *
 * Tile colours run from red (blurry) through yellow to green (sharp).
 * `color-mode=relative` spans the ramp from the least to the sharpest tile
 * of each frame: where the detail is, even in a frame that is all soft.
 * `color-mode=absolute` compares each tile with `threshold` (the meta
 * carries none: set the one given to cudasharpness): worse tiles red to
 * orange, the others lime to green.  The default, `auto`, is absolute once
 * `threshold` is set.
 *
 * Labels use a built-in 5x7 bitmap font scaled by whole pixels: by default
 * the glyphs are about 2.6 % of the frame height (at least 7 pixels), so
 * they stay readable where the frame is shown small; `text-scale` sets the
 * multiple instead.
 *
 * The drawing is a GstVideoOverlayComposition: when downstream announces
 * GstVideoOverlayCompositionMeta in the allocation query (glimagesink, many
 * hardware sinks) it is attached to the buffer and the pixels are left
 * alone; otherwise it is blended into the frame, in any raw format, in
 * system memory or in CUDA memory (mapped to the host: slow, warned once).
 * The translucent tile grid is then blended directly into the planes of
 * the common 8-bit YUV, gray and RGB formats and of P010/I420_10LE (one
 * table look-up a sample, the same result as GStreamer's blender); the
 * rest goes through gst_video_overlay_composition_blend.
 * Frames without a meta, or with `enabled=false`, pass through untouched.
 * Reference: docs/reference/sharpnessoverlay.md.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 filesrc location=in.mp4 ! decodebin ! videoconvert ! \
 *     cudasharpness tiles=8x4 ! sharpnessoverlay ! videoconvert ! \
 *     autovideosink
 * ]|
 * The same, tiles coloured against the blur threshold:
 * |[
 * gst-launch-1.0 filesrc location=in.mp4 ! decodebin ! videoconvert ! \
 *     cudasharpness tiles=8x4 threshold=8 ! sharpnessoverlay threshold=8 ! \
 *     videoconvert ! autovideosink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstsharpnessoverlay.h"

#include <math.h>
#include <string.h>

#include <gst/video/video.h>

#include "sharpness-formats.h"
#include "sharpness-meta.h"
#include "sharpness-metric.h"
#include "sharpness-overlay-blend.h"
#include "sharpness-overlay-canvas.h"
#include "sharpness-overlay-colours.h"
#include "sharpness-overlay-text.h"

GST_DEBUG_CATEGORY_STATIC (gst_sharpness_overlay_debug);
#define GST_CAT_DEFAULT gst_sharpness_overlay_debug

/* System memory: every format gst_video_overlay_composition_blend()
 * handles (GStreamer 1.22 to 1.26: all of them).  CUDA memory: every
 * format GStreamer's CUDA allocator holds and maps (the shared table,
 * sharpness-formats.h; not GRAY8), mapped for the host and drawn on as
 * in system memory.  A format the blender refuses gives one warning
 * naming it, and frames pass unmodified. */
static GstCaps *
overlay_caps (void)
{
  gchar *text = g_strdup_printf (GST_VIDEO_CAPS_MAKE
      (GST_VIDEO_OVERLAY_COMPOSITION_BLEND_FORMATS) "; "
      GST_VIDEO_CAPS_MAKE_WITH_FEATURES (SHARPNESS_CAPS_FEATURE_CUDA, "%s"),
      sharpness_formats_list (SHARPNESS_FORMAT_CUDA_MEMORY, TRUE));
  GstCaps *caps = gst_caps_from_string (text);

  g_free (text);
  return caps;
}

#define DEFAULT_ENABLED TRUE
#define DEFAULT_METRIC NULL
#define DEFAULT_OPACITY 0.4
#define DEFAULT_SHOW_TILES TRUE
#define DEFAULT_SHOW_ROIS TRUE
#define DEFAULT_SHOW_SCORE TRUE
#define DEFAULT_TEXT_SCALE 0
#define DEFAULT_COLOR_MODE GST_SHARPNESS_OVERLAY_COLOR_AUTO
#define DEFAULT_THRESHOLD 0.0

enum
{
  PROP_0,
  PROP_ENABLED,
  PROP_METRIC,
  PROP_OPACITY,
  PROP_SHOW_TILES,
  PROP_SHOW_ROIS,
  PROP_SHOW_SCORE,
  PROP_TEXT_SCALE,
  PROP_COLOR_MODE,
  PROP_THRESHOLD,
};

typedef enum
{
  GST_SHARPNESS_OVERLAY_COLOR_AUTO,
  GST_SHARPNESS_OVERLAY_COLOR_RELATIVE,
  GST_SHARPNESS_OVERLAY_COLOR_ABSOLUTE,
} GstSharpnessOverlayColorMode;

#define GST_TYPE_SHARPNESS_OVERLAY_COLOR_MODE \
  (gst_sharpness_overlay_color_mode_get_type ())
static GType
gst_sharpness_overlay_color_mode_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    {GST_SHARPNESS_OVERLAY_COLOR_AUTO,
        "Absolute when a threshold is set, else relative", "auto"},
    {GST_SHARPNESS_OVERLAY_COLOR_RELATIVE,
        "From the frame's least to its sharpest tile", "relative"},
    {GST_SHARPNESS_OVERLAY_COLOR_ABSOLUTE,
        "Red worse than the threshold, green better", "absolute"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&type))
    g_once_init_leave (&type,
        g_enum_register_static ("GstSharpnessOverlayColorMode", values));
  return type;
}

#define TEXT_RGB 0xffffff
#define BLURRY_RGB 0xff4040
#define LABEL_BG SHARPNESS_ARGB (176, 0, 0, 0)
#define ROI_SHARP_RGB 0x00ffff  /* cyan: not a colour of the tile ramp */
#define ROI_BLURRY_RGB 0xff00ff /* magenta */

#define METRIC_NAME_MAX 64
#define LABEL_MAX 96

typedef struct
{
  gint x, y, w, h;              /* clamped to the frame */
  gdouble score;
  gboolean blurry;
} OverlayRoi;

struct _GstSharpnessOverlay
{
  GstBaseTransform parent;

  /* Properties, under the object lock. */
  gboolean enabled;
  gchar *metric;
  gdouble opacity;
  gboolean show_tiles;
  gboolean show_rois;
  gboolean show_score;
  guint text_scale;
  GstSharpnessOverlayColorMode color_mode;
  gdouble threshold;

  /* Streaming thread only. */
  GstVideoInfo info;
  gboolean cuda_memory;
  gboolean alloc_checked;       /* downstream asked since the last caps */
  gboolean attach;              /* downstream composes the overlay */
  GstBufferPool *canvas_pool;   /* frame-sized ARGB canvases, reused */
  SharpnessOverlayBlend blend;  /* the tile grid's direct blend */
  gboolean fast_tiles;          /* the format has the direct blend */
  gboolean warned_host_map;
  gboolean warned_blend;
  gboolean warned_threshold;

  /* The frame in flight: found by prepare_output_buffer on the input
   * buffer, drawn by transform_ip.  Arrays grow, never shrink. */
  gboolean draw;
  guint scale;
  gboolean draw_tiles;
  guint8 tile_alpha;
  guint cols, rows;
  gdouble *tile_scores;
  guint32 *tile_argb;
  guint tiles_alloc;
  SharpnessOverlayColourScale colour_scale;
  gboolean draw_score;
  gchar label[LABEL_MAX];
  gboolean blurry;
  gboolean draw_rois;
  GArray *rois;
};

G_DEFINE_TYPE (GstSharpnessOverlay, gst_sharpness_overlay,
    GST_TYPE_BASE_TRANSFORM);
GST_ELEMENT_REGISTER_DEFINE (sharpnessoverlay, "sharpnessoverlay",
    GST_RANK_NONE, GST_TYPE_SHARPNESS_OVERLAY);

/* ------------------------------------------------------------------------ */
/* Layout: the same geometry for the band computation and the drawing. */

/* Offset of "BLURRY" from the start of the score label's text: one
 * character cell after it. */
#define BLURRY_X(self) \
  sharpness_overlay_text_advance ((guint) strlen ((self)->label) + 1, \
      (self)->scale)

static void
score_box (GstSharpnessOverlay * self, gint * x, gint * y, gint * w, gint * h)
{
  gint s = (gint) self->scale;
  gint tw = sharpness_overlay_text_width (self->label, self->scale);

  if (self->blurry)
    tw = BLURRY_X (self) + sharpness_overlay_text_width ("BLURRY",
        self->scale);
  *x = 2 * s;
  *y = 2 * s;
  *w = tw + 2 * SHARPNESS_LABEL_PAD (s);
  *h = SHARPNESS_LABEL_HEIGHT (s);
}

static void
roi_label (GstSharpnessOverlay * self, const OverlayRoi * roi, gchar * text,
    gsize size, gint * x, gint * y, gint * w, gint * h)
{
  g_snprintf (text, size, "%.4g", roi->score);
  *w = sharpness_overlay_text_width (text, self->scale) +
      2 * SHARPNESS_LABEL_PAD (self->scale);
  *h = SHARPNESS_LABEL_HEIGHT (self->scale);
  *x = roi->x;
  /* Above the box when there is room, else inside its top edge. */
  *y = roi->y - *h >= 0 ? roi->y - *h : roi->y;
}

static void
compute_tile_colours (GstSharpnessOverlay * self)
{
  sharpness_overlay_tile_colours (&self->colour_scale, self->tile_scores,
      self->cols * self->rows, self->tile_alpha, self->tile_argb);
}

static void
draw_tiles (GstSharpnessOverlay * self, SharpnessCanvas * c)
{
  gint64 w = c->width, h = c->height;
  guint32 line = SHARPNESS_ARGB (self->tile_alpha, 0, 0, 0);

  compute_tile_colours (self);
  for (guint r = 0; r < self->rows; r++) {
    gint ya = (gint) (r * h / self->rows);
    gint yb = (gint) ((r + 1) * h / self->rows);
    for (guint col = 0; col < self->cols; col++) {
      gint xa = (gint) (col * w / self->cols);
      gint xb = (gint) ((col + 1) * w / self->cols);
      sharpness_canvas_fill_rect (c, xa, ya, xb - xa, yb - ya,
          self->tile_argb[r * self->cols + col]);
      /* A thin dark line on the top and left edges of every tile that is
       * large enough to keep its colour readable. */
      if (xb - xa >= 8 && yb - ya >= 8) {
        if (r > 0)
          sharpness_canvas_fill_rect (c, xa, ya, xb - xa, 1, line);
        if (col > 0)
          sharpness_canvas_fill_rect (c, xa, ya, 1, yb - ya, line);
      }
    }
  }
}

/* ------------------------------------------------------------------------ */
/* Reading the metas. */

/* Copies the tile map of @m, which sharpness_meta_read() checked. */
static gboolean
read_tiles (GstSharpnessOverlay * self, const SharpnessMetaReading * m)
{
  guint n = m->tiles_cols * m->tiles_rows;

  if (n == 0)
    return FALSE;
  if (n > self->tiles_alloc) {
    self->tile_scores = g_renew (gdouble, self->tile_scores, n);
    self->tile_argb = g_renew (guint32, self->tile_argb, n);
    self->tiles_alloc = n;
  }
  for (guint i = 0; i < n; i++)
    self->tile_scores[i] = sharpness_meta_reading_tile (m, i);
  self->cols = m->tiles_cols;
  self->rows = m->tiles_rows;
  return TRUE;
}

static void
read_rois (GstSharpnessOverlay * self, GstBuffer * buf, const gchar * metric)
{
  gint fw = GST_VIDEO_INFO_WIDTH (&self->info);
  gint fh = GST_VIDEO_INFO_HEIGHT (&self->info);
  gpointer state = NULL;
  GstMeta *meta;

  g_array_set_size (self->rois, 0);
  while ((meta = gst_buffer_iterate_meta_filtered (buf, &state,
              GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE))) {
    GstVideoRegionOfInterestMeta *roi = (GstVideoRegionOfInterestMeta *) meta;
    OverlayRoi r;
    gint x1, y1;

    if (!sharpness_roi_param_read (roi, metric, NULL, &r.score, &r.blurry))
      continue;
    r.x = CLAMP ((gint) roi->x, 0, fw);
    r.y = CLAMP ((gint) roi->y, 0, fh);
    x1 = (gint) MIN ((gint64) roi->x + roi->w, fw);
    y1 = (gint) MIN ((gint64) roi->y + roi->h, fh);
    r.w = x1 - r.x;
    r.h = y1 - r.y;
    if (r.w > 0 && r.h > 0)
      g_array_append_val (self->rois, r);
  }
}

/* The tile colours of @metric in @mode: absolute needs a threshold (the
 * meta carries none, and its blurry flag is the frame's, not a tile's). */
static void
set_colour_scale (GstSharpnessOverlay * self, const gchar * metric,
    GstSharpnessOverlayColorMode mode, gdouble threshold)
{
  const SharpnessMetricInfo *info =
      sharpness_metric_get_info (sharpness_metric_from_nick (metric));
  gboolean absolute = mode == GST_SHARPNESS_OVERLAY_COLOR_ABSOLUTE ||
      (mode == GST_SHARPNESS_OVERLAY_COLOR_AUTO && threshold > 0.0);

  if (absolute && threshold <= 0.0) {
    absolute = FALSE;
    if (!self->warned_threshold) {
      self->warned_threshold = TRUE;
      GST_ELEMENT_WARNING (self, LIBRARY, SETTINGS,
          ("sharpnessoverlay: color-mode=absolute needs a threshold; the "
              "tiles are coloured relative to each frame until one is set"),
          ("Set threshold to the score that separates sharp from blurry "
              "in the units of the metric drawn (%s)", metric));
    }
  }
  if (absolute)
    sharpness_overlay_colour_scale_absolute (&self->colour_scale, info,
        threshold);
  else
    sharpness_overlay_colour_scale_relative (&self->colour_scale,
        info ? info->direction : SHARPNESS_HIGHER_IS_SHARPER);
}

/* Decides what to draw on @buf (and whether to draw at all), from the
 * properties and the buffer's metas. */
static gboolean
collect (GstSharpnessOverlay * self, GstBuffer * buf)
{
  gchar metric_prop[METRIC_NAME_MAX] = "";
  const gchar *metric;
  SharpnessMetaReading m;
  gboolean have_meta, enabled, show_tiles, show_rois, show_score;
  gdouble opacity, threshold;
  guint text_scale;
  GstSharpnessOverlayColorMode color_mode;

  GST_OBJECT_LOCK (self);
  enabled = self->enabled;
  if (self->metric)
    g_strlcpy (metric_prop, self->metric, sizeof (metric_prop));
  opacity = self->opacity;
  show_tiles = self->show_tiles;
  show_rois = self->show_rois;
  show_score = self->show_score;
  text_scale = self->text_scale;
  color_mode = self->color_mode;
  threshold = self->threshold;
  GST_OBJECT_UNLOCK (self);

  if (!enabled || GST_VIDEO_INFO_FORMAT (&self->info) ==
      GST_VIDEO_FORMAT_UNKNOWN)
    return FALSE;

  /* The metric drawn: the property's, else the first meta's, else that
   * of the first ROI param. */
  have_meta = sharpness_meta_read (buf, metric_prop[0] ? metric_prop : NULL,
      &m);
  metric = metric_prop[0] ? metric_prop : have_meta ? m.metric : NULL;
  if (!metric) {
    gpointer state = NULL;
    GstMeta *meta;
    gdouble score;
    gboolean blurry;

    while (!metric && (meta = gst_buffer_iterate_meta_filtered (buf, &state,
                GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE)))
      sharpness_roi_param_read ((GstVideoRegionOfInterestMeta *) meta, NULL,
          &metric, &score, &blurry);
  }
  if (!metric)
    return FALSE;

  self->scale = text_scale ? text_scale :
      sharpness_overlay_text_auto_scale (GST_VIDEO_INFO_HEIGHT (&self->info));
  self->tile_alpha = (guint8) lround (CLAMP (opacity, 0.0, 1.0) * 255.0);
  self->draw_tiles = show_tiles && have_meta && self->tile_alpha > 0 &&
      read_tiles (self, &m);
  if (self->draw_tiles)
    set_colour_scale (self, metric, color_mode, threshold);
  self->draw_score = show_score && have_meta;
  if (self->draw_score) {
    self->blurry = m.blurry;
    g_snprintf (self->label, sizeof (self->label), "%s %.4g", metric,
        m.score);
    /* The font has upper case only; in place, nothing allocated. */
    for (gchar * p = self->label; *p; p++)
      *p = g_ascii_toupper (*p);
  }
  self->draw_rois = FALSE;
  if (show_rois) {
    read_rois (self, buf, metric);
    self->draw_rois = self->rois->len > 0;
  }
  return self->draw_tiles || self->draw_score || self->draw_rois;
}

/* ------------------------------------------------------------------------ */
/* The composition. */

typedef struct
{
  GstBuffer *canvas;
  GstMapInfo map;
} CanvasRef;

/* The band's pixels live in a pool canvas: it goes back to the pool when
 * the last rectangle using it (ours, or one a sink kept) is gone. */
static void
canvas_ref_free (gpointer data)
{
  CanvasRef *ref = data;

  gst_buffer_unmap (ref->canvas, &ref->map);
  gst_buffer_unref (ref->canvas);
  g_free (ref);
}

static gboolean
ensure_canvas_pool (GstSharpnessOverlay * self)
{
  GstStructure *config;
  guint size = (guint) GST_VIDEO_INFO_WIDTH (&self->info) *
      GST_VIDEO_INFO_HEIGHT (&self->info) * 4;

  if (self->canvas_pool)
    return TRUE;
  self->canvas_pool = gst_buffer_pool_new ();
  config = gst_buffer_pool_get_config (self->canvas_pool);
  /* No maximum: a sink that keeps the last composition keeps a canvas. */
  gst_buffer_pool_config_set_params (config, NULL, size, 1, 0);
  if (!gst_buffer_pool_set_config (self->canvas_pool, config) ||
      !gst_buffer_pool_set_active (self->canvas_pool, TRUE)) {
    gst_clear_object (&self->canvas_pool);
    return FALSE;
  }
  return TRUE;
}

static void
clear_canvas_pool (GstSharpnessOverlay * self)
{
  if (self->canvas_pool) {
    gst_buffer_pool_set_active (self->canvas_pool, FALSE);
    gst_clear_object (&self->canvas_pool);
  }
}

static void
extend_band (gint * y0, gint * y1, gint y, gint h)
{
  *y0 = MIN (*y0, y);
  *y1 = MAX (*y1, y + h);
}

/* The drawing as one rectangle; without the tile grid when @with_tiles is
 * FALSE (the grid is then blended directly into the frame). */
static GstVideoOverlayComposition *
build_composition (GstSharpnessOverlay * self, gboolean with_tiles)
{
  gint fw = GST_VIDEO_INFO_WIDTH (&self->info);
  gint fh = GST_VIDEO_INFO_HEIGHT (&self->info);
  gint y0 = fh, y1 = 0, x, y, w, h;
  gint thick = MAX (2, (gint) self->scale);
  gchar text[32];
  CanvasRef *ref;
  SharpnessCanvas c;
  GstBuffer *band;
  GstVideoOverlayRectangle *rect;
  GstVideoOverlayComposition *comp;

  /* The rows the drawing touches: the rectangle (and its blending) covers
   * only those. */
  with_tiles = with_tiles && self->draw_tiles;
  if (with_tiles)
    extend_band (&y0, &y1, 0, fh);
  if (self->draw_score) {
    score_box (self, &x, &y, &w, &h);
    extend_band (&y0, &y1, y, h);
  }
  if (self->draw_rois) {
    for (guint i = 0; i < self->rois->len; i++) {
      const OverlayRoi *r = &g_array_index (self->rois, OverlayRoi, i);
      extend_band (&y0, &y1, r->y, r->h);
      roi_label (self, r, text, sizeof (text), &x, &y, &w, &h);
      extend_band (&y0, &y1, y, h);
    }
  }
  y0 = MAX (y0, 0);
  y1 = MIN (y1, fh);
  if (y1 <= y0)
    return NULL;

  if (!ensure_canvas_pool (self))
    return NULL;
  ref = g_new0 (CanvasRef, 1);
  if (gst_buffer_pool_acquire_buffer (self->canvas_pool, &ref->canvas,
          NULL) != GST_FLOW_OK) {
    g_free (ref);
    return NULL;
  }
  if (!gst_buffer_map (ref->canvas, &ref->map, GST_MAP_READWRITE)) {
    gst_buffer_unref (ref->canvas);
    g_free (ref);
    return NULL;
  }

  c.px = (guint32 *) ref->map.data;
  c.width = fw;
  c.height = fh;
  c.y0 = y0;
  c.y1 = y1;
  /* A canvas comes back from the pool with an earlier frame's drawing. */
  memset (c.px + (gsize) y0 * fw, 0, (gsize) (y1 - y0) * fw * 4);

  if (with_tiles)
    draw_tiles (self, &c);
  if (self->draw_rois) {
    for (guint i = 0; i < self->rois->len; i++) {
      const OverlayRoi *r = &g_array_index (self->rois, OverlayRoi, i);
      guint32 rgb = r->blurry ? ROI_BLURRY_RGB : ROI_SHARP_RGB;
      sharpness_canvas_stroke_rect (&c, r->x, r->y, r->w, r->h, thick,
          SHARPNESS_OPAQUE (rgb));
      roi_label (self, r, text, sizeof (text), &x, &y, &w, &h);
      sharpness_overlay_label_draw (&c, x, y, w, h, self->scale, text,
          SHARPNESS_OPAQUE (rgb), SHARPNESS_OPAQUE (0x000000));
    }
  }
  if (self->draw_score) {
    score_box (self, &x, &y, &w, &h);
    sharpness_overlay_label_draw (&c, x, y, w, h, self->scale, self->label,
        LABEL_BG, SHARPNESS_OPAQUE (TEXT_RGB));
    if (self->blurry)
      sharpness_overlay_text_draw (&c,
          x + SHARPNESS_LABEL_PAD (self->scale) + BLURRY_X (self),
          y + SHARPNESS_LABEL_PAD (self->scale), self->scale, "BLURRY",
          SHARPNESS_OPAQUE (BLURRY_RGB));
  }

  /* The band as a buffer of its own (a rectangle's pixels are packed:
   * stride = 4 x width), keeping the canvas mapped and out of the pool
   * until released. */
  band = gst_buffer_new_wrapped_full (GST_MEMORY_FLAG_READONLY,
      ref->map.data + (gsize) y0 * fw * 4, (gsize) (y1 - y0) * fw * 4, 0,
      (gsize) (y1 - y0) * fw * 4, ref, canvas_ref_free);
  gst_buffer_add_video_meta (band, GST_VIDEO_FRAME_FLAG_NONE,
      GST_VIDEO_OVERLAY_COMPOSITION_FORMAT_RGB, fw, y1 - y0);
  rect = gst_video_overlay_rectangle_new_raw (band, 0, y0, fw, y1 - y0,
      GST_VIDEO_OVERLAY_FORMAT_FLAG_NONE);
  gst_buffer_unref (band);
  if (!rect)
    return NULL;
  comp = gst_video_overlay_composition_new (rect);
  gst_video_overlay_rectangle_unref (rect);
  return comp;
}

/* ------------------------------------------------------------------------ */
/* GstBaseTransform */

/* Whether downstream composes overlays itself: asked once per caps (a
 * reconfigure renegotiates, which comes back through set_caps). */
static void
check_downstream (GstSharpnessOverlay * self)
{
  GstBaseTransform *trans = GST_BASE_TRANSFORM (self);
  GstCaps *caps = gst_pad_get_current_caps (trans->srcpad);
  GstQuery *query;

  self->alloc_checked = TRUE;
  self->attach = FALSE;
  if (!caps)
    return;
  query = gst_query_new_allocation (caps, FALSE);
  if (gst_pad_peer_query (trans->srcpad, query))
    self->attach = gst_query_find_allocation_meta (query,
        GST_VIDEO_OVERLAY_COMPOSITION_META_API_TYPE, NULL);
  gst_query_unref (query);
  gst_caps_unref (caps);
  GST_DEBUG_OBJECT (self, "downstream %s overlay compositions",
      self->attach ? "composes" : "does not compose");
}

static GstFlowReturn
gst_sharpness_overlay_prepare_output_buffer (GstBaseTransform * trans,
    GstBuffer * inbuf, GstBuffer ** outbuf)
{
  GstSharpnessOverlay *self = GST_SHARPNESS_OVERLAY (trans);

  self->draw = collect (self, inbuf);
  if (!self->draw) {
    /* Nothing to draw: the very same buffer goes on, not even made
     * writable (transform_ip leaves it alone). */
    *outbuf = inbuf;
    return GST_FLOW_OK;
  }
  if (!self->alloc_checked)
    check_downstream (self);
  return GST_BASE_TRANSFORM_CLASS (gst_sharpness_overlay_parent_class)
      ->prepare_output_buffer (trans, inbuf, outbuf);
}

/* Blends the tile grid straight into the mapped frame: the pixels are those
 * gst_video_overlay_composition_blend gives for the grid drawn on the
 * canvas (sharpness-overlay-blend.c), at a fraction of the cost. */
static void
blend_tiles_fast (GstSharpnessOverlay * self, GstVideoFrame * frame)
{
  GstVideoRectangle hole;
  gboolean has_hole = FALSE;

  compute_tile_colours (self);
  /* On the single canvas the translucent score box replaces the grid under
   * it: leave those pixels to the composition blended next. (Boxes and
   * text are opaque: drawn over the grid they cover it anyway.) */
  if (self->draw_score) {
    score_box (self, &hole.x, &hole.y, &hole.w, &hole.h);
    has_hole = TRUE;
  }
  sharpness_overlay_blend_tiles (&self->blend, frame, self->cols, self->rows,
      self->tile_argb, 0x000000, self->tile_alpha, has_hole ? &hole : NULL);
  GST_LOG_OBJECT (self, "tile grid %ux%u blended directly into %s", self->cols,
      self->rows, gst_video_format_to_string (GST_VIDEO_FRAME_FORMAT (frame)));
}

static GstFlowReturn
gst_sharpness_overlay_transform_ip (GstBaseTransform * trans, GstBuffer * buf)
{
  GstSharpnessOverlay *self = GST_SHARPNESS_OVERLAY (trans);
  GstVideoOverlayComposition *comp;
  GstVideoFrame frame;
  gboolean fast;

  if (!self->draw)
    return GST_FLOW_OK;
  self->draw = FALSE;

  if (self->attach) {
    /* Downstream draws it; an upstream overlay's composition gets our
     * rectangle on top. */
    GstVideoOverlayCompositionMeta *meta;

    comp = build_composition (self, TRUE);
    if (!comp) {
      GST_DEBUG_OBJECT (self, "nothing drawn");
      return GST_FLOW_OK;
    }
    meta = gst_buffer_get_video_overlay_composition_meta (buf);
    if (meta && meta->overlay) {
      meta->overlay = gst_video_overlay_composition_make_writable
          (meta->overlay);
      gst_video_overlay_composition_add_rectangle (meta->overlay,
          gst_video_overlay_composition_get_rectangle (comp, 0));
    } else {
      gst_buffer_add_video_overlay_composition_meta (buf, comp);
    }
    gst_video_overlay_composition_unref (comp);
    return GST_FLOW_OK;
  }

  /* The translucent grid is blended directly where the format allows; the
   * rest (boxes, labels: small) goes through GStreamer's blender. */
  fast = self->draw_tiles && self->fast_tiles;
  comp = build_composition (self, !fast);
  if (!comp && !fast) {
    GST_DEBUG_OBJECT (self, "nothing drawn");
    return GST_FLOW_OK;
  }

  if (self->cuda_memory && !self->warned_host_map) {
    self->warned_host_map = TRUE;
    GST_ELEMENT_WARNING (self, STREAM, FORMAT,
        ("sharpnessoverlay: no element downstream composes overlays, so "
            "every CUDA frame is downloaded to host memory, drawn on and "
            "uploaded again (slow). Put the overlay after the download "
            "(... ! cudadownload ! sharpnessoverlay ! ...) or use a sink "
            "that composes overlays"),
        ("Downstream does not announce GstVideoOverlayCompositionMeta in "
            "the allocation query (glimagesink and many hardware sinks "
            "do); frames in memory:CUDAMemory are mapped for the host"));
  }

  /* A plain (not GST_MAP_CUDA) map works for any memory; for GstCudaMemory
   * it stages the frame through host memory. */
  if (!gst_video_frame_map (&frame, &self->info, buf, GST_MAP_READWRITE)) {
    if (comp)
      gst_video_overlay_composition_unref (comp);
    GST_ELEMENT_ERROR (self, RESOURCE, WRITE, (NULL),
        ("could not map the frame for writing"));
    return GST_FLOW_ERROR;
  }
  if (fast)
    blend_tiles_fast (self, &frame);
  if (comp && !gst_video_overlay_composition_blend (comp, &frame) &&
      !self->warned_blend) {
    self->warned_blend = TRUE;
    GST_ELEMENT_WARNING (self, STREAM, FORMAT,
        ("Cannot blend the overlay into %s frames",
            gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (&self->info))),
        (NULL));
  }
  gst_video_frame_unmap (&frame);
  if (comp)
    gst_video_overlay_composition_unref (comp);
  return GST_FLOW_OK;
}

static gboolean
gst_sharpness_overlay_set_caps (GstBaseTransform * trans, GstCaps * incaps,
    GstCaps * outcaps)
{
  GstSharpnessOverlay *self = GST_SHARPNESS_OVERLAY (trans);
  GstVideoInfo info;
  GstCapsFeatures *features = gst_caps_get_features (incaps, 0);

  if (!gst_video_info_from_caps (&info, incaps))
    return FALSE;
  if (GST_VIDEO_INFO_WIDTH (&info) != GST_VIDEO_INFO_WIDTH (&self->info) ||
      GST_VIDEO_INFO_HEIGHT (&info) != GST_VIDEO_INFO_HEIGHT (&self->info))
    clear_canvas_pool (self);
  self->info = info;
  self->cuda_memory = features &&
      gst_caps_features_contains (features, SHARPNESS_CAPS_FEATURE_CUDA);
  self->alloc_checked = FALSE;
  self->fast_tiles =
      sharpness_overlay_blend_supports (GST_VIDEO_INFO_FORMAT (&info));
  GST_DEBUG_OBJECT (self, "%s: tile grid blended %s", gst_video_format_to_string
      (GST_VIDEO_INFO_FORMAT (&info)), self->fast_tiles ? "directly" :
      "by gst_video_overlay_composition_blend");
  return TRUE;
}

static gboolean
gst_sharpness_overlay_start (GstBaseTransform * trans)
{
  GstSharpnessOverlay *self = GST_SHARPNESS_OVERLAY (trans);

  gst_video_info_init (&self->info);
  self->alloc_checked = FALSE;
  self->attach = FALSE;
  self->warned_host_map = self->warned_blend = self->warned_threshold = FALSE;
  return TRUE;
}

static gboolean
gst_sharpness_overlay_stop (GstBaseTransform * trans)
{
  GstSharpnessOverlay *self = GST_SHARPNESS_OVERLAY (trans);

  clear_canvas_pool (self);
  sharpness_overlay_blend_clear (&self->blend);
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* GObject */

static void
gst_sharpness_overlay_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstSharpnessOverlay *self = GST_SHARPNESS_OVERLAY (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_ENABLED:
      self->enabled = g_value_get_boolean (value);
      break;
    case PROP_METRIC:
      g_free (self->metric);
      self->metric = g_value_dup_string (value);
      if (self->metric && !self->metric[0])
        g_clear_pointer (&self->metric, g_free);
      break;
    case PROP_OPACITY:
      self->opacity = g_value_get_double (value);
      break;
    case PROP_SHOW_TILES:
      self->show_tiles = g_value_get_boolean (value);
      break;
    case PROP_SHOW_ROIS:
      self->show_rois = g_value_get_boolean (value);
      break;
    case PROP_SHOW_SCORE:
      self->show_score = g_value_get_boolean (value);
      break;
    case PROP_TEXT_SCALE:
      self->text_scale = g_value_get_uint (value);
      break;
    case PROP_COLOR_MODE:
      self->color_mode = g_value_get_enum (value);
      break;
    case PROP_THRESHOLD:
      self->threshold = g_value_get_double (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_sharpness_overlay_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstSharpnessOverlay *self = GST_SHARPNESS_OVERLAY (object);

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_ENABLED:
      g_value_set_boolean (value, self->enabled);
      break;
    case PROP_METRIC:
      g_value_set_string (value, self->metric);
      break;
    case PROP_OPACITY:
      g_value_set_double (value, self->opacity);
      break;
    case PROP_SHOW_TILES:
      g_value_set_boolean (value, self->show_tiles);
      break;
    case PROP_SHOW_ROIS:
      g_value_set_boolean (value, self->show_rois);
      break;
    case PROP_SHOW_SCORE:
      g_value_set_boolean (value, self->show_score);
      break;
    case PROP_TEXT_SCALE:
      g_value_set_uint (value, self->text_scale);
      break;
    case PROP_COLOR_MODE:
      g_value_set_enum (value, self->color_mode);
      break;
    case PROP_THRESHOLD:
      g_value_set_double (value, self->threshold);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_sharpness_overlay_finalize (GObject * object)
{
  GstSharpnessOverlay *self = GST_SHARPNESS_OVERLAY (object);

  clear_canvas_pool (self);
  sharpness_overlay_blend_clear (&self->blend);
  g_free (self->metric);
  g_free (self->tile_scores);
  g_free (self->tile_argb);
  g_array_unref (self->rois);
  G_OBJECT_CLASS (gst_sharpness_overlay_parent_class)->finalize (object);
}

static void
gst_sharpness_overlay_class_init (GstSharpnessOverlayClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);
  const GParamFlags rw = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_PLAYING;
  GstCaps *caps;

  GST_DEBUG_CATEGORY_INIT (gst_sharpness_overlay_debug, "sharpnessoverlay", 0,
      "Sharpness heat-map overlay");

  gobject_class->set_property = gst_sharpness_overlay_set_property;
  gobject_class->get_property = gst_sharpness_overlay_get_property;
  gobject_class->finalize = gst_sharpness_overlay_finalize;

  g_object_class_install_property (gobject_class, PROP_ENABLED,
      g_param_spec_boolean ("enabled", "Enabled",
          "Draw the overlay; when false every buffer passes through "
          "untouched (no copy, no meta)", DEFAULT_ENABLED, rw));
  g_object_class_install_property (gobject_class, PROP_METRIC,
      g_param_spec_string ("metric", "Metric",
          "Nick of the metric whose GstSharpnessMeta and ROI scores are drawn "
          "(e.g. \"laplacian\") when several cudasharpness elements scored "
          "the frame; empty or NULL: the first GstSharpnessMeta of the "
          "buffer", DEFAULT_METRIC, rw));
  g_object_class_install_property (gobject_class, PROP_OPACITY,
      g_param_spec_double ("opacity", "Opacity",
          "Opacity of the tile map's colour grid, from 0 (not drawn) to 1 "
          "(opaque); ROI boxes and labels are always opaque", 0.0, 1.0,
          DEFAULT_OPACITY, rw));
  g_object_class_install_property (gobject_class, PROP_SHOW_TILES,
      g_param_spec_boolean ("show-tiles", "Show tiles",
          "Draw the tile map of the meta as a red (blurry) to green (sharp) "
          "colour grid, scaled as color-mode says", DEFAULT_SHOW_TILES, rw));
  g_object_class_install_property (gobject_class, PROP_SHOW_ROIS,
      g_param_spec_boolean ("show-rois", "Show ROIs",
          "Draw every region of interest that has a `sharpness` param of the "
          "metric: its box (cyan: sharp, magenta: blurry) and its score",
          DEFAULT_SHOW_ROIS, rw));
  g_object_class_install_property (gobject_class, PROP_SHOW_SCORE,
      g_param_spec_boolean ("show-score", "Show score",
          "Draw the metric and the frame score in the top-left corner, with "
          "BLURRY when the frame is flagged blurry", DEFAULT_SHOW_SCORE, rw));
  g_object_class_install_property (gobject_class, PROP_TEXT_SCALE,
      g_param_spec_uint ("text-scale", "Text scale",
          "Size of the labels' 5x7-pixel font, in multiples (0: automatic, "
          "glyphs about 2.6 % of the frame height, at least 7 pixels)", 0,
          SHARPNESS_TEXT_SCALE_MAX, DEFAULT_TEXT_SCALE, rw));
  g_object_class_install_property (gobject_class, PROP_COLOR_MODE,
      g_param_spec_enum ("color-mode", "Color mode",
          "How tile scores become colours: relative to the frame's tiles, "
          "or absolute against threshold (auto: absolute when it is set)",
          GST_TYPE_SHARPNESS_OVERLAY_COLOR_MODE, DEFAULT_COLOR_MODE, rw));
  g_object_class_install_property (gobject_class, PROP_THRESHOLD,
      g_param_spec_double ("threshold", "Threshold",
          "Score that separates sharp (green) from blurry (red) tiles in the "
          "absolute color mode, in the metric's units; 0: none", 0.0,
          G_MAXDOUBLE, DEFAULT_THRESHOLD, rw));

  gst_type_mark_as_plugin_api (GST_TYPE_SHARPNESS_OVERLAY_COLOR_MODE, 0);
  caps = overlay_caps ();
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("sink", GST_PAD_SINK, GST_PAD_ALWAYS, caps));
  gst_element_class_add_pad_template (element_class,
      gst_pad_template_new ("src", GST_PAD_SRC, GST_PAD_ALWAYS, caps));
  gst_caps_unref (caps);
  gst_element_class_set_static_metadata (element_class,
      "Sharpness overlay", "Filter/Editor/Video",
      "Draws the sharpness tile map, region scores and frame score of "
      "cudasharpness over the video (GstVideoOverlayComposition)",
      "The gst-sharpness authors");

  trans_class->start = GST_DEBUG_FUNCPTR (gst_sharpness_overlay_start);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_sharpness_overlay_stop);
  trans_class->set_caps = GST_DEBUG_FUNCPTR (gst_sharpness_overlay_set_caps);
  trans_class->prepare_output_buffer =
      GST_DEBUG_FUNCPTR (gst_sharpness_overlay_prepare_output_buffer);
  trans_class->transform_ip =
      GST_DEBUG_FUNCPTR (gst_sharpness_overlay_transform_ip);
  trans_class->passthrough_on_same_caps = FALSE;
  trans_class->transform_ip_on_passthrough = FALSE;
}

static void
gst_sharpness_overlay_init (GstSharpnessOverlay * self)
{
  self->enabled = DEFAULT_ENABLED;
  self->metric = NULL;
  self->opacity = DEFAULT_OPACITY;
  self->show_tiles = DEFAULT_SHOW_TILES;
  self->show_rois = DEFAULT_SHOW_ROIS;
  self->show_score = DEFAULT_SHOW_SCORE;
  self->text_scale = DEFAULT_TEXT_SCALE;
  self->color_mode = DEFAULT_COLOR_MODE;
  self->threshold = DEFAULT_THRESHOLD;
  self->rois = g_array_new (FALSE, FALSE, sizeof (OverlayRoi));
  gst_video_info_init (&self->info);
  sharpness_overlay_blend_init (&self->blend);
  gst_base_transform_set_in_place (GST_BASE_TRANSFORM (self), TRUE);
}
