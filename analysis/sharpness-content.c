/* Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "sharpness-content.h"

#include <math.h>
#include <string.h>

#include "sharpness-cpbd.h"
#include "sharpness-structure.h"

/* Statistics of an open black or freeze stretch. */
typedef struct
{
  gboolean open;
  gboolean announced;           /* its start event was given */
  guint64 start, start_frame, running_time, stream_time;
  guint64 kind_frames, scored_frames;
  gdouble min, max, sum;
  guint64 worst_frame;
  gdouble worst_score;
} Stretch;

struct _SharpnessContent
{
  SharpnessContentSettings settings;
  SharpnessMetric metric;
  SharpnessBlurDetector *blur;
  SharpnessSegmentTracker segments;
  SharpnessBlackDetector black;
  SharpnessFreezeDetector freeze;
  Stretch black_run, freeze_run;
  /* The last frame pushed, for the ends given at finish. */
  guint64 last_index, last_pts;
};

static const gchar *const state_names[SHARPNESS_CONTENT_N_STATES] = {
  "normal", "black", "frozen", "flat", "blurry"
};

static const gchar *const kind_names[SHARPNESS_EVENT_N_KINDS] = {
  "blur", "black", "freeze"
};

const gchar *
sharpness_content_state_name (SharpnessContentState state)
{
  g_return_val_if_fail (state < SHARPNESS_CONTENT_N_STATES, NULL);
  return state_names[state];
}

const gchar *
sharpness_event_kind_name (SharpnessEventKind kind)
{
  g_return_val_if_fail (kind < SHARPNESS_EVENT_N_KINDS, NULL);
  return kind_names[kind];
}

void
sharpness_content_settings_init (SharpnessContentSettings * s)
{
  memset (s, 0, sizeof (*s));
  s->detect = SHARPNESS_DETECT_BLACK | SHARPNESS_DETECT_FREEZE |
      SHARPNESS_DETECT_FLAT;
  sharpness_black_settings_init (&s->black);
  sharpness_freeze_settings_init (&s->freeze);
  s->max_blurry_gap = 2;
}

static gboolean
lower_is_sharper (SharpnessMetric metric)
{
  return sharpness_metric_info[metric].direction ==
      SHARPNESS_LOWER_IS_SHARPER;
}

SharpnessContent *
sharpness_content_new (const SharpnessContentSettings * settings,
    SharpnessMetric metric, guint window)
{
  SharpnessContent *c = g_new0 (SharpnessContent, 1);

  c->settings = *settings;
  c->metric = metric;
  c->blur = sharpness_blur_detector_new (metric, window);
  sharpness_segment_tracker_init (&c->segments,
      settings->min_blurry_duration, settings->max_blurry_gap,
      lower_is_sharper (metric));
  sharpness_black_detector_init (&c->black, &settings->black);
  sharpness_freeze_detector_init (&c->freeze, &settings->freeze);
  return c;
}

void
sharpness_content_free (SharpnessContent * c)
{
  if (!c)
    return;
  sharpness_blur_detector_free (c->blur);
  g_free (c);
}

SharpnessBlurDetector *
sharpness_content_get_blur_detector (SharpnessContent * c)
{
  return c->blur;
}

static SharpnessContentEvent *
add_event (SharpnessContentResult * r, SharpnessEventKind kind, gboolean end)
{
  SharpnessContentEvent *e;

  g_return_val_if_fail (r->n_events < SHARPNESS_CONTENT_MAX_EVENTS, NULL);
  e = &r->events[r->n_events++];
  memset (e, 0, sizeof (*e));
  e->kind = kind;
  e->is_end = end;
  e->start = e->end = e->duration = SHARPNESS_TIME_NONE;
  return e;
}

/* ---- blur ------------------------------------------------------------ */

