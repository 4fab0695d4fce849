/* sharpnessoverlay: the drawn pixels.  Frames of a uniform gray (or random
 * bytes, for the untouched cases) carry a GstSharpnessMeta built here (with
 * a tile map) and ROI metas with a `sharpness` param; the test checks the
 * colours of the least and the most sharp tiles in GRAY8, I420, NV12 and
 * RGBA (the blend's RGB->YUV conversion and rounding worked out here), the
 * metric direction, ROI boxes, the frame score label, bytes left untouched
 * when nothing is to be drawn, and the composition attached (pixels
 * untouched) when downstream announces GstVideoOverlayCompositionMeta.
 * Absolute colours: worked ramp values, and frames scored by cudasharpness
 * (CPU backend), a sharp one all green and a blurred one all red, where the
 * relative mode gives each a green tile.  The label's glyph height at three
 * frame sizes.
 * The direct tile-grid blend (sharpness-overlay-blend.c) is compared, on
 * random frames of every format it handles, with
 * gst_video_overlay_composition_blend of the composition the element
 * attaches for a composing downstream (the generic path): at most
 * FAST_TOL levels apart.  No GPU needed.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#include "test-video.h"

/* The custom meta cudasharpness attaches (gst/cudasharpness/sharpness-meta.h): the
 * plugin registers it when it loads. */
#define SHARPNESS_META_NAME "GstSharpnessMeta"

#define W 64
#define H 48
#define TOL 3

static const gchar *formats[] = { "GRAY8", "I420", "NV12", "RGBA" };

static GstHarness *
overlay_new (const gchar * props, const gchar * format, gint w, gint h)
{
  GstElement *e = gst_element_factory_make ("sharpnessoverlay", NULL);
  gchar *caps;
  GstHarness *harness;

  fail_unless (e != NULL, "sharpnessoverlay is not available");
  test_video_set_properties (e, props);
  harness = gst_harness_new_with_element (e, "sink", "src");
  gst_object_unref (e);
  caps = g_strdup_printf ("video/x-raw,format=%s,width=%d,height=%d,"
      "framerate=25/1", format, w, h);
  gst_harness_set_src_caps_str (harness, caps);
  g_free (caps);
  return harness;
}

static void
info_for (GstVideoInfo * info, const gchar * format, gint w, gint h)
{
  fail_unless (gst_video_info_set_format (info,
          gst_video_format_from_string (format), w, h));
}

/* A uniform mid-gray frame: every byte 128 (Y = U = V = 128), RGBA with
 * opaque alpha. */
static GstBuffer *
gray_frame (const GstVideoInfo * info)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, info->size, NULL);
  GstMapInfo map;

  gst_buffer_map (buf, &map, GST_MAP_WRITE);
  memset (map.data, 128, map.size);
  if (GST_VIDEO_INFO_FORMAT (info) == GST_VIDEO_FORMAT_RGBA)
    for (gsize i = 3; i < map.size; i += 4)
      map.data[i] = 255;
  gst_buffer_unmap (buf, &map);
  return buf;
}

static void
add_meta (GstBuffer * buf, const gchar * metric, gdouble score,
    gboolean blurry, guint cols, guint rows, const gdouble * tiles)
{
  GstCustomMeta *meta = gst_buffer_add_custom_meta (buf, SHARPNESS_META_NAME);
  GstStructure *s;

  fail_unless (meta != NULL);
  s = gst_custom_meta_get_structure (meta);
  gst_structure_set (s, "metric", G_TYPE_STRING, metric,
      "score", G_TYPE_DOUBLE, score, "blurry", G_TYPE_BOOLEAN, blurry, NULL);
  if (cols > 0) {
    GValue arr = G_VALUE_INIT;

    gst_value_array_init (&arr, cols * rows);
    for (guint i = 0; i < cols * rows; i++) {
      GValue v = G_VALUE_INIT;
      g_value_init (&v, G_TYPE_DOUBLE);
      g_value_set_double (&v, tiles[i]);
      gst_value_array_append_and_take_value (&arr, &v);
    }
    gst_structure_set (s, "tiles-cols", G_TYPE_UINT, cols,
        "tiles-rows", G_TYPE_UINT, rows, NULL);
    gst_structure_take_value (s, "tile-scores", &arr);
  }
}

static void
add_roi (GstBuffer * buf, const gchar * metric, gint x, gint y, gint w,
    gint h, gdouble score, gboolean blurry)
{
  GstVideoRegionOfInterestMeta *roi =
      gst_buffer_add_video_region_of_interest_meta (buf, "face", x, y, w, h);

  if (metric)
    gst_video_region_of_interest_meta_add_param (roi,
        gst_structure_new ("sharpness", "metric", G_TYPE_STRING, metric,
            "score", G_TYPE_DOUBLE, score, "blurry", G_TYPE_BOOLEAN, blurry,
            NULL));
}

/* Pixel (x, y) of @buf unpacked: A and three components, ARGB for RGB
 * formats, AYUV for YUV and gray ones. */
static void
read_pixel (GstBuffer * buf, const GstVideoInfo * info, gint x, gint y,
    guint8 out[4])
{
  GstVideoFrame frame;
  guint8 *line = g_malloc (GST_VIDEO_INFO_WIDTH (info) * 4 + 64);

  fail_unless (gst_video_frame_map (&frame, (GstVideoInfo *) info, buf,
          GST_MAP_READ));
  info->finfo->unpack_func (info->finfo, GST_VIDEO_PACK_FLAG_NONE, line,
      frame.data, frame.info.stride, 0, y, GST_VIDEO_INFO_WIDTH (info));
  memcpy (out, line + 4 * x, 4);
  gst_video_frame_unmap (&frame);
  g_free (line);
}

/* What blending (r, g, b) with @alpha over the mid-gray frame gives, in the
 * frame's unpacked components: video-blend.c converts the overlay to YUV
 * with its BT.709 studio-range integer matrix, then mixes non-premultiplied
 * over an opaque destination. */
static void
expected_pixel (const GstVideoInfo * info, guint r, guint g, guint b,
    guint alpha, gdouble out[3])
{
  gdouble src[3];

  if (GST_VIDEO_INFO_IS_RGB (info)) {
    src[0] = r;
    src[1] = g;
    src[2] = b;
  } else {
    src[0] = CLAMP ((47 * (gint) r + 157 * (gint) g + 16 * (gint) b +
            4096) >> 8, 0, 255);
    src[1] = CLAMP ((-26 * (gint) r - 87 * (gint) g + 112 * (gint) b +
            32768) >> 8, 0, 255);
    src[2] = CLAMP ((112 * (gint) r - 102 * (gint) g - 10 * (gint) b +
            32768) >> 8, 0, 255);
  }
  for (gint i = 0; i < 3; i++)
    out[i] = (src[i] * alpha + 128.0 * (255 - alpha)) / 255.0;
}

