/* sharpness-monitor: one channel's pipeline:
 *
 *   source ! decode ! [convert] ! queue ! cudasharpness ! tee ! queue ! fakesink
 *                                                         tee ! thumbnails
 *   source's first audio stream ! queue ! audioconvert ! level ! fakesink
 *
 * Pad probes read what goes by and let it go on: the decoded video's
 * captions (monitor-captions.c), the audio's loudness (monitor-loudness.c),
 * the transport stream before the demuxer (monitor-transport.c).
 *
 * The source is uridecodebin3 for a URI (filesrc ! decodebin3 for a local
 * file, as sharpness-scan does), or the configuration's source fragment
 * followed by decodebin3.  A compared channel puts cudacompare before the
 * scorer, its reference decoded from the other channel's source.  The
 * thumbnail branch takes about one frame a second (a pad probe drops the
 * others), scales and JPEG-encodes it on its own queue's thread, and an
 * appsink hands it to the channel.
 *
 * --decode-only builds the same pipeline without its analysis (an identity
 * in the scorer's place, no thumbnails, no level, no cudacompare): the
 * decoders-alone baseline of bench/monitor/bench-monitor.py.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include <gst/app/gstappsink.h>
#include <gst/base/gstbasesrc.h>

#include "monitor-channel.h"
#include "sharpness-tool-gpu.h"
#include "sharpness-tool-rule.h"

/* What the analysis queue holds before a live channel leaks: about a
 * second of frames, so that a scorer held up for a moment (a busy host) is
 * not a lost frame, but never more than a few full-HD frames' bytes per
 * channel (hundreds of channels share the memory). */
#define ANALYSIS_QUEUE_BUFFERS 30
#define ANALYSIS_QUEUE_BYTES (32u << 20)
#define AUDIO_QUEUE_BUFFERS 32
/* Audio levels this often: silence starts and ends to within less than a
 * frame. */
#define LEVEL_INTERVAL_MS 20

static GstElement *
make (const gchar * factory, GError ** error)
{
  GstElement *e = gst_element_factory_make (factory, NULL);

  if (!e)
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_MISSING_PLUGIN,
        "element %s missing%s", factory, g_str_equal (factory,
            "cudasharpness") || g_str_equal (factory, "cudacompare") ?
        " (is the gst-sharpness plugin installed, or GST_PLUGIN_PATH set?)"
        : " (install the GStreamer plugin that provides it)");
  return e;
}

static gboolean
is_file (const MonitorChannelConfig * cfg)
{
  return cfg->uri && g_str_has_prefix (cfg->uri, "file:");
}

/* Sinks wait for each frame's time, so that a source that is not live
 * (a file, a VOD playlist) plays at real-time pace; a live source's frames
 * come at that pace anyway. */
static gboolean
paced (MonitorChannel * c)
{
  return !c->host->settings->as_fast_as_possible;
}

#define AUDIO_QUEUE_NAME "monitor-audio-queue"
#define AUDIO_SINK_NAME "monitor-audio-sink"

/* The audio branch of @bin (if linked): leaky and not synced when live. */
static void
audio_set_live (MonitorChannel * c, GstElement * bin, gboolean live)
{
  GstElement *q = gst_bin_get_by_name (GST_BIN (bin), AUDIO_QUEUE_NAME);
  GstElement *sink = gst_bin_get_by_name (GST_BIN (bin), AUDIO_SINK_NAME);

  if (q) {
    g_object_set (q, "leaky", live ? 2 : 0, NULL);
    gst_object_unref (q);
  }
  if (sink) {
    g_object_set (sink, "sync", !live && paced (c), NULL);
    gst_object_unref (sink);
  }
}

/* Live: the queues leak, the newest frames win and the drops are counted.
 * Otherwise they block (the source waits, nothing is lost). */
void
monitor_pipeline_set_live (MonitorChannel * c, gboolean live)
{
  c->live = live;
  /* A live source comes at its own pace: nothing to wait for. */
  if (c->sink)
    g_object_set (c->sink, "sync", !live && paced (c), NULL);
  if (c->analysis_queue)
    g_object_set (c->analysis_queue, "leaky", live ? 2 : 0, NULL);
  /* The audio branch, if linked yet (by name: a streaming thread of a
   * pipeline being torn down must not leave pointers in the channel). */
  if (c->pipeline)
    audio_set_live (c, c->pipeline, live);
}

