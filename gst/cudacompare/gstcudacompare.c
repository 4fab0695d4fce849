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
 * a CUDA device or on the CPU; VMAF exactly as libvmaf 3.0.0, on the CPU
 * for both backends for now (the CUDA backend downloads the luma).  The
 * distorted frames leave on `src` unchanged, with a "GstCompareMeta"
 * custom meta (compare-meta.h), and optionally a stats file in FFmpeg's
 * stats_file formats, CSV, JSON or libvmaf's logs.
 * Reference: docs/reference/cudacompare.md.
 *
 * The element posts these element messages:
 *
 * `compare`, per pair (or per `interval`):
 * - `timestamp`, `stream-time`, `running-time`, `duration`
 *   (G_TYPE_UINT64): of the distorted frame
 * - `frame` (G_TYPE_UINT64): index of the distorted frame since start
 * - the pair's values (G_TYPE_DOUBLE), of the metrics computed:
 *   `psnr-<plane>`, `psnr-avg`, `mse-<plane>`, `mse-avg` (psnr);
 *   `ssim-<plane>`, `ssim-all`, `ssim-db` (ssim); `ms-ssim` (ms-ssim);
 *   <plane> is y, u, v (YUV), r, g, b (RGB) or y (gray)
 * - with `interval` only, the values are the means over the interval, and
 *   `frames`, `unpaired` (G_TYPE_UINT64) count its pairs and unpaired
 *   frames
 *
 * `compare-vmaf`, with metrics=vmaf, per frame (or per `interval`), ONE
 * FRAME LATE: libvmaf's motion2 of frame n needs frame n + 1, so frame n's
 * VMAF is posted when the pair n + 1 is compared, and the last frame's at
 * EOS, at a flush or when the frames' format or size changes (the end of
 * a libvmaf sequence).  No frame is held for it:
 * - `timestamp`, `stream-time`, `running-time`, `duration`, `frame`
 *   (G_TYPE_UINT64): of frame n
 * - `vmaf` (G_TYPE_DOUBLE): the score of `vmaf-model`
 * - libvmaf's features (G_TYPE_DOUBLE), named as it prints them:
 *   `integer_adm2`, `integer_adm_scale0`..`3`, `integer_motion2`,
 *   `integer_motion`, `integer_vif_scale0`..`3` (for a model with other
 *   gain limits, as vmaf_v0.6.1neg, libvmaf adds `_egl_1` in its logs;
 *   the messages keep these names)
 * - with `interval` only, the means over the interval and `frames`
 *
 * `compare-summary`, at EOS:
 * - `frames`, `pairs`, `ref-frames`, `dist-frames`, `unpaired-ref`,
 *   `unpaired-dist`, `unscored` (G_TYPE_UINT64)
 * - for each value V: `V-mean`, `V-min`, `V-max` (G_TYPE_DOUBLE),
 *   `V-min-frame`, `V-max-frame` (G_TYPE_UINT64)
 * - with metrics=vmaf: `vmaf-model` (G_TYPE_STRING), `vmaf-harmonic-mean`
 *   (libvmaf's) and, unless vmaf-percentiles=false, the percentiles
 *   `vmaf-p1`, `-p5`, `-p10`, `-p25`, `-p50`, `-p75`, `-p95`, `-p99`
 *   (G_TYPE_DOUBLE, interpolated as numpy.percentile)
 * - FFmpeg's end-of-stream lines: `ffmpeg-psnr-<plane>`,
 *   `ffmpeg-psnr-average`, `ffmpeg-psnr-min`, `ffmpeg-psnr-max`,
 *   `ffmpeg-ssim-<plane>`, `ffmpeg-ssim-<plane>-db`, `ffmpeg-ssim-all`,
 *   `ffmpeg-ssim-all-db` (G_TYPE_DOUBLE)
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
#include "compare-message.h"
#include "compare-meta.h"
#include "compare-report.h"
#include "compare-vmaf.h"
#include "sharpness-element.h"
#include "sharpness-formats.h"

GST_DEBUG_CATEGORY_STATIC (gst_cuda_compare_debug);
#define GST_CAT_DEFAULT gst_cuda_compare_debug

typedef enum
{
  GST_COMPARE_SSIM_FFMPEG,
  GST_COMPARE_SSIM_WANG
} GstCompareSsimMode;

#define DEFAULT_METRICS (COMPARE_METRIC_PSNR | COMPARE_METRIC_SSIM)
#define DEFAULT_SSIM_MODE GST_COMPARE_SSIM_FFMPEG
#define DEFAULT_SSIM_DOWNSAMPLE FALSE
#define DEFAULT_STATS_FORMAT COMPARE_STATS_CSV
#define DEFAULT_VMAF_MODEL COMPARE_VMAF_DEFAULT_MODEL
#define DEFAULT_VMAF_ENABLE_TRANSFORM FALSE
#define DEFAULT_VMAF_DISABLE_CLIP FALSE
#define DEFAULT_VMAF_PERCENTILES TRUE

enum
{
  PROP_0,
  PROP_METRICS,
  PROP_SSIM_MODE,
  PROP_SSIM_DOWNSAMPLE,
  PROP_STATS_FILE,
  PROP_STATS_FORMAT,
  PROP_VMAF_MODEL,
  PROP_VMAF_ENABLE_TRANSFORM,
  PROP_VMAF_DISABLE_CLIP,
  PROP_VMAF_PERCENTILES,
  PROP_COMMON                   /* SHARPNESS_ELEMENT_N_PROPS from here */
};

typedef struct
{
  guint metrics;
  GstCompareSsimMode ssim_mode;
  gboolean ssim_downsample;
  gchar *stats_file;            /* owned by the element's copy only */
  CompareStatsFormat stats_format;
  gchar *vmaf_model;            /* owned by the element's copy only */
  gboolean vmaf_enable_transform, vmaf_disable_clip, vmaf_percentiles;
} GstCudaCompareSettings;

struct _GstCudaCompare
{
  GstAggregator parent;

  GstAggregatorPad *ref_pad, *dist_pad;

  SharpnessElement base;        /* common properties, backends, warnings */
  GstCudaCompareSettings settings;      /* object lock */

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
  CompareCounts counts;
  guint64 dist_index;           /* distorted frames output */
  CompareReport report;         /* statistics, interval, stats file */
  GstClockTime first_unpaired;  /* PTS of the first unpaired frame */
  gboolean summary_posted;

  /* VMAF (metrics=vmaf): the sequence and its pools, made at start (or at
   * the first pair when metrics gains vmaf while playing). */
  CompareVmafStage *vmaf;
  gboolean vmaf_failed;         /* the model did not load: no retry */
  gboolean vmaf_log_written;
  gint64 vmaf_start_us;         /* the first VMAF pair: the log's fps */
  CompareStats vmaf_interval_stats;
  SharpnessInterval vmaf_interval;
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
  static GFlagsValue values[COMPARE_N_METRICS + 2];

  if (g_once_init_enter (&type)) {
    for (gint m = 0; m < COMPARE_N_METRICS; m++) {
      values[m].value = 1 << compare_metric_info[m].id;
      values[m].value_name = compare_metric_info[m].description;
      values[m].value_nick = compare_metric_info[m].nick;
    }
    /* VMAF: a sequence, not a pair, so not a row of the pair metrics'
     * table (compare-vmaf.h). */
    values[COMPARE_N_METRICS].value = COMPARE_METRIC_VMAF;
    values[COMPARE_N_METRICS].value_name = "VMAF and its features, as "
        "libvmaf 3.0.0 (vmaf-model; computed on the CPU on either backend)";
    values[COMPARE_N_METRICS].value_nick = "vmaf";
    g_once_init_leave (&type, g_flags_register_static ("GstCompareMetrics",
            values));
  }
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
    {COMPARE_STATS_VMAF_JSON, "libvmaf's vmaf --json log (needs "
          "metrics=vmaf)", "vmaf-json"},
    {COMPARE_STATS_VMAF_XML, "libvmaf's vmaf --xml log (needs metrics=vmaf)",
        "vmaf-xml"},
    {COMPARE_STATS_VMAF_CSV, "libvmaf's vmaf --csv log (needs metrics=vmaf)",
        "vmaf-csv"},
    {0, NULL, NULL}
  };

  if (g_once_init_enter (&type))
    g_once_init_leave (&type,
        g_enum_register_static ("GstCompareStatsFormat", values));
  return type;
}

