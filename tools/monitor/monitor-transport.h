/* sharpness-monitor: ETSI TR 101 290 on a channel's MPEG transport stream
 * (monitor-transport.c), measured by transport/sharpness-tr101290 on the
 * bytes as they reach the demuxer, before any decoding.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Threads: the demuxer's streaming thread pushes (a pad probe); the main
 * loop ticks and reads.  Both under the transport's own lock, held for
 * the analyser's call or the copy alone.
 */
#ifndef MONITOR_TRANSPORT_H
#define MONITOR_TRANSPORT_H

#include <gst/gst.h>

#include "monitor.h"
#include "sharpness-tr101290.h"

G_BEGIN_DECLS

/* The last error of one indicator, as its event reports it. */
typedef struct
{
  guint64 packet;               /* index among the stream's packets */
  gint pid;                     /* -1: none */
  gint64 value, expected;       /* sharpness-tr101290.h's, per indicator */
  gint64 wall_us;               /* when it was counted */
} MonitorTransportError;

/* A SCTE 35 splice_info_section read (ANSI/SCTE 35), as its event
 * reports it. */
typedef struct
{
  SharpnessScte35 cue;
  gint pid;
  guint64 packet;               /* the section's last packet */
  gint64 wall_us;               /* when it was read */
} MonitorTransportCue;

/* Cues kept between two ticks for their events; more are counted, not
 * logged (a stream sends a few a minute). */
#define MONITOR_TRANSPORT_CUES 32

typedef struct
{
  gboolean seen;                /* a transport stream was analysed */
  gboolean in_sync;
  guint64 packets;
  gdouble bitrate;              /* bit/s over the last second, 0: none */
  guint64 errors[SHARPNESS_TR101290_N_INDICATORS];
  MonitorTransportError last[SHARPNESS_TR101290_N_INDICATORS];
  /* ANSI/SCTE 35: sections read by command, not read by reason; the SCTE
   * 35 PIDs declared; when the last splice_insert or time_signal came
   * (monotonic µs, 0: none) and what it was. */
  guint64 scte35[SHARPNESS_SCTE35_N_COUNTS];
  guint64 scte35_errors[SHARPNESS_SCTE35_N_RESULTS];
  guint scte35_pids;
  gint64 last_cue_mono_us;
  MonitorTransportCue last_cue;
  guint64 cues_dropped;         /* not logged: too many between ticks */
} MonitorTransportStats;

typedef struct _MonitorTransport MonitorTransport;

MonitorTransport *monitor_transport_new (const MonitorTransportConfig * cfg);
void monitor_transport_free (MonitorTransport * t);

/* A demuxer's sink pad of a new pipeline: a new analyser measures what
 * reaches it (the counts go on from the last one's).  @live: packets are
 * timed by their arrival (monotonic clock); otherwise (a file) by the
 * stream's PCRs, as the analyser derives them. */
void monitor_transport_attach (MonitorTransport * t, GstPad * pad,
    gboolean live);
/* The main loop's tick: absences (PAT, PMT, PIDs, PCR, PTS) counted
 * without waiting for the next packet of a live stream. */
void monitor_transport_tick (MonitorTransport * t);
void monitor_transport_snapshot (MonitorTransport * t,
    MonitorTransportStats * st);
/* Whether the channel's transport has carried SCTE 35: a PID declared
 * now, or sections counted before (a rebuilt pipeline's analyser has not
 * read its PMT yet: the counters stay listed). */
gboolean monitor_transport_has_scte35 (const MonitorTransportStats * st);
/* The splice_insert and time_signal cues read since the last call, at
 * most @max, oldest first (main loop). */
guint monitor_transport_take_cues (MonitorTransport * t,
    MonitorTransportCue * out, guint max);

/* The indicator's name in metrics, events and the API: TR 101 290's,
 * lower case ("ts_sync_loss", ... "cat_error"); its priority (1 or 2). */
const gchar *monitor_transport_indicator_name (SharpnessTr101290Indicator i);
guint monitor_transport_indicator_priority (SharpnessTr101290Indicator i);

G_END_DECLS
#endif /* MONITOR_TRANSPORT_H */