static GstStreamType
pad_stream_type (GstPad * pad)
{
  GstStream *stream = gst_pad_get_stream (pad);
  GstStreamType t = 0;

  if (stream) {
    t = gst_stream_get_stream_type (stream);
    gst_object_unref (stream);
  } else if (g_str_has_prefix (GST_PAD_NAME (pad), "video")) {
    t = GST_STREAM_TYPE_VIDEO;
  } else if (g_str_has_prefix (GST_PAD_NAME (pad), "audio")) {
    t = GST_STREAM_TYPE_AUDIO;
  }
  return t;
}

static void
sink_unused (GstElement * bin, GstPad * pad)
{
  GstElement *fake = gst_element_factory_make ("fakesink", NULL);
  GstPad *sink;

  g_object_set (fake, "sync", FALSE, "async", FALSE, NULL);
  gst_bin_add (GST_BIN (bin), fake);
  sink = gst_element_get_static_pad (fake, "sink");
  gst_pad_link (pad, sink);
  gst_object_unref (sink);
  gst_element_sync_state_with_parent (fake);
}

/* Adds @factories in a chain after @pad; returns FALSE when one is missing
 * or a link fails. */
static gboolean
link_chain (GstElement * bin, GstPad * pad, GstPad * to,
    const gchar * const *factories)
{
  GstElement *prev = NULL, *first = NULL;
  GstPad *sink;
  gboolean ok = TRUE;

  for (guint i = 0; factories[i] && ok; i++) {
    GstElement *e = gst_element_factory_make (factories[i], NULL);
    if (!e)
      return FALSE;
    gst_bin_add (GST_BIN (bin), e);
    if (prev)
      ok = gst_element_link (prev, e);
    else
      first = e;
    prev = e;
  }
  if (!ok || !first)
    return FALSE;
  {
    GstPad *src = gst_element_get_static_pad (prev, "src");
    ok = gst_pad_link (src, to) == GST_PAD_LINK_OK;
    gst_object_unref (src);
  }
  sink = gst_element_get_static_pad (first, "sink");
  ok = ok && gst_pad_link (pad, sink) == GST_PAD_LINK_OK;
  gst_object_unref (sink);
  for (GstElement * e = first; e;) {
    GstPad *src = gst_element_get_static_pad (e, "src");
    GstPad *peer = src ? gst_pad_get_peer (src) : NULL;
    GstElement *next = peer ? gst_pad_get_parent_element (peer) : NULL;

    gst_element_sync_state_with_parent (e);
    if (src)
      gst_object_unref (src);
    if (peer)
      gst_object_unref (peer);
    if (next)
      gst_object_unref (next);
    e = (e == prev) ? NULL : next;
  }
  return ok;
}

/* The converter before the scorer: CUDA memory stays on the GPU
 * (cudaconvert passes through what the scorer takes); system memory goes
 * through videoconvert, which passes through what it can. */
static const gchar *const cpu_convert[] = { "videoconvert", NULL };
static const gchar *const gpu_convert[] = { "cudaconvert", NULL };

static gboolean
link_video (MonitorChannel * c, GstElement * bin, GstPad * pad, GstPad * to)
{
  GstElementFactory *f = gst_element_factory_find ("cudaconvert");
  gboolean cuda = c->host->settings->gpu_decode && f && sharpness_tool_pad_offers_cuda (pad);

  if (f)
    gst_object_unref (f);
  return link_chain (bin, pad, to, cuda ? gpu_convert : cpu_convert);
}

typedef struct
{
  MonitorChannel *channel;
  GstPad *to;                   /* where video goes */
  gboolean reference;           /* the compared pair's reference source */
  gboolean level;               /* its first audio stream goes to level */
  gboolean linked_video, linked_audio;
} SourceLink;

static void
source_link_free (gpointer data, GClosure * closure)
{
  SourceLink *l = data;

  gst_object_unref (l->to);
  g_free (l);
}

