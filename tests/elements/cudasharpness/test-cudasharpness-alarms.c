/* The element's blurry-segment alarms: `sharpness-blurry-start` once a run
 * of blurry frames lasted min-blurry-duration, `sharpness-blurry-end` when
 * it ends (max-blurry-gap sharp frames later, or at EOS / flush), for the
 * absolute and the relative rules, with `interval` set or not, across a
 * caps change, and with running time != PTS.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <string.h>

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "sharpness-harness.h"
#include "test-video.h"

#define FRAME (40 * GST_MSECOND)
#define W 32
#define H 24

/* Frame @i: sharp (random pixels, a high laplacian) or blurry (uniform,
 * laplacian 0), PTS i frames. */
static GstBuffer *
frame (guint i, gboolean sharp, gint w, gint height, GRand * rand)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, (gsize) w * height, NULL);
  GstMapInfo map;

  gst_buffer_map (buf, &map, GST_MAP_WRITE);
  for (gsize k = 0; k < map.size; k++)
    map.data[k] = sharp ? g_rand_int (rand) : 128;
  gst_buffer_unmap (buf, &map);
  GST_BUFFER_PTS (buf) = i * FRAME;
  GST_BUFFER_DURATION (buf) = FRAME;
  return buf;
}

/* The alarm messages on @bus, in order (other messages dropped). */
static GList *
pop_alarms (GstBus * bus)
{
  GList *list = NULL;
  GstMessage *m;

  while ((m = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT))) {
    const GstStructure *s = gst_message_get_structure (m);
    if (g_str_has_prefix (gst_structure_get_name (s), "sharpness-blurry-"))
      list = g_list_append (list, m);
    else
      gst_message_unref (m);
  }
  return list;
}

/* Pushes frame @i and returns the alarms it caused. */
static GList *
push (GstHarness * h, GstBus * bus, guint i, gboolean sharp, GRand * rand)
{
  gst_buffer_unref (gst_harness_push_and_pull (h, frame (i, sharp, W, H,
              rand)));
  return pop_alarms (bus);
}

static void
check_start (GList * alarms, guint64 first_frame, GstClockTime base)
{
  const GstStructure *s;

  fail_unless_equals_int (g_list_length (alarms), 1);
  s = gst_message_get_structure (alarms->data);
  fail_unless (gst_structure_has_name (s, "sharpness-blurry-start"));
  fail_unless_equals_uint64 (harness_get_uint64 (s, "start-frame"),
      first_frame);
  fail_unless_equals_uint64 (harness_get_uint64 (s, "timestamp"),
      first_frame * FRAME);
  fail_unless_equals_uint64 (harness_get_uint64 (s, "stream-time"),
      first_frame * FRAME);
  fail_unless_equals_uint64 (harness_get_uint64 (s, "running-time"),
      base + first_frame * FRAME);
  fail_unless_equals_string (gst_structure_get_string (s, "metric"),
      "laplacian");
}

static void
check_end (GList * alarms, guint64 first_frame, guint64 last)
{
  const GstStructure *s;

  fail_unless_equals_int (g_list_length (alarms), 1);
  s = gst_message_get_structure (alarms->data);
  fail_unless (gst_structure_has_name (s, "sharpness-blurry-end"));
  fail_unless_equals_uint64 (harness_get_uint64 (s, "start-frame"),
      first_frame);
  fail_unless_equals_uint64 (harness_get_uint64 (s, "end-frame"), last);
  fail_unless_equals_uint64 (harness_get_uint64 (s, "start"),
      first_frame * FRAME);
  fail_unless_equals_uint64 (harness_get_uint64 (s, "end"), (last + 1) * FRAME);
  fail_unless_equals_uint64 (harness_get_uint64 (s, "duration"),
      (last + 1 - first_frame) * FRAME);
  fail_unless_equals_uint64 (harness_get_uint64 (s, "frames"),
      last + 1 - first_frame);
  /* Uniform frames: laplacian 0; sharp frames of a gap inside the run
   * count in its mean. */
  fail_unless_equals_float (harness_get_double (s, "min"), 0.0);
  if (harness_get_uint64 (s, "blurry-frames") ==
      harness_get_uint64 (s, "frames")) {
    fail_unless_equals_float (harness_get_double (s, "mean"), 0.0);
  } else {
    fail_unless (harness_get_double (s, "mean") > 0.0 &&
        harness_get_double (s, "max") > 0.0);
  }
}

