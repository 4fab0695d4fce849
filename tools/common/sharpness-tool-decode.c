/* The tools' stream policy on decodebin (sharpness-tool-decode.h).
 *
 * decodebin asks, for each stream, whether to go on plugging
 * (autoplug-continue: a stream of a kind not decoded is exposed as its
 * demuxer gives it, neither parsed nor decoded) and, for each element it
 * could plug, whether to (autoplug-select: a decoder for a stream other
 * than the one decoded of its kind is not plugged, the stream is exposed
 * parsed).  Both are asked on streaming threads.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/pbutils/pbutils.h>

#include "sharpness-tool-decode.h"
#include "sharpness-tool-dropped-errors.h"

/* decodebin's GstAutoplugSelectResult, which no public header declares. */
typedef enum
{
  AUTOPLUG_TRY = 0,
  AUTOPLUG_EXPOSE = 1,
} AutoplugSelect;

/* The kinds of streams the policy tells apart. */
typedef enum
{
  KIND_VIDEO,
  KIND_AUDIO,
  KIND_OTHER                    /* subtitles, captions, metadata, data */
} StreamKind;

/* The stream of a kind that is decoded: the first one to ask for a
 * decoder.  @origin is the pad it leaves its demuxer by: once the demuxer
 * removed it (a new program), the next stream of the kind takes over. */
typedef struct
{
  gboolean held;
  gchar *id;                    /* may be NULL: a stream without an id */
  GstPad *origin;               /* may be NULL: not known */
} Claim;

struct _SharpnessToolDecode
{
  gint ref_count;
  gboolean audio;               /* the first audio stream is decoded too */
  gint video_pads;              /* atomic: decoded video pads out now */

  GMutex lock;
  Claim video_claim, audio_claim;
  guint video_streams;
  GstCaps *video_caps;
};

/* The pad a chain of decodebin's started on (its demuxer's), kept on the
 * chain's pad the first time decodebin asks about it: origin_quark (). */
static G_DEFINE_QUARK (sharpness-tool-origin, origin)
/* Set on decodebin's decoded video pads: video_pad_quark (). */
static G_DEFINE_QUARK (sharpness-tool-video-pad, video_pad)

static const gchar *const not_video_prefixes[] = { "text/", "subpicture/",
  "subtitle/", "closedcaption/", "meta/", "private/",
  "application/x-subtitle", "application/x-ssa", "application/x-ass",
  "application/x-teletext", "application/x-scte"
};

/* What @caps say the stream is: audio, one of the kinds never decoded, or
 * else video (image codecs, and caps GStreamer cannot name: decodebin
 * goes on plugging them). */
static StreamKind
caps_kind (const GstCaps * caps)
{
  const gchar *name;

  if (!caps || gst_caps_get_size (caps) == 0)
    return KIND_VIDEO;
  name = gst_structure_get_name (gst_caps_get_structure (caps, 0));
  if (g_str_has_prefix (name, "audio/"))
    return KIND_AUDIO;
  for (guint i = 0; i < G_N_ELEMENTS (not_video_prefixes); i++)
    if (g_str_has_prefix (name, not_video_prefixes[i]))
      return KIND_OTHER;
  return KIND_VIDEO;
}

/* The kind of the stream on @pad: its stream-start's type or, without
 * one, what its @caps say. */
static StreamKind
stream_kind (GstPad * pad, const GstCaps * caps)
{
  GstStream *stream = gst_pad_get_stream (pad);
  GstStreamType type = GST_STREAM_TYPE_UNKNOWN;

  if (stream) {
    type = gst_stream_get_stream_type (stream);
    gst_object_unref (stream);
  }
  if (type & GST_STREAM_TYPE_VIDEO)
    return KIND_VIDEO;
  if (type & GST_STREAM_TYPE_AUDIO)
    return KIND_AUDIO;
  if (type & GST_STREAM_TYPE_TEXT)
    return KIND_OTHER;
  return caps_kind (caps);
}

