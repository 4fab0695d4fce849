/* ETSI TR 101 290 priority 1 and 2 indicators (sharpness-tr101290.h).
 *
 * The packets come from the sync layer (sharpness-ts-sync.c), the PSI/SI
 * sections from the section layer (sharpness-ts-section.c); this file
 * holds the per-PID state and the indicators' rules.  The choices the
 * document leaves open, and why they were made so, are in
 * docs/reference/tr101290.md; the ones that shape the code are said
 * where they are made.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "sharpness-tr101290.h"
#include "sharpness-scte35.h"
#include "sharpness-ts-section.h"
#include "sharpness-ts-sync.h"

#include <string.h>

#define N_PIDS 8192
#define NULL_PID 0x1FFF
#define PAT_PID 0x0000
#define CAT_PID 0x0001
#define PCR_HZ G_GINT64_CONSTANT (27000000)
/* PCR values wrap at 2^33 * 300 ticks of 27 MHz (26.5 hours). */
#define PCR_WRAP ((G_GINT64_CONSTANT (1) << 33) * 300)
#define NS G_GINT64_CONSTANT (1000000000)
#define TIME_NONE SHARPNESS_TR101290_TIME_NONE
/* PIDs whose sections are assembled: PAT, CAT, NIT, SDT/BAT, EIT, TOT, the
 * PMTs and the SCTE 35 PIDs they declare; a stream listing more than this
 * has the others unread. */
#define MAX_SECTION_PIDS 64
#define MAX_ES 64
/* How often (stream time) absences are looked for between packets. */
#define CHECK_PERIOD (10 * G_GINT64_CONSTANT (1000000))
#define RATE_WINDOW NS

/* When something last occurred, and whether its current absence was
 * counted already (an absence is counted once, however long). */
typedef struct
{
  gint64 last;
  gboolean late;
} Watch;

typedef struct
{
  SharpnessTsSection sec;
  gint pid;
  gint version;                 /* PMT: the version read, -1 none */
  guint16 refs[MAX_ES + 1];     /* PMT: the PIDs it refers to */
  guint n_refs;
} SectionPid;

typedef struct
{
  guint64 packets, window_packets, rate_packets;
  gint8 last_cc;                /* -1: none yet */
  guint8 dups;                  /* repeats of the last packet */
  guint8 section;               /* index + 1 into sections, 0: none */
  guint8 watched:1, is_pmt:1, has_pts:1, has_pcr:1, scte35:1;
  guint16 refs;                 /* PMTs referring to it (1.6) */
  Watch pid_watch, pmt_watch, pts_watch, pcr_watch;
  gint64 pcr, pcr_time;
  guint64 pcr_index;
  gboolean pcr_valid;
  guint64 pts;
} Pid;

struct _SharpnessTr101290
{
  SharpnessTr101290Settings s;
  SharpnessTr101290ErrorFunc func;
  gpointer user_data;
  SharpnessTsSync sync;
  guint64 counts[SHARPNESS_TR101290_N_INDICATORS];

  /* The current packet's time (TIME_NONE: not known yet), and where it
   * comes from: the caller's arrival times, or the stream's PCRs. */
  gint64 now, push_time, next_check;
  gboolean derived;
  gint ref_pcr_pid;             /* derived: the PID whose PCRs give the rate */
  gdouble rate;                 /* derived: bits per second, 0 unknown */
  gint64 base_time;
  guint64 base_index, index;

  Watch pat_watch;
  gint pat_version;
  gboolean cat_seen, scrambled_without_cat;

  guint64 packets, window_packets, rate_packets;
  gint64 window_start, rate_window;

  /* ANSI/SCTE 35 on the PIDs the PMTs declare. */
  SharpnessTr101290Scte35Func scte35_func;
  gpointer scte35_data;
  guint64 scte35_counts[SHARPNESS_SCTE35_N_COUNTS];
  guint64 scte35_errors[SHARPNESS_SCTE35_N_RESULTS];
  guint n_scte35_pids;

  Pid *pids;
  guint16 *watched;
  guint n_watched;
  SectionPid *sections;
  guint n_sections;
};