static void
link_audio (MonitorChannel * c, GstElement * bin, GstPad * pad)
{
  GstElement *q = gst_element_factory_make ("queue", NULL);
  GstElement *conv = gst_element_factory_make ("audioconvert", NULL);
  GstElement *filter = gst_element_factory_make ("capsfilter", NULL);
  GstElement *level = gst_element_factory_make ("level", NULL);
  GstElement *sink = gst_element_factory_make ("fakesink", NULL);
  GstCaps *caps;
  GstPad *qsink, *fsrc;

  if (!q || !conv || !filter || !level || !sink) {
    /* Without level, no silence alarm: the stream is only drained. */
    g_clear_object (&q);
    g_clear_object (&conv);
    g_clear_object (&filter);
    g_clear_object (&level);
    g_clear_object (&sink);
    sink_unused (bin, pad);
    return;
  }
  g_object_set (q, "max-size-buffers", AUDIO_QUEUE_BUFFERS,
      "max-size-bytes", 0, "max-size-time", (guint64) 0, NULL);
  /* A live channel's leaky queue drops audio: counted. */
  g_signal_connect (q, "overrun", G_CALLBACK (monitor_frames_audio_overrun),
      c);
  gst_object_set_name (GST_OBJECT (q), AUDIO_QUEUE_NAME);
  gst_object_set_name (GST_OBJECT (sink), AUDIO_SINK_NAME);
  g_object_set (sink, "async", FALSE, NULL);
  g_object_set (level, "interval", (guint64) (LEVEL_INTERVAL_MS * GST_MSECOND),
      "post-messages", TRUE, NULL);
  /* The loudness meter takes F32 interleaved (libebur128's float), at
   * the stream's own rate and channels; level takes it as well. */
  caps = gst_caps_new_simple ("audio/x-raw", "format", G_TYPE_STRING,
      G_BYTE_ORDER == G_LITTLE_ENDIAN ? "F32LE" : "F32BE", "layout",
      G_TYPE_STRING, "interleaved", NULL);
  g_object_set (filter, "caps", caps, NULL);
  gst_caps_unref (caps);
  fsrc = gst_element_get_static_pad (filter, "src");
  monitor_loudness_attach (c->loudness, fsrc);
  gst_object_unref (fsrc);
  gst_bin_add_many (GST_BIN (bin), q, conv, filter, level, sink, NULL);
  /* The state change may not have returned yet: the source says. */
  audio_set_live (c, bin, c->live || g_atomic_int_get (&c->source_live));
  gst_element_link_many (q, conv, filter, level, sink, NULL);
  qsink = gst_element_get_static_pad (q, "sink");
  gst_pad_link (pad, qsink);
  gst_object_unref (qsink);
  gst_element_sync_state_with_parent (sink);
  gst_element_sync_state_with_parent (level);
  gst_element_sync_state_with_parent (filter);
  gst_element_sync_state_with_parent (conv);
  gst_element_sync_state_with_parent (q);
}

static void
pad_added (GstElement * dec, GstPad * pad, gpointer user_data)
{
  SourceLink *l = user_data;
  MonitorChannel *c = l->channel;
  GstElement *bin = GST_ELEMENT (gst_element_get_parent (dec));
  GstStreamType t;

  if (GST_PAD_DIRECTION (pad) != GST_PAD_SRC || !bin) {
    if (bin)
      gst_object_unref (bin);
    return;
  }
  t = pad_stream_type (pad);
  if ((t & GST_STREAM_TYPE_VIDEO) && !l->linked_video) {
    l->linked_video = link_video (c, bin, pad, l->to);
    if (!l->reference)
      c->video_linked = l->linked_video;
    /* The captions as the decoder hands them over, before any
     * conversion or cudacompare (which need not keep its metas). */
    if (l->linked_video && !l->reference)
      monitor_captions_attach (c->captions, pad);
    if (l->linked_video) {
      gst_object_unref (bin);
      return;
    }
  } else if ((t & GST_STREAM_TYPE_AUDIO) && !l->linked_audio && l->level) {
    l->linked_audio = TRUE;
    c->audio_linked = TRUE;
    link_audio (c, bin, pad);
    gst_object_unref (bin);
    return;
  }
  sink_unused (bin, pad);
  gst_object_unref (bin);
}

/* The first video and the first audio stream; nothing else is decoded.
 * Streams are compared by id (decodebin3 may pass a stream of another
 * collection than @collection). */
static gint
select_stream (GstElement * dec, GstStreamCollection * collection,
    GstStream * stream, gpointer user_data)
{
  GstStreamType want = gst_stream_get_stream_type (stream);

  if (!(want & (GST_STREAM_TYPE_VIDEO | GST_STREAM_TYPE_AUDIO)))
    return 0;
  for (guint i = 0; i < gst_stream_collection_get_size (collection); i++) {
    GstStream *s = gst_stream_collection_get_stream (collection, i);
    if (gst_stream_get_stream_type (s) & want & (GST_STREAM_TYPE_VIDEO |
            GST_STREAM_TYPE_AUDIO))
      return g_strcmp0 (gst_stream_get_stream_id (s),
          gst_stream_get_stream_id (stream)) == 0 ? 1 : 0;
  }
  return 1;
}

