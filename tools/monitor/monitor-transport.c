/* sharpness-monitor: ETSI TR 101 290 on a channel's transport stream.
 *
 * A buffer probe on the demuxer's sink pad (tsdemux, wherever the decode
 * bins put it: after udpsrc, after an RTP depayloader, after srtsrc or
 * filesrc) hands each buffer to the analyser and lets it go on untouched:
 * decoding is neither delayed nor altered.  A live stream's packets are
 * timed on arrival, on the monotonic clock, which the main loop's tick
 * also runs on; a file's by its PCRs (the analyser's own derivation, at
 * the multiplex rate), since a file read as fast as the pacing allows has
 * no arrival times worth the name.
 *
 * A demuxer that pulls (tsdemux on a local file) reads the start and the
 * end of the file for its duration before it plays it from the start:
 * only reads that follow on from the last one are the stream, and a read
 * from offset 0 starts it again (what was measured before was the scan,
 * and is dropped).
 *
 * Each pipeline gets an analyser of its own (a rebuilt pipeline is a new
 * stream: its first continuity counter is no error); the counts go on
 * from the previous one's, so that the counters only grow.
 *
 * ANSI/SCTE 35 cues come from the same analyser (the PIDs its PMTs
 * declare): counted, and the splice_insert and time_signal ones queued
 * for the main loop, which makes them events.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "monitor-transport.h"

struct _MonitorTransport
{
  gint ref_count;
  SharpnessTr101290Settings settings;
  GMutex lock;
  SharpnessTr101290 *analyser;  /* the pipeline's, or NULL */
  gboolean live;
  guint generation;             /* of the pipeline being analysed */
  /* Counts of the analysers before this one. */
  guint64 base[SHARPNESS_TR101290_N_INDICATORS];
  MonitorTransportError last[SHARPNESS_TR101290_N_INDICATORS];
  /* Pulled: where the next read that goes on from the last one starts
   * (G_MAXUINT64: none read yet); the last errors before this analyser. */
  guint64 next_offset;
  MonitorTransportError last_before[SHARPNESS_TR101290_N_INDICATORS];
  /* SCTE 35: the counts of the analysers before this one; the cues for
   * the main loop (a ring); the last one and its time. */
  guint64 scte35_base[SHARPNESS_SCTE35_N_COUNTS];
  guint64 scte35_errors_base[SHARPNESS_SCTE35_N_RESULTS];
  MonitorTransportCue cues[MONITOR_TRANSPORT_CUES];
  guint cue_head, n_cues;
  guint64 cues_dropped;
  MonitorTransportCue last_cue;
  gint64 last_cue_mono_us;
};

/* What a probe holds: buffers of an older pipeline (torn down while this
 * one starts) are not this analyser's. */
typedef struct
{
  MonitorTransport *t;
  guint generation;
} Probe;

/* The library's names (TR 101 290's), lower case, as Prometheus' label
 * values and the API's keys are; made once. */
const gchar *
monitor_transport_indicator_name (SharpnessTr101290Indicator i)
{
  static const gchar *names[SHARPNESS_TR101290_N_INDICATORS];
  static gsize once = 0;

  if (g_once_init_enter (&once)) {
    for (gint k = 0; k < SHARPNESS_TR101290_N_INDICATORS; k++) {
      gchar *lower = g_ascii_strdown (sharpness_tr101290_indicator_name (k),
          -1);

      names[k] = g_intern_string (lower);
      g_free (lower);
    }
    g_once_init_leave (&once, 1);
  }
  return i < SHARPNESS_TR101290_N_INDICATORS ? names[i] : NULL;
}

guint
monitor_transport_indicator_priority (SharpnessTr101290Indicator i)
{
  return i <= SHARPNESS_TR101290_PID_ERROR ? 1 : 2;
}

static gint64
seconds_ns (gdouble s)
{
  return (gint64) (s * GST_SECOND + 0.5);
}

MonitorTransport *
monitor_transport_new (const MonitorTransportConfig * cfg)
{
  MonitorTransport *t = g_new0 (MonitorTransport, 1);
  SharpnessTr101290Settings *s = &t->settings;

  t->ref_count = 1;
  g_mutex_init (&t->lock);
  sharpness_tr101290_settings_init (s);
  s->pat_interval = seconds_ns (cfg->pat_interval);
  s->pmt_interval = seconds_ns (cfg->pmt_interval);
  s->pid_interval = seconds_ns (cfg->pid_interval);
  s->pcr_repetition = seconds_ns (cfg->pcr_repetition);
  s->pcr_discontinuity = seconds_ns (cfg->pcr_discontinuity);
  s->pts_interval = seconds_ns (cfg->pts_interval);
  for (gint i = 0; i < SHARPNESS_TR101290_N_INDICATORS; i++)
    t->last[i].pid = -1;
  return t;
}