static void
check_pixel (GstBuffer * buf, const GstVideoInfo * info, gint x, gint y,
    guint r, guint g, guint b, guint alpha, const gchar * what)
{
  guint8 px[4];
  gdouble want[3];
  /* Gray frames carry luma only. */
  gint n = GST_VIDEO_INFO_IS_GRAY (info) ? 1 : 3;

  read_pixel (buf, info, x, y, px);
  expected_pixel (info, r, g, b, alpha, want);
  for (gint i = 0; i < n; i++)
    fail_unless (fabs (px[1 + i] - want[i]) <= TOL,
        "%s (%s) at %d,%d: component %d is %u, expected %.1f (colour "
        "%02x%02x%02x, alpha %u)", what,
        gst_video_format_to_string (GST_VIDEO_INFO_FORMAT (info)), x, y, i,
        px[1 + i], want[i], r, g, b, alpha);
}

/* Unchanged mid gray. */
static void
check_gray (GstBuffer * buf, const GstVideoInfo * info, gint x, gint y,
    const gchar * what)
{
  guint8 px[4];
  gint n = GST_VIDEO_INFO_IS_GRAY (info) ? 1 : 3;

  read_pixel (buf, info, x, y, px);
  for (gint i = 0; i < n; i++)
    fail_unless (px[1 + i] == 128, "%s at %d,%d: component %d is %u, "
        "expected the untouched 128", what, x, y, i, px[1 + i]);
}

static gboolean
same_bytes (GstBuffer * a, GstBuffer * b)
{
  GstMapInfo ma, mb;
  gboolean same;

  gst_buffer_map (a, &ma, GST_MAP_READ);
  gst_buffer_map (b, &mb, GST_MAP_READ);
  same = ma.size == mb.size && memcmp (ma.data, mb.data, ma.size) == 0;
  gst_buffer_unmap (a, &ma);
  gst_buffer_unmap (b, &mb);
  return same;
}

/* 4x2 tiles of 16x24 pixels on a 64x48 frame: tile (0,0) the least sharp,
 * (3,1) the sharpest, the others halfway (yellow). */
static const gdouble tiles_4x2[8] = { 1, 5, 5, 5, 5, 5, 5, 9 };

/* Centre of tile (c, r) of the 4x2 grid. */
#define TX(c) ((c) * 16 + 8)
#define TY(r) ((r) * 24 + 12)

GST_START_TEST (test_tile_colours)
{
  const gchar *format = formats[__i__ % G_N_ELEMENTS (formats)];
  gdouble opacity = __i__ < (gint) G_N_ELEMENTS (formats) ? 1.0 : 0.5;
  guint alpha = (guint) lround (opacity * 255);
  gchar *props = g_strdup_printf ("opacity=%g show-score=false", opacity);
  GstHarness *h = overlay_new (props, format, W, H);
  GstVideoInfo info;
  GstBuffer *in, *out;

  info_for (&info, format, W, H);
  in = gray_frame (&info);
  add_meta (in, "laplacian", 5.0, FALSE, 4, 2, tiles_4x2);
  out = gst_harness_push_and_pull (h, in);
  fail_unless (out != NULL);
  fail_unless (gst_buffer_get_video_overlay_composition_meta (out) == NULL,
      "no downstream composition: the overlay must be blended");

  check_pixel (out, &info, TX (0), TY (0), 255, 0, 0, alpha, "least sharp");
  check_pixel (out, &info, TX (3), TY (1), 0, 255, 0, alpha, "sharpest");
  check_pixel (out, &info, TX (1), TY (0), 255, 255, 0, alpha, "middle");
  check_pixel (out, &info, TX (2), TY (1), 255, 255, 0, alpha, "middle");

  gst_buffer_unref (out);
  gst_harness_teardown (h);
  g_free (props);
}

GST_END_TEST;

/* The partition of docs/reference/tiles.md on a size the grid does not divide:
 * 50x30 in 3x2 tiles starts tile columns at 0, 16, 33 and tile rows at 0,
 * 15.  Each tile's first column and row (but the frame's) carry the dark
 * grid line. */