/* GStreamer 1.26's decodebin3 picks a stream's decoder when the stream
 * starts on its multiqueue's output, from the caps of its GstStream.
 * parsebin may expose a parsed pad before its parser has sent caps
 * ("exposing pad with incomplete caps because it's parsed"), and the
 * stream then still has the demuxer's caps (video/x-h265 or video/x-h264,
 * stream-format=byte-stream, no alignment), of which no decoder's template
 * is a superset: decodebin3 posts "missing a plug-in" with the decoder
 * installed.  A race, lost mostly by a process' second and later
 * pipelines (their plugins already loaded): a channel's restart.
 * docs/reference/gstreamer-versions.md has the runs.
 *
 * So the stream gets, as the pad appears (before parsebin lets data
 * through it), the caps the parser will send: the first of those the pad
 * can send (downstream's preference: the decoders') that the demuxer's
 * caps allow, fixated.  The parser's caps event replaces them. */
static void
parsebin_pad_added (GstElement * parsebin, GstPad * pad, gpointer user_data)
{
  GstStream *stream = gst_pad_get_stream (pad);
  GstCaps *current = gst_pad_get_current_caps (pad);
  GstCaps *have = stream ? gst_stream_get_caps (stream) : NULL;

  if (have && !current) {
    GstCaps *can = gst_pad_query_caps (pad, NULL);
    GstCaps *caps = gst_caps_intersect_full (can, have,
        GST_CAPS_INTERSECT_FIRST);

    if (!gst_caps_is_empty (caps)) {
      caps = gst_caps_fixate (caps);
      gst_stream_set_caps (stream, caps);
    }
    gst_caps_unref (caps);
    gst_caps_unref (can);
  }
  if (have)
    gst_caps_unref (have);
  if (current)
    gst_caps_unref (current);
  if (stream)
    gst_object_unref (stream);
}

static gboolean
made_by (GstElement * element, const gchar * factory)
{
  GstElementFactory *f = gst_element_get_factory (element);

  return f && g_str_equal (gst_plugin_feature_get_name (f), factory);
}

/* A parsebin that decodebin3 (in @bin, or @bin itself) makes. */
static void
source_element_added (GstBin * bin, GstBin * sub_bin, GstElement * element,
    gpointer user_data)
{
  if (made_by (element, "parsebin") && made_by (GST_ELEMENT (sub_bin),
          "decodebin3"))
    g_signal_connect (element, "pad-added", G_CALLBACK (parsebin_pad_added),
        NULL);
}

/* Before anything is linked to @dec (decodebin3 makes its parsebin when
 * its sink pad is linked); on 1.26 and later only: 1.22's decodebin3 did
 * not lose the race in the same runs. */
static void
watch_parsebins (GstElement * dec)
{
  guint major, minor, micro, nano;

  gst_version (&major, &minor, &micro, &nano);
  if (major > 1 || minor >= 26)
    g_signal_connect (dec, "deep-element-added",
        G_CALLBACK (source_element_added), NULL);
}

/* The source of @cfg, added to @bin; returns the element whose pads
 * appear. */
static GstElement *
add_source (GstElement * bin, const MonitorChannelConfig * cfg,
    GError ** error)
{
  GstElement *dec;

  if (cfg->source) {
    GstElement *src = gst_parse_bin_from_description (cfg->source, TRUE,
        error);
    if (!src) {
      g_prefix_error (error, "source '%s': ", cfg->source);
      return NULL;
    }
    if (!(dec = make ("decodebin3", error))) {
      gst_object_unref (src);
      return NULL;
    }
    watch_parsebins (dec);
    gst_bin_add_many (GST_BIN (bin), src, dec, NULL);
    if (!gst_element_link (src, dec)) {
      g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_NEGOTIATION,
          "source '%s' cannot feed decodebin3 (its last element needs a "
          "free src pad)", cfg->source);
      return NULL;
    }
  } else if (is_file (cfg)) {
    gchar *path = g_filename_from_uri (cfg->uri, NULL, NULL);
    GstElement *src = make ("filesrc", error);

    if (!src || !path || !(dec = make ("decodebin3", error))) {
      g_free (path);
      if (src)
        gst_object_unref (src);
      if (!path && error && !*error)
        g_set_error (error, G_FILE_ERROR, G_FILE_ERROR_INVAL,
            "'%s' is not a local file URI", cfg->uri);
      return NULL;
    }
    g_object_set (src, "location", path, NULL);
    g_free (path);
    watch_parsebins (dec);
    gst_bin_add_many (GST_BIN (bin), src, dec, NULL);
    gst_element_link (src, dec);
  } else {
    /* udp://SOURCE@GROUP:PORT as udpsrc joins one source (checked with
     * the configuration: refused where it cannot). */
    gchar *uri;

    if (!monitor_uri_for_source (cfg->uri, &uri, error))
      return NULL;
    if (!(dec = make ("uridecodebin3", error))) {
      g_free (uri);
      return NULL;
    }
    g_object_set (dec, "uri", uri, NULL);
    g_free (uri);
    watch_parsebins (dec);
    gst_bin_add (GST_BIN (bin), dec);
  }
  g_signal_connect (dec, "select-stream", G_CALLBACK (select_stream), NULL);
  return dec;
}

