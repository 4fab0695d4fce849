/* PSI/SI sections of one PID reassembled from its packets' payloads
 * (ISO/IEC 13818-1 2.4.4: pointer_field, sections spanning packets and
 * several in one packet, 0xFF stuffing), each checked against its CRC_32
 * where it has one.  One assembler per PID; fixed storage, no allocation.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SHARPNESS_TS_SECTION_H
#define SHARPNESS_TS_SECTION_H

#include <glib.h>

G_BEGIN_DECLS

/* The longest section: 3 header bytes and a section_length of 4093
 * (private sections; PSI tables stop at 1021). */
#define SHARPNESS_TS_SECTION_MAX 4096

/* A whole section: @crc_ok is TRUE where it has no CRC_32 (sections
 * without section_syntax_indicator, TOT aside) or where its CRC_32 holds;
 * @has_crc says which. */
typedef void (*SharpnessTsSectionFunc) (gint pid, const guint8 * section,
    gsize len, gboolean has_crc, gboolean crc_ok, gpointer user_data);

typedef struct
{
  guint8 buf[SHARPNESS_TS_SECTION_MAX];
  gsize len, need;
  gboolean active;
} SharpnessTsSection;

void sharpness_ts_section_reset (SharpnessTsSection * s);

/* The payload of one packet of the PID (its payload_unit_start_indicator
 * in @unit_start).  The caller resets the assembler where a packet was
 * lost (a continuity error) so that no section is glued from pieces. */
void sharpness_ts_section_push (SharpnessTsSection * s, gint pid,
    const guint8 * payload, gsize len, gboolean unit_start,
    SharpnessTsSectionFunc func, gpointer user_data);

/* ISO/IEC 13818-1 Annex A's CRC_32 (polynomial 0x04C11DB7, register
 * preset to all ones, no reflection, no final XOR): 0 over a whole
 * section whose CRC_32 holds. */
guint32 sharpness_ts_crc32 (const guint8 * data, gsize len);

G_END_DECLS

#endif
