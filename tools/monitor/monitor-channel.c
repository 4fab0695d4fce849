/* sharpness-monitor: a channel's life: its pipeline set playing and torn
 * down on threads of their own (a source's open() or a network source's
 * teardown may block: the main loop never waits for one), its bus watched
 * on the main loop, and, when it fails (source gone, decoder error,
 * garbage input, no frame for --restart-after), rebuilt after a backoff of
 * 1 s doubling up to 30 s (--max-backoff), or after 1 s every time for a
 * source whose retry asks nothing of a server (UDP, RTP, SRT), without
 * touching the other channels.  What it says about a channel is redacted
 * (sharpness_redact): GStreamer's errors quote URIs and paths.
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
#include "monitor-scte35.h"
#include "sharpness-tool-redact.h"

#define BACKOFF_MIN_S 1
/* Up this long: the next failure starts the backoff again at 1 s. */
#define STABLE_US (30 * G_USEC_PER_SEC)
#define SPARK_PERIOD_US (G_USEC_PER_SEC / 2)

static const gchar *drop_reasons[MONITOR_N_DROP_REASONS] = {
  "queue-full", "audio-queue-full"
};

static const gchar *states[] = { "starting", "up", "retrying", "finished" };

const gchar *
monitor_drop_reason_name (MonitorDropReason r)
{
  return drop_reasons[r];
}

const gchar *
monitor_channel_state_name (MonitorChannelState s)
{
  return states[s];
}

/* What the alarms read of the channel (monitor-alarms.h). */
static gint64 alarms_wall_clock_at (gpointer c, guint64 pts);
static guint64 alarms_running_time_at (gpointer c, guint64 pts);
static guint alarms_tiles_of_frame (gpointer c, guint64 frame,
    gfloat * tiles, guint max, guint * cols, guint * rows);
static GstSample *alarms_thumbnail (gpointer c);
static void alarms_pair (gpointer c, gdouble psnr, gdouble ssim);
static void alarms_vmaf (gpointer c, gdouble vmaf);

static const MonitorAlarmsSource alarms_source = {
  alarms_wall_clock_at, alarms_running_time_at, alarms_tiles_of_frame,
  alarms_thumbnail, alarms_pair, alarms_vmaf
};

static void
reset_stats (MonitorChannel * c)
{
  guint64 keep[MONITOR_N_DROP_REASONS];
  guint64 decoded, scored, blurry, sbuckets[MONITOR_SCORE_BUCKETS + 1],
      lbuckets[MONITOR_LATENCY_BUCKETS + 1], lcount;
  gdouble ssum, lsum;
  gint64 last_mono, last_wall;

  /* Counters are totals over the process' life: they survive restarts. */
  g_mutex_lock (&c->lock);
  memcpy (keep, c->st.dropped, sizeof (keep));
  decoded = c->st.decoded;
  scored = c->st.scored;
  blurry = c->st.blurry;
  memcpy (sbuckets, c->st.score_buckets, sizeof (sbuckets));
  memcpy (lbuckets, c->st.latency_buckets, sizeof (lbuckets));
  ssum = c->st.score_sum;
  lsum = c->st.latency_sum;
  lcount = c->st.latency_count;
  last_mono = c->st.last_frame_mono_us;
  last_wall = c->st.last_frame_wall_us;
  memset (&c->st, 0, sizeof (c->st));
  memcpy (c->st.dropped, keep, sizeof (keep));
  c->st.decoded = decoded;
  c->st.scored = scored;
  c->st.blurry = blurry;
  memcpy (c->st.score_buckets, sbuckets, sizeof (sbuckets));
  memcpy (c->st.latency_buckets, lbuckets, sizeof (lbuckets));
  c->st.score_sum = ssum;
  c->st.latency_sum = lsum;
  c->st.latency_count = lcount;
  c->st.score = NAN;
  c->st.psnr = c->st.ssim = c->st.vmaf = NAN;
  /* No frame of the new pipeline yet; the last frame's time stays, for
   * the no-signal alarm runs from it across rebuilds. */
  c->st.pts = c->st.running_time = GST_CLOCK_TIME_NONE;
  c->st.last_frame_mono_us = last_mono;
  c->st.last_frame_wall_us = last_wall;
  c->no_video = FALSE;
  g_mutex_unlock (&c->lock);
}

