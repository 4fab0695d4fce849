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

#include "sharpness-blur-detector.h"
#include "sharpness-cpu.h"
#include "sharpness-frame.h"
#include "sharpness-messages.h"
#include "sharpness-meta.h"
#ifdef HAVE_CUDA
#include "sharpness-gpu.h"
#endif

GST_DEBUG_CATEGORY_STATIC (gst_cuda_sharpness_debug);
#define GST_CAT_DEFAULT gst_cuda_sharpness_debug

#define CUDA_MEMORY_FEATURE "memory:CUDAMemory"
/* Formats GStreamer 1.22's CUDA allocator lays out and the metrics read. */
#define SHARPNESS_CUDA_FORMATS "{ I420, YV12, NV12, NV21, P010_10LE, Y42B, " \
  "Y444, RGBA, BGRA, RGBx, BGRx, ARGB, ABGR, RGB, BGR }"

#ifdef HAVE_CUDA
#define SHARPNESS_CAPS \
  GST_VIDEO_CAPS_MAKE_WITH_FEATURES (CUDA_MEMORY_FEATURE, \
      SHARPNESS_CUDA_FORMATS) "; " \
  GST_VIDEO_CAPS_MAKE (SHARPNESS_SYSTEM_FORMATS)
#define CUDA_BUILD TRUE
#define READABLE_MEMORY "system memory and memory:CUDAMemory"
#else
#define SHARPNESS_CAPS GST_VIDEO_CAPS_MAKE (SHARPNESS_SYSTEM_FORMATS)
#define CUDA_BUILD FALSE
#define READABLE_MEMORY "system memory only (built without CUDA support)"
#endif

static GstStaticPadTemplate sink_template = GST_STATIC_PAD_TEMPLATE ("sink",
    GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS (SHARPNESS_CAPS));
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS (SHARPNESS_CAPS));

typedef enum
{
  GST_SHARPNESS_BACKEND_AUTO,
  GST_SHARPNESS_BACKEND_CPU,
  GST_SHARPNESS_BACKEND_CUDA
} GstSharpnessBackend;

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

enum
{
  PROP_0,
  PROP_METRIC,
  PROP_BACKEND,
  PROP_DEVICE_ID,
  PROP_PINNED_POOL,
  PROP_POST_MESSAGES,
  PROP_INTERVAL,
  PROP_THRESHOLD,
  PROP_RELATIVE_THRESHOLD,
  PROP_WINDOW
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
} GstCudaSharpnessSettings;

struct _GstCudaSharpness
{
  GstBaseTransform parent;

  GstCudaSharpnessSettings settings;    /* object lock */
  GHashTable *warned;           /* object lock: warnings posted since start */

  /* Streaming state, from start to stop. */
  GstVideoInfo info;
  gboolean cuda_memory;         /* negotiated memory:CUDAMemory */
  SharpnessCpu *cpu;
  SharpnessBlurDetector *detector;
  gboolean gpu_tried;           /* CUDA backend opened, or failed to */
  SharpnessMetric stats_metric; /* metric of the statistics below */
  guint64 frame_index;
  SharpnessStats interval_stats;
  GstClockTime interval_elapsed;
  SharpnessStats total_stats;
#ifdef HAVE_CUDA
  SharpnessGpu *gpu;            /* NULL when CUDA is unusable */
#endif
};

/* Why the CUDA driver is unusable (set once by plugin_init), or NULL. */
static gchar *cuda_unavailable_reason;

#define gst_cuda_sharpness_parent_class parent_class
G_DEFINE_TYPE_WITH_CODE (GstCudaSharpness, gst_cuda_sharpness,
    GST_TYPE_BASE_TRANSFORM,
    GST_DEBUG_CATEGORY_INIT (gst_cuda_sharpness_debug, "cudasharpness", 0,
        "CUDA sharpness analyzer"));
