/* cudasharpness's tile map, focus-aware pooling and regions of interest
 * (docs/reference/cudasharpness.md) through GstHarness on the CPU backend.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Expected tile scores are worked out here from the definitions
 * (docs/reference/metrics.md, docs/reference/tiles.md): tile (c, r) spans columns
 * floor (c W / cols) .. floor ((c + 1) W / cols) - 1 (rows alike); a
 * Laplacian term belongs to the tile of its centre pixel and reads its
 * neighbours wherever they are (a tile is not a cropped frame); a tile's
 * variance is that of its own pixels.  A ROI's score, on the other hand,
 * is the score of the region cropped out as a frame of its own, which the
 * tests get by running the element on the crop.
 */
#include <math.h>
#include <string.h>

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "sharpness-harness.h"
#include "test-video.h"

#include "sharpness-tiles.h"    /* sharpness_pool_top_percent: the rule */

#define FRAME_DURATION (40 * GST_MSECOND)
#define REFUSAL "tiles are computed for the classical metrics only"

/* --- images --------------------------------------------------------- */

/* A gray image, @w x @h bytes, row-major. */
typedef struct
{
  gint w, h;
  guint8 *px;
} Gray;

static Gray
gray_new (gint w, gint h)
{
  Gray g = { w, h, g_malloc0 ((gsize) w * h) };
  return g;
}

static void
gray_free (Gray * g)
{
  g_clear_pointer (&g->px, g_free);
}

#define PX(g, x, y) ((g)->px[(gsize) (y) * (g)->w + (x)])

static Gray
gray_random (gint w, gint h, guint32 seed)
{
  Gray g = gray_new (w, h);
  GRand *rand = g_rand_new_with_seed (seed);

  for (gsize i = 0; i < (gsize) w * h; i++)
    g.px[i] = g_rand_int (rand);
  g_rand_free (rand);
  return g;
}

static Gray
gray_crop (const Gray * g, gint x, gint y, gint w, gint h)
{
  Gray c = gray_new (w, h);

  for (gint j = 0; j < h; j++)
    memcpy (c.px + (gsize) j * w, g->px + (gsize) (y + j) * g->w + x, w);
  return c;
}

/* A GRAY8 buffer of @g (default stride, padding filled with garbage). */
static GstBuffer *
gray_buffer (const Gray * g, guint64 index)
{
  GstVideoInfo info;
  GstBuffer *buf;
  GstMapInfo map;
  gint stride;

  gst_video_info_set_format (&info, GST_VIDEO_FORMAT_GRAY8, g->w, g->h);
  stride = GST_VIDEO_INFO_PLANE_STRIDE (&info, 0);
  buf = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (&info), NULL);
  gst_buffer_map (buf, &map, GST_MAP_WRITE);
  memset (map.data, 0xa5, map.size);
  for (gint y = 0; y < g->h; y++)
    memcpy (map.data + (gsize) y * stride, g->px + (gsize) y * g->w, g->w);
  gst_buffer_unmap (buf, &map);
  GST_BUFFER_PTS (buf) = index * FRAME_DURATION;
  GST_BUFFER_DURATION (buf) = FRAME_DURATION;
  return buf;
}

/* --- reference tile scores ------------------------------------------ */

static void
span (gint n, gint parts, gint i, gint * begin, gint * end)
{
  *begin = (gint) ((gint64) i * n / parts);
  *end = (gint) ((gint64) (i + 1) * n / parts);
}

static guint64
laplacian_term (const Gray * g, gint x, gint y)
{
  gint c;

  if (x < 1 || y < 1 || x > g->w - 2 || y > g->h - 2)
    return 0;
  c = 2 * PX (g, x, y);
  return ABS (PX (g, x + 1, y) + PX (g, x - 1, y) - c) +
      ABS (PX (g, x, y + 1) + PX (g, x, y - 1) - c);
}

