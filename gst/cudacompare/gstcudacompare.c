/* Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
/**
 * SECTION:element-cudacompare
 * @title: cudacompare
 *
 * Compares every distorted frame (`dist_sink`) with the reference frame of
 * the same running time (`ref_sink`): PSNR and SSIM exactly as FFmpeg's
 * psnr and ssim filters, SSIM as Wang et al. 2004, MS-SSIM as msssim.m, on
 * a CUDA device or on the CPU.  The distorted frames leave on `src`
 * unchanged, with a "GstCompareMeta" custom meta; `compare` messages per
 * pair (or per `interval`), a `compare-summary` at EOS, and optionally a
 * stats file in FFmpeg's stats_file formats, CSV or JSON.
 * Reference: docs/compare.md.
 *
 * ## Example launch line
 * |[
 * gst-launch-1.0 -m cudacompare name=c ! fakesink \
 *     filesrc location=src.mp4 ! qtdemux ! h264parse ! nvh264dec ! c.ref_sink \
 *     filesrc location=enc.mp4 ! qtdemux ! h264parse ! nvh264dec ! c.dist_sink
 * ]|
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "gstcudacompare.h"

#include <math.h>

#include <gst/video/video.h>

#include "compare-backend.h"
#include "compare-frame.h"
#include "compare-meta.h"
#include "compare-report.h"
#include "sharpness-backend-choice.h"
#include "sharpness-caps.h"
#include "sharpness-messages.h"
#include "sharpness-scorer.h"
#include "sharpness-warn-once.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_compare_debug);
#define GST_CAT_DEFAULT gst_cuda_compare_debug

#ifdef HAVE_CUDA
#define COMPARE_CAPS \
  GST_VIDEO_CAPS_MAKE_WITH_FEATURES (SHARPNESS_CUDA_MEMORY_FEATURE, \
      COMPARE_CUDA_FORMATS) "; " GST_VIDEO_CAPS_MAKE (COMPARE_SYSTEM_FORMATS)
#else
#define COMPARE_CAPS GST_VIDEO_CAPS_MAKE (COMPARE_SYSTEM_FORMATS)
#endif

static GstStaticPadTemplate ref_template = GST_STATIC_PAD_TEMPLATE ("ref_sink",
    GST_PAD_SINK, GST_PAD_ALWAYS, GST_STATIC_CAPS (COMPARE_CAPS));
static GstStaticPadTemplate dist_template =
GST_STATIC_PAD_TEMPLATE ("dist_sink", GST_PAD_SINK, GST_PAD_ALWAYS,
    GST_STATIC_CAPS (COMPARE_CAPS));
static GstStaticPadTemplate src_template = GST_STATIC_PAD_TEMPLATE ("src",
    GST_PAD_SRC, GST_PAD_ALWAYS, GST_STATIC_CAPS (COMPARE_CAPS));

typedef enum
{
  GST_COMPARE_SSIM_FFMPEG,
  GST_COMPARE_SSIM_WANG
} GstCompareSsimMode;

#define DEFAULT_METRICS (COMPARE_METRIC_PSNR | COMPARE_METRIC_SSIM)
#define DEFAULT_SSIM_MODE GST_COMPARE_SSIM_FFMPEG
#define DEFAULT_SSIM_DOWNSAMPLE FALSE
#define DEFAULT_BACKEND GST_SHARPNESS_BACKEND_AUTO
#define DEFAULT_DEVICE_ID -1
#define DEFAULT_PINNED_POOL TRUE
#define DEFAULT_POST_MESSAGES TRUE
#define DEFAULT_INTERVAL 0
#define DEFAULT_STATS_FORMAT COMPARE_STATS_CSV

enum
{
  PROP_0,
  PROP_METRICS,
  PROP_SSIM_MODE,
  PROP_SSIM_DOWNSAMPLE,
  PROP_BACKEND,
  PROP_CUDA_DEVICE_ID,
  PROP_PINNED_POOL,
  PROP_POST_MESSAGES,
  PROP_INTERVAL,
  PROP_STATS_FILE,
  PROP_STATS_FORMAT
};

typedef struct
{
  guint metrics;
  GstCompareSsimMode ssim_mode;
  gboolean ssim_downsample;
  GstSharpnessBackend backend;
  gint device_id;
  gboolean pinned_pool;
  gboolean post_messages;
  guint64 interval;
  gchar *stats_file;            /* owned by the element's copy only */
  CompareStatsFormat stats_format;
} GstCudaCompareSettings;

struct _GstCudaCompare
{
  GstAggregator parent;

  GstAggregatorPad *ref_pad, *dist_pad;

  GstCudaCompareSettings settings;      /* object lock */
  SharpnessWarnOnce warned;     /* warnings posted since start */

  /* Streaming state (src task), from start to stop. */
  GstVideoInfo ref_info, dist_info;
  gboolean have_ref_info, have_dist_info;
  GstCaps *dist_caps;
  CompareLayout layout;
  ComparePair layout_pair;      /* sizes of the negotiated layout */
  gboolean layout_ok;           /* both pads agree on size and format */
  gboolean paired_once;         /* a pair was compared */
  gboolean error_posted;
  gboolean dist_cuda_memory, ref_cuda_memory;
  CompareBackend *cpu;          /* always */
  CompareBackend *cuda;         /* NULL when CUDA is unusable */
  SharpnessBackendChoice choice;        /* of cpu or cuda */
  CompareCounts counts;
  guint64 dist_index;           /* distorted frames output */
  CompareStats total, interval;
  GstClockTime interval_elapsed;
  guint64 unpaired_since_message;
  ComparePsnrSummary psnr_summary;
  CompareStatsFile stats_file;
  gboolean summary_posted;
};

