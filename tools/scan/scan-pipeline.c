/* sharpness-scan's pipeline for one input:
 *   filesrc ! decodebin (local files), fdsrc ! decodebin (standard input)
 *   or uridecodebin (other URIs)
 *     ! [videoconvert !] queue ! cudasharpness (one per metric; the first
 *     detects the content states) ! fakesink
 * running unsynchronised, and what links it as streams appear.
 *
 * decodebin, not decodebin3: GStreamer 1.26's decodebin3 sometimes looks
 * for a decoder of a stream's caps as the demuxer gave them, before its
 * parser completes them, finds none and fails the stream ("No suitable
 * plugins found"; docs/reference/gstreamer-versions.md).  decodebin picks
 * each decoder for the parser's caps.  Only the first video stream is
 * decoded: audio and subtitle streams, and later video streams, leave
 * decodebin as they are and end in a fakesink.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <stdlib.h>
#include <string.h>

#include <gst/pbutils/pbutils.h>

#include "scan-job.h"
#include "scan-setup.h"
#include "sharpness-tool-gpu.h"

/* Whether @pad carries decoded video. */
static gboolean
is_raw_video_pad (GstPad * pad)
{
  GstCaps *caps = gst_pad_get_current_caps (pad);
  gboolean video;

  if (!caps)
    caps = gst_pad_query_caps (pad, NULL);
  video = !gst_caps_is_empty (caps) && gst_structure_has_name
      (gst_caps_get_structure (caps, 0), "video/x-raw");
  gst_caps_unref (caps);
  return video;
}

gboolean
scan_pipeline_caps_not_video (const GstCaps * caps)
{
  static const gchar *prefixes[] = { "audio/", "text/", "subpicture/",
    "subtitle/", "closedcaption/", "meta/", "private/",
    "application/x-subtitle", "application/x-ssa", "application/x-ass",
    "application/x-teletext", "application/x-scte"
  };
  const gchar *name;

  if (!caps || gst_caps_is_empty (caps) || gst_caps_is_any (caps))
    return FALSE;
  name = gst_structure_get_name (gst_caps_get_structure (caps, 0));
  for (guint i = 0; i < G_N_ELEMENTS (prefixes); i++)
    if (g_str_has_prefix (name, prefixes[i]))
      return TRUE;
  return FALSE;
}

/* Streams other than video are neither parsed nor decoded: decodebin
 * exposes them as they are.  Their type comes from their stream-start
 * event or, without one, from their caps. */
static gboolean
autoplug_continue (GstElement * dec, GstPad * pad, GstCaps * caps,
    gpointer user_data)
{
  GstStream *stream = gst_pad_get_stream (pad);
  GstStreamType type = GST_STREAM_TYPE_UNKNOWN;

  if (stream) {
    type = gst_stream_get_stream_type (stream);
    gst_object_unref (stream);
  }
  if (type & (GST_STREAM_TYPE_AUDIO | GST_STREAM_TYPE_TEXT))
    return FALSE;
  return (type & GST_STREAM_TYPE_VIDEO) || !scan_pipeline_caps_not_video (caps);
}

/* decodebin's GstAutoplugSelectResult, which no public header declares. */
typedef enum
{
  AUTOPLUG_TRY = 0,
  AUTOPLUG_EXPOSE = 1,
} AutoplugSelect;

/* Decoders are plugged for the first video stream only; later ones are
 * exposed undecoded.  The codec and whether it is a still image come from
 * the caps the decoder is picked for, unless a demuxer's stream collection
 * said them already. */