/* Video from @dec goes to @to; its first audio stream to level when
 * @level, else (as every other stream) to a fakesink. */
static void
connect_source (MonitorChannel * c, GstElement * dec, GstPad * to,
    gboolean reference, gboolean level)
{
  SourceLink *l = g_new0 (SourceLink, 1);

  l->channel = c;
  l->to = gst_object_ref (to);
  l->reference = reference;
  l->level = level;
  g_signal_connect_data (dec, "pad-added", G_CALLBACK (pad_added), l,
      source_link_free, 0);
}

static GstFlowReturn
thumb_sample (GstAppSink * sink, gpointer user_data)
{
  MonitorChannel *c = user_data;
  GstSample *s = gst_app_sink_pull_sample (sink), *old;

  if (!s)
    return GST_FLOW_OK;
  g_mutex_lock (&c->lock);
  old = c->thumb;
  c->thumb = s;
  c->thumb_seq++;
  g_mutex_unlock (&c->lock);
  if (old)
    gst_sample_unref (old);
  return GST_FLOW_OK;
}

static gboolean
add_thumbnails (MonitorChannel * c, GstElement * bin, GstElement * tee,
    GError ** error)
{
  const MonitorSettings *s = c->host->settings;
  GstElement *q, *down = NULL, *scale, *filter, *conv, *enc, *sink;
  GstAppSinkCallbacks cb = { NULL, NULL, thumb_sample };
  GstCaps *caps;
  GstPad *pad;

  if (!(q = make ("queue", error)) || !(scale = make ("videoscale", error))
      || !(filter = make ("capsfilter", error)) ||
      !(conv = make ("videoconvert", error)) ||
      !(enc = make ("jpegenc", error)) || !(sink = make ("appsink", error)))
    return FALSE;
  /* Frames in CUDA memory come down first (one a second). */
  if (s->gpu_decode)
    down = gst_element_factory_make ("cudadownload", NULL);
  g_object_set (q, "leaky", 2, "max-size-buffers", 1, "max-size-bytes", 0,
      "max-size-time", (guint64) 0, NULL);
  caps = gst_caps_new_simple ("video/x-raw", "width", G_TYPE_INT,
      (gint) s->thumbnail_width, "pixel-aspect-ratio", GST_TYPE_FRACTION, 1,
      1, NULL);
  g_object_set (filter, "caps", caps, NULL);
  gst_caps_unref (caps);
  g_object_set (enc, "quality", 80, NULL);
  g_object_set (sink, "sync", FALSE, "async", FALSE, "max-buffers", 1,
      "drop", TRUE, "enable-last-sample", FALSE, NULL);
  gst_app_sink_set_callbacks (GST_APP_SINK (sink), &cb, c, NULL);
  gst_bin_add_many (GST_BIN (bin), q, scale, filter, conv, enc, sink, NULL);
  if (down) {
    gst_bin_add (GST_BIN (bin), down);
    if (!gst_element_link_many (tee, q, down, scale, NULL))
      return FALSE;
  } else if (!gst_element_link_many (tee, q, scale, NULL)) {
    return FALSE;
  }
  if (!gst_element_link_many (scale, filter, conv, enc, sink, NULL))
    return FALSE;
  pad = gst_element_get_static_pad (q, "sink");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER,
      monitor_frames_thumb_gate, c, NULL);
  gst_object_unref (pad);
  return TRUE;
}