/* A copy of the settings; free its stats_file. */
static void
get_settings (GstCudaCompare * self, GstCudaCompareSettings * s,
    SharpnessElementSettings * common)
{
  GST_OBJECT_LOCK (self);
  *s = self->settings;
  s->stats_file = g_strdup (self->settings.stats_file);
  s->vmaf_model = g_strdup (self->settings.vmaf_model);
  *common = self->base.settings;
  GST_OBJECT_UNLOCK (self);
}

static void
settings_clear (GstCudaCompareSettings * s)
{
  g_free (s->stats_file);
  g_free (s->vmaf_model);
}

#define WARN_ONCE(self, domain, code, ...) \
  SHARPNESS_ELEMENT_WARN_ONCE (&(self)->base, domain, code, __VA_ARGS__)

/* The VMAF stage of @s's model: FALSE with @error when it does not load. */
static gboolean
make_vmaf_stage (GstCudaCompare * self, const GstCudaCompareSettings * s,
    GError ** error)
{
  guint flags = (s->vmaf_enable_transform ?
      COMPARE_VMAF_MODEL_ENABLE_TRANSFORM : 0) | (s->vmaf_disable_clip ?
      COMPARE_VMAF_MODEL_DISABLE_CLIP : 0);

  self->vmaf = compare_vmaf_stage_new (s->vmaf_model, flags,
      s->vmaf_percentiles, COMPARE_STATS_FORMAT_IS_VMAF (s->stats_format),
      error);
  self->vmaf_failed = self->vmaf == NULL;
  return self->vmaf != NULL;
}

