/* cudasharpness's content states: flat, black and frozen frames are their
 * own kinds, never blurry, never in a blurry run; their events; the
 * JPEG thumbnail events carry with event-thumbnails; and the focus gate
 * of the absolute test.  The FFmpeg-exact
 * black and freeze decisions are test_cudasharpness_black_freeze.py's.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include <gst/video/video.h>

#include "sharpness-event-message.h"
#include "sharpness-harness.h"

#define W 64
#define H 48
#define FRAME (GST_SECOND / 25)

typedef enum
{
  NOISE,                        /* random pixels: sharp, full of edges */
  FLAT,                         /* a smooth horizontal ramp: no edges */
  BLACK,                        /* limited-range black */
  STILL                         /* the same noise frame every time */
} Picture;

static GstBuffer *
frame (guint i, Picture p, GRand * rand)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, W * H, NULL);
  GstMapInfo map;
  GRand *still = g_rand_new_with_seed (99);

  gst_buffer_map (buf, &map, GST_MAP_WRITE);
  for (gint y = 0; y < H; y++)
    for (gint x = 0; x < W; x++) {
      guint8 *px = map.data + y * W + x;

      switch (p) {
        case NOISE:
          *px = g_rand_int_range (rand, 16, 236);
          break;
        case FLAT:
          *px = 100 + x / 8;
          break;
        case BLACK:
          *px = 16;
          break;
        case STILL:
          *px = g_rand_int_range (still, 16, 236);
          break;
      }
    }
  gst_buffer_unmap (buf, &map);
  g_rand_free (still);
  GST_BUFFER_PTS (buf) = i * FRAME;
  GST_BUFFER_DURATION (buf) = FRAME;
  return buf;
}

static GstHarness *
content_harness (GstBus ** bus, const gchar * props)
{
  GstHarness *h = harness_new (bus, props);

  gst_harness_set_src_caps_str (h, "video/x-raw,format=GRAY8,width=64,"
      "height=48,framerate=25/1");
  return h;
}

static gchar *
push_state (GstHarness * h, guint i, Picture p, GRand * rand)
{
  GstBuffer *out = gst_harness_push_and_pull (h, frame (i, p, rand));
  GstCustomMeta *meta = gst_buffer_get_custom_meta (out, "GstSharpnessMeta");
  gchar *state;

  fail_unless (meta != NULL);
  state = g_strdup (gst_structure_get_string (gst_custom_meta_get_structure
          (meta), "content-state"));
  gst_buffer_unref (out);
  return state;
}

/* The names of the element messages on @bus whose name starts with
 * @prefix, in order. */
static GPtrArray *
pop_named (GstBus * bus, const gchar * prefix)
{
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  GstMessage *m;

  while ((m = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT))) {
    const gchar *n = gst_structure_get_name (gst_message_get_structure (m));

    if (g_str_has_prefix (n, prefix))
      g_ptr_array_add (names, g_strdup (n));
    gst_message_unref (m);
  }
  return names;
}

/* A smooth ramp has no structure: flat, not blurry, although its score is
 * far below the threshold; noise is normal. */
GST_START_TEST (test_flat_is_not_blurry)
{
  GstBus *bus;
  GstHarness *h = content_harness (&bus, "metric=laplacian threshold=50 "
      "min-blurry-duration=40000000");
  GRand *rand = g_rand_new_with_seed (1);
  GPtrArray *events;
  gchar *state;

  for (guint i = 0; i < 10; i++) {
    state = push_state (h, i, i % 2 ? NOISE : FLAT, rand);
    fail_unless_equals_string (state, i % 2 ? "normal" : "flat");
    g_free (state);
  }
  events = pop_named (bus, "sharpness-blurry-");
  fail_unless_equals_int (events->len, 0);
  g_ptr_array_unref (events);
  g_rand_free (rand);
  harness_free (h, bus);
}

GST_END_TEST;

/* The same ramp with flat detection off is blurry: the rule alone. */
GST_START_TEST (test_flat_detection_off)
{
  GstBus *bus;
  GstHarness *h = content_harness (&bus, "detect=black+freeze "
      "metric=laplacian threshold=50");
  GRand *rand = g_rand_new_with_seed (1);
  gchar *state = push_state (h, 0, FLAT, rand);

  fail_unless_equals_string (state, "blurry");
  g_free (state);
  g_rand_free (rand);
  harness_free (h, bus);
}

GST_END_TEST;