static const gchar *indicator_names[] = {
  "TS_sync_loss", "Sync_byte_error", "PAT_error_2", "Continuity_count_error",
  "PMT_error_2", "PID_error", "Transport_error", "CRC_error",
  "PCR_repetition_error", "PCR_discontinuity_indicator_error",
  "PCR_accuracy_error", "PTS_error", "CAT_error",
};

G_STATIC_ASSERT (G_N_ELEMENTS (indicator_names) ==
    SHARPNESS_TR101290_N_INDICATORS);

const gchar *
sharpness_tr101290_indicator_name (SharpnessTr101290Indicator i)
{
  return i < SHARPNESS_TR101290_N_INDICATORS ? indicator_names[i] : NULL;
}

void
sharpness_tr101290_settings_init (SharpnessTr101290Settings * s)
{
  memset (s, 0, sizeof (*s));
  s->pat_interval = NS / 2;
  s->pmt_interval = NS / 2;
  s->pid_interval = 5 * NS;
  s->pcr_repetition = 40 * NS / 1000;
  s->pcr_discontinuity = 100 * NS / 1000;
  s->pcr_accuracy = 500;
  s->pts_interval = 700 * NS / 1000;
  s->pcr_accuracy_enabled = FALSE;
}

static void
error (SharpnessTr101290 * a, SharpnessTr101290Indicator i, gint pid,
    gint64 value, gint64 expected)
{
  SharpnessTr101290Error e = { i, a->index, pid, a->now, value, expected };

  a->counts[i]++;
  if (a->func)
    a->func (&e, a->user_data);
}

/* An occurrence: TRUE where it ends an absence longer than @limit that
 * was not counted yet (the interval in *@gap). */
static gboolean
watch_seen (Watch * w, gint64 now, gint64 limit, gint64 * gap)
{
  gboolean late = FALSE;

  if (now == TIME_NONE)
    return FALSE;
  if (w->last != TIME_NONE && !w->late && now - w->last > limit) {
    *gap = now - w->last;
    late = TRUE;
  }
  w->last = now;
  w->late = FALSE;
  return late;
}

/* No occurrence yet: TRUE the first time the absence passes @limit. */
static gboolean
watch_check (Watch * w, gint64 now, gint64 limit, gint64 * gap)
{
  if (w->last == TIME_NONE || w->late || now - w->last <= limit)
    return FALSE;
  w->late = TRUE;
  *gap = now - w->last;
  return TRUE;
}

static void
watch_start (Watch * w, gint64 now)
{
  w->last = now;
  w->late = FALSE;
}

static void
watch_pid (SharpnessTr101290 * a, gint pid)
{
  if (!a->pids[pid].watched) {
    a->pids[pid].watched = 1;
    a->watched[a->n_watched++] = pid;
  }
}

/* The absences, at @now. */
static void
check_watches (SharpnessTr101290 * a)
{
  gint64 now = a->now, gap;

  if (watch_check (&a->pat_watch, now, a->s.pat_interval, &gap))
    error (a, SHARPNESS_TR101290_PAT_ERROR_2, PAT_PID, gap,
        a->s.pat_interval);
  for (guint i = 0; i < a->n_watched; i++) {
    gint pid = a->watched[i];
    Pid *p = &a->pids[pid];

    if (p->is_pmt && watch_check (&p->pmt_watch, now, a->s.pmt_interval,
            &gap))
      error (a, SHARPNESS_TR101290_PMT_ERROR_2, pid, gap, a->s.pmt_interval);
    if (p->refs && watch_check (&p->pid_watch, now, a->s.pid_interval, &gap))
      error (a, SHARPNESS_TR101290_PID_ERROR, pid, gap, a->s.pid_interval);
    if (p->has_pcr && watch_check (&p->pcr_watch, now, a->s.pcr_repetition,
            &gap))
      error (a, SHARPNESS_TR101290_PCR_REPETITION_ERROR, pid, gap,
          a->s.pcr_repetition);
    if (p->has_pts && watch_check (&p->pts_watch, now, a->s.pts_interval,
            &gap))
      error (a, SHARPNESS_TR101290_PTS_ERROR, pid, gap, a->s.pts_interval);
  }
  a->next_check = now + CHECK_PERIOD;
}

