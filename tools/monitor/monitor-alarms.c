/* sharpness-monitor: a channel's alarms.  The kinds the element decides
 * (monitor_kinds, monitor-kinds.c) come as its event messages, read with
 * sharpness_event_message_parse; the others are decided here from the
 * level and compare messages and the tick.  Every kind goes through the
 * one hysteresis, analysis/sharpness-alarm.h, for its onset and clear
 * hold-off.  Each start and end becomes an event, handed to the
 * owner's callback (the monitor: the store and log, the webhooks).  The
 * channel is seen through MonitorAlarmsSource only.  Main thread only.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <string.h>

#include "compare-message.h"
#include "monitor-alarms.h"
#include "monitor-thumbs.h"
#include "sharpness-event-message.h"
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
monitor_alarms_init (MonitorAlarms * al, const MonitorChannelConfig * cfg,
    const MonitorAlarmsSource * source, gpointer channel,
    MonitorAlarmsEmit emit, gpointer emit_data)
{
  al->cfg = cfg;
  al->source = source;
  al->channel = channel;
  al->emit = emit;
  al->emit_data = emit_data;
  for (gint k = 0; k < MONITOR_N_KINDS; k++) {
    MonitorAlarmState *a = &al->kinds[k];
    const MonitorKindSettings *ks = &cfg->kinds[k];
    SharpnessAlarmSettings s = { seconds_ns (ks->onset),
      seconds_ns (ks->clear)
    };

    /* The element applied the onset of its kinds already. */
    if (monitor_kinds[k].element_kind >= 0)
      s.onset = 0;
    memset (a, 0, sizeof (*a));
    a->last_start_pts = a->last_end_pts = NONE;
    sharpness_alarm_init (&a->alarm, &s);
  }
}

