/* sharpness-monitor: a channel's programme loudness and true peak
 * (ITU-R BS.1770-4, EBU R 128) by loudness/sharpness-loudness (libebur128),
 * on its first audio stream as the audio branch converts it (F32,
 * interleaved, the stream's own rate and channels).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Threads: the audio branch's streaming thread pushes (a pad probe); the
 * main loop reads.  Both under the meter's own lock.
 */
#ifndef MONITOR_LOUDNESS_H
#define MONITOR_LOUDNESS_H

#include <gst/gst.h>

G_BEGIN_DECLS

typedef struct
{
  gboolean measured;            /* audio came (a meter exists) */
  gdouble momentary, short_term, integrated;    /* LUFS, -inf: gated */
  gdouble range;                /* LU */
  gdouble true_peak;            /* dBTP since the stream's start */
  gdouble true_peak_recent;     /* dBTP since the last read, -inf: none */
  gint64 last_audio_us;         /* monotonic, the last buffer's; 0: none */
} MonitorLoudnessReading;

typedef struct _MonitorLoudness MonitorLoudness;

MonitorLoudness *monitor_loudness_new (void);
void monitor_loudness_free (MonitorLoudness * l);
/* The audio branch's pad whose F32 interleaved buffers are measured: a new
 * meter per stream (caps), for this pipeline. */
void monitor_loudness_attach (MonitorLoudness * l, GstPad * pad);
/* The reading now; its recent true peak starts again. */
void monitor_loudness_read (MonitorLoudness * l, MonitorLoudnessReading * r);
/* The same without touching the recent peak (rendering). */
void monitor_loudness_peek (MonitorLoudness * l, MonitorLoudnessReading * r);

G_END_DECLS
#endif /* MONITOR_LOUDNESS_H */
