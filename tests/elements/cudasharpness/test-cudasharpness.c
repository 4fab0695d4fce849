/* cudasharpness through GstHarness: pixels untouched, meta, messages,
 * thresholds, negotiation, backend selection.  Runs without a GPU.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Expected scores come from the definitions in docs/reference/metrics.md, worked out
 * by hand for simple patterns: columns alternating 0 and 255 ("stripes")
 * have a Laplacian of 510 at every interior pixel and a variance of
 * 255^2/4 when the width is even; a uniform frame scores 0.
 */
#include <math.h>
#include <string.h>

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "sharpness-metric.h"

#include "sharpness-harness.h"
#include "test-video.h"

#define FRAME_DURATION (40 * GST_MSECOND)

/* --- helpers ----------------------------------------------------------- */

/* Every message on @bus, oldest first. */
static GPtrArray *
drain (GstBus * bus)
{
  GPtrArray *msgs = g_ptr_array_new_with_free_func (
      (GDestroyNotify) gst_message_unref);
  GstMessage *m;

  while ((m = gst_bus_pop (bus)))
    g_ptr_array_add (msgs, m);
  return msgs;
}

/* The element messages called @name among @msgs, as structures. */
static GPtrArray *
structures_named (GPtrArray * msgs, const gchar * name)
{
  GPtrArray *out = g_ptr_array_new ();

  for (guint i = 0; i < msgs->len; i++) {
    GstMessage *m = g_ptr_array_index (msgs, i);
    const GstStructure *s = gst_message_get_structure (m);
    if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_ELEMENT &&
        gst_structure_has_name (s, name))
      g_ptr_array_add (out, (gpointer) s);
  }
  return out;
}

static guint
count_type (GPtrArray * msgs, GstMessageType type)
{
  guint n = 0;

  for (guint i = 0; i < msgs->len; i++)
    n += GST_MESSAGE_TYPE ((GstMessage *) g_ptr_array_index (msgs, i)) == type;
  return n;
}

/* Text of the first warning (or error) in @msgs, or NULL. */
static gchar *
first_text (GPtrArray * msgs, GstMessageType type)
{
  for (guint i = 0; i < msgs->len; i++) {
    GstMessage *m = g_ptr_array_index (msgs, i);
    GError *err = NULL;
    gchar *text;

    if (GST_MESSAGE_TYPE (m) != type)
      continue;
    if (type == GST_MESSAGE_WARNING)
      gst_message_parse_warning (m, &err, NULL);
    else
      gst_message_parse_error (m, &err, NULL);
    text = g_strdup (err->message);
    g_error_free (err);
    return text;
  }
  return NULL;
}

typedef guint8 (*PixelFunc) (gint x, gint y);

static guint8
stripes (gint x, gint y)
{
  return x % 2 ? 255 : 0;
}

static guint8
uniform (gint x, gint y)
{
  return 128;
}

/* A GRAY8 (bpp 1), RGB (3) or RGBA (4) frame of gray values @pixel, rows
 * @stride bytes apart, padding and alpha filled from @rand; with a
 * GstVideoMeta when @stride is not the default one. */
static GstBuffer *
gray_frame (GstVideoFormat format, gint w, gint h, gint stride,
    PixelFunc pixel, TestRng * rand, guint64 index)
{
  GstVideoInfo info;
  gint bpp = format == GST_VIDEO_FORMAT_GRAY8 ? 1 :
      format == GST_VIDEO_FORMAT_RGB ? 3 : 4;
  GstBuffer *buf;
  GstMapInfo map;

  gst_video_info_set_format (&info, format, w, h);
  if (stride <= 0)
    stride = GST_VIDEO_INFO_PLANE_STRIDE (&info, 0);
  buf = gst_buffer_new_allocate (NULL, (gsize) stride * h, NULL);
  gst_buffer_map (buf, &map, GST_MAP_WRITE);
  for (gsize i = 0; i < map.size; i++)
    map.data[i] = (guint8) test_rng_u32 (rand);
  for (gint y = 0; y < h; y++)
    for (gint x = 0; x < w; x++)
      memset (map.data + (gsize) y * stride + x * bpp, pixel (x, y), MIN (bpp,
              3));
  gst_buffer_unmap (buf, &map);

  if (stride != GST_VIDEO_INFO_PLANE_STRIDE (&info, 0)) {
    gsize offset[GST_VIDEO_MAX_PLANES] = { 0 };
    gint strides[GST_VIDEO_MAX_PLANES] = { stride };
    gst_buffer_add_video_meta_full (buf, GST_VIDEO_FRAME_FLAG_NONE, format, w,
        h, 1, offset, strides);
  }
  GST_BUFFER_PTS (buf) = index * FRAME_DURATION;
  GST_BUFFER_DURATION (buf) = FRAME_DURATION;
  return buf;
}

/* A frame of random bytes laid out as @info describes, frame @index of the
 * stream. */
static GstBuffer *
random_frame (const GstVideoInfo * info, TestRng * rng, guint64 index)
{
  GstBuffer *buf = test_video_random_frame (info, rng);

  GST_BUFFER_PTS (buf) = index * FRAME_DURATION;
  GST_BUFFER_DURATION (buf) = FRAME_DURATION;
  return buf;
}

static gdouble
meta_score (GstBuffer * buf)
{
  gdouble score = NAN;

  fail_unless (gst_structure_get_double (harness_meta_structure (buf), "score",
          &score));
  return score;
}

static gboolean
meta_blurry (GstBuffer * buf)
{
  gboolean blurry = FALSE;

  fail_unless (gst_structure_get_boolean (harness_meta_structure (buf),
          "blurry", &blurry));
  return blurry;
}

/* Pushes @buf (the harness takes it) and returns the output buffer,
 * checking that the bytes did not change. */
static GstBuffer *
push_unchanged (GstHarness * h, GstBuffer * buf)
{
  GstBuffer *expected = gst_buffer_copy_deep (buf);
  GstBuffer *out = gst_harness_push_and_pull (h, buf);
  GstMapInfo a, b;

  fail_unless (out != NULL);
  gst_buffer_map (expected, &a, GST_MAP_READ);
  gst_buffer_map (out, &b, GST_MAP_READ);
  fail_unless_equals_uint64 (a.size, b.size);
  fail_unless (memcmp (a.data, b.data, a.size) == 0, "pixels were modified");
  gst_buffer_unmap (out, &b);
  gst_buffer_unmap (expected, &a);
  gst_buffer_unref (expected);
  return out;
}

static gdouble
push_score (GstHarness * h, GstBuffer * buf)
{
  GstBuffer *out = push_unchanged (h, buf);
  gdouble score = meta_score (out);

  gst_buffer_unref (out);
  return score;
}

static gboolean
push_blurry (GstHarness * h, GstBuffer * buf)
{
  GstBuffer *out = push_unchanged (h, buf);
  gboolean blurry = meta_blurry (out);

  gst_buffer_unref (out);
  return blurry;
}

/* Laplacian of stripes: 510 per interior pixel, over W x H. */
static gdouble
stripes_laplacian (gint w, gint h)
{
  if (w < 3 || h < 3)
    return 0.0;
  return 510.0 * (w - 2) * (h - 2) / ((gdouble) w * h);
}

