/* MPEG-TS packet synchronisation (sharpness-ts-sync.h).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "sharpness-ts-sync.h"

#include <string.h>

#define PS SHARPNESS_TS_PACKET_SIZE
/* Bytes from a candidate start to the last of the sync bytes that confirm
 * it, inclusive. */
#define SPAN ((SHARPNESS_TS_SYNC_ACQUIRE - 1) * PS + 1)

void
sharpness_ts_sync_init (SharpnessTsSync * s, SharpnessTsSyncFunc func,
    gpointer user_data)
{
  memset (s, 0, sizeof (*s));
  s->func = func;
  s->user_data = user_data;
}

/* One 188-byte slot in sync; FALSE where it lost the sync. */
static gboolean
slot (SharpnessTsSync * s, const guint8 * p)
{
  if (p[0] == SHARPNESS_TS_SYNC_BYTE) {
    s->bad_run = 0;
    s->func (SHARPNESS_TS_SYNC_PACKET, p, s->index++, s->user_data);
    return TRUE;
  }
  s->func (SHARPNESS_TS_SYNC_BAD_BYTE, p, s->index++, s->user_data);
  if (++s->bad_run < SHARPNESS_TS_SYNC_LOSE)
    return TRUE;
  s->in_sync = FALSE;
  s->bad_run = 0;
  s->func (SHARPNESS_TS_SYNC_LOST, NULL, s->index, s->user_data);
  return FALSE;
}

/* Hunting: the first offset of the carry where SHARPNESS_TS_SYNC_ACQUIRE
 * sync bytes follow each other a packet apart becomes its start (TRUE);
 * else the bytes that cannot start such a run are dropped (FALSE). */
static gboolean
find_sync (SharpnessTsSync * s)
{
  gsize o, k, drop;

  for (o = 0; o + SPAN <= s->carry_len; o++) {
    for (k = 0; k < SHARPNESS_TS_SYNC_ACQUIRE; k++)
      if (s->carry[o + k * PS] != SHARPNESS_TS_SYNC_BYTE)
        break;
    if (k == SHARPNESS_TS_SYNC_ACQUIRE) {
      memmove (s->carry, s->carry + o, s->carry_len - o);
      s->carry_len -= o;
      s->in_sync = TRUE;
      s->bad_run = 0;
      return TRUE;
    }
  }
  drop = s->carry_len >= SPAN ? s->carry_len - SPAN + 1 : 0;
  memmove (s->carry, s->carry + drop, s->carry_len - drop);
  s->carry_len -= drop;
  return FALSE;
}

void
sharpness_ts_sync_push (SharpnessTsSync * s, const guint8 * data, gsize size)
{
  while (size > 0) {
    if (!s->in_sync) {
      gsize n = MIN (size, sizeof (s->carry) - s->carry_len);
      guint8 replay[sizeof (s->carry)];
      gsize len;

      memcpy (s->carry + s->carry_len, data, n);
      s->carry_len += n;
      data += n;
      size -= n;
      if (!find_sync (s))
        continue;
      /* The carry now starts with a packet: read it as in sync (it may
       * lose the sync again, which refills the carry). */
      len = s->carry_len;
      memcpy (replay, s->carry, len);
      s->carry_len = 0;
      sharpness_ts_sync_push (s, replay, len);
    } else if (s->carry_len > 0) {
      gsize n = MIN (size, PS - s->carry_len);

      memcpy (s->carry + s->carry_len, data, n);
      s->carry_len += n;
      data += n;
      size -= n;
      if (s->carry_len < PS)
        continue;
      s->carry_len = 0;
      if (!slot (s, s->carry)) {
        /* Hunting starts at the byte after the slot's first. */
        memmove (s->carry, s->carry + 1, PS - 1);
        s->carry_len = PS - 1;
      }
    } else {
      while (size >= PS) {
        const guint8 *p = data;

        data += PS;
        size -= PS;
        if (!slot (s, p)) {
          data = p + 1;
          size += PS - 1;
          break;
        }
      }
      if (s->in_sync && size > 0 && size < PS) {
        memcpy (s->carry, data, size);
        s->carry_len = size;
        size = 0;
      }
    }
  }
}
