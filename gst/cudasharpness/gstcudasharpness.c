/* Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/**
 * SECTION:element-cudasharpness
 * @title: cudasharpness
 *
 * Scores the sharpness of every video frame with one of the metrics of
 * docs/metrics.md, on a CUDA device or on the CPU, without touching the
 * pixels.  Each scored buffer gets a "GstSharpnessMeta" custom meta; the
 * element posts `sharpness` messages (per frame, or per `interval`) and a
 * `sharpness-summary` at EOS.  Frames can be flagged blurry against an
 * absolute threshold or against the median of the previous frames.
 * Reference: docs/element.md.
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

#include "sharpness-backend-choice.h"
#include "sharpness-blur-detector.h"
#include "sharpness-blur-segments.h"
#include "sharpness-caps.h"
#include "sharpness-frame-regions.h"
#include "sharpness-messages.h"
#include "sharpness-meta.h"
#include "sharpness-scorer.h"
#include "sharpness-warn-once.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_sharpness_debug);
#define GST_CAT_DEFAULT gst_cuda_sharpness_debug

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS (SHARPNESS_CAPS));
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS (SHARPNESS_CAPS));

#define DEFAULT_METRIC SHARPNESS_METRIC_LAPLACIAN
#define DEFAULT_BACKEND GST_SHARPNESS_BACKEND_AUTO
#define DEFAULT_DEVICE_ID -1
#define DEFAULT_PINNED_POOL TRUE
#define DEFAULT_POST_MESSAGES TRUE
#define DEFAULT_INTERVAL 0
#define DEFAULT_THRESHOLD 0.0
#define DEFAULT_RELATIVE_THRESHOLD 0.0
#define DEFAULT_WINDOW 25
#define MAX_WINDOW 10000
#define DEFAULT_MIN_BLURRY_DURATION 0
#define DEFAULT_MAX_BLURRY_GAP 2
#define MAX_BLURRY_GAP 10000

#define DEFAULT_TILES_COLS 0      /* off */
#define DEFAULT_TILES_ROWS 0
#define DEFAULT_POOLING GST_SHARPNESS_POOLING_MEAN
#define DEFAULT_POOLING_PERCENT 10.0

typedef enum
{
  GST_SHARPNESS_POOLING_MEAN,
  GST_SHARPNESS_POOLING_TOP_PERCENT
} GstSharpnessPooling;

#define BLURRY_START_NAME "sharpness-blurry-start"
#define BLURRY_END_NAME "sharpness-blurry-end"

enum
{
  PROP_0,
  PROP_METRIC,
  PROP_BACKEND,
  PROP_CUDA_DEVICE_ID,
  PROP_DEVICE_ID,
  PROP_PINNED_POOL,
  PROP_POST_MESSAGES,
  PROP_INTERVAL,
  PROP_THRESHOLD,
  PROP_RELATIVE_THRESHOLD,
  PROP_WINDOW,
  PROP_MIN_BLURRY_DURATION,
  PROP_MAX_BLURRY_GAP,
  PROP_TILES,
  PROP_POOLING,
  PROP_POOLING_PERCENT,
  PROP_ROI_TYPES
};

/* The properties; the streaming thread copies them under the object lock
 * once per frame. */
typedef struct
{
  SharpnessMetric metric;
  GstSharpnessBackend backend;
  gint device_id;
  gboolean pinned_pool;
  gboolean post_messages;
  guint64 interval;
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
} GstCudaSharpnessSettings;

struct _GstCudaSharpness
{
  GstBaseTransform parent;

  GstCudaSharpnessSettings settings;    /* object lock */
  SharpnessWarnOnce warned;     /* warnings posted since start */

  /* Why the last caps were refused (object lock), logged at debug level
   * only: accept-caps and caps queries are often speculative.  Posted as
   * one error when a buffer then arrives unnegotiated. */
  gchar *refusal;
  /* Caps of the CAPS event being delivered on the sink pad (object lock):
   * an accept-caps refusing these is a real negotiation failure. */
  GstCaps *event_caps;

