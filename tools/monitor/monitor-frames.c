/* sharpness-monitor: what the streaming threads do per frame: read the
 * frame's GstSharpnessMeta and count it, note its time and tile map, time
 * its processing, gate the thumbnail branch to about one frame a second,
 * and count the frames that leaky queues drop.  No allocation but a
 * pipeline's first frame's duration query; the channel's lock is held for
 * the counter updates only.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <string.h>

#include "monitor-channel.h"
#include "sharpness-meta.h"

const gdouble monitor_score_bucket_factors[MONITOR_SCORE_BUCKETS] = {
  0.25, 0.5, 0.7, 0.85, 1.0, 1.15, 1.3, 1.5, 2.0, 4.0
};

const gdouble monitor_score_bucket_decades[MONITOR_SCORE_BUCKETS] = {
  0.001, 0.01, 0.1, 0.3, 1, 3, 10, 100, 1000, 10000
};

const gdouble monitor_latency_buckets[MONITOR_LATENCY_BUCKETS] = {
  0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10
};

/* The thumbnail branch takes one frame per this much stream time. */
#define THUMB_PERIOD GST_SECOND

static guint
bucket_of (const gdouble * bounds, guint n, gdouble scale, gdouble v)
{
  guint i;

  for (i = 0; i < n; i++)
    if (v <= bounds[i] * scale)
      break;
  return i;
}

GstPadProbeReturn
monitor_frames_decoded_probe (GstPad * pad, GstPadProbeInfo * info,
    gpointer user_data)
{
  MonitorChannel *c = user_data;

  /* A pipeline being torn down still passes its last frames: they are not
   * this channel's any more. */
  if ((GstElement *) GST_PAD_PARENT (pad) != c->analysis_queue)
    return GST_PAD_PROBE_OK;
  g_mutex_lock (&c->lock);
  c->st.decoded++;
  g_mutex_unlock (&c->lock);
  return GST_PAD_PROBE_OK;
}

static void
note_caps (MonitorChannel * c, GstCaps * caps)
{
  GstVideoInfo vi;

  if (!gst_video_info_from_caps (&vi, caps))
    return;
  g_mutex_lock (&c->lock);
  c->st.width = GST_VIDEO_INFO_WIDTH (&vi);
  c->st.height = GST_VIDEO_INFO_HEIGHT (&vi);
  c->st.fps_n = GST_VIDEO_INFO_FPS_N (&vi);
  c->st.fps_d = GST_VIDEO_INFO_FPS_D (&vi);
  g_mutex_unlock (&c->lock);
}

/* Seconds from the frame's due time on the pipeline clock to now. */
static gdouble
latency_of (MonitorChannel * c, GstPad * pad, guint64 running_time)
{
  GstElement *e = c->scorer;
  GstClock *clock;
  GstClockTime now, base;
  gdouble s;

  if (running_time == GST_CLOCK_TIME_NONE || !e)
    return NAN;
  clock = gst_element_get_clock (e);
  if (!clock)
    return NAN;
  now = gst_clock_get_time (clock);
  base = gst_element_get_base_time (e);
  gst_object_unref (clock);
  if (now < base + running_time)
    return 0;
  s = (gdouble) (now - base - running_time) / GST_SECOND;
  return s;
}

/* An http(s) source that knows its duration when its first frame comes
 * (a VOD playlist, a file served over HTTP) ends as a file does
 * (monitor-channel.c).  Asked once per pipeline, here: a query may wait on
 * the demuxer, which a streaming thread may do and the main loop may
 * not. */
static void
note_source_duration (MonitorChannel * c, GstElement * scorer)
{
  const gchar *uri = c->cfg->uri;
  GstPad *sink;
  gint64 d = -1;

  if (!uri || !(g_str_has_prefix (uri, "http:") ||
          g_str_has_prefix (uri, "https:")))
    return;
  sink = gst_element_get_static_pad (scorer, "sink");
  if (sink && gst_pad_peer_query_duration (sink, GST_FORMAT_TIME, &d) &&
      d > 0)
    g_atomic_int_set (&c->source_ends, TRUE);
  if (sink)
    gst_object_unref (sink);
}

