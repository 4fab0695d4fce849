/* A test writer of ANSI/SCTE 35 2023r1 splice_info_sections: the section,
 * every command and segmentation_descriptor() written bit by bit from the
 * standard's syntax tables, independently of the parser it tests
 * (transport/sharpness-scte35.c), with their CRC_32.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SCTE35_WRITER_H
#define SCTE35_WRITER_H

#include <glib.h>

#include "sharpness-scte35.h"

G_BEGIN_DECLS

/* @s as a section into @out (@max bytes): the fields the parser keeps, as
 * given (the times' pts_time; splice_count splices, component_count
 * components, segmentation_count descriptors, each UPID of upid_length
 * bytes); a segmentation without program_segmentation gets two
 * components; @bad_crc: the CRC_32's last bit flipped.  Returns the
 * length, 0 where it does not fit. */
gsize scte35_write (const SharpnessScte35 * s, guint8 * out, gsize max,
    gboolean bad_crc);

/* A description of each command with every field set to something other
 * than its neighbour's, for the tests to start from; a pts_time of
 * SHARPNESS_SCTE35_TIME_NONE is a time not specified. */
void scte35_describe_insert (SharpnessScte35 * s, guint32 event_id,
    guint64 pts_time, guint64 adjustment);
/* A splice_insert of three components (tags 0x20 to 0x22) instead of the
 * programme: the first at 5 s, the second without a time, the third at
 * 15 s. */
void scte35_describe_component_insert (SharpnessScte35 * s, guint32 event_id,
    guint64 adjustment);
void scte35_describe_time_signal (SharpnessScte35 * s, guint64 pts_time,
    guint64 adjustment);
/* A command without fields (splice_null, bandwidth_reservation, or any
 * @command_type the tests choose). */
void scte35_describe_command (SharpnessScte35 * s, gint command_type);
/* A splice_schedule of one programme splice, @event_id. */
void scte35_describe_schedule (SharpnessScte35 * s, guint32 event_id);

G_END_DECLS

#endif