GST_ELEMENT_REGISTER_DEFINE (cudasharpness, "cudasharpness", GST_RANK_NONE,
    GST_TYPE_CUDA_SHARPNESS);

void
gst_cuda_sharpness_set_cuda_unavailable (const gchar * why)
{
  g_free (cuda_unavailable_reason);
  cuda_unavailable_reason = g_strdup (why);
}

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

#define GST_TYPE_SHARPNESS_BACKEND (gst_sharpness_backend_get_type ())
static GType
gst_sharpness_backend_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    {GST_SHARPNESS_BACKEND_AUTO,
        "CUDA when a device is usable, else the CPU", "auto"},
    {GST_SHARPNESS_BACKEND_CPU, "CPU", "cpu"},
    {GST_SHARPNESS_BACKEND_CUDA,
        "CUDA; the element fails to start without a usable device", "cuda"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&type)) {
    g_once_init_leave (&type,
        g_enum_register_static ("GstSharpnessBackend", values));
  }
  return type;
}

static void
get_settings (GstCudaSharpness * self, GstCudaSharpnessSettings * settings)
{
  GST_OBJECT_LOCK (self);
  *settings = self->settings;
  GST_OBJECT_UNLOCK (self);
}

/* TRUE the first time @text is seen since start: the caller posts it then,
 * so a persistent problem is reported once rather than per frame. */
static gboolean
first_time (GstCudaSharpness * self, const gchar * text)
{
  gboolean first;

  GST_OBJECT_LOCK (self);
  first = !g_hash_table_contains (self->warned, text);
  if (first)
    g_hash_table_add (self->warned, g_strdup (text));
  GST_OBJECT_UNLOCK (self);
  return first;
}

#define WARN_ONCE(self, domain, code, ...) G_STMT_START {               \
  gchar *_text = g_strdup_printf (__VA_ARGS__);                         \
  if (first_time (self, _text))                                         \
    GST_ELEMENT_WARNING (self, domain, code, ("%s", _text), (NULL));    \
  g_free (_text);                                                       \
} G_STMT_END

/* Opens the CUDA backend; NULL on success, else why it is unusable. */
static gchar *
open_gpu (GstCudaSharpness * self, gint device_id)
{
#ifdef HAVE_CUDA
  GError *err = NULL;
  gchar *why;

  self->gpu_tried = TRUE;
  if (!self->gpu)
    return g_strdup (cuda_unavailable_reason);
  if (sharpness_gpu_open (self->gpu, device_id, &err))
    return NULL;
  why = g_strdup (err ? err->message : "the CUDA backend failed to open");
  g_clear_error (&err);
  return why;
#else
  self->gpu_tried = TRUE;
  return g_strdup ("the plugin was built without CUDA support");
#endif
}

static gboolean
gpu_is_open (GstCudaSharpness * self)
{
#ifdef HAVE_CUDA
  return self->gpu && sharpness_gpu_is_open (self->gpu);
#else
  return FALSE;
#endif
}

/* TRUE when this frame goes to the GPU.  A switch from cpu to auto or cuda
 * while playing opens the device then; a failure is a warning there, since
 * the stream must keep flowing. */
static gboolean
use_gpu (GstCudaSharpness * self, const GstCudaSharpnessSettings * s)
{
  gchar *why;

  if (s->backend == GST_SHARPNESS_BACKEND_CPU)
    return FALSE;
  if (gpu_is_open (self))
    return TRUE;
  if (self->gpu_tried)
    return FALSE;

  why = open_gpu (self, s->device_id);
  if (!why)
    return TRUE;
  WARN_ONCE (self, RESOURCE, NOT_FOUND,
      "No usable CUDA device, scoring on the CPU: %s", why);
  g_free (why);
  return FALSE;
}

static void
reset_interval (GstCudaSharpness * self)
{
  sharpness_stats_reset (&self->interval_stats);
  self->interval_elapsed = 0;
}

