/* The times every message of the elements carries, and the `interval`
 * accounting that decides when a message is due.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * As `level` does: the buffer's PTS (`timestamp`), its stream and running
 * time in the segment, and its duration (else one frame at the caps'
 * rate); GST_CLOCK_TIME_NONE when unknown.
 */
#ifndef SHARPNESS_TIMES_H
#define SHARPNESS_TIMES_H

#include <gst/gst.h>
#include <gst/video/video.h>

G_BEGIN_DECLS

typedef struct
{
  GstClockTime timestamp, stream_time, running_time, duration;
} SharpnessTimes;

/* The times of @buffer in @segment (TIME only: else stream and running
 * time are NONE), its duration or one frame of @info's rate. */
void sharpness_times_set (SharpnessTimes * times, GstBuffer * buffer,
    const GstSegment * segment, const GstVideoInfo * info);

/* Sets timestamp, stream-time, running-time and duration on @s. */
void sharpness_times_to_structure (const SharpnessTimes * times,
    GstStructure * s);

/* Time accumulated since the last message of an element with an
 * `interval` property. */
typedef struct
{
  GstClockTime elapsed;
} SharpnessInterval;

void sharpness_interval_reset (SharpnessInterval * interval);
/* Adds a frame of @duration; TRUE when @period (ns, > 0) has elapsed, the
 * interval then starting again.  A frame of unknown duration closes the
 * interval: one message too many beats none at all. */
gboolean sharpness_interval_add (SharpnessInterval * interval,
    GstClockTime duration, guint64 period);

G_END_DECLS
#endif /* SHARPNESS_TIMES_H */