/* Tile scores of `laplacian` or `variance`, row-major. */
static void
reference_tiles (const gchar * metric, const Gray * g, gint cols, gint rows,
    gdouble * scores)
{
  gboolean variance = g_str_equal (metric, "variance");

  for (gint r = 0; r < rows; r++) {
    for (gint c = 0; c < cols; c++) {
      gint x0, x1, y0, y1;
      guint64 s1 = 0, s2 = 0, n;

      span (g->w, cols, c, &x0, &x1);
      span (g->h, rows, r, &y0, &y1);
      n = (guint64) (x1 - x0) * (y1 - y0);
      for (gint y = y0; y < y1; y++) {
        for (gint x = x0; x < x1; x++) {
          if (variance) {
            s1 += PX (g, x, y);
            s2 += PX (g, x, y) * PX (g, x, y);
          } else {
            s1 += laplacian_term (g, x, y);
          }
        }
      }
      if (n == 0)
        scores[r * cols + c] = 0.0;
      else if (variance)
        scores[r * cols + c] = (gdouble) ((unsigned __int128) n * s2 -
            (unsigned __int128) s1 * s1) / ((gdouble) n * (gdouble) n);
      else
        scores[r * cols + c] = (gdouble) s1 / (gdouble) n;
    }
  }
}

/* --- harness ---------------------------------------------------------- */

/* The `sharpness` message of the last frame pushed, popped from @bus
 * (other messages dropped); NULL when none. */
static GstMessage *
pop_frame_message (GstBus * bus)
{
  GstMessage *m, *last = NULL;

  while ((m = gst_bus_pop (bus))) {
    if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_ELEMENT &&
        gst_structure_has_name (gst_message_get_structure (m), "sharpness")) {
      if (last)
        gst_message_unref (last);
      last = m;
    } else {
      gst_message_unref (m);
    }
  }
  return last;
}

/* @field of @s, a GST_TYPE_ARRAY of @n values of @type, checked. */
static const GValue *
get_array (const GstStructure * s, const gchar * field, GType type, guint n)
{
  const GValue *v = gst_structure_get_value (s, field);

  fail_unless (v != NULL && GST_VALUE_HOLDS_ARRAY (v), "no array %s in %"
      GST_PTR_FORMAT, field, s);
  fail_unless_equals_int (gst_value_array_get_size (v), n);
  for (guint i = 0; i < n; i++)
    fail_unless (G_VALUE_TYPE (gst_value_array_get_value (v, i)) == type);
  return v;
}

static gdouble
array_double (const GValue * v, guint i)
{
  return g_value_get_double (gst_value_array_get_value (v, i));
}

/* Checks @s's tile fields against @expected (cols x rows, row-major). */
static void
check_tile_fields (const GstStructure * s, guint cols, guint rows,
    const gdouble * expected)
{
  guint c = 0, r = 0;
  const GValue *v;

  fail_unless (gst_structure_get_uint (s, "tiles-cols", &c));
  fail_unless (gst_structure_get_uint (s, "tiles-rows", &r));
  fail_unless_equals_int (c, cols);
  fail_unless_equals_int (r, rows);
  v = get_array (s, "tile-scores", G_TYPE_DOUBLE, cols * rows);
  for (guint i = 0; i < cols * rows; i++)
    fail_unless (array_double (v, i) == expected[i],
        "tile %u: %.17g, expected %.17g", i, array_double (v, i),
        expected[i]);
}

static gboolean
has_tile_fields (const GstStructure * s)
{
  return gst_structure_has_field (s, "tiles-cols") ||
      gst_structure_has_field (s, "tiles-rows") ||
      gst_structure_has_field (s, "tile-scores");
}

static gboolean
has_roi_fields (const GstStructure * s)
{
  return gst_structure_has_field (s, "roi-ids") ||
      gst_structure_has_field (s, "roi-types") ||
      gst_structure_has_field (s, "roi-scores");
}

/* Pushes @g through a fresh element of @props; its frame score. */
static gdouble
score_alone (const Gray * g, const gchar * props)
{
  GstBus *bus;
  GstHarness *h = harness_new (&bus, props);
  GstBuffer *out;
  gdouble score;

  test_video_set_caps (h, GST_VIDEO_FORMAT_GRAY8, g->w, g->h);
  out = gst_harness_push_and_pull (h, gray_buffer (g, 0));
  score = harness_get_double (harness_meta_structure (out), "score");
  gst_buffer_unref (out);
  harness_free (h, bus);
  return score;
}

/* --- properties ------------------------------------------------------- */

static gchar *
get_string (GstElement * e, const gchar * name)
{
  gchar *v = NULL;

  g_object_get (e, name, &v, NULL);
  return v;
}

static void
check_tiles_value (GstElement * e, const gchar * set, const gchar * expect)
{
  gchar *got;

  g_object_set (e, "tiles", set, NULL);
  got = get_string (e, "tiles");
  fail_unless_equals_string (got, expect);
  g_free (got);
}

