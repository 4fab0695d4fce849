/* The test MPEG-TS writer (ts-writer.h).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "ts-writer.h"

#include <string.h>

#define MS G_GINT64_CONSTANT (1000000)
#define NULL_PID 0x1FFF
#define PAT_PERIOD (100 * MS)
#define PMT_PERIOD (100 * MS)
#define SDT_PERIOD (500 * MS)
#define PCR_PERIOD (15 * MS)
#define FRAME_PERIOD (40 * MS)
#define AUDIO_PERIOD (24 * MS)
/* The clocks start well away from 0 (a wrap is not what is tested). */
#define PCR_OFFSET (G_GINT64_CONSTANT (27000000) * 10)
#define PTS_OFFSET (G_GINT64_CONSTANT (90000) * 11)

static const gchar *fault_names[] = {
  "none", "drop", "duplicate", "triplicate", "sync-byte", "sync-loss", "tei",
  "no-pat", "no-pmt", "crc", "pcr-gap", "pcr-jump", "pcr-jump-flagged",
  "pcr-jitter", "pts-gap", "pid-stop", "scrambled", "scrambled-long",
  "cat-table", "pat-table",
  "random-drops",
};

G_STATIC_ASSERT (G_N_ELEMENTS (fault_names) == TS_N_FAULTS);

const gchar *
ts_fault_name (TsFault f)
{
  return f < TS_N_FAULTS ? fault_names[f] : NULL;
}

TsFault
ts_fault_from_name (const gchar * name)
{
  for (guint i = 0; i < TS_N_FAULTS; i++)
    if (g_strcmp0 (name, fault_names[i]) == 0)
      return i;
  return TS_N_FAULTS;
}

/* ISO/IEC 13818-1 Annex A's CRC_32, bit by bit (the analyser has its own,
 * table-driven). */
static guint32
crc32_mpeg (const guint8 * d, gsize n)
{
  guint32 crc = 0xFFFFFFFFu;

  for (gsize i = 0; i < n; i++) {
    crc ^= (guint32) d[i] << 24;
    for (gint k = 0; k < 8; k++)
      crc = (crc & 0x80000000u) ? (crc << 1) ^ 0x04C11DB7u : crc << 1;
  }
  return crc;
}

void
ts_writer_init (TsWriter * w, guint64 rate, TsFault fault, gint64 fault_at)
{
  memset (w, 0, sizeof (*w));
  w->rate = rate;
  w->slot_ns = (gint64) (188 * 8 * G_GINT64_CONSTANT (1000000000) / rate);
  w->fault = fault;
  w->fault_at = fault_at;
}

static gboolean
in_window (TsWriter * w, TsFault f, gint64 t, gint64 length)
{
  return w->fault == f && t >= w->fault_at && t < w->fault_at + length;
}

static void
header (TsWriter * w, guint8 * out, gint pid, gboolean unit_start,
    gint afc, gint scrambling)
{
  out[0] = 0x47;
  out[1] = (unit_start ? 0x40 : 0) | (pid >> 8);
  out[2] = pid & 0xFF;
  if (afc & 1) {
    out[3] = scrambling << 6 | afc << 4 | w->cc[pid];
    w->cc[pid] = (w->cc[pid] + 1) & 0x0F;
  } else {
    /* No payload: the counter stays that of the last payload. */
    out[3] = afc << 4 | ((w->cc[pid] + 15) & 0x0F);
  }
}

static void
put_pcr (guint8 * p, gint64 pcr)
{
  gint64 base = pcr / 300, ext = pcr % 300;

  p[0] = base >> 25;
  p[1] = base >> 17;
  p[2] = base >> 9;
  p[3] = base >> 1;
  p[4] = (base & 1) << 7 | 0x7E | ext >> 8;
  p[5] = ext & 0xFF;
}

/* A packet of @pid with up to 184 bytes of @data, an adaptation field
 * with @pcr (>= 0) and @disc where asked, stuffed to 188; the bytes of
 * @data taken. */
static gsize
payload_packet (TsWriter * w, guint8 * out, gint pid, gboolean unit_start,
    const guint8 * data, gsize n, gint64 pcr, gboolean disc, gint scrambling)
{
  gsize af = pcr >= 0 ? 8 : 0, take = MIN (n, 184 - af);

  if (take < 184 - af || disc)
    af = 184 - take;
  header (w, out, pid, unit_start, af ? 3 : 1, scrambling);
  if (af) {
    out[4] = af - 1;
    if (af > 1) {
      out[5] = (disc ? 0x80 : 0) | (pcr >= 0 ? 0x10 : 0);
      memset (out + 6, 0xFF, af - 2);
      if (pcr >= 0)
        put_pcr (out + 6, pcr);
    }
  }
  memcpy (out + 4 + af, data, take);
  return take;
}