static void
set_scorer (MonitorChannel * c, GstElement * e)
{
  const MonitorChannelConfig *cfg = c->cfg;
  const MonitorSettings *s = c->host->settings;
  const MonitorKindSettings *k = cfg->kinds;
  GString *detect = g_string_new ("flat");

  /* The kinds the element decides (monitor_kinds): detected where
   * enabled. */
  for (gint i = 0; i < MONITOR_N_KINDS; i++)
    if (monitor_kinds[i].detect_flag && k[i].enabled)
      g_string_append_printf (detect, "+%s", monitor_kinds[i].detect_flag);
  gst_util_set_object_arg (G_OBJECT (e), "metric",
      sharpness_metric_info[cfg->metric].nick);
  gst_util_set_object_arg (G_OBJECT (e), "detect", detect->str);
  g_string_free (detect, TRUE);
  g_object_set (e, "post-messages", FALSE,
      "threshold", cfg->threshold,
      "relative-threshold", cfg->relative_threshold,
      "cpbd-threshold", cfg->metric == SHARPNESS_METRIC_BLUR_EFFECT ?
      SHARPNESS_TOOL_BLUR_EFFECT_CPBD : 0.0,
      "focus-threshold", cfg->metric == SHARPNESS_METRIC_BLUR_EFFECT ?
      SHARPNESS_TOOL_BLUR_EFFECT_FOCUS : 0.0,
      "window", cfg->window, "max-blurry-gap", cfg->max_blurry_gap,
      "black-pixel-threshold", cfg->black_pixel_threshold,
      "black-ratio", cfg->black_ratio,
      "freeze-noise", cfg->freeze_noise, NULL);
  /* And their onsets.  Without a detect flag, an onset of 0 turns the
   * kind off; the shortest is one nanosecond. */
  for (gint i = 0; i < MONITOR_N_KINDS; i++) {
    const MonitorKindInfo *info = &monitor_kinds[i];
    guint64 onset = (guint64) (k[i].onset * GST_SECOND);

    if (!info->onset_property)
      continue;
    if (!info->detect_flag)
      onset = k[i].enabled ? MAX (onset, 1) : 0;
    g_object_set (e, info->onset_property, onset, NULL);
  }
  if (cfg->tiles)
    g_object_set (e, "tiles", cfg->tiles, NULL);
  if (cfg->roi_types)
    g_object_set (e, "roi-types", cfg->roi_types, NULL);
  if (s->cpu)
    gst_util_set_object_arg (G_OBJECT (e), "backend", "cpu");
  else
    g_object_set (e, "cuda-device-id", s->cuda_device_id, NULL);
  /* The element's own event thumbnails, where it has them. */
  if (g_object_class_find_property (G_OBJECT_GET_CLASS (e),
          "event-thumbnails"))
    g_object_set (e, "event-thumbnails", s->thumbnail_width, NULL);
}

static gboolean
network_ts (const MonitorChannelConfig * cfg)
{
  return cfg->uri && (g_str_has_prefix (cfg->uri, "udp:") ||
      g_str_has_prefix (cfg->uri, "rtp:") ||
      g_str_has_prefix (cfg->uri, "srt:"));
}

