/* sharpness-scan's probe after the last scorer: the scores, content state
 * and measurements of every frame from its GstSharpnessMeta, the segments
 * of every kind from the content state machine the element runs
 * (analysis/sharpness-content.c), copies of the frames the thumbnails
 * show, what the stream is (sizes, interlacing, orientation), lost and
 * corrupted frames, and the per-input limits.  Streaming thread.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>

#include "scan-job.h"
#include "scan-setup.h"
#include "sharpness-meta.h"

/* A gap between two frames longer than this many frame durations means
 * frames were lost (a frame rate that varies by less does not). */
#define LOST_GAP 1.5

void
scan_frames_clear_thumbs (ScanJob * job)
{
  for (guint k = 0; k < SHARPNESS_EVENT_N_KINDS; k++)
    scan_clear_sample (&job->open_thumb[k]);
}

/* The segment an end event closes.  @at_frame: the event came with a
 * frame, which for black and freeze is the first one after the stretch;
 * else (end of stream, caps change) the stretch ends at the last frame. */
static void
add_segment (ScanJob * job, const SharpnessContentEvent * e,
    gboolean at_frame)
{
  SharpnessEventKind k = e->kind;
  ScanSegment ss = {
    .kind = k,
    .start = e->start,
    .end = e->end,
    .duration = e->duration,
    .start_frame = e->start_frame,
    .end_frame = e->end_frame,
    .kind_frames = e->kind_frames,
    .scored_frames = e->scored_frames,
    .min = e->scored_frames ? e->min : NAN,
    .mean = e->scored_frames ? e->mean : NAN,
    .max = e->scored_frames ? e->max : NAN,
    .worst_frame = e->worst_frame,
    .worst_score = e->scored_frames ? e->worst_score : NAN,
    .thumb_frame = G_MAXUINT64,
  };

  if (k != SHARPNESS_EVENT_BLUR && at_frame && ss.end_frame > ss.start_frame)
    ss.end_frame--;
  if (ss.duration == SHARPNESS_TIME_NONE && ss.end != SHARPNESS_TIME_NONE &&
      ss.start != SHARPNESS_TIME_NONE && ss.end >= ss.start)
    ss.duration = ss.end - ss.start;
  /* The thumbnail: the blurry segment's worst frame; a frame of the black
   * or frozen stretch (they all look alike). */
  if (job->open_thumb[k] && (k != SHARPNESS_EVENT_BLUR ||
          job->open_thumb_frame[k] == e->worst_frame) &&
      job->open_thumb_frame[k] >= ss.start_frame &&
      job->open_thumb_frame[k] <= ss.end_frame) {
    ss.thumb = job->open_thumb[k];
    ss.thumb_frame = job->open_thumb_frame[k];
    job->open_thumb[k] = NULL;
  }
  scan_clear_sample (&job->open_thumb[k]);
  g_array_append_val (job->file.segments, ss);
}

/* The end events of @r; @at_frame: they came with a frame. */
static void
on_events (ScanJob * job, const SharpnessContentResult * r,
    gboolean at_frame)
{
  for (guint i = 0; i < r->n_events; i++)
    if (r->events[i].is_end)
      add_segment (job, &r->events[i], at_frame);
}

static void
keep_thumb (ScanJob * job, SharpnessEventKind kind, GstBuffer * buf,
    guint64 index)
{
  scan_clear_sample (&job->open_thumb[kind]);
  job->open_thumb[kind] = scan_thumb_copy_frame (&job->vinfo,
      job->sample_caps, buf);
  job->open_thumb_frame[kind] = index;
}

/* Copies of the frames the thumbnails of the segments still open will
 * show: the worst of the blurry run, the first of a black run, the first
 * frozen one after the freeze reference.  A copy per stretch that may
 * become a segment, not per frame: the segment is known only once it
 * lasted long enough (a freeze may even be reported by the frame that
 * ends it), when its frames are gone. */