/* Watches begun before the time was known start when it is. */
static void
start_untimed_watches (SharpnessTr101290 * a)
{
  if (a->pat_watch.last == TIME_NONE)
    watch_start (&a->pat_watch, a->now);
  for (guint i = 0; i < a->n_watched; i++) {
    Pid *p = &a->pids[a->watched[i]];
    Watch *w[] = { &p->pid_watch, &p->pmt_watch, &p->pts_watch,
      &p->pcr_watch
    };
    for (guint k = 0; k < G_N_ELEMENTS (w); k++)
      if (w[k]->last == TIME_NONE)
        watch_start (w[k], a->now);
  }
}

static SectionPid *
section_pid (SharpnessTr101290 * a, gint pid)
{
  Pid *p = &a->pids[pid];
  SectionPid *s;

  if (p->section)
    return &a->sections[p->section - 1];
  if (a->n_sections == MAX_SECTION_PIDS)
    return NULL;
  s = &a->sections[a->n_sections++];
  sharpness_ts_section_reset (&s->sec);
  s->pid = pid;
  s->version = -1;
  s->n_refs = 0;
  p->section = a->n_sections;
  return s;
}

/* --- Tables ----------------------------------------------------------- */

static void
unref_pids (SharpnessTr101290 * a, SectionPid * s)
{
  for (guint i = 0; i < s->n_refs; i++)
    a->pids[s->refs[i]].refs--;
  s->n_refs = 0;
}

static void
ref_pid (SharpnessTr101290 * a, SectionPid * s, gint pid)
{
  Pid *p = &a->pids[pid];

  for (guint i = 0; i < s->n_refs; i++)
    if (s->refs[i] == pid)
      return;
  if (s->n_refs == G_N_ELEMENTS (s->refs))
    return;
  s->refs[s->n_refs++] = pid;
  if (p->refs++ == 0)
    watch_start (&p->pid_watch, a->now);
  watch_pid (a, pid);
}

/* A PAT section: the PMT PIDs it lists (program 0 is the NIT's). */
static void
read_pat (SharpnessTr101290 * a, const guint8 * t, gsize len)
{
  gint version = (t[5] >> 1) & 0x1F;

  if (len < 12 || !(t[5] & 1))
    return;
  if (version != a->pat_version) {
    for (guint i = 0; i < a->n_watched; i++) {
      Pid *p = &a->pids[a->watched[i]];

      if (p->is_pmt && p->section) {
        /* Listed again, its PMT is read again. */
        unref_pids (a, &a->sections[p->section - 1]);
        a->sections[p->section - 1].version = -1;
      }
      p->is_pmt = 0;
    }
    a->pat_version = version;
  }
  for (gsize o = 8; o + 4 <= len - 4; o += 4) {
    gint program = (t[o] << 8) | t[o + 1];
    gint pid = ((t[o + 2] & 0x1F) << 8) | t[o + 3];
    Pid *p = &a->pids[pid];

    if (program == 0 || p->is_pmt || !section_pid (a, pid))
      continue;
    p->is_pmt = 1;
    watch_start (&p->pmt_watch, a->now);
    watch_pid (a, pid);
  }
}

/* Whether an ES_info loop of @n bytes holds a registration_descriptor
 * (ISO/IEC 13818-1 2.6.8) with format_identifier "CUEI". */
static gboolean
registered_cuei (const guint8 * d, gsize n)
{
  for (gsize o = 0; o + 2 <= n && o + 2 + d[o + 1] <= n; o += 2 + d[o + 1])
    if (d[o] == 0x05 && d[o + 1] >= 4 && ((guint32) d[o + 2] << 24 |
            d[o + 3] << 16 | d[o + 4] << 8 | d[o + 5]) ==
        SHARPNESS_SCTE35_CUEI)
      return TRUE;
  return FALSE;
}

