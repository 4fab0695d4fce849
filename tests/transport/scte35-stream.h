/* The SCTE 35 test stream: the test TS writer's programme (ts-writer.h)
 * with a SCTE 35 PID and known cues at known times, written by the SCTE
 * 35 test writer (scte35-writer.h): for the tests that read it with the
 * analyser and with GStreamer's libgstmpegts.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SCTE35_STREAM_H
#define SCTE35_STREAM_H

#include "scte35-writer.h"
#include "ts-writer.h"

G_BEGIN_DECLS

#define SCTE35_STREAM_CUES 8
/* The stream's rate, bit/s. */
#define SCTE35_STREAM_RATE 2000000

/* One cue sent: what was written, whether its CRC_32 was broken, when it
 * was due (ns) and its length. */
typedef struct
{
  SharpnessScte35 s;
  gboolean bad_crc;
  gint64 at;
  gsize len;
} Scte35Sent;

/* @w set up and the cues queued, once a second from 1 s: a time_signal;
 * a splice_insert with three segmentation descriptors (over two packets);
 * a splice_insert whose pts_time + pts_adjustment passes 2^33; one whose
 * CRC_32 does not hold (where @break_crc); a splice_null; a splice_insert of components; a
 * time_signal with segmentation descriptors of each kind; a
 * splice_schedule.  Returns the count (SCTE35_STREAM_CUES). */
guint scte35_stream_init (TsWriter * w, Scte35Sent * sent,
    gboolean break_crc);

/* A segmentation_descriptor: @type (a placement opportunity start has
 * sub-segments), a UPID of @upid bytes, program or component
 * segmentation. */
void scte35_add_segmentation (SharpnessScte35 * s, guint32 id, guint8 type,
    guint upid, gboolean program);

G_END_DECLS

#endif
