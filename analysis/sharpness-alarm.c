/* Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include "sharpness-alarm.h"

#define NONE SHARPNESS_ALARM_TIME_NONE

static void
forget_run (SharpnessAlarm * a)
{
  a->active = FALSE;
  a->run_start = NONE;
  a->false_since = NONE;
  a->values = 0;
  a->min = a->max = a->sum = 0;
}

void
sharpness_alarm_init (SharpnessAlarm * alarm,
    const SharpnessAlarmSettings * settings)
{
  alarm->settings = *settings;
  alarm->condition = FALSE;
  alarm->now = 0;
  forget_run (alarm);
}

static void
fill (const SharpnessAlarm * a, SharpnessAlarmChange change, guint64 end,
    SharpnessAlarmEvent * e)
{
  e->change = change;
  e->start = a->run_start;
  e->end = end;
  e->values = a->values;
  e->min = a->values ? a->min : NAN;
  e->max = a->values ? a->max : NAN;
  e->mean = a->values ? a->sum / a->values : NAN;
}

/* The decisions that follow from the time alone. */
static SharpnessAlarmChange
advance (SharpnessAlarm * a, SharpnessAlarmEvent * e)
{
  const SharpnessAlarmSettings *s = &a->settings;

  if (a->run_start == NONE)
    return SHARPNESS_ALARM_NO_CHANGE;
  if (!a->condition && a->false_since != NONE &&
      a->now - a->false_since >= s->clear) {
    /* Gone for the hold-off: the run is over, and its alarm if any.  An
     * onset of 0 alarms even a run that never lasted. */
    gboolean was_active = a->active;
    guint64 end = a->false_since;

    if (!was_active && s->onset == 0) {
      a->active = TRUE;
      fill (a, SHARPNESS_ALARM_STARTED, NONE, e);
      return SHARPNESS_ALARM_STARTED;
    }
    if (was_active)
      fill (a, SHARPNESS_ALARM_ENDED, end, e);
    forget_run (a);
    return was_active ? SHARPNESS_ALARM_ENDED : SHARPNESS_ALARM_NO_CHANGE;
  }
  if (!a->active) {
    /* The run's length: up to now while it holds, up to where it last
     * stopped holding otherwise. */
    guint64 until = a->condition ? a->now : a->false_since;
    if (until - a->run_start >= s->onset) {
      a->active = TRUE;
      fill (a, SHARPNESS_ALARM_STARTED, NONE, e);
      return SHARPNESS_ALARM_STARTED;
    }
  }
  return SHARPNESS_ALARM_NO_CHANGE;
}

SharpnessAlarmChange
sharpness_alarm_tick (SharpnessAlarm * alarm, guint64 now,
    SharpnessAlarmEvent * event)
{
  if (now != NONE && now > alarm->now)
    alarm->now = now;
  return advance (alarm, event);
}

static void
add_value (SharpnessAlarm * a, gdouble value)
{
  if (isnan (value))
    return;
  if (!a->values || value < a->min)
    a->min = value;
  if (!a->values || value > a->max)
    a->max = value;
  a->sum += value;
  a->values++;
}

/* Takes the new condition in, at @t. */
static void
take (SharpnessAlarm * a, guint64 t, gboolean condition, gdouble value)
{
  if (condition) {
    if (a->run_start == NONE)
      a->run_start = t;
    a->false_since = NONE;
    add_value (a, value);
  } else if (a->run_start != NONE && a->false_since == NONE) {
    a->false_since = MAX (t, a->run_start);
  }
  a->condition = condition;
}

SharpnessAlarmChange
sharpness_alarm_push (SharpnessAlarm * a, guint64 t, gboolean condition,
    gdouble value, SharpnessAlarmEvent * event)
{
  SharpnessAlarmChange change;

  /* Time first: what the old condition decided by @t.  One change per
   * call: after one, the new condition is taken in all the same. */
  change = sharpness_alarm_tick (a, t, event);
  if (change == SHARPNESS_ALARM_ENDED) {
    take (a, t, condition, value);
    return change;
  }
  take (a, t, condition, value);
  if (change != SHARPNESS_ALARM_NO_CHANGE)
    return change;
  return advance (a, event);
}

SharpnessAlarmChange
sharpness_alarm_finish (SharpnessAlarm * a, SharpnessAlarmEvent * event)
{
  gboolean was_active = a->active;

  if (was_active)
    fill (a, SHARPNESS_ALARM_ENDED, a->condition || a->false_since == NONE ?
        a->now : a->false_since, event);
  forget_run (a);
  a->condition = FALSE;
  /* The next stream's time line starts where it will (a rebuilt
   * pipeline's timestamps start again): the last one's present, kept,
   * would make the first run of the next look long past its onset. */
  a->now = 0;
  return was_active ? SHARPNESS_ALARM_ENDED : SHARPNESS_ALARM_NO_CHANGE;
}