  /* Streaming state, from start to stop. */
  GstVideoInfo info;
  gboolean cuda_memory;         /* negotiated memory:CUDAMemory */
  gboolean negotiated;
  gboolean refusal_posted;      /* object lock */
  SharpnessScorer *cpu;         /* always */
  SharpnessScorer *cuda;        /* NULL when CUDA is unusable */
  SharpnessBackendChoice choice;        /* of cpu or cuda */
  SharpnessBlurDetector *detector;
  SharpnessSignature signature; /* scratch: the frame's, for cut detection */
  SharpnessFrameRegions regions;        /* tiles and ROIs of the frame */
  /* Blurry-segment alarms (min-blurry-duration > 0); alarm_metric is the
   * metric of the open run. */
  SharpnessSegmentTracker segments;
  SharpnessMetric alarm_metric;
  SharpnessMetric stats_metric; /* metric of the statistics below */
  guint64 frame_index;
  SharpnessStats interval_stats;
  GstClockTime interval_elapsed;
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

/* A copy of the settings; release it with clear_settings(). */
static void
get_settings (GstCudaSharpness * self, GstCudaSharpnessSettings * settings)
{
  GST_OBJECT_LOCK (self);
  *settings = self->settings;
  if (settings->roi_types)
    g_array_ref (settings->roi_types);
  GST_OBJECT_UNLOCK (self);
}

static void
clear_settings (GstCudaSharpnessSettings * settings)
{
  g_clear_pointer (&settings->roi_types, g_array_unref);
}

#define WARN_ONCE(self, domain, code, ...) \
  SHARPNESS_WARN_ONCE (self, &(self)->warned, domain, code, __VA_ARGS__)

static void
reset_interval (GstCudaSharpness * self)
{
  sharpness_stats_reset (&self->interval_stats);
  self->interval_elapsed = 0;
  self->unscored_since_message = 0;
}

static void
release_streaming_state (GstCudaSharpness * self)
{
  sharpness_backend_choice_stop (&self->choice);
  sharpness_backend_close (SHARPNESS_BACKEND (self->cpu));
  g_clear_pointer (&self->detector, sharpness_blur_detector_free);
}

static gboolean
gst_cuda_sharpness_start (GstBaseTransform * trans)
{
  GstCudaSharpness *self = GST_CUDA_SHARPNESS (trans);
  GstCudaSharpnessSettings s;
  GError *err = NULL;

  get_settings (self, &s);
  clear_settings (&s);          /* roi_types is not needed here */

  if (!sharpness_backend_open (SHARPNESS_BACKEND (self->cpu), -1, &err)) {
    GST_ELEMENT_ERROR (self, CORE, FAILED, ("%s", err->message), (NULL));
    g_clear_error (&err);
    return FALSE;
  }
  self->detector = sharpness_blur_detector_new (s.metric, s.window);
  self->stats_metric = s.metric;
  self->alarm_metric = s.metric;
  sharpness_segment_tracker_init (&self->segments, s.min_blurry_duration,
      s.max_blurry_gap, sharpness_metric_info[s.metric].direction ==
      SHARPNESS_LOWER_IS_SHARPER);
  self->frame_index = 0;
  reset_interval (self);
  sharpness_stats_reset (&self->total_stats);
  gst_video_info_init (&self->info);
  self->cuda_memory = FALSE;
  self->negotiated = FALSE;
  GST_OBJECT_LOCK (self);
  self->refusal_posted = FALSE;
  GST_OBJECT_UNLOCK (self);
  sharpness_warn_once_reset (&self->warned);

  if (!sharpness_backend_choice_start (&self->choice, s.backend,
          s.device_id)) {
    release_streaming_state (self);
    return FALSE;
  }
  return TRUE;
}

static gboolean
gst_cuda_sharpness_stop (GstBaseTransform * trans)
{
  release_streaming_state (GST_CUDA_SHARPNESS (trans));
  return TRUE;
}

/* Caps queries and accept-caps are asked speculatively (autopluggers,
 * capsfilters, renegotiation attempts): a refusal is no failure yet.  Log
 * it and keep it for the error posted if a buffer then arrives
 * unnegotiated (before_transform). */
static void
note_refusal (GstCudaSharpness * self, GstCaps * caps)
{
  GstCaps *templ =
      gst_pad_get_pad_template_caps (GST_BASE_TRANSFORM_SINK_PAD (self));
  gchar *why = sharpness_caps_explain_refusal (caps, templ);

  gst_caps_unref (templ);
  if (!why)
    return;
  GST_DEBUG_OBJECT (self, "refusing %" GST_PTR_FORMAT ": %s", caps, why);
  GST_OBJECT_LOCK (self);
  g_free (self->refusal);
  self->refusal = why;
  GST_OBJECT_UNLOCK (self);
}

/* Negotiation really failed: a CAPS event was refused, or a buffer came
 * and no caps were accepted.  One error saying which caps were refused and
 * what would do, rather than a bare "not-negotiated" from upstream. */
static void
post_refusal (GstCudaSharpness * self)
{
  gchar *why = NULL;

  GST_OBJECT_LOCK (self);
  if (!self->refusal_posted && self->refusal) {
    why = g_strdup (self->refusal);
    self->refusal_posted = TRUE;
  }
  GST_OBJECT_UNLOCK (self);
  if (!why)
    return;
  GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, ("%s", why),
      ("insert videoconvert before cudasharpness to analyse other formats"));
  g_free (why);
}