MonitorChannel *
monitor_channel_new (MonitorChannelHost * host,
    const MonitorChannelConfig * cfg, guint index)
{
  MonitorChannel *c = g_new0 (MonitorChannel, 1);

  c->ref_count = 1;
  c->host = host;
  c->cfg = monitor_channel_config_copy (cfg);
  c->index = index;
  c->backoff_s = BACKOFF_MIN_S;
  g_mutex_init (&c->lock);
  if (cfg->tiles)
    c->ring_tiles = g_new0 (gfloat, MONITOR_RING * MONITOR_RING_MAX_TILES);
  reset_stats (c);
  monitor_alarms_init (&c->alarms, c->cfg, &alarms_source, c, host->event,
      host->owner);
  if (c->cfg->transport.enabled)
    c->transport = monitor_transport_new (&c->cfg->transport);
  c->loudness = monitor_loudness_new ();
  c->captions = monitor_captions_new ();
  return c;
}

MonitorChannel *
monitor_channel_ref (MonitorChannel * c)
{
  g_atomic_int_inc (&c->ref_count);
  return c;
}

void
monitor_channel_unref (MonitorChannel * c)
{
  if (!g_atomic_int_dec_and_test (&c->ref_count))
    return;
  monitor_alarms_clear (&c->alarms);
  if (c->transport)
    monitor_transport_free (c->transport);
  monitor_loudness_free (c->loudness);
  monitor_captions_free (c->captions);
  if (c->thumb)
    gst_sample_unref (c->thumb);
  g_free (c->ring_tiles);
  g_free (c->last_error);
  g_free (c->codec);
  g_mutex_clear (&c->lock);
  monitor_channel_config_free (c->cfg);
  g_free (c);
}

/* Setting a pipeline to NULL waits for its streaming threads, which a
 * network source may keep for seconds: done on a thread of its own. */
static gpointer
teardown_thread (gpointer data)
{
  GstElement *pipe = data;
  MonitorChannel *c = g_object_get_data (G_OBJECT (pipe), "channel");

  gst_element_set_state (pipe, GST_STATE_NULL);
  gst_object_unref (pipe);
  g_atomic_int_add (&c->host->teardowns, -1);
  monitor_channel_unref (c);
  return NULL;
}

/* Takes @pipe. */
static void
release_pipeline (MonitorChannel * c, GstElement * pipe)
{
  g_object_set_data (G_OBJECT (pipe), "channel", monitor_channel_ref (c));
  g_atomic_int_inc (&c->host->teardowns);
  g_thread_unref (g_thread_new ("monitor-teardown", teardown_thread, pipe));
}

static void
teardown (MonitorChannel * c)
{
  GstElement *pipe = c->pipeline;

  if (!pipe)
    return;
  if (c->bus_watch) {
    g_source_remove (c->bus_watch);
    c->bus_watch = 0;
  }
  c->pipeline = NULL;
  c->analysis_queue = c->scorer = c->video_tee = NULL;
  c->sink = NULL;
  monitor_alarms_pipeline_gone (&c->alarms, c->removed);
  release_pipeline (c, pipe);
}

static gboolean
restart_cb (gpointer data)
{
  MonitorChannel *c = data;

  c->restart_id = 0;
  monitor_channel_start (c);
  return G_SOURCE_REMOVE;
}

/* A source that only listens (UDP, RTP) or whose connection attempt is
 * one handshake packet (SRT): a retry asks nothing of a server, so it is
 * retried after 1 s every time, and a sender that comes back is picked up
 * within about a second, not after a backoff grown to 30 s. */
