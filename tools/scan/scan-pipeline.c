/* sharpness-scan's pipeline for one input:
 *   filesrc ! decodebin (local files), fdsrc ! decodebin (standard input)
 *   or uridecodebin (other URIs)
 *     ! [videoconvert !] queue ! cudasharpness (one per metric; the first
 *     detects the content states) ! fakesink
 * running unsynchronised, and what links it as streams appear.
 *
 * decodebin, not decodebin3 (GStreamer 1.26's decodebin3 sometimes fails
 * a stream with "no decoder": tools/common/sharpness-tool-decode.h), with
 * its stream policy (tools/common): only the first video stream is
 * decoded; audio and subtitle streams, and later video streams, leave
 * decodebin undecoded and end in a fakesink.  A new program (MPEG-TS)
 * makes decodebin replace its pads: the new program's video is scanned
 * on, through the same converter and scorers.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "scan-job.h"
#include "scan-setup.h"
#include "sharpness-tool-decode.h"
#include "sharpness-tool-rule.h"
#include "sharpness-tool-gpu.h"

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

/* The scorers' branch for decoded video like @pad's: the queue, with a
 * converter before it when one is needed (make_converter ()), and a probe
 * that sees the decoder's caps.  Returns the pad decoded video links to
 * (a reference), or NULL. */
static GstPad *
make_video_branch (ScanJob * job, GstPad * pad)
{
  GstPad *in = gst_element_get_static_pad (job->queue, "sink");
  GstElement *convert = make_converter (job, pad, in);

  if (convert) {
    gst_bin_add (GST_BIN (job->pipeline), convert);
    if (!gst_element_link (convert, job->queue)) {
      gst_bin_remove (GST_BIN (job->pipeline), convert);
      gst_object_unref (in);
      return NULL;
    }
    gst_element_sync_state_with_parent (convert);
    gst_object_unref (in);
    in = gst_element_get_static_pad (convert, "sink");
  }
  gst_pad_add_probe (in, GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM,
      scan_frames_decoded_probe, job, NULL);
  GST_DEBUG ("%s: decoder linked %s%s", job->file.input, convert ?
      "through " : "straight to the scorers", convert ?
      GST_OBJECT_NAME (gst_element_get_factory (convert)) : "");
  return in;
}

/* Decoded video goes to the scorers, every other stream is drained. */
static void
pad_added (GstElement * dec, GstPad * pad, gpointer user_data)
{
  ScanJob *job = user_data;

  if (sharpness_tool_decode_output (pad) == SHARPNESS_TOOL_OUTPUT_VIDEO) {
    if (!job->video_branch)
      job->video_branch = make_video_branch (job, pad);
    if (job->video_branch && sharpness_tool_decode_link (pad,
            job->video_branch))
      return;
  }
  sharpness_tool_decode_drain (pad);
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

/* A demuxer's stream collection tells whether there is video at all (an
 * audio-only file is an error, said as such), how many video streams
 * there are (the first one is scanned), those without a decoder too, and
 * the codec as the container names it.  Streaming thread, before the
 * frames flow. */
static GstBusSyncReply
sync_handler (GstBus * bus, GstMessage * msg, gpointer user_data)
{
  ScanJob *job = user_data;
  GstStreamCollection *c = NULL;
  guint videos = 0;
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
    if (caps && gst_caps_get_size (caps))
      codec = sharpness_tool_codec_description (caps);
    gst_clear_caps (&caps);
  }
  if (c)
    gst_object_unref (c);
  g_mutex_lock (&job->lock);
  job->no_video = videos == 0;
  job->file.video_streams = MAX (job->file.video_streams, videos);
  if (codec) {
    g_free (job->file.codec);
    job->file.codec = codec;
  }
  g_mutex_unlock (&job->lock);
  return GST_BUS_PASS;
}

gboolean
scan_pipeline_image_codec (ScanJob * job)
{
  GstCaps *caps = job->decode ?
      sharpness_tool_decode_video_caps (job->decode) : NULL;
  gboolean image = caps && sharpness_tool_codec_is_image (caps);

  gst_clear_caps (&caps);
  return image;
}

void
scan_pipeline_describe (ScanJob * job)
{
  GstCaps *caps;

  if (!job->decode)
    return;
  caps = sharpness_tool_decode_video_caps (job->decode);
  job->file.video_streams = MAX (job->file.video_streams,
      sharpness_tool_decode_video_streams (job->decode));
  if (caps && !job->file.codec)
    job->file.codec = sharpness_tool_codec_description (caps);
  gst_clear_caps (&caps);
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

/* A descriptor of @path when it is no regular file (a FIFO, a character
 * device); -1 when it is one (or a directory, or nothing), -2 with
 * @error set when it cannot be opened.  filesrc would open it in the main thread, where
 * open () waits for a FIFO's writer for ever, and read it with a read ()
 * that stopping the pipeline cannot interrupt: the scan ignored SIGTERM.
 * Opened without waiting (a FIFO's reader need not wait for a writer),
 * then blocking again: fdsrc polls it, and stopping ends its poll. */
static gint
open_stream (const gchar * path, GError ** error)
{
  struct stat st;
  gint fd, flags;

  if (stat (path, &st) != 0 || S_ISREG (st.st_mode) || S_ISDIR (st.st_mode))
    return -1;
  fd = open (path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0 || (flags = fcntl (fd, F_GETFL)) < 0 ||
      fcntl (fd, F_SETFL, flags & ~O_NONBLOCK) < 0) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_OPEN_READ,
        "cannot open it (%s)", g_strerror (errno));
    if (fd >= 0)
      close (fd);
    return -2;
  }
  return fd;
}

/* The source and decoder: filesrc ! decodebin for local files (what
 * uridecodebin builds for them minus its source bin, whose dynamically
 * added queue sometimes never started when pipelines followed one another
 * in a process), fdsrc ! decodebin for standard input ("fd://0") and for
 * local FIFOs and devices (open_stream ()), uridecodebin for other URIs.
 * Returns the element whose pads appear. */
static GstElement *
add_source (ScanJob * job, GError ** error)
{
  GstElement *src, *reader;
  gchar *path = g_str_has_prefix (job->file.uri, "file:") ?
      g_filename_from_uri (job->file.uri, NULL, NULL) : NULL;
  gboolean fd = g_str_has_prefix (job->file.uri, "fd://");

  if (path) {
    gint stream = open_stream (path, error);

    if (stream == -2) {
      g_free (path);
      return NULL;
    }
    if (stream >= 0) {
      job->input_fd = stream;
      g_clear_pointer (&path, g_free);
      fd = TRUE;
    }
  }
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
    g_object_set (reader, "fd", job->input_fd >= 0 ? job->input_fd :
        atoi (job->file.uri + 5), NULL);
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
  job->decode = sharpness_tool_decode_attach (src, FALSE);
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
          s->relative_threshold, "cpbd-threshold",
          s->metrics[0] == SHARPNESS_METRIC_BLUR_EFFECT ?
          SHARPNESS_TOOL_BLUR_EFFECT_CPBD : 0.0, "focus-threshold",
          s->metrics[0] == SHARPNESS_METRIC_BLUR_EFFECT ?
          SHARPNESS_TOOL_BLUR_EFFECT_FOCUS : 0.0, NULL);
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
  g_signal_connect (job->pipeline, "deep-element-added",
      G_CALLBACK (element_added), job);

  bus = gst_element_get_bus (job->pipeline);
  gst_bus_set_sync_handler (bus, sync_handler, job, NULL);
  gst_object_unref (bus);
  return TRUE;
}