#define assert_close(a, b) \
  fail_unless (fabs ((a) - (b)) <= 1e-9 * MAX (1.0, fabs (b)), \
      "%.17g != %.17g", (gdouble) (a), (gdouble) (b))

/* The formats the element's sink template lists for system memory. */
static GArray *
system_formats (void)
{
  GstElement *e = gst_element_factory_make ("cudasharpness", NULL);
  GstPad *sink = gst_element_get_static_pad (e, "sink");
  GstCaps *caps = gst_pad_get_pad_template_caps (sink);
  const GValue *list = NULL;

  for (guint i = 0; i < gst_caps_get_size (caps) && !list; i++)
    if (gst_caps_features_is_equal (gst_caps_get_features (caps, i),
            GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY))
      list = gst_structure_get_value (gst_caps_get_structure (caps, i),
          "format");
  fail_unless (list != NULL);
  GArray *formats = g_array_new (FALSE, FALSE, sizeof (GstVideoFormat));

  for (guint i = 0; i < gst_value_list_get_size (list); i++) {
    GstVideoFormat f = gst_video_format_from_string (g_value_get_string
        (gst_value_list_get_value (list, i)));
    fail_if (f == GST_VIDEO_FORMAT_UNKNOWN);
    g_array_append_val (formats, f);
  }
  gst_caps_unref (caps);
  gst_object_unref (sink);
  gst_object_unref (e);
  return formats;
}

/* --- tests ------------------------------------------------------------- */

/* Every format x every metric: the bytes come out as they went in, with
 * the default layout and with padded strides and offsets described by a
 * GstVideoMeta; the padded copy of a frame scores like the original. */
GST_START_TEST (test_passthrough_every_format_and_metric)
{
  GArray *formats = system_formats ();
  TestRng rng = TEST_RNG_INIT (42), *rand = &rng;
  const gint w = 33, height = 17;

  for (guint f = 0; f < formats->len; f++) {
    GstVideoFormat format = g_array_index (formats, GstVideoFormat, f);
    GstVideoInfo info, padded;
    GstVideoAlignment align;
    GstBus *bus;
    GstHarness *h = harness_new (&bus, NULL);

    gst_video_info_set_format (&info, format, w, height);
    padded = info;
    gst_video_alignment_reset (&align);
    align.padding_top = 2;
    align.padding_left = 4;
    align.padding_right = 7;
    align.padding_bottom = 3;
    fail_unless (gst_video_info_align (&padded, &align));
    test_video_set_caps (h, format, w, height);

    for (gint m = 0; m < SHARPNESS_METRIC_COUNT; m++) {
      GstBuffer *plain = random_frame (&info, rand, 2 * m);
      GstBuffer *pad = random_frame (&padded, rand, 2 * m + 1);
      GstVideoFrame src, dst;
      GstBuffer *out;
      gdouble s1, s2;
      const gchar *nick;

      gst_buffer_add_video_meta_full (pad, GST_VIDEO_FRAME_FLAG_NONE, format,
          w, height, GST_VIDEO_INFO_N_PLANES (&padded), padded.offset,
          padded.stride);
      fail_unless (gst_video_frame_map (&src, &info, plain, GST_MAP_READ));
      fail_unless (gst_video_frame_map (&dst, &padded, pad, GST_MAP_WRITE));
      fail_unless (gst_video_frame_copy (&dst, &src));
      gst_video_frame_unmap (&dst);
      gst_video_frame_unmap (&src);

      g_object_set (h->element, "metric", m, NULL);
      nick = sharpness_metric_info[m].nick;
      out = push_unchanged (h, plain);
      fail_unless (gst_buffer_get_custom_meta (out, "GstSharpnessMeta") !=
          NULL, "%s %s: no meta", gst_video_format_to_string (format), nick);
      fail_unless_equals_string (gst_structure_get_string
          (harness_meta_structure (out), "metric"), nick);
      s1 = meta_score (out);
      gst_buffer_unref (out);

      out = push_unchanged (h, pad);
      s2 = meta_score (out);
      gst_buffer_unref (out);

      fail_unless (isfinite (s1), "%s %s: score %g",
          gst_video_format_to_string (format), nick, s1);
      fail_unless (s1 == s2, "%s %s: %.17g with default strides, %.17g "
          "padded", gst_video_format_to_string (format), nick, s1, s2);
    }
    {
      GPtrArray *msgs = drain (bus);
      fail_unless_equals_int (count_type (msgs, GST_MESSAGE_WARNING), 0);
      g_ptr_array_unref (msgs);
    }
    harness_free (h, bus);
  }
  g_array_unref (formats);
}

GST_END_TEST;

GST_START_TEST (test_meta_fields)
{
  GstBus *bus;
  GstHarness *h = harness_new (&bus, "threshold=300");
  TestRng rng = TEST_RNG_INIT (1), *rand = &rng;
  GstBuffer *out;
  GstStructure *s;
  guint n = 0;
  gpointer state = NULL;
  GstMeta *meta;

  test_video_set_caps (h, GST_VIDEO_FORMAT_GRAY8, 8, 8);
  out = push_unchanged (h, gray_frame (GST_VIDEO_FORMAT_GRAY8, 8, 8, 0,
          stripes, rand, 0));

  while ((meta = gst_buffer_iterate_meta (out, &state)))
    n += gst_meta_info_is_custom (meta->info) &&
        gst_custom_meta_has_name ((GstCustomMeta *) meta, "GstSharpnessMeta");
  fail_unless_equals_int (n, 1);

  s = harness_meta_structure (out);
  fail_unless (gst_structure_has_name (s, "GstSharpnessMeta"));
  fail_unless_equals_int (gst_structure_n_fields (s), 7);
  fail_unless (gst_structure_has_field_typed (s, "metric", G_TYPE_STRING));
  fail_unless (gst_structure_has_field_typed (s, "score", G_TYPE_DOUBLE));
  fail_unless (gst_structure_has_field_typed (s, "blurry", G_TYPE_BOOLEAN));
  /* The content state and its measurements (default detect flags). */
  fail_unless (gst_structure_has_field_typed (s, "content-state",
          G_TYPE_STRING));
  fail_unless (gst_structure_has_field_typed (s, "black-ratio",
          G_TYPE_DOUBLE));
  fail_unless (gst_structure_has_field_typed (s, "freeze-mafd",
          G_TYPE_DOUBLE));
  fail_unless (gst_structure_has_field_typed (s, "structure", G_TYPE_DOUBLE));
  fail_unless_equals_string (gst_structure_get_string (s, "metric"),
      "laplacian");
  /* 36 interior pixels x 510 / 64 = 286.875, below the threshold 300. */
  assert_close (meta_score (out), 286.875);
  fail_unless (meta_blurry (out));

  /* The meta survives a copy of the buffer. */
  {
    GstBuffer *copy = gst_buffer_copy (out);
    assert_close (meta_score (copy), 286.875);
    gst_buffer_unref (copy);
  }
  gst_buffer_unref (out);
  harness_free (h, bus);
}

GST_END_TEST;