static void
release_streaming_state (GstCudaSharpness * self)
{
#ifdef HAVE_CUDA
  if (self->gpu)
    sharpness_gpu_close (self->gpu);
#endif
  self->gpu_tried = FALSE;
  g_clear_pointer (&self->cpu, sharpness_cpu_free);
  g_clear_pointer (&self->detector, sharpness_blur_detector_free);
}

static gboolean
gst_cuda_sharpness_start (GstBaseTransform * trans)
{
  GstCudaSharpness *self = GST_CUDA_SHARPNESS (trans);
  GstCudaSharpnessSettings s;
  gchar *why;

  get_settings (self, &s);

  self->cpu = sharpness_cpu_new ();
  if (!self->cpu) {
    GST_ELEMENT_ERROR (self, CORE, FAILED,
        ("Could not allocate the CPU backend"), (NULL));
    return FALSE;
  }
  self->detector = sharpness_blur_detector_new (s.metric, s.window);
  self->stats_metric = s.metric;
  self->frame_index = 0;
  reset_interval (self);
  sharpness_stats_reset (&self->total_stats);
  gst_video_info_init (&self->info);
  self->cuda_memory = FALSE;
  GST_OBJECT_LOCK (self);
  g_hash_table_remove_all (self->warned);
  GST_OBJECT_UNLOCK (self);

  if (s.backend == GST_SHARPNESS_BACKEND_CPU)
    return TRUE;

  why = open_gpu (self, s.device_id);
  if (!why) {
    GST_INFO_OBJECT (self, "scoring on the CUDA backend");
    return TRUE;
  }
  if (s.backend == GST_SHARPNESS_BACKEND_CUDA) {
    GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND,
        ("backend=cuda, but no CUDA device is usable: %s", why),
        ("set backend=auto or backend=cpu to score on the CPU"));
    g_free (why);
    release_streaming_state (self);
    return FALSE;
  }
  WARN_ONCE (self, RESOURCE, NOT_FOUND,
      "No usable CUDA device, scoring on the CPU: %s", why);
  g_free (why);
  return TRUE;
}

static gboolean
gst_cuda_sharpness_stop (GstBaseTransform * trans)
{
  release_streaming_state (GST_CUDA_SHARPNESS (trans));
  return TRUE;
}

/* Why our template refuses @caps, or NULL when it does not (the refusal
 * then comes from elsewhere) or the caps name no single format. */
static gchar *
explain_refusal (GstCudaSharpness * self, GstCaps * caps)
{
  GstCaps *templ;
  GstStructure *s;
  GstCapsFeatures *f;
  const gchar *format;
  gboolean ours, cuda;

  if (gst_caps_is_empty (caps) || gst_caps_is_any (caps))
    return NULL;
  templ = gst_pad_get_pad_template_caps (GST_BASE_TRANSFORM_SINK_PAD (self));
  ours = !gst_caps_can_intersect (caps, templ);
  gst_caps_unref (templ);
  if (!ours)
    return NULL;

  s = gst_caps_get_structure (caps, 0);
  f = gst_caps_get_features (caps, 0);
  cuda = f && gst_caps_features_contains (f, CUDA_MEMORY_FEATURE);
  if (!gst_structure_has_name (s, "video/x-raw"))
    return g_strdup_printf ("cudasharpness analyses raw video (video/x-raw), "
        "not %s", gst_structure_get_name (s));
  if (f && !gst_caps_features_is_any (f) && !(cuda && CUDA_BUILD) &&
      !gst_caps_features_is_equal (f, GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY)) {
    gchar *features = gst_caps_features_to_string (f);
    gchar *text = g_strdup_printf ("cudasharpness cannot read buffers with "
        "caps features %s; it reads " READABLE_MEMORY, features);
    g_free (features);
    return text;
  }

  format = gst_structure_get_string (s, "format");
  if (!format)
    return NULL;
  return g_strdup_printf ("cudasharpness does not support video format %s "
      "in %s memory; supported formats: %s", format, cuda ? "CUDA" : "system",
      cuda ? SHARPNESS_CUDA_FORMATS : SHARPNESS_SYSTEM_FORMATS);
}