GST_START_TEST (test_properties)
{
  GstElement *e = gst_element_factory_make ("cudasharpness", NULL);
  const gchar *bad[] = { "0x4", "4x0", "65x1", "1x65", "8x", "x4", "abc",
    "8x4x2", "-1x2", "8*4", "8 4", "100000x1", NULL
  };
  gchar *got;
  gdouble percent;

  fail_unless (e != NULL);
  got = get_string (e, "tiles");
  fail_unless_equals_string (got, "");
  g_free (got);
  check_tiles_value (e, "8x4", "8x4");
  check_tiles_value (e, " 3 X 2 ", "3x2");
  check_tiles_value (e, "64x64", "64x64");
  check_tiles_value (e, "1x1", "1x1");
  check_tiles_value (e, "off", "");
  check_tiles_value (e, "7x5", "7x5");
  check_tiles_value (e, "", "");
  check_tiles_value (e, "2x3", "2x3");
  /* A bad value warns, naming it and the accepted form, and changes
   * nothing. */
  for (const gchar ** b = bad; *b; b++) {
    ASSERT_WARNING (g_object_set (e, "tiles", *b, NULL));
    got = get_string (e, "tiles");
    fail_unless_equals_string (got, "2x3");
    g_free (got);
  }

  g_object_get (e, "pooling-percent", &percent, NULL);
  fail_unless_equals_float (percent, 10.0);
  gst_util_set_object_arg (G_OBJECT (e), "pooling", "top-percent");
  gst_util_set_object_arg (G_OBJECT (e), "pooling-percent", "25");
  g_object_get (e, "pooling-percent", &percent, NULL);
  fail_unless_equals_float (percent, 25.0);

  got = get_string (e, "roi-types");
  fail_unless_equals_string (got, "");
  g_free (got);
  g_object_set (e, "roi-types", " face, person ,,", NULL);
  got = get_string (e, "roi-types");
  fail_unless_equals_string (got, "face,person");
  g_free (got);
  g_object_set (e, "roi-types", "", NULL);
  got = get_string (e, "roi-types");
  fail_unless_equals_string (got, "");
  g_free (got);
  gst_object_unref (e);
}

GST_END_TEST;

/* --- tiles ------------------------------------------------------------ */

typedef struct
{
  gint w, h, cols, rows;
} TileCase;

/* Sizes not divisible by the grid, 1-pixel tiles, grids finer than the
 * frame (empty tiles score 0), one tile. */
static const TileCase tile_cases[] = {
  {7, 5, 3, 2}, {8, 4, 8, 4}, {13, 11, 4, 3}, {5, 3, 8, 4},
  {33, 17, 64, 2}, {40, 30, 1, 1}, {64, 48, 6, 5}, {3, 3, 2, 2},
};

GST_START_TEST (test_tiles_handmade)
{
  const gchar *metrics[] = { "laplacian", "variance" };

  for (guint m = 0; m < G_N_ELEMENTS (metrics); m++) {
    for (guint t = 0; t < G_N_ELEMENTS (tile_cases); t++) {
      const TileCase *tc = &tile_cases[t];
      Gray g = gray_random (tc->w, tc->h, 1000 + t);
      gint n = tc->cols * tc->rows;
      gdouble *expected = g_new (gdouble, n);
      gchar *props = g_strdup_printf ("metric=%s tiles=%dx%d", metrics[m],
          tc->cols, tc->rows);
      gchar *plain = g_strdup_printf ("metric=%s", metrics[m]);
      GstBus *bus;
      GstHarness *h = harness_new (&bus, props);
      GstBuffer *out;
      GstMessage *msg;
      gdouble frame_score, total = 0.0;

      reference_tiles (metrics[m], &g, tc->cols, tc->rows, expected);
      test_video_set_caps (h, GST_VIDEO_FORMAT_GRAY8, tc->w, tc->h);
      out = gst_harness_push_and_pull (h, gray_buffer (&g, 0));
      check_tile_fields (harness_meta_structure (out), tc->cols, tc->rows,
          expected);
      msg = pop_frame_message (bus);
      fail_unless (msg != NULL);
      check_tile_fields (gst_message_get_structure (msg), tc->cols, tc->rows,
          expected);
      fail_if (has_roi_fields (gst_message_get_structure (msg)));
      gst_message_unref (msg);

      /* The frame score is unchanged by the tiles, to the bit. */
      frame_score = harness_get_double (harness_meta_structure (out), "score");
      fail_unless (frame_score == score_alone (&g, plain),
          "%s %dx%d tiles %dx%d: frame score changed", metrics[m], tc->w,
          tc->h, tc->cols, tc->rows);
      /* Laplacian: the tiles' sums add up to the frame's. */
      if (m == 0) {
        for (gint r = 0; r < tc->rows; r++) {
          for (gint c = 0; c < tc->cols; c++) {
            gint x0, x1, y0, y1;

            span (tc->w, tc->cols, c, &x0, &x1);
            span (tc->h, tc->rows, r, &y0, &y1);
            total += round (expected[r * tc->cols + c] * (x1 - x0) *
                (y1 - y0));
          }
        }
        fail_unless_equals_float (total, round (frame_score * tc->w * tc->h));
      }

      gst_buffer_unref (out);
      harness_free (h, bus);
      g_free (props);
      g_free (plain);
      g_free (expected);
      gray_free (&g);
    }
  }
}