static void
check_message_types (const GstStructure * s)
{
  static const struct
  {
    const gchar *name;
    GType type;
  } fields[] = {
    {"timestamp", G_TYPE_UINT64}, {"stream-time", G_TYPE_UINT64},
    {"running-time", G_TYPE_UINT64}, {"duration", G_TYPE_UINT64},
    {"frame", G_TYPE_UINT64}, {"metric", G_TYPE_STRING},
    {"score", G_TYPE_DOUBLE}, {"blurry", G_TYPE_BOOLEAN},
  };

  for (guint i = 0; i < G_N_ELEMENTS (fields); i++)
    fail_unless (gst_structure_has_field_typed (s, fields[i].name,
            fields[i].type), "field %s missing or mistyped", fields[i].name);
}

static gboolean
get_boolean (const GstStructure * s, const gchar * field)
{
  gboolean v = FALSE;
  harness_get (s, field, G_TYPE_BOOLEAN, &v);
  return v;
}

static guint
get_uint (const GstStructure * s, const gchar * field)
{
  guint v = 0;
  harness_get (s, field, G_TYPE_UINT, &v);
  return v;
}

GST_START_TEST (test_message_fields)
{
  GstBus *bus;
  /* The rule alone: a uniform frame would be flat. */
  GstHarness *h = harness_new (&bus, "detect=0 threshold=1");
  TestRng rng = TEST_RNG_INIT (2), *rand = &rng;
  PixelFunc pattern[] = { stripes, uniform, stripes };
  gdouble expected[] = { 286.875, 0.0, 286.875 };
  GPtrArray *msgs, *frames;
  GstSegment segment;

  test_video_set_caps (h, GST_VIDEO_FORMAT_GRAY8, 8, 8);
  /* Stream time and running time must come from the segment. */
  gst_segment_init (&segment, GST_FORMAT_TIME);
  segment.start = 40 * GST_MSECOND;
  segment.time = 10 * GST_SECOND;
  segment.base = 5 * GST_SECOND;
  fail_unless (gst_harness_push_event (h, gst_event_new_segment (&segment)));

  for (guint i = 0; i < 3; i++)
    gst_buffer_unref (push_unchanged (h, gray_frame (GST_VIDEO_FORMAT_GRAY8,
                8, 8, 0, pattern[i], rand, i + 1)));

  msgs = drain (bus);
  frames = structures_named (msgs, "sharpness");
  fail_unless_equals_int (frames->len, 3);
  for (guint i = 0; i < 3; i++) {
    const GstStructure *s = g_ptr_array_index (frames, i);
    GstClockTime pts = (i + 1) * FRAME_DURATION;

    check_message_types (s);
    /* With detect=0: the state, no measurements. */
    fail_unless_equals_int (gst_structure_n_fields (s), 10);
    fail_unless (gst_structure_has_field_typed (s, "content-state",
            G_TYPE_STRING));
    fail_unless (gst_structure_has_field_typed (s, "unscored",
            G_TYPE_UINT64));
    fail_unless_equals_uint64 (harness_get_uint64 (s, "unscored"), 0);
    fail_unless_equals_uint64 (harness_get_uint64 (s, "timestamp"), pts);
    fail_unless_equals_uint64 (harness_get_uint64 (s, "stream-time"),
        pts - segment.start + segment.time);
    fail_unless_equals_uint64 (harness_get_uint64 (s, "running-time"),
        pts - segment.start + segment.base);
    fail_unless_equals_uint64 (harness_get_uint64 (s, "duration"),
        FRAME_DURATION);
    fail_unless_equals_uint64 (harness_get_uint64 (s, "frame"), i);
    fail_unless_equals_string (gst_structure_get_string (s, "metric"),
        "laplacian");
    assert_close (harness_get_double (s, "score"), expected[i]);
    fail_unless_equals_int (get_boolean (s, "blurry"), expected[i] < 1.0);
  }
  g_ptr_array_unref (frames);
  g_ptr_array_unref (msgs);
  harness_free (h, bus);
}

GST_END_TEST;

static void
check_summary_matches (GPtrArray * frames, const GstStructure * sum,
    const gchar * metric)
{
  gdouble total = 0, min = INFINITY, max = -INFINITY;
  guint64 blurry = 0;

  for (guint i = 0; i < frames->len; i++) {
    const GstStructure *s = g_ptr_array_index (frames, i);
    gdouble v = harness_get_double (s, "score");
    total += v;
    min = MIN (min, v);
    max = MAX (max, v);
    blurry += get_boolean (s, "blurry");
  }
  /* 7, and the frames by content state and the segments of each kind. */
  fail_unless_equals_int (gst_structure_n_fields (sum), 13);
  fail_unless (gst_structure_has_field_typed (sum, "flat-frames",
          G_TYPE_UINT64));
  fail_unless (gst_structure_has_field_typed (sum, "freeze-segments",
          G_TYPE_UINT64));
  fail_unless (gst_structure_has_field_typed (sum, "unscored", G_TYPE_UINT64));
  fail_unless (gst_structure_has_field_typed (sum, "frames", G_TYPE_UINT64));
  fail_unless (gst_structure_has_field_typed (sum, "blurry-frames",
          G_TYPE_UINT64));
  fail_unless_equals_string (gst_structure_get_string (sum, "metric"), metric);
  fail_unless_equals_uint64 (harness_get_uint64 (sum, "frames"), frames->len);
  fail_unless_equals_uint64 (harness_get_uint64 (sum, "blurry-frames"), blurry);
  assert_close (harness_get_double (sum, "mean"), total / frames->len);
  assert_close (harness_get_double (sum, "min"), min);
  assert_close (harness_get_double (sum, "max"), max);
}

GST_START_TEST (test_summary_at_eos)
{
  GstBus *bus;
  /* The rule alone: uniform frames would be flat. */
  GstHarness *h = harness_new (&bus, "detect=0 threshold=100");
  TestRng rng = TEST_RNG_INIT (3), *rand = &rng;
  PixelFunc pattern[] = { stripes, uniform, stripes, uniform, uniform };
  GPtrArray *msgs, *frames, *sums;
  const GstStructure *sum;
  GstEvent *ev;

  test_video_set_caps (h, GST_VIDEO_FORMAT_GRAY8, 10, 6);
  for (guint i = 0; i < G_N_ELEMENTS (pattern); i++)
    gst_buffer_unref (push_unchanged (h, gray_frame (GST_VIDEO_FORMAT_GRAY8,
                10, 6, 0, pattern[i], rand, i)));
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));

  msgs = drain (bus);
  frames = structures_named (msgs, "sharpness");
  sums = structures_named (msgs, "sharpness-summary");
  fail_unless_equals_int (frames->len, 5);
  fail_unless_equals_int (sums->len, 1);
  sum = g_ptr_array_index (sums, 0);
  check_summary_matches (frames, sum, "laplacian");
  /* By hand: 2 stripes frames (510 x 8 x 4 / 60 = 272) and 3 uniform. */
  assert_close (harness_get_double (sum, "mean"), 2 * 272.0 / 5);
  assert_close (harness_get_double (sum, "max"), 272.0);
  assert_close (harness_get_double (sum, "min"), 0.0);
  fail_unless_equals_uint64 (harness_get_uint64 (sum, "blurry-frames"), 3);

  /* The summary is posted before EOS goes downstream. */
  ev = gst_harness_try_pull_event (h);
  while (ev && GST_EVENT_TYPE (ev) != GST_EVENT_EOS) {
    gst_event_unref (ev);
    ev = gst_harness_try_pull_event (h);
  }
  fail_unless (ev != NULL, "EOS was not forwarded");
  gst_event_unref (ev);

  g_ptr_array_unref (sums);
  g_ptr_array_unref (frames);
  g_ptr_array_unref (msgs);
  harness_free (h, bus);
}

