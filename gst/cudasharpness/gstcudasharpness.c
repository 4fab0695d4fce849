/* Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/**
 * SECTION:element-cudasharpness
 * @title: cudasharpness
 *
 * Scores the sharpness of every video frame with one of the metrics of
 * docs/reference/metrics.md, on a CUDA device or on the CPU, without touching the
 * pixels (in place: its output bytes are its input bytes).  Each scored
 * buffer gets a "GstSharpnessMeta" custom meta (sharpness-meta.h).  Each
 * frame also gets a content state: black or frozen as FFmpeg's
 * blackdetect and freezedetect decide, flat (too little structure for a
 * verdict), blurry (worse than an absolute threshold, or than the median
 * of the previous sharp frames), or normal; stretches of blurry, black and
 * frozen frames raise start and end events.  Reference: docs/reference/cudasharpness.md,
 * docs/validation/detection.md.
 *
 * The element posts these element messages:
 *
 * `sharpness`, per frame (or per `interval`):
 * - `timestamp` (G_TYPE_UINT64): the frame's PTS
 * - `stream-time` (G_TYPE_UINT64): its stream time
 * - `running-time` (G_TYPE_UINT64): its running time
 * - `duration` (G_TYPE_UINT64): its duration, else one frame at the rate
 * - `frame` (G_TYPE_UINT64): index of the frame since start
 * - `metric` (G_TYPE_STRING): the metric's nick
 * - `score` (G_TYPE_DOUBLE): the frame's score
 * - `blurry` (G_TYPE_BOOLEAN): the frame's blurry flag
 * - `content-state` (G_TYPE_STRING): normal, black, frozen, flat or blurry
 * - `black-ratio`, `freeze-mafd`, `structure` (G_TYPE_DOUBLE): the share of
 *   black luma samples, FFmpeg's MAFD against the freeze reference, the
 *   share of edge pixels; each when its detection (`detect`) is on
 * - `unscored` (G_TYPE_UINT64): frames passed unscored since the last one
 * - `tiles-cols`, `tiles-rows` (G_TYPE_UINT), `tile-scores`
 *   (GST_TYPE_ARRAY of G_TYPE_DOUBLE): the tile map, with `tiles` set
 * - `roi-ids` (GST_TYPE_ARRAY of G_TYPE_INT), `roi-types` (GST_TYPE_ARRAY
 *   of G_TYPE_STRING), `roi-scores` (GST_TYPE_ARRAY of G_TYPE_DOUBLE): the
 *   regions of interest scored, when there are any
 * - with `interval` only: `frames` (G_TYPE_UINT), `mean`, `min`, `max`
 *   (G_TYPE_DOUBLE), `blurry-frames` (G_TYPE_UINT) over the interval
 *
 * `sharpness-blurry-start`, `sharpness-black-start`,
 * `sharpness-freeze-start`: when a blurry run has lasted
 * `min-blurry-duration`, a black stretch `black-min-duration`, a freeze
 * `freeze-min-duration`:
 * - `metric` (G_TYPE_STRING), `timestamp`, `stream-time`, `running-time`
 *   (G_TYPE_UINT64): of the stretch's first frame
 * - `start-frame` (G_TYPE_UINT64): its index
 * - `thumbnail` (GST_TYPE_SAMPLE, image/jpeg): with `event-thumbnails`
 *
 * `sharpness-blurry-end`, `sharpness-black-end`, `sharpness-freeze-end`:
 * when that stretch ends (or at EOS or a flush):
 * - the fields of its start
 * - `start`, `end`, `duration` (G_TYPE_UINT64): the stretch (black and
 *   freeze: FFmpeg's black_start/black_end, freeze_start/freeze_end)
 * - `end-frame`, `frames` (G_TYPE_UINT64), and `blurry-frames`,
 *   `black-frames` or `frozen-frames` (G_TYPE_UINT64)
 * - `min`, `mean`, `max` (G_TYPE_DOUBLE): scores over the stretch
 * - `worst-frame` (G_TYPE_UINT64), `worst-score` (G_TYPE_DOUBLE)
 *
 * `sharpness-summary`, at EOS:
 * - `metric` (G_TYPE_STRING), `frames` (G_TYPE_UINT64), `mean`, `min`,
 *   `max` (G_TYPE_DOUBLE), `blurry-frames`, `unscored`, `black-frames`,
 *   `frozen-frames`, `flat-frames`, `blurry-segments`, `black-segments`,
 *   `freeze-segments` (G_TYPE_UINT64)
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 -m videotestsrc num-buffers=50 ! cudasharpness metric=tenengrad ! fakesink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudasharpness.h"

#include <gst/video/video.h>

#include "sharpness-black.h"
#include "sharpness-caps.h"
#include "sharpness-content.h"
#include "sharpness-element.h"
#include "sharpness-event-thumbnails.h"
#include "sharpness-frame.h"
#include "sharpness-frame-regions.h"
#include "sharpness-messages.h"
#include "sharpness-meta.h"
#include "sharpness-scorer.h"
#include "sharpness-stats.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_sharpness_debug);
#define GST_CAT_DEFAULT gst_cuda_sharpness_debug

#define DEFAULT_METRIC SHARPNESS_METRIC_LAPLACIAN
#define DEFAULT_THRESHOLD 0.0
#define DEFAULT_RELATIVE_THRESHOLD 0.0
#define DEFAULT_WINDOW 25
#define MAX_WINDOW 10000
#define DEFAULT_MIN_BLURRY_DURATION 0
#define DEFAULT_MAX_BLURRY_GAP 2
#define MAX_BLURRY_GAP 10000
#define DEFAULT_POOLING GST_SHARPNESS_POOLING_MEAN
#define DEFAULT_POOLING_PERCENT 10.0
#define DEFAULT_DETECT (SHARPNESS_DETECT_BLACK | SHARPNESS_DETECT_FREEZE | \
    SHARPNESS_DETECT_FLAT)
#define DEFAULT_BLACK_PIXEL_THRESHOLD SHARPNESS_BLACK_DEFAULT_PIXEL_TH
#define DEFAULT_BLACK_RATIO SHARPNESS_BLACK_DEFAULT_PICTURE_TH
#define DEFAULT_BLACK_MIN_DURATION SHARPNESS_BLACK_DEFAULT_MIN_DURATION
#define DEFAULT_FREEZE_NOISE -60.0      /* dB: FFmpeg's 0.001 */
#define DEFAULT_FREEZE_MIN_DURATION SHARPNESS_FREEZE_DEFAULT_MIN_DURATION
/* Chosen on the labelled detection suite (docs/validation/detection.md,
 * "Flat frames"): every sharp low-texture scene (sky, wall, gradient,
 * colour wheel) falls below it and every blurred textured frame stays well
 * above it; level 5 leaves the widest ratio between the two. */