/* A completed frame's VMAF: the statistics, the meta of @buffer (frame
 * @frame, the one after it; NULL at the end of a sequence), and its
 * message (or the interval's means). */
static void
report_vmaf (GstCudaCompare * self, const SharpnessElementSettings * common,
    GstBuffer * buffer, guint64 frame, const CompareVmafScored * v)
{
  CompareValues means;

  compare_stats_add_values (&self->report.total, &v->values, v->frame);
  if (buffer)
    compare_meta_set_vmaf (buffer, frame, v->frame, &v->values);
  if (!common->post_messages)
    return;
  if (common->interval == 0) {
    gst_element_post_message (GST_ELEMENT (self),
        compare_vmaf_message_new (GST_OBJECT (self), &v->times, v->frame,
            &v->values, 0));
    return;
  }
  compare_stats_add (&self->vmaf_interval_stats, &v->values, v->frame);
  if (!sharpness_interval_add (&self->vmaf_interval, v->times.duration,
          common->interval))
    return;
  compare_stats_means (&self->vmaf_interval_stats, &means);
  gst_element_post_message (GST_ELEMENT (self),
      compare_vmaf_message_new (GST_OBJECT (self), &v->times, v->frame,
          &means, self->vmaf_interval_stats.pairs));
  compare_stats_reset (&self->vmaf_interval_stats);
}

/* EOS, a flush, new caps: libvmaf's end of a sequence, the last frame's
 * VMAF reported (its motion2 its own motion). */
static void
end_vmaf_sequence (GstCudaCompare * self, gboolean post)
{
  SharpnessElementSettings common;
  CompareVmafScored v;

  if (!self->vmaf || !compare_vmaf_stage_end (self->vmaf, &v) || !post)
    return;
  sharpness_element_get_settings (&self->base, &common);
  report_vmaf (self, &common, NULL, 0, &v);
}

/* stats-format=vmaf-*: the log of every completed frame, once (EOS, else
 * stop), with libvmaf's "fps": frames over the seconds since the first. */
static void
write_vmaf_log (GstCudaCompare * self)
{
  CompareStatsFile *file = &self->report.stats_file;
  static const CompareVmafLogFormat formats[] = {
    [COMPARE_STATS_VMAF_JSON - COMPARE_STATS_VMAF_JSON] = COMPARE_VMAF_LOG_JSON,
    [COMPARE_STATS_VMAF_XML - COMPARE_STATS_VMAF_JSON] = COMPARE_VMAF_LOG_XML,
    [COMPARE_STATS_VMAF_CSV - COMPARE_STATS_VMAF_JSON] = COMPARE_VMAF_LOG_CSV,
  };
  gdouble seconds, fps;

  if (!self->vmaf || !file->f || !COMPARE_STATS_FORMAT_IS_VMAF (file->format)
      || self->vmaf_log_written)
    return;
  self->vmaf_log_written = TRUE;
  seconds = (g_get_monotonic_time () - self->vmaf_start_us) / 1e6;
  fps = seconds > 0 ? compare_vmaf_stage_frames (self->vmaf) / seconds : 0.0;
  if (compare_vmaf_stage_write_log (self->vmaf, file->f,
          formats[file->format - COMPARE_STATS_VMAF_JSON], fps) !=
      SHARPNESS_OK)
    GST_ELEMENT_WARNING (self, RESOURCE, WRITE,
        ("Could not write the VMAF log completely"), (NULL));
}

static void
release_streaming_state (GstCudaCompare * self)
{
  sharpness_element_stop (&self->base);
  /* Stopped without EOS: the log still has every frame completed. */
  end_vmaf_sequence (self, FALSE);
  write_vmaf_log (self);
  g_clear_pointer (&self->vmaf, compare_vmaf_stage_free);
  if (!compare_stats_file_close (&self->report.stats_file))
    GST_ELEMENT_WARNING (self, RESOURCE, WRITE,
        ("Could not write the stats file completely"), (NULL));
  gst_caps_replace (&self->dist_caps, NULL);
}