GST_END_TEST;

/* 10 frames of 40 ms with interval=100 ms: the interval closes on frames
 * 2, 5 and 8 (120 ms each), so 3 messages of 3 frames each. */
GST_START_TEST (test_interval)
{
  GstBus *bus;
  GstHarness *h = harness_new (&bus, "interval=100000000 threshold=100");
  TestRng rng = TEST_RNG_INIT (4), *rand = &rng;
  gdouble scores[10];
  gboolean blurry[10];
  GPtrArray *msgs, *frames;
  GstVideoInfo info;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, 16, 12);
  test_video_set_caps (h, GST_VIDEO_FORMAT_GRAY8, 16, 12);
  for (guint i = 0; i < 10; i++) {
    /* Noise, uniform and stripes: scores that differ frame to frame. */
    GstBuffer *in = i % 3 == 0 ? random_frame (&info, rand, i) :
        gray_frame (GST_VIDEO_FORMAT_GRAY8, 16, 12, 0,
        i % 3 == 1 ? uniform : stripes, rand, i);
    GstBuffer *out = push_unchanged (h, in);

    scores[i] = meta_score (out);
    blurry[i] = meta_blurry (out);
    gst_buffer_unref (out);
  }

  msgs = drain (bus);
  frames = structures_named (msgs, "sharpness");
  fail_unless_equals_int (frames->len, 3);
  for (guint k = 0; k < 3; k++) {
    const GstStructure *s = g_ptr_array_index (frames, k);
    guint last = 3 * k + 2;
    gdouble total = 0, min = INFINITY, max = -INFINITY;
    guint nblurry = 0;

    for (guint i = 3 * k; i <= last; i++) {
      total += scores[i];
      min = MIN (min, scores[i]);
      max = MAX (max, scores[i]);
      nblurry += blurry[i];
    }
    check_message_types (s);
    /* The frame's 13 fields, and the interval's 5. */
    fail_unless_equals_int (gst_structure_n_fields (s), 18);
    fail_unless_equals_uint64 (harness_get_uint64 (s, "frame"), last);
    fail_unless_equals_uint64 (harness_get_uint64 (s, "timestamp"),
        last * FRAME_DURATION);
    assert_close (harness_get_double (s, "score"), scores[last]);
    fail_unless_equals_int (get_uint (s, "frames"), 3);
    fail_unless_equals_int (get_uint (s, "blurry-frames"), nblurry);
    assert_close (harness_get_double (s, "mean"), total / 3);
    assert_close (harness_get_double (s, "min"), min);
    assert_close (harness_get_double (s, "max"), max);
  }
  g_ptr_array_unref (frames);
  g_ptr_array_unref (msgs);
  harness_free (h, bus);
}

GST_END_TEST;

GST_START_TEST (test_post_messages_false)
{
  GstBus *bus;
  GstHarness *h = harness_new (&bus, "post-messages=false");
  TestRng rng = TEST_RNG_INIT (5), *rand = &rng;
  GPtrArray *msgs;

  test_video_set_caps (h, GST_VIDEO_FORMAT_GRAY8, 8, 8);
  for (guint i = 0; i < 4; i++)
    assert_close (push_score (h, gray_frame (GST_VIDEO_FORMAT_GRAY8, 8, 8, 0,
                stripes, rand, i)), 286.875);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));

  msgs = drain (bus);
  fail_unless_equals_int (count_type (msgs, GST_MESSAGE_ELEMENT), 0);

  /* Turned back on while playing, messages resume. */
  g_object_set (h->element, "post-messages", TRUE, NULL);
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  test_video_set_caps (h, GST_VIDEO_FORMAT_GRAY8, 8, 8);
  gst_buffer_unref (push_unchanged (h, gray_frame (GST_VIDEO_FORMAT_GRAY8, 8,
              8, 0, stripes, rand, 0)));
  g_ptr_array_unref (msgs);
  msgs = drain (bus);
  fail_unless_equals_int (count_type (msgs, GST_MESSAGE_ELEMENT), 1);

  g_ptr_array_unref (msgs);
  harness_free (h, bus);
}

GST_END_TEST;

/* Higher-is-sharper: below the threshold is blurry. */
GST_START_TEST (test_threshold_higher_is_sharper)
{
  GstBus *bus;
  /* The rule alone: a uniform frame would be flat. */
  GstHarness *h = harness_new (&bus, "detect=0 metric=laplacian threshold=1");
  TestRng rng = TEST_RNG_INIT (6), *rand = &rng;
  GstBuffer *out;

  test_video_set_caps (h, GST_VIDEO_FORMAT_GRAY8, 8, 8);
  out = push_unchanged (h, gray_frame (GST_VIDEO_FORMAT_GRAY8, 8, 8, 0,
          uniform, rand, 0));
  assert_close (meta_score (out), 0.0);
  fail_unless (meta_blurry (out));
  gst_buffer_unref (out);

  out = push_unchanged (h, gray_frame (GST_VIDEO_FORMAT_GRAY8, 8, 8, 0,
          stripes, rand, 1));
  fail_unless (!meta_blurry (out));
  gst_buffer_unref (out);

  /* Raised above the stripes' 286.875 while playing; then off. */
  g_object_set (h->element, "threshold", 300.0, NULL);
  out = push_unchanged (h, gray_frame (GST_VIDEO_FORMAT_GRAY8, 8, 8, 0,
          stripes, rand, 2));
  fail_unless (meta_blurry (out));
  gst_buffer_unref (out);
  g_object_set (h->element, "threshold", 0.0, NULL);
  out = push_unchanged (h, gray_frame (GST_VIDEO_FORMAT_GRAY8, 8, 8, 0,
          uniform, rand, 3));
  fail_unless (!meta_blurry (out));
  gst_buffer_unref (out);

  harness_free (h, bus);
}

GST_END_TEST;

/* Lower-is-sharper metrics (from the table): above the threshold is
 * blurry.  The threshold is placed around the frame's own score. */
