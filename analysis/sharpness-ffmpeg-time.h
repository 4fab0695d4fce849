/* FFmpeg's time arithmetic, for the black and freeze detectors that must
 * decide exactly as FFmpeg's blackdetect and freezedetect filters do.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * GStreamer times are nanoseconds; FFmpeg's filters count in their input
 * link's time base (ticks) and, for freezedetect's durations, in
 * microseconds.  A time base is optional everywhere: without one the
 * detectors work in nanoseconds (a time base of 1/1000000000), which is
 * FFmpeg's answer whenever the minimum duration is a whole number of ticks
 * (docs/reference/black-freeze.md, "Times").  With one, a pts in ns is turned back
 * into the tick it came from (rounded to nearest, the inverse of the
 * round-to-nearest conversion of GStreamer's libav elements and of
 * av_rescale_q), and the arithmetic is FFmpeg's, tick for tick.
 */
#ifndef SHARPNESS_FFMPEG_TIME_H
#define SHARPNESS_FFMPEG_TIME_H

#include <glib.h>

G_BEGIN_DECLS

#ifndef SHARPNESS_TIME_NONE
/* "No time" (GST_CLOCK_TIME_NONE without GStreamer). */
#define SHARPNESS_TIME_NONE G_MAXUINT64
#endif

/* A time base, seconds per tick = num / den; {0, 0} means "none given"
 * (the detectors then count in nanoseconds). */
typedef struct
{
  gint64 num, den;
} SharpnessTimeBase;

/* TRUE if @tb is a usable time base (num > 0 and den > 0). */
gboolean sharpness_time_base_valid (const SharpnessTimeBase * tb);

/* a * b / c rounded to nearest, halves away from zero: av_rescale_rnd
 * (a, b, c, AV_ROUND_NEAR_INF) for a >= 0, b > 0, c > 0 (exact, 128-bit
 * intermediate).  Saturates at G_MAXINT64. */
gint64 sharpness_ffmpeg_rescale (gint64 a, gint64 b, gint64 c);

/* The tick of @tb nearest to @ns nanoseconds (@tb valid). */
gint64 sharpness_ffmpeg_ticks_from_ns (guint64 ns, const SharpnessTimeBase *
    tb);

G_END_DECLS
#endif /* SHARPNESS_FFMPEG_TIME_H */
