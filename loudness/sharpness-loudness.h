/* Programme loudness and true peak (ITU-R BS.1770-4, EBU R 128 with EBU
 * Tech 3341 "EBU mode" and Tech 3342 loudness range) of one channel's
 * audio, measured by libebur128: momentary (400 ms), short-term (3 s),
 * integrated (gated) loudness, loudness range, and true peak.  Fixed
 * memory however long it runs (libebur128's histogram mode), no
 * allocation per buffer.  Plain C, GLib and libebur128: no GStreamer.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SHARPNESS_LOUDNESS_H
#define SHARPNESS_LOUDNESS_H

#include <glib.h>

G_BEGIN_DECLS

/* A reading; -inf (loudness) where the signal is below the absolute gate
 * or too short for the window, NaN where libebur128 had no answer. */
typedef struct
{
  /* Of the last whole 100 ms step (updated 10 times a second, as EBU
   * Tech 3341's meters): */
  gdouble momentary;            /* LUFS, the last 400 ms */
  gdouble short_term;           /* LUFS, the last 3 s */
  gdouble integrated;           /* LUFS, gated, since the start or reset */
  gdouble range;                /* LU, since the start or reset */
  gdouble true_peak;            /* dBTP, all channels, since start or reset */
  gdouble true_peak_last;       /* dBTP, all channels, the last push */
} SharpnessLoudnessReading;

typedef struct _SharpnessLoudness SharpnessLoudness;

/* What a channel is to BS.1770-4: its weight (1.0 front, 1.41 surround,
 * 0 unused as the LFE); DUAL_MONO counts a mono channel twice (a mono
 * programme heard on two loudspeakers). */
typedef enum
{
  SHARPNESS_LOUDNESS_UNUSED,
  SHARPNESS_LOUDNESS_LEFT,
  SHARPNESS_LOUDNESS_RIGHT,
  SHARPNESS_LOUDNESS_CENTER,
  SHARPNESS_LOUDNESS_LEFT_SURROUND,
  SHARPNESS_LOUDNESS_RIGHT_SURROUND,
  SHARPNESS_LOUDNESS_DUAL_MONO,
} SharpnessLoudnessChannel;

GQuark sharpness_loudness_error_quark (void);

/* @channels interleaved, in libebur128's default order for up to 6 (L, R,
 * C, LFE (not counted, as BS.1770 says), Ls, Rs), at @rate Hz.  NULL, with
 * @error, where libebur128 refuses them. */
SharpnessLoudness *sharpness_loudness_new (guint channels, guint rate,
    GError ** error);
void sharpness_loudness_free (SharpnessLoudness * l);

/* Channel @index's role (before the first push; kept across reset()):
 * for layouts other than libebur128's default order. */
gboolean sharpness_loudness_set_channel (SharpnessLoudness * l, guint index,
    SharpnessLoudnessChannel role, GError ** error);

/* @n_frames frames of interleaved samples, full scale +-1.0. */
void sharpness_loudness_push (SharpnessLoudness * l, const gfloat * frames,
    gsize n_frames);
void sharpness_loudness_read (SharpnessLoudness * l,
    SharpnessLoudnessReading * r);
/* Everything starts again (a programme change): the windows, integrated
 * loudness, range and true peak. */
gboolean sharpness_loudness_reset (SharpnessLoudness * l, GError ** error);

G_END_DECLS

#endif