/* A PID carrying splice_info_sections (ANSI/SCTE 35 2023r1 clause 8:
 * stream_type 0x86; or an elementary stream registered "CUEI" under
 * another stream_type, as some multiplexers write it).  Its sections are
 * assembled.  It is a data service, which TR 101 290 1.6's note takes out
 * of PID_error's limit: cues come minutes apart (the monitor's no-scte35
 * alarm watches their absence instead). */
static void
declare_scte35 (SharpnessTr101290 * a, gint pid)
{
  Pid *p = &a->pids[pid];

  if (p->scte35 || !section_pid (a, pid))
    return;
  p->scte35 = 1;
  a->n_scte35_pids++;
}

/* A PMT section: the PCR PID and the elementary streams it refers to. */
static void
read_pmt (SharpnessTr101290 * a, SectionPid * s, const guint8 * t, gsize len)
{
  gint version = (t[5] >> 1) & 0x1F, pcr_pid;
  gsize o, info, es_info;

  if (len < 16 || !(t[5] & 1) || version == s->version)
    return;
  s->version = version;
  unref_pids (a, s);
  pcr_pid = ((t[8] & 0x1F) << 8) | t[9];
  if (pcr_pid != NULL_PID)
    ref_pid (a, s, pcr_pid);
  info = ((t[10] & 0x0F) << 8) | t[11];
  for (o = 12 + info; o + 5 <= len - 4;) {
    gint pid = ((t[o + 1] & 0x1F) << 8) | t[o + 2];

    es_info = ((t[o + 3] & 0x0F) << 8) | t[o + 4];
    if (t[o] == SHARPNESS_SCTE35_STREAM_TYPE || (o + 5 + es_info <= len - 4
            && registered_cuei (t + o + 5, es_info)))
      declare_scte35 (a, pid);
    else
      ref_pid (a, s, pid);
    o += 5 + es_info;
  }
}

/* 2.2: the tables whose CRC_32 errors count, by PID and table_id. */
static gboolean
crc_counted (SharpnessTr101290 * a, gint pid, gint table_id)
{
  switch (pid) {
    case PAT_PID:
      return table_id == 0x00;
    case CAT_PID:
      return table_id == 0x01;
    case 0x0010:               /* NIT actual / other */
      return table_id == 0x40 || table_id == 0x41;
    case 0x0011:               /* SDT actual / other, BAT */
      return table_id == 0x42 || table_id == 0x46 || table_id == 0x4A;
    case 0x0012:               /* EIT */
      return table_id >= 0x4E && table_id <= 0x6F;
    case 0x0014:               /* TOT */
      return table_id == 0x73;
    default:
      return a->pids[pid].is_pmt && table_id == 0x02;
  }
}

/* A splice_info_section: its CRC_32 is checked by the parser (the
 * section has one although its section_syntax_indicator is 0). */
static void
read_scte35 (SharpnessTr101290 * a, gint pid, const guint8 * t, gsize len)
{
  SharpnessScte35 cue;
  SharpnessTr101290Scte35 e = { pid, a->index, a->now, 0, NULL };

  e.result = sharpness_scte35_parse (t, len, &cue);
  if (e.result == SHARPNESS_SCTE35_OK) {
    a->scte35_counts[sharpness_scte35_count_of (&cue)]++;
    e.cue = &cue;
  } else {
    a->scte35_errors[e.result]++;
  }
  if (a->scte35_func)
    a->scte35_func (&e, a->scte35_data);
}

