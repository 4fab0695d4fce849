/* sharpness-monitor: a channel's alarms (monitor-alarms.c).  They see their
 * channel through a small interface (MonitorAlarmsSource: the clock of its
 * frames, their tile maps and thumbnails) and what each tick hands them
 * (MonitorAlarmsNow), never the channel's struct; each start and end goes
 * to one callback of the owner's.  Main thread only.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef MONITOR_ALARMS_H
#define MONITOR_ALARMS_H

#include <gst/gst.h>

#include "monitor.h"
#include "monitor-captions.h"
#include "monitor-events.h"
#include "monitor-loudness.h"
#include "monitor-transport.h"
#include "sharpness-alarm.h"

G_BEGIN_DECLS

/* What the alarms read of their channel (@channel is the channel). */
typedef struct
{
  /* The wall clock (µs) and running time of @pts, from the channel's
   * remembered frames. */
  gint64 (*wall_clock_at) (gpointer channel, guint64 pts);
  guint64 (*running_time_at) (gpointer channel, guint64 pts);
  /* The tile map of @frame (GST_CLOCK_TIME_NONE: the last frame); the
   * count, 0 when none. */
  guint (*tiles_of_frame) (gpointer channel, guint64 frame, gfloat * tiles,
      guint max, guint * cols, guint * rows);
  /* The channel's last thumbnail, or NULL (a reference). */
  GstSample *(*thumbnail) (gpointer channel);
  /* A compared pair's values (NaN: not measured), for the counters. */
  void (*pair) (gpointer channel, gdouble psnr, gdouble ssim);
  /* A compared frame's VMAF (one frame after its pair: its motion needs
   * the next frame). */
  void (*vmaf) (gpointer channel, gdouble vmaf);
} MonitorAlarmsSource;

/* The channel at a tick. */
typedef struct
{
  gint64 now_us;                /* monotonic */
  gboolean playing;             /* a pipeline is the channel's */
  gboolean finished;            /* a file that ended (no --loop) */
  gint64 started_us;            /* the no-signal grace runs from here */
  guint64 pts;                  /* the last frame's, NONE: none */
  gint64 last_frame_mono_us;    /* 0: no frame yet */
  gdouble score;                /* the last frame's */
  gboolean new_thumbnail;       /* one came since the last tick */
  /* The transport's counts now, or NULL (not analysed). */
  const MonitorTransportStats *transport;
  /* The loudness now (its true peak: since the last tick), or NULL. */
  const MonitorLoudnessReading *loudness;
  /* The captions' counts now, or NULL. */
  const MonitorCaptionsStats *captions;
} MonitorAlarmsNow;

/* A start or an end raised (the callee takes a reference if it keeps
 * it). */
typedef void (*MonitorAlarmsEmit) (MonitorEvent * e, gpointer data);

/* One alarm kind's state. */
typedef struct
{
  SharpnessAlarm alarm;
  gboolean active;
  gboolean acked;
  guint64 events_total;
  gint64 last_change_us;        /* wall clock */
  /* The open alarm: where it started, and its thumbnail. */
  guint64 start_rt, start_pts;
  gint64 start_wall_us;
  gdouble worst_score;
  GstSample *thumb;
  /* The last stretch's pts bounds (end NONE while open), and whether a
   * freeze is a black stretch's. */
  guint64 last_start_pts, last_end_pts;
  gboolean inside_black;
  guint tiles_cols, tiles_rows;
  gfloat *tiles;                /* worst frame's map, or NULL */
} MonitorAlarmState;

typedef struct
{
  const MonitorChannelConfig *cfg;      /* the channel's */
  const MonitorAlarmsSource *source;
  gpointer channel;
  MonitorAlarmsEmit emit;
  gpointer emit_data;
  MonitorAlarmState kinds[MONITOR_N_KINDS];
  /* TR 101 290: the counts at the last tick; those of the open alarm
   * (or of the tick that raises one); the tick's stats while it runs. */
  guint64 ts_seen[SHARPNESS_TR101290_N_INDICATORS];
  guint64 ts_run[SHARPNESS_TR101290_N_INDICATORS];
  const MonitorTransportStats *ts_now;
} MonitorAlarms;

void monitor_alarms_init (MonitorAlarms * a, const MonitorChannelConfig *
    cfg, const MonitorAlarmsSource * source, gpointer channel,
    MonitorAlarmsEmit emit, gpointer emit_data);
void monitor_alarms_clear (MonitorAlarms * a);
/* A message from the channel's pipeline (the element's events, level,
 * compare and compare-vmaf messages); TRUE when it was an alarm's. */
gboolean monitor_alarms_message (MonitorAlarms * a, GstMessage * msg);
void monitor_alarms_tick (MonitorAlarms * a, const MonitorAlarmsNow * now);
/* The pipeline went away (error, restart, end): open stretches of the
 * element's kinds end where they were last seen; @for_good (a channel
 * removed or stopped) ends its no-signal alarm too (nothing watches it
 * any more, and an alarm never ended would stay firing downstream); the
 * transport's kinds, on the monotonic clock as no-signal, likewise. */
void monitor_alarms_pipeline_gone (MonitorAlarms * a, gboolean for_good);
/* POST /api/alarms/CHANNEL/KIND/ack: FALSE when not active. */
gboolean monitor_alarms_ack (MonitorAlarms * a, MonitorKind kind);

G_END_DECLS
#endif /* MONITOR_ALARMS_H */