#define gst_cuda_compare_parent_class parent_class
G_DEFINE_TYPE_WITH_CODE (GstCudaCompare, gst_cuda_compare,
    GST_TYPE_AGGREGATOR,
    GST_DEBUG_CATEGORY_INIT (gst_cuda_compare_debug, "cudacompare", 0,
        "CUDA full-reference comparison"));
GST_ELEMENT_REGISTER_DEFINE (cudacompare, "cudacompare", GST_RANK_NONE,
    GST_TYPE_CUDA_COMPARE);

#define GST_TYPE_COMPARE_METRICS (gst_compare_metrics_get_type ())
static GType
gst_compare_metrics_get_type (void)
{
  static gsize type = 0;
  static const GFlagsValue values[] = {
    {COMPARE_METRIC_PSNR, "PSNR and MSE, as FFmpeg's psnr filter", "psnr"},
    {COMPARE_METRIC_SSIM, "SSIM (ssim-mode: FFmpeg's ssim filter, or Wang's)",
        "ssim"},
    {COMPARE_METRIC_MS_SSIM, "MS-SSIM of the luma, as Wang's msssim.m",
        "ms-ssim"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_flags_register_static ("GstCompareMetrics",
            values));
  return type;
}

#define GST_TYPE_COMPARE_SSIM_MODE (gst_compare_ssim_mode_get_type ())
static GType
gst_compare_ssim_mode_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    {GST_COMPARE_SSIM_FFMPEG, "FFmpeg's ssim filter (8x8 windows, stride 4)",
        "ffmpeg"},
    {GST_COMPARE_SSIM_WANG, "Wang et al. 2004 (11x11 Gaussian, sigma 1.5)",
        "wang"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&type))
    g_once_init_leave (&type, g_enum_register_static ("GstCompareSsimMode",
            values));
  return type;
}

#define GST_TYPE_COMPARE_STATS_FORMAT (gst_compare_stats_format_get_type ())
static GType
gst_compare_stats_format_get_type (void)
{
  static gsize type = 0;
  static const GEnumValue values[] = {
    {COMPARE_STATS_FFMPEG_PSNR, "FFmpeg's psnr stats_file lines (needs "
          "metrics=psnr)", "ffmpeg-psnr"},
    {COMPARE_STATS_FFMPEG_SSIM, "FFmpeg's ssim stats_file lines (needs "
          "metrics=ssim)", "ffmpeg-ssim"},
    {COMPARE_STATS_CSV, "CSV, a header then one line per pair", "csv"},
    {COMPARE_STATS_JSON, "JSON, an array of one object per pair", "json"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&type))
    g_once_init_leave (&type,
        g_enum_register_static ("GstCompareStatsFormat", values));
  return type;
}

/* A copy of the settings; free its stats_file. */
static void
get_settings (GstCudaCompare * self, GstCudaCompareSettings * s)
{
  GST_OBJECT_LOCK (self);
  *s = self->settings;
  s->stats_file = g_strdup (self->settings.stats_file);
  GST_OBJECT_UNLOCK (self);
}

#define WARN_ONCE(self, domain, code, ...) \
  SHARPNESS_WARN_ONCE (self, &(self)->warned, domain, code, __VA_ARGS__)

/* The metrics the CPU computes far slower than a live stream needs (one
 * thread, 1080p 4:2:0: SSIM wang 280 ms, with ssim-downsample 46 ms,
 * MS-SSIM 240 ms; PSNR 5 ms and FFmpeg-mode SSIM 8 ms keep up with 60
 * fps).  A fallback to the CPU leaves them out rather than making frames
 * late (docs/compare.md). */
static guint
heavy_metrics (const CompareRequest * req)
{
  guint heavy = req->metrics & COMPARE_METRIC_MS_SSIM;

  if (req->wang)
    heavy |= req->metrics & COMPARE_METRIC_SSIM;
  return heavy;
}

static void
reset_interval (GstCudaCompare * self)
{
  compare_stats_reset (&self->interval);
  self->interval_elapsed = 0;
  self->unpaired_since_message = 0;
}

static void
release_streaming_state (GstCudaCompare * self)
{
  sharpness_backend_choice_stop (&self->choice);
  sharpness_backend_close (SHARPNESS_BACKEND (self->cpu));
  if (!compare_stats_file_close (&self->stats_file))
    GST_ELEMENT_WARNING (self, RESOURCE, WRITE,
        ("Could not write the stats file completely"), (NULL));
  gst_caps_replace (&self->dist_caps, NULL);
}