void
monitor_alarms_clear (MonitorAlarms * al)
{
  for (gint k = 0; k < MONITOR_N_KINDS; k++) {
    MonitorAlarmState *a = &al->kinds[k];
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

/* The tile map of @frame (NONE: the last frame) kept with the alarm. */
static void
keep_tiles (MonitorAlarms * al, MonitorAlarmState * a, guint64 frame)
{
  gfloat tiles[64 * 64];
  guint cols, rows;
  guint n = al->source->tiles_of_frame (al->channel, frame, tiles,
      G_N_ELEMENTS (tiles), &cols, &rows);

  g_free (a->tiles);
  a->tiles = n ? g_memdup2 (tiles, n * sizeof (gfloat)) : NULL;
  a->tiles_cols = n ? cols : 0;
  a->tiles_rows = n ? rows : 0;
}

/* The thumbnail of an event: the element's own (its event-thumbnails
 * property: the JPEG of the stretch's first or worst frame) where the
 * message has one, else the channel's last one. */
/* The transport's kinds, and the TR 101 290 priority of each. */
static guint
transport_priority (MonitorKind k)
{
  return k == MONITOR_KIND_TR101290_P1 ? 1 : k == MONITOR_KIND_TR101290_P2
      ? 2 : 0;
}

/* No signal, the transport's errors and the loudness are timed on the
 * monotonic clock (the stream's timestamps stop with them; the loudness
 * is read at the tick). */
static gboolean
monotonic_kind (MonitorKind k)
{
  return k == MONITOR_KIND_NO_SIGNAL || transport_priority (k) ||
      k == MONITOR_KIND_NO_SCTE35 || k == MONITOR_KIND_LOUDNESS_HIGH || k == MONITOR_KIND_LOUDNESS_LOW ||
      k == MONITOR_KIND_TRUE_PEAK || k == MONITOR_KIND_NO_AUDIO ||
      k == MONITOR_KIND_NO_CAPTIONS;
}

/* The errors of @priority counted in the run (monotonic ticks): each
 * indicator's count and its last error, as the event carries them. */
static JsonNode *
transport_errors_node (MonitorAlarms * al, guint priority)
{
  JsonBuilder *b = json_builder_new ();
  JsonNode *root;

  json_builder_begin_array (b);
  for (gint i = 0; i < SHARPNESS_TR101290_N_INDICATORS; i++) {
    const MonitorTransportError *l;

    if (monitor_transport_indicator_priority (i) != priority ||
        !al->ts_run[i])
      continue;
    json_builder_begin_object (b);
    json_builder_set_member_name (b, "indicator");
    json_builder_add_string_value (b, monitor_transport_indicator_name (i));
    json_builder_set_member_name (b, "count");
    json_builder_add_int_value (b, (gint64) al->ts_run[i]);
    if (al->ts_now) {
      l = &al->ts_now->last[i];
      json_builder_set_member_name (b, "last_packet");
      json_builder_add_int_value (b, (gint64) l->packet);
      json_builder_set_member_name (b, "last_pid");
      json_builder_add_int_value (b, l->pid);
      json_builder_set_member_name (b, "last_value");
      json_builder_add_int_value (b, l->value);
      json_builder_set_member_name (b, "last_expected");
      json_builder_add_int_value (b, l->expected);
    }
    json_builder_end_object (b);
  }
  json_builder_end_array (b);
  root = json_builder_get_root (b);
  g_object_unref (b);
  return root;
}

static void
transport_run_clear (MonitorAlarms * al, guint priority)
{
  for (gint i = 0; i < SHARPNESS_TR101290_N_INDICATORS; i++)
    if (monitor_transport_indicator_priority (i) == priority)
      al->ts_run[i] = 0;
}

static GstSample *
event_thumbnail (MonitorAlarms * al, const SharpnessEventReading * r)
{
  if (r && r->thumbnail)
    return gst_sample_ref (r->thumbnail);
  return al->source->thumbnail (al->channel);
}

/* Raises the start or end of kind @k: @ev from the hysteresis; @r the
 * element's message (element kinds), else NULL. */
static void
raise_event (MonitorAlarms * al, MonitorKind k, const SharpnessAlarmEvent * ev,
    const SharpnessEventReading * r)
{
  const MonitorAlarmsSource *src = al->source;
  MonitorAlarmState *a = &al->kinds[k];
  gboolean is_end = ev->change == SHARPNESS_ALARM_ENDED;
  MonitorEvent *e = monitor_event_new (al->cfg->name, k, is_end);
  gboolean mono = monotonic_kind (k);

  e->start_pts = mono ? NONE : ev->start;
  e->start_rt = mono ? NONE : src->running_time_at (al->channel, ev->start);
  e->start_wall_us = mono ? mono_ns_to_wall (ev->start) :
      src->wall_clock_at (al->channel, ev->start);
  e->min = ev->min;
  e->mean = ev->mean;
  e->max = ev->max;
  if (r && r->start_frame != NONE)
    e->start_frame = r->start_frame;
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
    a->thumb = event_thumbnail (al, r);
    keep_tiles (al, a, NONE);
  } else {
    e->end_pts = mono ? NONE : ev->end;
    e->end_rt = mono ? NONE : src->running_time_at (al->channel, ev->end);
    e->end_wall_us = mono ? mono_ns_to_wall (ev->end) :
        src->wall_clock_at (al->channel, ev->end);
    e->duration = (gdouble) (ev->end - ev->start) / GST_SECOND;
    if (r) {
      e->end_frame = sharpness_event_reading_last_frame (r);
      if (!isnan (r->min))
        e->min = r->min;
      if (!isnan (r->mean))
        e->mean = r->mean;
      if (!isnan (r->max))
        e->max = r->max;
      if (!isnan (r->worst_score))
        e->worst_score = r->worst_score;
      if (r->worst_frame != NONE)
        keep_tiles (al, a, r->worst_frame);
      /* The element's own thumbnail of the worst frame wins over the
       * one sampled while the alarm lasted. */
      if (r->thumbnail) {
        if (a->thumb)
          gst_sample_unref (a->thumb);
        a->thumb = gst_sample_ref (r->thumbnail);
      } else if (!a->thumb) {
        a->thumb = al->source->thumbnail (al->channel);
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
  if (transport_priority (k)) {
    e->errors = transport_errors_node (al, transport_priority (k));
    if (is_end)
      transport_run_clear (al, transport_priority (k));
  }
  if (a->thumb)
    e->jpeg = monitor_thumbnail_bytes (a->thumb);
  if (is_end && a->thumb) {
    gst_sample_unref (a->thumb);
    a->thumb = NULL;
  }
  a->last_change_us = g_get_real_time ();
  al->emit (e, al->emit_data);
  monitor_event_unref (e);
}

static void
handle (MonitorAlarms * al, MonitorKind k, SharpnessAlarmChange change,
    const SharpnessAlarmEvent * ev, const SharpnessEventReading * r)
{
  if (change == SHARPNESS_ALARM_NO_CHANGE || !al->cfg->kinds[k].enabled)
    return;
  raise_event (al, k, ev, r);
}

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
freeze_is_black (MonitorAlarms * al, const SharpnessEventReading * r)
{
  MonitorAlarmState *black = &al->kinds[MONITOR_KIND_BLACK];
  MonitorAlarmState *freeze = &al->kinds[MONITOR_KIND_FREEZE];
  guint64 pts = r->timestamp;

  if (r->is_end) {
    gboolean was = freeze->inside_black;
    freeze->inside_black = FALSE;
    return was;
  }
  freeze->inside_black = black->active || (pts != NONE &&
      black->last_start_pts != NONE && pts >= black->last_start_pts &&
      (black->last_end_pts == NONE || pts < black->last_end_pts));
  return freeze->inside_black;
}

gboolean
monitor_alarms_message (MonitorAlarms * al, GstMessage * msg)
{
  const GstStructure *s = gst_message_get_structure (msg);
  SharpnessEventReading r;
  SharpnessAlarmEvent ev;
  SharpnessAlarmChange ch;
  guint64 rt = NONE;
  CompareMessage cm;

  if (!s)
    return FALSE;
  if (sharpness_event_message_parse (msg, &r)) {
    MonitorKind k = monitor_kind_of_element (r.kind);

    /* On the stream's timestamps, which audio and video share: the start
     * is the stretch's first frame's pts, the end the end of its last. */
    rt = r.is_end ? r.end : r.timestamp;
    if (rt == NONE)
      return TRUE;
    if (k == MONITOR_KIND_FREEZE && freeze_is_black (al, &r))
      return TRUE;
    ch = sharpness_alarm_push (&al->kinds[k].alarm, rt, !r.is_end, NAN, &ev);
    handle (al, k, ch, &ev, &r);
    /* An onset of 0 reports its start first, its end on the next call. */
    if (r.is_end && ch == SHARPNESS_ALARM_STARTED) {
      ch = sharpness_alarm_tick (&al->kinds[k].alarm, rt, &ev);
      handle (al, k, ch, &ev, &r);
    }
    return TRUE;
  }
  if (gst_structure_has_name (s, "level")) {
    const MonitorKindSettings *ks = &al->cfg->kinds[MONITOR_KIND_SILENCE];
    gdouble rms = max_rms (s);

    if (!gst_structure_get_uint64 (s, "timestamp", &rt) || isnan (rms))
      return TRUE;
    ch = sharpness_alarm_push (&al->kinds[MONITOR_KIND_SILENCE].alarm, rt,
        rms < ks->level, rms, &ev);
    handle (al, MONITOR_KIND_SILENCE, ch, &ev, NULL);
    return TRUE;
  }
  if (compare_message_read (msg, FALSE, &cm)) {
    gdouble psnr = compare_message_value (&cm, SHARPNESS_FIELD_PSNR_AVG);
    gdouble ssim = compare_message_value (&cm, SHARPNESS_FIELD_SSIM_ALL);

    rt = cm.times.timestamp;
    /* Gray frames have no 'All': their luma is the whole frame. */
    if (isnan (ssim))
      ssim = compare_message_value (&cm, SHARPNESS_FIELD_SSIM_Y);
    al->source->pair (al->channel, psnr, ssim);
    if (rt == NONE)
      return TRUE;
    if (!isnan (psnr)) {
      ch = sharpness_alarm_push (&al->kinds[MONITOR_KIND_PSNR_DROP].alarm,
          rt, psnr < al->cfg->kinds[MONITOR_KIND_PSNR_DROP].level, psnr, &ev);
      handle (al, MONITOR_KIND_PSNR_DROP, ch, &ev, NULL);
    }
    if (!isnan (ssim)) {
      ch = sharpness_alarm_push (&al->kinds[MONITOR_KIND_SSIM_DROP].alarm,
          rt, ssim < al->cfg->kinds[MONITOR_KIND_SSIM_DROP].level, ssim, &ev);
      handle (al, MONITOR_KIND_SSIM_DROP, ch, &ev, NULL);
    }
    return TRUE;
  }
  /* At the time of the frame it is of, like the pair's.  The message
   * comes a frame later, so the tick may have seen the next frame's time
   * already: the onset and the clear hold-off are then judged up to one
   * frame early (the hysteresis keeps the latest time it was given). */
  if (compare_message_read (msg, TRUE, &cm)) {
    gdouble vmaf = compare_message_value (&cm, SHARPNESS_FIELD_VMAF);

    rt = cm.times.timestamp;
    al->source->vmaf (al->channel, vmaf);
    if (rt == NONE || isnan (vmaf))
      return TRUE;
    ch = sharpness_alarm_push (&al->kinds[MONITOR_KIND_VMAF_DROP].alarm, rt,
        vmaf < al->cfg->kinds[MONITOR_KIND_VMAF_DROP].level, vmaf, &ev);
    handle (al, MONITOR_KIND_VMAF_DROP, ch, &ev, NULL);
    return TRUE;
  }
  return FALSE;
}

/* TR 101 290: a tick with new errors of a priority is that kind's
 * condition, for an instant (the hysteresis's clear hold-off merges the
 * ticks with errors into one alarm); on the monotonic clock. */
static void
transport_tick (MonitorAlarms * al, const MonitorAlarmsNow * now)
{
  const MonitorTransportStats *ts = now->transport;
  guint64 t = (guint64) now->now_us * 1000, n[3] = { 0, 0, 0 };
  SharpnessAlarmEvent ev;
  SharpnessAlarmChange ch;

  if (!ts || !ts->seen)
    return;
  al->ts_now = ts;
  for (gint i = 0; i < SHARPNESS_TR101290_N_INDICATORS; i++) {
    guint64 d = ts->errors[i] >= al->ts_seen[i] ?
        ts->errors[i] - al->ts_seen[i] : 0;

    al->ts_seen[i] = ts->errors[i];
    al->ts_run[i] += d;
    n[monitor_transport_indicator_priority (i)] += d;
  }
  for (guint p = 1; p <= 2; p++) {
    MonitorKind k = p == 1 ? MONITOR_KIND_TR101290_P1 :
        MONITOR_KIND_TR101290_P2;
    SharpnessAlarm *alarm = &al->kinds[k].alarm;

    if (n[p]) {
      ch = sharpness_alarm_push (alarm, t, TRUE, (gdouble) n[p], &ev);
      handle (al, k, ch, &ev, NULL);
      ch = sharpness_alarm_push (alarm, t, FALSE, NAN, &ev);
    } else {
      ch = sharpness_alarm_tick (alarm, t, &ev);
    }
    handle (al, k, ch, &ev, NULL);
    /* Errors that made no alarm (a run that ended before its onset) are
     * not the next one's. */
    if (!al->kinds[k].active && alarm->run_start == SHARPNESS_ALARM_TIME_NONE)
      transport_run_clear (al, p);
  }
  al->ts_now = NULL;
}

/* No SCTE 35 cue (splice_insert or time_signal): the condition holds
 * from the last cue, or from the channel's start before the first, on
 * the monotonic clock; only while a pipeline plays (a channel down is
 * no-signal's).  Each cue ends the run and starts the next one. */
static void
scte35_tick (MonitorAlarms * al, const MonitorAlarmsNow * now)
{
  SharpnessAlarm *alarm = &al->kinds[MONITOR_KIND_NO_SCTE35].alarm;
  const MonitorTransportStats *ts = now->transport;
  gint64 last = ts && ts->seen ? ts->last_cue_mono_us : 0;
  guint64 since = (guint64) (last ? last : now->started_us) * 1000;
  SharpnessAlarmEvent ev;
  SharpnessAlarmChange ch;

  if (!al->cfg->kinds[MONITOR_KIND_NO_SCTE35].enabled)
    return;
  if (now->finished || !now->playing) {
    ch = sharpness_alarm_finish (alarm, &ev);
  } else {
    if (alarm->condition && alarm->run_start != SHARPNESS_ALARM_TIME_NONE &&
        since > alarm->run_start) {
      /* A cue since the run began: the run ends there, and the next one
       * starts from it. */
      ch = sharpness_alarm_push (alarm, since, FALSE, NAN, &ev);
      handle (al, MONITOR_KIND_NO_SCTE35, ch, &ev, NULL);
    }
    if (!alarm->condition) {
      ch = sharpness_alarm_push (alarm, since, TRUE, NAN, &ev);
      handle (al, MONITOR_KIND_NO_SCTE35, ch, &ev, NULL);
    }
    ch = sharpness_alarm_tick (alarm, (guint64) now->now_us * 1000, &ev);
  }
  handle (al, MONITOR_KIND_NO_SCTE35, ch, &ev, NULL);
}

/* Loudness: the short-term loudness (3 s) out of its range, the true
 * peak over its maximum, read at the tick (no audio: no condition); and
 * no audio buffer while pictures come. */
static void
loudness_tick (MonitorAlarms * al, const MonitorAlarmsNow * now)
{
  const MonitorLoudnessReading *r = now->loudness;
  const MonitorKindSettings *ks = al->cfg->kinds;
  guint64 t = (guint64) now->now_us * 1000;
  gboolean audio = r && r->measured;
  /* -inf (below the absolute gate, or not 3 s yet) is no loudness. */
  gboolean st = audio && isfinite (r->short_term);
  /* No audio is a fault only while pictures come (no signal is
   * no-signal's), and after the start-up grace (decoders start). */
  gboolean pictures = now->playing && now->last_frame_mono_us &&
      now->now_us - now->last_frame_mono_us <= GAP_US;
  const struct
  {
    MonitorKind kind;
    gboolean condition;
    gdouble value;
  } c[] = {
    {MONITOR_KIND_LOUDNESS_HIGH, st &&
          r->short_term > ks[MONITOR_KIND_LOUDNESS_HIGH].level,
        st ? r->short_term : NAN},
    {MONITOR_KIND_LOUDNESS_LOW, st &&
          r->short_term < ks[MONITOR_KIND_LOUDNESS_LOW].level,
        st ? r->short_term : NAN},
    {MONITOR_KIND_TRUE_PEAK, audio &&
          r->true_peak_recent > ks[MONITOR_KIND_TRUE_PEAK].level,
        audio && isfinite (r->true_peak_recent) ? r->true_peak_recent : NAN},
    {MONITOR_KIND_NO_AUDIO, pictures && (r && r->last_audio_us ?
            now->now_us - r->last_audio_us > GAP_US :
            now->now_us - now->started_us > STARTUP_GRACE_US), NAN},
  };
  SharpnessAlarmEvent ev;

  for (guint i = 0; i < G_N_ELEMENTS (c); i++) {
    SharpnessAlarm *alarm = &al->kinds[c[i].kind].alarm;
    SharpnessAlarmChange ch;

    /* A change of the condition, else time going on. */
    if (c[i].condition != alarm->condition || c[i].condition)
      ch = sharpness_alarm_push (alarm, t, c[i].condition, c[i].value, &ev);
    else
      ch = sharpness_alarm_tick (alarm, t, &ev);
    handle (al, c[i].kind, ch, &ev, NULL);
  }
}

/* No captions: pictures come, and no valid caption packet has for more
 * than the captions' gap; the run starts at the last picture with
 * captions (before any, at the end of the start-up grace), so that the
 * onset is the time without captions, and ends at the first one back.
 * Without pictures it is no-signal's, not this. */
static void
captions_tick (MonitorAlarms * al, const MonitorAlarmsNow * now)
{
  SharpnessAlarm *alarm = &al->kinds[MONITOR_KIND_NO_CAPTIONS].alarm;
  const MonitorCaptionsStats *cs = now->captions;
  gint64 last = cs ? cs->last_caption_us : 0;
  gint64 grace_end = now->started_us + STARTUP_GRACE_US;
  gint64 since = last ? last : grace_end;
  gboolean pictures = now->playing && now->last_frame_mono_us &&
      now->now_us - now->last_frame_mono_us <= GAP_US;
  gboolean missing = pictures &&
      now->now_us - since > MONITOR_CAPTIONS_GAP_US;
  SharpnessAlarmEvent ev;
  SharpnessAlarmChange ch;

  if (missing && !alarm->condition) {
    ch = sharpness_alarm_push (alarm, (guint64) since * 1000, TRUE, NAN,
        &ev);
    handle (al, MONITOR_KIND_NO_CAPTIONS, ch, &ev, NULL);
  } else if (!missing && alarm->condition) {
    /* Where captions came back, or (pictures gone) now. */
    gboolean back = cs && cs->resumed_us &&
        (guint64) cs->resumed_us * 1000 > alarm->run_start;

    ch = sharpness_alarm_push (alarm, (guint64) (back ? cs->resumed_us :
            now->now_us) * 1000, FALSE, NAN, &ev);
    handle (al, MONITOR_KIND_NO_CAPTIONS, ch, &ev, NULL);
  }
  ch = sharpness_alarm_tick (alarm, (guint64) now->now_us * 1000, &ev);
  handle (al, MONITOR_KIND_NO_CAPTIONS, ch, &ev, NULL);
}

void
monitor_alarms_tick (MonitorAlarms * al, const MonitorAlarmsNow * now)
{
  SharpnessAlarmEvent ev;
  SharpnessAlarmChange ch;
  gint64 now_us = now->now_us;

  /* Hold-offs of the stream's kinds run on its timestamps: those of the
   * pipeline playing (a failed one's last frame, kept until the rebuild,
   * would move the next one's time line on to it). */
  if (now->playing && now->last_frame_mono_us && now->pts != NONE)
    for (gint k = 0; k < MONITOR_N_KINDS; k++) {
      if (monotonic_kind (k))
        continue;
      ch = sharpness_alarm_tick (&al->kinds[k].alarm, now->pts, &ev);
      handle (al, k, ch, &ev, NULL);
    }

  /* No signal: on the monotonic clock, from the last frame's arrival;
   * before the first frame, from the end of the start-up grace.  A
   * restart does not end it: only a frame does. */
  {
    SharpnessAlarm *alarm = &al->kinds[MONITOR_KIND_NO_SIGNAL].alarm;
    gint64 last = now->last_frame_mono_us;
    gboolean have = last != 0;
    gint64 grace_end = now->started_us + STARTUP_GRACE_US;
    gint64 since = have ? MAX (last, grace_end) : grace_end;
    gboolean missing = alarm->condition ? !have || now_us - last > GAP_US :
        now_us - since > GAP_US;

    if (now->finished) {
      ch = sharpness_alarm_finish (alarm, &ev);
    } else if (missing) {
      ch = alarm->condition ? SHARPNESS_ALARM_NO_CHANGE :
          sharpness_alarm_push (alarm, (guint64) since * 1000, TRUE, NAN,
          &ev);
      handle (al, MONITOR_KIND_NO_SIGNAL, ch, &ev, NULL);
      ch = sharpness_alarm_tick (alarm, (guint64) now_us * 1000, &ev);
    } else {
      /* Never a time ahead of now (the grace's end): the hysteresis
       * would take it as the present. */
      ch = sharpness_alarm_push (alarm, (guint64) MIN (have ? last : since,
              now_us) * 1000, FALSE, NAN, &ev);
    }
  }
  handle (al, MONITOR_KIND_NO_SIGNAL, ch, &ev, NULL);

  transport_tick (al, now);
  scte35_tick (al, now);
  loudness_tick (al, now);
  captions_tick (al, now);

  /* Blur alarms keep the blurriest thumbnail sampled while they last. */
  if (now->new_thumbnail) {
    MonitorAlarmState *a = &al->kinds[MONITOR_KIND_BLUR];
    if (a->active && !isnan (now->score) && (isnan (a->worst_score) ||
            sharpness_metric_is_worse (al->cfg->metric, now->score,
                a->worst_score))) {
      GstSample *t = al->source->thumbnail (al->channel);
      if (t) {
        if (a->thumb)
          gst_sample_unref (a->thumb);
        a->thumb = t;
        a->worst_score = now->score;
      }
    }
  }
}

void
monitor_alarms_pipeline_gone (MonitorAlarms * al, gboolean for_good)
{
  SharpnessAlarmEvent ev;

  for (gint k = 0; k < MONITOR_N_KINDS; k++) {
    /* The monotonic kinds outlive a pipeline (the transport's counts go
     * on across rebuilds). */
    if ((k == MONITOR_KIND_NO_SIGNAL || transport_priority (k)) && !for_good)
      continue;
    handle (al, k, sharpness_alarm_finish (&al->kinds[k].alarm, &ev), &ev,
        NULL);
  }
}

gboolean
monitor_alarms_ack (MonitorAlarms * al, MonitorKind kind)
{
  if (!al->kinds[kind].active)
    return FALSE;
  al->kinds[kind].acked = TRUE;
  return TRUE;
}