/* 2.4 s of black between noise: black frames, one black start once the
 * stretch has lasted 2 s, its end at the first noise frame; no blurry
 * run although black scores worst. */
GST_START_TEST (test_black_stretch)
{
  GstBus *bus;
  GstHarness *h = content_harness (&bus, "metric=laplacian threshold=50 "
      "min-blurry-duration=40000000");
  GRand *rand = g_rand_new_with_seed (2);
  GPtrArray *events;
  guint i = 0;

  for (; i < 5; i++)
    g_free (push_state (h, i, NOISE, rand));
  for (; i < 5 + 60; i++) {
    gchar *state = push_state (h, i, BLACK, rand);

    fail_unless_equals_string (state, "black");
    g_free (state);
    /* Frame 55: its pts is 2 s after the first black frame's.  (The
     * black picture is still too: it is a freeze as well.) */
    events = pop_named (bus, "sharpness-black-");
    fail_unless_equals_int (events->len, i == 55);
    if (i == 55)
      fail_unless_equals_string (g_ptr_array_index (events, 0),
          "sharpness-black-start");
    g_ptr_array_unref (events);
  }
  g_free (push_state (h, i, NOISE, rand));
  events = pop_named (bus, "sharpness-black-");
  fail_unless_equals_int (events->len, 1);
  fail_unless_equals_string (g_ptr_array_index (events, 0),
      "sharpness-black-end");
  g_ptr_array_unref (events);
  g_rand_free (rand);
  harness_free (h, bus);
}

GST_END_TEST;

/* A stuck picture: frozen from the frame the freeze reaches 2 s, its
 * start and end events, and not blurry meanwhile. */
GST_START_TEST (test_frozen_picture)
{
  GstBus *bus;
  GstHarness *h = content_harness (&bus, "metric=laplacian");
  GRand *rand = g_rand_new_with_seed (3);
  GPtrArray *events;
  guint i = 0, starts = 0, ends = 0;

  for (; i < 5; i++)
    g_free (push_state (h, i, NOISE, rand));
  /* Frame 5 is the reference; 5 + 50 is 2 s later. */
  for (; i < 5 + 75; i++) {
    gchar *state = push_state (h, i, STILL, rand);

    fail_unless_equals_string (state, i >= 55 ? "frozen" : "normal");
    g_free (state);
  }
  g_free (push_state (h, i, NOISE, rand));
  events = pop_named (bus, "sharpness-freeze-");
  for (guint k = 0; k < events->len; k++) {
    starts += g_str_has_suffix (g_ptr_array_index (events, k), "-start");
    ends += g_str_has_suffix (g_ptr_array_index (events, k), "-end");
  }
  fail_unless_equals_int (starts, 1);
  fail_unless_equals_int (ends, 1);
  g_ptr_array_unref (events);
  g_rand_free (rand);
  harness_free (h, bus);
}

GST_END_TEST;

/* The typed reader gives what the element wrote: every field of @s, by
 * its wire name. */
static void
check_reading (const GstStructure * s, const SharpnessEventReading * r)
{
  const gchar *n = gst_structure_get_name (s);
  guint64 v;
  gdouble d;

  fail_unless_equals_int (r->is_end, g_str_has_suffix (n, "-end"));
  fail_unless (gst_structure_get_uint64 (s, "timestamp", &v));
  fail_unless (r->timestamp == v);
  fail_unless (gst_structure_get_uint64 (s, "start-frame", &v));
  fail_unless (r->start_frame == v);
  fail_unless_equals_string (r->metric, gst_structure_get_string (s,
          "metric"));
  if (!r->is_end) {
    fail_unless (r->end == GST_CLOCK_TIME_NONE && isnan (r->worst_score));
    return;
  }
  fail_unless (gst_structure_get_uint64 (s, "end", &v) && r->end == v);
  fail_unless (gst_structure_get_uint64 (s, "end-frame", &v) &&
      r->end_frame == v);
  fail_unless (gst_structure_get_uint64 (s, "frames", &v) && r->frames == v);
  fail_unless (gst_structure_get_uint64 (s, "blurry-frames", &v) &&
      r->kind_frames == v);
  fail_unless (gst_structure_get_uint64 (s, "worst-frame", &v) &&
      r->worst_frame == v);
  fail_unless (gst_structure_get_double (s, "worst-score", &d) &&
      r->worst_score == d);
  fail_unless (gst_structure_get_double (s, "mean", &d) && r->mean == d);
  /* A blurry run's end-frame is its last blurry frame already. */
  fail_unless (sharpness_event_reading_last_frame (r) == r->end_frame);
}