static void
section (gint pid, const guint8 * t, gsize len, gboolean has_crc,
    gboolean crc_ok, gpointer user_data)
{
  SharpnessTr101290 *a = user_data;
  Pid *p = &a->pids[pid];
  gint table_id = t[0];
  gint64 gap;

  if (has_crc && !crc_ok && crc_counted (a, pid, table_id))
    error (a, SHARPNESS_TR101290_CRC_ERROR, pid, table_id, table_id);
  if (pid == PAT_PID) {
    /* 1.3.a: any PAT section is an occurrence, its CRC aside (counted as
     * 2.2); another table on PID 0 is an error of its own. */
    if (table_id != 0x00) {
      error (a, SHARPNESS_TR101290_PAT_ERROR_2, pid, table_id, 0x00);
      return;
    }
    if (watch_seen (&a->pat_watch, a->now, a->s.pat_interval, &gap))
      error (a, SHARPNESS_TR101290_PAT_ERROR_2, pid, gap, a->s.pat_interval);
    if (crc_ok)
      read_pat (a, t, len);
  } else if (pid == CAT_PID) {
    if (table_id != 0x01) {
      error (a, SHARPNESS_TR101290_CAT_ERROR, pid, table_id, 0x01);
      return;
    }
    a->cat_seen = TRUE;
    a->scrambled_without_cat = FALSE;
  } else if (p->is_pmt && table_id == 0x02) {
    if (watch_seen (&p->pmt_watch, a->now, a->s.pmt_interval, &gap))
      error (a, SHARPNESS_TR101290_PMT_ERROR_2, pid, gap, a->s.pmt_interval);
    if (crc_ok)
      read_pmt (a, &a->sections[p->section - 1], t, len);
  } else if (p->scte35 && table_id == SHARPNESS_SCTE35_TABLE_ID) {
    read_scte35 (a, pid, t, len);
  }
}

/* --- Packets ---------------------------------------------------------- */

static void
derive_rate (SharpnessTr101290 * a, Pid * p, gint64 delta)
{
  gdouble rate = (gdouble) (a->index - p->pcr_index) *
      SHARPNESS_TS_PACKET_SIZE * 8 * PCR_HZ / delta;

  if (a->rate > 0) {
    a->base_time = a->now;
  } else {
    /* The stream's time begins at the first of the two PCRs. */
    a->base_time = (gint64) (delta * NS / PCR_HZ);
  }
  a->base_index = a->index;
  a->rate = rate;
}

static void
read_pcr (SharpnessTr101290 * a, gint pid, const guint8 * af, gboolean disc)
{
  Pid *p = &a->pids[pid];
  gint64 pcr = ((gint64) af[2] << 25 | af[3] << 17 | af[4] << 9 |
      af[5] << 1 | af[6] >> 7) * 300 + ((af[6] & 1) << 8 | af[7]);
  gint64 delta, gap, limit = a->s.pcr_discontinuity * PCR_HZ / NS;
  gboolean checked = p->pcr_valid && !disc;

  if (!p->has_pcr) {
    p->has_pcr = 1;
    watch_pid (a, pid);
    if (a->ref_pcr_pid < 0)
      a->ref_pcr_pid = pid;
  }
  /* 2.3.a: the interval between PCRs of the PID, discontinuity or not. */
  if (watch_seen (&p->pcr_watch, a->now, a->s.pcr_repetition, &gap))
    error (a, SHARPNESS_TR101290_PCR_REPETITION_ERROR, pid, gap,
        a->s.pcr_repetition);
  delta = (pcr - p->pcr + PCR_WRAP) % PCR_WRAP;
  if (delta > PCR_WRAP / 2)
    delta -= PCR_WRAP;
  if (checked && (delta < 0 || delta > limit)) {
    error (a, SHARPNESS_TR101290_PCR_DISCONTINUITY_INDICATOR_ERROR, pid,
        delta, limit);
  } else if (checked) {
    if (a->s.pcr_accuracy_enabled && !a->derived &&
        p->pcr_time != TIME_NONE && a->now != TIME_NONE) {
      gint64 ac = delta * NS / PCR_HZ - (a->now - p->pcr_time);

      if (ABS (ac) > a->s.pcr_accuracy)
        error (a, SHARPNESS_TR101290_PCR_ACCURACY_ERROR, pid, ac,
            a->s.pcr_accuracy);
    }
    if (a->derived && pid == a->ref_pcr_pid && delta > 0)
      derive_rate (a, p, delta);
  }
  p->pcr = pcr;
  p->pcr_time = a->now;
  p->pcr_index = a->index;
  p->pcr_valid = TRUE;
}

/* The PTS of a PES packet's header (ISO/IEC 13818-1 2.4.3.6), where the
 * stream_id has the optional header. */
