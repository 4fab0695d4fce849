/* ETSI TR 101 290 V1.4.1 (2020-06), clause 5.2: the first and second
 * priority indicators of an MPEG transport stream, measured on the bytes
 * as they arrive (before any demuxer), with per-PID and total bitrates and
 * the PCR and PTS values seen.  Plain C and GLib: no GStreamer, so that a
 * probe runs it on a source's buffers without touching decoding.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SHARPNESS_TR101290_H
#define SHARPNESS_TR101290_H

#include <glib.h>

#include "sharpness-scte35.h"

G_BEGIN_DECLS

/* The indicators, in the order and with the numbers of TR 101 290's
 * tables 5.1 and 5.2 (docs/reference/tr101290.md has each definition and
 * how it is measured here). */
typedef enum
{
  SHARPNESS_TR101290_TS_SYNC_LOSS,      /* 1.1 */
  SHARPNESS_TR101290_SYNC_BYTE_ERROR,   /* 1.2 */
  SHARPNESS_TR101290_PAT_ERROR_2,       /* 1.3.a */
  SHARPNESS_TR101290_CONTINUITY_COUNT_ERROR,    /* 1.4 */
  SHARPNESS_TR101290_PMT_ERROR_2,       /* 1.5.a */
  SHARPNESS_TR101290_PID_ERROR,         /* 1.6 */
  SHARPNESS_TR101290_TRANSPORT_ERROR,   /* 2.1 */
  SHARPNESS_TR101290_CRC_ERROR,         /* 2.2 */
  SHARPNESS_TR101290_PCR_REPETITION_ERROR,      /* 2.3.a */
  SHARPNESS_TR101290_PCR_DISCONTINUITY_INDICATOR_ERROR, /* 2.3.b */
  SHARPNESS_TR101290_PCR_ACCURACY_ERROR,        /* 2.4 */
  SHARPNESS_TR101290_PTS_ERROR,         /* 2.5 */
  SHARPNESS_TR101290_CAT_ERROR,         /* 2.6 */
  SHARPNESS_TR101290_N_INDICATORS
} SharpnessTr101290Indicator;

/* A time unknown: push() derives the packets' times from the stream's
 * own PCRs (see sharpness_tr101290_push). */
#define SHARPNESS_TR101290_TIME_NONE G_MININT64

/* Limits, in nanoseconds; the defaults (settings_init) are the
 * document's. */
typedef struct
{
  gint64 pat_interval;          /* 1.3.a: 500 ms */
  gint64 pmt_interval;          /* 1.5.a: 500 ms */
  gint64 pid_interval;          /* 1.6: "user specified": 5 s by default */
  gint64 pcr_repetition;        /* 2.3.a: 40 ms */
  gint64 pcr_discontinuity;     /* 2.3.b: 100 ms */
  gint64 pcr_accuracy;          /* 2.4: 500 ns */
  gint64 pts_interval;          /* 2.5: 700 ms */
  /* 2.4 needs arrival times of a constant-rate interface (an ASI
   * capture, a file at its mux rate): off by default, since a network's
   * jitter is a thousand times the 500 ns tolerance. */
  gboolean pcr_accuracy_enabled;
} SharpnessTr101290Settings;

/* One error, as it is counted. */
typedef struct
{
  SharpnessTr101290Indicator indicator;
  guint64 packet;               /* index of the packet in the stream, from 0
                                 * (the sync-byte errors: of the 188-byte
                                 * slot) */
  gint pid;                     /* -1 where the error has no PID */
  gint64 time;                  /* ns, the stream's time of the packet */
  /* What was measured, per indicator: CC got / expected; an interval
   * (ns) / its limit; a PCR difference (27 MHz ticks) / the limit; a
   * table_id / the expected one; 0 / 0 where nothing is. */
  gint64 value, expected;
} SharpnessTr101290Error;

typedef void (*SharpnessTr101290ErrorFunc) (const SharpnessTr101290Error * e,
    gpointer user_data);

typedef struct _SharpnessTr101290 SharpnessTr101290;

void sharpness_tr101290_settings_init (SharpnessTr101290Settings * s);

/* @func (may be NULL) is called for every error counted, from push() or
 * tick(). */
SharpnessTr101290 *sharpness_tr101290_new (const SharpnessTr101290Settings *
    s, SharpnessTr101290ErrorFunc func, gpointer user_data);
void sharpness_tr101290_free (SharpnessTr101290 * a);

/* Bytes of the stream, in order, in pieces of any size (a datagram, a
 * file's block); @time is when they arrived (ns, any origin, never
 * decreasing), or SHARPNESS_TR101290_TIME_NONE for a file: the time is
 * then the byte position at the transport rate measured between the
 * stream's consecutive PCRs (ISO/IEC 13818-1 2.4.2.2), and the timed
 * indicators start once a rate is known. */
void sharpness_tr101290_push (SharpnessTr101290 * a, const guint8 * data,
    gsize size, gint64 time);

/* The time now (arrival clock) when no byte came: the absences (PAT,
 * PMT, PIDs, PCR, PTS) are counted without waiting for the next packet. */
void sharpness_tr101290_tick (SharpnessTr101290 * a, gint64 time);

guint64 sharpness_tr101290_count (const SharpnessTr101290 * a,
    SharpnessTr101290Indicator indicator);

/* Whether the stream is in sync now (1.1). */
gboolean sharpness_tr101290_in_sync (const SharpnessTr101290 * a);

/* Packets counted (in sync), and bits per second over the last whole
 * second of the stream's time (0 before one has passed); @pid -1: all
 * PIDs. */
guint64 sharpness_tr101290_packets (const SharpnessTr101290 * a, gint pid);
gdouble sharpness_tr101290_bitrate (const SharpnessTr101290 * a, gint pid);

/* The last PCR (27 MHz) and PTS (90 kHz) seen on @pid: FALSE where none. */
gboolean sharpness_tr101290_last_pcr (const SharpnessTr101290 * a, gint pid,
    guint64 * pcr);
gboolean sharpness_tr101290_last_pts (const SharpnessTr101290 * a, gint pid,
    guint64 * pts);

const gchar *sharpness_tr101290_indicator_name (SharpnessTr101290Indicator
    indicator);

/* ANSI/SCTE 35 splice_info_sections on the PIDs the PMTs declare
 * (stream_type 0x86, or registered "CUEI"), as they are read: @cue NULL
 * where @result is not OK (a CRC_32 that does not hold, a malformed
 * section: counted as such, not as a command).  @cue lives for the call. */
typedef struct
{
  gint pid;
  guint64 packet;               /* the section's last packet */
  gint64 time;                  /* ns, the stream's time of that packet */
  SharpnessScte35Result result;
  const SharpnessScte35 *cue;
} SharpnessTr101290Scte35;

typedef void (*SharpnessTr101290Scte35Func) (const SharpnessTr101290Scte35 *
    e, gpointer user_data);

/* Called from push() for every splice_info_section read. */
void sharpness_tr101290_set_scte35_func (SharpnessTr101290 * a,
    SharpnessTr101290Scte35Func func, gpointer user_data);
/* Sections read, by command (ENCRYPTED, RESERVED as such), and not read,
 * by reason. */
guint64 sharpness_tr101290_scte35_count (const SharpnessTr101290 * a,
    SharpnessScte35Count c);
guint64 sharpness_tr101290_scte35_errors (const SharpnessTr101290 * a,
    SharpnessScte35Result r);
/* The SCTE 35 PIDs declared so far. */
guint sharpness_tr101290_scte35_pids (const SharpnessTr101290 * a);

G_END_DECLS

#endif