#define DEFAULT_FLAT_EDGE_LEVEL 5
#define DEFAULT_FLAT_THRESHOLD 0.02
/* Off, as the thresholds it confirms are; the recommended rule's value
 * (the tools' default) is SHARPNESS_CPBD_THRESHOLD
 * (docs/validation/detection.md, "CPBD confirms the absolute level"). */
#define DEFAULT_CPBD_THRESHOLD 0.0
/* Off likewise; the recommended rule's is SHARPNESS_FOCUS_THRESHOLD
 * (docs/validation/detection.md, "The tile-level focus gate in the
 * element"). */
#define DEFAULT_FOCUS_THRESHOLD 0.0
#define DEFAULT_EVENT_THUMBNAILS 0
#define MAX_EVENT_THUMBNAILS 4096
/* How long EOS waits for thumbnails being encoded, so that events come
 * before the summary. */
#define THUMBNAIL_DRAIN_TIMEOUT (5 * GST_SECOND)

typedef enum
{
  GST_SHARPNESS_POOLING_MEAN,
  GST_SHARPNESS_POOLING_TOP_PERCENT
} GstSharpnessPooling;

enum
{
  PROP_0,
  PROP_METRIC,
  PROP_THRESHOLD,
  PROP_RELATIVE_THRESHOLD,
  PROP_WINDOW,
  PROP_MIN_BLURRY_DURATION,
  PROP_MAX_BLURRY_GAP,
  PROP_TILES,
  PROP_POOLING,
  PROP_POOLING_PERCENT,
  PROP_ROI_TYPES,
  PROP_DETECT,
  PROP_BLACK_PIXEL_THRESHOLD,
  PROP_BLACK_RATIO,
  PROP_BLACK_MIN_DURATION,
  PROP_FREEZE_NOISE,
  PROP_FREEZE_MIN_DURATION,
  PROP_FLAT_EDGE_LEVEL,
  PROP_FLAT_THRESHOLD,
  PROP_CPBD_THRESHOLD,
  PROP_FOCUS_THRESHOLD,
  PROP_EVENT_THUMBNAILS,
  PROP_COMMON                   /* SHARPNESS_ELEMENT_N_PROPS from here */
};

/* The element's own properties; the streaming thread copies them, with
 * the common ones, under the object lock once per frame. */
typedef struct
{
  SharpnessMetric metric;
  gdouble threshold;
  gdouble relative_threshold;
  guint window;
  guint64 min_blurry_duration;
  guint max_blurry_gap;
  guint tiles_cols, tiles_rows;  /* 0: off */
  GstSharpnessPooling pooling;
  gdouble pooling_percent;
  /* GQuarks, NULL: every type.  Never modified once set (a new array
   * replaces it), so a copy of the settings holds a reference. */
  GArray *roi_types;
  guint detect;                 /* SharpnessDetect */
  gdouble black_pixel_threshold, black_ratio;
  guint64 black_min_duration;
  gdouble freeze_noise;         /* dB */
  guint64 freeze_min_duration;
  guint flat_edge_level;
  gdouble flat_threshold;
  gdouble cpbd_threshold;
  gdouble focus_threshold;
  guint event_thumbnails;       /* width, 0: off */
} GstCudaSharpnessSettings;

struct _GstCudaSharpness
{
  GstBaseTransform parent;

  SharpnessElement base;        /* common properties, backends, warnings */
  GstCudaSharpnessSettings settings;    /* object lock */
  SharpnessCapsRefusal refusal;

  /* Streaming state, from start to stop. */
  GstVideoInfo info;
  gboolean cuda_memory;         /* negotiated memory:CUDAMemory */
  /* What the caps give the content measurements. */
  guint black_depth;
  gboolean black_full_range;
  SharpnessFreezeLayout freeze_layout;
  gboolean have_freeze_layout;
  /* Content states and events: blur rule, black, freeze, flat. */
  SharpnessContent *content;
  SharpnessMetric content_metric;       /* the metric of its blur runs */
  SharpnessBackend *last_backend;       /* that measured the last frame */
  SharpnessEventThumbnails *thumbnails;
  SharpnessSignature signature; /* scratch: the frame's, for cut detection */
  SharpnessFrameRegions regions;        /* tiles and ROIs of the frame */
  SharpnessMetric stats_metric; /* metric of the statistics below */
  guint64 frame_index;
  SharpnessStats interval_stats;
  SharpnessInterval interval;
  guint64 unscored_since_message;
  SharpnessStats total_stats;
};

#define gst_cuda_sharpness_parent_class parent_class
G_DEFINE_TYPE_WITH_CODE (GstCudaSharpness, gst_cuda_sharpness,
    GST_TYPE_BASE_TRANSFORM,
    GST_DEBUG_CATEGORY_INIT (gst_cuda_sharpness_debug, "cudasharpness", 0,
        "CUDA sharpness analyzer"));
GST_ELEMENT_REGISTER_DEFINE (cudasharpness, "cudasharpness", GST_RANK_NONE,
    GST_TYPE_CUDA_SHARPNESS);

/* The GEnum of the `metric` property, built from the metric table. */
#define GST_TYPE_SHARPNESS_METRIC (gst_sharpness_metric_get_type ())
static GType
gst_sharpness_metric_get_type (void)
{
  static gsize type = 0;
  static GEnumValue values[SHARPNESS_METRIC_COUNT + 1];

  if (g_once_init_enter (&type)) {
    for (gint m = 0; m < SHARPNESS_METRIC_COUNT; m++) {
      values[m].value = sharpness_metric_info[m].metric;
      values[m].value_name = sharpness_metric_info[m].name;
      values[m].value_nick = sharpness_metric_info[m].nick;
    }
    g_once_init_leave (&type,
        g_enum_register_static ("GstSharpnessMetric", values));
  }
  return type;
}

#define GST_TYPE_SHARPNESS_POOLING (gst_sharpness_pooling_get_type ())
static GType
gst_sharpness_pooling_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    {GST_SHARPNESS_POOLING_MEAN, "The whole frame's score", "mean"},
    {GST_SHARPNESS_POOLING_TOP_PERCENT,
        "The mean of the sharpest pooling-percent % of the tiles",
        "top-percent"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&type))
    g_once_init_leave (&type,
        g_enum_register_static ("GstSharpnessPooling", values));
  return type;
}