static gboolean
retry_is_cheap (const MonitorChannelConfig * cfg)
{
  return cfg->uri && (g_str_has_prefix (cfg->uri, "udp:") ||
      g_str_has_prefix (cfg->uri, "rtp:") ||
      g_str_has_prefix (cfg->uri, "srt:"));
}

static void
schedule_restart (MonitorChannel * c)
{
  if (c->removed || c->host->stopping)
    return;
  c->state = MONITOR_CHANNEL_RETRYING;
  if (c->restart_id)
    g_source_remove (c->restart_id);
  c->restart_id = g_timeout_add_seconds_full (G_PRIORITY_DEFAULT,
      c->backoff_s, restart_cb, monitor_channel_ref (c),
      (GDestroyNotify) monitor_channel_unref);
  if (!retry_is_cheap (c->cfg))
    c->backoff_s = MIN (c->backoff_s * 2, c->host->settings->max_backoff);
}

void
monitor_channel_fail (MonitorChannel * c, const gchar * why)
{
  gchar *text = sharpness_redact (why);

  if (!c->host->settings->quiet)
    g_printerr ("sharpness-monitor: %s: %s; restarting in %u s\n",
        c->cfg->name, text, c->backoff_s);
  g_free (c->last_error);
  c->last_error = text;
  teardown (c);
  c->restarts++;
  c->reconnect_pending = TRUE;
  schedule_restart (c);
}

static void
finished (MonitorChannel * c)
{
  teardown (c);
  c->state = MONITOR_CHANNEL_FINISHED;
  c->host->finished (c->host->owner);
}

/* A file ends; so does an http(s) source that had a duration when its
 * first frame came (a VOD playlist, #EXT-X-ENDLIST from the start, or a
 * file served over HTTP): its end of stream is the end of the content,
 * not a lost source.  A live playlist (no duration) that ends is a
 * failure, retried: its encoder may start it again. */
static gboolean
ends_like_a_file (MonitorChannel * c)
{
  const gchar *uri = c->cfg->uri;

  if (!uri)
    return FALSE;
  return g_str_has_prefix (uri, "file:") || ((g_str_has_prefix (uri,
              "http:") || g_str_has_prefix (uri, "https:")) &&
      g_atomic_int_get (&c->source_ends));
}

/* Whether the stream collection has any video. */
static void
check_collection (MonitorChannel * c, GstMessage * msg)
{
  GstStreamCollection *col = NULL;
  guint videos = 0;

  gst_message_parse_stream_collection (msg, &col);
  for (guint i = 0; col && i < gst_stream_collection_get_size (col); i++) {
    GstStream *s = gst_stream_collection_get_stream (col, i);
    if (gst_stream_get_stream_type (s) & GST_STREAM_TYPE_VIDEO) {
      if (!videos++) {
        GstCaps *caps = gst_stream_get_caps (s);
        if (caps && gst_caps_get_size (caps)) {
          g_free (c->codec);
          c->codec = g_strdup (gst_structure_get_name
              (gst_caps_get_structure (caps, 0)));
        }
        gst_clear_caps (&caps);
      }
    }
  }
  if (col) {
    if (!videos && gst_stream_collection_get_size (col) > 0)
      c->no_video = TRUE;
    gst_object_unref (col);
  }
}

/* An error message as a failure's reason. */
static gchar *
error_text (GstMessage * msg)
{
  GError *err = NULL;
  gchar *why;

  gst_message_parse_error (msg, &err, NULL);
  why = g_strdup_printf ("error from %s: %s", GST_OBJECT_NAME
      (GST_MESSAGE_SRC (msg)), err->message);
  g_error_free (err);
  return why;
}