GST_END_TEST;

/* Every classical metric: tile fields of the right size, frame score
 * unchanged; a second frame with tiles turned off drops the fields. */
GST_START_TEST (test_tiles_every_classical_metric)
{
  Gray g = gray_random (37, 21, 7);

  for (gint m = 0; m < SHARPNESS_METRIC_COUNT; m++) {
    const gchar *nick = sharpness_metric_info[m].nick;
    gchar *props, *plain;
    GstBus *bus;
    GstHarness *h;
    GstBuffer *out;
    GstStructure *s;

    if (!sharpness_metric_has_tiles (m))
      continue;
    props = g_strdup_printf ("metric=%s tiles=5x3", nick);
    plain = g_strdup_printf ("metric=%s", nick);
    h = harness_new (&bus, props);
    test_video_set_caps (h, GST_VIDEO_FORMAT_GRAY8, g.w, g.h);
    out = gst_harness_push_and_pull (h, gray_buffer (&g, 0));
    s = harness_meta_structure (out);
    get_array (s, "tile-scores", G_TYPE_DOUBLE, 15);
    fail_unless (harness_get_double (s, "score") == score_alone (&g, plain),
        "%s", nick);
    gst_buffer_unref (out);

    g_object_set (h->element, "tiles", "off", NULL);
    out = gst_harness_push_and_pull (h, gray_buffer (&g, 1));
    fail_if (has_tile_fields (harness_meta_structure (out)));
    gst_buffer_unref (out);
    harness_free (h, bus);
    g_free (props);
    g_free (plain);
  }
  gray_free (&g);
}

GST_END_TEST;

/* Perceptual metrics refuse tiles, pooling and ROIs with one warning each
 * and keep their whole-frame score. */
GST_START_TEST (test_perceptual_refusal)
{
  Gray g = gray_random (48, 40, 11);
  GstBus *bus;
  GstHarness *h = harness_new (&bus,
      "metric=blur-effect tiles=4x4 pooling=top-percent");
  gdouble plain = score_alone (&g, "metric=blur-effect");
  guint warnings = 0, refusals = 0;
  GstMessage *m;

  test_video_set_caps (h, GST_VIDEO_FORMAT_GRAY8, g.w, g.h);
  for (guint i = 0; i < 3; i++) {
    GstBuffer *in = gray_buffer (&g, i), *out;
    GstVideoRegionOfInterestMeta *roi =
        gst_buffer_add_video_region_of_interest_meta (in, "face", 4, 4, 20,
        20);
    GstStructure *s;

    roi->id = 7;
    out = gst_harness_push_and_pull (h, in);
    s = harness_meta_structure (out);
    fail_unless (harness_get_double (s, "score") == plain);
    fail_if (has_tile_fields (s));
    fail_if (has_roi_fields (s));
    roi = gst_buffer_get_video_region_of_interest_meta_id (out, 7);
    fail_unless (roi != NULL);
    fail_unless (gst_video_region_of_interest_meta_get_param (roi,
            "sharpness") == NULL);
    gst_buffer_unref (out);
  }
  while ((m = gst_bus_pop (bus))) {
    if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_WARNING) {
      GError *err = NULL;

      gst_message_parse_warning (m, &err, NULL);
      warnings++;
      refusals += strstr (err->message, REFUSAL) != NULL;
      g_error_free (err);
    } else if (GST_MESSAGE_TYPE (m) == GST_MESSAGE_ELEMENT) {
      fail_if (has_tile_fields (gst_message_get_structure (m)));
      fail_if (has_roi_fields (gst_message_get_structure (m)));
    }
    gst_message_unref (m);
  }
  /* tiles, pooling and ROIs: once each over three frames. */
  fail_unless_equals_int (warnings, 3);
  fail_unless_equals_int (refusals, 3);
  harness_free (h, bus);
  gray_free (&g);
}

