/* MPEG-TS packet synchronisation on a byte stream, with TR 101 290's
 * hysteresis (clause 5.2.1, 1.1): sync is acquired after 5 consecutive
 * correct sync bytes (0x47 every 188 bytes) and lost after 2 consecutive
 * corrupted ones.  Bytes come in pieces of any size; whole packets go to
 * a callback, from the caller's buffer where they lie whole in it (no
 * copy), else from a small carry buffer.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SHARPNESS_TS_SYNC_H
#define SHARPNESS_TS_SYNC_H

#include <glib.h>

G_BEGIN_DECLS

#define SHARPNESS_TS_PACKET_SIZE 188
#define SHARPNESS_TS_SYNC_BYTE 0x47
/* Consecutive sync bytes that acquire sync, corrupted ones that lose it. */
#define SHARPNESS_TS_SYNC_ACQUIRE 5
#define SHARPNESS_TS_SYNC_LOSE 2

typedef enum
{
  SHARPNESS_TS_SYNC_PACKET,     /* a packet with its sync byte */
  SHARPNESS_TS_SYNC_BAD_BYTE,   /* in sync, a slot whose byte is not 0x47 */
  SHARPNESS_TS_SYNC_LOST,       /* after SHARPNESS_TS_SYNC_LOSE of them */
} SharpnessTsSyncEvent;

/* @packet: the 188 bytes of the slot (PACKET and BAD_BYTE; NULL for
 * LOST); @index: the slot's number among those seen in sync, from 0. */
typedef void (*SharpnessTsSyncFunc) (SharpnessTsSyncEvent event,
    const guint8 * packet, guint64 index, gpointer user_data);

typedef struct
{
  SharpnessTsSyncFunc func;
  gpointer user_data;
  gboolean in_sync;
  guint bad_run;
  guint64 index;
  /* In sync: the start of a packet that a piece ended in (< 188 bytes).
   * Hunting: the bytes not yet ruled out as the start of 5 packets. */
  guint8 carry[2 * SHARPNESS_TS_SYNC_ACQUIRE * SHARPNESS_TS_PACKET_SIZE];
  gsize carry_len;
} SharpnessTsSync;

void sharpness_ts_sync_init (SharpnessTsSync * s, SharpnessTsSyncFunc func,
    gpointer user_data);
void sharpness_ts_sync_push (SharpnessTsSync * s, const guint8 * data,
    gsize size);

G_END_DECLS

#endif