GST_START_TEST (test_threshold_lower_is_sharper)
{
  TestRng rng = TEST_RNG_INIT (7), *rand = &rng;
  GstVideoInfo info;
  guint tested = 0;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, 64, 48);
  for (gint m = 0; m < SHARPNESS_METRIC_COUNT; m++) {
    GstBus *bus;
    GstHarness *h;
    GstBuffer *frame, *out;
    gdouble score;

    if (sharpness_metric_info[m].direction != SHARPNESS_LOWER_IS_SHARPER)
      continue;
    h = harness_new (&bus, NULL);
    g_object_set (h->element, "metric", m, NULL);
    test_video_set_caps (h, GST_VIDEO_FORMAT_GRAY8, 64, 48);
    frame = random_frame (&info, rand, 0);

    score = push_score (h, gst_buffer_copy_deep (frame));
    fail_unless (score > 0.0, "%s scored %g", sharpness_metric_info[m].nick,
        score);

    g_object_set (h->element, "threshold", score * 0.5, NULL);
    out = push_unchanged (h, gst_buffer_copy_deep (frame));
    fail_unless (meta_blurry (out), "%s: %g above %g is blurry",
        sharpness_metric_info[m].nick, score, score * 0.5);
    gst_buffer_unref (out);

    g_object_set (h->element, "threshold", score * 2.0, NULL);
    out = push_unchanged (h, frame);
    fail_unless (!meta_blurry (out));
    gst_buffer_unref (out);

    harness_free (h, bus);
    tested++;
  }
  fail_unless (tested > 0, "the table has no lower-is-sharper metric");
}

GST_END_TEST;

/* Sharp frames fill the window; the uniform one after them (score 0) is
 * the only one flagged.  Flush, caps and metric changes empty the
 * history, so the same frame right after them is not flagged. */
GST_START_TEST (test_relative_threshold)
{
  GstBus *bus;
  /* The rule alone: a uniform frame would be flat. */
  GstHarness *h = harness_new (&bus,
      "detect=0 relative-threshold=0.5 window=4");
  TestRng rng = TEST_RNG_INIT (8), *rand = &rng;
  GstVideoInfo info;
  gboolean expected[] = { FALSE, FALSE, FALSE, FALSE, FALSE, TRUE, FALSE };
  gboolean sharp[] = { FALSE, TRUE, TRUE, TRUE, TRUE, FALSE, TRUE };

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, 32, 24);
  test_video_set_caps (h, GST_VIDEO_FORMAT_GRAY8, 32, 24);
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++) {
    GstBuffer *in = sharp[i] ? random_frame (&info, rand, i) :
        gray_frame (GST_VIDEO_FORMAT_GRAY8, 32, 24, 0, uniform, rand, i);
    GstBuffer *out = push_unchanged (h, in);

    fail_unless_equals_int (meta_blurry (out), expected[i]);
    gst_buffer_unref (out);
  }

  /* Flush: the history is gone, the uniform frame is not judged. */
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_start ()));
  fail_unless (gst_harness_push_event (h, gst_event_new_flush_stop (TRUE)));
  test_video_set_caps (h, GST_VIDEO_FORMAT_GRAY8, 32, 24);
  fail_if (push_blurry (h, gray_frame (GST_VIDEO_FORMAT_GRAY8, 32, 24, 0,
              uniform, rand, 0)));

  /* Caps change, after a full window: same. */
  for (guint i = 0; i < 4; i++)
    fail_if (push_blurry (h, random_frame (&info, rand, i)));
  test_video_set_caps (h, GST_VIDEO_FORMAT_GRAY8, 32, 23);
  fail_if (push_blurry (h, gray_frame (GST_VIDEO_FORMAT_GRAY8, 32, 23, 0,
              uniform, rand, 5)));

  /* Metric change, after a full window: same. */
  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, 32, 23);
  for (guint i = 0; i < 4; i++)
    fail_if (push_blurry (h, random_frame (&info, rand, i)));
  gst_util_set_object_arg (G_OBJECT (h->element), "metric", "smd");
  fail_if (push_blurry (h, gray_frame (GST_VIDEO_FORMAT_GRAY8, 32, 23, 0,
              uniform, rand, 5)));

  /* Control: with the history intact the same frame is flagged. */
  for (guint i = 0; i < 4; i++)
    fail_if (push_blurry (h, random_frame (&info, rand, i)));
  fail_unless (push_blurry (h, gray_frame (GST_VIDEO_FORMAT_GRAY8, 32, 23, 0,
              uniform, rand, 5)));

  harness_free (h, bus);
}

GST_END_TEST;

GST_START_TEST (test_metric_switch_while_playing)
{
  GstBus *bus;
  GstHarness *h = harness_new (&bus, "metric=laplacian");
  TestRng rng = TEST_RNG_INIT (9), *rand = &rng;
  GPtrArray *msgs, *frames, *sums;
  const GstStructure *s;

  test_video_set_caps (h, GST_VIDEO_FORMAT_GRAY8, 8, 8);
  assert_close (push_score (h, gray_frame (GST_VIDEO_FORMAT_GRAY8, 8, 8, 0,
              stripes, rand, 0)), 286.875);
  gst_util_set_object_arg (G_OBJECT (h->element), "metric", "variance");
  /* Half the pixels 0, half 255: population variance 255^2 / 4. */
  assert_close (push_score (h, gray_frame (GST_VIDEO_FORMAT_GRAY8, 8, 8, 0,
              stripes, rand, 1)), 16256.25);
  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));

  msgs = drain (bus);
  frames = structures_named (msgs, "sharpness");
  sums = structures_named (msgs, "sharpness-summary");
  fail_unless_equals_int (frames->len, 2);
  s = g_ptr_array_index (frames, 0);
  fail_unless_equals_string (gst_structure_get_string (s, "metric"),
      "laplacian");
  s = g_ptr_array_index (frames, 1);
  fail_unless_equals_string (gst_structure_get_string (s, "metric"),
      "variance");
  assert_close (harness_get_double (s, "score"), 16256.25);
  /* The summary covers the frames of the metric in use at EOS. */
  fail_unless_equals_int (sums->len, 1);
  s = g_ptr_array_index (sums, 0);
  fail_unless_equals_string (gst_structure_get_string (s, "metric"),
      "variance");
  fail_unless_equals_uint64 (harness_get_uint64 (s, "frames"), 1);

  g_ptr_array_unref (sums);
  g_ptr_array_unref (frames);
  g_ptr_array_unref (msgs);
  harness_free (h, bus);
}

GST_END_TEST;

/* The caps are refused; the first buffer then gets NOT_NEGOTIATED and ONE
 * error (no warning) that names the format and the formats that would
 * do. */
static void
check_refused (const gchar * caps_str, const gchar * const *needles)
{
  GstBus *bus;
  GstHarness *h = harness_new (&bus, NULL);
  GPtrArray *msgs;
  GstSegment segment;
  GstCaps *caps;
  gchar *text;

  /* A refused sticky event may still report success: the refusal shows
   * on the first buffer. */
  caps = gst_caps_from_string (caps_str);
  fail_unless (caps != NULL);
  gst_harness_push_event (h, gst_event_new_caps (caps));
  gst_caps_unref (caps);
  gst_segment_init (&segment, GST_FORMAT_TIME);
  gst_harness_push_event (h, gst_event_new_segment (&segment));
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_new_allocate (NULL,
              64, NULL)), GST_FLOW_NOT_NEGOTIATED);
  fail_unless_equals_int (gst_harness_push (h, gst_buffer_new_allocate (NULL,
              64, NULL)), GST_FLOW_NOT_NEGOTIATED);
  msgs = drain (bus);
  fail_unless_equals_int (count_type (msgs, GST_MESSAGE_WARNING), 0);
  fail_unless_equals_int (count_type (msgs, GST_MESSAGE_ERROR), 1);
  text = first_text (msgs, GST_MESSAGE_ERROR);
  fail_unless (text != NULL, "no error for %s", caps_str);
  for (; *needles; needles++)
    fail_unless (strstr (text, *needles) != NULL, "'%s' does not mention %s",
        text, *needles);
  g_free (text);
  g_ptr_array_unref (msgs);
  harness_free (h, bus);
}

