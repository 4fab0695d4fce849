/* From blurry frames to blurry segments: the one implementation behind the
 * element's `sharpness-blurry-start` / `sharpness-blurry-end` alarms and
 * the segments of `sharpness-scan`.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Plain GLib, no GStreamer, no allocation per frame.  A *run* starts at a
 * blurry frame and goes on while at most `max_gap` consecutive sharp frames
 * separate two blurry ones; it spans its first to its last blurry frame
 * (the gap frames inside count, the trailing ones do not).  A run becomes a
 * *segment* once it lasts `min_duration`: from the start of its first
 * frame to the end of its last one.  The tracker then reports START (once)
 * and, when the run ends, END.  A run that never reaches min_duration is
 * dropped silently: an isolated glitch is no alarm.
 */
#ifndef SHARPNESS_BLUR_SEGMENTS_H
#define SHARPNESS_BLUR_SEGMENTS_H

#include <glib.h>

G_BEGIN_DECLS

/* "No time" (GST_CLOCK_TIME_NONE without GStreamer). */
#define SHARPNESS_TIME_NONE G_MAXUINT64

/* One scored frame.  Times in nanoseconds, SHARPNESS_TIME_NONE when
 * unknown; @duration is used for the end of the segment's last frame. */
typedef struct
{
  guint64 index;                /* frame index */
  guint64 pts, duration, running_time, stream_time;
  gdouble score;
  gboolean blurry;
} SharpnessSegmentFrame;

/* A blurry segment (or the run that may become one). */
typedef struct
{
  guint64 start_frame, end_frame;       /* inclusive */
  /* First frame's times; end = last frame's pts + duration. */
  guint64 start, end, running_time, stream_time;
  guint64 frames;               /* end_frame - start_frame + 1 */
  guint64 blurry_frames;        /* frames flagged blurry among them */
  guint64 scored_frames;        /* frames with a score among them */
  gdouble min_score, max_score, sum_score;
  /* The worst frame (lowest score for higher-is-sharper metrics, highest
   * otherwise); its index and score. */
  guint64 worst_frame;
  gdouble worst_score;
} SharpnessSegment;

/* Duration of @seg in ns: end - start, or, without times, 0. */
guint64 sharpness_segment_duration (const SharpnessSegment * seg);
/* Mean score of its scored frames. */
gdouble sharpness_segment_mean (const SharpnessSegment * seg);

typedef enum
{
  SHARPNESS_SEGMENT_NONE = 0,
  /* The run just reached min_duration: a segment has started. */
  SHARPNESS_SEGMENT_START = 1 << 0,
  /* A segment ended (the sharp frames after it exceeded max_gap, or
   * finish() was called). */
  SHARPNESS_SEGMENT_END = 1 << 1
} SharpnessSegmentEvent;

typedef struct
{
  guint64 min_duration;         /* ns */
  guint max_gap;                /* frames */
  gboolean lower_is_sharper;    /* the metric's direction, for "worst" */

  gboolean open;                /* a run is open */
  gboolean started;             /* ... and START was reported */
  SharpnessSegment run;
  /* Sharp frames after the run's last blurry frame, not yet in it. */
  guint gap;
  gdouble gap_min, gap_max, gap_sum;
  guint64 gap_last_index;
  guint64 last_end;             /* end of the last blurry frame */
} SharpnessSegmentTracker;

void sharpness_segment_tracker_init (SharpnessSegmentTracker * t,
    guint64 min_duration, guint max_gap, gboolean lower_is_sharper);

/* Adds @frame.  Returns the event it caused, and copies the event's segment
 * to @seg: START (only on a blurry frame): the run so far; END (only on the
 * (max_gap + 1)-th sharp frame after a segment): the finished segment. */
SharpnessSegmentEvent sharpness_segment_tracker_push (SharpnessSegmentTracker *
    t, const SharpnessSegmentFrame * frame, SharpnessSegment * seg);

/* End of stream: closes the open run; SHARPNESS_SEGMENT_END (with @seg)
 * when it was a segment (START was reported), else NONE. */
SharpnessSegmentEvent sharpness_segment_tracker_finish (SharpnessSegmentTracker
    * t, SharpnessSegment * seg);

G_END_DECLS
#endif /* SHARPNESS_BLUR_SEGMENTS_H */
