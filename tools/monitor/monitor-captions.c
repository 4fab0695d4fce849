/* sharpness-monitor: a channel's captions.
 *
 * h264parse and h265parse (and mpegvideoparse) put each picture's ATSC
 * A/53 cc_data on it as a GstVideoCaptionMeta (CEA708_RAW: the cc_data
 * triplets), which the decoder copies to the decoded picture; other
 * sources give CEA-708 CDPs (SMPTE 334-2) or CEA-608 pairs (raw, or SMPTE
 * 334-1 Annex A).  A buffer probe on the decoder's output reads the metas
 * and lets the buffer go on untouched: nothing is parsed again, nothing
 * waits, nothing is allocated.
 *
 * A packet counts when it is valid: cc_valid set (CEA-708 4.4; a cc_data
 * packet that is not valid is padding), and every CEA-608 pair of the
 * formats that have no such flag.  A picture with one or more valid
 * packets is a picture with captions, the caption clock's tick.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/video/video.h>

#include "monitor-captions.h"

struct _MonitorCaptions
{
  gint ref_count;
  GMutex lock;
  MonitorCaptionsStats st;
};

static const gchar *const type_names[MONITOR_CAPTION_N_TYPES] = {
  "cea608-field1", "cea608-field2", "cea708"
};

const gchar *
monitor_caption_type_name (MonitorCaptionType t)
{
  return t < MONITOR_CAPTION_N_TYPES ? type_names[t] : "unknown";
}

MonitorCaptions *
monitor_captions_new (void)
{
  MonitorCaptions *c = g_new0 (MonitorCaptions, 1);

  c->ref_count = 1;
  g_mutex_init (&c->lock);
  return c;
}

static void
captions_unref (MonitorCaptions * c)
{
  if (!g_atomic_int_dec_and_test (&c->ref_count))
    return;
  g_mutex_clear (&c->lock);
  g_free (c);
}

void
monitor_captions_free (MonitorCaptions * c)
{
  captions_unref (c);
}

/* cc_data triplets (CEA-708 4.4: marker bits, cc_valid, cc_type, two
 * bytes); returns the valid ones, counted into @n. */
static guint
count_cc_data (const guint8 * d, gsize size, guint64 n[])
{
  static const MonitorCaptionType of_cc_type[4] = {
    MONITOR_CAPTION_CEA608_FIELD1, MONITOR_CAPTION_CEA608_FIELD2,
    MONITOR_CAPTION_CEA708, MONITOR_CAPTION_CEA708
  };
  guint valid = 0;

  for (gsize i = 0; i + 3 <= size; i += 3)
    if (d[i] & 0x04) {
      n[of_cc_type[d[i] & 0x03]]++;
      valid++;
    }
  return valid;
}

/* A caption distribution packet (SMPTE 334-2 / CEA-708 11.2): its
 * ccdata_section's triplets. */
static guint
count_cdp (const guint8 * d, gsize size, guint64 n[])
{
  gsize off = 7, count;

  if (size < 7 || d[0] != 0x96 || d[1] != 0x69 || d[2] > size)
    return 0;
  size = d[2];
  if (d[4] & 0x80)              /* time_code_present: its section, 5 bytes */
    off += 5;
  if (!(d[4] & 0x40) || off + 2 > size || d[off] != 0x72)
    return 0;
  count = d[off + 1] & 0x1f;
  return count_cc_data (d + off + 2, MIN (count * 3, size - off - 2), n);
}

static guint
count_meta (const GstVideoCaptionMeta * m, guint64 n[])
{
  guint valid = 0;

  switch (m->caption_type) {
    case GST_VIDEO_CAPTION_TYPE_CEA708_RAW:
      return count_cc_data (m->data, m->size, n);
    case GST_VIDEO_CAPTION_TYPE_CEA708_CDP:
      return count_cdp (m->data, m->size, n);
    case GST_VIDEO_CAPTION_TYPE_CEA608_RAW:
      /* Byte pairs of field 1. */
      valid = m->size / 2;
      n[MONITOR_CAPTION_CEA608_FIELD1] += valid;
      return valid;
    case GST_VIDEO_CAPTION_TYPE_CEA608_S334_1A:
      /* Triplets whose first byte's top bit is the field (1: field 1). */
      for (gsize i = 0; i + 3 <= m->size; i += 3, valid++)
        n[m->data[i] & 0x80 ? MONITOR_CAPTION_CEA608_FIELD1 :
            MONITOR_CAPTION_CEA608_FIELD2]++;
      return valid;
    default:
      return 0;
  }
}

static GstPadProbeReturn
probe (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  MonitorCaptions *c = user_data;
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  gpointer state = NULL;
  GstMeta *meta;
  guint valid = 0;

  g_mutex_lock (&c->lock);
  while ((meta = gst_buffer_iterate_meta_filtered (buf, &state,
              GST_VIDEO_CAPTION_META_API_TYPE)))
    valid += count_meta ((const GstVideoCaptionMeta *) meta, c->st.packets);
  if (valid) {
    gint64 now = g_get_monotonic_time ();

    if (!c->st.last_caption_us ||
        now - c->st.last_caption_us > MONITOR_CAPTIONS_GAP_US)
      c->st.resumed_us = now;
    c->st.frames++;
    c->st.last_caption_us = now;
  }
  g_mutex_unlock (&c->lock);
  return GST_PAD_PROBE_OK;
}

static void
probe_free (gpointer data)
{
  captions_unref (data);
}

void
monitor_captions_attach (MonitorCaptions * c, GstPad * pad)
{
  g_atomic_int_inc (&c->ref_count);
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, probe, c, probe_free);
}

void
monitor_captions_snapshot (MonitorCaptions * c, MonitorCaptionsStats * st)
{
  g_mutex_lock (&c->lock);
  *st = c->st;
  g_mutex_unlock (&c->lock);
}
