/* sharpness-monitor: one channel at run time: its pipeline and restarts
 * (monitor-channel.c), what builds the pipeline (monitor-pipeline.c), what
 * its streaming threads count (monitor-frames.c), and its alarms
 * (monitor-alarms.h), which it owns.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef MONITOR_CHANNEL_H
#define MONITOR_CHANNEL_H

#include <gst/gst.h>
#include <gst/video/video.h>

#include "monitor.h"
#include "monitor-alarms.h"
#include "monitor-captions.h"
#include "monitor-loudness.h"
#include "monitor-transport.h"

G_BEGIN_DECLS

/* The frame-score histogram: buckets at these multiples of the threshold
 * (the metric's direction does not matter: both sides are covered). */
#define MONITOR_SCORE_BUCKETS 10
extern const gdouble monitor_score_bucket_factors[MONITOR_SCORE_BUCKETS];
/* Without an absolute threshold (the relative rule): decades. */
extern const gdouble monitor_score_bucket_decades[MONITOR_SCORE_BUCKETS];
/* Processing latency: seconds from a frame's due time on the pipeline's
 * clock to its score. */
#define MONITOR_LATENCY_BUCKETS 11
extern const gdouble monitor_latency_buckets[MONITOR_LATENCY_BUCKETS];

/* Frames remembered for the events (worst frame's tile map, wall-clock
 * times): about 17 s at 30 fps. */
#define MONITOR_RING 512
/* Tile maps kept per remembered frame at most (16x16); larger maps are
 * reported from the last frame. */
#define MONITOR_RING_MAX_TILES 256
/* The sparkline: one point every half second over the last minute. */
#define MONITOR_SPARK_POINTS 120

typedef enum
{
  MONITOR_DROP_QUEUE,           /* the analysis queue was full (live) */
  MONITOR_DROP_AUDIO_QUEUE,     /* the audio level queue was full */
  MONITOR_N_DROP_REASONS
} MonitorDropReason;

const gchar *monitor_drop_reason_name (MonitorDropReason r);

typedef enum
{
  MONITOR_CHANNEL_STARTING,     /* pipeline built, no frame yet */
  MONITOR_CHANNEL_UP,           /* frames flow */
  MONITOR_CHANNEL_RETRYING,     /* torn down, restart scheduled */
  MONITOR_CHANNEL_FINISHED      /* a file that ended (no --loop) */
} MonitorChannelState;

const gchar *monitor_channel_state_name (MonitorChannelState s);

typedef struct
{
  guint64 frame;
  guint64 pts, running_time;
  gint64 wall_us;
  gfloat score;
} MonitorRingEntry;

/* What streaming threads write, under the channel's lock. */
typedef struct
{
  guint64 decoded, scored, blurry;
  guint64 dropped[MONITOR_N_DROP_REASONS];
  gdouble score;                /* last */
  const gchar *content_state;   /* last; static */
  guint64 pts, running_time;    /* of the last scored frame */
  gint64 last_frame_mono_us, last_frame_wall_us;
  guint64 score_buckets[MONITOR_SCORE_BUCKETS + 1];     /* + Inf */
  gdouble score_sum;
  guint64 latency_buckets[MONITOR_LATENCY_BUCKETS + 1];
  gdouble latency_sum;
  guint64 latency_count;
  /* The last frame's tile map (cols 0: none). */
  guint tiles_cols, tiles_rows;
  gfloat tiles[64 * 64];
  /* Compared pairs: the last values (NaN: none yet; VMAF's is a frame
   * behind the others). */
  gdouble psnr, ssim, vmaf;
  guint64 pairs;
  gint width, height, fps_n, fps_d;
} MonitorChannelStats;

/* What a channel has of its owner, handed down at its creation: the
 * settings, the shared CUDA context, the count of pipelines being torn
 * down (the stop waits for them), and the callbacks by which the owner
 * hears of the channel's events and end.  A channel never calls up. */
typedef struct
{
  const MonitorSettings *settings;
  GstContext *cuda_context;     /* or NULL */
  gint teardowns;               /* atomic */
  gboolean stopping;
  gpointer owner;
  /* An alarm's start or end (main thread). */
  MonitorAlarmsEmit event;
  /* A file channel ended for good (no --loop). */
  void (*finished) (gpointer owner);
} MonitorChannelHost;

struct _MonitorChannel
{
  gint ref_count;
  MonitorChannelHost *host;
  MonitorChannelConfig *cfg;
  guint index;

