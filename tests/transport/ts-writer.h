/* A test MPEG-TS writer: a constant-rate single-programme multiplex (PAT and
 * PMT every 100 ms, SDT every 500 ms, a 25 fps "video" PES stream carrying
 * the PCR every 15 ms, a "audio" PES stream every 24 ms, null packets
 * between), each PES with its PTS, into which one fault of TR 101 290 is
 * injected at a known time.  Written from ISO/IEC 13818-1 and EN 300 468
 * alone, independently of the analyser it tests.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef TS_WRITER_H
#define TS_WRITER_H

#include <glib.h>

G_BEGIN_DECLS

#define TS_WRITER_PMT_PID 0x100
#define TS_WRITER_VIDEO_PID 0x101
#define TS_WRITER_AUDIO_PID 0x102
/* With ts_writer_enable_scte35: splice_info_sections (ANSI/SCTE 35). */
#define TS_WRITER_SCTE35_PID 0x103
#define TS_WRITER_SCTE35_QUEUE 16

typedef enum
{
  TS_FAULT_NONE,
  TS_FAULT_DROP,                /* one video packet lost (a null in its slot) */
  TS_FAULT_DUPLICATE,           /* one video packet sent twice */
  TS_FAULT_TRIPLICATE,          /* one video packet sent three times */
  TS_FAULT_SYNC_BYTE,           /* one video packet's sync byte corrupted */
  TS_FAULT_SYNC_LOSS,           /* two consecutive slots' sync bytes */
  TS_FAULT_TEI,                 /* transport_error_indicator on a packet */
  TS_FAULT_NO_PAT,              /* no PAT for 0.6 s */
  TS_FAULT_NO_PMT,              /* no PMT for 0.6 s */
  TS_FAULT_CRC,                 /* one bit of a PAT's CRC_32 flipped */
  TS_FAULT_PCR_GAP,             /* no PCR for 120 ms */
  TS_FAULT_PCR_JUMP,            /* PCRs 200 ms ahead, no discontinuity flag */
  TS_FAULT_PCR_JUMP_FLAGGED,    /* the same with discontinuity_indicator */
  TS_FAULT_PCR_JITTER,          /* one PCR 1 us off */
  TS_FAULT_PTS_GAP,             /* video PES without PTS for 800 ms */
  TS_FAULT_PID_STOP,            /* the audio PID stops for 6 s */
  TS_FAULT_SCRAMBLED,           /* audio scrambled for 100 ms, no CAT */
  TS_FAULT_SCRAMBLED_LONG,      /* audio scrambled for 2 s, no CAT */
  TS_FAULT_CAT_TABLE,           /* a table other than the CAT on PID 1 */
  TS_FAULT_PAT_TABLE,           /* a table other than the PAT on PID 0 */
  TS_FAULT_RANDOM_DROPS,        /* from then on, 1 packet in 300 lost */
  TS_N_FAULTS
} TsFault;

typedef struct
{
  guint64 rate;                 /* bits per second */
  gint64 slot_ns;
  TsFault fault;
  gint64 fault_at;              /* ns */
  guint64 slot;
  guint8 cc[8192];
  gint64 next_pat, next_pmt, next_sdt, next_pcr, next_video, next_audio;
  /* The PES being sent on each stream. */
  guint8 video[131072], audio[1024];
  gsize video_len, video_pos, audio_len, audio_pos;
  guint8 repeat[188];
  guint repeats;
  gboolean fault_done, pcr_jumped;
  guint sync_left;              /* TS_FAULT_SYNC_LOSS: slots left to corrupt */
  /* The PIDs of the packets whose sync bytes were corrupted. */
  gint corrupted_pids[2];
  guint n_corrupted;
  guint32 random;               /* TS_FAULT_RANDOM_DROPS: the generator */
  guint64 dropped;
  /* SCTE 35: the sections queued, when each is due, how far the one
   * being sent is, and the slot of each one's last packet. */
  gboolean scte35;
  guint8 cue[TS_WRITER_SCTE35_QUEUE][4096];
  gsize cue_len[TS_WRITER_SCTE35_QUEUE], cue_pos;
  gint64 cue_at[TS_WRITER_SCTE35_QUEUE];
  guint64 cue_slot[TS_WRITER_SCTE35_QUEUE];
  guint n_cues, cue_next;
} TsWriter;

void ts_writer_init (TsWriter * w, guint64 rate, TsFault fault,
    gint64 fault_at);
/* The next 188-byte packet; *@time: its slot's time (ns). */
void ts_writer_next (TsWriter * w, guint8 * out, gint64 * time);
/* The PMT declares TS_WRITER_SCTE35_PID (stream_type 0x86, and "CUEI"
 * registered in its program_info, as ANSI/SCTE 35 clause 8 asks). */
void ts_writer_enable_scte35 (TsWriter * w);
/* A whole section (CRC_32 and all) sent on the SCTE 35 PID from the first
 * slot at or after @at (ns), in as many packets as it takes (the first
 * with pointer_field 0, the last stuffed with 0xFF); in order of @at.
 * FALSE when the queue is full. */
gboolean ts_writer_queue_scte35 (TsWriter * w, const guint8 * section,
    gsize len, gint64 at);
const gchar *ts_fault_name (TsFault f);
TsFault ts_fault_from_name (const gchar * name);

G_END_DECLS

#endif