/* Settings of elements that the decode bins make. */
static void
element_added (GstBin * bin, GstBin * sub, GstElement * element,
    gpointer user_data)
{
  MonitorChannel *c = user_data;
  const MonitorChannelConfig *cfg = c->cfg;
  GstElementFactory *f = gst_element_get_factory (element);

  /* A live source (udpsrc, srtsrc...) inside urisourcebin does not make
   * the pipeline's state change answer NO_PREROLL: the channel would sync
   * on the stream's timestamps and hold every frame for the sender's
   * buffering delay, and its queues would block instead of leaking. */
  if (GST_IS_BASE_SRC (element) &&
      gst_base_src_is_live (GST_BASE_SRC (element)))
    g_atomic_int_set (&c->source_live, TRUE);

  /* FFmpeg's frame threading holds a frame per thread (it cannot start a
   * frame before the previous one is parsed), which delayed every alarm of
   * a live channel by most of a second on the CPU; a monitor runs many
   * channels, so their decoders use the cores in parallel anyway.  Slice
   * threading adds no delay.  Files keep frame threading: as fast as
   * possible wants the throughput. */
  if (f && !is_file (cfg) && g_str_has_prefix (GST_OBJECT_NAME (f), "avdec_")
      && g_object_class_find_property (G_OBJECT_GET_CLASS (element),
          "thread-type"))
    gst_util_set_object_arg (G_OBJECT (element), "thread-type", "slice");
  /* --udp-buffer-size, for feeds of a higher rate or burstier than the
   * system's default buffer (about 200 kB) holds; a size a source fragment
   * sets is kept. */
  if (f && g_str_equal (GST_OBJECT_NAME (f), "udpsrc") &&
      c->host->settings->udp_buffer_size > 0) {
    gint size = 0;

    g_object_get (element, "buffer-size", &size, NULL);
    if (size == 0)
      g_object_set (element, "buffer-size",
          (gint) c->host->settings->udp_buffer_size, NULL);
  }
  /* TR 101 290 on what reaches the channel's own demuxer (a compared
   * reference's is not this channel's stream). */
  if (c->transport && f && g_str_equal (GST_OBJECT_NAME (f), "tsdemux") &&
      c->source_dec && gst_object_has_as_ancestor (GST_OBJECT (element),
          GST_OBJECT (c->source_dec))) {
    GstPad *pad = gst_element_get_static_pad (element, "sink");

    if (pad) {
      monitor_transport_attach (c->transport, pad,
          g_atomic_int_get (&c->source_live));
      gst_object_unref (pad);
    }
  }
  if (!network_ts (cfg))
    return;
  /* MPEG-TS over UDP, RTP or SRT: the demuxer's timestamps are the
   * stream's PTS, not PTS mapped through the PCR and the packets' arrival
   * times, whose jitter moved alarm edges by more than a frame (and moved
   * audio against video).  A live pipeline does not sync on them (see
   * monitor_pipeline_set_live), so the sender's clock drift is harmless. */
  if (f && g_str_equal (GST_OBJECT_NAME (f), "tsdemux") &&
      g_object_class_find_property (G_OBJECT_GET_CLASS (element),
          "ignore-pcr"))
    g_object_set (element, "ignore-pcr", TRUE, NULL);
  /* The monitor reconnects (with backoff, counted): an SRT source that
   * reconnects by itself would hide the loss. */
  if (f && g_str_equal (GST_OBJECT_NAME (f), "srtsrc") &&
      g_object_class_find_property (G_OBJECT_GET_CLASS (element),
          "auto-reconnect"))
    g_object_set (element, "auto-reconnect", FALSE, NULL);
}

/* cudacompare in front of @to, its reference decoded from the compared
 * channel's source; takes @to and returns the pad that the channel's own
 * video goes to, or NULL. */
static GstPad *
add_compare (MonitorChannel * c, GstElement * pipe, GstPad * to,
    GError ** error)
{
  const MonitorChannelConfig *cfg = c->cfg, *ref = NULL;
  GPtrArray *all = c->host->settings->all_channels;
  GstElement *cmp, *rdec;
  GstPad *rpad;

  /* The reference may be another shard's channel: its source is decoded
   * here all the same. */
  for (guint i = 0; all && i < all->len && !ref; i++)
    if (g_str_equal (((MonitorChannelConfig *) g_ptr_array_index (all,
                    i))->name, cfg->compare_with))
      ref = g_ptr_array_index (all, i);
  if (!ref) {
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_FAILED,
        "compare-with: no channel named '%s'", cfg->compare_with);
    gst_object_unref (to);
    return NULL;
  }
  if (!(cmp = make ("cudacompare", error))) {
    gst_object_unref (to);
    return NULL;
  }
  gst_bin_add (GST_BIN (pipe), cmp);
  /* VMAF in the same pass where asked for (compare-vmaf): on the CPU
   * backend it costs far more than PSNR and SSIM
   * (docs/reference/sharpness-monitor.md has the figures). */
  gst_util_set_object_arg (G_OBJECT (cmp), "metrics", cfg->compare_vmaf ?
      "psnr+ssim+vmaf" : "psnr+ssim");
  if (cfg->compare_vmaf && cfg->vmaf_model)
    g_object_set (cmp, "vmaf-model", cfg->vmaf_model, NULL);
  /* A channel has no end: the summary's percentiles would keep every
   * frame's score for as long as it runs. */
  g_object_set (cmp, "vmaf-percentiles", FALSE, NULL);
  if (c->host->settings->cpu)
    gst_util_set_object_arg (G_OBJECT (cmp), "backend", "cpu");
  rpad = gst_element_get_static_pad (cmp, "src");
  gst_pad_link (rpad, to);
  gst_object_unref (rpad);
  gst_object_unref (to);
  if (!(rdec = add_source (pipe, ref, error)))
    return NULL;
  rpad = gst_element_get_static_pad (cmp, "ref_sink");
  connect_source (c, rdec, rpad, TRUE, FALSE);
  gst_object_unref (rpad);
  return gst_element_get_static_pad (cmp, "dist_sink");
}