/* Negotiation failures otherwise end in a bare "not-negotiated": say which
 * caps were refused and what would be accepted. */
static void
warn_refusal (GstCudaSharpness * self, GstCaps * caps)
{
  gchar *why = explain_refusal (self, caps);

  if (why) {
    WARN_ONCE (self, STREAM, FORMAT, "%s", why);
    g_free (why);
  }
}

static gboolean
gst_cuda_sharpness_accept_caps (GstBaseTransform * trans,
    GstPadDirection direction, GstCaps * caps)
{
  if (GST_BASE_TRANSFORM_CLASS (parent_class)->accept_caps (trans, direction,
          caps))
    return TRUE;
  warn_refusal (GST_CUDA_SHARPNESS (trans), caps);
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
    return FALSE;
  }
  cuda = features && gst_caps_features_contains (features,
      CUDA_MEMORY_FEATURE);

  /* Scores of another size or format say nothing about the next frames. */
  if (cuda != self->cuda_memory || !gst_video_info_is_equal (&info,
          &self->info))
    sharpness_blur_detector_reset (self->detector);

  self->info = info;
  self->cuda_memory = cuda;
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

#ifdef HAVE_CUDA
  if (GST_QUERY_TYPE (query) == GST_QUERY_CONTEXT && self->gpu &&
      sharpness_gpu_handle_context_query (self->gpu, query))
    return TRUE;
#endif

  ret = GST_BASE_TRANSFORM_CLASS (parent_class)->query (trans, direction,
      query);

  /* An upstream filter we share nothing with (a capsfilter asking for YUY2)
   * is where negotiation fails: no accept-caps will follow to explain it. */
  if (GST_QUERY_TYPE (query) == GST_QUERY_CAPS && direction == GST_PAD_SINK) {
    GstCaps *filter = NULL, *result = NULL;

    gst_query_parse_caps (query, &filter);
    gst_query_parse_caps_result (query, &result);
    if (filter && result && gst_caps_is_empty (result))
      warn_refusal (self, filter);
  }
  return ret;
}

static gboolean
gst_cuda_sharpness_propose_allocation (GstBaseTransform * trans,
    GstQuery * decide_query, GstQuery * query)
{
  /* In place: the base class forwards the query downstream, whose answer
   * (pools, metas) must stand since our output buffers are our input. */
  gboolean ret = GST_BASE_TRANSFORM_CLASS (parent_class)->propose_allocation
      (trans, decide_query, query);

#ifdef HAVE_CUDA
  {
    GstCudaSharpness *self = GST_CUDA_SHARPNESS (trans);
    gboolean pinned;

    GST_OBJECT_LOCK (self);
    pinned = self->settings.pinned_pool &&
        self->settings.backend != GST_SHARPNESS_BACKEND_CPU;
    GST_OBJECT_UNLOCK (self);
    if (pinned && gpu_is_open (self)) {
      sharpness_gpu_propose_allocation (self->gpu, query);
      ret = TRUE;
    }
  }
#endif
  return ret;
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
      break;
    case GST_EVENT_EOS:
      post_summary (self);
      break;
    default:
      break;
  }
  return GST_BASE_TRANSFORM_CLASS (parent_class)->sink_event (trans, event);
}

