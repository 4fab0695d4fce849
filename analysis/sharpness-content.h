/* What a frame shows, and the alarms that follow: the one implementation
 * behind cudasharpness's content states and events, sharpness-scan's
 * segments and sharpness-monitor's alarms.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Each frame gets one state, the first that applies:
 *   black   its luma is black as FFmpeg's blackdetect decides
 *           (sharpness-black.h), frame by frame;
 *   frozen  it belongs to a freeze FFmpeg's freezedetect reports
 *           (sharpness-freeze.h), from the frame that reports it on;
 *   flat    too little structure (sharpness-structure.h) for a sharpness
 *           verdict, and no collapse of its shot's structure and score
 *           (sharpness_blur_detector_judge);
 *   blurry  the blur rule (sharpness-blur-detector.h) flags it: by its
 *           score, or by a collapse of structure and score within a shot
 *           (a strong blur takes the edges a flat test counts);
 *   normal  none of these.
 * A black or frozen frame is not judged by the blur rule; a flat frame's
 * score stays out of the rule's history; neither starts or extends a
 * blurry run.  Events: a blurry run lasting the minimum blurry duration
 * (sharpness-blur-segments.h), a black interval lasting black's minimum
 * duration, a freeze: each a start and an end.
 *
 * Plain GLib, no GStreamer, no allocation per frame; the caller measures
 * (CPU or GPU) and keeps the freeze reference.  Not thread-safe.
 */
#ifndef SHARPNESS_CONTENT_H
#define SHARPNESS_CONTENT_H

#include <glib.h>

#include "sharpness-black.h"
#include "sharpness-blur-detector.h"
#include "sharpness-blur-segments.h"
#include "sharpness-freeze.h"

G_BEGIN_DECLS

typedef enum
{
  SHARPNESS_CONTENT_NORMAL,
  SHARPNESS_CONTENT_BLACK,
  SHARPNESS_CONTENT_FROZEN,
  SHARPNESS_CONTENT_FLAT,
  SHARPNESS_CONTENT_BLURRY,
  SHARPNESS_CONTENT_N_STATES
} SharpnessContentState;

/* "normal", "black", "frozen", "flat", "blurry". */
const gchar *sharpness_content_state_name (SharpnessContentState state);

/* What is detected besides blur. */
typedef enum
{
  SHARPNESS_DETECT_BLACK = 1 << 0,
  SHARPNESS_DETECT_FREEZE = 1 << 1,
  SHARPNESS_DETECT_FLAT = 1 << 2
} SharpnessDetect;

typedef enum
{
  SHARPNESS_EVENT_BLUR,
  SHARPNESS_EVENT_BLACK,
  SHARPNESS_EVENT_FREEZE,
  SHARPNESS_EVENT_N_KINDS
} SharpnessEventKind;

/* "blur", "black", "freeze". */
const gchar *sharpness_event_kind_name (SharpnessEventKind kind);

/* A start or an end.  Times in ns (SHARPNESS_TIME_NONE when unknown);
 * frames are indices as pushed. */
typedef struct
{
  SharpnessEventKind kind;
  gboolean is_end;              /* FALSE: the start */
  /* The stretch: its first frame's pts and times, and (ends) its end and
   * duration.  Black and freeze: FFmpeg's start, end and duration; blur:
   * the blurry segment's (end: last frame's pts + duration). */
  guint64 start, end, duration;
  guint64 running_time, stream_time;
  guint64 start_frame, end_frame;
  guint64 frames;               /* end_frame - start_frame + 1 (ends) */
  /* Frames of the kind among them: blurry frames of a blurry segment (the
   * others are gap frames), black or frozen frames. */
  guint64 kind_frames;
  /* Scores over the stretch's scored frames (0 when none was scored) and
   * its worst frame (for a blur, the blurriest). */
  guint64 scored_frames;
  gdouble min, mean, max;
  guint64 worst_frame;
  gdouble worst_score;
} SharpnessContentEvent;

/* Events one frame (or finish) can cause: an end and a start of each
 * kind. */
#define SHARPNESS_CONTENT_MAX_EVENTS (2 * SHARPNESS_EVENT_N_KINDS)

typedef struct
{
  guint detect;                 /* SharpnessDetect */
  SharpnessBlackSettings black;
  SharpnessFreezeSettings freeze;
  gdouble flat_threshold;       /* flat when structure < it */
  /* The absolute test also needs the frame's CPBD below it (0: the score
   * alone; sharpness_blur_detector_judge's @cpbd_threshold). */
  gdouble cpbd_threshold;
  /* The absolute test also needs the frame's focus at least this (0: no
   * gate; sharpness_blur_detector_judge's @focus_threshold). */
  gdouble focus_threshold;
  /* Blurry runs (0: no blur events). */
  guint64 min_blurry_duration;
  guint max_blurry_gap;
} SharpnessContentSettings;