#define GST_TYPE_SHARPNESS_DETECT (gst_sharpness_detect_get_type ())
static GType
gst_sharpness_detect_get_type (void)
{
  static gsize type = 0;
  static const GFlagsValue values[] = {
    {SHARPNESS_DETECT_BLACK, "Black frames, as FFmpeg's blackdetect",
        "black"},
    {SHARPNESS_DETECT_FREEZE, "Frozen pictures, as FFmpeg's freezedetect",
        "freeze"},
    {SHARPNESS_DETECT_FLAT, "Frames too flat for a sharpness verdict",
        "flat"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_flags_register_static ("GstSharpnessDetect",
            values));
  return type;
}

/* A copy of the settings; release it with clear_settings(). */
static void
get_settings (GstCudaSharpness * self, GstCudaSharpnessSettings * settings,
    SharpnessElementSettings * common)
{
  GST_OBJECT_LOCK (self);
  *settings = self->settings;
  if (settings->roi_types)
    g_array_ref (settings->roi_types);
  *common = self->base.settings;
  GST_OBJECT_UNLOCK (self);
}

static void
clear_settings (GstCudaSharpnessSettings * settings)
{
  g_clear_pointer (&settings->roi_types, g_array_unref);
}

#define WARN_ONCE(self, domain, code, ...) \
  SHARPNESS_ELEMENT_WARN_ONCE (&(self)->base, domain, code, __VA_ARGS__)

static void
content_settings (GstCudaSharpness * self, const GstCudaSharpnessSettings * s,
    SharpnessContentSettings * c)
{
  gint fps_n = GST_VIDEO_INFO_FPS_N (&self->info);
  gint fps_d = GST_VIDEO_INFO_FPS_D (&self->info);

  sharpness_content_settings_init (c);
  c->detect = s->detect;
  c->black.picture_black_ratio_th = s->black_ratio;
  c->black.min_duration = s->black_min_duration;
  c->freeze.noise = sharpness_freeze_noise_from_db (s->freeze_noise);
  c->freeze.min_duration = s->freeze_min_duration;
  c->freeze.depth = self->freeze_layout.depth;
  if (fps_n > 0 && fps_d > 0) {
    c->freeze.fps_n = fps_n;
    c->freeze.fps_d = fps_d;
  }
  c->flat_threshold = s->flat_threshold;
  c->cpbd_threshold = s->cpbd_threshold;
  c->focus_threshold = s->focus_threshold;
  c->min_blurry_duration = s->min_blurry_duration;
  c->max_blurry_gap = s->max_blurry_gap;
}

static void restart_content (GstCudaSharpness * self,
    gboolean keep_blur_run);

static void
reset_interval (GstCudaSharpness * self)
{
  sharpness_stats_reset (&self->interval_stats);
  sharpness_interval_reset (&self->interval);
  self->unscored_since_message = 0;
}

static gboolean
gst_cuda_sharpness_start (GstBaseTransform * trans)
{
  GstCudaSharpness *self = GST_CUDA_SHARPNESS (trans);
  GstCudaSharpnessSettings s;
  SharpnessElementSettings common;

  get_settings (self, &s, &common);
  clear_settings (&s);          /* roi_types is not needed here */

  self->stats_metric = s.metric;
  self->frame_index = 0;
  reset_interval (self);
  sharpness_stats_reset (&self->total_stats);
  gst_video_info_init (&self->info);
  self->cuda_memory = FALSE;
  self->have_freeze_layout = FALSE;
  self->last_backend = NULL;
  sharpness_caps_refusal_reset (&self->refusal);
  {
    SharpnessContentSettings c;

    content_settings (self, &s, &c);
    self->content = sharpness_content_new (&c, s.metric, s.window);
  }
  if (!sharpness_element_start (&self->base)) {
    g_clear_pointer (&self->content, sharpness_content_free);
    return FALSE;
  }
  return TRUE;
}

static gboolean
gst_cuda_sharpness_stop (GstBaseTransform * trans)
{
  GstCudaSharpness *self = GST_CUDA_SHARPNESS (trans);

  sharpness_element_stop (&self->base);
  g_clear_pointer (&self->content, sharpness_content_free);
  return TRUE;
}

static void
gst_cuda_sharpness_before_transform (GstBaseTransform * trans,
    GstBuffer * buf)
{
  sharpness_caps_refusal_buffer (&GST_CUDA_SHARPNESS (trans)->refusal);
}

static gboolean
gst_cuda_sharpness_accept_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps)
{
  if (GST_BASE_TRANSFORM_CLASS (parent_class)->accept_caps (trans, direction,
          caps))
    return TRUE;
  sharpness_caps_refusal_accept_failed (&GST_CUDA_SHARPNESS (trans)->refusal,
      direction, caps);
  return FALSE;
}

static gboolean
gst_cuda_sharpness_set_caps (GstBaseTransform * trans, GstCaps * incaps,
    GstCaps * outcaps)
{
  GstCudaSharpness *self = GST_CUDA_SHARPNESS (trans);
  GstVideoInfo info;
  gboolean cuda = sharpness_caps_are_cuda (incaps);

  if (!gst_video_info_from_caps (&info, incaps) ||
      !sharpness_format_has_use (GST_VIDEO_INFO_FORMAT (&info),
          SHARPNESS_FORMAT_SCORE, cuda)) {
    sharpness_caps_refusal_set_caps (&self->refusal, incaps, FALSE);
    return FALSE;
  }

  /* Scores of another size or format say nothing about the next frames. */
  if (cuda != self->cuda_memory || !gst_video_info_is_equal (&info,
          &self->info))
    restart_content (self, TRUE);

  self->info = info;
  self->cuda_memory = cuda;
  /* FFmpeg's range decision (sharpness-black.h): full range when the caps
   * say so; packed RGB is judged on its gray conversion, full range. */
  self->black_depth = GST_VIDEO_INFO_IS_RGB (&info) ? 8 :
      GST_VIDEO_FORMAT_INFO_DEPTH (info.finfo, 0);
  self->black_full_range = GST_VIDEO_INFO_IS_RGB (&info) ||
      info.colorimetry.range == GST_VIDEO_COLOR_RANGE_0_255;
  self->have_freeze_layout = sharpness_freeze_layout_from_info
      (&self->freeze_layout, &info);
  if (!self->have_freeze_layout)
    GST_INFO_OBJECT (self, "no freeze detection on %s frames (docs/"
        "reference/cudasharpness.md, content states)",
        GST_VIDEO_INFO_NAME (&info));
  sharpness_caps_refusal_set_caps (&self->refusal, incaps, TRUE);
  GST_DEBUG_OBJECT (self, "analysing %s %dx%d in %s memory",
      GST_VIDEO_INFO_NAME (&info), GST_VIDEO_INFO_WIDTH (&info),
      GST_VIDEO_INFO_HEIGHT (&info), cuda ? "CUDA" : "system");
  return TRUE;
}

static gboolean
gst_cuda_sharpness_query (GstBaseTransform * trans, GstPadDirection direction,
    GstQuery * query)
{
  GstCudaSharpness *self = GST_CUDA_SHARPNESS (trans);
  gboolean ret;

  if (sharpness_element_query (&self->base, query))
    return TRUE;
  ret = GST_BASE_TRANSFORM_CLASS (parent_class)->query (trans, direction,
      query);
  sharpness_caps_refusal_caps_query (&self->refusal, direction, query);
  return ret;
}

static gboolean
gst_cuda_sharpness_propose_allocation (GstBaseTransform * trans,
    GstQuery * decide_query, GstQuery * query)
{
  GstCudaSharpness *self = GST_CUDA_SHARPNESS (trans);
  /* In place: the base class forwards the query downstream, whose answer
   * (pools, metas) must stand since our output buffers are our input; the
   * pinned pool is added only where downstream proposed none. */
  gboolean ret = GST_BASE_TRANSFORM_CLASS (parent_class)->propose_allocation
      (trans, decide_query, query);

  return sharpness_element_propose_allocation (&self->base, query) || ret;
}