static gboolean
gst_cuda_compare_start (GstAggregator * agg)
{
  GstCudaCompare *self = GST_CUDA_COMPARE (agg);
  GstCudaCompareSettings s;
  SharpnessElementSettings common;
  GError *err = NULL;

  get_settings (self, &s, &common);

  gst_video_info_init (&self->ref_info);
  gst_video_info_init (&self->dist_info);
  self->have_ref_info = self->have_dist_info = FALSE;
  self->layout_ok = self->paired_once = self->error_posted = FALSE;
  self->dist_cuda_memory = self->ref_cuda_memory = FALSE;
  memset (&self->counts, 0, sizeof (self->counts));
  self->dist_index = 0;
  self->first_unpaired = GST_CLOCK_TIME_NONE;
  compare_report_reset (&self->report);
  self->summary_posted = FALSE;
  self->vmaf_failed = self->vmaf_log_written = FALSE;
  self->vmaf_start_us = 0;
  compare_stats_reset (&self->vmaf_interval_stats);
  sharpness_interval_reset (&self->vmaf_interval);

  /* A model that does not load fails the start, naming it and why. */
  if ((s.metrics & COMPARE_METRIC_VMAF) && !make_vmaf_stage (self, &s,
          &err)) {
    if (err->code == GST_RESOURCE_ERROR_NOT_FOUND)
      GST_ELEMENT_ERROR (self, RESOURCE, NOT_FOUND, ("%s", err->message),
          (NULL));
    else
      GST_ELEMENT_ERROR (self, RESOURCE, SETTINGS, ("%s", err->message),
          (NULL));
    g_clear_error (&err);
    settings_clear (&s);
    return FALSE;
  }

  if (!sharpness_element_start (&self->base)) {
    g_clear_pointer (&self->vmaf, compare_vmaf_stage_free);
    settings_clear (&s);
    return FALSE;
  }

  if (s.stats_file && *s.stats_file) {
    if (!compare_stats_file_open (&self->report.stats_file, s.stats_file,
            s.stats_format, &err)) {
      GST_ELEMENT_ERROR (self, RESOURCE, OPEN_WRITE, ("%s", err->message),
          (NULL));
      g_clear_error (&err);
      settings_clear (&s);
      release_streaming_state (self);
      return FALSE;
    }
    if ((s.stats_format == COMPARE_STATS_FFMPEG_PSNR &&
            !(s.metrics & COMPARE_METRIC_PSNR)) ||
        (s.stats_format == COMPARE_STATS_FFMPEG_SSIM &&
            !(s.metrics & COMPARE_METRIC_SSIM)) ||
        (COMPARE_STATS_FORMAT_IS_VMAF (s.stats_format) &&
            !(s.metrics & COMPARE_METRIC_VMAF)))
      WARN_ONCE (self, RESOURCE, SETTINGS, "stats-format=%s needs the "
          "metric in `metrics`: the stats file stays empty",
          g_enum_get_value (g_type_class_peek (GST_TYPE_COMPARE_STATS_FORMAT),
              s.stats_format)->value_nick);
  }
  settings_clear (&s);
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

/* Frames of the same format and size (a new frame rate is no new
 * sequence). */
static gboolean
same_frames (const GstVideoInfo * a, const GstVideoInfo * b)
{
  return GST_VIDEO_INFO_FORMAT (a) == GST_VIDEO_INFO_FORMAT (b) &&
      GST_VIDEO_INFO_WIDTH (a) == GST_VIDEO_INFO_WIDTH (b) &&
      GST_VIDEO_INFO_HEIGHT (a) == GST_VIDEO_INFO_HEIGHT (b);
}

/* A flush (a flushing seek): the VMAF sequence ends, its last frame's
 * values posted; the frames after start a new one. */
static GstFlowReturn
gst_cuda_compare_flush (GstAggregator * agg)
{
  end_vmaf_sequence (GST_CUDA_COMPARE (agg), TRUE);
  return GST_FLOW_OK;
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
      gboolean cuda;

      gst_event_parse_caps (event, &caps);
      if (!gst_video_info_from_caps (&info, caps)) {
        GST_ELEMENT_ERROR (self, STREAM, FORMAT, ("%s: invalid video caps "
                "%" GST_PTR_FORMAT, pad_role (self, pad), caps), (NULL));
        gst_event_unref (event);
        return FALSE;
      }
      cuda = sharpness_caps_are_cuda (caps);
      /* Other frames: the VMAF sequence ends there, as libvmaf's would. */
      if (!same_frames (pad == self->ref_pad ? &self->ref_info :
              &self->dist_info, &info))
        end_vmaf_sequence (self, TRUE);
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
  if (sharpness_element_query (&GST_CUDA_COMPARE (agg)->base, query))
    return TRUE;
  return GST_AGGREGATOR_CLASS (parent_class)->sink_query (agg, pad, query);
}

static gboolean
gst_cuda_compare_src_query (GstAggregator * agg, GstQuery * query)
{
  if (sharpness_element_query (&GST_CUDA_COMPARE (agg)->base, query))
    return TRUE;
  return GST_AGGREGATOR_CLASS (parent_class)->src_query (agg, query);
}

static gboolean
gst_cuda_compare_propose_allocation (GstAggregator * agg,
    GstAggregatorPad * pad, GstQuery * decide_query, GstQuery * query)
{
  GstCudaCompare *self = GST_CUDA_COMPARE (agg);

  /* Pinned host memory is plain system memory for downstream too (the
   * distorted frames leave as they came). */
  sharpness_element_propose_allocation (&self->base, query);
  /* The reference frames end here: any stride is fine.  The distorted
   * ones go downstream, which was not asked. */
  if (pad == self->ref_pad)
    gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);
  return TRUE;
}

