/* sharpness-monitor: a channel's alarms.  Blur, black and freeze are the
 * element's stretches (analysis/sharpness-content.c decides them: a black
 * or frozen stretch is never a blurry one); silence (the level element on
 * the first audio stream), no signal (no frame for the onset) and the
 * compared pairs' PSNR and SSIM drops are decided here; every kind goes
 * through the one hysteresis, analysis/sharpness-alarm.h, for its onset
 * and clear hold-off.  Each start and end becomes an event: the store and
 * log, the webhooks, the gauges.  Main thread only.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <string.h>

#include "monitor-app.h"
#include "sharpness-fields.h"

#define NONE GST_CLOCK_TIME_NONE
/* No frame for this long: the no-signal condition holds (the alarm waits
 * for its onset). */
#define GAP_US (250 * 1000)
/* A (re)started channel gets this long besides the onset before a gap is
 * a loss of signal: connecting and buffering (an RTSP session sends a few
 * frames, then fills its 2 s jitter buffer) is not one. */
#define STARTUP_GRACE_US (10 * G_USEC_PER_SEC)

static guint64
seconds_ns (gdouble s)
{
  return (guint64) llround (s * GST_SECOND);
}

void
monitor_alarms_init (MonitorChannel * c)
{
  for (gint k = 0; k < MONITOR_N_KINDS; k++) {
    MonitorAlarmState *a = &c->alarms[k];
    const MonitorKindSettings *ks = &c->cfg->kinds[k];
    SharpnessAlarmSettings s = { seconds_ns (ks->onset),
      seconds_ns (ks->clear)
    };

    /* The element applied the onset of its kinds already. */
    if (k == MONITOR_KIND_BLUR || k == MONITOR_KIND_BLACK ||
        k == MONITOR_KIND_FREEZE)
      s.onset = 0;
    memset (a, 0, sizeof (*a));
    a->last_start_pts = a->last_end_pts = NONE;
    sharpness_alarm_init (&a->alarm, &s);
  }
}

void
monitor_alarms_clear (MonitorChannel * c)
{
  for (gint k = 0; k < MONITOR_N_KINDS; k++) {
    MonitorAlarmState *a = &c->alarms[k];
    if (a->thumb)
      gst_sample_unref (a->thumb);
    a->thumb = NULL;
    g_free (a->tiles);
    a->tiles = NULL;
  }
}

/* Wall clock (µs) of a time on the no-signal time line (monotonic ns). */
static gint64
mono_ns_to_wall (guint64 t)
{
  return g_get_real_time () - (g_get_monotonic_time () - (gint64) (t / 1000));
}

static void
keep_tiles (MonitorChannel * c, MonitorAlarmState * a, guint64 frame)
{
  gfloat tiles[64 * 64];
  guint cols, rows;
  guint n = monitor_channel_tiles_of_frame (c, frame, tiles,
      G_N_ELEMENTS (tiles), &cols, &rows);

  g_free (a->tiles);
  a->tiles = n ? g_memdup2 (tiles, n * sizeof (gfloat)) : NULL;
  a->tiles_cols = n ? cols : 0;
  a->tiles_rows = n ? rows : 0;
}

/* The last frame of an element stretch that ends, inclusive, as
 * sharpness-scan gives it.  The element ends a black or frozen stretch at
 * the first frame that is not black or frozen: its `end-frame` is that
 * frame, counted in `frames` but not in `black-frames` (`frozen-frames`);
 * at the end of the stream it ends at its last frame, counted in both.  A
 * blurry run's `end-frame` is its last blurry frame already. */
static guint64
stretch_last_frame (MonitorKind k, const GstStructure * s, guint64 end_frame)
{
  const gchar *of_kind = k == MONITOR_KIND_BLACK ? "black-frames" :
      k == MONITOR_KIND_FREEZE ? "frozen-frames" : NULL;
  guint64 frames, kind_frames, start_frame;

  if (!of_kind || !gst_structure_get_uint64 (s, "frames", &frames) ||
      !gst_structure_get_uint64 (s, of_kind, &kind_frames))
    return end_frame;
  if (kind_frames < frames && end_frame > 0 &&
      !(gst_structure_get_uint64 (s, "start-frame", &start_frame) &&
          end_frame <= start_frame))
    return end_frame - 1;
  return end_frame;
}

/* Raises the start or end of kind @k: @ev from the hysteresis; @msg the
 * element's message (element kinds), else NULL. */
