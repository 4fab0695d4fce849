/* ANSI/SCTE 35 2023r1 splice_info_section (table_id 0xFC): one whole
 * section read into fixed storage (no allocation), its CRC_32 checked:
 * the header, the command (splice_null, splice_schedule, splice_insert,
 * time_signal, bandwidth_reservation, private_command) and the
 * segmentation descriptors.  Splice times are given as written and with
 * pts_adjustment added (33-bit wrap), which is what a splicer acts on.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SHARPNESS_SCTE35_H
#define SHARPNESS_SCTE35_H

#include <glib.h>

G_BEGIN_DECLS

#define SHARPNESS_SCTE35_TABLE_ID 0xFC
/* ISO/IEC 13818-1 Table 2-34: "ANSI/SCTE 35 splice_info_section". */
#define SHARPNESS_SCTE35_STREAM_TYPE 0x86
/* The registration descriptor's format_identifier "CUEI", and the
 * splice descriptors' identifier. */
#define SHARPNESS_SCTE35_CUEI 0x43554549u
/* A time not given (not specified, immediate, no duration). */
#define SHARPNESS_SCTE35_TIME_NONE G_MAXUINT64
/* PTS values wrap at 2^33 (90 kHz). */
#define SHARPNESS_SCTE35_PTS_MASK ((G_GUINT64_CONSTANT (1) << 33) - 1)

/* What is kept of a section (the rest is counted only). */
#define SHARPNESS_SCTE35_MAX_SPLICES 4
#define SHARPNESS_SCTE35_MAX_COMPONENTS 8
#define SHARPNESS_SCTE35_MAX_SEGMENTATIONS 4

/* splice_command_type. */
typedef enum
{
  SHARPNESS_SCTE35_SPLICE_NULL = 0x00,
  SHARPNESS_SCTE35_SPLICE_SCHEDULE = 0x04,
  SHARPNESS_SCTE35_SPLICE_INSERT = 0x05,
  SHARPNESS_SCTE35_TIME_SIGNAL = 0x06,
  SHARPNESS_SCTE35_BANDWIDTH_RESERVATION = 0x07,
  SHARPNESS_SCTE35_PRIVATE_COMMAND = 0xFF,
} SharpnessScte35CommandType;

/* The commands as they are counted: the six, a section whose command is
 * encrypted (encrypted_packet 1: its type is in the encrypted part), and
 * a reserved command type. */
typedef enum
{
  SHARPNESS_SCTE35_COUNT_SPLICE_NULL,
  SHARPNESS_SCTE35_COUNT_SPLICE_SCHEDULE,
  SHARPNESS_SCTE35_COUNT_SPLICE_INSERT,
  SHARPNESS_SCTE35_COUNT_TIME_SIGNAL,
  SHARPNESS_SCTE35_COUNT_BANDWIDTH_RESERVATION,
  SHARPNESS_SCTE35_COUNT_PRIVATE_COMMAND,
  SHARPNESS_SCTE35_COUNT_ENCRYPTED,
  SHARPNESS_SCTE35_COUNT_RESERVED,
  SHARPNESS_SCTE35_N_COUNTS
} SharpnessScte35Count;

/* Why a section was not read. */
typedef enum
{
  SHARPNESS_SCTE35_OK,
  SHARPNESS_SCTE35_CRC_ERROR,   /* its CRC_32 does not hold */
  SHARPNESS_SCTE35_MALFORMED,   /* lengths or fields past its end */
  SHARPNESS_SCTE35_N_RESULTS
} SharpnessScte35Result;

/* A splice time: as written (pts_time, 90 kHz) and plus pts_adjustment
 * modulo 2^33; both TIME_NONE where none is given. */
typedef struct
{
  guint64 pts_time, pts;
} SharpnessScte35Time;

typedef struct
{
  guint8 tag;
  SharpnessScte35Time time;     /* splice_insert; NONE in a schedule */
  guint32 utc_splice_time;      /* splice_schedule */
} SharpnessScte35Component;

/* One splice event: splice_insert's, or one of splice_schedule's. */
typedef struct
{
  guint32 splice_event_id;
  gboolean cancel;              /* splice_event_cancel_indicator */
  gboolean out_of_network, program_splice, duration_flag;
  gboolean splice_immediate;    /* splice_insert */
  gboolean event_id_compliance; /* splice_insert (2020 on) */
  SharpnessScte35Time time;     /* splice_insert, program splice */
  guint32 utc_splice_time;      /* splice_schedule, program splice */
  gboolean auto_return;
  guint64 duration;             /* break_duration, 90 kHz; NONE: none */
  guint16 unique_program_id;
  guint8 avail_num, avails_expected;
  guint component_count;        /* as written; the first MAX kept */
  SharpnessScte35Component components[SHARPNESS_SCTE35_MAX_COMPONENTS];
} SharpnessScte35Splice;

/* segmentation_descriptor (tag 0x02, identifier CUEI). */
typedef struct
{
  guint32 event_id;
  gboolean cancel, event_id_compliance;
  gboolean program_segmentation, delivery_not_restricted;
  gboolean web_delivery_allowed, no_regional_blackout, archive_allowed;
  guint8 device_restrictions;
  guint64 duration;             /* 90 kHz, 40 bits; NONE: none */
  guint8 upid_type, upid_length;
  guint8 type_id, segment_num, segments_expected;
  gboolean has_sub_segment;
  guint8 sub_segment_num, sub_segments_expected;
} SharpnessScte35Segmentation;

typedef struct
{
  guint8 sap_type, protocol_version;
  gboolean encrypted;           /* encrypted_packet */
  guint8 encryption_algorithm, cw_index;
  guint64 pts_adjustment;
  guint16 tier, splice_command_length;
  guint8 command_type;          /* SharpnessScte35CommandType, or other */
  /* time_signal. */
  SharpnessScte35Time time;
  /* splice_insert: one; splice_schedule: splice_count, the first MAX
   * kept. */
  guint splice_count;
  SharpnessScte35Splice splices[SHARPNESS_SCTE35_MAX_SPLICES];
  guint32 private_identifier;   /* private_command */
  guint n_descriptors;          /* splice descriptors, all tags */
  guint segmentation_count;     /* as written; the first MAX kept */
  SharpnessScte35Segmentation segmentations[SHARPNESS_SCTE35_MAX_SEGMENTATIONS];
} SharpnessScte35;

/* @section (@len bytes, from table_id to CRC_32) into @out.  An
 * encrypted section has its header read and no command (count
 * ENCRYPTED). */
SharpnessScte35Result sharpness_scte35_parse (const guint8 * section,
    gsize len, SharpnessScte35 * out);

/* How @s is counted. */
SharpnessScte35Count sharpness_scte35_count_of (const SharpnessScte35 * s);

/* "splice_null", "splice_schedule", "splice_insert", "time_signal",
 * "bandwidth_reservation", "private_command", "encrypted", "reserved"
 * (ANSI/SCTE 35's names, as metrics' label values). */
const gchar *sharpness_scte35_count_name (SharpnessScte35Count c);
/* "crc_error", "malformed"; NULL for OK. */
const gchar *sharpness_scte35_result_name (SharpnessScte35Result r);

G_END_DECLS

#endif