static void
keep_thumbs (ScanJob * job, const SharpnessContentResult * r,
    GstBuffer * buf, guint64 index, gboolean measured_freeze)
{
  gboolean black = r->state == SHARPNESS_CONTENT_BLACK;
  gboolean frozen = measured_freeze && !r->keep_reference;

  /* A copy left by a run too short for a segment is replaced by the next
   * run's first worst frame: add_segment () checks the frame. */
  if (r->blur_worst)
    keep_thumb (job, SHARPNESS_EVENT_BLUR, buf, index);
  if (black && !job->prev_black)
    keep_thumb (job, SHARPNESS_EVENT_BLACK, buf, index);
  if (frozen && !job->prev_frozen)
    keep_thumb (job, SHARPNESS_EVENT_FREEZE, buf, index);
  job->prev_black = black;
  job->prev_frozen = frozen;
}

/* The content settings of the state machine for the frames of @info:
 * the element's, for the same frames (its content_settings ()). */
static void
configure_content (ScanJob * job, const GstVideoInfo * info)
{
  SharpnessContentResult closed;

  scan_content_settings (job->file.settings, GST_VIDEO_INFO_FPS_N (info),
      GST_VIDEO_INFO_FPS_D (info), &job->content_settings);
  sharpness_content_configure (job->content, &job->content_settings,
      job->file.settings->metrics[0], job->file.settings->window, &closed);
  on_events (job, &closed, FALSE);
}

static void
on_caps (ScanJob * job, GstCaps * caps)
{
  GstCapsFeatures *features = gst_caps_get_features (caps, 0);
  GstVideoInfo info;
  ScanFile *f = &job->file;
  ScanSize size;
  gboolean cuda;

  if (!gst_video_info_from_caps (&info, caps))
    return;
  /* The element restarts its content states when the caps change (its
   * set_caps ()): so does this copy of them, keeping an open blurry run,
   * closing black and frozen stretches at the last frame. */
  cuda = features && gst_caps_features_contains (features,
      "memory:CUDAMemory");
  if (cuda != job->cuda_caps || !gst_video_info_is_equal (&info,
          &job->vinfo)) {
    SharpnessContentResult closed;

    sharpness_content_reset (job->content, TRUE, &closed);
    on_events (job, &closed, FALSE);
  }
  job->cuda_caps = cuda;
  configure_content (job, &info);
  job->vinfo = info;
  f->fps_n = GST_VIDEO_INFO_FPS_N (&info);
  f->fps_d = GST_VIDEO_INFO_FPS_D (&info);
  g_free (f->format);
  f->format = g_strdup (GST_VIDEO_INFO_NAME (&info));
  f->cuda_memory = features &&
      gst_caps_features_contains (features, "memory:CUDAMemory");
  f->interlaced |= GST_VIDEO_INFO_IS_INTERLACED (&info);
  gst_clear_caps (&job->sample_caps);
  job->sample_caps = gst_caps_copy (caps);
  gst_caps_set_features (job->sample_caps, 0, NULL);

  /* Every size, with the frame it starts at. */
  size.frame = f->frames->len;
  size.width = GST_VIDEO_INFO_WIDTH (&info);
  size.height = GST_VIDEO_INFO_HEIGHT (&info);
  if (f->sizes->len) {
    ScanSize *last = &g_array_index (f->sizes, ScanSize, f->sizes->len - 1);
    if (last->width == size.width && last->height == size.height)
      return;
    if (last->frame == size.frame) {
      *last = size;
      return;
    }
  }
  g_array_append_val (f->sizes, size);
}

