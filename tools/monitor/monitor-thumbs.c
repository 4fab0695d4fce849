/* sharpness-monitor: the thumbnail of an event.  Where the element gives
 * its events a `thumbnail` field (its event-thumbnails property: the JPEG
 * of the stretch's first or worst frame, encoded off its streaming
 * thread), that one; otherwise the channel's last thumbnail (about one a
 * second, scaled and encoded on the thumbnail branch's own thread).  This
 * is the one function to change when the source of thumbnails changes.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "monitor-app.h"

GstSample *
monitor_thumbnail_for_event (MonitorChannel * c, GstMessage * event_message)
{
  const GstStructure *s = event_message ?
      gst_message_get_structure (event_message) : NULL;
  const GValue *v = s ? gst_structure_get_value (s, "thumbnail") : NULL;

  if (v && G_VALUE_HOLDS (v, GST_TYPE_SAMPLE) && gst_value_get_sample (v))
    return gst_sample_ref (gst_value_get_sample (v));
  return monitor_channel_get_thumbnail (c, NULL);
}

GBytes *
monitor_thumbnail_bytes (GstSample * jpeg)
{
  GstBuffer *buf = jpeg ? gst_sample_get_buffer (jpeg) : NULL;
  GstMapInfo map;
  GBytes *b;

  if (!buf || !gst_buffer_map (buf, &map, GST_MAP_READ))
    return NULL;
  b = g_bytes_new (map.data, map.size);
  gst_buffer_unmap (buf, &map);
  return b;
}