GstPadProbeReturn
monitor_frames_scored_probe (GstPad * pad, GstPadProbeInfo * info,
    gpointer user_data)
{
  MonitorChannel *c = user_data;
  SharpnessMetaReading r;
  GstBuffer *buf;
  guint64 pts, rt;
  gboolean scored;
  gdouble latency;
  MonitorRingEntry *slot;
  guint ntiles = 0;

  if ((GstElement *) GST_PAD_PARENT (pad) != c->scorer)
    return GST_PAD_PROBE_OK;
  if (info->type & GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM) {
    GstEvent *ev = GST_PAD_PROBE_INFO_EVENT (info);
    if (GST_EVENT_TYPE (ev) == GST_EVENT_SEGMENT)
      gst_event_copy_segment (ev, &c->segment);
    else if (GST_EVENT_TYPE (ev) == GST_EVENT_CAPS) {
      GstCaps *caps;
      gst_event_parse_caps (ev, &caps);
      note_caps (c, caps);
    }
    return GST_PAD_PROBE_OK;
  }
  /* Only this streaming thread counts frames (the main loop resets the
   * count before the pipeline plays). */
  if (c->frame_index == 0)
    note_source_duration (c, GST_PAD_PARENT (pad));
  buf = GST_PAD_PROBE_INFO_BUFFER (info);
  pts = GST_BUFFER_PTS (buf);
  rt = c->segment.format == GST_FORMAT_TIME ?
      gst_segment_to_running_time (&c->segment, GST_FORMAT_TIME, pts) :
      GST_CLOCK_TIME_NONE;
  scored = sharpness_meta_read (buf, NULL, &r);
  latency = latency_of (c, pad, rt);

  g_mutex_lock (&c->lock);
  slot = &c->ring[c->frame_index % MONITOR_RING];
  slot->frame = c->frame_index;
  slot->pts = pts;
  slot->running_time = rt;
  slot->wall_us = g_get_real_time ();
  slot->score = scored ? r.score : NAN;
  c->st.pts = pts;
  c->st.running_time = rt;
  c->st.last_frame_mono_us = g_get_monotonic_time ();
  c->st.last_frame_wall_us = slot->wall_us;
  if (scored) {
    const MonitorChannelConfig *cfg = c->cfg;
    gboolean decades = cfg->threshold <= 0;
    guint b = bucket_of (decades ? monitor_score_bucket_decades :
        monitor_score_bucket_factors, MONITOR_SCORE_BUCKETS,
        decades ? 1.0 : cfg->threshold, r.score);

    c->st.scored++;
    c->st.blurry += r.blurry ? 1 : 0;
    c->st.score = r.score;
    c->st.content_state = r.content_state ? (g_str_equal (r.content_state,
            "normal") ? "normal" : g_str_equal (r.content_state, "black") ?
        "black" : g_str_equal (r.content_state, "frozen") ? "frozen" :
        g_str_equal (r.content_state, "flat") ? "flat" : "blurry") : NULL;
    c->st.score_buckets[b]++;
    c->st.score_sum += r.score;
    ntiles = r.tiles_cols * r.tiles_rows;
    if (ntiles && ntiles <= G_N_ELEMENTS (c->st.tiles)) {
      c->st.tiles_cols = r.tiles_cols;
      c->st.tiles_rows = r.tiles_rows;
      for (guint i = 0; i < ntiles; i++)
        c->st.tiles[i] = sharpness_meta_reading_tile (&r, i);
      if (c->ring_tiles && ntiles <= MONITOR_RING_MAX_TILES)
        memcpy (c->ring_tiles + (c->frame_index % MONITOR_RING) *
            MONITOR_RING_MAX_TILES, c->st.tiles, ntiles * sizeof (gfloat));
    }
  }
  if (!isnan (latency)) {
    c->st.latency_buckets[bucket_of (monitor_latency_buckets,
            MONITOR_LATENCY_BUCKETS, 1.0, latency)]++;
    c->st.latency_sum += latency;
    c->st.latency_count++;
  }
  c->frame_index++;
  g_mutex_unlock (&c->lock);
  return GST_PAD_PROBE_OK;
}

GstPadProbeReturn
monitor_frames_thumb_gate (GstPad * pad, GstPadProbeInfo * info,
    gpointer user_data)
{
  MonitorChannel *c = user_data;
  guint64 pts;

  if (!(info->type & GST_PAD_PROBE_TYPE_BUFFER))
    return GST_PAD_PROBE_OK;
  pts = GST_BUFFER_PTS (GST_PAD_PROBE_INFO_BUFFER (info));
  /* Only this branch's streaming thread reads and writes the gate. */
  if (pts != GST_CLOCK_TIME_NONE && c->thumb_last_pts != GST_CLOCK_TIME_NONE
      && pts >= c->thumb_last_pts && pts - c->thumb_last_pts < THUMB_PERIOD)
    return GST_PAD_PROBE_DROP;
  c->thumb_last_pts = pts;
  return GST_PAD_PROBE_OK;
}

/* A full leaky queue drops one buffer per overrun. */
void
monitor_frames_queue_overrun (GstElement * queue, gpointer user_data)
{
  MonitorChannel *c = user_data;

  /* A blocking queue drops nothing when full. */
  if (!c->live)
    return;
  g_mutex_lock (&c->lock);
  c->st.dropped[MONITOR_DROP_QUEUE]++;
  g_mutex_unlock (&c->lock);
}

void
monitor_frames_audio_overrun (GstElement * queue, gpointer user_data)
{
  MonitorChannel *c = user_data;

  if (!c->live)
    return;
  g_mutex_lock (&c->lock);
  c->st.dropped[MONITOR_DROP_AUDIO_QUEUE]++;
  g_mutex_unlock (&c->lock);
}