/* Runs the pattern @sharp (one char per frame: 's' sharp, 'b' blurry) and
 * checks that the alarms come on the frames of @events: "S<first>@<i>"
 * for a start caused by frame i, "E<first>-<last>@<i>" for an end. */
static void
run_pattern (const gchar * props, const gchar * pattern,
    const gchar * const *events, GstClockTime base, gboolean eos_end)
{
  GstBus *bus;
  /* The rule alone: uniform frames would be flat, and repeated ones
   * frozen (test-cudasharpness-content.c tests those states). */
  gchar *all = g_strconcat ("detect=0 ", props, NULL);
  GstHarness *h = harness_new (&bus, all);
  GRand *rand = g_rand_new_with_seed (7);
  guint n = strlen (pattern), e = 0;

  test_video_set_caps (h, GST_VIDEO_FORMAT_GRAY8, W, H);
  if (base) {
    GstSegment seg;
    gst_segment_init (&seg, GST_FORMAT_TIME);
    seg.base = base;
    fail_unless (gst_harness_push_event (h, gst_event_new_segment (&seg)));
  }
  for (guint i = 0; i < n; i++) {
    GList *alarms = push (h, bus, i, pattern[i] == 's', rand);
    guint64 a, b, at;

    if (events[e] && events[e][0] == 'S' &&
        sscanf (events[e], "S%" G_GUINT64_FORMAT "@%" G_GUINT64_FORMAT, &a,
            &at) == 2 && at == i) {
      check_start (alarms, a, base);
      e++;
    } else if (events[e] && events[e][0] == 'E' &&
        sscanf (events[e], "E%" G_GUINT64_FORMAT "-%" G_GUINT64_FORMAT "@%"
            G_GUINT64_FORMAT, &a, &b, &at) == 3 && at == i) {
      check_end (alarms, a, b);
      e++;
    } else {
      fail_unless_equals_int (g_list_length (alarms), 0);
    }
    g_list_free_full (alarms, (GDestroyNotify) gst_message_unref);
  }
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  {
    GList *alarms = pop_alarms (bus);
    guint64 a, b;
    if (eos_end) {
      fail_unless (events[e] && sscanf (events[e], "E%" G_GUINT64_FORMAT
              "-%" G_GUINT64_FORMAT "@eos", &a, &b) == 2);
      check_end (alarms, a, b);
      e++;
    } else {
      fail_unless_equals_int (g_list_length (alarms), 0);
    }
    g_list_free_full (alarms, (GDestroyNotify) gst_message_unref);
  }
  fail_unless (events[e] == NULL, "alarm %s never came", events[e]);
  g_rand_free (rand);
  g_free (all);
  harness_free (h, bus);
}

/* Absolute rule, 3 frames (120 ms) minimum, gaps of up to 2 frames: the
 * 2-frame run (3 sharp frames after it end it) is no alarm; the 6-frame run
 * starts on its third frame and ends on the third sharp frame after it. */
GST_START_TEST (test_absolute)
{
  const gchar *ev[] = { "S8@10", "E8-13@16", NULL };
  run_pattern ("threshold=1 min-blurry-duration=120000000",
      "sssbbsssbbbbbbssssss", ev, 0, FALSE);
}

GST_END_TEST;

/* Gaps: one sharp frame inside a run joins it (max-blurry-gap 2); with
 * max-blurry-gap 0 it splits it into two runs too short to alarm. */