GstElement *
monitor_pipeline_build (MonitorChannel * c, GError ** error)
{
  const MonitorChannelConfig *cfg = c->cfg;
  GstElement *pipe = gst_pipeline_new (cfg->name);
  GstElement *dec, *q1, *scorer, *tee, *q2, *sink;
  GstPad *to, *pad;
  gboolean level = FALSE;
  /* --decode-only: the decoders-alone baseline of the benchmark, the
   * monitor's own pipeline with the analysis taken out, so that the two
   * differ by the analysis alone (same source, decoder, CUDA context,
   * pacing, queue, probes).  An identity stands in the scorer's place:
   * the probes count and time its frames as they do the scorer's (the
   * no-signal alarm and restarts need them), and find no score on them. */
  const gboolean analyse = !c->host->settings->decode_only;

  if (c->host->cuda_context)
    gst_element_set_context (pipe, c->host->cuda_context);
  if (!(q1 = make ("queue", error)) || !(scorer = make (analyse ?
              "cudasharpness" : "identity", error)) ||
      !(tee = make ("tee", error)) ||
      !(q2 = make ("queue", error)) || !(sink = make ("fakesink", error)))
    goto fail;
  gst_bin_add_many (GST_BIN (pipe), q1, scorer, tee, q2, sink, NULL);
  c->analysis_queue = q1;
  c->sink = sink;
  c->scorer = scorer;
  g_signal_connect (pipe, "deep-element-added", G_CALLBACK (element_added),
      c);
  c->video_tee = tee;
  g_object_set (q1, "max-size-buffers", ANALYSIS_QUEUE_BUFFERS,
      "max-size-bytes", ANALYSIS_QUEUE_BYTES, "max-size-time", (guint64) 0,
      NULL);
  g_signal_connect (q1, "overrun", G_CALLBACK (monitor_frames_queue_overrun),
      c);
  g_object_set (q2, "max-size-buffers", 2, "max-size-bytes", 0,
      "max-size-time", (guint64) 0, NULL);
  /* The pipeline prerolls on it: a source that is not live starts its
   * clock once the first frame is there (a VOD playlist downloads first),
   * not before. */
  g_object_set (sink, "sync", paced (c), "enable-last-sample", FALSE, NULL);
  if (!gst_element_link_many (q1, scorer, tee, q2, sink, NULL))
    goto fail_link;

  pad = gst_element_get_static_pad (q1, "sink");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER,
      monitor_frames_decoded_probe, c, NULL);
  gst_object_unref (pad);
  pad = gst_element_get_static_pad (scorer, "src");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER |
      GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, monitor_frames_scored_probe, c,
      NULL);
  gst_object_unref (pad);

  to = gst_element_get_static_pad (q1, "sink");
  if (analyse) {
    set_scorer (c, scorer);
    if (!add_thumbnails (c, pipe, tee, error)) {
      gst_object_unref (to);
      goto fail_link;
    }
    if (cfg->compare_with && !(to = add_compare (c, pipe, to, error)))
      goto fail_link;
    /* The audio branch: silence (level) and the loudness meter. */
    level = cfg->kinds[MONITOR_KIND_SILENCE].enabled ||
        cfg->kinds[MONITOR_KIND_LOUDNESS_HIGH].enabled ||
        cfg->kinds[MONITOR_KIND_LOUDNESS_LOW].enabled ||
        cfg->kinds[MONITOR_KIND_TRUE_PEAK].enabled ||
        cfg->kinds[MONITOR_KIND_NO_AUDIO].enabled;
  }
  if (!(dec = add_source (pipe, cfg, error))) {
    gst_object_unref (to);
    goto fail_link;
  }
  c->source_dec = dec;
  connect_source (c, dec, to, FALSE, level);
  gst_object_unref (to);
  return pipe;

fail:
  gst_object_unref (pipe);
  return NULL;
fail_link:
  if (error && !*error)
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_NEGOTIATION,
        "the analysis chain could not be linked");
  gst_object_unref (pipe);
  return NULL;
}
