/* bench-overlay: what sharpnessoverlay costs per frame when downstream does
 * not compose overlays, GStreamer's generic blend (the element's former
 * path) against the direct tile-grid blend (sharpness-overlay-blend.c).
 * A benchmark program, not a test: built, run by hand.
 *
 *   bench-overlay [WIDTHxHEIGHT] [COLSxROWS] [FRAMES]
 *
 * (default 1920x1080, 8x4 tiles, 200 frames for the direct path and a
 * tenth of that, at least 10, for the generic one), formats I420, NV12
 * and RGBA, default properties (opacity 0.4, the score label on).
 *
 * Generic: the element attaches its composition (a downstream that
 * announces GstVideoOverlayCompositionMeta), then
 * gst_video_overlay_composition_blend draws it into the frame: the work of
 * the element before the direct blend.  Direct: the element blends the grid
 * itself and only the label goes through GStreamer's blender.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gst/gst.h>
#include <gst/check/gstharness.h>
#include <gst/video/video.h>

#define SHARPNESS_META_NAME "GstSharpnessMeta"

static GstBuffer *
make_frame (const GstVideoInfo * info, guint cols, guint rows)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, info->size, NULL);
  GstCustomMeta *meta;
  GstStructure *s;
  GValue arr = G_VALUE_INIT;
  GstMapInfo map;
  GRand *rand = g_rand_new_with_seed (1);

  /* Random content, opaque where there is alpha. */
  gst_buffer_map (buf, &map, GST_MAP_WRITE);
  for (gsize i = 0; i < map.size; i++)
    map.data[i] = (guint8) g_rand_int (rand);
  if (GST_VIDEO_INFO_HAS_ALPHA (info))
    for (gsize i = 3; i < map.size; i += 4)
      map.data[i] = 255;
  gst_buffer_unmap (buf, &map);

  meta = gst_buffer_add_custom_meta (buf, SHARPNESS_META_NAME);
  if (!meta) {
    g_printerr ("GstSharpnessMeta is not registered: is the plugin "
        "(GST_PLUGIN_PATH) found?\n");
    exit (1);
  }
  s = gst_custom_meta_get_structure (meta);
  gst_value_array_init (&arr, cols * rows);
  for (guint i = 0; i < cols * rows; i++) {
    GValue v = G_VALUE_INIT;
    g_value_init (&v, G_TYPE_DOUBLE);
    g_value_set_double (&v, g_rand_double (rand));
    gst_value_array_append_and_take_value (&arr, &v);
  }
  gst_structure_set (s, "metric", G_TYPE_STRING, "laplacian",
      "score", G_TYPE_DOUBLE, 0.5, "blurry", G_TYPE_BOOLEAN, FALSE,
      "tiles-cols", G_TYPE_UINT, cols, "tiles-rows", G_TYPE_UINT, rows, NULL);
  gst_structure_take_value (s, "tile-scores", &arr);
  g_rand_free (rand);
  return buf;
}

static GstHarness *
make_harness (const GstVideoInfo * info, gboolean compose)
{
  GstHarness *h = gst_harness_new ("sharpnessoverlay");
  GstCaps *caps = gst_video_info_to_caps (info);

  if (compose)
    gst_harness_add_propose_allocation_meta (h,
        GST_VIDEO_OVERLAY_COMPOSITION_META_API_TYPE, NULL);
  gst_harness_set_src_caps (h, caps);
  return h;
}

/* Milliseconds per frame; the same buffer goes round (its pixels change,
 * their cost does not). */
static gdouble
run (const GstVideoInfo * info, guint cols, guint rows, gboolean generic,
    guint frames)
{
  GstHarness *h = make_harness (info, generic);
  GstBuffer *buf = make_frame (info, cols, rows);
  gint64 t0 = 0;

  for (guint i = 0; i < frames + 2; i++) {
    if (i == 2)
      t0 = g_get_monotonic_time ();     /* after two warm-up frames */
    buf = gst_harness_push_and_pull (h, buf);
    if (generic) {
      GstVideoOverlayCompositionMeta *meta =
          gst_buffer_get_video_overlay_composition_meta (buf);
      GstVideoFrame frame;

      if (!meta || !gst_video_frame_map (&frame, (GstVideoInfo *) info, buf,
              GST_MAP_READWRITE)) {
        g_printerr ("no composition attached\n");
        exit (1);
      }
      gst_video_overlay_composition_blend (meta->overlay, &frame);
      gst_video_frame_unmap (&frame);
      gst_buffer_remove_meta (buf, (GstMeta *) meta);
    }
  }
  t0 = g_get_monotonic_time () - t0;
  gst_buffer_unref (buf);
  gst_harness_teardown (h);
  return t0 / 1000.0 / frames;
}

int
main (int argc, char **argv)
{
  static const gchar *formats[] = { "I420", "NV12", "RGBA" };
  guint w = 1920, hgt = 1080, cols = 8, rows = 4, frames = 200;
  gchar *cpu = NULL, *load = NULL;

  if (!g_getenv ("GST_PLUGIN_PATH_1_0") && !g_getenv ("GST_PLUGIN_PATH"))
    g_setenv ("GST_PLUGIN_PATH_1_0", BENCH_PLUGIN_DIR, TRUE);
  gst_init (&argc, &argv);
  if (argc > 1 && sscanf (argv[1], "%ux%u", &w, &hgt) != 2)
    goto usage;
  if (argc > 2 && sscanf (argv[2], "%ux%u", &cols, &rows) != 2)
    goto usage;
  if (argc > 3 && (frames = (guint) atoi (argv[3])) == 0)
    goto usage;

  /* Where it ran: the numbers mean little without it. */
  if (g_file_get_contents ("/proc/cpuinfo", &cpu, NULL, NULL)) {
    gchar *m = strstr (cpu, "model name");
    gchar *e = m ? strchr (m, '\n') : NULL;
    if (e)
      *e = '\0';
    printf ("cpu: %s, %u threads\n", m ? strchr (m, ':') + 2 : "?",
        g_get_num_processors ());
  }
  if (g_file_get_contents ("/proc/loadavg", &load, NULL, NULL))
    printf ("load average at start: %s", load);
  printf ("%ux%u, %ux%u tiles, opacity 0.4, score label; ms per frame\n",
      w, hgt, cols, rows);

  for (guint f = 0; f < G_N_ELEMENTS (formats); f++) {
    GstVideoInfo info;
    gdouble generic, direct;

    gst_video_info_set_format (&info, gst_video_format_from_string
        (formats[f]), w, hgt);
    generic = run (&info, cols, rows, TRUE, MAX (frames / 10, 10));
    direct = run (&info, cols, rows, FALSE, frames);
    printf ("%-5s generic blend %8.2f   direct %7.2f   (%.0fx)\n",
        formats[f], generic, direct, generic / direct);
  }
  g_clear_pointer (&load, g_free);
  if (g_file_get_contents ("/proc/loadavg", &load, NULL, NULL))
    printf ("load average at end: %s", load);
  g_free (cpu);
  g_free (load);
  return 0;

usage:
  g_printerr ("usage: %s [WIDTHxHEIGHT] [COLSxROWS] [FRAMES]\n", argv[0]);
  return 2;
}