static void
gst_cuda_sharpness_set_context (GstElement * element, GstContext * context)
{
  sharpness_element_set_context (&GST_CUDA_SHARPNESS (element)->base,
      context);
  GST_ELEMENT_CLASS (parent_class)->set_context (element, context);
}

/* The start and end events of blurry, black and frozen stretches; with
 * event-thumbnails, posted by the thumbnail worker once encoded. */
static void
post_events (GstCudaSharpness * self, const SharpnessContentResult * r)
{
  const gchar *nick = sharpness_metric_info[self->content_metric].nick;
  gboolean thumbs = sharpness_event_thumbnails_enabled (self->thumbnails);

  for (guint i = 0; i < r->n_events; i++) {
    const SharpnessContentEvent *e = &r->events[i];
    GstMessage *msg = sharpness_message_new_event (GST_OBJECT (self), nick,
        e);

    if (thumbs)
      sharpness_event_thumbnails_post (self->thumbnails, e->kind, msg);
    else
      gst_element_post_message (GST_ELEMENT (self), msg);
  }
}

/* The pictures events will show: the worst frame of a blurry run, the
 * frame a black or frozen stretch starts on (it does not change). */
static void
keep_pictures (GstCudaSharpness * self, GstBuffer * buf,
    const SharpnessContentResult * r)
{
  if (!sharpness_event_thumbnails_enabled (self->thumbnails))
    return;
  if (r->blur_worst)
    sharpness_event_thumbnails_keep (self->thumbnails, SHARPNESS_EVENT_BLUR,
        buf);
  for (guint i = 0; i < r->n_events; i++)
    if (!r->events[i].is_end && r->events[i].kind != SHARPNESS_EVENT_BLUR)
      sharpness_event_thumbnails_keep (self->thumbnails, r->events[i].kind,
          buf);
}

/* Closes the open stretches (EOS, flush): an operator alarmed by a start
 * always gets its end. */
static void
finish_content (GstCudaSharpness * self)
{
  SharpnessContentResult r;

  if (!self->content)
    return;
  sharpness_content_finish (self->content, &r);
  post_events (self, &r);
}

/* Flush, caps change (@keep_blur_run): the history says nothing about the
 * next frames. */
static void
restart_content (GstCudaSharpness * self, gboolean keep_blur_run)
{
  SharpnessContentResult r;

  if (!self->content)
    return;
  sharpness_content_reset (self->content, keep_blur_run, &r);
  post_events (self, &r);
  sharpness_scorer_drop_reference ((SharpnessScorer *)
      self->base.choice.cpu);
  sharpness_scorer_drop_reference ((SharpnessScorer *)
      self->base.choice.gpu);
}

static void
post_summary (GstCudaSharpness * self)
{
  SharpnessElementSettings common;

  sharpness_element_get_settings (&self->base, &common);
  if (common.post_messages)
    gst_element_post_message (GST_ELEMENT (self),
        sharpness_message_new_summary (GST_OBJECT (self),
            sharpness_metric_info[self->stats_metric].nick,
            &self->total_stats));
  /* A later EOS (after a flushing seek) summarises the frames since. */
  sharpness_stats_reset (&self->total_stats);
}

static gboolean
gst_cuda_sharpness_sink_event (GstBaseTransform * trans, GstEvent * event)
{
  GstCudaSharpness *self = GST_CUDA_SHARPNESS (trans);

  switch (GST_EVENT_TYPE (event)) {
    case GST_EVENT_FLUSH_STOP:
      restart_content (self, FALSE);
      reset_interval (self);
      break;
    case GST_EVENT_EOS:
      finish_content (self);
      sharpness_event_thumbnails_drain (self->thumbnails,
          THUMBNAIL_DRAIN_TIMEOUT);
      post_summary (self);
      break;
    default:
      break;
  }
  return GST_BASE_TRANSFORM_CLASS (parent_class)->sink_event (trans, event);
}

/* One frame's backend call. */
typedef struct
{
  GstBuffer *buffer;
  const GstVideoInfo *info;
  const SharpnessScorerJob *job;
} FrameJob;

static gboolean
run_frame_job (SharpnessBackend * backend, gpointer data, GError ** error)
{
  FrameJob *j = data;

  return sharpness_scorer_run ((SharpnessScorer *) backend, j->buffer,
      j->info, j->job, error);
}

/* A fallback may never make a frame late: the CPU takes seconds per 1080p
 * frame for the heavy metrics, so such frames go on unscored unless the
 * user asked for the CPU (backend=cpu, which skips this). */
static gboolean
cpu_keeps_up (gpointer data, gpointer user_data)
{
  FrameJob *j = data;
  GstCudaSharpness *self = user_data;
  const SharpnessMetricInfo *mi = &sharpness_metric_info[j->job->metric];

  if (mi->cpu != SHARPNESS_CPU_HEAVY)
    return TRUE;
  WARN_ONCE (self, RESOURCE, FAILED, "%s is too slow on the CPU to keep up "
      "with the stream and no CUDA device scores it: frames go on unscored "
      "(set backend=cpu to score every frame on the CPU)", mi->nick);
  return FALSE;
}

/* The refusal for metrics without tile sums (perceptual ones): once, and
 * the frame is scored whole. */
static void
refuse_regions (GstCudaSharpness * self, const GstCudaSharpnessSettings * s,
    GstBuffer * buf)
{
  const gchar *nick = sharpness_metric_info[s->metric].nick;

  if (s->tiles_cols > 0)
    WARN_ONCE (self, RESOURCE, SETTINGS, "tiles are computed for the "
        "classical metrics only: %s frames get their whole-frame score and "
        "no tile fields", nick);
  if (s->pooling == GST_SHARPNESS_POOLING_TOP_PERCENT)
    WARN_ONCE (self, RESOURCE, SETTINGS, "tiles are computed for the "
        "classical metrics only: pooling=top-percent does not apply to %s, "
        "whose frame score stays the whole frame's", nick);
  if (gst_buffer_get_meta (buf, GST_VIDEO_REGION_OF_INTEREST_META_API_TYPE))
    WARN_ONCE (self, RESOURCE, SETTINGS, "tiles are computed for the "
        "classical metrics only: %s scores the whole frame, not its regions "
        "of interest (no sharpness param added)", nick);
}