static void
read_pes (SharpnessTr101290 * a, gint pid, const guint8 * d, gsize len)
{
  Pid *p = &a->pids[pid];
  gint64 gap;
  gint id;

  if (len < 14 || d[0] != 0 || d[1] != 0 || d[2] != 1)
    return;
  id = d[3];
  /* program_stream_map, padding, private_stream_2, ECM, EMM, DSMCC,
   * H.222.1 type E, program_stream_directory: no PTS. */
  if (id == 0xBC || id == 0xBE || id == 0xBF || id == 0xF0 || id == 0xF1 ||
      id == 0xF2 || id == 0xF8 || id == 0xFF || !(d[7] & 0x80))
    return;
  p->pts = (guint64) ((d[9] >> 1) & 7) << 30 | d[10] << 22 |
      (d[11] >> 1) << 15 | d[12] << 7 | d[13] >> 1;
  if (!p->has_pts) {
    p->has_pts = 1;
    watch_pid (a, pid);
  }
  if (watch_seen (&p->pts_watch, a->now, a->s.pts_interval, &gap))
    error (a, SHARPNESS_TR101290_PTS_ERROR, pid, gap, a->s.pts_interval);
}

/* 1.4: FALSE where the packet repeats the last one (its payload is not
 * read again); *@lost where packets went missing. */
static gboolean
continuity (SharpnessTr101290 * a, gint pid, gint cc, gboolean payload,
    gboolean disc, gboolean * lost)
{
  Pid *p = &a->pids[pid];
  gint last = p->last_cc;
  gboolean fresh = TRUE;

  *lost = FALSE;
  p->last_cc = cc;
  if (pid == NULL_PID || last < 0 || disc) {
    p->dups = 0;
  } else if (!payload) {
    /* No payload: the counter does not move (13818-1 2.4.3.3). */
    if (cc != last)
      error (a, SHARPNESS_TR101290_CONTINUITY_COUNT_ERROR, pid, cc, last);
  } else if (cc == last) {
    /* One repeat is allowed; "a packet occurs more than twice" is not. */
    if (++p->dups >= 2)
      error (a, SHARPNESS_TR101290_CONTINUITY_COUNT_ERROR, pid, cc,
          (last + 1) & 0xF);
    fresh = FALSE;
  } else {
    p->dups = 0;
    if (cc != ((last + 1) & 0xF)) {
      error (a, SHARPNESS_TR101290_CONTINUITY_COUNT_ERROR, pid, cc,
          (last + 1) & 0xF);
      *lost = TRUE;
    }
  }
  return fresh;
}

static void
count_rates (SharpnessTr101290 * a)
{
  if (a->now == TIME_NONE)
    return;
  if (a->window_start == TIME_NONE) {
    a->window_start = a->now;
    return;
  }
  if (a->now - a->window_start < RATE_WINDOW)
    return;
  for (guint pid = 0; pid < N_PIDS; pid++) {
    a->pids[pid].rate_packets = a->pids[pid].window_packets;
    a->pids[pid].window_packets = 0;
  }
  a->rate_packets = a->window_packets;
  a->window_packets = 0;
  a->rate_window = a->now - a->window_start;
  a->window_start = a->now;
}

/* The PIDs of the tables in 2.2 other than the PMTs (their sections are
 * assembled from the first packet on). */
static gboolean
psi_si_pid (gint pid)
{
  return pid == PAT_PID || pid == CAT_PID || pid == 0x0010 ||
      pid == 0x0011 || pid == 0x0012 || pid == 0x0014;
}