void sharpness_content_settings_init (SharpnessContentSettings * s);

/* One frame's measurements; a measurement with has_* FALSE is absent (not
 * asked for, or the frame could not be measured). */
typedef struct
{
  guint64 index;
  guint64 pts, duration, running_time, stream_time;
  gboolean has_black;
  guint64 black, pixels;        /* luma samples <= the black threshold */
  gboolean has_structure;
  guint64 edges, interior;      /* sharpness-structure.h */
  gboolean has_cpbd;
  guint64 cpbd_edges, cpbd_sharp;       /* sharpness-cpbd.h */
  gboolean has_focus;
  gdouble focus;                /* sharpness-focus.h */
  gboolean has_sad;             /* compared with the freeze reference */
  guint64 sad, sad_count;
  gboolean scored;
  gdouble score;
  /* For the blur rule's cut detection, or NULL. */
  const SharpnessSignature *signature;
  /* A frame measured and judged upstream, read from an element's meta
   * (sharpness-meta.h), which carries ratios, not counts.  With
   * as_ratios, black_ratio (has_black), freeze_mafd (has_sad) and
   * structure (has_structure) replace the counts: each decides as the
   * counts it was computed from do. */
  gboolean as_ratios;
  gdouble black_ratio, freeze_mafd, structure;
  /* With has_verdict, @blurry and @flat are the verdict made upstream
   * (the meta's state is "blurry", or "flat"), and the rule is not run
   * here: its history is the upstream rule's, which saw the same frames
   * (a flat or blurry verdict depends on the shot's history, not on the
   * frame's ratios alone). */
  gboolean has_verdict, blurry, flat;
} SharpnessContentFrame;

typedef struct
{
  SharpnessContentState state;
  gdouble black_ratio;          /* black / pixels; 0 without */
  gdouble freeze_mafd;          /* FFmpeg's MAFD; 0 without */
  gdouble structure;            /* edges / interior; 0 without */
  gdouble cpbd;                 /* cpbd_sharp / cpbd_edges; 0 without */
  gdouble focus;                /* the frame's focus; 0 without */
  /* The caller must keep this frame as the freeze reference. */
  gboolean keep_reference;
  /* This frame is the worst of the open blurry run so far: the picture
   * its events show (a caller keeping thumbnails copies it now). */
  gboolean blur_worst;
  guint n_events;
  SharpnessContentEvent events[SHARPNESS_CONTENT_MAX_EVENTS];
} SharpnessContentResult;

typedef struct _SharpnessContent SharpnessContent;

SharpnessContent *sharpness_content_new (const SharpnessContentSettings *
    settings, SharpnessMetric metric, guint window);
void sharpness_content_free (SharpnessContent * content);

/* New settings, from the next frame on.  Black and freeze parameters that
 * change restart their detectors (closing an open stretch with an end). */
void sharpness_content_configure (SharpnessContent * content,
    const SharpnessContentSettings * settings, SharpnessMetric metric,
    guint window, SharpnessContentResult * closed);

/* Flush (@keep_blur_run FALSE) or caps change (TRUE): every detector
 * forgets its history; open stretches are closed (events in @closed),
 * except, with @keep_blur_run, a blurry run, which the frames after a
 * caps change may go on. */
void sharpness_content_reset (SharpnessContent * content,
    gboolean keep_blur_run, SharpnessContentResult * closed);

/* The caller lost its freeze reference (another backend measures the next
 * frame): the freeze detector starts again; an open freeze is closed
 * (events in @closed). */
void sharpness_content_forget_reference (SharpnessContent * content,
    SharpnessContentResult * closed);

/* Judges @frame: its state, measurements and events.  @threshold and
 * @relative are the blur rule's (sharpness_blur_detector_push_frame). */
void sharpness_content_push (SharpnessContent * content,
    const SharpnessContentFrame * frame, gdouble threshold, gdouble relative,
    SharpnessContentResult * result);

/* End of stream: closes what is open (events in @result). */
void sharpness_content_finish (SharpnessContent * content,
    SharpnessContentResult * result);

/* The blur rule, for its state (tests, statistics). */
SharpnessBlurDetector *sharpness_content_get_blur_detector (SharpnessContent
    * content);

G_END_DECLS
#endif /* SHARPNESS_CONTENT_H */