GST_START_TEST (test_refused_caps)
{
  const gchar *ayuv[] = { "AYUV", "supported formats", "GRAY8", "NV12",
    "YUY2", "ABGR", NULL
  };
  const gchar *made_up[] = { "NOT_A_FORMAT", "supported formats", NULL };
  const gchar *audio[] = { "audio/x-raw", "raw video", NULL };
  const gchar *gl[] = { "memory:GLMemory", "system memory", NULL };

  check_refused ("video/x-raw, format=AYUV, width=64, height=48, "
      "framerate=25/1", ayuv);
  check_refused ("video/x-raw, format=NOT_A_FORMAT, width=64, height=48, "
      "framerate=25/1", made_up);
  check_refused ("audio/x-raw, format=S16LE, rate=48000, channels=1, "
      "layout=interleaved", audio);
  check_refused ("video/x-raw(memory:GLMemory), format=RGBA, width=64, "
      "height=48, framerate=25/1", gl);
}

GST_END_TEST;

/* A capsfilter upstream asking for a format we lack fails in a caps query.
 * Caps queries are speculative (autopluggers ask them all the time): the
 * element logs the reason at debug level, posts no warning, and the
 * pipeline stops with the one not-negotiated error. */
GST_START_TEST (test_refused_caps_in_pipeline)
{
  GstElement *pipeline = gst_pipeline_new (NULL);
  GstElement *src = gst_element_factory_make ("videotestsrc", NULL);
  GstElement *filter = gst_element_factory_make ("capsfilter", NULL);
  GstElement *sharp = gst_element_factory_make ("cudasharpness", NULL);
  GstElement *sink = gst_element_factory_make ("fakesink", NULL);
  GstCaps *caps = gst_caps_from_string ("video/x-raw, format=AYUV");
  GstBus *bus = gst_element_get_bus (pipeline);
  GstMessage *msg;
  guint warnings = 0, errors = 0;

  fail_unless (src && filter && sharp && sink);
  g_object_set (src, "num-buffers", 1, NULL);
  g_object_set (filter, "caps", caps, NULL);
  gst_caps_unref (caps);
  gst_util_set_object_arg (G_OBJECT (sharp), "backend", "cpu");
  gst_bin_add_many (GST_BIN (pipeline), src, filter, sharp, sink, NULL);
  fail_unless (gst_element_link (src, filter));
  fail_unless (gst_element_link (sharp, sink));
  /* Linked without a caps check, or the link itself would fail. */
  fail_unless (gst_element_link_pads_full (filter, "src", sharp, "sink",
          GST_PAD_LINK_CHECK_NOTHING));

  gst_element_set_state (pipeline, GST_STATE_PLAYING);
  while ((msg = gst_bus_timed_pop_filtered (bus, 10 * GST_SECOND,
              GST_MESSAGE_WARNING | GST_MESSAGE_ERROR | GST_MESSAGE_EOS))) {
    GstMessageType type = GST_MESSAGE_TYPE (msg);

    warnings += type == GST_MESSAGE_WARNING;
    errors += type == GST_MESSAGE_ERROR;
    gst_message_unref (msg);
    if (type != GST_MESSAGE_WARNING)
      break;
  }
  fail_unless_equals_int (warnings, 0);
  fail_unless_equals_int (errors, 1);
  gst_element_set_state (pipeline, GST_STATE_NULL);
  gst_object_unref (bus);
  gst_object_unref (pipeline);
}

GST_END_TEST;

/* accept-caps and caps queries with caps the element cannot read are
 * answered "no" quietly: no warning, no error (before
 * the fix each posted a WARNING). */
GST_START_TEST (test_speculative_queries_are_quiet)
{
  GstBus *bus;
  GstHarness *h = harness_new (&bus, NULL);
  GstPad *sinkpad = gst_element_get_static_pad (h->element, "sink");
  TestRng rng = TEST_RNG_INIT (20), *rand = &rng;
  const gchar *refused[] = {
    "video/x-raw, format=AYUV, width=64, height=48, framerate=25/1",
    "audio/x-raw, format=S16LE, rate=48000, channels=1, layout=interleaved",
    "video/x-raw(memory:GLMemory), format=RGBA, width=64, height=48",
  };
  GPtrArray *msgs;

  for (guint i = 0; i < G_N_ELEMENTS (refused); i++) {
    GstCaps *caps = gst_caps_from_string (refused[i]);
    GstCaps *result;

    fail_if (gst_pad_query_accept_caps (sinkpad, caps), "%s", refused[i]);
    result = gst_pad_query_caps (sinkpad, caps);
    fail_unless (gst_caps_is_empty (result), "%s", refused[i]);
    gst_caps_unref (result);
    gst_caps_unref (caps);
  }

  msgs = drain (bus);
  fail_unless_equals_int (count_type (msgs, GST_MESSAGE_WARNING), 0);
  fail_unless_equals_int (count_type (msgs, GST_MESSAGE_ERROR), 0);
  g_ptr_array_unref (msgs);

  /* Then caps it can read: it works as usual. */
  test_video_set_caps (h, GST_VIDEO_FORMAT_GRAY8, 16, 16);
  gst_buffer_unref (push_unchanged (h, gray_frame (GST_VIDEO_FORMAT_GRAY8,
              16, 16, 0, stripes, rand, 0)));
  msgs = drain (bus);
  fail_unless_equals_int (count_type (msgs, GST_MESSAGE_WARNING), 0);
  fail_unless_equals_int (count_type (msgs, GST_MESSAGE_ERROR), 0);
  g_ptr_array_unref (msgs);
  gst_object_unref (sinkpad);
  harness_free (h, bus);
}

GST_END_TEST;

GST_START_TEST (test_renegotiation)
{
  GstBus *bus;
  GstHarness *h = harness_new (&bus, NULL);
  TestRng rng = TEST_RNG_INIT (10), *rand = &rng;
  GPtrArray *msgs;

  test_video_set_caps (h, GST_VIDEO_FORMAT_GRAY8, 64, 48);
  assert_close (push_score (h, gray_frame (GST_VIDEO_FORMAT_GRAY8, 64, 48, 0,
              stripes, rand, 0)), stripes_laplacian (64, 48));
  test_video_set_caps (h, GST_VIDEO_FORMAT_GRAY8, 33, 17);
  assert_close (push_score (h, gray_frame (GST_VIDEO_FORMAT_GRAY8, 33, 17, 0,
              stripes, rand, 1)), stripes_laplacian (33, 17));
  /* Gray RGBA pixels give the same gray image (BT.601 weights sum to 1). */
  test_video_set_caps (h, GST_VIDEO_FORMAT_RGBA, 33, 17);
  assert_close (push_score (h, gray_frame (GST_VIDEO_FORMAT_RGBA, 33, 17, 0,
              stripes, rand, 2)), stripes_laplacian (33, 17));
  test_video_set_caps (h, GST_VIDEO_FORMAT_RGB, 64, 48);
  assert_close (push_score (h, gray_frame (GST_VIDEO_FORMAT_RGB, 64, 48, 0,
              stripes, rand, 3)), stripes_laplacian (64, 48));

  msgs = drain (bus);
  fail_unless_equals_int (count_type (msgs, GST_MESSAGE_WARNING), 0);
  fail_unless_equals_int (count_type (msgs, GST_MESSAGE_ERROR), 0);
  g_ptr_array_unref (msgs);
  harness_free (h, bus);
}