static void
on_tags (ScanJob * job, GstTagList * tags)
{
  GstVideoOrientationMethod method;
  gchar *tag = NULL;

  if (!gst_video_orientation_from_tag (tags, &method) ||
      !gst_tag_list_get_string (tags, GST_TAG_IMAGE_ORIENTATION, &tag))
    return;
  job->file.orientation_method = method;
  g_free (job->file.orientation);
  job->file.orientation = method == GST_VIDEO_ORIENTATION_IDENTITY ? NULL :
      tag;
  if (method == GST_VIDEO_ORIENTATION_IDENTITY)
    g_free (tag);
}

/* Adds a damaged stretch, merged with the last one when they touch. */
static void
add_damage (ScanFile * f, const ScanDamage * d)
{
  if (f->damage->len) {
    ScanDamage *last = &g_array_index (f->damage, ScanDamage,
        f->damage->len - 1);
    if (d->first_frame <= last->last_frame + 1) {
      last->last_frame = MAX (last->last_frame, d->last_frame);
      if (d->end != GST_CLOCK_TIME_NONE)
        last->end = d->end;
      last->lost_frames += d->lost_frames;
      last->corrupted_frames += d->corrupted_frames;
      return;
    }
  }
  g_array_append_val (f->damage, *d);
}

/* Frames lost before frame @index (a gap in the times), and the frame
 * itself corrupted: both make the frame damaged. */
static gboolean
check_damage (ScanJob * job, GstBuffer * buf, guint64 index, guint64 pts,
    guint64 dur)
{
  ScanFile *f = &job->file;
  gboolean damaged = FALSE;

  if (index > 0 && pts != GST_CLOCK_TIME_NONE &&
      job->prev_pts != GST_CLOCK_TIME_NONE && pts > job->prev_pts &&
      job->prev_duration != GST_CLOCK_TIME_NONE && job->prev_duration > 0 &&
      pts - job->prev_pts > LOST_GAP * job->prev_duration) {
    ScanDamage d = { index - 1, index, job->prev_pts + job->prev_duration,
      pts, 0, 0
    };
    d.lost_frames = MAX (1, (guint64) ((pts - job->prev_pts) /
            (gdouble) job->prev_duration + 0.5) - 1);
    f->lost_frames += d.lost_frames;
    add_damage (f, &d);
    damaged = TRUE;
  }
  if (GST_BUFFER_FLAG_IS_SET (buf, GST_BUFFER_FLAG_CORRUPTED)) {
    ScanDamage d = { index, index, pts, pts != GST_CLOCK_TIME_NONE &&
          dur != GST_CLOCK_TIME_NONE ? pts + dur : GST_CLOCK_TIME_NONE, 0, 1
    };
    f->corrupted_frames++;
    add_damage (f, &d);
    damaged = TRUE;
  }
  if (pts != GST_CLOCK_TIME_NONE) {
    job->prev_pts = pts;
    job->prev_duration = dur;
  }
  return damaged;
}

/* --duration and --max-frames: TRUE when @pts is past the limit; the
 * first time, tells the main loop, which ends the file. */
static gboolean
past_limit (ScanJob * job, guint64 index, guint64 pts)
{
  const ScanSettings *s = job->file.settings;
  ScanStop stop = SCAN_STOP_NONE;

  if (job->limit_reached)
    return TRUE;
  if (pts != GST_CLOCK_TIME_NONE && job->first_pts == GST_CLOCK_TIME_NONE)
    job->first_pts = pts;
  if (s->max_frames > 0 && index >= s->max_frames)
    stop = SCAN_STOP_MAX_FRAMES;
  else if (s->max_duration > 0 && pts != GST_CLOCK_TIME_NONE &&
      pts - job->first_pts >= (guint64) (s->max_duration * GST_SECOND))
    stop = SCAN_STOP_DURATION;
  if (stop == SCAN_STOP_NONE)
    return FALSE;
  job->limit_reached = TRUE;
  job->file.stopped = stop;
  gst_element_post_message (job->pipeline,
      gst_message_new_application (GST_OBJECT (job->pipeline),
          gst_structure_new_empty (SCAN_LIMIT_MESSAGE)));
  return TRUE;
}