/* What the content states need measured (sharpness-scorer.h). */
static void
plan_content (GstCudaSharpness * self, const GstCudaSharpnessSettings * s,
    SharpnessContentJob * c)
{
  memset (c, 0, sizeof (*c));
  c->black = (s->detect & SHARPNESS_DETECT_BLACK) != 0;
  c->black_threshold = sharpness_black_pixel_threshold
      (s->black_pixel_threshold, self->black_depth, self->black_full_range);
  c->structure = (s->detect & SHARPNESS_DETECT_FLAT) != 0;
  c->edge_level = s->flat_edge_level;
  /* Only the absolute test reads it. */
  c->cpbd = s->threshold > 0.0 && s->cpbd_threshold > 0.0;
  c->cpbd_over = s->threshold;
  c->focus = s->threshold > 0.0 && s->focus_threshold > 0.0;
  if ((s->detect & SHARPNESS_DETECT_FREEZE) && self->have_freeze_layout)
    c->freeze = &self->freeze_layout;
}

/* Scores the frame into @r: its score and, for the classical metrics, its
 * tiles (`tiles`, `pooling`) and ROIs, and the content measurements @c,
 * all in one backend call.  The backend that ran it, or NULL. */
static SharpnessBackend *
score_frame (GstCudaSharpness * self, const GstCudaSharpnessSettings * s,
    const SharpnessElementSettings * common, GstBuffer * buf,
    SharpnessContentJob * c, SharpnessFrameResult * r)
{
  SharpnessScorerJob job = {.kind = SHARPNESS_SCORER_SCORE,.metric =
        s->metric,.content = c
  };
  SharpnessBackend *used;
  SharpnessRegionsRequest req = {
    .metric = s->metric,
    .width = GST_VIDEO_INFO_WIDTH (&self->info),
    .height = GST_VIDEO_INFO_HEIGHT (&self->info),
    .tiles_cols = s->tiles_cols,
    .tiles_rows = s->tiles_rows,
    .top_percent = s->pooling == GST_SHARPNESS_POOLING_TOP_PERCENT,
    .percent = s->pooling_percent,
    .roi_types = s->roi_types,
    .category = GST_CAT_DEFAULT,
  };
  FrameJob fj = {.buffer = buf,.info = &self->info,.job = &job };
  gboolean regions = sharpness_metric_has_tiles (s->metric);
  gdouble score = 0.0;

  if (!regions) {
    refuse_regions (self, s, buf);
    job.score = &score;
  } else if (!sharpness_frame_regions_plan (&self->regions,
          GST_OBJECT (self), &req, buf, &job, &score)) {
    WARN_ONCE (self, RESOURCE, NO_SPACE_LEFT, "Out of memory for the tile "
        "grid: frames get their whole-frame score only");
  }

  used = sharpness_element_run (&self->base, common, run_frame_job,
      cpu_keeps_up, self, &fj, sharpness_metric_info[s->metric].nick);
  if (!used)
    return NULL;
  if (regions)
    sharpness_frame_regions_finish (&self->regions, &req, &job, score, r);
  else
    r->score = score;
  return used;
}

/* One message per frame, or, with an interval, one when the frames since
 * the last message add up to it (as `level` does). */
static void
post_result (GstCudaSharpness * self, const SharpnessElementSettings * common,
    const SharpnessFrameResult * r)
{
  GstMessage *msg;

  if (!common->post_messages) {
    reset_interval (self);
    return;
  }

  if (common->interval == 0) {
    msg = sharpness_message_new_frame (GST_OBJECT (self), r, NULL);
    self->unscored_since_message = 0;
  } else {
    sharpness_stats_add (&self->interval_stats, r->score, r->blurry);
    if (!sharpness_interval_add (&self->interval, r->times.duration,
            common->interval))
      return;
    msg = sharpness_message_new_frame (GST_OBJECT (self), r,
        &self->interval_stats);
    reset_interval (self);
  }
  gst_element_post_message (GST_ELEMENT (self), msg);
}

/* The frame's content signature for the relative test's cut detection, or
 * NULL: only the relative test uses it, and only frames in system memory
 * have one (reading CUDA memory from the host would cost a download per
 * frame; there the relative test runs without cut detection). */
static const SharpnessSignature *
frame_signature (GstCudaSharpness * self, const GstCudaSharpnessSettings * s,
    GstBuffer * buf)
{
  GstVideoFrame frame;
  SharpnessPlane plane;
  gboolean ok;

  if (s->relative_threshold <= 0.0 || self->cuda_memory)
    return NULL;
  if (!gst_video_frame_map (&frame, &self->info, buf, GST_MAP_READ))
    return NULL;
  ok = sharpness_plane_init (&plane, &self->info,
      GST_VIDEO_FRAME_PLANE_DATA (&frame, 0),
      GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0));
  if (ok)
    sharpness_signature_compute (&self->signature, &plane);
  gst_video_frame_unmap (&frame);
  return ok && self->signature.valid ? &self->signature : NULL;
}

/* Judges the scored frame: its content state and measurements into @r, its
 * events into @cr. */
static void
judge_frame (GstCudaSharpness * self, const GstCudaSharpnessSettings * s,
    GstBuffer * buf, SharpnessBackend * used, const SharpnessContentJob * c,
    SharpnessFrameResult * r, SharpnessContentResult * cr)
{
  SharpnessContentSettings cs;
  SharpnessContentResult closed;
  SharpnessContentFrame f;

  sharpness_event_thumbnails_configure (self->thumbnails, &self->info,
      s->event_thumbnails);
  content_settings (self, s, &cs);
  sharpness_content_configure (self->content, &cs, s->metric, s->window,
      &closed);
  post_events (self, &closed);
  self->content_metric = s->metric;
  if (used != self->last_backend) {
    /* The other backend holds no reference of the frames before. */
    if (self->last_backend) {
      sharpness_content_forget_reference (self->content, &closed);
      post_events (self, &closed);
      sharpness_scorer_drop_reference ((SharpnessScorer *) used);
    }
    self->last_backend = used;
  }

  f = (SharpnessContentFrame) {
    .index = r->frame,
    .pts = r->times.timestamp,
    .duration = r->times.duration,
    .running_time = r->times.running_time,
    .stream_time = r->times.stream_time,
    .has_black = c->measured && c->black,
    .black = c->black_count,
    .pixels = c->pixels,
    .has_structure = c->measured && c->structure,
    .edges = c->edges,
    .interior = c->interior,
    .has_cpbd = c->measured && c->cpbd_measured,
    .cpbd_edges = c->cpbd_edges,
    .cpbd_sharp = c->cpbd_sharp,
    .has_focus = c->focus_measured,
    .focus = c->focus_value,
    .has_sad = c->measured && c->has_sad,
    .sad = c->sad,
    .sad_count = self->freeze_layout.count,
    .scored = TRUE,
    .score = r->score,
    .signature = frame_signature (self, s, buf),
  };
  sharpness_content_push (self->content, &f, s->threshold,
      s->relative_threshold, cr);
  if (cr->keep_reference)
    sharpness_scorer_keep_reference ((SharpnessScorer *) used);
  keep_pictures (self, buf, cr);

  r->content_state = sharpness_content_state_name (cr->state);
  r->blurry = cr->state == SHARPNESS_CONTENT_BLURRY;
  r->has_black = f.has_black;
  r->black_ratio = cr->black_ratio;
  r->has_freeze = c->measured && c->freeze != NULL;
  r->freeze_mafd = cr->freeze_mafd;
  r->has_structure = f.has_structure;
  r->structure = cr->structure;
  r->has_cpbd = f.has_cpbd;
  r->cpbd = cr->cpbd;
  r->has_focus = f.has_focus;
  r->focus = cr->focus;
  sharpness_stats_add_content (&self->total_stats, cr);
}