static gboolean
gst_cuda_compare_start (GstAggregator * agg)
{
  GstCudaCompare *self = GST_CUDA_COMPARE (agg);
  GstCudaCompareSettings s;
  GError *err = NULL;

  get_settings (self, &s);

  sharpness_warn_once_reset (&self->warned);
  gst_video_info_init (&self->ref_info);
  gst_video_info_init (&self->dist_info);
  self->have_ref_info = self->have_dist_info = FALSE;
  self->layout_ok = self->paired_once = self->error_posted = FALSE;
  self->dist_cuda_memory = self->ref_cuda_memory = FALSE;
  memset (&self->counts, 0, sizeof (self->counts));
  self->dist_index = 0;
  compare_stats_reset (&self->total);
  reset_interval (self);
  compare_psnr_summary_init (&self->psnr_summary);
  self->summary_posted = FALSE;

  if (!sharpness_backend_open (SHARPNESS_BACKEND (self->cpu), -1, &err)) {
    GST_ELEMENT_ERROR (self, CORE, FAILED, ("%s", err->message), (NULL));
    g_clear_error (&err);
    g_free (s.stats_file);
    return FALSE;
  }

  if (s.stats_file && *s.stats_file) {
    if (!compare_stats_file_open (&self->stats_file, s.stats_file,
            s.stats_format, &err)) {
      GST_ELEMENT_ERROR (self, RESOURCE, OPEN_WRITE, ("%s", err->message),
          (NULL));
      g_clear_error (&err);
      g_free (s.stats_file);
      release_streaming_state (self);
      return FALSE;
    }
    if ((s.stats_format == COMPARE_STATS_FFMPEG_PSNR &&
            !(s.metrics & COMPARE_METRIC_PSNR)) ||
        (s.stats_format == COMPARE_STATS_FFMPEG_SSIM &&
            !(s.metrics & COMPARE_METRIC_SSIM)))
      WARN_ONCE (self, RESOURCE, SETTINGS, "stats-format=%s needs the "
          "metric in `metrics`: the stats file stays empty",
          s.stats_format == COMPARE_STATS_FFMPEG_PSNR ? "ffmpeg-psnr" :
          "ffmpeg-ssim");
  }
  g_free (s.stats_file);

  if (!sharpness_backend_choice_start (&self->choice, s.backend,
          s.device_id)) {
    release_streaming_state (self);
    return FALSE;
  }
  return TRUE;
}

static gboolean
gst_cuda_compare_stop (GstAggregator * agg)
{
  release_streaming_state (GST_CUDA_COMPARE (agg));
  return TRUE;
}

static const gchar *
pad_role (GstCudaCompare * self, GstAggregatorPad * pad)
{
  return pad == self->ref_pad ? "ref_sink" : "dist_sink";
}

static gchar *
describe_info (const GstVideoInfo * info, gboolean cuda)
{
  return g_strdup_printf ("%dx%d %s%s", GST_VIDEO_INFO_WIDTH (info),
      GST_VIDEO_INFO_HEIGHT (info), GST_VIDEO_INFO_NAME (info),
      cuda ? " (CUDA memory)" : "");
}

/* Both pads' caps known: do they compare? */
static void
update_layout (GstCudaCompare * self)
{
  self->layout_ok = FALSE;
  if (!self->have_ref_info || !self->have_dist_info)
    return;
  if (GST_VIDEO_INFO_FORMAT (&self->ref_info) !=
      GST_VIDEO_INFO_FORMAT (&self->dist_info) ||
      GST_VIDEO_INFO_WIDTH (&self->ref_info) !=
      GST_VIDEO_INFO_WIDTH (&self->dist_info) ||
      GST_VIDEO_INFO_HEIGHT (&self->ref_info) !=
      GST_VIDEO_INFO_HEIGHT (&self->dist_info))
    return;
  if (!compare_layout_init (&self->layout, &self->dist_info))
    return;
  compare_layout_pair (&self->layout, &self->dist_info, &self->layout_pair);
  self->layout_ok = TRUE;
}

static gchar *
mismatch_text (GstCudaCompare * self)
{
  gchar *ref = describe_info (&self->ref_info, self->ref_cuda_memory);
  gchar *dist = describe_info (&self->dist_info, self->dist_cuda_memory);
  gchar *text = g_strdup_printf ("cudacompare needs frames of the same size "
      "and format on both pads: ref_sink has %s, dist_sink has %s; insert "
      "videoscale ! videoconvert (or cudaconvertscale for CUDA memory) with "
      "a capsfilter before one of them", ref, dist);

  g_free (ref);
  g_free (dist);
  return text;
}

static gboolean
gst_cuda_compare_sink_event (GstAggregator * agg, GstAggregatorPad * pad,
    GstEvent * event)
{
  GstCudaCompare *self = GST_CUDA_COMPARE (agg);

  switch (GST_EVENT_TYPE (event)) {
    case GST_EVENT_CAPS:{
      GstCaps *caps;
      GstVideoInfo info;
      GstCapsFeatures *f;
      gboolean cuda;

      gst_event_parse_caps (event, &caps);
      if (!gst_video_info_from_caps (&info, caps)) {
        GST_ELEMENT_ERROR (self, STREAM, FORMAT, ("%s: invalid video caps "
                "%" GST_PTR_FORMAT, pad_role (self, pad), caps), (NULL));
        gst_event_unref (event);
        return FALSE;
      }
      f = gst_caps_get_features (caps, 0);
      cuda = f && gst_caps_features_contains (f,
          SHARPNESS_CUDA_MEMORY_FEATURE);
      if (pad == self->ref_pad) {
        self->ref_info = info;
        self->have_ref_info = TRUE;
        self->ref_cuda_memory = cuda;
      } else {
        self->dist_info = info;
        self->have_dist_info = TRUE;
        self->dist_cuda_memory = cuda;
        gst_caps_replace (&self->dist_caps, caps);
        /* The output caps are the distorted input's. */
        gst_pad_mark_reconfigure (GST_AGGREGATOR_SRC_PAD (agg));
      }
      update_layout (self);
      GST_DEBUG_OBJECT (self, "%s caps %" GST_PTR_FORMAT ", layout %s",
          pad_role (self, pad), caps, self->layout_ok ? "ok" : "pending");
      break;
    }
    case GST_EVENT_SEGMENT:
      if (pad == self->dist_pad) {
        const GstSegment *segment;

        /* Buffers leave with the distorted input's timestamps: so does
         * the segment. */
        gst_event_parse_segment (event, &segment);
        if (segment->format == GST_FORMAT_TIME)
          gst_aggregator_update_segment (agg, segment);
      }
      break;
    default:
      break;
  }
  return GST_AGGREGATOR_CLASS (parent_class)->sink_event (agg, pad, event);
}