static gboolean
autoplug_continue (GstElement * dec, GstPad * pad, GstCaps * caps,
    gpointer user_data)
{
  SharpnessToolDecode *d = user_data;
  StreamKind kind = stream_kind (pad, caps);

  /* The first question about a chain is asked while its pad is ghosting
   * the demuxer's: that pad is where the stream comes from. */
  if (GST_IS_GHOST_PAD (pad) && !g_object_get_qdata (G_OBJECT (pad),
          origin_quark ()))
    g_object_set_qdata_full (G_OBJECT (pad), origin_quark (),
        gst_ghost_pad_get_target (GST_GHOST_PAD (pad)), gst_object_unref);
  return kind == KIND_VIDEO || (kind == KIND_AUDIO && d->audio);
}

/* Whether @origin, a demuxer's pad, was removed from its demuxer. */
static gboolean
origin_gone (GstPad * origin)
{
  GstElement *demuxer;

  if (!origin)
    return FALSE;
  demuxer = gst_pad_get_parent_element (origin);
  if (demuxer)
    gst_object_unref (demuxer);
  return demuxer == NULL;
}

/* Whether @c's stream is @id. */
static gboolean
owns (const Claim * c, const gchar * id)
{
  return c->held && g_strcmp0 (c->id, id) == 0;
}

static void
take (Claim * c, gchar * id, GstPad * origin)
{
  c->held = TRUE;
  g_free (c->id);
  c->id = id;
  gst_object_replace ((GstObject **) & c->origin, GST_OBJECT (origin));
}

static void
claim_clear (Claim * c)
{
  g_free (c->id);
  gst_clear_object (&c->origin);
}

/* Asked for every element decodebin could plug; only decoders matter. */
static AutoplugSelect
autoplug_select (GstElement * dec, GstPad * pad, GstCaps * caps,
    GstElementFactory * factory, gpointer user_data)
{
  SharpnessToolDecode *d = user_data;
  StreamKind kind;
  Claim *c;
  gchar *id;
  gboolean decode = TRUE;

  if (!gst_element_factory_list_is_type (factory,
          GST_ELEMENT_FACTORY_TYPE_DECODER) || gst_caps_is_empty (caps))
    return AUTOPLUG_TRY;
  kind = stream_kind (pad, caps);
  if (kind == KIND_OTHER)
    return AUTOPLUG_TRY;
  c = kind == KIND_VIDEO ? &d->video_claim : &d->audio_claim;
  id = gst_pad_get_stream_id (pad);
  g_mutex_lock (&d->lock);
  if (owns (c, id)) {
    /* Asked again: the decoder tried before did not start. */
  } else if (!c->held || origin_gone (c->origin)) {
    /* The first stream of its kind, or the first since the demuxer
     * removed that one (a new program replaced it). */
    if (kind == KIND_VIDEO) {
      d->video_streams = MAX (d->video_streams, 1);
      gst_caps_replace (&d->video_caps, caps);
    }
    take (c, g_steal_pointer (&id), g_object_get_qdata (G_OBJECT (pad),
            origin_quark ()));
  } else {
    /* Another stream of a kind decoded already: exposed, it is not asked
     * about again. */
    decode = FALSE;
    if (kind == KIND_VIDEO)
      d->video_streams++;
  }
  g_mutex_unlock (&d->lock);
  g_free (id);
  return decode ? AUTOPLUG_TRY : AUTOPLUG_EXPOSE;
}

/* Decoded video pads are marked as they come: a pad that goes has lost
 * its caps. */
static void
pad_added (GstElement * dec, GstPad * pad, gpointer user_data)
{
  SharpnessToolDecode *d = user_data;

  if (sharpness_tool_decode_output (pad) == SHARPNESS_TOOL_OUTPUT_VIDEO) {
    g_object_set_qdata (G_OBJECT (pad), video_pad_quark (),
        GINT_TO_POINTER (TRUE));
    g_atomic_int_inc (&d->video_pads);
  }
}

