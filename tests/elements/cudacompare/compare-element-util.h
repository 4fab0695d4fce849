/* Runs cudacompare in a pipeline of two appsrc and an appsink, for the
 * element tests: every frame is pushed (as a sample with its caps, so that
 * caps may change between frames) before the pipeline plays; the outputs
 * and the bus messages are collected until EOS or an error.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef COMPARE_ELEMENT_UTIL_H
#define COMPARE_ELEMENT_UTIL_H

#include <string.h>

#include <gst/gst.h>
#include <gst/app/gstappsrc.h>
#include <gst/app/gstappsink.h>
#include <gst/video/video.h>

#include "compare.h"

#define FRAME_DURATION (GST_SECOND / 25)

typedef struct
{
  GPtrArray *out;               /* GstSample of every output buffer */
  GPtrArray *messages;          /* element, warning and error messages */
  gboolean eos, error;
} RunResult;

/* Caps of @format @w x @h at 25 fps, with @features (NULL: system). */
static inline GstCaps *
util_caps (const gchar * format, gint w, gint h, const gchar * features)
{
  GstCaps *caps = gst_caps_new_simple ("video/x-raw",
      "format", G_TYPE_STRING, format, "width", G_TYPE_INT, w,
      "height", G_TYPE_INT, h, "framerate", GST_TYPE_FRACTION, 25, 1,
      NULL);

  if (features)
    gst_caps_set_features (caps, 0, gst_caps_features_new (features, NULL));
  return caps;
}

/* A frame of @caps: smooth content of @seed plus noise of amplitude
 * @noise (of seed @noise_seed), valid samples of the format's depth. */
static inline GstBuffer *
util_frame (GstCaps * caps, guint seed, gint noise, guint noise_seed,
    guint index)
{
  GstVideoInfo info;
  GstVideoFrame frame;
  GstBuffer *buf;
  guint32 rng = 2654435761u * (noise_seed + 1);

  g_assert (gst_video_info_from_caps (&info, caps));
  buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
  g_assert (gst_video_frame_map (&frame, &info, buf, GST_MAP_WRITE));
  /* Padding and alpha/x bytes: defined, not compared. */
  memset (GST_VIDEO_FRAME_PLANE_DATA (&frame, 0), 0x5a,
      GST_VIDEO_INFO_SIZE (&info) - GST_VIDEO_INFO_PLANE_OFFSET (&info, 0));
  for (guint c = 0; c < GST_VIDEO_FRAME_N_COMPONENTS (&frame); c++) {
    gint w = GST_VIDEO_FRAME_COMP_WIDTH (&frame, c);
    gint h = GST_VIDEO_FRAME_COMP_HEIGHT (&frame, c);
    gint ps = GST_VIDEO_FRAME_COMP_PSTRIDE (&frame, c);
    gint st = GST_VIDEO_FRAME_COMP_STRIDE (&frame, c);
    gint depth = GST_VIDEO_FRAME_COMP_DEPTH (&frame, c);
    gint shift = GST_VIDEO_FORMAT_INFO_SHIFT (info.finfo, c);
    gint max = (1 << depth) - 1;
    guint8 *data = GST_VIDEO_FRAME_PLANE_DATA (&frame,
        GST_VIDEO_FORMAT_INFO_PLANE (info.finfo, c)) +
        GST_VIDEO_FORMAT_INFO_POFFSET (info.finfo, c);

    /* GStreamer 1.22 gives P010's V offset as 1 (a sample, not a byte). */
    if (depth > 8 && (GST_VIDEO_FORMAT_INFO_POFFSET (info.finfo, c) & 1))
      data += GST_VIDEO_FORMAT_INFO_POFFSET (info.finfo, c);

    if (GST_VIDEO_FORMAT_INFO_HAS_ALPHA (info.finfo) && c == 3)
      continue;
    for (gint y = 0; y < h; y++) {
      for (gint x = 0; x < w; x++) {
        gdouble v = 0.5 + 0.35 * sin ((x + 3.0 * seed + 7 * c) * 0.11) *
            cos ((y - 2.0 * seed) * 0.07 + c);
        gint s = (gint) (v * max);

        rng ^= rng << 13;
        rng ^= rng >> 17;
        rng ^= rng << 5;
        if (noise)
          s += (gint) (rng % (2 * noise * (max / 255 + 1) + 1)) -
              noise * (max / 255 + 1);
        s = CLAMP (s, 0, max);
        if (depth > 8)
          GST_WRITE_UINT16_LE (data + y * st + x * ps, s << shift);
        else
          data[y * st + x * ps] = s;
      }
    }
  }
  gst_video_frame_unmap (&frame);
  GST_BUFFER_PTS (buf) = index * FRAME_DURATION;
  GST_BUFFER_DURATION (buf) = FRAME_DURATION;
  return buf;
}

/* Runs "appsrc ! c.ref_sink appsrc ! c.dist_sink cudacompare @props !
 * appsink" on the samples (GstSample, NULL-terminated arrays). */