static GstFlowReturn
gst_cuda_compare_update_src_caps (GstAggregator * agg, GstCaps * caps,
    GstCaps ** ret)
{
  GstCudaCompare *self = GST_CUDA_COMPARE (agg);

  if (!self->dist_caps)
    return GST_AGGREGATOR_FLOW_NEED_DATA;
  if (!gst_caps_can_intersect (self->dist_caps, caps)) {
    GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, ("Downstream does not "
            "accept the distorted frames' caps %" GST_PTR_FORMAT
            " (cudacompare outputs them unchanged)", self->dist_caps),
        (NULL));
    return GST_FLOW_NOT_NEGOTIATED;
  }
  *ret = gst_caps_ref (self->dist_caps);
  return GST_FLOW_OK;
}

static gboolean
gst_cuda_compare_sink_query (GstAggregator * agg, GstAggregatorPad * pad,
    GstQuery * query)
{
  GstCudaCompare *self = GST_CUDA_COMPARE (agg);

  if (GST_QUERY_TYPE (query) == GST_QUERY_CONTEXT &&
      sharpness_backend_handle_context_query (SHARPNESS_BACKEND
          (self->cuda), query))
    return TRUE;
  return GST_AGGREGATOR_CLASS (parent_class)->sink_query (agg, pad, query);
}

static gboolean
gst_cuda_compare_src_query (GstAggregator * agg, GstQuery * query)
{
  GstCudaCompare *self = GST_CUDA_COMPARE (agg);

  if (GST_QUERY_TYPE (query) == GST_QUERY_CONTEXT &&
      sharpness_backend_handle_context_query (SHARPNESS_BACKEND
          (self->cuda), query))
    return TRUE;
  return GST_AGGREGATOR_CLASS (parent_class)->src_query (agg, query);
}

static gboolean
gst_cuda_compare_propose_allocation (GstAggregator * agg,
    GstAggregatorPad * pad, GstQuery * decide_query, GstQuery * query)
{
  GstCudaCompare *self = GST_CUDA_COMPARE (agg);
  gboolean pinned;

  GST_OBJECT_LOCK (self);
  pinned = self->settings.pinned_pool &&
      self->settings.backend != GST_SHARPNESS_BACKEND_CPU;
  GST_OBJECT_UNLOCK (self);
  /* Pinned host memory is plain system memory for downstream too (the
   * distorted frames leave as they came). */
  if (pinned)
    sharpness_backend_propose_allocation (SHARPNESS_BACKEND (self->cuda),
        query);
  /* The reference frames end here: any stride is fine.  The distorted
   * ones go downstream, which was not asked. */
  if (pad == self->ref_pad)
    gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  return TRUE;
}

static void
gst_cuda_compare_set_context (GstElement * element, GstContext * context)
{
  GstCudaCompare *self = GST_CUDA_COMPARE (element);
  gint device_id;

  GST_OBJECT_LOCK (self);
  device_id = self->settings.device_id;
  GST_OBJECT_UNLOCK (self);
  sharpness_backend_set_context (SHARPNESS_BACKEND (self->cuda), context,
      device_id);

  GST_ELEMENT_CLASS (parent_class)->set_context (element, context);
}

/* Running time of @buf on @pad, or NONE. */
static GstClockTime
running_time (GstAggregatorPad * pad, GstBuffer * buf)
{
  GstClockTime pts = GST_BUFFER_PTS (buf);

  if (!GST_CLOCK_TIME_IS_VALID (pts) || pad->segment.format != GST_FORMAT_TIME)
    return GST_CLOCK_TIME_NONE;
  return gst_segment_to_running_time (&pad->segment, GST_FORMAT_TIME, pts);
}

/* Half a frame: two frames closer than this are one instant. */
static GstClockTime
pairing_tolerance (GstCudaCompare * self, GstBuffer * dist)
{
  gint n = GST_VIDEO_INFO_FPS_N (&self->dist_info);
  gint d = GST_VIDEO_INFO_FPS_D (&self->dist_info);

  if (GST_BUFFER_DURATION_IS_VALID (dist))
    return GST_BUFFER_DURATION (dist) / 2;
  if (n > 0 && d > 0)
    return gst_util_uint64_scale_int (GST_SECOND, d, 2 * n);
  return 0;
}

/* Computes the pair's metrics: GPU, else (as the fallback rules allow) the
 * CPU.  FALSE when nothing could be computed. */