static void
transport_unref (MonitorTransport * t)
{
  if (!g_atomic_int_dec_and_test (&t->ref_count))
    return;
  if (t->analyser)
    sharpness_tr101290_free (t->analyser);
  g_mutex_clear (&t->lock);
  g_free (t);
}

void
monitor_transport_free (MonitorTransport * t)
{
  transport_unref (t);
}

/* The analyser's callback, under the lock (from push or tick). */
static void
on_error (const SharpnessTr101290Error * e, gpointer user_data)
{
  MonitorTransport *t = user_data;
  MonitorTransportError *l = &t->last[e->indicator];

  l->packet = e->packet;
  l->pid = e->pid;
  l->value = e->value;
  l->expected = e->expected;
  l->wall_us = g_get_real_time ();
}

/* A splice_info_section read, under the lock (from push).  Only the
 * commands that place a splice (splice_insert, time_signal) are events
 * and feed the no-scte35 alarm: splice_null is a heartbeat, the others
 * schedule or reserve. */
static void
on_scte35 (const SharpnessTr101290Scte35 * e, gpointer user_data)
{
  MonitorTransport *t = user_data;
  MonitorTransportCue *c;

  if (!e->cue || e->cue->encrypted ||
      (e->cue->command_type != SHARPNESS_SCTE35_SPLICE_INSERT &&
          e->cue->command_type != SHARPNESS_SCTE35_TIME_SIGNAL))
    return;
  t->last_cue.cue = *e->cue;
  t->last_cue.pid = e->pid;
  t->last_cue.packet = e->packet;
  t->last_cue.wall_us = g_get_real_time ();
  t->last_cue_mono_us = g_get_monotonic_time ();
  if (t->n_cues == MONITOR_TRANSPORT_CUES) {
    t->cues_dropped++;
    return;
  }
  c = &t->cues[(t->cue_head + t->n_cues++) % MONITOR_TRANSPORT_CUES];
  *c = t->last_cue;
}

static SharpnessTr101290 *
new_analyser (MonitorTransport * t)
{
  SharpnessTr101290 *a = sharpness_tr101290_new (&t->settings, on_error, t);

  sharpness_tr101290_set_scte35_func (a, on_scte35, t);
  return a;
}

static void
push_memory (MonitorTransport * t, GstBuffer * buf, gint64 now)
{
  GstMapInfo map;

  if (!gst_buffer_map (buf, &map, GST_MAP_READ))
    return;
  sharpness_tr101290_push (t->analyser, map.data, map.size, now);
  gst_buffer_unmap (buf, &map);
}

/* A pulled buffer at @offset: whether it is the stream's next bytes
 * (under the lock). */
static gboolean
pulled_in_order (MonitorTransport * t, guint64 offset, gsize size)
{
  if (offset == 0 && t->next_offset != G_MAXUINT64) {
    /* From the start again: the scan's measures are not the stream's. */
    sharpness_tr101290_free (t->analyser);
    t->analyser = new_analyser (t);
    memcpy (t->last, t->last_before, sizeof (t->last));
  } else if (t->next_offset != G_MAXUINT64 && offset != t->next_offset) {
    return FALSE;
  }
  t->next_offset = offset + size;
  return TRUE;
}

static GstPadProbeReturn
probe (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  Probe *p = user_data;
  MonitorTransport *t = p->t;
  gint64 now;

  g_mutex_lock (&t->lock);
  if (p->generation != t->generation || !t->analyser) {
    g_mutex_unlock (&t->lock);
    return GST_PAD_PROBE_OK;
  }
  now = t->live ? g_get_monotonic_time () * 1000 :
      SHARPNESS_TR101290_TIME_NONE;
  if (info->type & GST_PAD_PROBE_TYPE_BUFFER) {
    GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);

    if (!(info->type & GST_PAD_PROBE_TYPE_PULL) ||
        pulled_in_order (t, info->offset, gst_buffer_get_size (buf)))
      push_memory (t, buf, now);
  } else if (info->type & GST_PAD_PROBE_TYPE_BUFFER_LIST) {
    GstBufferList *list = GST_PAD_PROBE_INFO_BUFFER_LIST (info);
    guint n = gst_buffer_list_length (list);

    for (guint i = 0; i < n; i++)
      push_memory (t, gst_buffer_list_get (list, i), now);
  }
  g_mutex_unlock (&t->lock);
  return GST_PAD_PROBE_OK;
}