static void
raise_event (MonitorChannel * c, MonitorKind k, const SharpnessAlarmEvent * ev,
    GstMessage * msg)
{
  Monitor *m = c->monitor;
  MonitorAlarmState *a = &c->alarms[k];
  gboolean is_end = ev->change == SHARPNESS_ALARM_ENDED;
  MonitorEvent *e = monitor_event_new (c->cfg->name, k, is_end);
  const GstStructure *s = msg ? gst_message_get_structure (msg) : NULL;
  gboolean mono = k == MONITOR_KIND_NO_SIGNAL;
  guint64 v;
  gdouble d;

  e->start_pts = mono ? NONE : ev->start;
  e->start_rt = mono ? NONE : monitor_channel_running_time_at (c, ev->start);
  e->start_wall_us = mono ? mono_ns_to_wall (ev->start) :
      monitor_channel_wall_clock_at (c, ev->start);
  e->min = ev->min;
  e->mean = ev->mean;
  e->max = ev->max;
  if (s && gst_structure_get_uint64 (s, "start-frame", &v))
    e->start_frame = v;
  if (!is_end) {
    a->active = TRUE;
    a->acked = FALSE;
    a->events_total++;
    a->start_rt = e->start_rt;
    a->last_start_pts = e->start_pts;
    a->last_end_pts = NONE;
    a->start_pts = e->start_pts;
    a->start_wall_us = e->start_wall_us;
    a->worst_score = NAN;
    if (a->thumb)
      gst_sample_unref (a->thumb);
    a->thumb = monitor_thumbnail_for_event (c, msg);
    keep_tiles (c, a, c->frame_index ? c->frame_index - 1 : 0);
  } else {
    e->end_pts = mono ? NONE : ev->end;
    e->end_rt = mono ? NONE : monitor_channel_running_time_at (c, ev->end);
    e->end_wall_us = mono ? mono_ns_to_wall (ev->end) :
        monitor_channel_wall_clock_at (c, ev->end);
    e->duration = (gdouble) (ev->end - ev->start) / GST_SECOND;
    if (s) {
      if (gst_structure_get_uint64 (s, "end-frame", &v))
        e->end_frame = stretch_last_frame (k, s, v);
      if (gst_structure_get_double (s, "min", &d))
        e->min = d;
      if (gst_structure_get_double (s, "mean", &d))
        e->mean = d;
      if (gst_structure_get_double (s, "max", &d))
        e->max = d;
      if (gst_structure_get_double (s, "worst-score", &d))
        e->worst_score = d;
      if (gst_structure_get_uint64 (s, "worst-frame", &v))
        keep_tiles (c, a, v);
    }
    if (msg) {
      GstSample *t = monitor_thumbnail_for_event (c, msg);
      /* The element's own thumbnail of the worst frame wins over the
       * one sampled while the alarm lasted. */
      if (t && gst_structure_has_field (s, "thumbnail")) {
        if (a->thumb)
          gst_sample_unref (a->thumb);
        a->thumb = t;
      } else if (t) {
        if (!a->thumb)
          a->thumb = t;
        else
          gst_sample_unref (t);
      }
    }
    a->active = FALSE;
    a->last_end_pts = e->end_pts;
  }
  if (a->tiles) {
    e->tiles_cols = a->tiles_cols;
    e->tiles_rows = a->tiles_rows;
    e->tiles = g_memdup2 (a->tiles, a->tiles_cols * a->tiles_rows *
        sizeof (gfloat));
  }
  if (a->thumb)
    e->jpeg = monitor_thumbnail_bytes (a->thumb);
  if (is_end && a->thumb) {
    gst_sample_unref (a->thumb);
    a->thumb = NULL;
  }
  a->last_change_us = g_get_real_time ();
  monitor_events_add (m->events, e);
  if (m->webhooks)
    monitor_webhooks_send (m->webhooks, e);
  if (!m->settings->quiet)
    g_print ("%s %s %s\n", c->cfg->name, monitor_kind_name (k),
        is_end ? "end" : "start");
  monitor_event_unref (e);
}

static void
handle (MonitorChannel * c, MonitorKind k, SharpnessAlarmChange change,
    const SharpnessAlarmEvent * ev, GstMessage * msg)
{
  if (change == SHARPNESS_ALARM_NO_CHANGE || !c->cfg->kinds[k].enabled)
    return;
  raise_event (c, k, ev, msg);
}

static const struct
{
  SharpnessField start, end;
  MonitorKind kind;
} element_events[] = {
  {SHARPNESS_FIELD_BLURRY_START, SHARPNESS_FIELD_BLURRY_END,
      MONITOR_KIND_BLUR},
  {SHARPNESS_FIELD_BLACK_START, SHARPNESS_FIELD_BLACK_END,
      MONITOR_KIND_BLACK},
  {SHARPNESS_FIELD_FREEZE_START, SHARPNESS_FIELD_FREEZE_END,
      MONITOR_KIND_FREEZE},
};