static void
blur_event (SharpnessContentResult * r, const SharpnessSegment * seg,
    gboolean end)
{
  SharpnessContentEvent *e = add_event (r, SHARPNESS_EVENT_BLUR, end);

  e->start = seg->start;
  e->running_time = seg->running_time;
  e->stream_time = seg->stream_time;
  e->start_frame = seg->start_frame;
  if (end) {
    e->end = seg->end;
    e->duration = sharpness_segment_duration (seg);
    e->end_frame = seg->end_frame;
    e->frames = seg->frames;
  }
  e->kind_frames = seg->blurry_frames;
  e->scored_frames = seg->scored_frames;
  e->min = seg->min_score;
  e->max = seg->max_score;
  e->mean = sharpness_segment_mean (seg);
  e->worst_frame = seg->worst_frame;
  e->worst_score = seg->worst_score;
}

static void
finish_blur (SharpnessContent * c, SharpnessContentResult * r)
{
  SharpnessSegment seg;

  if (sharpness_segment_tracker_finish (&c->segments, &seg) ==
      SHARPNESS_SEGMENT_END)
    blur_event (r, &seg, TRUE);
}

/* ---- black and freeze stretches ------------------------------------- */

/* @t, a time of the frame whose pts is @pts, taken back to @start, the pts
 * of the stretch's first frame (detectors report a stretch at a later
 * frame than its first; both times run with the pts in a segment). */
static guint64
back_to (guint64 t, guint64 pts, guint64 start)
{
  if (t == SHARPNESS_TIME_NONE || pts == SHARPNESS_TIME_NONE ||
      start == SHARPNESS_TIME_NONE || start > pts || pts - start > t)
    return t;
  return t - (pts - start);
}

static void
stretch_open (Stretch * s, const SharpnessContentFrame * f, guint64 start,
    guint64 start_frame)
{
  memset (s, 0, sizeof (*s));
  s->open = TRUE;
  s->start = start;
  s->start_frame = start_frame;
  s->running_time = f ? back_to (f->running_time, f->pts, start) :
      SHARPNESS_TIME_NONE;
  s->stream_time = f ? back_to (f->stream_time, f->pts, start) :
      SHARPNESS_TIME_NONE;
}

static void
stretch_add (Stretch * s, const SharpnessContentFrame * f, gboolean of_kind,
    gboolean lower_sharper)
{
  if (!s->open)
    return;
  s->kind_frames += of_kind;
  if (!f->scored || !isfinite (f->score))
    return;
  if (s->scored_frames == 0) {
    s->min = s->max = s->worst_score = f->score;
    s->worst_frame = f->index;
  } else {
    s->min = MIN (s->min, f->score);
    s->max = MAX (s->max, f->score);
    if (lower_sharper ? f->score > s->worst_score : f->score < s->worst_score) {
      s->worst_score = f->score;
      s->worst_frame = f->index;
    }
  }
  s->sum += f->score;
  s->scored_frames++;
}

static SharpnessContentEvent *
stretch_event (SharpnessContentResult * r, SharpnessEventKind kind,
    const Stretch * s, gboolean end)
{
  SharpnessContentEvent *e = add_event (r, kind, end);

  e->start = s->start;
  e->start_frame = s->start_frame;
  e->running_time = s->running_time;
  e->stream_time = s->stream_time;
  e->kind_frames = s->kind_frames;
  e->scored_frames = s->scored_frames;
  e->min = s->min;
  e->max = s->max;
  e->mean = s->scored_frames ? s->sum / s->scored_frames : 0.0;
  e->worst_frame = s->worst_frame;
  e->worst_score = s->worst_score;
  return e;
}

static void
stretch_end (SharpnessContentResult * r, SharpnessEventKind kind, Stretch * s,
    guint64 start, guint64 end, guint64 duration, guint64 end_frame)
{
  SharpnessContentEvent *e;

  /* An end always follows its start, given now if it was not yet. */
  if (!s->announced)
    stretch_event (r, kind, s, FALSE);
  e = stretch_event (r, kind, s, TRUE);
  e->start = start;
  e->end = end;
  e->duration = duration;
  e->end_frame = end_frame;
  e->frames = end_frame >= e->start_frame ? end_frame - e->start_frame + 1 : 0;
  s->open = FALSE;
}