static void
packet (SharpnessTr101290 * a, const guint8 * t)
{
  gint pid = ((t[1] & 0x1F) << 8) | t[2];
  gboolean unit_start = t[1] & 0x40;
  gint scrambling = t[3] >> 6, afc = (t[3] >> 4) & 3, cc = t[3] & 0x0F;
  Pid *p = &a->pids[pid];
  const guint8 *payload = t + 4;
  gsize len = 0;
  gboolean disc = FALSE, pcr = FALSE, lost, fresh;

  a->packets++;
  a->window_packets++;
  p->packets++;
  p->window_packets++;
  /* 2.1.  The packet is read all the same, as demuxers do: the flag says
   * the channel's decoder failed, not which bits are wrong. */
  if (t[1] & 0x80)
    error (a, SHARPNESS_TR101290_TRANSPORT_ERROR, pid, 1, 0);
  if (afc == 0)                 /* reserved: nothing to read */
    return;
  if (afc & 2) {
    gsize af_len = t[4];

    if (af_len > (afc == 3 ? 182u : 183u))
      return;
    if (af_len > 0) {
      disc = t[5] & 0x80;
      pcr = (t[5] & 0x10) && af_len >= 7;
    }
    payload = t + 5 + af_len;
  }
  if (afc & 1)
    len = t + SHARPNESS_TS_PACKET_SIZE - payload;
  fresh = continuity (a, pid, cc, afc & 1, disc, &lost);
  /* A repeated packet's PCR is the first one's, a packet time late. */
  if (pcr && fresh)
    read_pcr (a, pid, t + 4, disc);

  if (p->refs) {
    gint64 gap;

    if (watch_seen (&p->pid_watch, a->now, a->s.pid_interval, &gap))
      error (a, SHARPNESS_TR101290_PID_ERROR, pid, gap, a->s.pid_interval);
  }
  if (scrambling) {
    if (pid == PAT_PID)
      error (a, SHARPNESS_TR101290_PAT_ERROR_2, pid, scrambling, 0);
    else if (p->is_pmt)
      error (a, SHARPNESS_TR101290_PMT_ERROR_2, pid, scrambling, 0);
    /* 2.6: scrambled packets and no CAT: counted once until a CAT. */
    if (!a->cat_seen && !a->scrambled_without_cat) {
      a->scrambled_without_cat = TRUE;
      error (a, SHARPNESS_TR101290_CAT_ERROR, pid, scrambling, 0);
    }
    /* A scrambled PES header hides its PTS: not an absence (2.5). */
    if (unit_start && p->has_pts)
      watch_start (&p->pts_watch, a->now);
    return;
  }
  if (!fresh || len == 0)
    return;
  if (!p->section && psi_si_pid (pid))
    section_pid (a, pid);
  if (p->section) {
    SectionPid *s = &a->sections[p->section - 1];

    if (lost)
      sharpness_ts_section_reset (&s->sec);
    sharpness_ts_section_push (&s->sec, pid, payload, len, unit_start,
        section, a);
  } else if (unit_start) {
    read_pes (a, pid, payload, len);
  }
}

static void
sync_event (SharpnessTsSyncEvent event, const guint8 * t, guint64 index,
    gpointer user_data)
{
  SharpnessTr101290 *a = user_data;

  a->index = index;
  if (a->derived) {
    a->now = a->rate > 0 ? a->base_time + (gint64) ((gdouble) (index -
            a->base_index) * SHARPNESS_TS_PACKET_SIZE * 8 * NS / a->rate) :
        TIME_NONE;
  } else {
    a->now = a->push_time;
  }
  if (a->now != TIME_NONE) {
    if (a->next_check == TIME_NONE)
      start_untimed_watches (a);
    if (a->next_check == TIME_NONE || a->now >= a->next_check)
      check_watches (a);
  }
  switch (event) {
    case SHARPNESS_TS_SYNC_PACKET:
      packet (a, t);
      count_rates (a);
      break;
    case SHARPNESS_TS_SYNC_BAD_BYTE:
      /* A slot without its sync byte is not read: nothing in it can be
       * trusted to be a packet (its PID's next packet shows it lost). */
      error (a, SHARPNESS_TR101290_SYNC_BYTE_ERROR, -1, t[0],
          SHARPNESS_TS_SYNC_BYTE);
      break;
    case SHARPNESS_TS_SYNC_LOST:
      error (a, SHARPNESS_TR101290_TS_SYNC_LOSS, -1, 0, 0);
      break;
  }
}