static AutoplugSelect
autoplug_select (GstElement * dec, GstPad * pad, GstCaps * caps,
    GstElementFactory * factory, gpointer user_data)
{
  ScanJob *job = user_data;
  gchar *id;
  AutoplugSelect result = AUTOPLUG_TRY;

  if (!gst_element_factory_list_is_type (factory,
          GST_ELEMENT_FACTORY_TYPE_DECODER) || gst_caps_is_empty (caps))
    return AUTOPLUG_TRY;
  id = gst_pad_get_stream_id (pad);
  g_mutex_lock (&job->lock);
  if (!job->video_streams_seen) {
    const gchar *name = gst_structure_get_name (gst_caps_get_structure
        (caps, 0));

    job->video_streams_seen = 1;
    job->decoded_stream = g_strdup (id);
    job->image_codec = g_str_has_prefix (name, "image/");
    if (!job->file.codec && !(job->file.codec =
            gst_pb_utils_get_codec_description (caps)))
      job->file.codec = g_strdup (name);
  } else if (g_strcmp0 (job->decoded_stream, id) != 0) {
    /* Asked once per stream: exposed, it is not asked again. */
    job->video_streams_seen++;
    result = AUTOPLUG_EXPOSE;
  }
  job->file.video_streams = MAX (job->file.video_streams,
      job->video_streams_seen);
  g_mutex_unlock (&job->lock);
  g_free (id);
  return result;
}

/* The converter between the decoder's @pad and the scorers, or NULL to
 * link them straight.  The decoder's caps are not known yet when its pad
 * appears, and its pad template promises formats (I420...) that it may
 * not produce for this stream (ProRes gives 4:2:2 10-bit): deciding on
 * them refused every stream the scorers do not take natively.  A
 * converter decides on the real caps: it passes frames through untouched
 * when the scorers take them, converts them otherwise.  GPU decoding:
 * a CUDA converter (nvcodec's cudaconvert), which keeps frames in CUDA
 * memory, passes through when the scorers take the decoder's format and
 * converts on the GPU otherwise.  Without one, a GPU decoder links
 * straight when the scorers take its CUDA caps (NVDEC gives NV12 or P010,
 * which they do), and through videoconvert otherwise. */
static GstElement *
make_converter (ScanJob * job, GstPad * pad, GstPad * queue_sink)
{
  static const gchar *cuda_converters[] = { "cudaconvert",
    "cudaconvertscale"
  };

  if (job->file.settings->gpu_decode && sharpness_tool_pad_offers_cuda (pad)) {
    GstCaps *accepted, *offered;
    gboolean direct;

    for (guint i = 0; i < G_N_ELEMENTS (cuda_converters); i++) {
      GstElement *e = gst_element_factory_make (cuda_converters[i], NULL);
      if (e)
        return e;
    }
    accepted = gst_pad_query_caps (queue_sink, NULL);
    offered = gst_pad_query_caps (pad, NULL);
    direct = gst_caps_can_intersect (offered, accepted);
    gst_caps_unref (accepted);
    gst_caps_unref (offered);
    if (direct)
      return NULL;
  }
  return gst_element_factory_make ("videoconvert", NULL);
}

/* Links the decoder's video @pad to the queue, through a converter when
 * one is needed (make_converter ()). */
static gboolean
link_video (ScanJob * job, GstPad * pad)
{
  GstPad *queue_sink = gst_element_get_static_pad (job->queue, "sink");
  GstElement *convert = make_converter (job, pad, queue_sink);
  gboolean ok;

  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM,
      scan_frames_decoded_probe, job, NULL);
  if (!convert) {
    ok = gst_pad_link (pad, queue_sink) == GST_PAD_LINK_OK;
  } else {
    GstPad *convert_sink = gst_element_get_static_pad (convert, "sink");

    gst_bin_add (GST_BIN (job->pipeline), convert);
    ok = gst_element_link (convert, job->queue) &&
        gst_pad_link (pad, convert_sink) == GST_PAD_LINK_OK;
    gst_object_unref (convert_sink);
    gst_element_sync_state_with_parent (convert);
  }
  GST_DEBUG ("%s: decoder linked %s%s", job->file.input, convert ?
      "through " : "straight to the scorers", convert ?
      GST_OBJECT_NAME (gst_element_get_factory (convert)) : "");
  gst_object_unref (queue_sink);
  return ok;
}

static void
pad_added (GstElement * dec, GstPad * pad, gpointer user_data)
{
  ScanJob *job = user_data;
  GstPad *sink;
  GstElement *bin = job->pipeline, *fake;

  if (GST_PAD_DIRECTION (pad) != GST_PAD_SRC)
    return;
  if (!job->linked && is_raw_video_pad (pad)) {
    job->linked = link_video (job, pad);
    if (job->linked)
      return;
  }
  /* Any other stream that shows up is dropped. */
  fake = gst_element_factory_make ("fakesink", NULL);
  g_object_set (fake, "sync", FALSE, "async", FALSE, NULL);
  gst_bin_add (GST_BIN (bin), fake);
  sink = gst_element_get_static_pad (fake, "sink");
  gst_pad_link (pad, sink);
  gst_object_unref (sink);
  gst_element_sync_state_with_parent (fake);
}