/* With event-thumbnails, every start and end carries a JPEG of the width
 * asked for, posted in order before the summary; the typed reader finds
 * it and every other field. */
GST_START_TEST (test_event_thumbnails)
{
  GstBus *bus;
  GstHarness *h = content_harness (&bus, "detect=0 metric=laplacian "
      "threshold=50 min-blurry-duration=80000000 event-thumbnails=32");
  GRand *rand = g_rand_new_with_seed (4);
  GstMessage *m;
  guint thumbs = 0, i = 0;
  gboolean summary_seen = FALSE;

  for (; i < 3; i++)
    g_free (push_state (h, i, NOISE, rand));
  for (; i < 10; i++)
    g_free (push_state (h, i, FLAT, rand));
  for (; i < 15; i++)
    g_free (push_state (h, i, NOISE, rand));
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));

  while ((m = gst_bus_pop_filtered (bus, GST_MESSAGE_ELEMENT))) {
    const GstStructure *s = gst_message_get_structure (m);
    const gchar *n = gst_structure_get_name (s);

    if (g_str_has_prefix (n, "sharpness-blurry-")) {
      const GValue *v = gst_structure_get_value (s, "thumbnail");
      GstSample *sample;
      GstMapInfo map;
      gint width = 0;
      SharpnessEventReading r;

      fail_if (summary_seen, "%s after the summary", n);
      fail_unless (v && GST_VALUE_HOLDS_SAMPLE (v), "%s: no thumbnail", n);
      sample = gst_value_get_sample (v);
      fail_unless (sharpness_event_message_parse (m, &r), "%s: not read", n);
      fail_unless_equals_int (r.kind, SHARPNESS_EVENT_BLUR);
      fail_unless (r.thumbnail == sample);
      check_reading (s, &r);
      fail_unless (gst_structure_has_name (gst_caps_get_structure
              (gst_sample_get_caps (sample), 0), "image/jpeg"));
      gst_structure_get_int (gst_caps_get_structure (gst_sample_get_caps
              (sample), 0), "width", &width);
      fail_unless_equals_int (width, 32);
      gst_buffer_map (gst_sample_get_buffer (sample), &map, GST_MAP_READ);
      /* A JPEG's start-of-image marker. */
      fail_unless (map.size > 2 && map.data[0] == 0xff && map.data[1] == 0xd8);
      gst_buffer_unmap (gst_sample_get_buffer (sample), &map);
      thumbs++;
    }
    if (g_str_equal (n, "sharpness-summary")) {
      SharpnessEventReading r;
      /* Not an event message: refused. */
      fail_if (sharpness_event_message_parse (m, &r));
      summary_seen = TRUE;
    }
    gst_message_unref (m);
  }
  fail_unless_equals_int (thumbs, 2);
  fail_unless (summary_seen);
  g_rand_free (rand);
  harness_free (h, bus);
}

GST_END_TEST;

/* The focus gate (focus-threshold; analysis/sharpness-focus.h): blurred
 * stripes read over blur-effect's absolute level with a low CPBD, blurry;
 * a sharp checkered patch in one tile keeps both tests flagging (its
 * edges are few against the stripes' wide ones) but is a sharp textured
 * tile: with the gate the frame is in focus.  Without the patch nothing
 * is sharp, and the gate keeps it blurry. */
#define FOCUS_W 320
#define FOCUS_H 192

