/* A GstHarness around cudasharpness, for the element tests.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SHARPNESS_HARNESS_H
#define SHARPNESS_HARNESS_H

#include <math.h>

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>

#include "test-video.h"

/* cudasharpness with backend=cpu, then @props ("name=value ..."), and a
 * bus of its own in @bus (the harness has none). */
static inline GstHarness *
harness_new (GstBus ** bus, const gchar * props)
{
  GstElement *e = gst_element_factory_make ("cudasharpness", NULL);
  GstHarness *h;

  fail_unless (e != NULL, "cudasharpness is not available");
  gst_util_set_object_arg (G_OBJECT (e), "backend", "cpu");
  test_video_set_properties (e, props);

  *bus = gst_bus_new ();
  gst_element_set_bus (e, *bus);
  h = gst_harness_new_with_element (e, "sink", "src");
  gst_object_unref (e);
  return h;
}

static inline void
harness_free (GstHarness * h, GstBus * bus)
{
  /* Queued messages hold the element: drop them first. */
  gst_bus_set_flushing (bus, TRUE);
  gst_harness_teardown (h);
  gst_object_unref (bus);
}

/* The GstSharpnessMeta of @buf as a structure; fails the test if none. */
static inline GstStructure *
harness_meta_structure (GstBuffer * buf)
{
  GstCustomMeta *meta = gst_buffer_get_custom_meta (buf, "GstSharpnessMeta");

  fail_unless (meta != NULL, "buffer has no GstSharpnessMeta");
  return gst_custom_meta_get_structure (meta);
}

/* Reads @field of @s, a @type, into *@out; fails the test if @s has no
 * such field of that type. */
static inline void
harness_get (const GstStructure * s, const gchar * field, GType type,
    gpointer out)
{
  fail_unless (gst_structure_get (s, field, type, out, NULL),
      "no %s %s in %" GST_PTR_FORMAT, g_type_name (type), field, s);
}

static inline guint64
harness_get_uint64 (const GstStructure * s, const gchar * field)
{
  guint64 v = G_MAXUINT64;
  harness_get (s, field, G_TYPE_UINT64, &v);
  return v;
}

static inline gdouble
harness_get_double (const GstStructure * s, const gchar * field)
{
  gdouble v = NAN;
  harness_get (s, field, G_TYPE_DOUBLE, &v);
  return v;
}

#endif /* SHARPNESS_HARNESS_H */