GST_END_TEST;

/* --- pooling: a bokeh-like frame ---------------------------------------- */

#define BOKEH_SIZE 160
/* Far below the texture sharp all over (289), far above its blurred
 * background. */
#define BOKEH_THRESHOLD 50.0

/* A sharp random texture in the centre (48x48 of 160x160) on a background
 * of the same texture box-blurred three times over 9x9 (shallow depth of
 * field). */
static Gray
bokeh_frame (void)
{
  Gray sharp = gray_random (BOKEH_SIZE, BOKEH_SIZE, 42);
  Gray blur = gray_new (BOKEH_SIZE, BOKEH_SIZE), tmp;
  const gint r = 4, n = BOKEH_SIZE, lo = 56, hi = 104;

  memcpy (blur.px, sharp.px, (gsize) n * n);
  tmp = gray_new (n, n);
  for (gint pass = 0; pass < 3; pass++) {
    for (gint y = 0; y < n; y++) {
      for (gint x = 0; x < n; x++) {
        guint sum = 0, count = 0;

        for (gint dy = -r; dy <= r; dy++)
          for (gint dx = -r; dx <= r; dx++)
            if (x + dx >= 0 && x + dx < n && y + dy >= 0 && y + dy < n) {
              sum += PX (&blur, x + dx, y + dy);
              count++;
            }
        PX (&tmp, x, y) = (sum + count / 2) / count;
      }
    }
    memcpy (blur.px, tmp.px, (gsize) n * n);
  }
  for (gint y = lo; y < hi; y++)
    for (gint x = lo; x < hi; x++)
      PX (&blur, x, y) = PX (&sharp, x, y);
  gray_free (&sharp);
  gray_free (&tmp);
  return blur;
}

static void
push_bokeh (const Gray * g, const gchar * props, gdouble * score,
    gboolean * blurry, GArray * tile_scores)
{
  GstBus *bus;
  GstHarness *h = harness_new (&bus, props);
  GstBuffer *out;
  GstStructure *s;

  test_video_set_caps (h, GST_VIDEO_FORMAT_GRAY8, g->w, g->h);
  out = gst_harness_push_and_pull (h, gray_buffer (g, 0));
  s = harness_meta_structure (out);
  *score = harness_get_double (s, "score");
  fail_unless (gst_structure_get_boolean (s, "blurry", blurry));
  if (tile_scores) {
    const GValue *v = get_array (s, "tile-scores", G_TYPE_DOUBLE, 64);

    for (guint i = 0; i < 64; i++) {
      gdouble d = array_double (v, i);
      g_array_append_val (tile_scores, d);
    }
  }
  gst_buffer_unref (out);
  harness_free (h, bus);
}