/* GstPad checks a CAPS event with an accept-caps query before our event
 * handler sees it: remember its caps so that accept_caps can tell this
 * refusal from a speculative one. */
static GstPadProbeReturn
sink_event_probe (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  GstCudaSharpness *self = user_data;
  GstEvent *event = GST_PAD_PROBE_INFO_EVENT (info);
  GstCaps *caps = NULL;

  if (GST_EVENT_TYPE (event) == GST_EVENT_CAPS) {
    gst_event_parse_caps (event, &caps);
    GST_OBJECT_LOCK (self);
    gst_caps_replace (&self->event_caps, caps);
    GST_OBJECT_UNLOCK (self);
  }
  return GST_PAD_PROBE_OK;
}

static void
gst_cuda_sharpness_before_transform (GstBaseTransform * trans,
    GstBuffer * buf)
{
  GstCudaSharpness *self = GST_CUDA_SHARPNESS (trans);

  if (!self->negotiated)
    post_refusal (self);
}

static gboolean
gst_cuda_sharpness_accept_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps)
{
  GstCudaSharpness *self = GST_CUDA_SHARPNESS (trans);
  gboolean from_event;

  if (GST_BASE_TRANSFORM_CLASS (parent_class)->accept_caps (trans, direction,
          caps))
    return TRUE;
  note_refusal (self, caps);

  GST_OBJECT_LOCK (self);
  from_event = direction == GST_PAD_SINK && caps == self->event_caps;
  GST_OBJECT_UNLOCK (self);
  if (from_event)
    post_refusal (self);
  return FALSE;
}

static gboolean
gst_cuda_sharpness_set_caps (GstBaseTransform * trans, GstCaps * incaps,
    GstCaps * outcaps)
{
  GstCudaSharpness *self = GST_CUDA_SHARPNESS (trans);
  GstCapsFeatures *features = gst_caps_get_features (incaps, 0);
  GstVideoInfo info;
  gboolean cuda;

  if (!gst_video_info_from_caps (&info, incaps) ||
      !sharpness_format_is_supported (GST_VIDEO_INFO_FORMAT (&info))) {
    gchar *str = gst_caps_to_string (incaps);
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION,
        ("cudasharpness cannot analyse %s", str), (NULL));
    g_free (str);
    self->negotiated = FALSE;
    GST_OBJECT_LOCK (self);
    self->refusal_posted = TRUE;
    GST_OBJECT_UNLOCK (self);
    return FALSE;
  }
  cuda = features && gst_caps_features_contains (features,
      SHARPNESS_CUDA_MEMORY_FEATURE);

  /* Scores of another size or format say nothing about the next frames. */
  if (cuda != self->cuda_memory || !gst_video_info_is_equal (&info,
          &self->info))
    sharpness_blur_detector_reset (self->detector);

  self->info = info;
  self->cuda_memory = cuda;
  self->negotiated = TRUE;
  GST_OBJECT_LOCK (self);
  self->refusal_posted = FALSE;
  g_clear_pointer (&self->refusal, g_free);
  gst_caps_replace (&self->event_caps, NULL);
  GST_OBJECT_UNLOCK (self);
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

  if (GST_QUERY_TYPE (query) == GST_QUERY_CONTEXT &&
      sharpness_backend_handle_context_query (SHARPNESS_BACKEND (self->cuda),
          query))
    return TRUE;

  ret = GST_BASE_TRANSFORM_CLASS (parent_class)->query (trans, direction,
      query);

  /* An upstream filter we share nothing with (a capsfilter asking for YUY2)
   * is where negotiation fails: no accept-caps will follow to explain it. */
  if (GST_QUERY_TYPE (query) == GST_QUERY_CAPS && direction == GST_PAD_SINK) {
    GstCaps *filter = NULL, *result = NULL;

    gst_query_parse_caps (query, &filter);
    gst_query_parse_caps_result (query, &result);
    if (filter && result && gst_caps_is_empty (result))
      note_refusal (self, filter);
  }
  return ret;
}

static gboolean
gst_cuda_sharpness_propose_allocation (GstBaseTransform * trans,
    GstQuery * decide_query, GstQuery * query)
{
  GstCudaSharpness *self = GST_CUDA_SHARPNESS (trans);
  gboolean pinned;
  /* In place: the base class forwards the query downstream, whose answer
   * (pools, metas) must stand since our output buffers are our input. */
  gboolean ret = GST_BASE_TRANSFORM_CLASS (parent_class)->propose_allocation
      (trans, decide_query, query);

  GST_OBJECT_LOCK (self);
  pinned = self->settings.pinned_pool &&
      self->settings.backend != GST_SHARPNESS_BACKEND_CPU;
  GST_OBJECT_UNLOCK (self);
  /* The scorer adds its pool only where downstream proposed none. */
  if (pinned && sharpness_backend_propose_allocation (SHARPNESS_BACKEND
          (self->cuda), query))
    ret = TRUE;
  return ret;
}

