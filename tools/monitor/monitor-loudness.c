/* sharpness-monitor: a channel's loudness and true peak.
 *
 * A buffer probe on the audio branch (after audioconvert, whose caps are
 * F32 interleaved) hands each buffer to the meter and lets it go on: the
 * level element after it (silence) sees the same samples.  A caps event
 * makes a meter for the stream's rate and channels (a new stream, a
 * pipeline rebuilt: integrated loudness and range start again, as a
 * programme change).  After each push the reading is kept, and the
 * highest true peak since the main loop last read it: a peak between two
 * ticks is not lost.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>

#include "monitor-loudness.h"
#include "sharpness-loudness.h"

struct _MonitorLoudness
{
  gint ref_count;
  GMutex lock;
  SharpnessLoudness *meter;     /* the stream's, or NULL */
  guint channels;
  guint generation;             /* of the pipeline measured */
  SharpnessLoudnessReading last;
  gdouble peak_recent;
  gint64 last_audio_us;
};

typedef struct
{
  MonitorLoudness *l;
  guint generation;
} Probe;

MonitorLoudness *
monitor_loudness_new (void)
{
  MonitorLoudness *l = g_new0 (MonitorLoudness, 1);

  l->ref_count = 1;
  g_mutex_init (&l->lock);
  l->peak_recent = -INFINITY;
  return l;
}

static void
loudness_unref (MonitorLoudness * l)
{
  if (!g_atomic_int_dec_and_test (&l->ref_count))
    return;
  if (l->meter)
    sharpness_loudness_free (l->meter);
  g_mutex_clear (&l->lock);
  g_free (l);
}

void
monitor_loudness_free (MonitorLoudness * l)
{
  loudness_unref (l);
}

/* A stream's caps (under the lock): its meter. */
static void
set_caps (MonitorLoudness * l, GstCaps * caps)
{
  GstStructure *st = gst_caps_get_structure (caps, 0);
  const gchar *format = gst_structure_get_string (st, "format");
  const gchar *layout = gst_structure_get_string (st, "layout");
  gint rate = 0, channels = 0;
  GError *error = NULL;

  if (l->meter)
    sharpness_loudness_free (l->meter);
  l->meter = NULL;
  /* What the branch's capsfilter asks of audioconvert (native order). */
  if (g_strcmp0 (format, G_BYTE_ORDER == G_LITTLE_ENDIAN ? "F32LE" :
          "F32BE") || g_strcmp0 (layout, "interleaved") ||
      !gst_structure_get_int (st, "rate", &rate) ||
      !gst_structure_get_int (st, "channels", &channels) || rate <= 0 ||
      channels <= 0)
    return;
  l->meter = sharpness_loudness_new (channels, rate, &error);
  if (!l->meter) {
    GST_WARNING ("no loudness meter: %s", error->message);
    g_clear_error (&error);
    return;
  }
  l->channels = channels;
  sharpness_loudness_read (l->meter, &l->last);
}

static GstPadProbeReturn
probe (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  Probe *p = user_data;
  MonitorLoudness *l = p->l;

  g_mutex_lock (&l->lock);
  if (p->generation != l->generation) {
    g_mutex_unlock (&l->lock);
    return GST_PAD_PROBE_OK;
  }
  if (info->type & GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM) {
    GstEvent *ev = GST_PAD_PROBE_INFO_EVENT (info);

    if (GST_EVENT_TYPE (ev) == GST_EVENT_CAPS) {
      GstCaps *caps;

      gst_event_parse_caps (ev, &caps);
      set_caps (l, caps);
    }
  } else if ((info->type & GST_PAD_PROBE_TYPE_BUFFER) && l->meter) {
    GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
    GstMapInfo map;

    l->last_audio_us = g_get_monotonic_time ();
    if (gst_buffer_map (buf, &map, GST_MAP_READ)) {
      sharpness_loudness_push (l->meter, (const gfloat *) map.data,
          map.size / (sizeof (gfloat) * l->channels));
      gst_buffer_unmap (buf, &map);
      sharpness_loudness_read (l->meter, &l->last);
      if (l->last.true_peak_last > l->peak_recent)
        l->peak_recent = l->last.true_peak_last;
    }
  }
  g_mutex_unlock (&l->lock);
  return GST_PAD_PROBE_OK;
}

static void
probe_free (gpointer data)
{
  Probe *p = data;

  loudness_unref (p->l);
  g_free (p);
}

void
monitor_loudness_attach (MonitorLoudness * l, GstPad * pad)
{
  Probe *p = g_new0 (Probe, 1);

  g_mutex_lock (&l->lock);
  p->generation = ++l->generation;
  if (l->meter)
    sharpness_loudness_free (l->meter);
  l->meter = NULL;
  g_mutex_unlock (&l->lock);
  g_atomic_int_inc (&l->ref_count);
  p->l = l;
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER |
      GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM, probe, p, probe_free);
}

static void
reading (MonitorLoudness * l, MonitorLoudnessReading * r, gboolean take)
{
  g_mutex_lock (&l->lock);
  r->measured = l->meter != NULL;
  r->momentary = l->last.momentary;
  r->short_term = l->last.short_term;
  r->integrated = l->last.integrated;
  r->range = l->last.range;
  r->true_peak = l->last.true_peak;
  r->true_peak_recent = l->peak_recent;
  r->last_audio_us = l->last_audio_us;
  if (take)
    l->peak_recent = -INFINITY;
  g_mutex_unlock (&l->lock);
}

void
monitor_loudness_read (MonitorLoudness * l, MonitorLoudnessReading * r)
{
  reading (l, r, TRUE);
}

void
monitor_loudness_peek (MonitorLoudness * l, MonitorLoudnessReading * r)
{
  reading (l, r, FALSE);
}