GST_START_TEST (test_bokeh_pooling)
{
  Gray g = bokeh_frame ();
  GArray *tiles = g_array_new (FALSE, FALSE, sizeof (gdouble));
  gdouble mean, top, top_no_tiles, top_all, expected;
  gboolean blurry;
  gchar *props;

  props = g_strdup_printf ("metric=laplacian threshold=%g", BOKEH_THRESHOLD);
  push_bokeh (&g, props, &mean, &blurry, NULL);
  g_print ("bokeh %dx%d laplacian: pooling=mean %.3f (blurry %d)",
      g.w, g.h, mean, blurry);
  fail_unless (blurry, "mean %g should be blurry below %g", mean,
      BOKEH_THRESHOLD);
  g_free (props);

  props = g_strdup_printf ("metric=laplacian threshold=%g tiles=8x8 "
      "pooling=top-percent", BOKEH_THRESHOLD);
  push_bokeh (&g, props, &top, &blurry, tiles);
  g_print (", top-percent 10 %% of 8x8 %.3f (blurry %d)", top, blurry);
  fail_if (blurry, "top-percent %g should be sharp above %g", top,
      BOKEH_THRESHOLD);
  g_free (props);

  /* The pooling rule, exactly: the mean of the sharpest 7 of 64 tiles. */
  expected = sharpness_pool_top_percent (SHARPNESS_METRIC_LAPLACIAN,
      (const gdouble *) tiles->data, 64, 10.0, NULL);
  fail_unless (top == expected, "%.17g != %.17g", top, expected);
  /* Without `tiles` pooling uses an 8x8 grid of its own. */
  props = g_strdup_printf ("metric=laplacian threshold=%g "
      "pooling=top-percent", BOKEH_THRESHOLD);
  push_bokeh (&g, props, &top_no_tiles, &blurry, NULL);
  fail_unless (top_no_tiles == top);
  g_free (props);
  /* 100 % is the plain mean of the tiles (not the frame's mean for every
   * metric, but close for a gradient metric). */
  push_bokeh (&g, "metric=laplacian tiles=8x8 pooling=top-percent "
      "pooling-percent=100", &top_all, &blurry, NULL);
  {
    Gray sharp = gray_random (BOKEH_SIZE, BOKEH_SIZE, 42);

    g_print (", top-percent 100 %% %.3f; the texture sharp all over %.3f; "
        "threshold %g\n", top_all, score_alone (&sharp, "metric=laplacian"),
        BOKEH_THRESHOLD);
    gray_free (&sharp);
  }
  fail_unless (fabs (top_all - mean) < 1e-9 * mean);

  g_array_unref (tiles);
  gray_free (&g);
}

GST_END_TEST;

/* --- regions of interest ------------------------------------------------ */

typedef struct
{
  const gchar *type;
  gint id;
  guint x, y, w, h;
} RoiSpec;

/* 64x48 frame: inside, clipped at the right and bottom, outside (skipped),
 * tiny (3x3: one Laplacian term), and a zero-sized one (skipped). */
static const RoiSpec roi_specs[] = {
  {"face", 1, 10, 8, 20, 16},
  {"person", 2, 40, 30, 40, 30},
  {"face", 3, 70, 10, 5, 5},
  {"face", 4, 0, 0, 3, 3},
  {"car", 5, 20, 20, 0, 10},
  {"car", 6, 5, 30, 30, 12},
};

static GstPadProbeReturn
add_rois_probe (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  GstBuffer *buf = gst_buffer_make_writable (GST_PAD_PROBE_INFO_BUFFER (info));

  /* As a detector upstream would. */
  for (guint i = 0; i < G_N_ELEMENTS (roi_specs); i++) {
    const RoiSpec *r = &roi_specs[i];
    GstVideoRegionOfInterestMeta *meta =
        gst_buffer_add_video_region_of_interest_meta (buf, r->type, r->x,
        r->y, r->w, r->h);
    meta->id = r->id;
  }
  GST_PAD_PROBE_INFO_DATA (info) = buf;
  return GST_PAD_PROBE_OK;
}

static GstHarness *
roi_harness_new (GstBus ** bus, const gchar * props)
{
  GstHarness *h = harness_new (bus, props);
  GstPad *sink = gst_element_get_static_pad (h->element, "sink");

  gst_pad_add_probe (sink, GST_PAD_PROBE_TYPE_BUFFER, add_rois_probe, NULL,
      NULL);
  gst_object_unref (sink);
  return h;
}

/* The `sharpness` params of @roi for @metric, counted; the last one. */
static const GstStructure *
roi_param (GstVideoRegionOfInterestMeta * roi, const gchar * metric,
    guint * count)
{
  const GstStructure *found = NULL;

  *count = 0;
  for (GList * l = roi->params; l; l = l->next) {
    const GstStructure *s = l->data;
    if (gst_structure_has_name (s, "sharpness") &&
        g_strcmp0 (gst_structure_get_string (s, "metric"), metric) == 0) {
      found = s;
      (*count)++;
    }
  }
  return found;
}

/* The expected score of ROI @r of @g: the clipped region scored alone. */
static gboolean
roi_expected (const Gray * g, const RoiSpec * r, const gchar * props,
    gdouble * score)
{
  gint x1 = MIN ((gint) (r->x + r->w), g->w);
  gint y1 = MIN ((gint) (r->y + r->h), g->h);
  Gray crop;

  if ((gint) r->x >= x1 || (gint) r->y >= y1)
    return FALSE;
  crop = gray_crop (g, r->x, r->y, x1 - r->x, y1 - r->y);
  *score = score_alone (&crop, props);
  gray_free (&crop);
  return TRUE;
}