static gboolean
bus_cb (GstBus * bus, GstMessage * msg, gpointer data)
{
  MonitorChannel *c = data;
  gchar *why;

  switch (GST_MESSAGE_TYPE (msg)) {
    case GST_MESSAGE_ERROR:
      why = error_text (msg);
      monitor_channel_fail (c, why);
      g_free (why);
      break;
    case GST_MESSAGE_EOS:
      if (ends_like_a_file (c) && !c->host->settings->loop) {
        finished (c);
      } else if (ends_like_a_file (c)) {
        /* --loop: played again, not a failure. */
        teardown (c);
        c->backoff_s = BACKOFF_MIN_S;
        c->restart_id = g_idle_add_full (G_PRIORITY_DEFAULT, restart_cb,
            monitor_channel_ref (c), (GDestroyNotify) monitor_channel_unref);
      } else {
        monitor_channel_fail (c, "the source ended (end of stream)");
      }
      break;
    case GST_MESSAGE_STREAM_COLLECTION:
      check_collection (c, msg);
      if (c->no_video)
        monitor_channel_fail (c, "no video stream in the input: monitor a "
            "URI that carries video");
      break;
    case GST_MESSAGE_ELEMENT:
      monitor_alarms_message (&c->alarms, msg);
      break;
    default:
      break;
  }
  return G_SOURCE_CONTINUE;
}

/* Building the pipeline and setting it playing open the source (linking
 * a file to decodebin3 asks it how it can be read), which may block for
 * ever: a FIFO without a writer, a hung NFS or FUSE path.  Both are done
 * on a thread of their own; the pipeline is the channel's once that
 * returns, on the main loop.  A start in flight counts with the
 * teardowns: the stop waits for it (bounded), and tears it down. */
typedef struct
{
  MonitorChannel *channel;
  GstElement *pipeline;         /* NULL: not built (error says why) */
  GError *error;
  GstStateChangeReturn ret;
} StartJob;

static void
start_job_free (gpointer data)
{
  StartJob *j = data;

  if (j->pipeline)
    gst_object_unref (j->pipeline);
  g_clear_error (&j->error);
  monitor_channel_unref (j->channel);
  g_free (j);
}

/* The state change failed: the bus's error, when it is there already
 * (a file that cannot be opened), says why. */
static void
start_failed (MonitorChannel * c)
{
  GstBus *bus = gst_element_get_bus (c->pipeline);
  GstMessage *msg = gst_bus_pop_filtered (bus, GST_MESSAGE_ERROR);
  gchar *why = msg ? error_text (msg) : NULL;

  monitor_channel_fail (c, why ? why : "the pipeline could not start "
      "(source unreachable or refused?)");
  g_free (why);
  if (msg)
    gst_message_unref (msg);
  gst_object_unref (bus);
}

/* Live is what the state change says (a live source does not preroll);
 * the latency query is no guide: an HLS demuxer answers live for a VOD
 * playlist, whose frames the leaky queue would then drop. */
static void
started (MonitorChannel * c, GstStateChangeReturn ret)
{
  switch (ret) {
    case GST_STATE_CHANGE_NO_PREROLL:
      monitor_pipeline_set_live (c, TRUE);
      break;
    case GST_STATE_CHANGE_ASYNC:
    case GST_STATE_CHANGE_SUCCESS:
      /* urisourcebin hides its live source's NO_PREROLL; the source was
       * made (deep-element-added) during the state change. */
      if (g_atomic_int_get (&c->source_live))
        monitor_pipeline_set_live (c, TRUE);
      break;
    case GST_STATE_CHANGE_FAILURE:
      start_failed (c);
      break;
    default:
      break;
  }
}

/* Main loop: the start returned; the pipeline becomes the channel's, or
 * is torn down when the channel was removed or the monitor stops. */