/* FFmpeg reports a black run when it ends at least d after its start, and
 * ends a run still open at end of stream at the pts of its last frame: a
 * run is announced once it is certain to be reported, i.e. once this
 * frame's pts is d after its start. */
static gboolean
black_certain (const SharpnessContent * c, const Stretch * s,
    const SharpnessContentFrame * f)
{
  if (f->pts == SHARPNESS_TIME_NONE || s->start == SHARPNESS_TIME_NONE)
    return FALSE;
  return f->pts >= s->start &&
      f->pts - s->start >= c->settings.black.min_duration;
}

static gboolean
push_black (SharpnessContent * c, const SharpnessContentFrame * f,
    SharpnessContentResult * r)
{
  SharpnessBlackResult b;
  SharpnessBlackEvents ev;
  Stretch *s = &c->black_run;

  if (!(c->settings.detect & SHARPNESS_DETECT_BLACK) || !f->has_black)
    return FALSE;
  if (f->as_ratios)
    ev = sharpness_black_detector_push_ratio (&c->black, f->pts, f->duration,
        f->black_ratio, &b);
  else
    ev = sharpness_black_detector_push (&c->black, f->pts, f->duration,
        f->black, f->pixels, &b);
  r->black_ratio = b.ratio;
  if (ev & SHARPNESS_BLACK_EVENT_RUN_END) {
    /* The run ended at this frame, the first that is not black: an event
     * when FFmpeg reports it, or when its start was announced. */
    if ((ev & SHARPNESS_BLACK_EVENT_INTERVAL) || s->announced)
      stretch_end (r, SHARPNESS_EVENT_BLACK, s, b.start, b.end, b.duration,
          b.end_frame);
    s->open = FALSE;
  }
  if (ev & SHARPNESS_BLACK_EVENT_RUN_START)
    stretch_open (s, f, b.start, b.start_frame);
  if (b.black) {
    stretch_add (s, f, TRUE, lower_is_sharper (c->metric));
    if (!s->announced && black_certain (c, s, f)) {
      stretch_event (r, SHARPNESS_EVENT_BLACK, s, FALSE);
      s->announced = TRUE;
    }
  }
  return b.black;
}

static gboolean
push_freeze (SharpnessContent * c, const SharpnessContentFrame * f,
    SharpnessContentResult * r)
{
  SharpnessFreezeResult z;
  SharpnessFreezeEvents ev;
  Stretch *s = &c->freeze_run;

  if (!(c->settings.detect & SHARPNESS_DETECT_FREEZE))
    return FALSE;
  if (!f->has_sad && sharpness_freeze_detector_has_reference (&c->freeze)) {
    /* Not measured (the GPU failed on it, say): no verdict, and the
     * reference stays. */
    return FALSE;
  }
  if (f->as_ratios)
    ev = sharpness_freeze_detector_push_mafd (&c->freeze, f->pts,
        f->has_sad ? f->freeze_mafd : 0.0, &z);
  else
    ev = sharpness_freeze_detector_push (&c->freeze, f->pts,
        f->has_sad ? f->sad : 0, f->has_sad ? f->sad_count : 0, &z);
  r->freeze_mafd = z.mafd;
  r->keep_reference = z.keep_reference;
  if (ev & SHARPNESS_FREEZE_EVENT_START) {
    stretch_open (s, f, z.start, z.start_frame);
    /* The frames from the reference to this one: frozen, not seen as
     * such while they passed. */
    s->kind_frames = f->index >= z.start_frame ? f->index - z.start_frame :
        0;
    stretch_event (r, SHARPNESS_EVENT_FREEZE, s, FALSE);
    s->announced = TRUE;
  }
  if (ev & SHARPNESS_FREEZE_EVENT_END) {
    stretch_end (r, SHARPNESS_EVENT_FREEZE, s, z.start, z.end, z.duration,
        z.end_frame);
    return FALSE;
  }
  if (s->open && z.frozen) {
    stretch_add (s, f, TRUE, lower_is_sharper (c->metric));
    return TRUE;
  }
  return FALSE;
}

