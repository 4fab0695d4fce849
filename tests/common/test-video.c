/* GStreamer helpers of the element and glue tests.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "test-video.h"

#include <gst/check/gstcheck.h>

void
test_video_set_properties (GstElement * element, const gchar * props)
{
  gchar **words = g_strsplit (props ? props : "", " ", -1);

  for (gchar ** w = words; *w; w++) {
    gchar **pair;

    if (!**w)
      continue;
    pair = g_strsplit (*w, "=", 2);
    fail_unless (pair[1] != NULL, "property \"%s\" has no value", *w);
    gst_util_set_object_arg (G_OBJECT (element), pair[0], pair[1]);
    g_strfreev (pair);
  }
  g_strfreev (words);
}

void
test_video_set_caps (GstHarness * h, GstVideoFormat format, gint width,
    gint height)
{
  gst_harness_set_src_caps (h, gst_caps_new_simple ("video/x-raw",
          "format", G_TYPE_STRING, gst_video_format_to_string (format),
          "width", G_TYPE_INT, width, "height", G_TYPE_INT, height,
          "framerate", GST_TYPE_FRACTION, 25, 1, NULL));
}

GstBuffer *
test_video_random_frame (const GstVideoInfo * info, TestRng * rng)
{
  GstBuffer *buf = gst_buffer_new_allocate (NULL, info->size, NULL);
  GstMapInfo map;

  if (!gst_buffer_map (buf, &map, GST_MAP_WRITE))
    g_error ("cannot map a new %" G_GSIZE_FORMAT "-byte buffer", info->size);
  for (gsize i = 0; i < map.size; i++)
    map.data[i] = (guint8) test_rng_u32 (rng);
  gst_buffer_unmap (buf, &map);
  return buf;
}
