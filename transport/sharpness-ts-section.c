/* PSI/SI section reassembly (sharpness-ts-section.h).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "sharpness-ts-section.h"

#include <string.h>

/* TOT (ETSI EN 300 468 5.2.6): a CRC_32 without section_syntax_indicator. */
#define TABLE_ID_TOT 0x73

static guint32 crc_table[256];

static void
crc_table_init (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done)) {
    for (guint32 i = 0; i < 256; i++) {
      guint32 c = i << 24;

      for (gint k = 0; k < 8; k++)
        c = (c & 0x80000000u) ? (c << 1) ^ 0x04C11DB7u : c << 1;
      crc_table[i] = c;
    }
    g_once_init_leave (&done, 1);
  }
}

guint32
sharpness_ts_crc32 (const guint8 * data, gsize len)
{
  guint32 crc = 0xFFFFFFFFu;

  crc_table_init ();
  for (gsize i = 0; i < len; i++)
    crc = (crc << 8) ^ crc_table[(crc >> 24) ^ data[i]];
  return crc;
}

void
sharpness_ts_section_reset (SharpnessTsSection * s)
{
  s->len = s->need = 0;
  s->active = FALSE;
}

static void
emit (SharpnessTsSection * s, gint pid, SharpnessTsSectionFunc func,
    gpointer user_data)
{
  gboolean has_crc = (s->buf[1] & 0x80) || s->buf[0] == TABLE_ID_TOT;
  gboolean ok = TRUE;

  if (has_crc)
    ok = s->len >= 3 + 4 && sharpness_ts_crc32 (s->buf, s->len) == 0;
  func (pid, s->buf, s->len, has_crc, ok, user_data);
}

/* Bytes of @p taken into the current section (which ends, and is
 * emitted, once whole). */
static gsize
feed (SharpnessTsSection * s, gint pid, const guint8 * p, gsize n,
    SharpnessTsSectionFunc func, gpointer user_data)
{
  gsize used = 0;

  while (n > 0 && s->active) {
    gsize want = (s->need ? s->need : 3) - s->len;
    gsize k = MIN (want, n);

    memcpy (s->buf + s->len, p, k);
    s->len += k;
    p += k;
    n -= k;
    used += k;
    if (!s->need && s->len == 3) {
      gsize section_length = ((s->buf[1] & 0x0F) << 8) | s->buf[2];

      if (3 + section_length > SHARPNESS_TS_SECTION_MAX) {
        /* Not a section: the rest of the payload is not read. */
        sharpness_ts_section_reset (s);
        used += n;
        break;
      }
      s->need = 3 + section_length;
    }
    if (s->need && s->len == s->need) {
      emit (s, pid, func, user_data);
      sharpness_ts_section_reset (s);
    }
  }
  return used;
}

void
sharpness_ts_section_push (SharpnessTsSection * s, gint pid,
    const guint8 * payload, gsize len, gboolean unit_start,
    SharpnessTsSectionFunc func, gpointer user_data)
{
  gsize pointer;

  if (!unit_start) {
    feed (s, pid, payload, len, func, user_data);
    return;
  }
  if (len < 1 || 1 + (pointer = payload[0]) > len) {
    sharpness_ts_section_reset (s);
    return;
  }
  /* The bytes before the pointer end the section begun earlier; one
   * still unfinished after them was cut short. */
  feed (s, pid, payload + 1, pointer, func, user_data);
  sharpness_ts_section_reset (s);
  payload += 1 + pointer;
  len -= 1 + pointer;
  while (len > 0 && payload[0] != 0xFF) {
    gsize used;

    s->active = TRUE;
    used = feed (s, pid, payload, len, func, user_data);
    payload += used;
    len -= used;
    if (s->active || used == 0)
      break;
  }
}