static GstFlowReturn
gst_cuda_sharpness_transform_ip (GstBaseTransform * trans, GstBuffer * buf)
{
  GstCudaSharpness *self = GST_CUDA_SHARPNESS (trans);
  GstCudaSharpnessSettings s;
  SharpnessElementSettings common;
  SharpnessFrameResult r = { 0, };
  SharpnessContentJob content;
  SharpnessContentResult events;
  SharpnessBackend *used;

  get_settings (self, &s, &common);
  r.frame = self->frame_index++;

  if (s.metric != self->stats_metric) {
    /* Statistics of two metrics cannot be pooled. */
    self->stats_metric = s.metric;
    reset_interval (self);
    sharpness_stats_reset (&self->total_stats);
  }

  /* On failure the frame goes on untouched; score_frame warned. */
  plan_content (self, &s, &content);
  used = score_frame (self, &s, &common, buf, &content, &r);
  if (!used) {
    sharpness_stats_add_unscored (&self->total_stats);
    self->unscored_since_message++;
    clear_settings (&s);
    return GST_FLOW_OK;
  }

  r.metric = sharpness_metric_info[s.metric].nick;
  sharpness_times_set (&r.times, buf, &GST_BASE_TRANSFORM (self)->segment,
      &self->info);
  judge_frame (self, &s, buf, used, &content, &r, &events);
  GST_LOG_OBJECT (self, "frame %" G_GUINT64_FORMAT ": %s %g, %s", r.frame,
      r.metric, r.score, r.content_state);

  if (r.n_rois > 0)
    sharpness_frame_regions_set_roi_params (&self->regions, s.metric,
        s.threshold);
  sharpness_meta_set (buf, &r);
  sharpness_stats_add (&self->total_stats, r.score, r.blurry);
  r.unscored = self->unscored_since_message;
  post_result (self, &common, &r);
  post_events (self, &events);
  clear_settings (&s);
  return GST_FLOW_OK;
}

static void
gst_cuda_sharpness_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaSharpness *self = GST_CUDA_SHARPNESS (object);
  GstCudaSharpnessSettings *s = &self->settings;

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_METRIC:
      s->metric = g_value_get_enum (value);
      break;
    case PROP_THRESHOLD:
      s->threshold = g_value_get_double (value);
      break;
    case PROP_RELATIVE_THRESHOLD:
      s->relative_threshold = g_value_get_double (value);
      break;
    case PROP_WINDOW:
      s->window = g_value_get_uint (value);
      break;
    case PROP_MIN_BLURRY_DURATION:
      s->min_blurry_duration = g_value_get_uint64 (value);
      break;
    case PROP_MAX_BLURRY_GAP:
      s->max_blurry_gap = g_value_get_uint (value);
      break;
    case PROP_TILES:{
      const gchar *text = g_value_get_string (value);

      /* GLib cannot validate a string property: refuse a bad one here. */
      if (!sharpness_tiles_parse (text, &s->tiles_cols, &s->tiles_rows))
        g_warning ("cudasharpness: invalid tiles \"%s\": expected "
            "\"COLSxROWS\" with 1 to %d columns and rows (e.g. \"8x4\"), "
            "or \"\" or \"off\"; tiles unchanged", text,
            SHARPNESS_TILES_MAX);
      break;
    }
    case PROP_POOLING:
      s->pooling = g_value_get_enum (value);
      break;
    case PROP_POOLING_PERCENT:
      s->pooling_percent = g_value_get_double (value);
      break;
    case PROP_ROI_TYPES:
      g_clear_pointer (&s->roi_types, g_array_unref);
      s->roi_types = sharpness_roi_types_parse (g_value_get_string (value));
      break;
    case PROP_DETECT:
      s->detect = g_value_get_flags (value);
      break;
    case PROP_BLACK_PIXEL_THRESHOLD:
      s->black_pixel_threshold = g_value_get_double (value);
      break;
    case PROP_BLACK_RATIO:
      s->black_ratio = g_value_get_double (value);
      break;
    case PROP_BLACK_MIN_DURATION:
      s->black_min_duration = g_value_get_uint64 (value);
      break;
    case PROP_FREEZE_NOISE:
      s->freeze_noise = g_value_get_double (value);
      break;
    case PROP_FREEZE_MIN_DURATION:
      s->freeze_min_duration = g_value_get_uint64 (value);
      break;
    case PROP_FLAT_EDGE_LEVEL:
      s->flat_edge_level = g_value_get_uint (value);
      break;
    case PROP_FLAT_THRESHOLD:
      s->flat_threshold = g_value_get_double (value);
      break;
    case PROP_CPBD_THRESHOLD:
      s->cpbd_threshold = g_value_get_double (value);
      break;
    case PROP_FOCUS_THRESHOLD:
      s->focus_threshold = g_value_get_double (value);
      break;
    case PROP_EVENT_THUMBNAILS:
      s->event_thumbnails = g_value_get_uint (value);
      break;
    default:
      if (!sharpness_element_settings_set (&self->base.settings, PROP_COMMON,
              prop_id, value))
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cuda_sharpness_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstCudaSharpness *self = GST_CUDA_SHARPNESS (object);
  GstCudaSharpnessSettings *s = &self->settings;

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_METRIC:
      g_value_set_enum (value, s->metric);
      break;
    case PROP_THRESHOLD:
      g_value_set_double (value, s->threshold);
      break;
    case PROP_RELATIVE_THRESHOLD:
      g_value_set_double (value, s->relative_threshold);
      break;
    case PROP_WINDOW:
      g_value_set_uint (value, s->window);
      break;
    case PROP_MIN_BLURRY_DURATION:
      g_value_set_uint64 (value, s->min_blurry_duration);
      break;
    case PROP_MAX_BLURRY_GAP:
      g_value_set_uint (value, s->max_blurry_gap);
      break;
    case PROP_TILES:
      if (s->tiles_cols > 0)
        g_value_take_string (value, g_strdup_printf ("%ux%u", s->tiles_cols,
                s->tiles_rows));
      else
        g_value_set_string (value, "");
      break;
    case PROP_POOLING:
      g_value_set_enum (value, s->pooling);
      break;
    case PROP_POOLING_PERCENT:
      g_value_set_double (value, s->pooling_percent);
      break;
    case PROP_ROI_TYPES:
      g_value_take_string (value, sharpness_roi_types_to_string (s->roi_types));
      break;
    case PROP_DETECT:
      g_value_set_flags (value, s->detect);
      break;
    case PROP_BLACK_PIXEL_THRESHOLD:
      g_value_set_double (value, s->black_pixel_threshold);
      break;
    case PROP_BLACK_RATIO:
      g_value_set_double (value, s->black_ratio);
      break;
    case PROP_BLACK_MIN_DURATION:
      g_value_set_uint64 (value, s->black_min_duration);
      break;
    case PROP_FREEZE_NOISE:
      g_value_set_double (value, s->freeze_noise);
      break;
    case PROP_FREEZE_MIN_DURATION:
      g_value_set_uint64 (value, s->freeze_min_duration);
      break;
    case PROP_FLAT_EDGE_LEVEL:
      g_value_set_uint (value, s->flat_edge_level);
      break;
    case PROP_FLAT_THRESHOLD:
      g_value_set_double (value, s->flat_threshold);
      break;
    case PROP_CPBD_THRESHOLD:
      g_value_set_double (value, s->cpbd_threshold);
      break;
    case PROP_FOCUS_THRESHOLD:
      g_value_set_double (value, s->focus_threshold);
      break;
    case PROP_EVENT_THUMBNAILS:
      g_value_set_uint (value, s->event_thumbnails);
      break;
    default:
      if (!sharpness_element_settings_get (&self->base.settings, PROP_COMMON,
              prop_id, value))
        G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cuda_sharpness_finalize (GObject * object)
{
  GstCudaSharpness *self = GST_CUDA_SHARPNESS (object);

  sharpness_element_finalize (&self->base);
  sharpness_event_thumbnails_free (self->thumbnails);
  sharpness_caps_refusal_clear (&self->refusal);
  sharpness_frame_regions_clear (&self->regions);
  g_clear_pointer (&self->settings.roi_types, g_array_unref);

  G_OBJECT_CLASS (parent_class)->finalize (object);
}