/* All streams are out and none is decoded video: no video stream at all
 * (a video stream without a decoder has posted its missing-plugin message
 * before this, and that one ends the file).  Said on the bus, from the
 * streaming thread. */
static void
no_more_pads (GstElement * dec, gpointer user_data)
{
  ScanJob *job = user_data;

  if (!job->linked)
    gst_element_post_message (dec, gst_message_new_application (GST_OBJECT
            (dec), gst_structure_new_empty (SCAN_NO_VIDEO_MESSAGE)));
}

static void
element_added (GstBin * bin, GstBin * sub, GstElement * element,
    gpointer user_data)
{
  ScanJob *job = user_data;
  GstElementFactory *f = gst_element_get_factory (element);
  const gchar *klass;

  if (!f)
    return;
  klass = gst_element_factory_get_metadata (f, GST_ELEMENT_METADATA_KLASS);
  /* Still images are decoded by "Codec/Decoder/Image" elements. */
  if (klass && strstr (klass, "Decoder") && (strstr (klass, "Video") ||
          strstr (klass, "Image"))) {
    g_mutex_lock (&job->lock);
    if (!job->file.decoder)
      job->file.decoder = g_strdup (GST_OBJECT_NAME (f));
    g_mutex_unlock (&job->lock);
  }
}

/* The stream collection tells whether there is video at all (an
 * audio-only file is an error, said as such), how many video streams
 * there are (the first one is scanned), and whether it is a still image.
 * Streaming thread, before the frames flow. */
static GstBusSyncReply
sync_handler (GstBus * bus, GstMessage * msg, gpointer user_data)
{
  ScanJob *job = user_data;
  GstStreamCollection *c = NULL;
  guint videos = 0;
  gboolean image = FALSE;
  gchar *codec = NULL;

  if (GST_MESSAGE_TYPE (msg) != GST_MESSAGE_STREAM_COLLECTION)
    return GST_BUS_PASS;
  gst_message_parse_stream_collection (msg, &c);
  for (guint i = 0; c && i < gst_stream_collection_get_size (c); i++) {
    GstStream *s = gst_stream_collection_get_stream (c, i);
    GstCaps *caps;

    if (!(gst_stream_get_stream_type (s) & GST_STREAM_TYPE_VIDEO))
      continue;
    if (videos++ > 0)
      continue;
    caps = gst_stream_get_caps (s);
    if (caps && gst_caps_get_size (caps)) {
      const gchar *name = gst_structure_get_name (gst_caps_get_structure
          (caps, 0));
      codec = gst_pb_utils_get_codec_description (caps);
      if (!codec)
        codec = g_strdup (name);
      image = g_str_has_prefix (name, "image/");
    }
    gst_clear_caps (&caps);
  }
  if (c)
    gst_object_unref (c);
  g_mutex_lock (&job->lock);
  job->no_video = videos == 0;
  job->image_codec = image;
  job->file.video_streams = MAX (job->file.video_streams, videos);
  if (codec) {
    g_free (job->file.codec);
    job->file.codec = codec;
  }
  g_mutex_unlock (&job->lock);
  return GST_BUS_PASS;
}

static GstElement *
make (const gchar * factory, GError ** error)
{
  GstElement *e = gst_element_factory_make (factory, NULL);
  if (!e)
    g_set_error (error, GST_CORE_ERROR, GST_CORE_ERROR_MISSING_PLUGIN,
        "element %s missing%s", factory,
        g_str_equal (factory, "cudasharpness") ? " (is the gst-sharpness "
        "plugin installed, or GST_PLUGIN_PATH set?)" : "");
  return e;
}

/* The source and decoder: filesrc ! decodebin for local files (what
 * uridecodebin builds for them minus its source bin, whose dynamically
 * added queue sometimes never started when pipelines followed one another
 * in a process), fdsrc ! decodebin for standard input ("fd://0"),
 * uridecodebin for other URIs.  Returns the element whose pads appear. */