static gboolean
compare_pair (GstCudaCompare * self, const GstCudaCompareSettings * s,
    GstBuffer * ref, GstBuffer * dist, CompareResult * result,
    guint * computed)
{
  CompareRequest req = {
    .metrics = s->metrics,
    .wang = s->ssim_mode == GST_COMPARE_SSIM_WANG,
    .downsample = s->ssim_downsample,
  };
  GError *err = NULL;
  guint heavy;

  *computed = 0;
  if (sharpness_backend_choice_use_gpu (&self->choice, s->backend,
          s->device_id)) {
    if (compare_backend_compare (self->cuda, &self->layout, ref,
            &self->ref_info, dist, &self->dist_info, &req, result, &err))
      goto done;
    if (g_error_matches (err, SHARPNESS_BACKEND_ERROR,
            SHARPNESS_BACKEND_ERROR_DEVICE_LOST)) {
      WARN_ONCE (self, RESOURCE, FAILED, "The CUDA device was lost, "
          "comparing on the CPU from now on: %s", err->message);
      sharpness_backend_close (SHARPNESS_BACKEND (self->cuda));
    } else {
      WARN_ONCE (self, RESOURCE, FAILED, "Comparing on the GPU failed, "
          "comparing on the CPU instead: %s", err->message);
    }
    g_clear_error (&err);
  }

  /* A fallback may never make a frame late. */
  heavy = s->backend == GST_SHARPNESS_BACKEND_CPU ? 0 : heavy_metrics (&req);
  if (heavy) {
    WARN_ONCE (self, RESOURCE, FAILED, "%s%s too slow on the CPU to keep "
        "up with the stream and no CUDA device computes %s: left out (set "
        "backend=cpu to compute every metric on the CPU)",
        (heavy & COMPARE_METRIC_SSIM) ? "SSIM (wang mode)" : "",
        (heavy & COMPARE_METRIC_MS_SSIM) ?
        ((heavy & COMPARE_METRIC_SSIM) ? " and MS-SSIM are" : "MS-SSIM is") :
        " is", (heavy & (heavy - 1)) ? "them" : "it");
    req.metrics &= ~heavy;
  }
  if (!req.metrics)
    return FALSE;
  if (!compare_backend_compare (self->cpu, &self->layout, ref,
          &self->ref_info, dist, &self->dist_info, &req, result, &err)) {
    WARN_ONCE (self, STREAM, FAILED, "Comparing on the CPU failed (%s): "
        "frames go on unscored", err->message);
    g_clear_error (&err);
    return FALSE;
  }

done:
  for (gint m = 0; m < COMPARE_N_METRICS; m++) {
    if (!(req.metrics & (1 << m)))
      continue;
    if (result->status[m] == SHARPNESS_OK)
      *computed |= 1 << m;
    else
      WARN_ONCE (self, STREAM, FAILED, "%s refused the frames (%s): "
          "left out", m == 0 ? "PSNR" : m == 1 ? "SSIM" : "MS-SSIM",
          sharpness_status_to_string (result->status[m]));
  }
  return *computed != 0;
}

/* Messages, statistics and stats file of a compared pair. */
static void
report_pair (GstCudaCompare * self, const GstCudaCompareSettings * s,
    GstBuffer * dist, guint64 frame, CompareResult * r, guint computed)
{
  GstAggregatorPad *pad = self->dist_pad;
  SharpnessFrameResult times = { 0, };
  CompareValues values;
  GstStructure *meta;
  gboolean psnr = (computed & COMPARE_METRIC_PSNR) != 0;
  gboolean ssim = (computed & COMPARE_METRIC_SSIM) != 0;

  if (psnr)
    compare_psnr_summary_add (&self->psnr_summary, &r->psnr);
  /* From here on, display order (r g b for RGB). */
  compare_layout_psnr_to_display (&self->layout, &r->psnr);
  compare_layout_ssim_to_display (&self->layout, &r->ssim);
  compare_values_init (&values, &self->layout, psnr ? &r->psnr : NULL,
      ssim ? &r->ssim : NULL,
      (computed & COMPARE_METRIC_MS_SSIM) ? &r->ms_ssim : NULL);

  meta = gst_structure_new_empty ("values");
  gst_structure_set (meta, "frame", G_TYPE_UINT64, frame, NULL);
  compare_values_to_structure (&values, meta);
  compare_meta_set (dist, meta);
  gst_structure_free (meta);

  compare_stats_add (&self->total, &values, frame);
  compare_stats_file_write (&self->stats_file, self->counts.pairs, frame,
      GST_BUFFER_PTS (dist), &self->layout, &self->layout_pair,
      psnr ? &r->psnr : NULL, ssim ? &r->ssim : NULL, &values);

  if (!s->post_messages) {
    reset_interval (self);
    return;
  }
  GST_OBJECT_LOCK (pad);
  sharpness_frame_result_set_times (&times, dist, &pad->segment,
      &self->dist_info);
  GST_OBJECT_UNLOCK (pad);

  if (s->interval == 0) {
    gst_element_post_message (GST_ELEMENT (self),
        compare_message_new (GST_OBJECT (self), times.timestamp,
            times.stream_time, times.running_time, times.duration, frame,
            &values, 0, 0));
    return;
  }

  compare_stats_add (&self->interval, &values, frame);
  /* A frame of unknown duration closes the interval. */
  if (!GST_CLOCK_TIME_IS_VALID (times.duration) ||
      times.duration >= G_MAXUINT64 - self->interval_elapsed)
    self->interval_elapsed = G_MAXUINT64;
  else
    self->interval_elapsed += times.duration;
  if (self->interval_elapsed >= s->interval) {
    CompareValues means;

    compare_stats_means (&self->interval, &means);
    gst_element_post_message (GST_ELEMENT (self),
        compare_message_new (GST_OBJECT (self), times.timestamp,
            times.stream_time, times.running_time, times.duration, frame,
            &means, self->interval.pairs, self->unpaired_since_message));
    reset_interval (self);
  }
}

static void
post_summary (GstCudaCompare * self)
{
  GstCudaCompareSettings s;
  const CompareCounts *c = &self->counts;

  if (self->summary_posted)
    return;
  self->summary_posted = TRUE;
  get_settings (self, &s);
  g_free (s.stats_file);

  if (c->ref_frames != c->dist_frames)
    GST_ELEMENT_WARNING (self, STREAM, FAILED, ("The inputs have different "
            "frame counts: ref_sink %" G_GUINT64_FORMAT ", dist_sink %"
            G_GUINT64_FORMAT " (%" G_GUINT64_FORMAT " pairs compared)",
            c->ref_frames, c->dist_frames, c->pairs), (NULL));
  if (!s.post_messages)
    return;
  gst_element_post_message (GST_ELEMENT (self),
      compare_summary_new (GST_OBJECT (self), c, &self->total,
          &self->psnr_summary, &self->layout,
          self->psnr_summary.n_frames ? &self->layout_pair : NULL));
}