static gboolean
score_frame_cpu (GstCudaSharpness * self, SharpnessMetric metric,
    GstBuffer * buf, gdouble * score)
{
  GstVideoFrame frame;
  SharpnessPlane plane;
  SharpnessStatus status = SHARPNESS_ERROR_UNSUPPORTED;

  /* Honours GstVideoMeta strides.  CUDA memory mapped without GST_MAP_CUDA
   * is downloaded: slow, but this is only the fallback. */
  if (!gst_video_frame_map (&frame, &self->info, buf, GST_MAP_READ)) {
    WARN_ONCE (self, STREAM, DECODE,
        "Could not map a frame for reading: frames go on unscored");
    return FALSE;
  }
  if (GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0) > 0 &&
      sharpness_plane_init (&plane, &self->info,
          GST_VIDEO_FRAME_PLANE_DATA (&frame, 0),
          GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0)))
    status = sharpness_cpu_score (self->cpu, metric, &plane, score);
  gst_video_frame_unmap (&frame);

  if (status != SHARPNESS_OK) {
    WARN_ONCE (self, STREAM, FAILED, "Scoring %s on the CPU failed (%s): "
        "frames go on unscored", sharpness_metric_info[metric].nick,
        sharpness_status_to_string (status));
    return FALSE;
  }
  return TRUE;
}

static gboolean
score_frame (GstCudaSharpness * self, const GstCudaSharpnessSettings * s,
    GstBuffer * buf, gdouble * score)
{
  if (use_gpu (self, s)) {
#ifdef HAVE_CUDA
    GError *err = NULL;

    if (sharpness_gpu_score (self->gpu, s->metric, buf, &self->info,
            self->cuda_memory, score, &err))
      return TRUE;
    if (g_error_matches (err, SHARPNESS_GPU_ERROR,
            SHARPNESS_GPU_ERROR_DEVICE_LOST)) {
      /* The context is unusable: stay on the CPU until the next start. */
      WARN_ONCE (self, RESOURCE, FAILED, "The CUDA device was lost, scoring "
          "on the CPU from now on: %s", err->message);
      sharpness_gpu_close (self->gpu);
    } else {
      WARN_ONCE (self, RESOURCE, FAILED, "Scoring %s on the GPU failed, "
          "scoring on the CPU instead: %s",
          sharpness_metric_info[s->metric].nick,
          err ? err->message : "unknown error");
    }
    g_clear_error (&err);
#endif
  }
  return score_frame_cpu (self, s->metric, buf, score);
}

/* The buffer's duration, else one frame at the negotiated framerate. */
static GstClockTime
frame_duration (GstCudaSharpness * self, GstBuffer * buf)
{
  gint fps_n = GST_VIDEO_INFO_FPS_N (&self->info);
  gint fps_d = GST_VIDEO_INFO_FPS_D (&self->info);

  if (GST_BUFFER_DURATION_IS_VALID (buf))
    return GST_BUFFER_DURATION (buf);
  if (fps_n > 0 && fps_d > 0)
    return gst_util_uint64_scale_int (GST_SECOND, fps_d, fps_n);
  return GST_CLOCK_TIME_NONE;
}