/* One line each; docs/reference/cudasharpness.md has the detail. */
static void
install_properties (GObjectClass * gobject_class)
{
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_PLAYING;

  g_object_class_install_property (gobject_class, PROP_METRIC,
      g_param_spec_enum ("metric", "Metric",
          "Sharpness measure (docs/reference/metrics.md)",
          GST_TYPE_SHARPNESS_METRIC, DEFAULT_METRIC, flags));
  g_object_class_install_property (gobject_class, PROP_THRESHOLD,
      g_param_spec_double ("threshold", "Threshold",
          "Absolute blur threshold: frames scoring worse are blurry, 0 = off",
          0.0, G_MAXDOUBLE, DEFAULT_THRESHOLD, flags));
  g_object_class_install_property (gobject_class, PROP_RELATIVE_THRESHOLD,
      g_param_spec_double ("relative-threshold", "Relative threshold",
          "Blurry below this share of the median of the last 'window' sharp "
          "frames, 0 = off", 0.0, 1.0, DEFAULT_RELATIVE_THRESHOLD, flags));
  g_object_class_install_property (gobject_class, PROP_WINDOW,
      g_param_spec_uint ("window", "Window",
          "Previous sharp frames whose median the relative threshold uses",
          1, MAX_WINDOW, DEFAULT_WINDOW, flags));
  g_object_class_install_property (gobject_class, PROP_MIN_BLURRY_DURATION,
      g_param_spec_uint64 ("min-blurry-duration", "Minimum blurry duration",
          "Post blurry-segment alarms once a blurry run lasts this long (ns), "
          "0 = off", 0, G_MAXUINT64, DEFAULT_MIN_BLURRY_DURATION, flags));
  g_object_class_install_property (gobject_class, PROP_MAX_BLURRY_GAP,
      g_param_spec_uint ("max-blurry-gap", "Maximum blurry gap",
          "Consecutive sharp frames a blurry run may contain",
          0, MAX_BLURRY_GAP, DEFAULT_MAX_BLURRY_GAP, flags));
  g_object_class_install_property (gobject_class, PROP_TILES,
      g_param_spec_string ("tiles", "Tiles",
          "Tile map \"COLSxROWS\" (1 to 64 each), \"\" or \"off\" = off",
          "", flags));
  g_object_class_install_property (gobject_class, PROP_POOLING,
      g_param_spec_enum ("pooling", "Pooling",
          "Frame score: the whole frame's, or the mean of its sharpest tiles",
          GST_TYPE_SHARPNESS_POOLING, DEFAULT_POOLING, flags));
  g_object_class_install_property (gobject_class, PROP_POOLING_PERCENT,
      g_param_spec_double ("pooling-percent", "Pooling percent",
          "Share of the tiles, sharpest first, that top-percent averages",
          G_MINDOUBLE, 100.0, DEFAULT_POOLING_PERCENT, flags));
  g_object_class_install_property (gobject_class, PROP_ROI_TYPES,
      g_param_spec_string ("roi-types", "ROI types",
          "Comma-separated region-of-interest types to score, \"\" = all",
          "", flags));
  g_object_class_install_property (gobject_class, PROP_DETECT,
      g_param_spec_flags ("detect", "Detect",
          "Content states detected besides blur (docs/validation/detection.md)",
          GST_TYPE_SHARPNESS_DETECT, DEFAULT_DETECT, flags));
  g_object_class_install_property (gobject_class, PROP_BLACK_PIXEL_THRESHOLD,
      g_param_spec_double ("black-pixel-threshold", "Black pixel threshold",
          "Luma black level as a share of the range (FFmpeg's pix_th)",
          0.0, 1.0, DEFAULT_BLACK_PIXEL_THRESHOLD, flags));
  g_object_class_install_property (gobject_class, PROP_BLACK_RATIO,
      g_param_spec_double ("black-ratio", "Black ratio",
          "Share of black samples that makes a frame black (FFmpeg's pic_th)",
          0.0, 1.0, DEFAULT_BLACK_RATIO, flags));
  g_object_class_install_property (gobject_class, PROP_BLACK_MIN_DURATION,
      g_param_spec_uint64 ("black-min-duration", "Black minimum duration",
          "Shortest black stretch reported, in ns (FFmpeg's d)",
          0, G_MAXUINT64, DEFAULT_BLACK_MIN_DURATION, flags));
  g_object_class_install_property (gobject_class, PROP_FREEZE_NOISE,
      g_param_spec_double ("freeze-noise", "Freeze noise",
          "Noise tolerance of freeze detection in dB (FFmpeg's n)",
          -200.0, 0.0, DEFAULT_FREEZE_NOISE, flags));
  g_object_class_install_property (gobject_class, PROP_FREEZE_MIN_DURATION,
      g_param_spec_uint64 ("freeze-min-duration", "Freeze minimum duration",
          "Shortest freeze reported, in ns (FFmpeg's d)",
          0, G_MAXUINT64, DEFAULT_FREEZE_MIN_DURATION, flags));
  g_object_class_install_property (gobject_class, PROP_FLAT_EDGE_LEVEL,
      g_param_spec_uint ("flat-edge-level", "Flat edge level",
          "Gray-level step that makes a pixel an edge, for flat frames",
          1, 255, DEFAULT_FLAT_EDGE_LEVEL, flags));
  g_object_class_install_property (gobject_class, PROP_FLAT_THRESHOLD,
      g_param_spec_double ("flat-threshold", "Flat threshold",
          "Share of edge pixels below which a frame is flat, unless its "
          "shot's structure and score collapsed (a blur), 0 = never",
          0.0, 1.0, DEFAULT_FLAT_THRESHOLD, flags));
  g_object_class_install_property (gobject_class, PROP_CPBD_THRESHOLD,
      g_param_spec_double ("cpbd-threshold", "CPBD threshold",
          "A frame over the absolute threshold is blurry only when its CPBD "
          "(share of edges not noticeably blurred) is below this, 0 = the "
          "score alone", 0.0, 1.0, DEFAULT_CPBD_THRESHOLD, flags));
  /**
   * GstCudaSharpness:focus-threshold:
   *
   * With #GstCudaSharpness:threshold > 0, a frame over it is blurry by the
   * absolute test only when no textured 64 x 64 tile of it is sharp: the
   * lowest blur effect of those tiles (the `focus` field) is at least this.
   *
   * Since: 0.2
   */
  g_object_class_install_property (gobject_class, PROP_FOCUS_THRESHOLD,
      g_param_spec_double ("focus-threshold", "Focus threshold",
          "A frame over the absolute threshold is blurry only when the "
          "lowest blur effect of its textured tiles is at least this, "
          "0 = no tile gate", 0.0, 1.0, DEFAULT_FOCUS_THRESHOLD, flags));
  g_object_class_install_property (gobject_class, PROP_EVENT_THUMBNAILS,
      g_param_spec_uint ("event-thumbnails", "Event thumbnails",
          "Width of the JPEG thumbnail each start and end event carries, "
          "0 = none", 0, MAX_EVENT_THUMBNAILS, DEFAULT_EVENT_THUMBNAILS,
          flags));
  sharpness_element_install_properties (gobject_class, PROP_COMMON,
      "sharpness", TRUE);
}