/* Sends the distorted buffer on, unchanged (a meta added when @scored). */
static GstFlowReturn
finish_dist (GstCudaCompare * self, GstBuffer * buf)
{
  GstAggregator *agg = GST_AGGREGATOR (self);
  GstAggregatorPad *srcpad = GST_AGGREGATOR_PAD (agg->srcpad);
  GstClockTime pts = GST_BUFFER_PTS (buf);

  self->dist_index++;
  if (GST_CLOCK_TIME_IS_VALID (pts)) {
    GST_OBJECT_LOCK (agg);
    srcpad->segment.position = pts + (GST_BUFFER_DURATION_IS_VALID (buf) ?
        GST_BUFFER_DURATION (buf) : 0);
    GST_OBJECT_UNLOCK (agg);
  }
  return gst_aggregator_finish_buffer (agg, buf);
}

static GstFlowReturn
pass_unpaired_dist (GstCudaCompare * self)
{
  GstBuffer *dist = gst_aggregator_pad_pop_buffer (self->dist_pad);

  self->counts.dist_frames++;
  self->counts.unpaired_dist++;
  self->unpaired_since_message++;
  GST_LOG_OBJECT (self, "distorted frame %" G_GUINT64_FORMAT " has no "
      "reference: passed on unscored", self->dist_index);
  return finish_dist (self, dist);
}

static void
drop_unpaired_ref (GstCudaCompare * self)
{
  GstBuffer *ref = gst_aggregator_pad_pop_buffer (self->ref_pad);

  self->counts.ref_frames++;
  self->counts.unpaired_ref++;
  self->unpaired_since_message++;
  GST_LOG_OBJECT (self, "reference %" GST_PTR_FORMAT " has no distorted "
      "frame", ref);
  gst_buffer_unref (ref);
}

static GstFlowReturn
compare_and_finish (GstCudaCompare * self)
{
  GstCudaCompareSettings s;
  GstBuffer *ref = gst_aggregator_pad_pop_buffer (self->ref_pad);
  GstBuffer *dist = gst_aggregator_pad_pop_buffer (self->dist_pad);
  guint64 frame = self->dist_index;
  CompareResult result;
  guint computed = 0;

  self->counts.ref_frames++;
  self->counts.dist_frames++;

  if (!self->layout_ok) {
    gchar *text = mismatch_text (self);

    if (!self->paired_once) {
      /* Before any pair: a negotiation error, not a stream of warnings. */
      if (!self->error_posted)
        GST_ELEMENT_ERROR (self, CORE, NEGOTIATION, ("%s", text), (NULL));
      self->error_posted = TRUE;
      g_free (text);
      gst_buffer_unref (ref);
      gst_buffer_unref (dist);
      return GST_FLOW_NOT_NEGOTIATED;
    }
    /* A caps change on one pad only: frames go on until both agree. */
    WARN_ONCE (self, STREAM, FORMAT, "%s; frames go on unscored until they "
        "match", text);
    g_free (text);
    self->counts.unscored++;
    gst_buffer_unref (ref);
    return finish_dist (self, dist);
  }

  self->paired_once = TRUE;
  get_settings (self, &s);
  g_free (s.stats_file);
  if (compare_pair (self, &s, ref, dist, &result, &computed)) {
    self->counts.pairs++;
    dist = gst_buffer_make_writable (dist);
    report_pair (self, &s, dist, frame, &result, computed);
  } else {
    self->counts.unscored++;
  }
  gst_buffer_unref (ref);
  return finish_dist (self, dist);
}

static GstFlowReturn
gst_cuda_compare_aggregate (GstAggregator * agg, gboolean timeout)
{
  GstCudaCompare *self = GST_CUDA_COMPARE (agg);
  GstBuffer *ref = gst_aggregator_pad_peek_buffer (self->ref_pad);
  GstBuffer *dist = gst_aggregator_pad_peek_buffer (self->dist_pad);
  GstFlowReturn ret = GST_FLOW_OK;

  GST_LOG_OBJECT (self, "aggregate: ref %" GST_PTR_FORMAT " dist %"
      GST_PTR_FORMAT " eos %d %d timeout %d", ref, dist,
      gst_aggregator_pad_is_eos (self->ref_pad),
      gst_aggregator_pad_is_eos (self->dist_pad), timeout);
  if (ref && dist) {
    GstClockTime rt_ref = running_time (self->ref_pad, ref);
    GstClockTime rt_dist = running_time (self->dist_pad, dist);
    GstClockTime tol = pairing_tolerance (self, dist);

    if (!GST_CLOCK_TIME_IS_VALID (rt_ref) || !GST_CLOCK_TIME_IS_VALID (rt_dist)
        || (rt_ref <= rt_dist + tol && rt_dist <= rt_ref + tol))
      ret = compare_and_finish (self);
    else if (rt_ref < rt_dist)
      drop_unpaired_ref (self);
    else
      ret = pass_unpaired_dist (self);
  } else if (dist) {
    /* The reference ended (or, live, is late past the deadline). */
    ret = pass_unpaired_dist (self);
  } else if (ref) {
    drop_unpaired_ref (self);
  } else if (gst_aggregator_pad_is_eos (self->ref_pad) &&
      gst_aggregator_pad_is_eos (self->dist_pad)) {
    post_summary (self);
    ret = GST_FLOW_EOS;
  }

  gst_clear_buffer (&ref);
  gst_clear_buffer (&dist);
  return ret;
}

