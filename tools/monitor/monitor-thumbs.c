/* sharpness-monitor: a thumbnail's bytes, for the events and the API.  An
 * event's thumbnail is the element's own where its message has one (its
 * event-thumbnails property: the JPEG of the stretch's first or worst
 * frame, encoded off its streaming thread); otherwise the channel's last
 * (about one a second, scaled and encoded on the thumbnail branch's own
 * thread): monitor-alarms.c chooses.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "monitor-thumbs.h"

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