static void
gst_cuda_sharpness_class_init (GstCudaSharpnessClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstBaseTransformClass *trans_class = GST_BASE_TRANSFORM_CLASS (klass);

  gobject_class->set_property = gst_cuda_sharpness_set_property;
  gobject_class->get_property = gst_cuda_sharpness_get_property;
  gobject_class->finalize = gst_cuda_sharpness_finalize;
  install_properties (gobject_class);

  gst_element_class_add_pad_template (element_class,
      sharpness_formats_pad_template (SHARPNESS_FORMAT_SCORE, "sink",
          GST_PAD_SINK, GST_TYPE_PAD));
  gst_element_class_add_pad_template (element_class,
      sharpness_formats_pad_template (SHARPNESS_FORMAT_SCORE, "src",
          GST_PAD_SRC, GST_TYPE_PAD));
  gst_element_class_set_static_metadata (element_class,
      "CUDA sharpness analyzer", "Filter/Analyzer/Video",
      "Scores the sharpness of every frame on a CUDA device or the CPU, "
      "attaches GstSharpnessMeta, posts messages and flags blurry frames",
      "The gst-sharpness authors");
  element_class->set_context =
      GST_DEBUG_FUNCPTR (gst_cuda_sharpness_set_context);

  trans_class->passthrough_on_same_caps = FALSE;
  trans_class->transform_ip_on_passthrough = FALSE;
  trans_class->start = GST_DEBUG_FUNCPTR (gst_cuda_sharpness_start);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_cuda_sharpness_stop);
  trans_class->accept_caps = GST_DEBUG_FUNCPTR (gst_cuda_sharpness_accept_caps);
  trans_class->set_caps = GST_DEBUG_FUNCPTR (gst_cuda_sharpness_set_caps);
  trans_class->before_transform =
      GST_DEBUG_FUNCPTR (gst_cuda_sharpness_before_transform);
  trans_class->query = GST_DEBUG_FUNCPTR (gst_cuda_sharpness_query);
  trans_class->propose_allocation =
      GST_DEBUG_FUNCPTR (gst_cuda_sharpness_propose_allocation);
  trans_class->sink_event = GST_DEBUG_FUNCPTR (gst_cuda_sharpness_sink_event);
  trans_class->transform_ip =
      GST_DEBUG_FUNCPTR (gst_cuda_sharpness_transform_ip);

  gst_type_mark_as_plugin_api (GST_TYPE_SHARPNESS_METRIC, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_SHARPNESS_BACKEND, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_SHARPNESS_POOLING, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_SHARPNESS_DETECT, 0);
}

static void
gst_cuda_sharpness_init (GstCudaSharpness * self)
{
  SharpnessScorer *cuda = NULL;

  self->settings = (GstCudaSharpnessSettings) {
    .metric = DEFAULT_METRIC,
    .threshold = DEFAULT_THRESHOLD,
    .relative_threshold = DEFAULT_RELATIVE_THRESHOLD,
    .window = DEFAULT_WINDOW,
    .min_blurry_duration = DEFAULT_MIN_BLURRY_DURATION,
    .max_blurry_gap = DEFAULT_MAX_BLURRY_GAP,
    .pooling = DEFAULT_POOLING,
    .pooling_percent = DEFAULT_POOLING_PERCENT,
    .detect = DEFAULT_DETECT,
    .black_pixel_threshold = DEFAULT_BLACK_PIXEL_THRESHOLD,
    .black_ratio = DEFAULT_BLACK_RATIO,
    .black_min_duration = DEFAULT_BLACK_MIN_DURATION,
    .freeze_noise = DEFAULT_FREEZE_NOISE,
    .freeze_min_duration = DEFAULT_FREEZE_MIN_DURATION,
    .flat_edge_level = DEFAULT_FLAT_EDGE_LEVEL,
    .flat_threshold = DEFAULT_FLAT_THRESHOLD,
    .cpbd_threshold = DEFAULT_CPBD_THRESHOLD,
    .focus_threshold = DEFAULT_FOCUS_THRESHOLD,
    .event_thumbnails = DEFAULT_EVENT_THUMBNAILS,
  };
  self->thumbnails = sharpness_event_thumbnails_new (GST_ELEMENT (self));
  sharpness_frame_regions_init (&self->regions);
  gst_video_info_init (&self->info);
  gst_base_transform_set_in_place (GST_BASE_TRANSFORM (self), TRUE);
  sharpness_caps_refusal_init (&self->refusal, GST_ELEMENT (self),
      GST_BASE_TRANSFORM_SINK_PAD (self), SHARPNESS_FORMAT_SCORE);

  if (!sharpness_backend_choice_cuda_unavailable ())
    cuda = sharpness_scorer_new_cuda (GST_ELEMENT (self));
  sharpness_element_init (&self->base, GST_ELEMENT (self), GST_CAT_DEFAULT,
      SHARPNESS_BACKEND (sharpness_scorer_new_cpu (GST_ELEMENT (self))),
      SHARPNESS_BACKEND (cuda), "score", "scoring");
}