static inline void
util_run (const gchar * props, GstSample ** ref, GstSample ** dist,
    RunResult * r)
{
  gchar *desc = g_strdup_printf ("cudacompare name=c %s ! appsink name=s "
      "sync=false wait-on-eos=false appsrc name=r format=time max-bytes=0 ! c.ref_sink "
      "appsrc name=d format=time max-bytes=0 ! c.dist_sink", props);
  GError *err = NULL;
  GstElement *pipe = gst_parse_launch (desc, &err);
  GstElement *rsrc, *dsrc, *sink;
  GstBus *bus;

  g_assert_no_error (err);
  g_free (desc);
  memset (r, 0, sizeof (*r));
  r->out = g_ptr_array_new_with_free_func ((GDestroyNotify) gst_sample_unref);
  r->messages = g_ptr_array_new_with_free_func ((GDestroyNotify)
      gst_message_unref);
  rsrc = gst_bin_get_by_name (GST_BIN (pipe), "r");
  dsrc = gst_bin_get_by_name (GST_BIN (pipe), "d");
  sink = gst_bin_get_by_name (GST_BIN (pipe), "s");
  for (guint i = 0; ref && ref[i]; i++)
    gst_app_src_push_sample (GST_APP_SRC (rsrc), ref[i]);
  gst_app_src_end_of_stream (GST_APP_SRC (rsrc));
  for (guint i = 0; dist && dist[i]; i++)
    gst_app_src_push_sample (GST_APP_SRC (dsrc), dist[i]);
  gst_app_src_end_of_stream (GST_APP_SRC (dsrc));

  bus = gst_element_get_bus (pipe);
  gst_element_set_state (pipe, GST_STATE_PLAYING);
  for (;;) {
    GstMessage *msg = gst_bus_timed_pop (bus, 30 * GST_SECOND);
    GstSample *sample;

    g_assert (msg != NULL);     /* a timeout: a deadlock */
    switch (GST_MESSAGE_TYPE (msg)) {
      case GST_MESSAGE_ELEMENT:
      case GST_MESSAGE_WARNING:
        g_ptr_array_add (r->messages, msg);
        continue;
      case GST_MESSAGE_ERROR:
        g_ptr_array_add (r->messages, msg);
        r->error = TRUE;
        break;
      case GST_MESSAGE_EOS:
        r->eos = TRUE;
        gst_message_unref (msg);
        break;
      default:
        gst_message_unref (msg);
        continue;
    }
    /* EOS or error: the appsink has everything. */
    while ((sample = gst_app_sink_try_pull_sample (GST_APP_SINK (sink), 0)))
      g_ptr_array_add (r->out, sample);
    break;
  }
  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (rsrc);
  gst_object_unref (dsrc);
  gst_object_unref (sink);
  gst_object_unref (pipe);
}

static inline void
util_result_clear (RunResult * r)
{
  g_ptr_array_unref (r->out);
  g_ptr_array_unref (r->messages);
}

/* The @i-th message named @name (element) or of @type (warning, error). */
static inline const GstStructure *
util_element_message (RunResult * r, const gchar * name, guint i)
{
  for (guint k = 0; k < r->messages->len; k++) {
    GstMessage *m = g_ptr_array_index (r->messages, k);
    const GstStructure *s = gst_message_get_structure (m);

    if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_ELEMENT &&
        gst_structure_has_name (s, name) && i-- == 0)
      return s;
  }
  return NULL;
}

static inline guint
util_count_messages (RunResult * r, const gchar * name)
{
  guint n = 0;

  while (util_element_message (r, name, n))
    n++;
  return n;
}

/* TRUE when a warning (or error) text contains every @needle. */
static inline gboolean
util_has_text (RunResult * r, GstMessageType type, const gchar * needle,
    const gchar * needle2)
{
  for (guint k = 0; k < r->messages->len; k++) {
    GstMessage *m = g_ptr_array_index (r->messages, k);
    GError *err = NULL;
    gchar *dbg = NULL;
    gboolean hit;

    if (GST_MESSAGE_TYPE (m) != type)
      continue;
    if (type == GST_MESSAGE_WARNING)
      gst_message_parse_warning (m, &err, &dbg);
    else
      gst_message_parse_error (m, &err, &dbg);
    hit = strstr (err->message, needle) &&
        (!needle2 || strstr (err->message, needle2));
    g_clear_error (&err);
    g_free (dbg);
    if (hit)
      return TRUE;
  }
  return FALSE;
}

/* The planes of @buf (@caps: a planar format with components in plane
 * order) as ComparePair side @which; map kept in @frame. */
static inline void
util_pair_side (GstVideoFrame * frame, GstCaps * caps, GstBuffer * buf,
    ComparePair * pair, gint which)
{
  GstVideoInfo info;

  g_assert (gst_video_info_from_caps (&info, caps));
  g_assert (gst_video_frame_map (frame, &info, buf, GST_MAP_READ));
  pair->n_planes = GST_VIDEO_INFO_IS_GRAY (&info) ? 1 : 3;
  pair->depth = GST_VIDEO_INFO_COMP_DEPTH (&info, 0);
  for (gint c = 0; c < pair->n_planes; c++) {
    pair->width[c] = GST_VIDEO_FRAME_COMP_WIDTH (frame, c);
    pair->height[c] = GST_VIDEO_FRAME_COMP_HEIGHT (frame, c);
    if (which) {
      pair->dist[c] = GST_VIDEO_FRAME_COMP_DATA (frame, c);
      pair->dist_stride[c] = GST_VIDEO_FRAME_COMP_STRIDE (frame, c);
    } else {
      pair->ref[c] = GST_VIDEO_FRAME_COMP_DATA (frame, c);
      pair->ref_stride[c] = GST_VIDEO_FRAME_COMP_STRIDE (frame, c);
    }
  }
}

#endif /* COMPARE_ELEMENT_UTIL_H */