static GstMessage *
blurry_start_message (GstCudaSharpness * self, const SharpnessSegment * seg)
{
  return gst_message_new_element (GST_OBJECT (self),
      gst_structure_new (BLURRY_START_NAME,
          "metric", G_TYPE_STRING,
          sharpness_metric_info[self->alarm_metric].nick,
          "timestamp", G_TYPE_UINT64, seg->start,
          "stream-time", G_TYPE_UINT64, seg->stream_time,
          "running-time", G_TYPE_UINT64, seg->running_time,
          "start-frame", G_TYPE_UINT64, seg->start_frame, NULL));
}

static GstMessage *
blurry_end_message (GstCudaSharpness * self, const SharpnessSegment * seg)
{
  return gst_message_new_element (GST_OBJECT (self),
      gst_structure_new (BLURRY_END_NAME,
          "metric", G_TYPE_STRING,
          sharpness_metric_info[self->alarm_metric].nick,
          "timestamp", G_TYPE_UINT64, seg->start,
          "stream-time", G_TYPE_UINT64, seg->stream_time,
          "running-time", G_TYPE_UINT64, seg->running_time,
          "start", G_TYPE_UINT64, seg->start,
          "end", G_TYPE_UINT64, seg->end,
          "duration", G_TYPE_UINT64, sharpness_segment_duration (seg),
          "start-frame", G_TYPE_UINT64, seg->start_frame,
          "end-frame", G_TYPE_UINT64, seg->end_frame,
          "frames", G_TYPE_UINT64, seg->frames,
          "blurry-frames", G_TYPE_UINT64, seg->blurry_frames,
          "min", G_TYPE_DOUBLE, seg->min_score,
          "mean", G_TYPE_DOUBLE, sharpness_segment_mean (seg),
          "max", G_TYPE_DOUBLE, seg->max_score,
          "worst-frame", G_TYPE_UINT64, seg->worst_frame,
          "worst-score", G_TYPE_DOUBLE, seg->worst_score, NULL));
}

/* Closes the open blurry segment, if any (EOS, flush, metric change): an
 * operator alarmed by a start always gets its end. */
static void
finish_alarm (GstCudaSharpness * self)
{
  SharpnessSegment seg;

  if (sharpness_segment_tracker_finish (&self->segments, &seg) ==
      SHARPNESS_SEGMENT_END)
    gst_element_post_message (GST_ELEMENT (self),
        blurry_end_message (self, &seg));
}

/* Feeds the alarm tracker with a scored frame. */
static void
update_alarm (GstCudaSharpness * self, const GstCudaSharpnessSettings * s,
    const SharpnessFrameResult * r)
{
  SharpnessSegmentFrame f;
  SharpnessSegment seg;
  SharpnessSegmentEvent ev;

  if (s->metric != self->alarm_metric) {
    /* A run of another metric's scores says nothing about this one. */
    finish_alarm (self);
    self->alarm_metric = s->metric;
    self->segments.lower_is_sharper =
        sharpness_metric_info[s->metric].direction ==
        SHARPNESS_LOWER_IS_SHARPER;
  }
  if (s->min_blurry_duration == 0) {
    /* Turned off (maybe while a run was open): close it. */
    finish_alarm (self);
    return;
  }
  /* Settings may change while playing: they apply from this frame on. */
  self->segments.min_duration = s->min_blurry_duration;
  self->segments.max_gap = s->max_blurry_gap;

  f = (SharpnessSegmentFrame) {
    .index = r->frame,
    .pts = r->timestamp,
    .duration = r->duration,
    .running_time = r->running_time,
    .stream_time = r->stream_time,
    .score = r->score,
    .blurry = r->blurry,
  };
  ev = sharpness_segment_tracker_push (&self->segments, &f, &seg);
  if (ev == SHARPNESS_SEGMENT_START)
    gst_element_post_message (GST_ELEMENT (self),
        blurry_start_message (self, &seg));
  else if (ev == SHARPNESS_SEGMENT_END)
    gst_element_post_message (GST_ELEMENT (self),
        blurry_end_message (self, &seg));
}