/* Pushes @g with the ROIs through an element of @props and checks each
 * ROI's param and the message's lists against the crops scored alone;
 * @types: the ROI types expected scored (NULL: all). */
static void
check_rois (const Gray * g, const gchar * metric, const gchar * props,
    const gchar * const *types, gdouble threshold)
{
  gchar *alone = g_strdup_printf ("metric=%s", metric);
  GstBus *bus;
  GstHarness *h = roi_harness_new (&bus, props);
  GstBuffer *out;
  GstMessage *msg;
  const GstStructure *ms;
  const GValue *ids, *names, *scores;
  guint n = 0;

  test_video_set_caps (h, GST_VIDEO_FORMAT_GRAY8, g->w, g->h);
  out = gst_harness_push_and_pull (h, gray_buffer (g, 0));
  msg = pop_frame_message (bus);
  fail_unless (msg != NULL);
  ms = gst_message_get_structure (msg);

  for (guint i = 0; i < G_N_ELEMENTS (roi_specs); i++) {
    const RoiSpec *r = &roi_specs[i];
    GstVideoRegionOfInterestMeta *roi =
        gst_buffer_get_video_region_of_interest_meta_id (out, r->id);
    gboolean wanted = !types || g_strv_contains (types, r->type);
    const GstStructure *param;
    guint count;
    gdouble expected, got;
    gboolean blurry;

    fail_unless (roi != NULL);
    param = roi_param (roi, metric, &count);
    if (!wanted || !roi_expected (g, r, alone, &expected)) {
      fail_unless (param == NULL, "ROI %d should have no param", r->id);
      continue;
    }
    fail_unless_equals_int (count, 1);
    got = harness_get_double (param, "score");
    fail_unless (got == expected, "ROI %d: %.17g, alone %.17g", r->id, got,
        expected);
    fail_unless (gst_structure_get_boolean (param, "blurry", &blurry));
    fail_unless_equals_int (blurry, threshold > 0.0 && got < threshold);
    n++;
  }

  /* The message lists the scored ROIs in buffer order; so does the meta. */
  for (guint pass = 0; pass < 2; pass++) {
    const GstStructure *s = pass ? harness_meta_structure (out) : ms;
    guint k = 0;

    ids = get_array (s, "roi-ids", G_TYPE_INT, n);
    names = get_array (s, "roi-types", G_TYPE_STRING, n);
    scores = get_array (s, "roi-scores", G_TYPE_DOUBLE, n);
    for (guint i = 0; i < G_N_ELEMENTS (roi_specs); i++) {
      const RoiSpec *r = &roi_specs[i];
      gdouble expected;

      if ((types && !g_strv_contains (types, r->type)) ||
          !roi_expected (g, r, alone, &expected))
        continue;
      fail_unless_equals_int (g_value_get_int (gst_value_array_get_value
              (ids, k)), r->id);
      fail_unless_equals_string (g_value_get_string
          (gst_value_array_get_value (names, k)), r->type);
      fail_unless (array_double (scores, k) == expected);
      k++;
    }
  }
  gst_message_unref (msg);
  gst_buffer_unref (out);
  harness_free (h, bus);
  g_free (alone);
}

GST_START_TEST (test_roi_scores_equal_crops)
{
  const gchar *metrics[] = { "laplacian", "variance", "tenengrad", "smd2",
    "entropy", "maxmin"
  };
  Gray g = gray_random (64, 48, 5);

  for (guint m = 0; m < G_N_ELEMENTS (metrics); m++) {
    gchar *props = g_strdup_printf ("metric=%s", metrics[m]);
    gchar *tiled = g_strdup_printf ("metric=%s tiles=4x3", metrics[m]);

    check_rois (&g, metrics[m], props, NULL, 0.0);
    /* With tiles the frame and its ROIs go out in one call: same ROIs. */
    check_rois (&g, metrics[m], tiled, NULL, 0.0);
    g_free (props);
    g_free (tiled);
  }
  gray_free (&g);
}

GST_END_TEST;