static void
gst_cuda_compare_set_property (GObject * object, guint prop_id,
    const GValue * value, GParamSpec * pspec)
{
  GstCudaCompare *self = GST_CUDA_COMPARE (object);
  GstCudaCompareSettings *s = &self->settings;

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_METRICS:
      s->metrics = g_value_get_flags (value);
      break;
    case PROP_SSIM_MODE:
      s->ssim_mode = g_value_get_enum (value);
      break;
    case PROP_SSIM_DOWNSAMPLE:
      s->ssim_downsample = g_value_get_boolean (value);
      break;
    case PROP_BACKEND:
      s->backend = g_value_get_enum (value);
      break;
    case PROP_CUDA_DEVICE_ID:
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
    case PROP_STATS_FILE:
      g_free (s->stats_file);
      s->stats_file = g_value_dup_string (value);
      break;
    case PROP_STATS_FORMAT:
      s->stats_format = g_value_get_enum (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cuda_compare_get_property (GObject * object, guint prop_id,
    GValue * value, GParamSpec * pspec)
{
  GstCudaCompare *self = GST_CUDA_COMPARE (object);
  GstCudaCompareSettings *s = &self->settings;

  GST_OBJECT_LOCK (self);
  switch (prop_id) {
    case PROP_METRICS:
      g_value_set_flags (value, s->metrics);
      break;
    case PROP_SSIM_MODE:
      g_value_set_enum (value, s->ssim_mode);
      break;
    case PROP_SSIM_DOWNSAMPLE:
      g_value_set_boolean (value, s->ssim_downsample);
      break;
    case PROP_BACKEND:
      g_value_set_enum (value, s->backend);
      break;
    case PROP_CUDA_DEVICE_ID:
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
    case PROP_STATS_FILE:
      g_value_set_string (value, s->stats_file);
      break;
    case PROP_STATS_FORMAT:
      g_value_set_enum (value, s->stats_format);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
      break;
  }
  GST_OBJECT_UNLOCK (self);
}

static void
gst_cuda_compare_finalize (GObject * object)
{
  GstCudaCompare *self = GST_CUDA_COMPARE (object);

  sharpness_backend_free (SHARPNESS_BACKEND (self->cuda));
  sharpness_backend_free (SHARPNESS_BACKEND (self->cpu));
  g_free (self->settings.stats_file);
  gst_caps_replace (&self->dist_caps, NULL);
  sharpness_warn_once_clear (&self->warned);

  G_OBJECT_CLASS (parent_class)->finalize (object);
}

static void
install_properties (GObjectClass * gobject_class)
{
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_PLAYING;
  const GParamFlags ready = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_READY;

  g_object_class_install_property (gobject_class, PROP_METRICS,
      g_param_spec_flags ("metrics", "Metrics",
          "Metrics to compute (docs/compare.md); switching while playing "
          "takes effect on the next pair", GST_TYPE_COMPARE_METRICS,
          DEFAULT_METRICS, flags));
  g_object_class_install_property (gobject_class, PROP_SSIM_MODE,
      g_param_spec_enum ("ssim-mode", "SSIM mode",
          "ffmpeg: FFmpeg's ssim filter exactly; wang: Wang et al. 2004 "
          "(ssim.m, scikit-image's gaussian_weights SSIM)",
          GST_TYPE_COMPARE_SSIM_MODE, DEFAULT_SSIM_MODE, flags));
  g_object_class_install_property (gobject_class, PROP_SSIM_DOWNSAMPLE,
      g_param_spec_boolean ("ssim-downsample", "SSIM downsample",
          "In wang mode, ssim.m's automatic downsampling first (factor "
          "max (1, round (min (W, H) / 256)), as libvmaf's float_ssim)",
          DEFAULT_SSIM_DOWNSAMPLE, flags));
  g_object_class_install_property (gobject_class, PROP_BACKEND,
      g_param_spec_enum ("backend", "Backend",
          "Where to compute: auto uses CUDA when a device is usable and the "
          "CPU otherwise (posting one warning saying why; metrics too slow "
          "for the CPU, SSIM wang and MS-SSIM, are then left out); cuda "
          "makes the element fail to start without a usable device; cpu "
          "computes every metric on the CPU",
          GST_TYPE_SHARPNESS_BACKEND, DEFAULT_BACKEND, flags));
  g_object_class_install_property (gobject_class, PROP_CUDA_DEVICE_ID,
      g_param_spec_int ("cuda-device-id", "CUDA device ID",
          "CUDA device to use, -1 for any (a CUDA context shared by the "
          "pipeline wins); input CUDA memory of another context is read in "
          "place when it is on this device (or with -1), else copied "
          "through host memory; read when the element starts",
          -1, G_MAXINT, DEFAULT_DEVICE_ID, ready));
  g_object_class_install_property (gobject_class, PROP_PINNED_POOL,
      g_param_spec_boolean ("pinned-pool", "Pinned pool",
          "With the CUDA backend and system memory, offer upstream a buffer "
          "pool of pinned (page-locked) host memory, which the GPU reads "
          "faster", DEFAULT_PINNED_POOL, flags));
  g_object_class_install_property (gobject_class, PROP_POST_MESSAGES,
      g_param_spec_boolean ("post-messages", "Post messages",
          "Post 'compare' element messages (per pair, or per interval) and "
          "a 'compare-summary' message at EOS",
          DEFAULT_POST_MESSAGES, flags));
  g_object_class_install_property (gobject_class, PROP_INTERVAL,
      g_param_spec_uint64 ("interval", "Interval",
          "0: one message per pair; else one per this much stream time "
          "(ns), carrying the means over its pairs",
          0, G_MAXUINT64, DEFAULT_INTERVAL, flags));
  g_object_class_install_property (gobject_class, PROP_STATS_FILE,
      g_param_spec_string ("stats-file", "Stats file",
          "Write per-pair values to this file (stats-format), opened when "
          "the element starts", NULL, ready));
  g_object_class_install_property (gobject_class, PROP_STATS_FORMAT,
      g_param_spec_enum ("stats-format", "Stats format",
          "Format of stats-file: FFmpeg's psnr or ssim stats_file lines "
          "(identical to what its filters write for the same frames), CSV "
          "or JSON", GST_TYPE_COMPARE_STATS_FORMAT, DEFAULT_STATS_FORMAT,
          ready));
}

static void
gst_cuda_compare_class_init (GstCudaCompareClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstElementClass *element_class = GST_ELEMENT_CLASS (klass);
  GstAggregatorClass *agg_class = GST_AGGREGATOR_CLASS (klass);

  gobject_class->set_property = gst_cuda_compare_set_property;
  gobject_class->get_property = gst_cuda_compare_get_property;
  gobject_class->finalize = gst_cuda_compare_finalize;
  install_properties (gobject_class);

  gst_element_class_add_static_pad_template_with_gtype (element_class,
      &ref_template, GST_TYPE_AGGREGATOR_PAD);
  gst_element_class_add_static_pad_template_with_gtype (element_class,
      &dist_template, GST_TYPE_AGGREGATOR_PAD);
  gst_element_class_add_static_pad_template_with_gtype (element_class,
      &src_template, GST_TYPE_AGGREGATOR_PAD);
  gst_element_class_set_static_metadata (element_class,
      "CUDA full-reference video comparison", "Filter/Analyzer/Video",
      "Compares distorted frames with their reference (PSNR, SSIM, MS-SSIM "
      "as FFmpeg and Wang define them) on a CUDA device or the CPU, passes "
      "the distorted frames on with GstCompareMeta and posts messages",
      "The gst-sharpness authors");
  element_class->set_context = GST_DEBUG_FUNCPTR (gst_cuda_compare_set_context);

  agg_class->start = GST_DEBUG_FUNCPTR (gst_cuda_compare_start);
  agg_class->stop = GST_DEBUG_FUNCPTR (gst_cuda_compare_stop);
  agg_class->aggregate = GST_DEBUG_FUNCPTR (gst_cuda_compare_aggregate);
  agg_class->sink_event = GST_DEBUG_FUNCPTR (gst_cuda_compare_sink_event);
  agg_class->sink_query = GST_DEBUG_FUNCPTR (gst_cuda_compare_sink_query);
  agg_class->src_query = GST_DEBUG_FUNCPTR (gst_cuda_compare_src_query);
  agg_class->update_src_caps =
      GST_DEBUG_FUNCPTR (gst_cuda_compare_update_src_caps);
  agg_class->propose_allocation =
      GST_DEBUG_FUNCPTR (gst_cuda_compare_propose_allocation);
  agg_class->get_next_time = gst_aggregator_simple_get_next_time;

  gst_type_mark_as_plugin_api (GST_TYPE_COMPARE_METRICS, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_COMPARE_SSIM_MODE, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_SHARPNESS_BACKEND, 0);
  gst_type_mark_as_plugin_api (GST_TYPE_COMPARE_STATS_FORMAT, 0);
}

static void
gst_cuda_compare_init (GstCudaCompare * self)
{
  GstElement *element = GST_ELEMENT (self);
  GstPadTemplate *templ;

  self->settings = (GstCudaCompareSettings) {
    .metrics = DEFAULT_METRICS,
    .ssim_mode = DEFAULT_SSIM_MODE,
    .ssim_downsample = DEFAULT_SSIM_DOWNSAMPLE,
    .backend = DEFAULT_BACKEND,
    .device_id = DEFAULT_DEVICE_ID,
    .pinned_pool = DEFAULT_PINNED_POOL,
    .post_messages = DEFAULT_POST_MESSAGES,
    .interval = DEFAULT_INTERVAL,
    .stats_file = NULL,
    .stats_format = DEFAULT_STATS_FORMAT,
  };
  sharpness_warn_once_init (&self->warned, GST_OBJECT (self));

  templ = gst_element_class_get_pad_template (GST_ELEMENT_GET_CLASS (self),
      "ref_sink");
  self->ref_pad = g_object_new (GST_TYPE_AGGREGATOR_PAD, "name", "ref_sink",
      "direction", GST_PAD_SINK, "template", templ, NULL);
  gst_element_add_pad (element, GST_PAD (self->ref_pad));
  templ = gst_element_class_get_pad_template (GST_ELEMENT_GET_CLASS (self),
      "dist_sink");
  self->dist_pad = g_object_new (GST_TYPE_AGGREGATOR_PAD, "name", "dist_sink",
      "direction", GST_PAD_SINK, "template", templ, NULL);
  gst_element_add_pad (element, GST_PAD (self->dist_pad));

  self->cpu = compare_backend_new_cpu (element);
  if (!sharpness_backend_choice_cuda_unavailable ())
    self->cuda = compare_backend_new_cuda (element);
  sharpness_backend_choice_init (&self->choice, element, GST_CAT_DEFAULT,
      &self->warned, SHARPNESS_BACKEND (self->cuda), "compare", "comparing");
}