GST_END_TEST;

/* Tiny frames, and rows padded with random bytes (described by a
 * GstVideoMeta): the padding must not count. */
GST_START_TEST (test_odd_sizes_and_strides)
{
  static const gint sizes[][2] = { {1, 1}, {2, 2}, {3, 3}, {17, 9}, {2, 5} };
  static const GstVideoFormat formats[] = { GST_VIDEO_FORMAT_GRAY8,
    GST_VIDEO_FORMAT_RGB, GST_VIDEO_FORMAT_RGBA
  };
  TestRng rng = TEST_RNG_INIT (11), *rand = &rng;

  for (guint f = 0; f < G_N_ELEMENTS (formats); f++) {
    for (guint i = 0; i < G_N_ELEMENTS (sizes); i++) {
      gint w = sizes[i][0], height = sizes[i][1];
      gint bpp = f == 0 ? 1 : f == 1 ? 3 : 4;
      GstBus *bus;
      GstHarness *h = harness_new (&bus, NULL);
      gdouble expected = stripes_laplacian (w, height);

      test_video_set_caps (h, formats[f], w, height);
      assert_close (push_score (h, gray_frame (formats[f], w, height, 0,
                  stripes, rand, 0)), expected);
      assert_close (push_score (h, gray_frame (formats[f], w, height,
                  w * bpp + 13, stripes, rand, 1)), expected);
      assert_close (push_score (h, gray_frame (formats[f], w, height,
                  w * bpp + 64, stripes, rand, 2)), expected);
      harness_free (h, bus);
    }
  }
}

GST_END_TEST;

/* Every metric on frames down to 1x1.  docs/reference/metrics.md: a frame smaller
 * than a metric's window scores 0; a backend may also declare a size
 * unsupported (BLIINDS-II below 4x4), and the element must then pass the
 * frame on untouched and unscored with one warning naming the metric. */
GST_START_TEST (test_tiny_frames_every_metric)
{
  static const gint sizes[][2] = { {1, 1}, {2, 2}, {3, 3}, {1, 17}, {17, 1},
  {17, 9}
  };
  TestRng rng = TEST_RNG_INIT (13), *rand = &rng;

  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++) {
    for (gint m = 0; m < SHARPNESS_METRIC_COUNT; m++) {
      const gchar *nick = sharpness_metric_info[m].nick;
      GstVideoInfo info;
      GstBus *bus;
      GstHarness *h = harness_new (&bus, NULL);
      GPtrArray *msgs, *frames;
      gboolean scored = TRUE;

      g_object_set (h->element, "metric", m, NULL);
      gst_video_info_set_format (&info, GST_VIDEO_FORMAT_I420, sizes[i][0],
          sizes[i][1]);
      test_video_set_caps (h, GST_VIDEO_FORMAT_I420, sizes[i][0], sizes[i][1]);
      for (guint n = 0; n < 3; n++) {
        GstBuffer *out = push_unchanged (h, random_frame (&info, rand, n));
        gboolean has = gst_buffer_get_custom_meta (out, "GstSharpnessMeta")
            != NULL;

        fail_unless (n == 0 || has == scored, "%s scored some frames only",
            nick);
        scored = has;
        if (has)
          fail_unless (isfinite (meta_score (out)));
        gst_buffer_unref (out);
      }

      msgs = drain (bus);
      if (scored) {
        fail_unless_equals_int (count_type (msgs, GST_MESSAGE_WARNING), 0);
      } else {
        gchar *text = first_text (msgs, GST_MESSAGE_WARNING);

        GST_INFO ("%dx%d unsupported by %s: %s", sizes[i][0], sizes[i][1],
            nick, text);
        fail_unless_equals_int (count_type (msgs, GST_MESSAGE_WARNING), 1);
        fail_unless (strstr (text, nick) != NULL, "%s", text);
        /* The reason is the metric's own status, not a generic one. */
        fail_if (strstr (text, "not supported by this backend") != NULL,
            "%s", text);
        g_free (text);
        frames = structures_named (msgs, "sharpness");
        fail_unless_equals_int (frames->len, 0);
        g_ptr_array_unref (frames);
      }
      g_ptr_array_unref (msgs);
      harness_free (h, bus);
    }
  }
}

GST_END_TEST;

/* The test runs where a GPU is expected to work: a CUDA build on a
 * machine with the NVIDIA driver's device nodes. */
static gboolean
gpu_expected (void)
{
  return SHARPNESS_TEST_HAVE_CUDA &&
      g_file_test ("/dev/nvidiactl", G_FILE_TEST_EXISTS);
}

GST_START_TEST (test_backend_auto_warns_once)
{
  GstBus *bus;
  GstHarness *h = harness_new (&bus, "backend=auto");
  TestRng rng = TEST_RNG_INIT (12), *rand = &rng;
  GPtrArray *msgs;

  test_video_set_caps (h, GST_VIDEO_FORMAT_GRAY8, 16, 16);
  for (guint i = 0; i < 5; i++)
    assert_close (push_score (h, gray_frame (GST_VIDEO_FORMAT_GRAY8, 16, 16,
                0, stripes, rand, i)), stripes_laplacian (16, 16));

  msgs = drain (bus);
  if (gpu_expected ()) {
    fail_unless_equals_int (count_type (msgs, GST_MESSAGE_WARNING), 0);
  } else {
    gchar *text = first_text (msgs, GST_MESSAGE_WARNING);

    fail_unless_equals_int (count_type (msgs, GST_MESSAGE_WARNING), 1);
    fail_unless (strstr (text, "CPU") && strstr (text, "CUDA"), "%s", text);
    g_free (text);
  }
  g_ptr_array_unref (msgs);
  harness_free (h, bus);
}

GST_END_TEST;

/* A fallback may never make a frame late: with
 * backend=auto and no usable GPU, LPC-SI at 1080p (seconds per frame on the
 * CPU) leaves frames unscored at full speed, with one warning and an
 * `unscored` count; before the fix each frame took seconds. */
