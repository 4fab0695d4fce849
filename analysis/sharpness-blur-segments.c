/* Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "sharpness-blur-segments.h"

guint64
sharpness_segment_duration (const SharpnessSegment * seg)
{
  if (seg->start == SHARPNESS_TIME_NONE || seg->end == SHARPNESS_TIME_NONE ||
      seg->end < seg->start)
    return 0;
  return seg->end - seg->start;
}

gdouble
sharpness_segment_mean (const SharpnessSegment * seg)
{
  return seg->scored_frames ? seg->sum_score / seg->scored_frames : 0.0;
}

void
sharpness_segment_tracker_init (SharpnessSegmentTracker * t,
    guint64 min_duration, guint max_gap, gboolean lower_is_sharper)
{
  *t = (SharpnessSegmentTracker) {
    .min_duration = min_duration,
    .max_gap = max_gap,
    .lower_is_sharper = lower_is_sharper,
  };
}

static gboolean
is_worse (const SharpnessSegmentTracker * t, gdouble a, gdouble b)
{
  return t->lower_is_sharper ? a > b : a < b;
}

static guint64
frame_end (const SharpnessSegmentFrame * f)
{
  if (f->pts == SHARPNESS_TIME_NONE)
    return SHARPNESS_TIME_NONE;
  if (f->duration == SHARPNESS_TIME_NONE)
    return f->pts;
  return f->pts + f->duration;
}

static void
open_run (SharpnessSegmentTracker * t, const SharpnessSegmentFrame * f)
{
  SharpnessSegment *r = &t->run;

  *r = (SharpnessSegment) {
    .start_frame = f->index,
    .end_frame = f->index,
    .start = f->pts,
    .end = frame_end (f),
    .running_time = f->running_time,
    .stream_time = f->stream_time,
    .frames = 1,
    .blurry_frames = 1,
    .scored_frames = 1,
    .min_score = f->score,
    .max_score = f->score,
    .sum_score = f->score,
    .worst_frame = f->index,
    .worst_score = f->score,
  };
  t->open = TRUE;
  t->started = FALSE;
  t->gap = 0;
}

/* The sharp frames of the gap, then @f, join the run. */
static void
extend_run (SharpnessSegmentTracker * t, const SharpnessSegmentFrame * f)
{
  SharpnessSegment *r = &t->run;

  if (t->gap) {
    r->min_score = MIN (r->min_score, t->gap_min);
    r->max_score = MAX (r->max_score, t->gap_max);
    r->sum_score += t->gap_sum;
    r->scored_frames += t->gap;
    t->gap = 0;
  }
  r->end_frame = f->index;
  r->frames = f->index - r->start_frame + 1;
  r->blurry_frames++;
  r->scored_frames++;
  r->end = frame_end (f);
  r->min_score = MIN (r->min_score, f->score);
  r->max_score = MAX (r->max_score, f->score);
  r->sum_score += f->score;
  if (is_worse (t, f->score, r->worst_score)) {
    r->worst_score = f->score;
    r->worst_frame = f->index;
  }
}

SharpnessSegmentEvent
sharpness_segment_tracker_push (SharpnessSegmentTracker * t,
    const SharpnessSegmentFrame * f, SharpnessSegment * seg)
{
  if (f->blurry) {
    if (t->open)
      extend_run (t, f);
    else
      open_run (t, f);
    if (!t->started && sharpness_segment_duration (&t->run) >=
        t->min_duration) {
      t->started = TRUE;
      if (seg)
        *seg = t->run;
      return SHARPNESS_SEGMENT_START;
    }
    return SHARPNESS_SEGMENT_NONE;
  }

  if (!t->open)
    return SHARPNESS_SEGMENT_NONE;
  if (t->gap == 0) {
    t->gap_min = t->gap_max = f->score;
    t->gap_sum = 0.0;
  }
  t->gap++;
  t->gap_min = MIN (t->gap_min, f->score);
  t->gap_max = MAX (t->gap_max, f->score);
  t->gap_sum += f->score;
  if (t->gap <= t->max_gap)
    return SHARPNESS_SEGMENT_NONE;

  /* Too many sharp frames: the run is over. */
  t->open = FALSE;
  t->gap = 0;
  if (!t->started)
    return SHARPNESS_SEGMENT_NONE;
  t->started = FALSE;
  if (seg)
    *seg = t->run;
  return SHARPNESS_SEGMENT_END;
}

SharpnessSegmentEvent
sharpness_segment_tracker_finish (SharpnessSegmentTracker * t,
    SharpnessSegment * seg)
{
  SharpnessSegmentEvent ev = SHARPNESS_SEGMENT_NONE;

  if (t->open && t->started)
    ev = SHARPNESS_SEGMENT_END;
  t->open = t->started = FALSE;
  t->gap = 0;
  if (ev && seg)
    *seg = t->run;
  return ev;
}
