/* Unit test of the alarm hysteresis (analysis/sharpness-alarm.h): the
 * onset, a run shorter than it, the clear hold-off merging two stretches
 * without moving either edge, an onset of 0, values, and finish.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>

#include "sharpness-alarm.h"

#include "test-check.h"

#define MS (G_GUINT64_CONSTANT (1000000))

/* Samples every 100 ms: true from @on to @off (ms), ticked to @until. */
static void
test_onset (void)
{
  SharpnessAlarmSettings s = { 1000 * MS, 0 };
  SharpnessAlarm a;
  SharpnessAlarmEvent e;
  gint starts = 0, ends = 0;

  sharpness_alarm_init (&a, &s);
  for (guint64 t = 0; t <= 5000; t += 100) {
    gboolean c = t >= 1000 && t < 2500;
    switch (sharpness_alarm_push (&a, t * MS, c, c ? 1.0 * t : NAN, &e)) {
      case SHARPNESS_ALARM_STARTED:
        starts++;
        CHECK (t == 2000);      /* lasted 1 s */
        CHECK (e.start == 1000 * MS);
        break;
      case SHARPNESS_ALARM_ENDED:
        ends++;
        CHECK (t == 2500);
        CHECK (e.start == 1000 * MS && e.end == 2500 * MS);
        CHECK (e.values == 15 && e.min == 1000 && e.max == 2400);
        break;
      default:
        break;
    }
  }
  CHECK (starts == 1 && ends == 1);

  /* Shorter than the onset: nothing. */
  sharpness_alarm_init (&a, &s);
  starts = 0;
  for (guint64 t = 0; t <= 5000; t += 100)
    if (sharpness_alarm_push (&a, t * MS, t >= 1000 && t < 1900, NAN, &e))
      starts++;
  CHECK (starts == 0);
}

static void
test_clear (void)
{
  SharpnessAlarmSettings s = { 0, 500 * MS };
  SharpnessAlarm a;
  SharpnessAlarmEvent e;

  sharpness_alarm_init (&a, &s);
  CHECK (sharpness_alarm_push (&a, 1000 * MS, TRUE, NAN, &e) ==
      SHARPNESS_ALARM_STARTED && e.start == 1000 * MS);
  /* Off for 300 ms then on again: one alarm. */
  CHECK (!sharpness_alarm_push (&a, 2000 * MS, FALSE, NAN, &e));
  CHECK (!sharpness_alarm_tick (&a, 2200 * MS, &e));
  CHECK (!sharpness_alarm_push (&a, 2300 * MS, TRUE, NAN, &e));
  CHECK (!sharpness_alarm_push (&a, 3000 * MS, FALSE, NAN, &e));
  CHECK (!sharpness_alarm_tick (&a, 3499 * MS, &e));
  CHECK (sharpness_alarm_tick (&a, 3500 * MS, &e) == SHARPNESS_ALARM_ENDED);
  CHECK (e.start == 1000 * MS && e.end == 3000 * MS);
  CHECK (!sharpness_alarm_tick (&a, 9000 * MS, &e));
}

static void
test_finish (void)
{
  SharpnessAlarmSettings s = { 100 * MS, 1000 * MS };
  SharpnessAlarm a;
  SharpnessAlarmEvent e;

  sharpness_alarm_init (&a, &s);
  sharpness_alarm_push (&a, 0, TRUE, NAN, &e);
  CHECK (sharpness_alarm_tick (&a, 200 * MS, &e) == SHARPNESS_ALARM_STARTED);
  sharpness_alarm_push (&a, 300 * MS, FALSE, NAN, &e);
  CHECK (sharpness_alarm_finish (&a, &e) == SHARPNESS_ALARM_ENDED);
  CHECK (e.start == 0 && e.end == 300 * MS);
  CHECK (!sharpness_alarm_finish (&a, &e));
  /* The next stream's times start again, below the last one's: its run
   * alarms after its own onset, not at once. */
  CHECK (!sharpness_alarm_push (&a, 10 * MS, TRUE, NAN, &e));
  CHECK (!sharpness_alarm_tick (&a, 50 * MS, &e));
  CHECK (sharpness_alarm_tick (&a, 110 * MS, &e) == SHARPNESS_ALARM_STARTED);
  CHECK (e.start == 10 * MS);
}

int
main (void)
{
  test_onset ();
  test_clear ();
  test_finish ();
  return test_check_finish (NULL);
}