static void
post_summary (GstCudaSharpness * self)
{
  gboolean post;

  GST_OBJECT_LOCK (self);
  post = self->settings.post_messages;
  GST_OBJECT_UNLOCK (self);

  if (post)
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
      if (self->detector)
        sharpness_blur_detector_reset (self->detector);
      reset_interval (self);
      finish_alarm (self);
      break;
    case GST_EVENT_EOS:
      finish_alarm (self);
      post_summary (self);
      break;
    default:
      break;
  }
  return GST_BASE_TRANSFORM_CLASS (parent_class)->sink_event (trans, event);
}

/* A fallback may never make a frame late: the CPU takes seconds per 1080p
 * frame for the heavy metrics, so a frame the GPU cannot score goes on
 * unscored unless the user asked for the CPU (backend=cpu). */
static gboolean
cpu_may_score (GstCudaSharpness * self, const GstCudaSharpnessSettings * s)
{
  if (s->backend == GST_SHARPNESS_BACKEND_CPU ||
      !sharpness_metric_is_heavy (s->metric))
    return TRUE;
  WARN_ONCE (self, RESOURCE, FAILED, "%s is too slow on the CPU to keep up "
      "with the stream and no CUDA device scores it: frames go on unscored "
      "(set backend=cpu to score every frame on the CPU)",
      sharpness_metric_info[s->metric].nick);
  return FALSE;
}

/* Runs @job on the GPU when in use, else (or when the GPU failed on it)
 * on the CPU.  FALSE (warned once) when the frame goes on unscored. */