SharpnessTr101290 *
sharpness_tr101290_new (const SharpnessTr101290Settings * s,
    SharpnessTr101290ErrorFunc func, gpointer user_data)
{
  SharpnessTr101290 *a = g_new0 (SharpnessTr101290, 1);

  if (s)
    a->s = *s;
  else
    sharpness_tr101290_settings_init (&a->s);
  a->func = func;
  a->user_data = user_data;
  a->pids = g_new0 (Pid, N_PIDS);
  a->watched = g_new0 (guint16, N_PIDS);
  a->sections = g_new0 (SectionPid, MAX_SECTION_PIDS);
  for (guint pid = 0; pid < N_PIDS; pid++) {
    Pid *p = &a->pids[pid];

    p->last_cc = -1;
    p->pid_watch.last = p->pmt_watch.last = p->pts_watch.last =
        p->pcr_watch.last = TIME_NONE;
    p->pcr_time = TIME_NONE;
  }
  a->pat_watch.last = TIME_NONE;
  a->pat_version = -1;
  a->ref_pcr_pid = -1;
  a->now = a->push_time = a->next_check = a->window_start = TIME_NONE;
  sharpness_ts_sync_init (&a->sync, sync_event, a);
  return a;
}

void
sharpness_tr101290_free (SharpnessTr101290 * a)
{
  if (!a)
    return;
  g_free (a->pids);
  g_free (a->watched);
  g_free (a->sections);
  g_free (a);
}

void
sharpness_tr101290_push (SharpnessTr101290 * a, const guint8 * data,
    gsize size, gint64 time)
{
  /* The first push says which clock the stream has. */
  if (a->packets == 0 && a->sync.index == 0)
    a->derived = time == TIME_NONE;
  a->push_time = time;
  sharpness_ts_sync_push (&a->sync, data, size);
}

void
sharpness_tr101290_tick (SharpnessTr101290 * a, gint64 time)
{
  if (a->derived || time == TIME_NONE || a->next_check == TIME_NONE)
    return;
  a->now = time;
  check_watches (a);
}

guint64
sharpness_tr101290_count (const SharpnessTr101290 * a,
    SharpnessTr101290Indicator i)
{
  return i < SHARPNESS_TR101290_N_INDICATORS ? a->counts[i] : 0;
}

gboolean
sharpness_tr101290_in_sync (const SharpnessTr101290 * a)
{
  return a->sync.in_sync;
}

guint64
sharpness_tr101290_packets (const SharpnessTr101290 * a, gint pid)
{
  if (pid < 0)
    return a->packets;
  return pid < N_PIDS ? a->pids[pid].packets : 0;
}

gdouble
sharpness_tr101290_bitrate (const SharpnessTr101290 * a, gint pid)
{
  guint64 n;

  if (a->rate_window <= 0 || pid >= N_PIDS)
    return 0;
  n = pid < 0 ? a->rate_packets : a->pids[pid].rate_packets;
  return (gdouble) n * SHARPNESS_TS_PACKET_SIZE * 8 * NS / a->rate_window;
}

gboolean
sharpness_tr101290_last_pcr (const SharpnessTr101290 * a, gint pid,
    guint64 * pcr)
{
  if (pid < 0 || pid >= N_PIDS || !a->pids[pid].pcr_valid)
    return FALSE;
  *pcr = a->pids[pid].pcr;
  return TRUE;
}

gboolean
sharpness_tr101290_last_pts (const SharpnessTr101290 * a, gint pid,
    guint64 * pts)
{
  if (pid < 0 || pid >= N_PIDS || !a->pids[pid].has_pts)
    return FALSE;
  *pts = a->pids[pid].pts;
  return TRUE;
}

void
sharpness_tr101290_set_scte35_func (SharpnessTr101290 * a,
    SharpnessTr101290Scte35Func func, gpointer user_data)
{
  a->scte35_func = func;
  a->scte35_data = user_data;
}

guint64
sharpness_tr101290_scte35_count (const SharpnessTr101290 * a,
    SharpnessScte35Count c)
{
  return c < SHARPNESS_SCTE35_N_COUNTS ? a->scte35_counts[c] : 0;
}

guint64
sharpness_tr101290_scte35_errors (const SharpnessTr101290 * a,
    SharpnessScte35Result r)
{
  return r < SHARPNESS_SCTE35_N_RESULTS ? a->scte35_errors[r] : 0;
}

guint
sharpness_tr101290_scte35_pids (const SharpnessTr101290 * a)
{
  return a->n_scte35_pids;
}