static void
section_packet (TsWriter * w, guint8 * out, gint pid, guint8 * s, gsize len,
    gboolean flip_crc)
{
  guint32 crc = crc32_mpeg (s, len - 4);

  s[len - 4] = crc >> 24;
  s[len - 3] = crc >> 16;
  s[len - 2] = crc >> 8;
  s[len - 1] = crc ^ (flip_crc ? 1 : 0);
  header (w, out, pid, TRUE, 1, 0);
  out[4] = 0;                   /* pointer_field */
  memcpy (out + 5, s, len);
  memset (out + 5 + len, 0xFF, 183 - len);
}

/* A long-form section's 8 header bytes: table_id, section_length (of
 * @len bytes in all), id, version 0, current, section 0 of 0. */
static void
section_head (guint8 * s, gint table_id, gsize len, gint id)
{
  s[0] = table_id;
  s[1] = 0xB0 | ((len - 3) >> 8);
  s[2] = (len - 3) & 0xFF;
  s[3] = id >> 8;
  s[4] = id & 0xFF;
  s[5] = 0xC1;
  s[6] = 0;
  s[7] = 0;
}

static void
pat_packet (TsWriter * w, guint8 * out, gint table_id, gboolean flip_crc)
{
  guint8 s[16];

  section_head (s, table_id, sizeof (s), 1);
  s[8] = 0;                     /* program 1 */
  s[9] = 1;
  s[10] = 0xE0 | (TS_WRITER_PMT_PID >> 8);
  s[11] = TS_WRITER_PMT_PID & 0xFF;
  section_packet (w, out, 0, s, sizeof (s), flip_crc);
}

static void
pmt_packet (TsWriter * w, guint8 * out, gint pid)
{
  guint8 s[37];
  const gint es[] = { TS_WRITER_VIDEO_PID, TS_WRITER_AUDIO_PID,
    TS_WRITER_SCTE35_PID
  };
  guint n_es = w->scte35 ? 3 : 2, info = w->scte35 ? 6 : 0;
  gsize len = 12 + info + 5 * n_es + 4;

  section_head (s, 0x02, len, 1);
  s[8] = 0xE0 | (TS_WRITER_VIDEO_PID >> 8);     /* PCR_PID */
  s[9] = TS_WRITER_VIDEO_PID & 0xFF;
  s[10] = 0xF0;                 /* program_info_length */
  s[11] = info;
  if (info) {
    /* registration_descriptor, format_identifier "CUEI". */
    s[12] = 0x05;
    s[13] = 4;
    memcpy (s + 14, "CUEI", 4);
  }
  for (guint i = 0; i < n_es; i++) {
    guint8 *e = s + 12 + info + 5 * i;

    /* PES private data; ANSI/SCTE 35 splice_info_section.  With SCTE
     * 35 the audio is said to be MPEG-1 audio (0x03), so that a demuxer
     * (tsdemux) has a stream it exposes and the programme plays. */
    e[0] = es[i] == TS_WRITER_SCTE35_PID ? 0x86 : w->scte35 &&
        es[i] == TS_WRITER_AUDIO_PID ? 0x03 : 0x06;
    e[1] = 0xE0 | (es[i] >> 8);
    e[2] = es[i] & 0xFF;
    e[3] = 0xF0;
    e[4] = 0;
  }
  section_packet (w, out, pid, s, len, FALSE);
}

void
ts_writer_enable_scte35 (TsWriter * w)
{
  w->scte35 = TRUE;
}

gboolean
ts_writer_queue_scte35 (TsWriter * w, const guint8 * section, gsize len,
    gint64 at)
{
  if (w->n_cues == TS_WRITER_SCTE35_QUEUE || len > sizeof (w->cue[0]))
    return FALSE;
  memcpy (w->cue[w->n_cues], section, len);
  w->cue_len[w->n_cues] = len;
  w->cue_at[w->n_cues] = at;
  w->n_cues++;
  return TRUE;
}

