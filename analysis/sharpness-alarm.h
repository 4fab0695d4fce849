/* One alarm kind's onset and clear hold-off: when a condition that comes
 * and goes becomes an alarm, and when the alarm ends.  The one
 * implementation behind sharpness-monitor's alarms (silence, no signal,
 * PSNR and SSIM drops, and the clear hold-off of the element's blur, black
 * and freeze stretches).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The caller says when the condition changes (push) and how far time has
 * gone (tick), on one time line of its choice (PTS, running time, a
 * monotonic clock).  A run starts where the condition becomes true; it
 * goes on across stretches where the condition is false for less than
 * the clear hold-off.  The alarm starts once a run has lasted the onset
 * duration, and is reported as starting where the run started; it ends
 * once the condition has been false for the clear hold-off, and is
 * reported as ending where the condition became false.  So the hold-off
 * delays the end and merges close stretches without moving either edge.
 *
 * Plain GLib, no allocation.  Not thread-safe.
 */
#ifndef SHARPNESS_ALARM_H
#define SHARPNESS_ALARM_H

#include <glib.h>

G_BEGIN_DECLS

#define SHARPNESS_ALARM_TIME_NONE G_MAXUINT64

typedef struct
{
  guint64 onset;                /* condition held this long: the alarm */
  guint64 clear;                /* condition gone this long: its end */
} SharpnessAlarmSettings;

typedef enum
{
  SHARPNESS_ALARM_NO_CHANGE,
  SHARPNESS_ALARM_STARTED,
  SHARPNESS_ALARM_ENDED
} SharpnessAlarmChange;

typedef struct
{
  SharpnessAlarmSettings settings;
  gboolean condition;           /* as last pushed */
  gboolean active;              /* the alarm is on */
  guint64 run_start;            /* where the current run began, or NONE */
  guint64 false_since;          /* where the condition last became false
                                 * within the run, or NONE */
  guint64 now;
  /* Values pushed while the run lasts (a score, a level). */
  guint64 values;
  gdouble min, max, sum;
} SharpnessAlarm;

/* What a start or an end reports.  start: where the run began; end (ends
 * only): where the condition became false for good. */
typedef struct
{
  SharpnessAlarmChange change;
  guint64 start, end;
  guint64 values;
  gdouble min, mean, max;
} SharpnessAlarmEvent;

void sharpness_alarm_init (SharpnessAlarm * alarm,
    const SharpnessAlarmSettings * settings);

/* The condition is @condition from @t on.  @t may be earlier than the
 * last time given (a detector that reports a stretch once it is certain):
 * the run then starts or stops at @t, and time stays where it was.  @value (NaN: none) joins the run's values when @condition is
 * TRUE.  At most one change per call: an alarm that both starts and ends
 * at @t (an onset of 0) reports the start, and its end on the next call. */
SharpnessAlarmChange sharpness_alarm_push (SharpnessAlarm * alarm, guint64 t,
    gboolean condition, gdouble value, SharpnessAlarmEvent * event);

/* Time has gone on to @now with no change of the condition. */
SharpnessAlarmChange sharpness_alarm_tick (SharpnessAlarm * alarm,
    guint64 now, SharpnessAlarmEvent * event);

/* The stream ended or was lost: an active alarm ends where the condition
 * was last seen (or at the last time given); an open run is forgotten,
 * and time starts again: the next stream's may start anywhere. */
SharpnessAlarmChange sharpness_alarm_finish (SharpnessAlarm * alarm,
    SharpnessAlarmEvent * event);

G_END_DECLS
#endif /* SHARPNESS_ALARM_H */