static void
finish_black (SharpnessContent * c, SharpnessContentResult * r)
{
  SharpnessBlackResult b;
  SharpnessBlackEvents ev = sharpness_black_detector_finish (&c->black, &b);

  if (c->black_run.open && c->black_run.announced)
    /* FFmpeg ends a run open at end of stream at its last frame's pts. */
    stretch_end (r, SHARPNESS_EVENT_BLACK, &c->black_run,
        (ev & SHARPNESS_BLACK_EVENT_INTERVAL) ? b.start : c->black_run.start,
        (ev & SHARPNESS_BLACK_EVENT_INTERVAL) ? b.end : c->last_pts,
        (ev & SHARPNESS_BLACK_EVENT_INTERVAL) ? b.duration :
        SHARPNESS_TIME_NONE, c->last_index);
  else if (ev & SHARPNESS_BLACK_EVENT_INTERVAL)
    stretch_end (r, SHARPNESS_EVENT_BLACK, &c->black_run, b.start, b.end,
        b.duration, b.end_frame);
  c->black_run.open = FALSE;
}

static void
finish_freeze (SharpnessContent * c, SharpnessContentResult * r)
{
  SharpnessFreezeResult z;

  if (sharpness_freeze_detector_finish (&c->freeze, &z) &
      SHARPNESS_FREEZE_EVENT_OPEN_AT_EOS && c->freeze_run.open)
    /* FFmpeg reports nothing for a freeze open at end of stream; an
     * alarm's start still gets its end, at the last frame. */
    stretch_end (r, SHARPNESS_EVENT_FREEZE, &c->freeze_run, z.start, z.end,
        z.end != SHARPNESS_TIME_NONE && z.start != SHARPNESS_TIME_NONE ?
        z.end - z.start : SHARPNESS_TIME_NONE, z.end_frame);
  c->freeze_run.open = FALSE;
}

/* ---- frames ---------------------------------------------------------- */

static SharpnessContentState
content_state (SharpnessVerdict v)
{
  switch (v) {
    case SHARPNESS_VERDICT_BLURRY:
      return SHARPNESS_CONTENT_BLURRY;
    case SHARPNESS_VERDICT_FLAT:
      return SHARPNESS_CONTENT_FLAT;
    default:
      return SHARPNESS_CONTENT_NORMAL;
  }
}

void
sharpness_content_push (SharpnessContent * c,
    const SharpnessContentFrame * f, gdouble threshold, gdouble relative,
    SharpnessContentResult * r)
{
  gboolean black, frozen;
  gdouble flat_threshold = 0.0, cpbd = -1.0, focus = -1.0;
  SharpnessSegmentFrame sf;
  SharpnessSegment seg;
  SharpnessSegmentEvent ev;

  memset (r, 0, sizeof (*r));
  black = push_black (c, f, r);
  frozen = push_freeze (c, f, r);
  if (f->has_structure) {
    r->structure = f->as_ratios ? f->structure :
        sharpness_structure_share (f->edges, f->interior);
    if (c->settings.detect & SHARPNESS_DETECT_FLAT)
      flat_threshold = c->settings.flat_threshold;
  }

  if (f->has_cpbd && !f->as_ratios)
    cpbd = r->cpbd = sharpness_cpbd_share (f->cpbd_sharp, f->cpbd_edges);
  if (f->has_focus && !f->as_ratios)
    focus = r->focus = f->focus;

  if (black)
    r->state = SHARPNESS_CONTENT_BLACK;
  else if (frozen)
    r->state = SHARPNESS_CONTENT_FROZEN;
  else if (f->has_verdict)
    r->state = f->blurry ? SHARPNESS_CONTENT_BLURRY : f->flat ?
        SHARPNESS_CONTENT_FLAT : SHARPNESS_CONTENT_NORMAL;
  else if (f->scored)
    /* Flat or blurry is the blur rule's to say: a blur inside a shot
     * takes the structure with it (sharpness_blur_detector_judge). */
    r->state = content_state (sharpness_blur_detector_judge (c->blur,
            f->score, f->has_structure ? r->structure : -1.0, cpbd,
            flat_threshold, f->signature, threshold, relative,
            c->settings.cpbd_threshold, focus, c->settings.focus_threshold));
  else
    r->state = f->has_structure && r->structure < flat_threshold ?
        SHARPNESS_CONTENT_FLAT : SHARPNESS_CONTENT_NORMAL;

  c->last_index = f->index;
  c->last_pts = f->pts;
  if (!f->scored || c->settings.min_blurry_duration == 0) {
    if (c->settings.min_blurry_duration == 0)
      /* Turned off, maybe while a run was open: close it. */
      finish_blur (c, r);
    return;
  }
  sf = (SharpnessSegmentFrame) {
    .index = f->index,
    .pts = f->pts,
    .duration = f->duration,
    .running_time = f->running_time,
    .stream_time = f->stream_time,
    .score = f->score,
    .blurry = r->state == SHARPNESS_CONTENT_BLURRY,
  };
  ev = sharpness_segment_tracker_push (&c->segments, &sf, &seg);
  r->blur_worst = c->segments.open && c->segments.run.worst_frame == f->index;
  if (ev == SHARPNESS_SEGMENT_START)
    blur_event (r, &seg, FALSE);
  else if (ev == SHARPNESS_SEGMENT_END)
    blur_event (r, &seg, TRUE);
}