GST_START_TEST (test_gap)
{
  const gchar *ev[] = { "S2@5", "E2-6@9", NULL };
  const gchar *none[] = { NULL };
  run_pattern ("threshold=1 min-blurry-duration=160000000",
      "ssbbsbbsssss", ev, 0, FALSE);
  run_pattern ("threshold=1 min-blurry-duration=160000000 max-blurry-gap=0",
      "ssbbsbbsssss", none, 0, FALSE);
}

GST_END_TEST;

/* Relative rule: the blur stays blurry for all its frames (blurry frames
 * do not enter the reference), with `interval` set or not. */
GST_START_TEST (test_relative)
{
  const gchar *ev[] = { "S5@7", "E5-14@17", NULL };
  const gchar *pattern = "sssssbbbbbbbbbbssssss";

  run_pattern ("relative-threshold=0.5 window=4 "
      "min-blurry-duration=120000000", pattern, ev, 0, FALSE);
  run_pattern ("relative-threshold=0.5 window=4 interval=1000000000 "
      "min-blurry-duration=120000000", pattern, ev, 0, FALSE);
  run_pattern ("relative-threshold=0.5 window=4 post-messages=false "
      "min-blurry-duration=120000000", pattern, ev, 0, FALSE);
}

GST_END_TEST;

/* EOS inside a run ends it; running time follows the segment's base. */
GST_START_TEST (test_eos_and_running_time)
{
  const gchar *ev[] = { "S3@5", "E3-8@eos", NULL };
  run_pattern ("threshold=1 min-blurry-duration=120000000", "sssbbbbbb", ev,
      10 * GST_SECOND, TRUE);
}

GST_END_TEST;

/* Off by default; min-blurry-duration 0 posts nothing. */
GST_START_TEST (test_off)
{
  const gchar *none[] = { NULL };
  run_pattern ("threshold=1", "ssbbbbbbbbbbss", none, 0, FALSE);
}

GST_END_TEST;

/* A caps change inside a run neither ends it nor starts a second one. */
GST_START_TEST (test_caps_change)
{
  GstBus *bus;
  GstHarness *h = harness_new (&bus,
      "detect=0 threshold=1 min-blurry-duration=120000000");
  GRand *rand = g_rand_new_with_seed (3);
  GList *a;
  guint i = 0;

  test_video_set_caps (h, GST_VIDEO_FORMAT_GRAY8, W, H);
  for (; i < 3; i++)
    fail_if (push (h, bus, i, TRUE, rand));
  for (; i < 5; i++)
    fail_if (push (h, bus, i, FALSE, rand));
  test_video_set_caps (h, GST_VIDEO_FORMAT_GRAY8, W, H - 1);
  gst_buffer_unref (gst_harness_push_and_pull (h, frame (i++, FALSE, W,
              H - 1, rand)));
  check_start (a = pop_alarms (bus), 3, 0);
  g_list_free_full (a, (GDestroyNotify) gst_message_unref);
  for (; i < 8; i++) {
    gst_buffer_unref (gst_harness_push_and_pull (h, frame (i, FALSE, W,
                H - 1, rand)));
    fail_if ((a = pop_alarms (bus)) != NULL);
  }
  for (; i < 11; i++) {
    gst_buffer_unref (gst_harness_push_and_pull (h, frame (i, TRUE, W,
                H - 1, rand)));
    a = pop_alarms (bus);
    if (i == 10)
      check_end (a, 3, 7);
    else
      fail_if (a != NULL);
    g_list_free_full (a, (GDestroyNotify) gst_message_unref);
  }
  g_rand_free (rand);
  harness_free (h, bus);
}

GST_END_TEST;

static Suite *
alarms_suite (void)
{
  Suite *s = suite_create ("cudasharpness-alarms");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_absolute);
  tcase_add_test (tc, test_gap);
  tcase_add_test (tc, test_relative);
  tcase_add_test (tc, test_eos_and_running_time);
  tcase_add_test (tc, test_off);
  tcase_add_test (tc, test_caps_change);
  return s;
}

GST_CHECK_MAIN (alarms);