/* The next packet of the section due, if one is. */
static gboolean
cue_packet (TsWriter * w, guint8 * out, gint64 t)
{
  guint i = w->cue_next;
  gsize n, room;
  gboolean first;

  if (i >= w->n_cues || t < w->cue_at[i])
    return FALSE;
  first = w->cue_pos == 0;
  header (w, out, TS_WRITER_SCTE35_PID, first, 1, 0);
  if (first)
    out[4] = 0;                 /* pointer_field */
  room = first ? 183 : 184;
  n = MIN (room, w->cue_len[i] - w->cue_pos);
  memcpy (out + 188 - room, w->cue[i] + w->cue_pos, n);
  memset (out + 188 - room + n, 0xFF, room - n);
  w->cue_pos += n;
  if (w->cue_pos == w->cue_len[i]) {
    w->cue_slot[i] = w->slot - 1;
    w->cue_pos = 0;
    w->cue_next++;
  }
  return TRUE;
}

static void
sdt_packet (TsWriter * w, guint8 * out)
{
  guint8 s[20];

  section_head (s, 0x42, sizeof (s), 1);
  s[8] = 0;                     /* original_network_id */
  s[9] = 1;
  s[10] = 0xFF;
  s[11] = 0;                    /* service 1 */
  s[12] = 1;
  s[13] = 0xFC;
  s[14] = 0x80;                 /* running, no descriptors */
  s[15] = 0;
  section_packet (w, out, 0x11, s, sizeof (s), FALSE);
}

static void
null_packet (guint8 * out)
{
  out[0] = 0x47;
  out[1] = NULL_PID >> 8;
  out[2] = NULL_PID & 0xFF;
  out[3] = 0x10;
  memset (out + 4, 0xFF, 184);
}

/* A PES packet of @n bytes in @buf, with the PTS of @t unless @no_pts. */
static gsize
pes (guint8 * buf, gsize n, gint stream_id, gint64 t, gboolean no_pts,
    guint8 fill)
{
  gsize h = no_pts ? 9 : 14, len = n - 6;
  gint64 pts = t * 9 / 100000 + PTS_OFFSET;

  buf[0] = 0;
  buf[1] = 0;
  buf[2] = 1;
  buf[3] = stream_id;
  /* Video PES may leave the length 0 (unbounded) in a TS. */
  buf[4] = stream_id == 0xE0 || len > 0xFFFF ? 0 : len >> 8;
  buf[5] = stream_id == 0xE0 || len > 0xFFFF ? 0 : len & 0xFF;
  buf[6] = 0x80;
  buf[7] = no_pts ? 0 : 0x80;
  buf[8] = h - 9;
  if (!no_pts) {
    buf[9] = 0x21 | ((pts >> 29) & 0x0E);
    buf[10] = pts >> 22;
    buf[11] = 0x01 | ((pts >> 14) & 0xFE);
    buf[12] = pts >> 7;
    buf[13] = 0x01 | ((pts << 1) & 0xFE);
  }
  memset (buf + h, fill, n - h);
  return n;
}

