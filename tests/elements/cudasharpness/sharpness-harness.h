/* A GstHarness around cudasharpness, for the element tests.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SHARPNESS_HARNESS_H
#define SHARPNESS_HARNESS_H

#include <gst/check/gstcheck.h>
#include <gst/check/gstharness.h>

/* cudasharpness with backend=cpu, then @props ("name=value ..."), and a
 * bus of its own in @bus (the harness has none). */
static inline GstHarness *
harness_new (GstBus ** bus, const gchar * props)
{
  GstElement *e = gst_element_factory_make ("cudasharpness", NULL);
  gchar **kv = g_strsplit (props ? props : "", " ", -1);
  GstHarness *h;

  fail_unless (e != NULL, "cudasharpness is not available");
  gst_util_set_object_arg (G_OBJECT (e), "backend", "cpu");
  for (gchar ** p = kv; *p; p++) {
    gchar **pair = g_strsplit (*p, "=", 2);
    if (pair[0] && pair[1])
      gst_util_set_object_arg (G_OBJECT (e), pair[0], pair[1]);
    g_strfreev (pair);
  }
  g_strfreev (kv);

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

#endif /* SHARPNESS_HARNESS_H */