static void
probe_free (gpointer data)
{
  Probe *p = data;

  transport_unref (p->t);
  g_free (p);
}

void
monitor_transport_attach (MonitorTransport * t, GstPad * pad, gboolean live)
{
  Probe *p = g_new0 (Probe, 1);

  g_mutex_lock (&t->lock);
  if (t->analyser) {
    for (gint i = 0; i < SHARPNESS_TR101290_N_INDICATORS; i++)
      t->base[i] += sharpness_tr101290_count (t->analyser, i);
    for (gint i = 0; i < SHARPNESS_SCTE35_N_COUNTS; i++)
      t->scte35_base[i] += sharpness_tr101290_scte35_count (t->analyser, i);
    for (gint i = 0; i < SHARPNESS_SCTE35_N_RESULTS; i++)
      t->scte35_errors_base[i] +=
          sharpness_tr101290_scte35_errors (t->analyser, i);
    sharpness_tr101290_free (t->analyser);
  }
  t->analyser = new_analyser (t);
  t->live = live;
  t->next_offset = G_MAXUINT64;
  memcpy (t->last_before, t->last, sizeof (t->last));
  p->generation = ++t->generation;
  g_mutex_unlock (&t->lock);
  g_atomic_int_inc (&t->ref_count);
  p->t = t;
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER |
      GST_PAD_PROBE_TYPE_BUFFER_LIST, probe, p, probe_free);
}

void
monitor_transport_tick (MonitorTransport * t)
{
  g_mutex_lock (&t->lock);
  /* A file's time is its PCRs': no clock of the main loop's is on it. */
  if (t->analyser && t->live)
    sharpness_tr101290_tick (t->analyser, g_get_monotonic_time () * 1000);
  g_mutex_unlock (&t->lock);
}

void
monitor_transport_snapshot (MonitorTransport * t, MonitorTransportStats * st)
{
  memset (st, 0, sizeof (*st));
  g_mutex_lock (&t->lock);
  st->seen = t->analyser != NULL;
  for (gint i = 0; i < SHARPNESS_TR101290_N_INDICATORS; i++)
    st->errors[i] = t->base[i] + (t->analyser ?
        sharpness_tr101290_count (t->analyser, i) : 0);
  memcpy (st->last, t->last, sizeof (st->last));
  for (gint i = 0; i < SHARPNESS_SCTE35_N_COUNTS; i++)
    st->scte35[i] = t->scte35_base[i] + (t->analyser ?
        sharpness_tr101290_scte35_count (t->analyser, i) : 0);
  for (gint i = 0; i < SHARPNESS_SCTE35_N_RESULTS; i++)
    st->scte35_errors[i] = t->scte35_errors_base[i] + (t->analyser ?
        sharpness_tr101290_scte35_errors (t->analyser, i) : 0);
  st->last_cue = t->last_cue;
  st->last_cue_mono_us = t->last_cue_mono_us;
  st->cues_dropped = t->cues_dropped;
  if (t->analyser) {
    st->scte35_pids = sharpness_tr101290_scte35_pids (t->analyser);
    st->in_sync = sharpness_tr101290_in_sync (t->analyser);
    st->packets = sharpness_tr101290_packets (t->analyser, -1);
    st->bitrate = sharpness_tr101290_bitrate (t->analyser, -1);
  }
  g_mutex_unlock (&t->lock);
}

gboolean
monitor_transport_has_scte35 (const MonitorTransportStats * st)
{
  if (st->scte35_pids)
    return TRUE;
  for (gint i = 0; i < SHARPNESS_SCTE35_N_COUNTS; i++)
    if (st->scte35[i])
      return TRUE;
  for (gint i = 0; i < SHARPNESS_SCTE35_N_RESULTS; i++)
    if (st->scte35_errors[i])
      return TRUE;
  return FALSE;
}

guint
monitor_transport_take_cues (MonitorTransport * t, MonitorTransportCue * out,
    guint max)
{
  guint n;

  g_mutex_lock (&t->lock);
  n = MIN (max, t->n_cues);
  for (guint i = 0; i < n; i++)
    out[i] = t->cues[(t->cue_head + i) % MONITOR_TRANSPORT_CUES];
  t->cue_head = (t->cue_head + n) % MONITOR_TRANSPORT_CUES;
  t->n_cues -= n;
  g_mutex_unlock (&t->lock);
  return n;
}