static gboolean
run_job (GstCudaSharpness * self, const GstCudaSharpnessSettings * s,
    GstBuffer * buf, const SharpnessScorerJob * job)
{
  GError *err = NULL;

  if (sharpness_backend_choice_use_gpu (&self->choice, s->backend,
          s->device_id)) {
    if (sharpness_scorer_run (self->cuda, buf, &self->info, job, &err))
      return TRUE;
    if (g_error_matches (err, SHARPNESS_BACKEND_ERROR,
            SHARPNESS_BACKEND_ERROR_DEVICE_LOST)) {
      /* The context is unusable: stay off the GPU until the next start. */
      WARN_ONCE (self, RESOURCE, FAILED, "The CUDA device was lost, scoring "
          "on the CPU from now on: %s", err->message);
      sharpness_backend_close (SHARPNESS_BACKEND (self->cuda));
    } else if (g_error_matches (err, SHARPNESS_BACKEND_ERROR,
            SHARPNESS_BACKEND_ERROR_METRIC)) {
      /* The metric refused the frame (too small, say): so would the CPU. */
      WARN_ONCE (self, STREAM, FAILED, "Scoring %s failed (%s): frames go "
          "on unscored", sharpness_metric_info[s->metric].nick, err->message);
      g_clear_error (&err);
      return FALSE;
    } else {
      WARN_ONCE (self, RESOURCE, FAILED, "Scoring %s on the GPU failed, "
          "scoring on the CPU instead: %s",
          sharpness_metric_info[s->metric].nick, err->message);
    }
    g_clear_error (&err);
  }

  if (!cpu_may_score (self, s))
    return FALSE;
  if (sharpness_scorer_run (self->cpu, buf, &self->info, job, &err))
    return TRUE;
  if (g_error_matches (err, SHARPNESS_BACKEND_ERROR,
          SHARPNESS_BACKEND_ERROR_MAP))
    WARN_ONCE (self, STREAM, DECODE, "Could not map a frame for reading: "
        "frames go on unscored");
  else
    WARN_ONCE (self, STREAM, FAILED, "Scoring %s on the CPU failed (%s): "
        "frames go on unscored", sharpness_metric_info[s->metric].nick,
        err->message);
  g_clear_error (&err);
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

/* Scores the frame into @r: its score and, for the classical metrics, its
 * tiles (`tiles`, `pooling`) and ROIs, all in one backend call. */
static gboolean
score_frame (GstCudaSharpness * self, const GstCudaSharpnessSettings * s,
    GstBuffer * buf, SharpnessFrameResult * r)
{
  SharpnessScorerJob job = {.kind = SHARPNESS_SCORER_SCORE,.metric =
        s->metric
  };
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

  if (!run_job (self, s, buf, &job))
    return FALSE;
  if (regions)
    sharpness_frame_regions_finish (&self->regions, &req, &job, score, r);
  else
    r->score = score;
  return TRUE;
}

/* One message per frame, or, with an interval, one when the frames since
 * the last message add up to it (as `level` does). */
static void
post_result (GstCudaSharpness * self, const GstCudaSharpnessSettings * s,
    const SharpnessFrameResult * r)
{
  GstMessage *msg;

  if (!s->post_messages) {
    reset_interval (self);
    return;
  }

  if (s->interval == 0) {
    msg = sharpness_message_new_frame (GST_OBJECT (self), r, NULL);
    self->unscored_since_message = 0;
  } else {
    sharpness_stats_add (&self->interval_stats, r->score, r->blurry);
    /* A frame of unknown duration closes the interval: one message too
     * many beats none at all. */
    if (!GST_CLOCK_TIME_IS_VALID (r->duration) ||
        r->duration >= G_MAXUINT64 - self->interval_elapsed)
      self->interval_elapsed = G_MAXUINT64;
    else
      self->interval_elapsed += r->duration;
    if (self->interval_elapsed < s->interval)
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

static GstFlowReturn
gst_cuda_sharpness_transform_ip (GstBaseTransform * trans, GstBuffer * buf)
{
  GstCudaSharpness *self = GST_CUDA_SHARPNESS (trans);
  GstCudaSharpnessSettings s;
  SharpnessFrameResult r = { 0, };

  get_settings (self, &s);
  r.frame = self->frame_index++;

  if (s.metric != self->stats_metric) {
    /* Statistics of two metrics cannot be pooled. */
    self->stats_metric = s.metric;
    reset_interval (self);
    sharpness_stats_reset (&self->total_stats);
  }
  sharpness_blur_detector_configure (self->detector, s.metric, s.window);

  /* On failure the frame goes on untouched; score_frame warned. */
  if (!score_frame (self, &s, buf, &r)) {
    sharpness_stats_add_unscored (&self->total_stats);
    self->unscored_since_message++;
    clear_settings (&s);
    return GST_FLOW_OK;
  }

  r.metric = sharpness_metric_info[s.metric].nick;
  r.blurry = sharpness_blur_detector_push_frame (self->detector, r.score,
      frame_signature (self, &s, buf), s.threshold, s.relative_threshold);
  GST_LOG_OBJECT (self, "frame %" G_GUINT64_FORMAT ": %s %g%s", r.frame,
      r.metric, r.score, r.blurry ? " (blurry)" : "");

  if (r.n_rois > 0)
    sharpness_frame_regions_set_roi_params (&self->regions, s.metric,
        s.threshold);
  sharpness_meta_set (buf, &r);
  sharpness_stats_add (&self->total_stats, r.score, r.blurry);
  sharpness_frame_result_set_times (&r, buf,
      &GST_BASE_TRANSFORM (self)->segment, &self->info);
  r.unscored = self->unscored_since_message;
  post_result (self, &s, &r);
  update_alarm (self, &s, &r);
  clear_settings (&s);
  return GST_FLOW_OK;
}

static void
gst_cuda_sharpness_set_context (GstElement * element, GstContext * context)
{
  GstCudaSharpness *self = GST_CUDA_SHARPNESS (element);
  gint device_id;

  GST_OBJECT_LOCK (self);
  device_id = self->settings.device_id;
  GST_OBJECT_UNLOCK (self);
  sharpness_backend_set_context (SHARPNESS_BACKEND (self->cuda), context,
      device_id);

  GST_ELEMENT_CLASS (parent_class)->set_context (element, context);
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
    case PROP_BACKEND:
      s->backend = g_value_get_enum (value);
      break;
    case PROP_CUDA_DEVICE_ID:
    case PROP_DEVICE_ID:
      s->device_id = g_value_get_int (value);
      break;
    case PROP_PINNED_POOL:
      s->pinned_pool = g_value_get_boolean (value);
      break;
    case PROP_POST_MESSAGES:
      s->post_messages = g_value_get_boolean (value);
      break;
    case PROP_INTERVAL:
      s->interval = g_value_get_uint64 (value);
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
    default:
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
    case PROP_BACKEND:
      g_value_set_enum (value, s->backend);
      break;
    case PROP_CUDA_DEVICE_ID:
    case PROP_DEVICE_ID:
      g_value_set_int (value, s->device_id);
      break;
    case PROP_PINNED_POOL:
      g_value_set_boolean (value, s->pinned_pool);
      break;
    case PROP_POST_MESSAGES:
      g_value_set_boolean (value, s->post_messages);
      break;
    case PROP_INTERVAL:
      g_value_set_uint64 (value, s->interval);
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
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cuda_sharpness_finalize (GObject * object)
{
  GstCudaSharpness *self = GST_CUDA_SHARPNESS (object);

  sharpness_backend_free (SHARPNESS_BACKEND (self->cuda));
  sharpness_backend_free (SHARPNESS_BACKEND (self->cpu));
  g_free (self->refusal);
  gst_caps_replace (&self->event_caps, NULL);
  sharpness_warn_once_clear (&self->warned);
  sharpness_frame_regions_clear (&self->regions);
  g_clear_pointer (&self->settings.roi_types, g_array_unref);

  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
install_properties (GObjectClass * gobject_class)
{
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_PLAYING;

  g_object_class_install_property (gobject_class, PROP_METRIC,
      g_param_spec_enum ("metric", "Metric",
          "Sharpness measure, as defined in docs/metrics.md. Switching while "
          "playing takes effect on the next frame and restarts the "
          "statistics and the blur history",
          GST_TYPE_SHARPNESS_METRIC, DEFAULT_METRIC, flags));
  g_object_class_install_property (gobject_class, PROP_BACKEND,
      g_param_spec_enum ("backend", "Backend",
          "Where to score: auto uses CUDA when a device is usable and the "
          "CPU otherwise (posting one warning saying why); cuda makes the "
          "element fail to start without a usable device. Frames the GPU "
          "fails on are scored on the CPU",
          GST_TYPE_SHARPNESS_BACKEND, DEFAULT_BACKEND, flags));
  g_object_class_install_property (gobject_class, PROP_CUDA_DEVICE_ID,
      g_param_spec_int ("cuda-device-id", "CUDA device ID",
          "CUDA device to use, -1 for any (a CUDA context shared by the "
          "pipeline wins); input CUDA memory of another context is read in "
          "place when it is on this device (or with -1), else copied "
          "through host memory; read when the element starts",
          -1, G_MAXINT, DEFAULT_DEVICE_ID,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
          GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_DEVICE_ID,
      g_param_spec_int ("device-id", "Device ID",
          "Deprecated alias of cuda-device-id",
          -1, G_MAXINT, DEFAULT_DEVICE_ID,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS | G_PARAM_DEPRECATED |
          GST_PARAM_MUTABLE_READY));
  g_object_class_install_property (gobject_class, PROP_PINNED_POOL,
      g_param_spec_boolean ("pinned-pool", "Pinned pool",
          "With the CUDA backend and system memory, offer upstream a buffer "
          "pool of pinned (page-locked) host memory, which the GPU reads "
          "faster; applies from the next allocation query",
          DEFAULT_PINNED_POOL, flags));
  g_object_class_install_property (gobject_class, PROP_POST_MESSAGES,
      g_param_spec_boolean ("post-messages", "Post messages",
          "Post 'sharpness' element messages (per frame, or per interval) "
          "and a 'sharpness-summary' message at EOS",
          DEFAULT_POST_MESSAGES, flags));
  g_object_class_install_property (gobject_class, PROP_INTERVAL,
      g_param_spec_uint64 ("interval", "Interval",
          "Time between 'sharpness' messages in nanoseconds, 0 for one per "
          "frame; a message then describes the latest frame plus the "
          "frames, mean, min, max and blurry-frames since the previous one",
          0, G_MAXUINT64, DEFAULT_INTERVAL, flags));
  g_object_class_install_property (gobject_class, PROP_THRESHOLD,
      g_param_spec_double ("threshold", "Threshold",
          "Absolute blur threshold, 0 = off: a frame is blurry when its "
          "score is worse than this (below it for higher-is-sharper "
          "metrics, above it for lower-is-sharper ones)",
          0.0, G_MAXDOUBLE, DEFAULT_THRESHOLD, flags));
  g_object_class_install_property (gobject_class, PROP_RELATIVE_THRESHOLD,
      g_param_spec_double ("relative-threshold", "Relative threshold",
          "Relative blur threshold, 0 = off: a frame is blurry when its "
          "score is below relative-threshold x the median score of the "
          "previous 'window' sharp frames (above median / "
          "relative-threshold for lower-is-sharper metrics); blurry frames "
          "stay out of that history, and a scene cut restarts it",
          0.0, 1.0, DEFAULT_RELATIVE_THRESHOLD, flags));
  g_object_class_install_property (gobject_class, PROP_WINDOW,
      g_param_spec_uint ("window", "Window",
          "Number of previous sharp frames whose median score the relative "
          "threshold uses; no relative decision before that many frames "
          "were scored (the history restarts on flush, caps and metric "
          "changes; after a scene cut, 3 frames suffice)",
          1, MAX_WINDOW, DEFAULT_WINDOW, flags));
  g_object_class_install_property (gobject_class, PROP_MIN_BLURRY_DURATION,
      g_param_spec_uint64 ("min-blurry-duration", "Minimum blurry duration",
          "Blurry-segment alarms, 0 = off: post 'sharpness-blurry-start' "
          "once a run of blurry frames (sharp gaps of up to max-blurry-gap "
          "frames included) has lasted this many nanoseconds, and "
          "'sharpness-blurry-end' when it ends",
          0, G_MAXUINT64, DEFAULT_MIN_BLURRY_DURATION, flags));
  g_object_class_install_property (gobject_class, PROP_MAX_BLURRY_GAP,
      g_param_spec_uint ("max-blurry-gap", "Maximum blurry gap",
          "Number of consecutive sharp frames a blurry run may contain "
          "before it ends (for min-blurry-duration)",
          0, MAX_BLURRY_GAP, DEFAULT_MAX_BLURRY_GAP, flags));
  g_object_class_install_property (gobject_class, PROP_TILES,
      g_param_spec_string ("tiles", "Tiles",
          "Tile map, \"COLSxROWS\" (1 to 64 each, e.g. \"8x4\"), \"\" or "
          "\"off\" = off: with a classical metric, each tile of the frame's "
          "luma is scored in the same pass as the frame, and the meta and "
          "'sharpness' messages carry tiles-cols, tiles-rows and "
          "tile-scores (row-major); perceptual metrics refuse with one "
          "warning and keep their frame score",
          "", flags));
  g_object_class_install_property (gobject_class, PROP_POOLING,
      g_param_spec_enum ("pooling", "Pooling",
          "Frame score: mean = the whole frame's; top-percent = the mean of "
          "the sharpest pooling-percent % of the tiles (of 'tiles', or of an "
          "8x8 grid when tiles is off), so that a sharp subject on a soft "
          "background is not blurry; the blurry decision uses this score. "
          "Classical metrics only (others keep the whole frame's score, "
          "with one warning)",
          GST_TYPE_SHARPNESS_POOLING, DEFAULT_POOLING, flags));
  g_object_class_install_property (gobject_class, PROP_POOLING_PERCENT,
      g_param_spec_double ("pooling-percent", "Pooling percent",
          "Share of the tiles, sharpest first, that pooling=top-percent "
          "averages (at least one tile)",
          G_MINDOUBLE, 100.0, DEFAULT_POOLING_PERCENT, flags));
  g_object_class_install_property (gobject_class, PROP_ROI_TYPES,
      g_param_spec_string ("roi-types", "ROI types",
          "Comma-separated region-of-interest types to score (e.g. "
          "\"face\"), \"\" = all: each GstVideoRegionOfInterestMeta of "
          "these types gets a 'sharpness' param (metric, score, blurry: "
          "worse than threshold when set) scored inside the region, and the "
          "'sharpness' message lists roi-ids, roi-types and roi-scores. "
          "Classical metrics only",
          "", flags));
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

  gst_element_class_add_static_pad_template (element_class, &sink_template);
  gst_element_class_add_static_pad_template (element_class, &src_template);
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
}

static void
gst_cuda_sharpness_init (GstCudaSharpness * self)
{
  self->settings = (GstCudaSharpnessSettings) {
    .metric = DEFAULT_METRIC,
    .backend = DEFAULT_BACKEND,
    .device_id = DEFAULT_DEVICE_ID,
    .pinned_pool = DEFAULT_PINNED_POOL,
    .post_messages = DEFAULT_POST_MESSAGES,
    .interval = DEFAULT_INTERVAL,
    .threshold = DEFAULT_THRESHOLD,
    .relative_threshold = DEFAULT_RELATIVE_THRESHOLD,
    .window = DEFAULT_WINDOW,
    .min_blurry_duration = DEFAULT_MIN_BLURRY_DURATION,
    .max_blurry_gap = DEFAULT_MAX_BLURRY_GAP,
    .tiles_cols = DEFAULT_TILES_COLS,
    .tiles_rows = DEFAULT_TILES_ROWS,
    .pooling = DEFAULT_POOLING,
    .pooling_percent = DEFAULT_POOLING_PERCENT,
    .roi_types = NULL,
  };
  sharpness_frame_regions_init (&self->regions);
  sharpness_warn_once_init (&self->warned, GST_OBJECT (self));
  gst_video_info_init (&self->info);
  gst_base_transform_set_in_place (GST_BASE_TRANSFORM (self), TRUE);
  gst_pad_add_probe (GST_BASE_TRANSFORM_SINK_PAD (self),
      GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, sink_event_probe, self, NULL);

  self->cpu = sharpness_scorer_new_cpu (GST_ELEMENT (self));
  if (!sharpness_backend_choice_cuda_unavailable ())
    self->cuda = sharpness_scorer_new_cuda (GST_ELEMENT (self));
  sharpness_backend_choice_init (&self->choice, GST_ELEMENT (self),
      GST_CAT_DEFAULT, &self->warned, SHARPNESS_BACKEND (self->cuda), "score",
      "scoring");
}