/* The frame's content state and segments: the state machine fed what the
 * first element's meta says (@m0): the element's blur and flat verdicts
 * as they are (the rule runs once, in the element), its black and freeze
 * ratios, from which the same detectors give the same stretches. */
static void
judge (ScanJob * job, GstBuffer * buf, guint64 index, GstClockTime pts,
    guint64 dur, const SharpnessMetaReading * m0, ScanFrame * fr)
{
  const ScanSettings *s = job->file.settings;
  SharpnessContentResult r;
  SharpnessContentFrame cf = {
    .index = index,
    .pts = fr->pts,
    .duration = dur,
    .running_time = GST_CLOCK_TIME_IS_VALID (pts) ?
        gst_segment_to_running_time (&job->segment, GST_FORMAT_TIME, pts) :
        SHARPNESS_TIME_NONE,
    .stream_time = fr->pts,
    .scored = TRUE,
    .score = m0->score,
    .as_ratios = TRUE,
    .has_black = m0->has_black,
    .black_ratio = m0->black_ratio,
    .has_sad = m0->has_freeze,
    .freeze_mafd = m0->freeze_mafd,
    .has_structure = m0->has_structure,
    .structure = m0->structure,
    .has_verdict = TRUE,
    .blurry = m0->blurry,
    /* Flat is the element's verdict too (it depends on the shot's
     * history); an element without states gives the ratio's. */
    .flat = m0->content_state ?
        g_strcmp0 (m0->content_state, "flat") == 0 :
        (s->detect & SHARPNESS_DETECT_FLAT) && m0->has_structure &&
        m0->structure < s->flat_threshold,
  };
  sharpness_content_push (job->content, &cf, s->threshold,
      s->relative_threshold, &r);
  fr->state = r.state;
  fr->blurry = r.state == SHARPNESS_CONTENT_BLURRY;
  if (m0->content_state && g_strcmp0 (m0->content_state,
          sharpness_content_state_name (r.state)) != 0)
    /* Only a backend switch mid-file (the GPU failing) makes the element
     * restart its freeze reference unseen by this copy. */
    GST_WARNING ("%s: frame %" G_GUINT64_FORMAT ": state %s here, %s in the "
        "element", job->file.input, index,
        sharpness_content_state_name (r.state), m0->content_state);
  on_events (job, &r, TRUE);
  keep_thumbs (job, &r, buf, index, m0->has_freeze &&
      (job->content_settings.detect & SHARPNESS_DETECT_FREEZE));
}