static gdouble
max_rms (const GstStructure * s)
{
  const GValue *v = gst_structure_get_value (s, "rms");
  gdouble best = -INFINITY;

  if (!v)
    return NAN;
  if (GST_VALUE_HOLDS_ARRAY (v) || GST_VALUE_HOLDS_LIST (v)) {
    guint n = GST_VALUE_HOLDS_ARRAY (v) ? gst_value_array_get_size (v) :
        gst_value_list_get_size (v);
    for (guint i = 0; i < n; i++) {
      const GValue *x = GST_VALUE_HOLDS_ARRAY (v) ?
          gst_value_array_get_value (v, i) : gst_value_list_get_value (v, i);
      best = MAX (best, g_value_get_double (x));
    }
  } else if (G_VALUE_HOLDS_BOXED (v)) {
    /* GValueArray (level before 1.24): a GValue array in memory. */
G_GNUC_BEGIN_IGNORE_DEPRECATIONS
    GValueArray *a = g_value_get_boxed (v);
    for (guint i = 0; a && i < a->n_values; i++)
      best = MAX (best, g_value_get_double (g_value_array_get_nth (a, i)));
G_GNUC_END_IGNORE_DEPRECATIONS
  }
  return best;
}

/* A black stretch is also frozen (its frames are all alike), and FFmpeg's
 * freezedetect reports it too: the black alarm says it better, so a
 * freeze that starts while a black alarm is on (or inside the last black
 * stretch) raises none, nor does its end. */
static gboolean
freeze_is_black (MonitorChannel * c, gboolean start, const GstStructure * s)
{
  MonitorAlarmState *black = &c->alarms[MONITOR_KIND_BLACK];
  MonitorAlarmState *freeze = &c->alarms[MONITOR_KIND_FREEZE];
  guint64 pts = NONE;

  if (!start) {
    gboolean was = freeze->inside_black;
    freeze->inside_black = FALSE;
    return was;
  }
  gst_structure_get_uint64 (s, "timestamp", &pts);
  freeze->inside_black = black->active || (pts != NONE &&
      black->last_start_pts != NONE && pts >= black->last_start_pts &&
      (black->last_end_pts == NONE || pts < black->last_end_pts));
  return freeze->inside_black;
}

gboolean
monitor_alarms_message (MonitorChannel * c, GstMessage * msg)
{
  const GstStructure *s = gst_message_get_structure (msg);
  SharpnessAlarmEvent ev;
  SharpnessAlarmChange ch;
  guint64 rt = NONE;

  if (!s)
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (element_events); i++) {
    gboolean start = sharpness_structure_has_name (s, element_events[i].start);
    MonitorKind k = element_events[i].kind;

    if (!start && !sharpness_structure_has_name (s, element_events[i].end))
      continue;
    /* On the stream's timestamps, which audio and video share: the start
     * is the stretch's first frame's pts, the end the end of its last. */
    if (!gst_structure_get_uint64 (s, start ? "timestamp" : "end", &rt) ||
        rt == NONE)
      return TRUE;
    if (k == MONITOR_KIND_FREEZE && freeze_is_black (c, start, s))
      return TRUE;
    ch = sharpness_alarm_push (&c->alarms[k].alarm, rt, start, NAN, &ev);
    handle (c, k, ch, &ev, msg);
    /* An onset of 0 reports its start first, its end on the next call. */
    if (!start && ch == SHARPNESS_ALARM_STARTED) {
      ch = sharpness_alarm_tick (&c->alarms[k].alarm, rt, &ev);
      handle (c, k, ch, &ev, msg);
    }
    return TRUE;
  }
  if (gst_structure_has_name (s, "level")) {
    const MonitorKindSettings *ks = &c->cfg->kinds[MONITOR_KIND_SILENCE];
    gdouble rms = max_rms (s);

    if (!gst_structure_get_uint64 (s, "timestamp", &rt) || isnan (rms))
      return TRUE;
    ch = sharpness_alarm_push (&c->alarms[MONITOR_KIND_SILENCE].alarm, rt,
        rms < ks->level, rms, &ev);
    handle (c, MONITOR_KIND_SILENCE, ch, &ev, NULL);
    return TRUE;
  }
  if (sharpness_structure_has_name (s, SHARPNESS_FIELD_COMPARE)) {
    gdouble psnr = NAN, ssim = NAN;

    gst_structure_get_uint64 (s, "timestamp", &rt);
    sharpness_structure_get_double (s, SHARPNESS_FIELD_PSNR_AVG, &psnr);
    if (!sharpness_structure_get_double (s, SHARPNESS_FIELD_SSIM_ALL, &ssim))
      sharpness_structure_get_double (s, SHARPNESS_FIELD_SSIM_Y, &ssim);
    g_mutex_lock (&c->lock);
    c->st.psnr = psnr;
    c->st.ssim = ssim;
    c->st.pairs++;
    g_mutex_unlock (&c->lock);
    if (rt == NONE)
      return TRUE;
    if (!isnan (psnr)) {
      ch = sharpness_alarm_push (&c->alarms[MONITOR_KIND_PSNR_DROP].alarm,
          rt, psnr < c->cfg->kinds[MONITOR_KIND_PSNR_DROP].level, psnr, &ev);
      handle (c, MONITOR_KIND_PSNR_DROP, ch, &ev, NULL);
    }
    if (!isnan (ssim)) {
      ch = sharpness_alarm_push (&c->alarms[MONITOR_KIND_SSIM_DROP].alarm,
          rt, ssim < c->cfg->kinds[MONITOR_KIND_SSIM_DROP].level, ssim, &ev);
      handle (c, MONITOR_KIND_SSIM_DROP, ch, &ev, NULL);
    }
    return TRUE;
  }
  return FALSE;
}