static GstBuffer *
focus_frame (gboolean patch)
{
  /* Stripes of 40 and 215, 24 wide, shifted every 40 rows, blurred by a
   * Gaussian of sigma 2.5 (radius 8, borders mirrored). */
  static gdouble k[17];
  gdouble *a = g_new (gdouble, FOCUS_W * FOCUS_H);
  gdouble *b = g_new (gdouble, FOCUS_W * FOCUS_H);
  GstBuffer *buf = gst_buffer_new_allocate (NULL, FOCUS_W * FOCUS_H, NULL);
  GstMapInfo map;
  gdouble norm = 0.0;

  for (gint i = -8; i <= 8; i++)
    norm += k[i + 8] = exp (-i * i / (2 * 2.5 * 2.5));
  for (gint i = 0; i < 17; i++)
    k[i] /= norm;
  for (gint y = 0; y < FOCUS_H; y++)
    for (gint x = 0; x < FOCUS_W; x++)
      a[y * FOCUS_W + x] = (x / 24 + y / 40) % 2 ? 215 : 40;
  for (gint pass = 0; pass < 2; pass++) {
    for (gint y = 0; y < FOCUS_H; y++)
      for (gint x = 0; x < FOCUS_W; x++) {
        gdouble v = 0.0;

        for (gint i = -8; i <= 8; i++) {
          gint xx = pass ? x : ABS (x + i), yy = pass ? ABS (y + i) : y;

          xx = xx >= FOCUS_W ? 2 * FOCUS_W - 1 - xx : xx;
          yy = yy >= FOCUS_H ? 2 * FOCUS_H - 1 - yy : yy;
          v += k[i + 8] * a[yy * FOCUS_W + xx];
        }
        b[y * FOCUS_W + x] = v;
      }
    memcpy (a, b, sizeof (gdouble) * FOCUS_W * FOCUS_H);
  }
  gst_buffer_map (buf, &map, GST_MAP_WRITE);
  for (gint y = 0; y < FOCUS_H; y++)
    for (gint x = 0; x < FOCUS_W; x++) {
      gboolean in = patch && x >= 130 && x < 202 && y >= 60 && y < 132;

      map.data[y * FOCUS_W + x] = in ? (((x - 130) / 6 + (y - 60) / 6) % 2 ?
          225 : 30) : (guint8) lround (a[y * FOCUS_W + x]);
    }
  gst_buffer_unmap (buf, &map);
  g_free (a);
  g_free (b);
  return buf;
}

/* The meta's @field of the frame @patch gives with @props; the content
 * state in *@state (owned by the caller), -1 for an absent field. */
static gdouble
focus_push (const gchar * props, gboolean patch, const gchar * field,
    gchar ** state)
{
  GstBus *bus;
  GstHarness *h = harness_new (&bus, props);
  GstBuffer *out;
  GstStructure *s;
  gdouble v = -1.0;

  gst_harness_set_src_caps_str (h, "video/x-raw,format=GRAY8,width=320,"
      "height=192,framerate=25/1");
  out = gst_harness_push_and_pull (h, focus_frame (patch));
  s = harness_meta_structure (out);
  *state = g_strdup (gst_structure_get_string (s, "content-state"));
  if (!gst_structure_get_double (s, field, &v))
    v = -1.0;
  gst_buffer_unref (out);
  harness_free (h, bus);
  return v;
}

GST_START_TEST (test_focus_gate)
{
  const gchar *rule = "metric=blur-effect threshold=0.52 cpbd-threshold=0.3";
  gchar *with_gate = g_strdup_printf ("%s focus-threshold=0.4", rule);
  gchar *state;
  gdouble v;

  /* Without the gate the patch does not save the frame: its score and
   * its CPBD both flag it. */
  v = focus_push (rule, TRUE, "score", &state);
  fail_unless (v > 0.52, "score %g", v);
  fail_unless_equals_string (state, "blurry");
  g_free (state);
  v = focus_push (rule, TRUE, "cpbd", &state);
  fail_unless (v >= 0.0 && v < 0.3, "cpbd %g", v);
  g_free (state);
  fail_unless (focus_push (rule, TRUE, "focus", &state) < 0.0,
      "focus measured without the gate");
  g_free (state);

  /* With it: the patch's tile is sharp, the frame in focus. */
  v = focus_push (with_gate, TRUE, "focus", &state);
  fail_unless (v >= 0.0 && v < 0.4, "focus %g", v);
  fail_unless_equals_string (state, "normal");
  g_free (state);

  /* No patch: nothing sharp, blurry with the gate too. */
  v = focus_push (with_gate, FALSE, "focus", &state);
  fail_unless (v >= 0.4, "focus %g", v);
  fail_unless_equals_string (state, "blurry");
  g_free (state);
  g_free (with_gate);
}

GST_END_TEST;

static Suite *
content_suite (void)
{
  Suite *s = suite_create ("cudasharpness-content");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_flat_is_not_blurry);
  tcase_add_test (tc, test_flat_detection_off);
  tcase_add_test (tc, test_black_stretch);
  tcase_add_test (tc, test_frozen_picture);
  tcase_add_test (tc, test_event_thumbnails);
  tcase_add_test (tc, test_focus_gate);
  return s;
}

GST_CHECK_MAIN (content);
