/* The SCTE 35 test stream (scte35-stream.h).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "scte35-stream.h"

#include <string.h>

#define S G_GINT64_CONSTANT (1000000000)
#define WRAP (G_GUINT64_CONSTANT (1) << 33)

void
scte35_add_segmentation (SharpnessScte35 * s, guint32 id, guint8 type,
    guint upid, gboolean program)
{
  SharpnessScte35Segmentation *g = &s->segmentations[s->segmentation_count++];

  memset (g, 0, sizeof (*g));
  g->event_id = id;
  g->event_id_compliance = TRUE;
  g->program_segmentation = program;
  g->web_delivery_allowed = TRUE;
  g->archive_allowed = TRUE;
  g->device_restrictions = 2;
  g->duration = G_GUINT64_CONSTANT (0xFF00000000) + id;
  g->upid_type = 0x0C;
  g->upid_length = upid;
  g->type_id = type;
  g->segment_num = 1;
  g->segments_expected = 2;
  g->has_sub_segment = type == 0x34 || type == 0x36;
  g->sub_segment_num = g->has_sub_segment ? 3 : 0;
  g->sub_segments_expected = g->has_sub_segment ? 4 : 0;
}

guint
scte35_stream_init (TsWriter * w, Scte35Sent * sent, gboolean break_crc)
{
  guint8 buf[4096];
  guint n = 0;

  memset (sent, 0, SCTE35_STREAM_CUES * sizeof (*sent));
  ts_writer_init (w, SCTE35_STREAM_RATE, TS_FAULT_NONE, 0);
  ts_writer_enable_scte35 (w);
  scte35_describe_time_signal (&sent[n++].s, 1000000, 0);
  /* Over 183 bytes: two packets (the first has the pointer_field). */
  scte35_describe_insert (&sent[n].s, 0x5000, 2000000, 900);
  for (guint i = 0; i < 3; i++)
    scte35_add_segmentation (&sent[n].s, 0x60 + i, 0x34, 80, TRUE);
  n++;
  /* pts_time + pts_adjustment past 2^33. */
  scte35_describe_insert (&sent[n++].s, 0x5001, WRAP - 1000, 91000);
  /* A CRC_32 that does not hold: a crc_error, no command. */
  scte35_describe_insert (&sent[n].s, 0x5002, 4000000, 0);
  sent[n++].bad_crc = break_crc;
  scte35_describe_command (&sent[n++].s, SHARPNESS_SCTE35_SPLICE_NULL);
  /* Component splice: three components, the second without a time. */
  scte35_describe_component_insert (&sent[n++].s, 0x5003, 3000);
  scte35_describe_time_signal (&sent[n].s, 7 * 90000, 0);
  scte35_add_segmentation (&sent[n].s, 0x70, 0x30, 0, FALSE);
  scte35_add_segmentation (&sent[n].s, 0x71, 0x36, 10, TRUE);
  n++;
  scte35_describe_schedule (&sent[n++].s, 0x5004);
  g_assert (n == SCTE35_STREAM_CUES);
  for (guint i = 0; i < n; i++) {
    sent[i].at = (i + 1) * S;
    sent[i].len = scte35_write (&sent[i].s, buf, sizeof (buf),
        sent[i].bad_crc);
    ts_writer_queue_scte35 (w, buf, sent[i].len, sent[i].at);
  }
  return n;
}