GST_START_TEST (test_heavy_metric_auto_never_blocks)
{
  const guint n = 4;
  GstBus *bus;
  GstHarness *h = harness_new (&bus, "backend=auto metric=lpc-si");
  TestRng rng = TEST_RNG_INIT (21), *rand = &rng;
  GPtrArray *msgs, *sums, *frames;
  GstBuffer *bufs[4];
  gint64 start, elapsed;
  guint scored = 0;

  test_video_set_caps (h, GST_VIDEO_FORMAT_GRAY8, 1920, 1080);
  for (guint i = 0; i < n; i++)
    bufs[i] = gray_frame (GST_VIDEO_FORMAT_GRAY8, 1920, 1080, 0, stripes,
        rand, i);

  start = g_get_monotonic_time ();
  for (guint i = 0; i < n; i++) {
    GstBuffer *out = gst_harness_push_and_pull (h, bufs[i]);

    scored += gst_buffer_get_custom_meta (out, "GstSharpnessMeta") != NULL;
    gst_buffer_unref (out);
  }
  elapsed = g_get_monotonic_time () - start;
  /* 4 frames of 1080p: far below one CPU LPC-SI frame. */
  fail_unless (elapsed < 1500 * 1000, "%u frames took %" G_GINT64_FORMAT
      " us", n, elapsed);

  fail_unless (gst_harness_push_event (h, gst_event_new_eos ()));
  msgs = drain (bus);
  if (!gpu_expected ()) {
    gchar *text;

    fail_unless_equals_int (scored, 0);
    /* One for "no CUDA device", one for "lpc-si goes unscored". */
    fail_unless_equals_int (count_type (msgs, GST_MESSAGE_WARNING), 2);
    frames = structures_named (msgs, "sharpness");
    fail_unless_equals_int (frames->len, 0);
    g_ptr_array_unref (frames);
    sums = structures_named (msgs, "sharpness-summary");
    fail_unless_equals_int (sums->len, 1);
    fail_unless_equals_uint64 (harness_get_uint64 (g_ptr_array_index (sums, 0),
            "unscored"), n);
    fail_unless_equals_uint64 (harness_get_uint64 (g_ptr_array_index (sums, 0),
            "frames"), 0);
    g_ptr_array_unref (sums);
    for (guint i = 0; i < msgs->len; i++) {
      GstMessage *m = g_ptr_array_index (msgs, i);
      GError *err = NULL;

      if (GST_MESSAGE_TYPE (m) != GST_MESSAGE_WARNING)
        continue;
      gst_message_parse_warning (m, &err, NULL);
      text = g_strdup (err->message);
      g_error_free (err);
      if (strstr (text, "lpc-si"))
        fail_unless (strstr (text, "backend=cpu") != NULL, "%s", text);
      g_free (text);
    }
  }
  g_ptr_array_unref (msgs);
  harness_free (h, bus);
}

GST_END_TEST;

/* backend=cpu is an explicit request: heavy metrics are scored on every
 * frame, however long it takes. */
GST_START_TEST (test_heavy_metric_cpu_scores_every_frame)
{
  GstBus *bus;
  GstHarness *h = harness_new (&bus, "backend=cpu metric=cwtvnrs");
  TestRng rng = TEST_RNG_INIT (22), *rand = &rng;
  GPtrArray *msgs;

  test_video_set_caps (h, GST_VIDEO_FORMAT_GRAY8, 64, 48);
  for (guint i = 0; i < 3; i++)
    fail_unless (isfinite (push_score (h, gray_frame (GST_VIDEO_FORMAT_GRAY8,
                    64, 48, 0, stripes, rand, i))));
  msgs = drain (bus);
  fail_unless_equals_int (count_type (msgs, GST_MESSAGE_WARNING), 0);
  g_ptr_array_unref (msgs);
  harness_free (h, bus);
}

GST_END_TEST;

/* cuda-device-id as nvcodec names it; device-id is its deprecated alias. */
GST_START_TEST (test_cuda_device_id_alias)
{
  GstElement *e = gst_element_factory_make ("cudasharpness", NULL);
  GParamSpec *old;
  gint id = -2;

  fail_unless (e != NULL);
  old = g_object_class_find_property (G_OBJECT_GET_CLASS (e), "device-id");
  fail_unless (old != NULL && (old->flags & G_PARAM_DEPRECATED));
  g_object_get (e, "cuda-device-id", &id, NULL);
  fail_unless_equals_int (id, -1);
  g_object_set (e, "device-id", 3, NULL);
  g_object_get (e, "cuda-device-id", &id, NULL);
  fail_unless_equals_int (id, 3);
  g_object_set (e, "cuda-device-id", 1, NULL);
  g_object_get (e, "device-id", &id, NULL);
  fail_unless_equals_int (id, 1);
  gst_object_unref (e);
}

GST_END_TEST;

GST_START_TEST (test_backend_cuda_without_gpu_errors)
{
  GstElement *e;
  GstBus *bus;
  GPtrArray *msgs;
  gchar *text;

  if (gpu_expected ()) {
    g_print ("skipped: a CUDA device may be present\n");
    return;
  }
  e = gst_element_factory_make ("cudasharpness", NULL);
  bus = gst_bus_new ();
  gst_element_set_bus (e, bus);
  gst_util_set_object_arg (G_OBJECT (e), "backend", "cuda");
  fail_unless_equals_int (gst_element_set_state (e, GST_STATE_PAUSED),
      GST_STATE_CHANGE_FAILURE);

  msgs = drain (bus);
  text = first_text (msgs, GST_MESSAGE_ERROR);
  fail_unless (text != NULL, "no error posted");
  fail_unless (strstr (text, "backend=cuda") != NULL, "%s", text);
  g_free (text);
  g_ptr_array_unref (msgs);

  gst_bus_set_flushing (bus, TRUE);
  gst_element_set_state (e, GST_STATE_NULL);
  gst_object_unref (e);
  gst_object_unref (bus);
}

GST_END_TEST;

static Suite *
cudasharpness_suite (void)
{
  Suite *s = suite_create ("cudasharpness");
  TCase *tc = tcase_create ("general");

  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_passthrough_every_format_and_metric);
  tcase_add_test (tc, test_meta_fields);
  tcase_add_test (tc, test_message_fields);
  tcase_add_test (tc, test_summary_at_eos);
  tcase_add_test (tc, test_interval);
  tcase_add_test (tc, test_post_messages_false);
  tcase_add_test (tc, test_threshold_higher_is_sharper);
  tcase_add_test (tc, test_threshold_lower_is_sharper);
  tcase_add_test (tc, test_relative_threshold);
  tcase_add_test (tc, test_metric_switch_while_playing);
  tcase_add_test (tc, test_refused_caps);
  tcase_add_test (tc, test_refused_caps_in_pipeline);
  tcase_add_test (tc, test_speculative_queries_are_quiet);
  tcase_add_test (tc, test_renegotiation);
  tcase_add_test (tc, test_odd_sizes_and_strides);
  tcase_add_test (tc, test_tiny_frames_every_metric);
  tcase_add_test (tc, test_backend_auto_warns_once);
  tcase_add_test (tc, test_heavy_metric_auto_never_blocks);
  tcase_add_test (tc, test_heavy_metric_cpu_scores_every_frame);
  tcase_add_test (tc, test_cuda_device_id_alias);
  tcase_add_test (tc, test_backend_cuda_without_gpu_errors);
  return s;
}

GST_CHECK_MAIN (cudasharpness);