void
monitor_alarms_tick (MonitorChannel * c, gint64 now_us)
{
  SharpnessAlarmEvent ev;
  SharpnessAlarmChange ch;
  MonitorChannelStats st;
  guint64 seq;

  g_mutex_lock (&c->lock);
  st.pts = c->st.pts;
  st.last_frame_mono_us = c->st.last_frame_mono_us;
  st.score = c->st.score;
  seq = c->thumb_seq;
  g_mutex_unlock (&c->lock);

  /* Hold-offs of the stream's kinds run on its timestamps: those of the
   * pipeline playing (a failed one's last frame, kept until the rebuild,
   * would move the next one's time line on to it). */
  if (c->pipeline && st.last_frame_mono_us && st.pts != NONE)
    for (gint k = 0; k < MONITOR_N_KINDS; k++) {
      if (k == MONITOR_KIND_NO_SIGNAL)
        continue;
      ch = sharpness_alarm_tick (&c->alarms[k].alarm, st.pts, &ev);
      handle (c, k, ch, &ev, NULL);
    }

  /* No signal: on the monotonic clock, from the last frame's arrival;
   * before the first frame, from the end of the start-up grace.  A
   * restart does not end it: only a frame does. */
  {
    SharpnessAlarm *al = &c->alarms[MONITOR_KIND_NO_SIGNAL].alarm;
    gboolean have = st.last_frame_mono_us != 0;
    gint64 grace_end = c->started_us + STARTUP_GRACE_US;
    gint64 since = have ? MAX (st.last_frame_mono_us, grace_end) : grace_end;
    gboolean missing = al->condition ? !have || now_us -
        st.last_frame_mono_us > GAP_US : now_us - since > GAP_US;

    if (c->state == MONITOR_CHANNEL_FINISHED) {
      ch = sharpness_alarm_finish (al, &ev);
    } else if (missing) {
      ch = al->condition ? SHARPNESS_ALARM_NO_CHANGE :
          sharpness_alarm_push (al, (guint64) since * 1000, TRUE, NAN, &ev);
      handle (c, MONITOR_KIND_NO_SIGNAL, ch, &ev, NULL);
      ch = sharpness_alarm_tick (al, (guint64) now_us * 1000, &ev);
    } else {
      /* Never a time ahead of now (the grace's end): the hysteresis
       * would take it as the present. */
      ch = sharpness_alarm_push (al, (guint64) MIN (have ?
              st.last_frame_mono_us : since, now_us) * 1000, FALSE, NAN,
          &ev);
    }
  }
  handle (c, MONITOR_KIND_NO_SIGNAL, ch, &ev, NULL);

  /* Blur alarms keep the blurriest thumbnail sampled while they last. */
  if (seq != c->thumb_seen_seq) {
    MonitorAlarmState *a = &c->alarms[MONITOR_KIND_BLUR];
    c->thumb_seen_seq = seq;
    if (a->active && !isnan (st.score) && (isnan (a->worst_score) ||
            sharpness_metric_is_worse (c->cfg->metric, st.score,
                a->worst_score))) {
      GstSample *t = monitor_channel_get_thumbnail (c, NULL);
      if (t) {
        if (a->thumb)
          gst_sample_unref (a->thumb);
        a->thumb = t;
        a->worst_score = st.score;
      }
    }
  }
}

void
monitor_alarms_pipeline_gone (MonitorChannel * c)
{
  SharpnessAlarmEvent ev;

  for (gint k = 0; k < MONITOR_N_KINDS; k++) {
    if (k == MONITOR_KIND_NO_SIGNAL && !c->removed)
      continue;
    handle (c, k, sharpness_alarm_finish (&c->alarms[k].alarm, &ev), &ev,
        NULL);
  }
}

gboolean
monitor_alarms_ack (MonitorChannel * c, MonitorKind kind)
{
  if (!c->alarms[kind].active)
    return FALSE;
  c->alarms[kind].acked = TRUE;
  return TRUE;
}
