/* Unit test of sharpness-content's input from an element's meta
 * (SharpnessContentFrame.as_ratios, has_verdict): a content state machine
 * fed the ratios and the verdicts (blurry, flat) a first one produced from
 * the counts
 * gives the same state and the same events, field by field, frame by
 * frame and at the end.  This is how sharpness-scan builds its segments
 * from the meta of cudasharpness; a difference would be segments the
 * element's events do not have.
 *
 * The frames: sharp textured frames, a fade to black lasting 2.4 s, a
 * freeze of 3 s (the same picture, with noise under n), flat frames, two
 * blurry runs (one with a gap), a freeze left open at the end, with a
 * 29.97 fps cadence of pts.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "sharpness-content.h"

#include "test-check.h"

#define N_FRAMES 600
#define PIXELS (G_GUINT64_CONSTANT (320) * 180)
#define SAD_COUNT (PIXELS * 3 / 2)
#define INTERIOR (G_GUINT64_CONSTANT (319) * 179)

/* Frame @i as a measuring backend would give it: counts, and a score of
 * the blur-effect kind (lower is sharper). */
static SharpnessContentFrame
measured (guint i)
{
  SharpnessContentFrame f;

  memset (&f, 0, sizeof (f));
  f.index = i;
  /* 29.97 fps: pts that are not whole milliseconds. */
  f.pts = (i * G_GUINT64_CONSTANT (1001000000000) + 15000) / 30000;
  f.duration = 33366667;
  f.running_time = f.stream_time = f.pts;
  f.has_black = f.has_structure = f.has_sad = TRUE;
  f.pixels = PIXELS;
  f.sad_count = SAD_COUNT;
  f.interior = INTERIOR;
  f.scored = TRUE;
  f.score = 0.35 + 0.01 * (i % 7);
  f.edges = INTERIOR / 5;
  /* Moving picture: a MAFD far over n. */
  f.sad = SAD_COUNT * 20;
  f.black = PIXELS / 50;

  if (i >= 60 && i < 80) {
    /* The fade: ever more black samples, the last ones all black. */
    f.black = PIXELS * (i - 60) / 19;
  } else if (i >= 80 && i < 152) {
    /* Black, 2.4 s. */
    f.black = PIXELS - (i % 3);
    f.edges = 0;
    f.score = 0.9;
  } else if (i >= 200 && i < 290) {
    /* Frozen: noise well under n (0.001 of 256 per sample). */
    f.sad = i == 200 ? SAD_COUNT * 20 : SAD_COUNT / 100;
  } else if (i >= 320 && i < 340) {
    f.edges = INTERIOR / 500;   /* flat: 0.002 of the pixels */
  } else if ((i >= 360 && i < 390) || (i >= 400 && i < 412 && i != 405)) {
    f.score = 0.7;              /* blurry, 1 s and 0.4 s with a gap */
  } else if (i >= 520) {
    f.sad = i == 520 ? SAD_COUNT * 20 : 0;      /* frozen to the end */
  }
  return f;
}

static gboolean
same_event (const SharpnessContentEvent * a, const SharpnessContentEvent * b)
{
  return a->kind == b->kind && a->is_end == b->is_end &&
      a->start == b->start && a->end == b->end &&
      a->duration == b->duration && a->running_time == b->running_time &&
      a->stream_time == b->stream_time && a->start_frame == b->start_frame &&
      a->end_frame == b->end_frame && a->frames == b->frames &&
      a->kind_frames == b->kind_frames &&
      a->scored_frames == b->scored_frames && a->min == b->min &&
      a->mean == b->mean && a->max == b->max &&
      a->worst_frame == b->worst_frame && a->worst_score == b->worst_score;
}

static void
compare_results (const SharpnessContentResult * a,
    const SharpnessContentResult * b, guint frame, guint * events)
{
  if (a->state != b->state || a->black_ratio != b->black_ratio ||
      a->freeze_mafd != b->freeze_mafd || a->structure != b->structure ||
      a->keep_reference != b->keep_reference ||
      a->blur_worst != b->blur_worst || a->n_events != b->n_events) {
    g_printerr ("frame %u: state %s / %s, %u / %u events\n", frame,
        sharpness_content_state_name (a->state),
        sharpness_content_state_name (b->state), a->n_events, b->n_events);
    test_check_failures++;
    return;
  }
  for (guint e = 0; e < a->n_events; e++) {
    if (!same_event (&a->events[e], &b->events[e])) {
      g_printerr ("frame %u: event %u (%s %s) differs\n", frame, e,
          sharpness_event_kind_name (a->events[e].kind),
          a->events[e].is_end ? "end" : "start");
      test_check_failures++;
    }
    if (a->events[e].is_end)
      events[a->events[e].kind]++;
  }
}

int
main (void)
{
  SharpnessContentSettings s;
  SharpnessContent *counts, *ratios;
  SharpnessContentResult a, b;
  guint states[SHARPNESS_CONTENT_N_STATES] = { 0 };
  guint ends[SHARPNESS_EVENT_N_KINDS] = { 0 };

  sharpness_content_settings_init (&s);
  s.flat_threshold = 0.01;
  s.black.min_duration = 2 * G_GUINT64_CONSTANT (1000000000);
  s.freeze.min_duration = 2 * G_GUINT64_CONSTANT (1000000000);
  s.freeze.fps_n = 30000;
  s.freeze.fps_d = 1001;
  s.min_blurry_duration = 300000000;
  s.max_blurry_gap = 2;
  counts = sharpness_content_new (&s, SHARPNESS_METRIC_BLUR_EFFECT, 25);
  ratios = sharpness_content_new (&s, SHARPNESS_METRIC_BLUR_EFFECT, 25);

  for (guint i = 0; i < N_FRAMES; i++) {
    SharpnessContentFrame f = measured (i), g;

    sharpness_content_push (counts, &f, 0.55, 0.0, &a);
    /* What the meta says of the frame: the ratios and the state. */
    g = f;
    g.black = g.pixels = g.sad = g.sad_count = g.edges = g.interior = 0;
    g.as_ratios = TRUE;
    g.black_ratio = a.black_ratio;
    g.freeze_mafd = a.freeze_mafd;
    g.structure = a.structure;
    g.has_verdict = TRUE;
    g.blurry = a.state == SHARPNESS_CONTENT_BLURRY;
    g.flat = a.state == SHARPNESS_CONTENT_FLAT;
    /* A rule that would call every frame blurry: the verdict must win. */
    sharpness_content_push (ratios, &g, 0.01, 0.0, &b);
    compare_results (&a, &b, i, ends);
    states[a.state]++;
  }
  sharpness_content_finish (counts, &a);
  sharpness_content_finish (ratios, &b);
  compare_results (&a, &b, N_FRAMES, ends);

  /* The sequence exercises every state and every kind of event. */
  for (guint k = 0; k < SHARPNESS_CONTENT_N_STATES; k++)
    if (states[k] == 0) {
      g_printerr ("no %s frame\n", sharpness_content_state_name (k));
      test_check_failures++;
    }
  CHECK (ends[SHARPNESS_EVENT_BLUR] == 2);
  CHECK (ends[SHARPNESS_EVENT_BLACK] == 1);
  CHECK (ends[SHARPNESS_EVENT_FREEZE] == 2);

  sharpness_content_free (counts);
  sharpness_content_free (ratios);
  return test_check_finish ("content from ratios and verdicts: same states "
      "and events as from the counts");
}