  /* Main thread. */
  GstElement *pipeline;
  guint bus_watch;
  MonitorChannelState state;
  guint restart_id;
  guint backoff_s;
  guint64 reconnects;           /* failures followed by frames again */
  guint64 restarts;             /* pipelines rebuilt after a failure */
  gboolean reconnect_pending;
  /* The no-signal alarm's start-up grace runs from started_us: the first
   * start, or a planned rebuild (--loop); a rebuild after a failure does
   * not move it (the signal was lost at the last frame, not at the
   * rebuild).  attempt_us: when this pipeline was started, then when it
   * became the channel's (--restart-after counts from there). */
  gint64 started_us, attempt_us, up_since_us;
  /* The pipeline is built and set playing on a thread of its own (a
   * source's open() may block for ever); none other starts meanwhile. */
  gboolean start_pending;
  gchar *last_error;
  gboolean removed;
  gchar *codec;
  MonitorAlarms alarms;
  /* TR 101 290 on its MPEG-TS (NULL: off); its own lock. */
  MonitorTransport *transport;
  /* Loudness and true peak of its first audio stream; its own lock. */
  MonitorLoudness *loudness;
  /* CEA-608/708 captions on its pictures; their own lock. */
  MonitorCaptions *captions;
  gfloat spark[MONITOR_SPARK_POINTS];
  guint spark_pos, spark_n;
  guint64 thumb_seen_seq;       /* the last thumbnail the tick saw */
  guint64 last_decoded_seen;

  /* Streaming threads: the elements they touch (set by the start thread
   * before PLAYING, while the main loop has no pipeline). */
  GstElement *analysis_queue, *scorer, *video_tee, *sink;
  /* The channel's own decode bin (not a compared reference's): its
   * demuxer's input is the channel's transport stream. */
  GstElement *source_dec;
  gboolean live;                /* the pipeline is live */
  gint source_live;             /* atomic: a live source element was made */
  gint source_ends;             /* atomic: an http(s) source with a known
                                 * duration (a VOD playlist): it ends as a
                                 * file does */
  gboolean video_linked, audio_linked;
  GstSegment segment;           /* of the scorer's output */
  guint64 frame_index;
  guint64 thumb_last_pts;

  /* Under lock. */
  GMutex lock;
  MonitorChannelStats st;
  MonitorRingEntry ring[MONITOR_RING];
  gfloat *ring_tiles;           /* MONITOR_RING x MONITOR_RING_MAX_TILES */
  GstSample *thumb;             /* last thumbnail (JPEG) */
  guint64 thumb_seq;
  gboolean no_video;            /* the stream collection has no video */
};

MonitorChannel *monitor_channel_new (MonitorChannelHost * host,
    const MonitorChannelConfig * cfg, guint index);
MonitorChannel *monitor_channel_ref (MonitorChannel * c);
void monitor_channel_unref (MonitorChannel * c);

/* Builds the pipeline and sets it playing on a thread of its own (the
 * result comes back to the main loop); on failure, schedules a restart. */
void monitor_channel_start (MonitorChannel * c);
/* Tears the pipeline down (off the main thread) and schedules a restart
 * with backoff, counted as a reconnect; @why is logged. */
void monitor_channel_fail (MonitorChannel * c, const gchar * why);
/* Stops for good (removal, shutdown). */
void monitor_channel_stop (MonitorChannel * c);
/* Main loop's tick: restarts a channel silent for --restart-after, resets
 * the backoff of a channel up long enough, samples the sparkline, ticks
 * the alarms. */
void monitor_channel_tick (MonitorChannel * c, gint64 now_us);

/* A copy of the counters (taken under the lock, for rendering). */
void monitor_channel_snapshot (MonitorChannel * c, MonitorChannelStats * st);
/* The last thumbnail, or NULL (a reference). */
GstSample *monitor_channel_get_thumbnail (MonitorChannel * c, guint64 * seq);
/* The wall-clock time (µs) of @pts, from the remembered frame nearest it
 * (extrapolated from the last frame when none is near). */
gint64 monitor_channel_wall_clock_at (MonitorChannel * c, guint64 pts);
/* The running time of @pts, from the remembered frame nearest it. */
guint64 monitor_channel_running_time_at (MonitorChannel * c, guint64 pts);
/* The tile map of @frame (or of the last frame when it is not remembered)
 * into @tiles (@max at most); returns the count, 0 when none. */
guint monitor_channel_tiles_of_frame (MonitorChannel * c, guint64 frame,
    gfloat * tiles, guint max, guint * cols, guint * rows);

/* Pipeline (monitor-pipeline.c).  Built on the channel's start thread:
 * linking a source may open it, which may block. */
GstElement *monitor_pipeline_build (MonitorChannel * c, GError ** error);
/* Once the pipeline said whether it is live: its queues leak or block. */
void monitor_pipeline_set_live (MonitorChannel * c, gboolean live);

/* Streaming-thread probes (monitor-frames.c). */
GstPadProbeReturn monitor_frames_scored_probe (GstPad * pad,
    GstPadProbeInfo * info, gpointer user_data);
GstPadProbeReturn monitor_frames_decoded_probe (GstPad * pad,
    GstPadProbeInfo * info, gpointer user_data);
GstPadProbeReturn monitor_frames_thumb_gate (GstPad * pad,
    GstPadProbeInfo * info, gpointer user_data);
void monitor_frames_queue_overrun (GstElement * queue, gpointer user_data);
void monitor_frames_audio_overrun (GstElement * queue, gpointer user_data);

G_END_DECLS
#endif /* MONITOR_CHANNEL_H */