/* The packet of slot time @t, before the per-packet faults. */
static gint
produce (TsWriter * w, guint8 * out, gint64 t)
{
  gboolean first = !w->fault_done && t >= w->fault_at;

  if (t >= w->next_video) {
    gsize n = MIN (sizeof (w->video), w->rate * 3 / 4 / 25 / 8);

    w->video_len = pes (w->video, n, 0xE0, w->next_video,
        in_window (w, TS_FAULT_PTS_GAP, w->next_video, 800 * MS), 0xA5);
    w->video_pos = 0;
    w->next_video += FRAME_PERIOD;
  }
  if (t >= w->next_audio) {
    if (!in_window (w, TS_FAULT_PID_STOP, w->next_audio, 6000 * MS)) {
      w->audio_len = pes (w->audio, 384, 0xC0, w->next_audio, FALSE, 0x5A);
      w->audio_pos = 0;
    }
    w->next_audio += AUDIO_PERIOD;
  }
  if (t >= w->next_pat) {
    w->next_pat += PAT_PERIOD;
    if (!in_window (w, TS_FAULT_NO_PAT, t, 600 * MS)) {
      gboolean flip = first && w->fault == TS_FAULT_CRC;

      w->fault_done |= flip;
      pat_packet (w, out, 0x00, flip);
      return 0;
    }
  }
  if (t >= w->next_pmt) {
    w->next_pmt += PMT_PERIOD;
    if (!in_window (w, TS_FAULT_NO_PMT, t, 600 * MS)) {
      pmt_packet (w, out, TS_WRITER_PMT_PID);
      return TS_WRITER_PMT_PID;
    }
  }
  if (t >= w->next_sdt) {
    w->next_sdt += SDT_PERIOD;
    sdt_packet (w, out);
    return 0x11;
  }
  if (first && w->fault == TS_FAULT_PAT_TABLE) {
    w->fault_done = TRUE;
    pat_packet (w, out, 0x40, FALSE);
    return 0;
  }
  if (first && w->fault == TS_FAULT_CAT_TABLE) {
    w->fault_done = TRUE;
    pmt_packet (w, out, 0x0001);
    return 0x0001;
  }
  if (cue_packet (w, out, t))
    return TS_WRITER_SCTE35_PID;
  if (w->audio_pos < w->audio_len) {
    gint scrambled = in_window (w, TS_FAULT_SCRAMBLED, t, 100 * MS) ||
        in_window (w, TS_FAULT_SCRAMBLED_LONG, t, 2000 * MS) ? 2 : 0;

    w->audio_pos += payload_packet (w, out, TS_WRITER_AUDIO_PID,
        w->audio_pos == 0, w->audio + w->audio_pos,
        w->audio_len - w->audio_pos, -1, FALSE, scrambled);
    return TS_WRITER_AUDIO_PID;
  }
  if (w->video_pos < w->video_len || t >= w->next_pcr) {
    gint64 pcr = -1;
    gboolean disc = FALSE;

    if (t >= w->next_pcr && !in_window (w, TS_FAULT_PCR_GAP, t, 120 * MS)) {
      gboolean jump = (w->fault == TS_FAULT_PCR_JUMP ||
          w->fault == TS_FAULT_PCR_JUMP_FLAGGED) && t >= w->fault_at;

      pcr = t * 27 / 1000 + PCR_OFFSET + (jump ? 200 * 27000 : 0);
      disc = jump && !w->pcr_jumped && w->fault == TS_FAULT_PCR_JUMP_FLAGGED;
      w->pcr_jumped |= jump;
      if (first && w->fault == TS_FAULT_PCR_JITTER) {
        pcr += 27;              /* 1 us */
        w->fault_done = TRUE;
      }
      w->next_pcr = t + PCR_PERIOD;
    }
    if (w->video_pos < w->video_len) {
      w->video_pos += payload_packet (w, out, TS_WRITER_VIDEO_PID,
          w->video_pos == 0, w->video + w->video_pos,
          w->video_len - w->video_pos, pcr, disc, 0);
      return TS_WRITER_VIDEO_PID;
    }
    if (pcr >= 0) {
      /* A PCR with no video to carry it: adaptation field alone. */
      header (w, out, TS_WRITER_VIDEO_PID, FALSE, 2, 0);
      out[4] = 183;
      out[5] = (disc ? 0x80 : 0) | 0x10;
      memset (out + 6, 0xFF, 182);
      put_pcr (out + 6, pcr);
      return TS_WRITER_VIDEO_PID;
    }
  }
  null_packet (out);
  return NULL_PID;
}

void
ts_writer_next (TsWriter * w, guint8 * out, gint64 * time)
{
  gint64 t = (gint64) w->slot * w->slot_ns;
  gint pid;

  *time = t;
  w->slot++;
  if (w->repeats) {
    memcpy (out, w->repeat, 188);
    w->repeats--;
    return;
  }
  pid = produce (w, out, t);
  if (w->fault == TS_FAULT_RANDOM_DROPS && t >= w->fault_at &&
      pid != NULL_PID) {
    /* A linear congruential generator (Numerical Recipes' constants):
     * the same losses on every run. */
    w->random = w->random * 1664525u + 1013904223u;
    if ((w->random >> 8) % 300 == 0) {
      null_packet (out);
      w->dropped++;
    }
    return;
  }
  if (w->sync_left) {
    w->corrupted_pids[w->n_corrupted++] = pid;
    out[0] = 0x46;
    w->sync_left--;
    return;
  }
  /* The per-packet faults hit the first video packet with a payload at or
   * after the fault's time. */
  if (pid != TS_WRITER_VIDEO_PID || w->fault_done || t < w->fault_at ||
      !(out[3] & 0x10))
    return;
  switch (w->fault) {
    case TS_FAULT_DROP:
      null_packet (out);
      break;
    case TS_FAULT_DUPLICATE:
    case TS_FAULT_TRIPLICATE:
      memcpy (w->repeat, out, 188);
      w->repeats = w->fault == TS_FAULT_DUPLICATE ? 1 : 2;
      break;
    case TS_FAULT_SYNC_BYTE:
    case TS_FAULT_SYNC_LOSS:
      w->corrupted_pids[w->n_corrupted++] = pid;
      out[0] = 0x46;
      w->sync_left = w->fault == TS_FAULT_SYNC_LOSS ? 1 : 0;
      break;
    case TS_FAULT_TEI:
      out[1] |= 0x80;
      break;
    default:
      return;
  }
  w->fault_done = TRUE;
}