static GstElement *
add_source (ScanJob * job, GError ** error)
{
  GstElement *src, *reader;
  gchar *path = g_str_has_prefix (job->file.uri, "file:") ?
      g_filename_from_uri (job->file.uri, NULL, NULL) : NULL;
  gboolean fd = g_str_has_prefix (job->file.uri, "fd://");

  if (!path && !fd) {
    if (!(src = make ("uridecodebin", error)))
      return NULL;
    g_object_set (src, "uri", job->file.uri, NULL);
    gst_bin_add (GST_BIN (job->pipeline), src);
    return src;
  }
  if (!(reader = make (fd ? "fdsrc" : "filesrc", error)) ||
      !(src = make ("decodebin", error))) {
    if (reader)
      gst_object_unref (reader);
    g_free (path);
    return NULL;
  }
  if (fd)
    g_object_set (reader, "fd", atoi (job->file.uri + 5), NULL);
  else
    g_object_set (reader, "location", path, NULL);
  g_free (path);
  gst_bin_add_many (GST_BIN (job->pipeline), reader, src, NULL);
  return gst_element_link (reader, src) ? src : NULL;
}

gboolean
scan_pipeline_build (ScanJob * job, GstContext * cuda_context,
    GError ** error)
{
  const ScanSettings *s = job->file.settings;
  GstElement *src, *queue, *sink, *prev, *last = NULL;
  GstPad *pad;
  GstBus *bus;

  job->pipeline = gst_pipeline_new (NULL);
  /* The bin hands it to the decoder and the scorers as they are added. */
  if (cuda_context)
    gst_element_set_context (job->pipeline, cuda_context);
  if (!(src = add_source (job, error)))
    return FALSE;
  job->decodebin = src;
  if (!(queue = make ("queue", error)) || !(sink = make ("fakesink", error)))
    return FALSE;
  job->queue = queue;
  /* The queue lets decoding and scoring run on two threads; short, since
   * GPU decoders have few output surfaces. */
  g_object_set (queue, "max-size-buffers", 4, "max-size-bytes", 0,
      "max-size-time", (guint64) 0, NULL);
  g_object_set (sink, "sync", FALSE, "enable-last-sample", FALSE, NULL);
  gst_bin_add (GST_BIN (job->pipeline), queue);
  prev = queue;
  for (guint m = 0; m < s->n_metrics; m++) {
    GstElement *e = make ("cudasharpness", error);
    if (!e)
      return FALSE;
    g_object_set (e, "post-messages", FALSE, "window", s->window, NULL);
    gst_util_set_object_arg (G_OBJECT (e), "metric",
        sharpness_metric_info[s->metrics[m]].nick);
    if (s->cpu)
      gst_util_set_object_arg (G_OBJECT (e), "backend", "cpu");
    if (m == 0)
      g_object_set (e, "threshold", s->threshold, "relative-threshold",
          s->relative_threshold, NULL);
    scan_content_configure_element (e, s, m == 0);
    gst_bin_add (GST_BIN (job->pipeline), e);
    if (!gst_element_link (prev, e))
      return FALSE;
    prev = last = e;
  }
  gst_bin_add (GST_BIN (job->pipeline), sink);
  if (!gst_element_link (prev, sink))
    return FALSE;

  pad = gst_element_get_static_pad (last, "src");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER |
      GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, scan_frames_probe, job, NULL);
  gst_object_unref (pad);
  g_signal_connect (src, "pad-added", G_CALLBACK (pad_added), job);
  g_signal_connect (src, "autoplug-continue", G_CALLBACK (autoplug_continue),
      job);
  g_signal_connect (src, "autoplug-select", G_CALLBACK (autoplug_select), job);
  g_signal_connect (src, "no-more-pads", G_CALLBACK (no_more_pads), job);
  g_signal_connect (job->pipeline, "deep-element-added",
      G_CALLBACK (element_added), job);

  bus = gst_element_get_bus (job->pipeline);
  gst_bus_set_sync_handler (bus, sync_handler, job, NULL);
  gst_object_unref (bus);
  return TRUE;
}