static void
fill_times (GstCudaSharpness * self, GstBuffer * buf, SharpnessFrameResult * r)
{
  GstSegment *segment = &GST_BASE_TRANSFORM (self)->segment;
  GstClockTime pts = GST_BUFFER_PTS (buf);

  r->timestamp = pts;
  r->duration = frame_duration (self, buf);
  r->stream_time = r->running_time = GST_CLOCK_TIME_NONE;
  if (GST_CLOCK_TIME_IS_VALID (pts) && segment->format == GST_FORMAT_TIME) {
    r->stream_time = gst_segment_to_stream_time (segment, GST_FORMAT_TIME,
        pts);
    r->running_time = gst_segment_to_running_time (segment, GST_FORMAT_TIME,
        pts);
  }
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

static GstFlowReturn
gst_cuda_sharpness_transform_ip (GstBaseTransform * trans, GstBuffer * buf)
{
  GstCudaSharpness *self = GST_CUDA_SHARPNESS (trans);
  GstCudaSharpnessSettings s;
  SharpnessFrameResult r;

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
  if (!score_frame (self, &s, buf, &r.score))
    return GST_FLOW_OK;

  r.metric = sharpness_metric_info[s.metric].nick;
  r.blurry = sharpness_blur_detector_push (self->detector, r.score,
      s.threshold, s.relative_threshold);
  GST_LOG_OBJECT (self, "frame %" G_GUINT64_FORMAT ": %s %g%s", r.frame,
      r.metric, r.score, r.blurry ? " (blurry)" : "");

  sharpness_meta_set (buf, r.metric, r.score, r.blurry);
  sharpness_stats_add (&self->total_stats, r.score, r.blurry);
  fill_times (self, buf, &r);
  post_result (self, &s, &r);
  return GST_FLOW_OK;
}

#ifdef HAVE_CUDA
static void
gst_cuda_sharpness_set_context (GstElement * element, GstContext * context)
{
  GstCudaSharpness *self = GST_CUDA_SHARPNESS (element);
  gint device_id;

  GST_OBJECT_LOCK (self);
  device_id = self->settings.device_id;
  GST_OBJECT_UNLOCK (self);
  if (self->gpu)
    sharpness_gpu_set_context (self->gpu, context, device_id);

  GST_ELEMENT_CLASS (parent_class)->set_context (element, context);
}
#endif

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

#ifdef HAVE_CUDA
  g_clear_pointer (&self->gpu, sharpness_gpu_free);
#endif
  g_hash_table_unref (self->warned);

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
  g_object_class_install_property (gobject_class, PROP_DEVICE_ID,
      g_param_spec_int ("device-id", "Device ID",
          "CUDA device to use, -1 for any (a CUDA context shared by the "
          "pipeline wins); read when the element starts",
          -1, G_MAXINT, DEFAULT_DEVICE_ID,
          G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
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
          "previous 'window' frames (above median / relative-threshold for "
          "lower-is-sharper metrics)",
          0.0, 1.0, DEFAULT_RELATIVE_THRESHOLD, flags));
  g_object_class_install_property (gobject_class, PROP_WINDOW,
      g_param_spec_uint ("window", "Window",
          "Number of previous frames whose median score the relative "
          "threshold uses; no relative decision before that many frames "
          "were scored (the history restarts on flush, caps and metric "
          "changes)", 1, MAX_WINDOW, DEFAULT_WINDOW, flags));
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
#ifdef HAVE_CUDA
  element_class->set_context =
      GST_DEBUG_FUNCPTR (gst_cuda_sharpness_set_context);
#endif

  trans_class->passthrough_on_same_caps = FALSE;
  trans_class->transform_ip_on_passthrough = FALSE;
  trans_class->start = GST_DEBUG_FUNCPTR (gst_cuda_sharpness_start);
  trans_class->stop = GST_DEBUG_FUNCPTR (gst_cuda_sharpness_stop);
  trans_class->accept_caps = GST_DEBUG_FUNCPTR (gst_cuda_sharpness_accept_caps);
  trans_class->set_caps = GST_DEBUG_FUNCPTR (gst_cuda_sharpness_set_caps);
  trans_class->query = GST_DEBUG_FUNCPTR (gst_cuda_sharpness_query);
  trans_class->propose_allocation =
      GST_DEBUG_FUNCPTR (gst_cuda_sharpness_propose_allocation);
  trans_class->sink_event = GST_DEBUG_FUNCPTR (gst_cuda_sharpness_sink_event);
  trans_class->transform_ip =
      GST_DEBUG_FUNCPTR (gst_cuda_sharpness_transform_ip);

  gst_type_mark_as_plugin_api (GST_TYPE_SHARPNESS_METRIC, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_SHARPNESS_BACKEND, 0);
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
  };
  self->warned = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  gst_video_info_init (&self->info);
  gst_base_transform_set_in_place (GST_BASE_TRANSFORM (self), TRUE);

#ifdef HAVE_CUDA
  if (!cuda_unavailable_reason)
    self->gpu = sharpness_gpu_new (GST_ELEMENT (self));
#endif
}