static void
pad_removed (GstElement * dec, GstPad * pad, gpointer user_data)
{
  SharpnessToolDecode *d = user_data;

  if (g_object_steal_qdata (G_OBJECT (pad), video_pad_quark ()))
    g_atomic_int_add (&d->video_pads, -1);
}

/* Said on the bus from the streaming thread: the tool's bus watch ends
 * the input. */
static void
no_more_pads (GstElement * dec, gpointer user_data)
{
  SharpnessToolDecode *d = user_data;

  if (g_atomic_int_get (&d->video_pads) == 0)
    gst_element_post_message (dec, gst_message_new_application (GST_OBJECT
            (dec), gst_structure_new_empty (SHARPNESS_TOOL_DECODE_NO_VIDEO)));
}

static SharpnessToolDecode *
decode_ref (SharpnessToolDecode * d)
{
  g_atomic_int_inc (&d->ref_count);
  return d;
}

static void
decode_unref_closure (gpointer data, GClosure * closure)
{
  sharpness_tool_decode_unref (data);
}

/* Connects @callback to @signal of @decodebin, holding a reference. */
static void
connect_signal (GstElement * decodebin, const gchar * signal,
    GCallback callback, SharpnessToolDecode * d)
{
  g_signal_connect_data (decodebin, signal, callback, decode_ref (d),
      decode_unref_closure, 0);
}

SharpnessToolDecode *
sharpness_tool_decode_attach (GstElement * decodebin, gboolean audio)
{
  SharpnessToolDecode *d = g_new0 (SharpnessToolDecode, 1);

  d->ref_count = 1;
  d->audio = audio;
  g_mutex_init (&d->lock);
  connect_signal (decodebin, "autoplug-continue",
      G_CALLBACK (autoplug_continue), d);
  connect_signal (decodebin, "autoplug-select", G_CALLBACK (autoplug_select),
      d);
  connect_signal (decodebin, "pad-added", G_CALLBACK (pad_added), d);
  connect_signal (decodebin, "pad-removed", G_CALLBACK (pad_removed), d);
  connect_signal (decodebin, "no-more-pads", G_CALLBACK (no_more_pads), d);
  sharpness_tool_dropped_errors_watch (decodebin);
  return d;
}

void
sharpness_tool_decode_unref (SharpnessToolDecode * d)
{
  if (!g_atomic_int_dec_and_test (&d->ref_count))
    return;
  claim_clear (&d->video_claim);
  claim_clear (&d->audio_claim);
  gst_clear_caps (&d->video_caps);
  g_mutex_clear (&d->lock);
  g_free (d);
}

guint
sharpness_tool_decode_video_streams (SharpnessToolDecode * d)
{
  guint n;

  g_mutex_lock (&d->lock);
  n = d->video_streams;
  g_mutex_unlock (&d->lock);
  return n;
}

GstCaps *
sharpness_tool_decode_video_caps (SharpnessToolDecode * d)
{
  GstCaps *caps;

  g_mutex_lock (&d->lock);
  caps = d->video_caps ? gst_caps_ref (d->video_caps) : NULL;
  g_mutex_unlock (&d->lock);
  return caps;
}

gchar *
sharpness_tool_codec_description (const GstCaps * caps)
{
  gchar *codec = gst_pb_utils_get_codec_description (caps);

  if (!codec && gst_caps_get_size (caps) > 0)
    codec = g_strdup (gst_structure_get_name (gst_caps_get_structure (caps,
                0)));
  return codec;
}

gboolean
sharpness_tool_codec_is_image (const GstCaps * caps)
{
  return gst_caps_get_size (caps) > 0 && g_str_has_prefix
      (gst_structure_get_name (gst_caps_get_structure (caps, 0)), "image/");
}