GST_START_TEST (test_tile_partition)
{
  static const gdouble tiles[6] = { 5, 1, 9, 5, 5, 5 };
  GstHarness *h = overlay_new ("opacity=1 show-score=false", "RGBA", 50, 30);
  GstVideoInfo info;
  GstBuffer *in, *out;

  info_for (&info, "RGBA", 50, 30);
  in = gray_frame (&info);
  add_meta (in, "laplacian", 5.0, FALSE, 3, 2, tiles);
  out = gst_harness_push_and_pull (h, in);
  check_pixel (out, &info, 15, 5, 255, 255, 0, 255, "tile 0 last column");
  check_pixel (out, &info, 16, 5, 0, 0, 0, 255, "tile 1 grid line");
  check_pixel (out, &info, 17, 5, 255, 0, 0, 255, "tile 1 second column");
  check_pixel (out, &info, 32, 5, 255, 0, 0, 255, "tile 1 last column");
  check_pixel (out, &info, 33, 5, 0, 0, 0, 255, "tile 2 grid line");
  check_pixel (out, &info, 34, 5, 0, 255, 0, 255, "tile 2 second column");
  check_pixel (out, &info, 49, 14, 0, 255, 0, 255, "tile 2 last pixel");
  check_pixel (out, &info, 20, 14, 255, 0, 0, 255, "tile 1 last row");
  check_pixel (out, &info, 20, 15, 0, 0, 0, 255, "tile 4 grid line");
  check_pixel (out, &info, 20, 16, 255, 255, 0, 255, "tile 4 second row");
  check_pixel (out, &info, 0, 0, 255, 255, 0, 255, "frame corner");
  gst_buffer_unref (out);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* blur-effect: lower is sharper, so the lowest tile score is green. */
GST_START_TEST (test_direction)
{
  GstHarness *h = overlay_new ("opacity=1 show-score=false", "RGBA", W, H);
  GstVideoInfo info;
  GstBuffer *in, *out;

  info_for (&info, "RGBA", W, H);
  in = gray_frame (&info);
  add_meta (in, "blur-effect", 0.3, FALSE, 4, 2, tiles_4x2);
  out = gst_harness_push_and_pull (h, in);
  check_pixel (out, &info, TX (0), TY (0), 0, 255, 0, 255, "lowest blur");
  check_pixel (out, &info, TX (3), TY (1), 255, 0, 0, 255, "highest blur");
  gst_buffer_unref (out);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Several metas: `metric` picks one, the default the first. */
GST_START_TEST (test_metric_choice)
{
  static const gdouble reversed[8] = { 9, 5, 5, 5, 5, 5, 5, 1 };
  GstVideoInfo info;

  info_for (&info, "RGBA", W, H);
  for (gint k = 0; k < 3; k++) {
    const gchar *props = k == 0 ? "opacity=1 show-score=false" :
        k == 1 ? "opacity=1 show-score=false metric=tenengrad" :
        "opacity=1 show-score=false metric=laplacian";
    GstHarness *h = overlay_new (props, "RGBA", W, H);
    GstBuffer *in = gray_frame (&info), *out;
    gboolean first = k != 1;

    add_meta (in, "laplacian", 5.0, FALSE, 4, 2, tiles_4x2);
    add_meta (in, "tenengrad", 5.0, FALSE, 4, 2, reversed);
    out = gst_harness_push_and_pull (h, in);
    check_pixel (out, &info, TX (0), TY (0), first ? 255 : 0,
        first ? 0 : 255, 0, 255, props);
    gst_buffer_unref (out);
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

/* Nothing to draw: the output bytes are the input bytes, no meta. */
GST_START_TEST (test_untouched)
{
  const gchar *format = formats[__i__];
  static const struct
  {
    const gchar *props;
    gboolean meta;
    gboolean roi;
  } cases[] = {
    {"", FALSE, FALSE},         /* no meta */
    {"", FALSE, TRUE},          /* an ROI without a sharpness param */
    {"enabled=false", TRUE, TRUE},
    {"opacity=0 show-score=false show-rois=false", TRUE, TRUE},
    {"show-tiles=false show-score=false", TRUE, FALSE},
    {"show-tiles=false show-score=false show-rois=false", TRUE, TRUE},
    {"metric=entropy", TRUE, TRUE},     /* no meta of that metric */
  };
  GstVideoInfo info;

  info_for (&info, format, W, H);
  for (guint k = 0; k < G_N_ELEMENTS (cases); k++) {
    GstHarness *h = overlay_new (cases[k].props, format, W, H);
    GstBuffer *in, *ref, *out;
    TestRng rng;

    test_rng_seed (&rng, 7 + k);
    in = test_video_random_frame (&info, &rng);

    if (cases[k].meta)
      add_meta (in, "laplacian", 5.0, TRUE, 4, 2, tiles_4x2);
    if (cases[k].roi)
      add_roi (in, cases[k].meta ? "laplacian" : NULL, 8, 8, 20, 20, 3.0,
          FALSE);
    ref = gst_buffer_copy_deep (in);
    out = gst_harness_push_and_pull (h, in);
    fail_unless (same_bytes (out, ref), "%s, props '%s': bytes changed",
        format, cases[k].props);
    fail_unless (gst_buffer_get_video_overlay_composition_meta (out) == NULL);
    gst_buffer_unref (ref);
    gst_buffer_unref (out);
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

/* The box of an ROI: its outline (2 pixels at this size) in cyan when
 * sharp, magenta when blurry, the inside and the rest untouched; an ROI
 * of another metric is not drawn. */
GST_START_TEST (test_roi_box)
{
  const gchar *format = formats[__i__];
  GstHarness *h = overlay_new ("show-tiles=false show-score=false", format,
      W, H);
  GstVideoInfo info;
  GstBuffer *in, *out;

  info_for (&info, format, W, H);
  in = gray_frame (&info);
  add_meta (in, "laplacian", 5.0, FALSE, 4, 2, tiles_4x2);
  add_roi (in, "laplacian", 10, 20, 30, 24, 7.5, FALSE);
  add_roi (in, "laplacian", 46, 26, 16, 16, 0.5, TRUE);
  add_roi (in, "tenengrad", 2, 30, 6, 6, 1.0, FALSE);
  out = gst_harness_push_and_pull (h, in);

  /* Chroma is shared by 2x2 pixels in I420/NV12: sample where the pixel's
   * chroma neighbours are drawn too (even coordinates inside the line). */
  check_pixel (out, &info, 10, 30, 0, 255, 255, 255, "sharp ROI left edge");
  check_pixel (out, &info, 38, 30, 0, 255, 255, 255, "sharp ROI right edge");
  check_pixel (out, &info, 24, 42, 0, 255, 255, 255, "sharp ROI bottom");
  check_gray (out, &info, 24, 32, "inside the sharp ROI");
  check_pixel (out, &info, 46, 34, 255, 0, 255, 255, "blurry ROI left edge");
  check_gray (out, &info, 54, 34, "inside the blurry ROI");
  check_gray (out, &info, 4, 32, "ROI of another metric");
  check_gray (out, &info, 4, 4, "outside");
  gst_buffer_unref (out);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* The frame score in the top-left corner on a dark box, wider with
 * BLURRY, which is drawn in red. */
GST_START_TEST (test_score_label)
{
  GstVideoInfo info;
  const gint w = 160;

  info_for (&info, "RGBA", w, H);
  for (gint blurry = 0; blurry < 2; blurry++) {
    GstHarness *h = overlay_new ("show-tiles=false", "RGBA", w, H);
    GstBuffer *in = gray_frame (&info), *out;
    guint8 px[4];
    gboolean red = FALSE;

    add_meta (in, "laplacian", 12.5, blurry, 4, 2, tiles_4x2);
    out = gst_harness_push_and_pull (h, in);
    /* The box's corner: black at alpha 176 over gray. */
    check_pixel (out, &info, 2, 2, 0, 0, 0, 176, "score box");
    /* "LAPLACIAN 12.5" ends near x = 90; "BLURRY" goes on to about 130. */
    read_pixel (out, &info, 120, 3, px);
    fail_unless ((px[1] < 64) == blurry, "label width: %u at x=120", px[1]);
    for (gint y = 3; y < 11; y++)
      for (gint x = 90; x < 131; x++) {
        read_pixel (out, &info, x, y, px);
        red |= px[1] > 200 && px[2] < 100 && px[3] < 100;
      }
    fail_unless (red == blurry, "BLURRY in red: %d", red);
    check_gray (out, &info, 150, 30, "below the label");
    gst_buffer_unref (out);
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

/* Downstream composes overlays: the composition is attached, the pixels
 * are untouched, and the composition blended by hand has the tile map. */
GST_START_TEST (test_attach_meta)
{
  const gchar *format = formats[__i__];
  GstHarness *h;
  GstVideoInfo info;
  GstBuffer *in, *ref, *out, *copy;
  GstVideoOverlayCompositionMeta *meta;
  GstVideoFrame frame;

  h = gst_harness_new ("sharpnessoverlay");
  gst_harness_add_propose_allocation_meta (h,
      GST_VIDEO_OVERLAY_COMPOSITION_META_API_TYPE, NULL);
  gst_util_set_object_arg (G_OBJECT (h->element), "opacity", "1");
  {
    gchar *caps = g_strdup_printf ("video/x-raw,format=%s,width=%d,"
        "height=%d,framerate=25/1", format, W, H);
    gst_harness_set_src_caps_str (h, caps);
    g_free (caps);
  }
  info_for (&info, format, W, H);

  in = gray_frame (&info);
  add_meta (in, "laplacian", 5.0, TRUE, 4, 2, tiles_4x2);
  add_roi (in, "laplacian", 10, 20, 30, 24, 7.5, FALSE);
  ref = gst_buffer_copy_deep (in);
  out = gst_harness_push_and_pull (h, in);

  fail_unless (same_bytes (out, ref), "pixels must be left to downstream");
  meta = gst_buffer_get_video_overlay_composition_meta (out);
  fail_unless (meta != NULL && meta->overlay != NULL);
  fail_unless_equals_int (gst_video_overlay_composition_n_rectangles
      (meta->overlay), 1);

  copy = gst_buffer_copy_deep (out);
  fail_unless (gst_video_frame_map (&frame, &info, copy, GST_MAP_READWRITE));
  fail_unless (gst_video_overlay_composition_blend (meta->overlay, &frame));
  gst_video_frame_unmap (&frame);
  check_pixel (copy, &info, TX (3), TY (0) + 8, 255, 255, 0, 255, "middle");
  check_pixel (copy, &info, TX (3), TY (1), 0, 255, 0, 255, "sharpest");
  check_pixel (copy, &info, 10, 30, 0, 255, 255, 255, "ROI edge");

  gst_buffer_unref (copy);
  gst_buffer_unref (ref);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Frames keep coming with changing scores: each is drawn from its own meta
 * (the reused canvas is cleared), including a smaller band after a
 * full-frame one. */
GST_START_TEST (test_sequence)
{
  GstHarness *h = overlay_new ("opacity=1 show-score=false", "RGBA", W, H);
  GstVideoInfo info;

  info_for (&info, "RGBA", W, H);
  for (gint i = 0; i < 6; i++) {
    GstBuffer *in = gray_frame (&info), *out;
    gdouble tiles[8] = { 5, 5, 5, 5, 5, 5, 5, 5 };

    tiles[i % 8] = 9;
    tiles[(i + 4) % 8] = 1;
    if (i == 3) {
      /* ROI only: rows 20..43 plus its label; the rest must be clean. */
      add_meta (in, "laplacian", 5.0, FALSE, 0, 0, NULL);
      add_roi (in, "laplacian", 10, 20, 30, 24, 7.5, FALSE);
    } else {
      add_meta (in, "laplacian", 5.0, FALSE, 4, 2, tiles);
    }
    out = gst_harness_push_and_pull (h, in);
    if (i == 3) {
      check_gray (out, &info, TX (3), TY (1), "no tiles this frame");
      check_gray (out, &info, 24, 32, "inside the ROI");
    } else {
      gint s = i % 8, l = (i + 4) % 8;
      check_pixel (out, &info, TX (s % 4), TY (s / 4), 0, 255, 0, 255,
          "sharpest");
      check_pixel (out, &info, TX (l % 4), TY (l / 4), 255, 0, 0, 255,
          "least sharp");
    }
    gst_buffer_unref (out);
  }
  gst_harness_teardown (h);
}

GST_END_TEST;

/* ------------------------------------------------------------------------ */
/* Absolute colours: against a threshold, not the frame's own tiles. */

/* tiles_4x2 against threshold 5 on laplacian's range [0, 1020): 1 is 4/5
 * of the way from the threshold to the blurry end 0, t = 0.25 x (1 - 0.8)
 * = 0.05, (255, 26, 0); 5 is not worse than the threshold, lime (128, 255,
 * 0); 9 is 4/5 of the way to 2 x threshold, t = 0.75 + 0.25 x 0.8 = 0.95,
 * (26, 255, 0).  Set explicitly, and by default once a threshold is set. */
GST_START_TEST (test_absolute_ramp)
{
  const gchar *props = __i__ == 0 ?
      "opacity=1 show-score=false color-mode=absolute threshold=5" :
      "opacity=1 show-score=false threshold=5";
  GstHarness *h = overlay_new (props, "RGBA", W, H);
  GstVideoInfo info;
  GstBuffer *in, *out;

  info_for (&info, "RGBA", W, H);
  in = gray_frame (&info);
  add_meta (in, "laplacian", 5.0, FALSE, 4, 2, tiles_4x2);
  out = gst_harness_push_and_pull (h, in);
  check_pixel (out, &info, TX (0), TY (0), 255, 26, 0, 255, props);
  check_pixel (out, &info, TX (1), TY (0), 128, 255, 0, 255, props);
  check_pixel (out, &info, TX (3), TY (1), 26, 255, 0, 255, props);
  gst_buffer_unref (out);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* blur-effect (lower is sharper, range [0, 1]) against 0.5: 0.9 is 4/5 of
 * the way to the blurry end 1, (255, 26, 0); 0.1 4/5 of the way to the
 * sharp end 0, (26, 255, 0); 0.5 lime; a tile without a finite score
 * yellow, a colour the absolute mode gives no score. */
GST_START_TEST (test_absolute_direction)
{
  static const gdouble tiles[8] = { 0.9, 0.5, 0.5, 0.5, NAN, 0.5, 0.5, 0.1 };
  GstHarness *h = overlay_new ("opacity=1 show-score=false threshold=0.5",
      "RGBA", W, H);
  GstVideoInfo info;
  GstBuffer *in, *out;

  info_for (&info, "RGBA", W, H);
  in = gray_frame (&info);
  add_meta (in, "blur-effect", 0.5, FALSE, 4, 2, tiles);
  out = gst_harness_push_and_pull (h, in);
  check_pixel (out, &info, TX (0), TY (0), 255, 26, 0, 255, "worst blur");
  check_pixel (out, &info, TX (1), TY (0), 128, 255, 0, 255, "at threshold");
  check_pixel (out, &info, TX (0), TY (1), 255, 255, 0, 255, "no score");
  check_pixel (out, &info, TX (3), TY (1), 26, 255, 0, 255, "least blur");
  gst_buffer_unref (out);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* color-mode=absolute without a threshold: one warning, and the tiles
 * coloured relative to the frame meanwhile. */
GST_START_TEST (test_absolute_needs_threshold)
{
  GstHarness *h = overlay_new ("opacity=1 show-score=false "
      "color-mode=absolute", "RGBA", W, H);
  GstBus *bus = gst_bus_new ();
  GstVideoInfo info;
  GstMessage *msg;

  gst_element_set_bus (h->element, bus);
  info_for (&info, "RGBA", W, H);
  for (gint i = 0; i < 2; i++) {
    GstBuffer *in = gray_frame (&info), *out;

    add_meta (in, "laplacian", 5.0, FALSE, 4, 2, tiles_4x2);
    out = gst_harness_push_and_pull (h, in);
    check_pixel (out, &info, TX (0), TY (0), 255, 0, 0, 255, "least sharp");
    check_pixel (out, &info, TX (3), TY (1), 0, 255, 0, 255, "sharpest");
    gst_buffer_unref (out);
  }
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_WARNING);
  fail_unless (msg != NULL, "no warning about the missing threshold");
  gst_message_unref (msg);
  fail_unless (gst_bus_pop_filtered (bus, GST_MESSAGE_WARNING) == NULL,
      "the warning must come once");
  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* Real scores: cudasharpness (CPU backend) scores the tiles of a sharp
 * frame and of the same frame blurred, the overlay draws them.  The frame:
 * 128x64 gray noise, 4x2 tiles of 32x32 whose noise amplitude grows from
 * tile to tile (so each frame has a least and a most sharp tile); the
 * blurred one is it through two passes of a 5x5 box filter.  Laplacian
 * tile scores: 33 to 185 sharp, 1.0 to 3.0 blurred. */
#define PW 128
#define PH 64
#define P_THRESHOLD "10"

static GstBuffer *
pattern_frame (gboolean blurred)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, PW * PH * 4, NULL);
  GRand *rand = g_rand_new_with_seed (42);
  gdouble *a = g_new (gdouble, PW * PH), *b = g_new (gdouble, PW * PH);
  GstMapInfo map;

  for (gint y = 0; y < PH; y++)
    for (gint x = 0; x < PW; x++) {
      gint tile = (y / 32) * 4 + x / 32;
      gdouble amp = 30.0 + 20.0 * tile;
      a[y * PW + x] = 128.0 + amp * (g_rand_double (rand) - 0.5);
    }
  for (gint pass = 0; blurred && pass < 2; pass++) {
    /* Horizontal then vertical running means, edges clamped. */
    for (gint y = 0; y < PH; y++)
      for (gint x = 0; x < PW; x++) {
        gdouble sum = 0.0;
        for (gint k = -2; k <= 2; k++)
          sum += a[y * PW + CLAMP (x + k, 0, PW - 1)];
        b[y * PW + x] = sum / 5.0;
      }
    for (gint y = 0; y < PH; y++)
      for (gint x = 0; x < PW; x++) {
        gdouble sum = 0.0;
        for (gint k = -2; k <= 2; k++)
          sum += b[CLAMP (y + k, 0, PH - 1) * PW + x];
        a[y * PW + x] = sum / 5.0;
      }
  }
  gst_buffer_map (buf, &map, GST_MAP_WRITE);
  for (gint i = 0; i < PW * PH; i++) {
    guint8 v = (guint8) CLAMP (lround (a[i]), 0, 255);
    map.data[4 * i] = map.data[4 * i + 1] = map.data[4 * i + 2] = v;
    map.data[4 * i + 3] = 255;
  }
  gst_buffer_unmap (buf, &map);
  g_free (a);
  g_free (b);
  g_rand_free (rand);
  return buf;
}

/* The tile scores cudasharpness attached, for the failure messages. */
static gchar *
tile_scores_string (GstBuffer * buf)
{
  gpointer state = NULL;
  GstMeta *meta;

  while ((meta = gst_buffer_iterate_meta (buf, &state)))
    if (gst_meta_info_is_custom (meta->info) &&
        gst_custom_meta_has_name ((GstCustomMeta *) meta,
            SHARPNESS_META_NAME))
      return gst_value_serialize (gst_structure_get_value
          (gst_custom_meta_get_structure ((GstCustomMeta *) meta),
              "tile-scores"));
  return g_strdup ("(no meta)");
}

static GstBuffer *
score_and_draw (const gchar * overlay_props, gboolean blurred)
{
  gchar *launch = g_strdup_printf ("cudasharpness backend=cpu "
      "metric=laplacian tiles=4x2 post-messages=false ! sharpnessoverlay "
      "opacity=1 show-score=false %s", overlay_props);
  GstHarness *h = gst_harness_new_parse (launch);
  GstBuffer *out;

  gst_harness_set_src_caps_str (h, "video/x-raw,format=RGBA,width=128,"
      "height=64,framerate=25/1");
  out = gst_harness_push_and_pull (h, pattern_frame (blurred));
  fail_unless (out != NULL, "%s: no output", launch);
  gst_harness_teardown (h);
  g_free (launch);
  return out;
}

GST_START_TEST (test_absolute_scored_frames)
{
  GstVideoInfo info;

  info_for (&info, "RGBA", PW, PH);
  for (gint blurred = 0; blurred < 2; blurred++) {
    GstBuffer *out = score_and_draw ("color-mode=absolute threshold="
        P_THRESHOLD, blurred);
    gchar *scores = tile_scores_string (out);

    for (gint t = 0; t < 8; t++) {
      gint x = (t % 4) * 32 + 16, y = (t / 4) * 32 + 16;
      guint8 px[4];

      read_pixel (out, &info, x, y, px);
      if (blurred)
        fail_unless (px[1] >= 200 && px[2] <= 128 && px[3] <= 40,
            "blurred frame, tile %d: (%u, %u, %u) is not red; threshold "
            P_THRESHOLD ", tile scores %s", t, px[1], px[2], px[3], scores);
      else
        fail_unless (px[2] >= 200 && px[1] <= 128 && px[3] <= 40,
            "sharp frame, tile %d: (%u, %u, %u) is not green; threshold "
            P_THRESHOLD ", tile scores %s", t, px[1], px[2], px[3], scores);
    }
    g_free (scores);
    gst_buffer_unref (out);
  }
}

GST_END_TEST;

/* The relative mode keeps the old behaviour, for the same two frames: each
 * has its own red (first tile, the faintest noise) and green (last tile)
 * tile, the blurred frame as green as the sharp one. */
GST_START_TEST (test_relative_scored_frames)
{
  GstVideoInfo info;

  info_for (&info, "RGBA", PW, PH);
  for (gint blurred = 0; blurred < 2; blurred++) {
    GstBuffer *out = score_and_draw ("color-mode=relative threshold="
        P_THRESHOLD, blurred);

    check_pixel (out, &info, 16, 16, 255, 0, 0, 255, blurred ?
        "blurred, least sharp tile" : "sharp, least sharp tile");
    check_pixel (out, &info, 112, 48, 0, 255, 0, 255, blurred ?
        "blurred, sharpest tile" : "sharp, sharpest tile");
    gst_buffer_unref (out);
  }
}

GST_END_TEST;

/* ------------------------------------------------------------------------ */
/* Text size. */

/* Height in pixels of the white glyph rows drawn (the score label's text,
 * white on its dark box over the gray frame): first to last row with a
 * white pixel. */
static gint
glyph_rows_height (GstBuffer * buf, gint w, gint h)
{
  GstMapInfo map;
  gint first = -1, last = -1;

  gst_buffer_map (buf, &map, GST_MAP_READ);
  for (gint y = 0; y < h; y++) {
    const guint8 *row = map.data + (gsize) y * w * 4;
    for (gint x = 0; x < w; x++)
      if (row[4 * x] > 200 && row[4 * x + 1] > 200 && row[4 * x + 2] > 200) {
        if (first < 0)
          first = y;
        last = y;
        break;
      }
  }
  gst_buffer_unmap (buf, &map);
  return first < 0 ? 0 : last - first + 1;
}

static gint
label_height (const gchar * props, gint w, gint h)
{
  GstHarness *harness = overlay_new (props, "RGBA", w, h);
  GstVideoInfo info;
  GstBuffer *in, *out;
  gint rows;

  info_for (&info, "RGBA", w, h);
  in = gray_frame (&info);
  add_meta (in, "laplacian", 12.5, FALSE, 0, 0, NULL);
  out = gst_harness_push_and_pull (harness, in);
  rows = glyph_rows_height (out, w, h);
  gst_buffer_unref (out);
  gst_harness_teardown (harness);
  return rows;
}

/* The automatic size grows with the frame: at least the font's 7 pixels on
 * a small frame, at least 2 % of the height from 720 lines up (a label
 * readable on a wall or in a multiviewer tile); text-scale overrides it. */
GST_START_TEST (test_text_size)
{
  static const struct
  {
    gint w, h;
  } sizes[] = { {320, 240}, {1280, 720}, {1920, 1080} };
  gint rows[G_N_ELEMENTS (sizes)];

  for (guint i = 0; i < G_N_ELEMENTS (sizes); i++) {
    rows[i] = label_height ("show-tiles=false", sizes[i].w, sizes[i].h);
    GST_INFO ("%dx%d: label glyphs %d pixels high", sizes[i].w, sizes[i].h,
        rows[i]);
    fail_unless (rows[i] >= 7, "%dx%d: glyphs %d pixels high, below 7",
        sizes[i].w, sizes[i].h, rows[i]);
    if (i > 0)
      fail_unless (rows[i] > rows[i - 1], "%dx%d: glyphs %d pixels high, "
          "not more than the %d of %d lines", sizes[i].w, sizes[i].h,
          rows[i], rows[i - 1], sizes[i - 1].h);
    if (sizes[i].h >= 720)
      fail_unless (rows[i] >= 0.02 * sizes[i].h, "%dx%d: glyphs %d pixels "
          "high, below 2 %% of the height", sizes[i].w, sizes[i].h, rows[i]);
  }
  fail_unless_equals_int (label_height ("show-tiles=false text-scale=1",
          1920, 1080), 7);
  fail_unless_equals_int (label_height ("show-tiles=false text-scale=5",
          320, 240), 35);
}

GST_END_TEST;

/* ------------------------------------------------------------------------ */
/* The direct blend of the tile grid against GStreamer's generic blend. */

/* Largest difference allowed between the direct blend and
 * gst_video_overlay_composition_blend, in levels of the format.  Both do
 * the same integer arithmetic: the 8-bit formats agree exactly (measured 0;
 * 1 allowed).  In the 16-bit blend an "opaque" overlay pixel (alpha 255 <<
 * 8) keeps 255/65535 of what lies under it, so where a box or a glyph is
 * drawn over the already blended grid (instead of replacing it on one
 * canvas) the 16-bit result may move by up to 256, i.e. 5 levels of 10 bits
 * after truncation (measured at most 3); everywhere else the 10-bit
 * formats agree exactly too. */
#define FAST_TOL_8 1
#define FAST_TOL_10 5

static const gchar *fast_formats[] = {
  "GRAY8", "I420", "YV12", "Y42B", "Y444", "NV12", "NV21",
  "RGBA", "BGRA", "ARGB", "ABGR", "RGBx", "BGRx", "xRGB", "xBGR", "RGB",
  "BGR", "P010_10LE", "I420_10LE",
};

static const struct
{
  gint w, h;
  guint cols, rows;
  const gchar *props;
  gboolean rois;
  gboolean blurry;
} fast_cases[] = {
  /* Odd size, tiles of 13x15 with grid lines, odd tile edges, the score
   * label over the grid (a hole in the direct blend), two ROIs. */
  {67, 45, 5, 3, "opacity=0.4", TRUE, FALSE},
  /* Tiles of 8 or 9 x 7 or 8 pixels: grid lines on some tiles only;
   * opaque grid. */
  {67, 45, 8, 6, "opacity=1 show-score=false", FALSE, FALSE},
  /* An odd alpha, BLURRY in the label (a wider hole), tiles of 7 x 6 or
   * 7 pixels: no grid lines. */
  {50, 34, 7, 5, "opacity=0.73 text-scale=1", TRUE, TRUE},
  /* More tiles than columns: empty tiles. */
  {20, 18, 32, 4, "opacity=0.5 show-score=false", FALSE, FALSE},
};

static gboolean fast_path_seen;

#ifndef GST_DISABLE_GST_DEBUG
static void
fast_path_log (GstDebugCategory * category, GstDebugLevel level,
    const gchar * file, const gchar * function, gint line, GObject * object,
    GstDebugMessage * message, gpointer user_data)
{
  const gchar *text = gst_debug_message_get (message);

  if (g_strcmp0 (gst_debug_category_get_name (category),
          "sharpnessoverlay") == 0 && text &&
      strstr (text, "blended directly"))
    g_atomic_int_set (&fast_path_seen, TRUE);
}
#endif

/* Random samples, valid for the format: 10-bit values where the format
 * keeps them; in 4-byte RGB formats with alpha every other pixel opaque
 * (the direct blend's table path) and the others any alpha (video-blend's
 * "over"); the padding byte of RGBx & co. 255, as producers write it
 * (GStreamer 1.22's blender reads other values as alpha, which the direct
 * blend follows, but that is no behaviour to pin down here). */
static GstBuffer *
random_valid_frame (const GstVideoInfo * info, guint32 seed)
{
  GstVideoFormat format = GST_VIDEO_INFO_FORMAT (info);
  GstVideoFrame frame;
  GstBuffer *buf;
  TestRng rng;

  test_rng_seed (&rng, seed);
  buf = test_video_random_frame (info, &rng);

  fail_unless (gst_video_frame_map (&frame, (GstVideoInfo *) info, buf,
          GST_MAP_READWRITE));
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (&frame); p++) {
    guint8 *data = GST_VIDEO_FRAME_PLANE_DATA (&frame, p);
    gint stride = GST_VIDEO_FRAME_PLANE_STRIDE (&frame, p);
    gint comp[GST_VIDEO_MAX_COMPONENTS];
    gint rows, bytes;

    gst_video_format_info_component (info->finfo, p, comp);
    rows = GST_VIDEO_FRAME_COMP_HEIGHT (&frame, comp[0]);
    bytes = GST_VIDEO_FRAME_COMP_WIDTH (&frame, comp[0]) *
        GST_VIDEO_FRAME_COMP_PSTRIDE (&frame, comp[0]);
    for (gint y = 0; y < rows; y++) {
      guint8 *row = data + (gsize) y * stride;
      for (gint i = 0; i + 1 < bytes; i += 2) {
        guint16 v = GST_READ_UINT16_LE (row + i);
        if (format == GST_VIDEO_FORMAT_P010_10LE)
          GST_WRITE_UINT16_LE (row + i, v & 0xffc0);
        else if (format == GST_VIDEO_FORMAT_I420_10LE)
          GST_WRITE_UINT16_LE (row + i, v & 0x03ff);
      }
      if (GST_VIDEO_FRAME_COMP_PSTRIDE (&frame, 0) == 4 &&
          GST_VIDEO_INFO_IS_RGB (info) && GST_VIDEO_INFO_HAS_ALPHA (info)) {
        for (gint x = 0; x < GST_VIDEO_FRAME_WIDTH (&frame); x += 2)
          memset (row + 4 * x, 255, 4);       /* opaque white */
      } else if (GST_VIDEO_FRAME_COMP_PSTRIDE (&frame, 0) == 4 &&
          GST_VIDEO_INFO_IS_RGB (info)) {
        gint pad = 6 - GST_VIDEO_INFO_COMP_POFFSET (info, 0) -
            GST_VIDEO_INFO_COMP_POFFSET (info, 1) -
            GST_VIDEO_INFO_COMP_POFFSET (info, 2);
        for (gint x = 0; x < GST_VIDEO_FRAME_WIDTH (&frame); x++)
          row[4 * x + pad] = 255;
      }
    }
  }
  gst_video_frame_unmap (&frame);
  return buf;
}

/* The largest difference between two frames over every unpacked component
 * (alpha or padding byte included), in levels of the format; counts the
 * samples of @a that differ from @orig in @changed. */
static gint
max_level_diff (GstBuffer * a, GstBuffer * b, GstBuffer * orig,
    const GstVideoInfo * info, gint * changed)
{
  const GstVideoFormatInfo *unpack =
      gst_video_format_get_info (info->finfo->unpack_format);
  gboolean wide = GST_VIDEO_FORMAT_INFO_BITS (unpack) > 8;
  gint w = GST_VIDEO_INFO_WIDTH (info), h = GST_VIDEO_INFO_HEIGHT (info);
  gint shift = wide ? 16 - GST_VIDEO_INFO_COMP_DEPTH (info, 0) : 0;
  guint8 *la = g_malloc ((w + 8) * 8), *lb = g_malloc ((w + 8) * 8),
      *lo = g_malloc ((w + 8) * 8);
  GstVideoFrame fa, fb, fo;
  gint worst = 0;

  *changed = 0;
  fail_unless (gst_video_frame_map (&fa, (GstVideoInfo *) info, a,
          GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fb, (GstVideoInfo *) info, b,
          GST_MAP_READ));
  fail_unless (gst_video_frame_map (&fo, (GstVideoInfo *) info, orig,
          GST_MAP_READ));
  for (gint y = 0; y < h; y++) {
    info->finfo->unpack_func (info->finfo, GST_VIDEO_PACK_FLAG_NONE, la,
        fa.data, fa.info.stride, 0, y, w);
    info->finfo->unpack_func (info->finfo, GST_VIDEO_PACK_FLAG_NONE, lb,
        fb.data, fb.info.stride, 0, y, w);
    info->finfo->unpack_func (info->finfo, GST_VIDEO_PACK_FLAG_NONE, lo,
        fo.data, fo.info.stride, 0, y, w);
    for (gint i = 0; i < 4 * w; i++) {
      gint va = wide ? ((guint16 *) la)[i] >> shift : la[i];
      gint vb = wide ? ((guint16 *) lb)[i] >> shift : lb[i];
      gint vo = wide ? ((guint16 *) lo)[i] >> shift : lo[i];
      worst = MAX (worst, ABS (va - vb));
      *changed += va != vo;
    }
  }
  gst_video_frame_unmap (&fa);
  gst_video_frame_unmap (&fb);
  gst_video_frame_unmap (&fo);
  g_free (la);
  g_free (lb);
  g_free (lo);
  return worst;
}

GST_START_TEST (test_fast_vs_blend)
{
  const gchar *format = fast_formats[__i__ % G_N_ELEMENTS (fast_formats)];
  guint k = __i__ / G_N_ELEMENTS (fast_formats);
  gint w = fast_cases[k].w, hh = fast_cases[k].h;
  guint cols = fast_cases[k].cols, rows = fast_cases[k].rows;
  gdouble *tiles = g_new (gdouble, cols * rows);
  GstHarness *fast, *attach;
  GstVideoInfo info;
  GstBuffer *in, *in2, *ref, *out_fast, *out_attach;
  GstVideoOverlayCompositionMeta *meta;
  GstVideoFrame frame;
  gint worst, changed;
  gchar *caps;

  info_for (&info, format, w, hh);
  /* Scores spread over the ramp, two equal extremes, one not finite. */
  for (guint i = 0; i < cols * rows; i++)
    tiles[i] = (i * 37) % 11;
  tiles[cols * rows / 2] = NAN;

  fast = overlay_new (fast_cases[k].props, format, w, hh);
  attach = gst_harness_new ("sharpnessoverlay");
  gst_harness_add_propose_allocation_meta (attach,
      GST_VIDEO_OVERLAY_COMPOSITION_META_API_TYPE, NULL);
  test_video_set_properties (attach->element, fast_cases[k].props);
  caps = g_strdup_printf ("video/x-raw,format=%s,width=%d,height=%d,"
      "framerate=25/1", format, w, hh);
  gst_harness_set_src_caps_str (attach, caps);
  g_free (caps);

  in = random_valid_frame (&info, 1000 + __i__);
  add_meta (in, "laplacian", 12.5, fast_cases[k].blurry, cols, rows, tiles);
  if (fast_cases[k].rois) {
    add_roi (in, "laplacian", 9, 19, 30, 20, 7.5, FALSE);
    add_roi (in, "laplacian", w - 17, hh - 15, 14, 12, 0.5, TRUE);
  }
  in2 = gst_buffer_copy_deep (in);
  ref = gst_buffer_copy_deep (in);

#ifndef GST_DISABLE_GST_DEBUG
  /* Which path the element took, from its LOG line for this one frame
   * (the default printer is off meanwhile: no LOG noise in the test log). */
  g_atomic_int_set (&fast_path_seen, FALSE);
  gst_debug_remove_log_function (gst_debug_log_default);
  gst_debug_add_log_function (fast_path_log, NULL, NULL);
  gst_debug_set_threshold_for_name ("sharpnessoverlay", GST_LEVEL_LOG);
  out_fast = gst_harness_push_and_pull (fast, in);
  gst_debug_unset_threshold_for_name ("sharpnessoverlay");
  gst_debug_remove_log_function (fast_path_log);
  gst_debug_add_log_function (gst_debug_log_default, NULL, NULL);
  fail_unless (g_atomic_int_get (&fast_path_seen),
      "%s: the tile grid was not blended directly", format);
#else
  out_fast = gst_harness_push_and_pull (fast, in);
#endif
  fail_unless (out_fast != NULL);

  /* The generic path: the composition blended by GStreamer. */
  out_attach = gst_harness_push_and_pull (attach, in2);
  meta = gst_buffer_get_video_overlay_composition_meta (out_attach);
  fail_unless (meta != NULL && meta->overlay != NULL);
  fail_unless (gst_video_frame_map (&frame, &info, ref, GST_MAP_READWRITE));
  fail_unless (gst_video_overlay_composition_blend (meta->overlay, &frame));
  gst_video_frame_unmap (&frame);

  worst = max_level_diff (out_fast, ref, out_attach, &info, &changed);
  GST_INFO ("%s %dx%d %ux%u '%s': max difference %d, %d samples drawn",
      format, w, hh, cols, rows, fast_cases[k].props, worst, changed);
  fail_unless (worst <= (GST_VIDEO_INFO_COMP_DEPTH (&info, 0) > 8 ?
          FAST_TOL_10 : FAST_TOL_8), "%s %dx%d %ux%u '%s': direct blend %d "
      "levels away from gst_video_overlay_composition_blend", format, w, hh,
      cols, rows, fast_cases[k].props, worst);
  /* Not vacuous: the grid changed most of the frame (luma at least). */
  fail_unless (changed > w * hh / 2, "%s: only %d samples drawn", format,
      changed);

  gst_buffer_unref (ref);
  gst_buffer_unref (out_fast);
  gst_buffer_unref (out_attach);
  gst_harness_teardown (fast);
  gst_harness_teardown (attach);
  g_free (tiles);
}

GST_END_TEST;

/* CUDA-memory caps without a composing downstream: the frame is drawn on
 * through a host mapping (here plain system memory stands in for it), and
 * one warning says it is slow and what to do instead. */
GST_START_TEST (test_cuda_host_map_warning)
{
  GstHarness *h = gst_harness_new ("sharpnessoverlay");
  GstBus *bus = gst_bus_new ();
  GstVideoInfo info;
  GstMessage *msg;
  GError *err = NULL;
  gchar *dbg = NULL;

  gst_element_set_bus (h->element, bus);
  gst_util_set_object_arg (G_OBJECT (h->element), "opacity", "1");
  gst_harness_set_src_caps_str (h, "video/x-raw(memory:CUDAMemory),"
      "format=NV12,width=64,height=48,framerate=25/1");
  info_for (&info, "NV12", W, H);
  for (gint i = 0; i < 2; i++) {
    GstBuffer *in = gray_frame (&info), *out;

    add_meta (in, "laplacian", 5.0, FALSE, 4, 2, tiles_4x2);
    out = gst_harness_push_and_pull (h, in);
    check_pixel (out, &info, TX (3), TY (1), 0, 255, 0, 255, "sharpest");
    gst_buffer_unref (out);
  }
  msg = gst_bus_pop_filtered (bus, GST_MESSAGE_WARNING);
  fail_unless (msg != NULL, "no warning about the host mapping");
  gst_message_parse_warning (msg, &err, &dbg);
  fail_unless (strstr (err->message, "cudadownload ! sharpnessoverlay") &&
      strstr (err->message, "composes overlays"), "warning: %s",
      err->message);
  g_error_free (err);
  g_free (dbg);
  gst_message_unref (msg);
  fail_unless (gst_bus_pop_filtered (bus, GST_MESSAGE_WARNING) == NULL,
      "the warning must come once");

  gst_element_set_bus (h->element, NULL);
  gst_object_unref (bus);
  gst_harness_teardown (h);
}

GST_END_TEST;

/* CUDA memory takes every format of the shared table's CUDA column
 * (sharpness-formats.h), the packed 4:2:2 ones included (drawn through the
 * host mapping); GRAY8, which GStreamer's CUDA allocator cannot lay out,
 * stays refused at negotiation. */
GST_START_TEST (test_cuda_formats)
{
  const gchar *drawn[] = { "YUY2", "UYVY", "NV12" };

  for (guint f = 0; f < G_N_ELEMENTS (drawn); f++) {
    GstHarness *h = gst_harness_new ("sharpnessoverlay");
    gchar *caps = g_strdup_printf ("video/x-raw(memory:CUDAMemory),"
        "format=%s,width=%d,height=%d,framerate=25/1", drawn[f], W, H);
    GstVideoInfo info;
    GstBuffer *in, *out;

    gst_util_set_object_arg (G_OBJECT (h->element), "opacity", "1");
    gst_harness_set_src_caps_str (h, caps);
    info_for (&info, drawn[f], W, H);
    in = gray_frame (&info);
    add_meta (in, "laplacian", 5.0, FALSE, 4, 2, tiles_4x2);
    out = gst_harness_push_and_pull (h, in);
    fail_unless (out != NULL, "%s in CUDA memory: no frame out", drawn[f]);
    check_pixel (out, &info, TX (3), TY (1), 0, 255, 0, 255, drawn[f]);
    gst_buffer_unref (out);
    gst_harness_teardown (h);
    g_free (caps);
  }
  {
    GstHarness *h = gst_harness_new ("sharpnessoverlay");
    GstVideoInfo info;

    gst_harness_set_src_caps_str (h, "video/x-raw(memory:CUDAMemory),"
        "format=GRAY8,width=64,height=48,framerate=25/1");
    info_for (&info, "GRAY8", W, H);
    fail_unless_equals_int (gst_harness_push (h, gray_frame (&info)),
        GST_FLOW_NOT_NEGOTIATED);
    gst_harness_teardown (h);
  }
}

GST_END_TEST;

static Suite *
overlay_suite (void)
{
  Suite *s = suite_create ("sharpnessoverlay");
  TCase *tc = tcase_create ("general");

  /* Loading the plugin registers the meta, before any test builds one. */
  {
    GstPluginFeature *f = GST_PLUGIN_FEATURE (gst_element_factory_find
        ("sharpnessoverlay"));
    GstPluginFeature *loaded = f ? gst_plugin_feature_load (f) : NULL;

    g_assert (loaded != NULL);
    g_assert (gst_meta_get_info (SHARPNESS_META_NAME) != NULL);
    gst_object_unref (loaded);
    gst_object_unref (f);
  }

  suite_add_tcase (s, tc);
  tcase_add_loop_test (tc, test_tile_colours, 0, 2 * G_N_ELEMENTS (formats));
  tcase_add_test (tc, test_tile_partition);
  tcase_add_test (tc, test_direction);
  tcase_add_test (tc, test_metric_choice);
  tcase_add_loop_test (tc, test_untouched, 0, G_N_ELEMENTS (formats));
  tcase_add_loop_test (tc, test_roi_box, 0, G_N_ELEMENTS (formats));
  tcase_add_test (tc, test_score_label);
  tcase_add_loop_test (tc, test_attach_meta, 0, G_N_ELEMENTS (formats));
  tcase_add_test (tc, test_sequence);
  tcase_add_loop_test (tc, test_absolute_ramp, 0, 2);
  tcase_add_test (tc, test_absolute_direction);
  tcase_add_test (tc, test_absolute_needs_threshold);
  tcase_add_test (tc, test_absolute_scored_frames);
  tcase_add_test (tc, test_relative_scored_frames);
  tcase_add_test (tc, test_text_size);
  tcase_add_loop_test (tc, test_fast_vs_blend, 0,
      G_N_ELEMENTS (fast_formats) * G_N_ELEMENTS (fast_cases));
  tcase_add_test (tc, test_cuda_host_map_warning);
  tcase_add_test (tc, test_cuda_formats);
  return s;
}

GST_CHECK_MAIN (overlay);