static void
gst_cuda_compare_set_context (GstElement * element, GstContext * context)
{
  sharpness_element_set_context (&GST_CUDA_COMPARE (element)->base, context);
  GST_ELEMENT_CLASS (parent_class)->set_context (element, context);
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

/* One pair's backend call. */
typedef struct
{
  GstCudaCompare *self;
  GstBuffer *ref, *dist;
  CompareRequest req;           /* the pair metrics */
  CompareResult *result;
  /* VMAF: asked, its frame's index and times, its outcome. */
  gboolean vmaf;
  guint64 frame;
  const SharpnessTimes *times;
  gboolean vmaf_scored;         /* the luma pair was pushed */
  SharpnessStatus vmaf_status;
  gboolean vmaf_done;           /* the frame before completed: */
  CompareVmafScored *vmaf_out;
} PairJob;

/* The luma pair in host memory, from either backend: pushed into the
 * sequence (the CPU VMAF of cpu/compare). */
static void
push_vmaf (const ComparePair * luma, gpointer data)
{
  PairJob *j = data;

  j->vmaf_scored = TRUE;
  j->vmaf_status = compare_vmaf_stage_push (j->self->vmaf, luma, j->frame,
      j->times, j->vmaf_out, &j->vmaf_done);
}

static gboolean
run_pair_job (SharpnessBackend * backend, gpointer data, GError ** error)
{
  PairJob *j = data;
  GstCudaCompare *self = j->self;

  if (j->req.metrics && !compare_backend_compare ((CompareBackend *) backend,
          &self->layout, j->ref, &self->ref_info, j->dist, &self->dist_info,
          &j->req, j->result, error))
    return FALSE;
  return !j->vmaf || compare_backend_read_luma ((CompareBackend *) backend,
      &self->layout, j->ref, &self->ref_info, j->dist, &self->dist_info,
      push_vmaf, j, error);
}

/* A fallback may never make a frame late: the metrics the CPU computes
 * far slower than a live stream needs are left out (backend=cpu skips
 * this). */
static gboolean
cpu_keeps_up (gpointer data, gpointer user_data)
{
  PairJob *j = data;
  guint heavy = compare_metrics_heavy_on_cpu (j->req.metrics, j->req.wang);
  GString *names;
  gint n = 0;

  if (!heavy)
    return TRUE;
  names = g_string_new (NULL);
  for (gint m = 0; m < COMPARE_N_METRICS; m++) {
    const CompareMetricInfo *mi = &compare_metric_info[m];

    if (!(heavy & (1 << m)))
      continue;
    g_string_append_printf (names, "%s%s%s", n++ ? " and " : "", mi->display,
        mi->cpu_ffmpeg == SHARPNESS_CPU_LIVE ? " (wang mode)" : "");
  }
  WARN_ONCE (j->self, RESOURCE, FAILED, "%s %s too slow on the CPU to keep "
      "up with the stream and no CUDA device computes %s: left out (set "
      "backend=cpu to compute every metric on the CPU)", names->str,
      n > 1 ? "are" : "is", n > 1 ? "them" : "it");
  g_string_free (names, TRUE);
  j->req.metrics &= ~heavy;
  return j->req.metrics != 0 || j->vmaf;
}

/* Whether this pair gets a VMAF: asked, the model loaded (made here when
 * metrics gained vmaf while playing), frames with a luma. */
static gboolean
vmaf_wanted (GstCudaCompare * self, const GstCudaCompareSettings * s)
{
  GError *err = NULL;

  if (!(s->metrics & COMPARE_METRIC_VMAF) || self->vmaf_failed)
    return FALSE;
  if (self->layout.rgb) {
    WARN_ONCE (self, STREAM, FORMAT, "VMAF is defined on the luma of YUV "
        "(or gray) frames, these are %s: VMAF left out",
        gst_video_format_to_string (self->layout.format));
    return FALSE;
  }
  if (!self->vmaf && !make_vmaf_stage (self, s, &err)) {
    WARN_ONCE (self, RESOURCE, SETTINGS, "%s: VMAF left out", err->message);
    g_clear_error (&err);
    return FALSE;
  }
  if (!self->vmaf_start_us)
    self->vmaf_start_us = g_get_monotonic_time ();
  return TRUE;
}

/* Computes the pair's metrics: GPU, else (as the fallback rules allow) the
 * CPU; VMAF's luma read by the same backend.  The flags of the metrics
 * computed (COMPARE_METRIC_VMAF: the pair entered the VMAF sequence), 0
 * when none was; *@vmaf_done with the frame before's VMAF in @vmaf_out. */
static guint
compare_pair (GstCudaCompare * self, const GstCudaCompareSettings * s,
    const SharpnessElementSettings * common, GstBuffer * ref,
    GstBuffer * dist, guint64 frame, const SharpnessTimes * times,
    CompareResult * result, CompareVmafScored * vmaf_out,
    gboolean * vmaf_done)
{
  PairJob job = {
    .self = self,.ref = ref,.dist = dist,.result = result,
    .req = {
          .metrics = s->metrics & ~COMPARE_METRIC_VMAF,
          .wang = s->ssim_mode == GST_COMPARE_SSIM_WANG,
        .downsample = s->ssim_downsample},
    .vmaf = vmaf_wanted (self, s),
    .frame = frame,.times = times,.vmaf_out = vmaf_out,
  };
  guint computed = 0;

  *vmaf_done = FALSE;
  for (gint m = 0; m < COMPARE_N_METRICS; m++)
    result->status[m] = SHARPNESS_ERROR_UNSUPPORTED;
  if (!sharpness_element_run (&self->base, common, run_pair_job,
          cpu_keeps_up, self, &job, NULL)) {
    /* The luma may have been pushed before the backend failed. */
    *vmaf_done = job.vmaf_scored && job.vmaf_done;
    return 0;
  }
  /* A new size ends the sequence even when its first frame is refused. */
  *vmaf_done = job.vmaf_scored && job.vmaf_done;
  if (job.vmaf_scored && job.vmaf_status == SHARPNESS_OK) {
    computed |= COMPARE_METRIC_VMAF;
  } else if (job.vmaf_scored) {
    WARN_ONCE (self, STREAM, FAILED, "VMAF refused the frames (%s): left "
        "out", sharpness_status_to_string (job.vmaf_status));
  }
  for (gint m = 0; m < COMPARE_N_METRICS; m++) {
    if (!(job.req.metrics & (1 << m)))
      continue;
    if (result->status[m] == SHARPNESS_OK)
      computed |= 1 << m;
    else
      WARN_ONCE (self, STREAM, FAILED, "%s refused the frames (%s): "
          "left out", compare_metric_info[m].display,
          sharpness_status_to_string (result->status[m]));
  }
  return computed;
}

/* Meta, statistics, stats file and messages of a compared pair. */
static void
report_pair (GstCudaCompare * self, const SharpnessElementSettings * common,
    GstBuffer * dist, guint64 frame, CompareResult * r, guint computed)
{
  GstAggregatorPad *pad = self->dist_pad;
  SharpnessTimes times;
  GstMessage *msg;

  if (common->post_messages) {
    GST_OBJECT_LOCK (pad);
    sharpness_times_set (&times, dist, &pad->segment, &self->dist_info);
    GST_OBJECT_UNLOCK (pad);
  }
  msg = compare_report_pair (&self->report, GST_OBJECT (self), &self->layout,
      &self->layout_pair, dist, self->counts.pairs, frame, r, computed,
      common->post_messages ? &times : NULL, common->interval);
  if (msg)
    gst_element_post_message (GST_ELEMENT (self), msg);
}

static void
post_summary (GstCudaCompare * self)
{
  SharpnessElementSettings common;
  const CompareCounts *c = &self->counts;
  GstMessage *msg;

  if (self->summary_posted)
    return;
  self->summary_posted = TRUE;
  sharpness_element_get_settings (&self->base, &common);

  if (c->ref_frames != c->dist_frames)
    GST_ELEMENT_WARNING (self, STREAM, FAILED, ("The inputs have different "
            "frame counts: ref_sink %" G_GUINT64_FORMAT ", dist_sink %"
            G_GUINT64_FORMAT " (%" G_GUINT64_FORMAT " pairs compared)",
            c->ref_frames, c->dist_frames, c->pairs), (NULL));
  else if (c->unpaired_ref || c->unpaired_dist)
    /* Equal counts hide a timestamp gap on one branch. */
    GST_ELEMENT_WARNING (self, STREAM, FAILED, ("%" G_GUINT64_FORMAT
            " reference and %" G_GUINT64_FORMAT " distorted frames had no "
            "frame of the same running time on the other pad, the first at "
            "%" GST_TIME_FORMAT ": they were not compared (%" G_GUINT64_FORMAT
            " pairs compared)", c->unpaired_ref, c->unpaired_dist,
            GST_TIME_ARGS (self->first_unpaired), c->pairs), (NULL));
  if (!common.post_messages)
    return;
  msg = compare_summary_new (GST_OBJECT (self), c, &self->report.total,
      &self->report.psnr_summary, &self->layout,
      self->report.psnr_summary.n_frames ? &self->layout_pair : NULL);
  if (self->vmaf)
    compare_vmaf_stage_summary (self->vmaf,
        gst_message_writable_structure (msg));
  gst_element_post_message (GST_ELEMENT (self), msg);
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

/* Running time of @buf on @pad, or NONE. */
static GstClockTime
running_time (GstAggregatorPad * pad, GstBuffer * buf)
{
  GstClockTime pts = GST_BUFFER_PTS (buf);

  if (!GST_CLOCK_TIME_IS_VALID (pts) || pad->segment.format != GST_FORMAT_TIME)
    return GST_CLOCK_TIME_NONE;
  return gst_segment_to_running_time (&pad->segment, GST_FORMAT_TIME, pts);
}

/* Keeps the running time of the first frame without a partner. */
static void
note_unpaired (GstCudaCompare * self, GstAggregatorPad * pad, GstBuffer * buf)
{
  if (!GST_CLOCK_TIME_IS_VALID (self->first_unpaired))
    self->first_unpaired = running_time (pad, buf);
}

static GstFlowReturn
pass_unpaired_dist (GstCudaCompare * self)
{
  GstBuffer *dist = gst_aggregator_pad_pop_buffer (self->dist_pad);

  self->counts.dist_frames++;
  self->counts.unpaired_dist++;
  self->report.unpaired_since_message++;
  note_unpaired (self, self->dist_pad, dist);
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
  self->report.unpaired_since_message++;
  note_unpaired (self, self->ref_pad, ref);
  GST_LOG_OBJECT (self, "reference %" GST_PTR_FORMAT " has no distorted "
      "frame", ref);
  gst_buffer_unref (ref);
}

static GstFlowReturn
compare_and_finish (GstCudaCompare * self)
{
  GstCudaCompareSettings s;
  SharpnessElementSettings common;
  GstBuffer *ref = gst_aggregator_pad_pop_buffer (self->ref_pad);
  GstBuffer *dist = gst_aggregator_pad_pop_buffer (self->dist_pad);
  guint64 frame = self->dist_index;
  CompareResult result;
  guint computed;
  SharpnessTimes times;
  CompareVmafScored vmaf;
  gboolean vmaf_done;

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
  get_settings (self, &s, &common);
  /* VMAF's frame n is reported at frame n + 1: its times are kept. */
  GST_OBJECT_LOCK (self->dist_pad);
  sharpness_times_set (&times, dist, &self->dist_pad->segment,
      &self->dist_info);
  GST_OBJECT_UNLOCK (self->dist_pad);
  computed = compare_pair (self, &s, &common, ref, dist, frame, &times,
      &result, &vmaf, &vmaf_done);
  settings_clear (&s);
  if (computed || vmaf_done)
    dist = gst_buffer_make_writable (dist);
  if (computed) {
    self->counts.pairs++;
    /* The `compare` message is the pair metrics' (none with vmaf alone). */
    if (computed & ~COMPARE_METRIC_VMAF)
      report_pair (self, &common, dist, frame, &result, computed);
  } else {
    self->counts.unscored++;
  }
  if (vmaf_done)
    report_vmaf (self, &common, dist, frame, &vmaf);
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
    /* The last frame's VMAF, before the summary and the log. */
    if (!self->summary_posted)
      end_vmaf_sequence (self, TRUE);
    write_vmaf_log (self);
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
    case PROP_STATS_FILE:
      g_free (s->stats_file);
      s->stats_file = g_value_dup_string (value);
      break;
    case PROP_STATS_FORMAT:
      s->stats_format = g_value_get_enum (value);
      break;
    case PROP_VMAF_MODEL:
      g_free (s->vmaf_model);
      s->vmaf_model = g_value_dup_string (value);
      break;
    case PROP_VMAF_ENABLE_TRANSFORM:
      s->vmaf_enable_transform = g_value_get_boolean (value);
      break;
    case PROP_VMAF_DISABLE_CLIP:
      s->vmaf_disable_clip = g_value_get_boolean (value);
      break;
    case PROP_VMAF_PERCENTILES:
      s->vmaf_percentiles = g_value_get_boolean (value);
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
    case PROP_STATS_FILE:
      g_value_set_string (value, s->stats_file);
      break;
    case PROP_STATS_FORMAT:
      g_value_set_enum (value, s->stats_format);
      break;
    case PROP_VMAF_MODEL:
      g_value_set_string (value, s->vmaf_model);
      break;
    case PROP_VMAF_ENABLE_TRANSFORM:
      g_value_set_boolean (value, s->vmaf_enable_transform);
      break;
    case PROP_VMAF_DISABLE_CLIP:
      g_value_set_boolean (value, s->vmaf_disable_clip);
      break;
    case PROP_VMAF_PERCENTILES:
      g_value_set_boolean (value, s->vmaf_percentiles);
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
gst_cuda_compare_finalize (GObject * object)
{
  GstCudaCompare *self = GST_CUDA_COMPARE (object);

  sharpness_element_finalize (&self->base);
  g_free (self->settings.stats_file);
  g_free (self->settings.vmaf_model);
  gst_caps_replace (&self->dist_caps, NULL);

  G_OBJECT_CLASS (parent_class)->finalize (object);
}

/* One line each; docs/reference/cudacompare.md has the detail. */
static void
install_properties (GObjectClass * gobject_class)
{
  const GParamFlags flags = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_PLAYING;
  const GParamFlags ready = G_PARAM_READWRITE | G_PARAM_STATIC_STRINGS |
      GST_PARAM_MUTABLE_READY;

  g_object_class_install_property (gobject_class, PROP_METRICS,
      g_param_spec_flags ("metrics", "Metrics",
          "Metrics to compute (docs/reference/cudacompare.md)", GST_TYPE_COMPARE_METRICS,
          DEFAULT_METRICS, flags));
  g_object_class_install_property (gobject_class, PROP_SSIM_MODE,
      g_param_spec_enum ("ssim-mode", "SSIM mode",
          "SSIM as FFmpeg's ssim filter, or as Wang et al. 2004",
          GST_TYPE_COMPARE_SSIM_MODE, DEFAULT_SSIM_MODE, flags));
  g_object_class_install_property (gobject_class, PROP_SSIM_DOWNSAMPLE,
      g_param_spec_boolean ("ssim-downsample", "SSIM downsample",
          "In wang mode, ssim.m's automatic downsampling first",
          DEFAULT_SSIM_DOWNSAMPLE, flags));
  g_object_class_install_property (gobject_class, PROP_STATS_FILE,
      g_param_spec_string ("stats-file", "Stats file",
          "Write per-pair values to this file (stats-format)", NULL, ready));
  g_object_class_install_property (gobject_class, PROP_STATS_FORMAT,
      g_param_spec_enum ("stats-format", "Stats format",
          "Format of stats-file: FFmpeg's psnr or ssim lines, CSV or JSON",
          GST_TYPE_COMPARE_STATS_FORMAT, DEFAULT_STATS_FORMAT, ready));
  g_object_class_install_property (gobject_class, PROP_VMAF_MODEL,
      g_param_spec_string ("vmaf-model", "VMAF model",
          "VMAF model: vmaf_v0.6.1, vmaf_v0.6.1neg, vmaf_4k_v0.6.1, or a "
          "libvmaf model JSON file's path", DEFAULT_VMAF_MODEL, ready));
  g_object_class_install_property (gobject_class,
      PROP_VMAF_ENABLE_TRANSFORM, g_param_spec_boolean
      ("vmaf-enable-transform", "VMAF score transform",
          "The model's score transform, as libvmaf's enable_transform (the "
          "phone model)", DEFAULT_VMAF_ENABLE_TRANSFORM, ready));
  g_object_class_install_property (gobject_class, PROP_VMAF_DISABLE_CLIP,
      g_param_spec_boolean ("vmaf-disable-clip", "VMAF without clipping",
          "Scores outside the model's range kept, as libvmaf's disable_clip",
          DEFAULT_VMAF_DISABLE_CLIP, ready));
  /**
   * GstCudaCompare:vmaf-percentiles:
   *
   * Whether every frame's VMAF is kept (8 bytes a frame) for the
   * summary's percentiles; off for a stream without end (a monitor's
   * channel), whose memory would otherwise grow with it.
   *
   * Since: 0.2
   */
  g_object_class_install_property (gobject_class, PROP_VMAF_PERCENTILES,
      g_param_spec_boolean ("vmaf-percentiles", "VMAF percentiles",
          "Keep every frame's VMAF (8 bytes a frame) for the summary's "
          "percentiles; off for endless streams", DEFAULT_VMAF_PERCENTILES,
          ready));
  sharpness_element_install_properties (gobject_class, PROP_COMMON,
      "compare", FALSE);
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

  gst_element_class_add_pad_template (element_class,
      sharpness_formats_pad_template (SHARPNESS_FORMAT_COMPARE, "ref_sink",
          GST_PAD_SINK, GST_TYPE_AGGREGATOR_PAD));
  gst_element_class_add_pad_template (element_class,
      sharpness_formats_pad_template (SHARPNESS_FORMAT_COMPARE, "dist_sink",
          GST_PAD_SINK, GST_TYPE_AGGREGATOR_PAD));
  gst_element_class_add_pad_template (element_class,
      sharpness_formats_pad_template (SHARPNESS_FORMAT_COMPARE, "src",
          GST_PAD_SRC, GST_TYPE_AGGREGATOR_PAD));
  gst_element_class_set_static_metadata (element_class,
      "CUDA full-reference video comparison", "Filter/Analyzer/Video",
      "Compares distorted frames with their reference (PSNR, SSIM, MS-SSIM "
      "as FFmpeg and Wang define them) on a CUDA device or the CPU, passes "
      "the distorted frames on with GstCompareMeta and posts messages",
      "The gst-sharpness authors");
  element_class->set_context = GST_DEBUG_FUNCPTR (gst_cuda_compare_set_context);

  agg_class->start = GST_DEBUG_FUNCPTR (gst_cuda_compare_start);
  agg_class->stop = GST_DEBUG_FUNCPTR (gst_cuda_compare_stop);
  agg_class->flush = GST_DEBUG_FUNCPTR (gst_cuda_compare_flush);
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
  CompareBackend *cuda = NULL;
  GstPadTemplate *templ;

  self->settings = (GstCudaCompareSettings) {
    .metrics = DEFAULT_METRICS,
    .ssim_mode = DEFAULT_SSIM_MODE,
    .ssim_downsample = DEFAULT_SSIM_DOWNSAMPLE,
    .stats_file = NULL,
    .stats_format = DEFAULT_STATS_FORMAT,
    .vmaf_model = g_strdup (DEFAULT_VMAF_MODEL),
    .vmaf_enable_transform = DEFAULT_VMAF_ENABLE_TRANSFORM,
    .vmaf_disable_clip = DEFAULT_VMAF_DISABLE_CLIP,
    .vmaf_percentiles = DEFAULT_VMAF_PERCENTILES,
  };
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

  if (!sharpness_backend_choice_cuda_unavailable ())
    cuda = compare_backend_new_cuda (element);
  sharpness_element_init (&self->base, element, GST_CAT_DEFAULT,
      SHARPNESS_BACKEND (compare_backend_new_cpu (element)),
      SHARPNESS_BACKEND (cuda), "compare", "comparing");
}