/* FALSE: the frame is past the limits, and dropped. */
static gboolean
on_buffer (ScanJob * job, GstBuffer * buf)
{
  const ScanSettings *s = job->file.settings;
  guint64 index = job->file.frames->len;
  ScanFrame fr = { GST_CLOCK_TIME_NONE, FALSE, FALSE, SCAN_STATE_NONE,
    NAN, NAN, NAN
  };
  gdouble scores[SCAN_MAX_METRICS];
  SharpnessMetaReading m0 = { 0, };
  gboolean have_m0 = FALSE;
  GstClockTime pts = GST_BUFFER_PTS (buf), dur = GST_BUFFER_DURATION (buf);

  if (GST_CLOCK_TIME_IS_VALID (pts) && job->segment.format == GST_FORMAT_TIME)
    fr.pts = gst_segment_to_stream_time (&job->segment, GST_FORMAT_TIME, pts);
  if (past_limit (job, index, fr.pts))
    return FALSE;
  if (fr.pts != GST_CLOCK_TIME_NONE &&
      job->file.start_time == GST_CLOCK_TIME_NONE)
    job->file.start_time = fr.pts;

  for (guint m = 0; m < s->n_metrics; m++) {
    SharpnessMetaReading reading;

    scores[m] = NAN;
    if (!sharpness_meta_read (buf, sharpness_metric_info[s->metrics[m]].nick,
            &reading))
      continue;
    scores[m] = reading.score;
    if (m == 0) {
      m0 = reading;
      have_m0 = TRUE;
    }
  }
  if (have_m0) {
    fr.black_ratio = m0.has_black ? m0.black_ratio : NAN;
    fr.freeze_mafd = m0.has_freeze ? m0.freeze_mafd : NAN;
    fr.structure = m0.has_structure ? m0.structure : NAN;
  }
  /* The buffer's duration first: with a variable frame rate (phones) it
   * is the frame's own, where the caps give an average. */
  if (!GST_CLOCK_TIME_IS_VALID (dur) && job->file.fps_n > 0)
    dur = gst_util_uint64_scale_int (GST_SECOND, job->file.fps_d,
        job->file.fps_n);
  fr.damaged = check_damage (job, buf, index, fr.pts,
      GST_CLOCK_TIME_IS_VALID (dur) ? dur : GST_CLOCK_TIME_NONE);
  /* A frame the element did not score it did not judge either. */
  if (have_m0 && isfinite (scores[0]))
    judge (job, buf, index, pts, GST_CLOCK_TIME_IS_VALID (dur) ? dur :
        SHARPNESS_TIME_NONE, &m0, &fr);
  g_array_append_val (job->file.frames, fr);
  g_array_append_vals (job->file.scores, scores, s->n_metrics);
  /* A still image's frame, for its thumbnail (dropped if the stream turns
   * out to have more frames: motion JPEG). */
  if (index == 0 && scan_pipeline_image_codec (job))
    job->file.image = scan_thumb_copy_frame (&job->vinfo, job->sample_caps,
        buf);

  g_mutex_lock (&job->lock);
  job->done_frames = index + 1;
  if (fr.pts != GST_CLOCK_TIME_NONE)
    job->position = fr.pts;
  g_mutex_unlock (&job->lock);
  return TRUE;
}

GstPadProbeReturn
scan_frames_probe (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  ScanJob *job = user_data;

  if (info->type & GST_PAD_PROBE_TYPE_BUFFER) {
    if (!on_buffer (job, GST_PAD_PROBE_INFO_BUFFER (info)))
      return GST_PAD_PROBE_DROP;
  } else if (info->type & GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM) {
    GstEvent *ev = GST_PAD_PROBE_INFO_EVENT (info);
    GstCaps *caps;
    GstTagList *tags;

    if (GST_EVENT_TYPE (ev) == GST_EVENT_SEGMENT) {
      gst_event_copy_segment (ev, &job->segment);
    } else if (GST_EVENT_TYPE (ev) == GST_EVENT_CAPS) {
      gst_event_parse_caps (ev, &caps);
      on_caps (job, caps);
    } else if (GST_EVENT_TYPE (ev) == GST_EVENT_TAG) {
      gst_event_parse_tag (ev, &tags);
      on_tags (job, tags);
    }
  }
  return GST_PAD_PROBE_OK;
}

GstPadProbeReturn
scan_frames_decoded_probe (GstPad * pad, GstPadProbeInfo * info,
    gpointer user_data)
{
  ScanJob *job = user_data;
  GstEvent *ev = GST_PAD_PROBE_INFO_EVENT (info);
  GstCaps *caps;
  GstVideoInfo vi;

  if (GST_EVENT_TYPE (ev) == GST_EVENT_CAPS) {
    gst_event_parse_caps (ev, &caps);
    if (gst_video_info_from_caps (&vi, caps)) {
      g_free (job->file.decoded_format);
      job->file.decoded_format = g_strdup (GST_VIDEO_INFO_NAME (&vi));
    }
  }
  return GST_PAD_PROBE_OK;
}

void
scan_frames_finish (ScanJob * job)
{
  SharpnessContentResult r;

  sharpness_content_finish (job->content, &r);
  on_events (job, &r, FALSE);
  scan_frames_clear_thumbs (job);
}