void
sharpness_content_finish (SharpnessContent * c, SharpnessContentResult * r)
{
  memset (r, 0, sizeof (*r));
  finish_blur (c, r);
  finish_black (c, r);
  finish_freeze (c, r);
}

void
sharpness_content_reset (SharpnessContent * c, gboolean keep_blur_run,
    SharpnessContentResult * closed)
{
  memset (closed, 0, sizeof (*closed));
  if (!keep_blur_run)
    finish_blur (c, closed);
  finish_black (c, closed);
  finish_freeze (c, closed);
  sharpness_blur_detector_reset (c->blur);
  sharpness_black_detector_reset (&c->black);
  sharpness_freeze_detector_reset (&c->freeze);
}

void
sharpness_content_forget_reference (SharpnessContent * c,
    SharpnessContentResult * closed)
{
  memset (closed, 0, sizeof (*closed));
  finish_freeze (c, closed);
  sharpness_freeze_detector_reset (&c->freeze);
}

void
sharpness_content_configure (SharpnessContent * c,
    const SharpnessContentSettings * s, SharpnessMetric metric,
    guint window, SharpnessContentResult * closed)
{
  gboolean black_changed = memcmp (&s->black, &c->settings.black,
      sizeof (s->black)) != 0 ||
      (s->detect & SHARPNESS_DETECT_BLACK) !=
      (c->settings.detect & SHARPNESS_DETECT_BLACK);
  gboolean freeze_changed = memcmp (&s->freeze, &c->settings.freeze,
      sizeof (s->freeze)) != 0 ||
      (s->detect & SHARPNESS_DETECT_FREEZE) !=
      (c->settings.detect & SHARPNESS_DETECT_FREEZE);

  memset (closed, 0, sizeof (*closed));
  if (metric != c->metric) {
    /* A run of another metric's scores says nothing about this one. */
    finish_blur (c, closed);
    c->metric = metric;
    c->segments.lower_is_sharper = lower_is_sharper (metric);
  }
  sharpness_blur_detector_configure (c->blur, metric, window);
  if (black_changed) {
    finish_black (c, closed);
    sharpness_black_detector_init (&c->black, &s->black);
  }
  if (freeze_changed) {
    finish_freeze (c, closed);
    sharpness_freeze_detector_init (&c->freeze, &s->freeze);
  }
  c->settings = *s;
  /* Settings of the runs apply from the next frame on. */
  c->segments.min_duration = s->min_blurry_duration;
  c->segments.max_gap = s->max_blurry_gap;
}