SharpnessToolOutput
sharpness_tool_decode_output (GstPad * pad)
{
  GstCaps *caps = gst_pad_get_current_caps (pad);
  SharpnessToolOutput output = SHARPNESS_TOOL_OUTPUT_OTHER;

  /* decodebin exposes a pad once its caps are fixed. */
  if (!caps)
    caps = gst_pad_query_caps (pad, NULL);
  if (gst_caps_get_size (caps) > 0) {
    const GstStructure *s = gst_caps_get_structure (caps, 0);

    if (gst_structure_has_name (s, "video/x-raw"))
      output = SHARPNESS_TOOL_OUTPUT_VIDEO;
    else if (gst_structure_has_name (s, "audio/x-raw"))
      output = SHARPNESS_TOOL_OUTPUT_AUDIO;
  }
  gst_caps_unref (caps);
  return output;
}

gboolean
sharpness_tool_decode_link (GstPad * pad, GstPad * branch)
{
  return !gst_pad_is_linked (branch) &&
      gst_pad_link (pad, branch) == GST_PAD_LINK_OK;
}

/* Off the streaming thread (gst_element_call_async): @sink out of its
 * bin. */
static void
remove_sink (GstElement * sink, gpointer user_data)
{
  GstObject *bin = gst_object_get_parent (GST_OBJECT (sink));

  gst_element_set_state (sink, GST_STATE_NULL);
  if (bin) {
    gst_bin_remove (GST_BIN (bin), sink);
    gst_object_unref (bin);
  }
}

/* A drained pad went away.  While the pipeline plays, decodebin replaced
 * it (a new program): its sink goes too, or the pipeline would wait for
 * that sink's end of stream for ever.  (Pipelines being stopped unlink
 * everything: nothing to do then.) */
static void
drained_unlinked (GstPad * sinkpad, GstPad * peer, gpointer user_data)
{
  GstElement *sink = gst_pad_get_parent_element (sinkpad);
  GstState target;

  if (!sink)
    return;
  GST_OBJECT_LOCK (sink);
  target = GST_STATE_TARGET (sink);
  GST_OBJECT_UNLOCK (sink);
  if (target >= GST_STATE_PAUSED)
    gst_element_call_async (sink, remove_sink, NULL, NULL);
  gst_object_unref (sink);
}

void
sharpness_tool_decode_drain (GstPad * pad)
{
  GstElement *dec = gst_pad_get_parent_element (pad);
  GstObject *bin = dec ? gst_object_get_parent (GST_OBJECT (dec)) : NULL;
  GstElement *sink = gst_element_factory_make ("fakesink", NULL);
  GstPad *sinkpad;

  if (dec)
    gst_object_unref (dec);
  if (!bin || !sink) {
    g_clear_object (&bin);
    g_clear_object (&sink);
    return;
  }
  g_object_set (sink, "sync", FALSE, "async", FALSE, NULL);
  gst_bin_add (GST_BIN (bin), sink);
  gst_object_unref (bin);
  sinkpad = gst_element_get_static_pad (sink, "sink");
  g_signal_connect (sinkpad, "unlinked", G_CALLBACK (drained_unlinked), NULL);
  gst_pad_link (pad, sinkpad);
  gst_object_unref (sinkpad);
  gst_element_sync_state_with_parent (sink);
}

gboolean
sharpness_tool_decode_missing_not_video (GstMessage * msg)
{
  const GstStructure *s = gst_message_get_structure (msg);
  GstCaps *caps = NULL;
  gboolean not_video;

  if (!gst_is_missing_plugin_message (msg) ||
      g_strcmp0 (gst_structure_get_string (s, "type"), "decoder") ||
      !gst_structure_get (s, "detail", GST_TYPE_CAPS, &caps, NULL))
    return FALSE;
  not_video = caps_kind (caps) != KIND_VIDEO;
  gst_caps_unref (caps);
  return not_video;
}