static gboolean
start_done (gpointer data)
{
  StartJob *j = data;
  MonitorChannel *c = j->channel;
  GstElement *pipe = g_steal_pointer (&j->pipeline);
  GstBus *bus;

  c->start_pending = FALSE;
  g_atomic_int_add (&c->host->teardowns, -1);
  if (c->removed || c->host->stopping) {
    if (pipe)
      release_pipeline (c, pipe);
    return G_SOURCE_REMOVE;
  }
  if (!pipe) {
    monitor_channel_fail (c, j->error ? j->error->message :
        "the pipeline could not be built");
    return G_SOURCE_REMOVE;
  }
  c->pipeline = pipe;
  /* --restart-after counts from here: a source that took long to open
   * (a FIFO's writer came late) is not failed at once. */
  c->attempt_us = g_get_monotonic_time ();
  bus = gst_element_get_bus (pipe);
  c->bus_watch = gst_bus_add_watch (bus, bus_cb, c);
  gst_object_unref (bus);
  started (c, j->ret);
  return G_SOURCE_REMOVE;
}

static gpointer
start_thread (gpointer data)
{
  StartJob *j = data;

  j->pipeline = monitor_pipeline_build (j->channel, &j->error);
  if (j->pipeline)
    j->ret = gst_element_set_state (j->pipeline, GST_STATE_PLAYING);
  g_idle_add_full (G_PRIORITY_DEFAULT, start_done, j, start_job_free);
  return NULL;
}

void
monitor_channel_start (MonitorChannel * c)
{
  StartJob *j;
  gint64 now = g_get_monotonic_time ();

  /* A start that has not returned holds the channel's source (a thread
   * blocked in it): never a second one beside it. */
  if (c->removed || c->host->stopping || c->pipeline || c->start_pending)
    return;
  reset_stats (c);
  c->video_linked = c->audio_linked = FALSE;
  gst_segment_init (&c->segment, GST_FORMAT_UNDEFINED);
  c->frame_index = 0;
  c->thumb_last_pts = GST_CLOCK_TIME_NONE;
  c->attempt_us = now;
  if (!c->reconnect_pending)
    c->started_us = now;
  c->up_since_us = 0;
  c->state = MONITOR_CHANNEL_STARTING;
  c->live = FALSE;
  g_atomic_int_set (&c->source_live, FALSE);
  g_atomic_int_set (&c->source_ends, FALSE);
  j = g_new0 (StartJob, 1);
  j->channel = monitor_channel_ref (c);
  c->start_pending = TRUE;
  g_atomic_int_inc (&c->host->teardowns);
  g_thread_unref (g_thread_new ("monitor-start", start_thread, j));
}

void
monitor_channel_stop (MonitorChannel * c)
{
  c->removed = TRUE;
  if (c->restart_id) {
    g_source_remove (c->restart_id);
    c->restart_id = 0;
  }
  /* A channel waiting to restart has no pipeline left, but may have
   * alarms open (no signal): they end now all the same. */
  if (c->pipeline)
    teardown (c);
  else
    monitor_alarms_pipeline_gone (&c->alarms, TRUE);
}