GST_START_TEST (test_roi_blurry_and_types)
{
  Gray g = gray_random (64, 48, 6);
  const gchar *faces[] = { "face", NULL };
  const gchar *person_car[] = { "person", "car", NULL };
  gdouble face1, person;
  gchar *props;

  /* A threshold between two ROI scores: one is blurry, the other not. */
  {
    Gray a = gray_crop (&g, 10, 8, 20, 16), b = gray_crop (&g, 40, 30, 24,
        18);
    face1 = score_alone (&a, "metric=laplacian");
    person = score_alone (&b, "metric=laplacian");
    gray_free (&a);
    gray_free (&b);
  }
  fail_unless (face1 != person);
  props = g_strdup_printf ("metric=laplacian threshold=%.17g",
      (face1 + person) / 2);
  check_rois (&g, "laplacian", props, NULL, (face1 + person) / 2);
  g_free (props);

  check_rois (&g, "laplacian", "metric=laplacian roi-types=face", faces, 0.0);
  check_rois (&g, "laplacian", "metric=laplacian roi-types=person,car",
      person_car, 0.0);
  gray_free (&g);
}

GST_END_TEST;

/* A second pass of the same metric updates its param; another metric adds
 * its own. */
GST_START_TEST (test_roi_second_pass)
{
  Gray g = gray_random (64, 48, 8);
  GstBus *bus1, *bus2, *bus3;
  GstHarness *h1 = roi_harness_new (&bus1, "metric=laplacian");
  GstHarness *h2 = harness_new (&bus2, "metric=laplacian threshold=1000");
  GstHarness *h3 = harness_new (&bus3, "metric=variance");
  GstBuffer *out;
  GstVideoRegionOfInterestMeta *roi;
  const GstStructure *p;
  guint count;
  gboolean blurry;

  test_video_set_caps (h1, GST_VIDEO_FORMAT_GRAY8, g.w, g.h);
  test_video_set_caps (h2, GST_VIDEO_FORMAT_GRAY8, g.w, g.h);
  test_video_set_caps (h3, GST_VIDEO_FORMAT_GRAY8, g.w, g.h);
  out = gst_harness_push_and_pull (h1, gray_buffer (&g, 0));
  out = gst_harness_push_and_pull (h2, out);
  out = gst_harness_push_and_pull (h3, out);
  roi = gst_buffer_get_video_region_of_interest_meta_id (out, 1);
  p = roi_param (roi, "laplacian", &count);
  fail_unless_equals_int (count, 1);
  fail_unless (gst_structure_get_boolean (p, "blurry", &blurry));
  fail_unless (blurry, "the second pass's threshold should apply");
  p = roi_param (roi, "variance", &count);
  fail_unless_equals_int (count, 1);
  fail_unless_equals_int (g_list_length (roi->params), 2);
  gst_buffer_unref (out);
  harness_free (h1, bus1);
  harness_free (h2, bus2);
  harness_free (h3, bus3);
  gray_free (&g);
}

GST_END_TEST;

/* No ROI meta, no ROI fields; tiles off, no tile fields. */
GST_START_TEST (test_no_regions_no_fields)
{
  Gray g = gray_random (32, 24, 9);
  GstBus *bus;
  GstHarness *h = harness_new (&bus, "metric=laplacian");
  GstBuffer *out;
  GstMessage *msg;

  test_video_set_caps (h, GST_VIDEO_FORMAT_GRAY8, g.w, g.h);
  out = gst_harness_push_and_pull (h, gray_buffer (&g, 0));
  fail_if (has_tile_fields (harness_meta_structure (out)));
  fail_if (has_roi_fields (harness_meta_structure (out)));
  msg = pop_frame_message (bus);
  fail_unless (msg != NULL);
  fail_if (has_tile_fields (gst_message_get_structure (msg)));
  fail_if (has_roi_fields (gst_message_get_structure (msg)));
  gst_message_unref (msg);
  gst_buffer_unref (out);
  harness_free (h, bus);
  gray_free (&g);
}

GST_END_TEST;

static Suite *
regions_suite (void)
{
  Suite *s = suite_create ("cudasharpness-regions");
  TCase *tc = tcase_create ("general");

  tcase_set_timeout (tc, 120);
  suite_add_tcase (s, tc);
  tcase_add_test (tc, test_properties);
  tcase_add_test (tc, test_tiles_handmade);
  tcase_add_test (tc, test_tiles_every_classical_metric);
  tcase_add_test (tc, test_perceptual_refusal);
  tcase_add_test (tc, test_bokeh_pooling);
  tcase_add_test (tc, test_roi_scores_equal_crops);
  tcase_add_test (tc, test_roi_blurry_and_types);
  tcase_add_test (tc, test_roi_second_pass);
  tcase_add_test (tc, test_no_regions_no_fields);
  return s;
}

GST_CHECK_MAIN (regions);