void
monitor_channel_tick (MonitorChannel * c, gint64 now_us)
{
  gint64 last;
  guint64 decoded, pts, seq;
  gdouble score;
  gdouble restart = c->host->settings->restart_after;
  MonitorAlarmsNow now;
  MonitorTransportStats ts;
  MonitorLoudnessReading lr;
  MonitorCaptionsStats cs;

  g_mutex_lock (&c->lock);
  last = c->st.last_frame_mono_us;
  decoded = c->st.decoded;
  score = c->st.score;
  g_mutex_unlock (&c->lock);

  /* A frame of this pipeline (the last one's time outlives rebuilds). */
  if (c->pipeline && last > c->attempt_us) {
    if (c->state == MONITOR_CHANNEL_STARTING) {
      c->state = MONITOR_CHANNEL_UP;
      c->up_since_us = now_us;
      /* A reconnect is a failed channel that got frames again, however
       * many attempts it took. */
      if (c->reconnect_pending)
        c->reconnects++;
      c->reconnect_pending = FALSE;
    }
    if (c->up_since_us && now_us - c->up_since_us > STABLE_US)
      c->backoff_s = BACKOFF_MIN_S;
  }
  /* A source that went quiet without an error (UDP, a stalled server):
   * rebuilt after --restart-after, counted as a reconnect. */
  if (c->pipeline && restart > 0 && now_us - MAX (last, c->attempt_us) >
      restart * G_USEC_PER_SEC) {
    gchar *why = g_strdup_printf ("no frame for %g s", restart);
    monitor_channel_fail (c, why);
    g_free (why);
  }
  c->last_decoded_seen = decoded;
  /* The transport's absences are counted while a pipeline receives. */
  if (c->transport && c->pipeline)
    monitor_transport_tick (c->transport);
  /* Its SCTE 35 cues since the last tick, each an event. */
  if (c->transport) {
    MonitorTransportCue cues[MONITOR_TRANSPORT_CUES];
    guint n = monitor_transport_take_cues (c->transport, cues,
        G_N_ELEMENTS (cues));

    for (guint i = 0; i < n; i++) {
      MonitorEvent *e = monitor_scte35_event (c->cfg->name, &cues[i]);

      c->host->event (e, c->host->owner);
      monitor_event_unref (e);
    }
  }

  if (now_us / SPARK_PERIOD_US != (now_us - 100000) / SPARK_PERIOD_US) {
    c->spark[c->spark_pos] = c->state == MONITOR_CHANNEL_UP ? score : NAN;
    c->spark_pos = (c->spark_pos + 1) % MONITOR_SPARK_POINTS;
    c->spark_n = MIN (c->spark_n + 1, MONITOR_SPARK_POINTS);
  }

  /* The alarms see the channel as it is after the above (a restart may
   * have ended stretches). */
  g_mutex_lock (&c->lock);
  pts = c->st.pts;
  last = c->st.last_frame_mono_us;
  score = c->st.score;
  seq = c->thumb_seq;
  g_mutex_unlock (&c->lock);
  now.now_us = now_us;
  now.playing = c->pipeline != NULL;
  now.finished = c->state == MONITOR_CHANNEL_FINISHED;
  now.started_us = c->started_us;
  now.pts = pts;
  now.last_frame_mono_us = last;
  now.score = score;
  now.new_thumbnail = seq != c->thumb_seen_seq;
  now.transport = NULL;
  if (c->transport) {
    monitor_transport_snapshot (c->transport, &ts);
    now.transport = &ts;
  }
  monitor_loudness_read (c->loudness, &lr);
  now.loudness = &lr;
  monitor_captions_snapshot (c->captions, &cs);
  now.captions = &cs;
  c->thumb_seen_seq = seq;
  monitor_alarms_tick (&c->alarms, &now);
}

void
monitor_channel_snapshot (MonitorChannel * c, MonitorChannelStats * st)
{
  g_mutex_lock (&c->lock);
  *st = c->st;
  g_mutex_unlock (&c->lock);
}

GstSample *
monitor_channel_get_thumbnail (MonitorChannel * c, guint64 * seq)
{
  GstSample *s;

  g_mutex_lock (&c->lock);
  s = c->thumb ? gst_sample_ref (c->thumb) : NULL;
  if (seq)
    *seq = c->thumb_seq;
  g_mutex_unlock (&c->lock);
  return s;
}

/* The remembered frame whose pts is nearest @pts, copied; FALSE when
 * none.  Under the lock. */
static gboolean
nearest_frame (MonitorChannel * c, guint64 pts, MonitorRingEntry * out)
{
  guint64 best = G_MAXUINT64;

  for (guint i = 0; i < MONITOR_RING && i < c->frame_index; i++) {
    const MonitorRingEntry *e = &c->ring[i];
    guint64 d;

    if (e->pts == GST_CLOCK_TIME_NONE)
      continue;
    d = e->pts > pts ? e->pts - pts : pts - e->pts;
    if (d < best) {
      best = d;
      *out = *e;
    }
  }
  return best != G_MAXUINT64;
}

gint64
monitor_channel_wall_clock_at (MonitorChannel * c, guint64 pts)
{
  MonitorRingEntry e;
  gint64 wall = 0;

  if (pts == GST_CLOCK_TIME_NONE)
    return g_get_real_time ();
  g_mutex_lock (&c->lock);
  if (nearest_frame (c, pts, &e))
    wall = e.wall_us + ((gint64) pts - (gint64) e.pts) / 1000;
  g_mutex_unlock (&c->lock);
  return wall ? wall : g_get_real_time ();
}

guint64
monitor_channel_running_time_at (MonitorChannel * c, guint64 pts)
{
  MonitorRingEntry e;
  guint64 rt = GST_CLOCK_TIME_NONE;

  if (pts == GST_CLOCK_TIME_NONE)
    return rt;
  g_mutex_lock (&c->lock);
  if (nearest_frame (c, pts, &e) && e.running_time != GST_CLOCK_TIME_NONE &&
      (gint64) e.running_time + ((gint64) pts - (gint64) e.pts) >= 0)
    rt = e.running_time + (pts - e.pts);
  g_mutex_unlock (&c->lock);
  return rt;
}

guint
monitor_channel_tiles_of_frame (MonitorChannel * c, guint64 frame,
    gfloat * tiles, guint max, guint * cols, guint * rows)
{
  guint n = 0;

  g_mutex_lock (&c->lock);
  *cols = c->st.tiles_cols;
  *rows = c->st.tiles_rows;
  n = *cols * *rows;
  if (n && n <= max) {
    const MonitorRingEntry *e = &c->ring[frame % MONITOR_RING];
    if (c->ring_tiles && n <= MONITOR_RING_MAX_TILES && e->frame == frame &&
        frame < c->frame_index)
      memcpy (tiles, c->ring_tiles + (frame % MONITOR_RING) *
          MONITOR_RING_MAX_TILES, n * sizeof (gfloat));
    else
      memcpy (tiles, c->st.tiles, n * sizeof (gfloat));
  } else {
    n = 0;
  }
  g_mutex_unlock (&c->lock);
  return n;
}

static gint64
alarms_wall_clock_at (gpointer c, guint64 pts)
{
  return monitor_channel_wall_clock_at (c, pts);
}

static guint64
alarms_running_time_at (gpointer c, guint64 pts)
{
  return monitor_channel_running_time_at (c, pts);
}

static guint
alarms_tiles_of_frame (gpointer data, guint64 frame, gfloat * tiles,
    guint max, guint * cols, guint * rows)
{
  MonitorChannel *c = data;

  /* The last frame: the streaming thread's count, read on the main
   * thread as the alarms always did (a frame more or less is the same
   * map's neighbour). */
  if (frame == GST_CLOCK_TIME_NONE)
    frame = c->frame_index ? c->frame_index - 1 : 0;
  return monitor_channel_tiles_of_frame (c, frame, tiles, max, cols, rows);
}

static GstSample *
alarms_thumbnail (gpointer c)
{
  return monitor_channel_get_thumbnail (c, NULL);
}

static void
alarms_pair (gpointer data, gdouble psnr, gdouble ssim)
{
  MonitorChannel *c = data;

  g_mutex_lock (&c->lock);
  c->st.psnr = psnr;
  c->st.ssim = ssim;
  c->st.pairs++;
  g_mutex_unlock (&c->lock);
}

static void
alarms_vmaf (gpointer data, gdouble vmaf)
{
  MonitorChannel *c = data;

  g_mutex_lock (&c->lock);
  c->st.vmaf = vmaf;
  g_mutex_unlock (&c->lock);
}
