/* sharpness-scan's probe after the last scorer: the scores of every frame
 * from its GstSharpnessMeta, the segment tracker the element's alarms use
 * (analysis/sharpness-blur-segments.c), a copy of the worst frame of the
 * open run for the thumbnail, what the stream is (sizes, interlacing,
 * orientation), lost and corrupted frames, and the per-input limits.
 * Streaming thread.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>

#include "scan-job.h"
#include "sharpness-meta.h"

/* A gap between two frames longer than this many frame durations means
 * frames were lost (a frame rate that varies by less does not). */
#define LOST_GAP 1.5

static void
add_segment (ScanJob * job, const SharpnessSegment * seg)
{
  ScanSegment ss = { *seg, NULL, NULL, NULL, FALSE };

  if (job->open_worst && job->open_worst_frame == seg->worst_frame) {
    ss.worst = job->open_worst;
    job->open_worst = NULL;
  }
  g_array_append_val (job->file.segments, ss);
}

static void
on_caps (ScanJob * job, GstCaps * caps)
{
  GstCapsFeatures *features = gst_caps_get_features (caps, 0);
  GstVideoInfo info;
  ScanFile *f = &job->file;
  ScanSize size;

  if (!gst_video_info_from_caps (&info, caps))
    return;
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
          gst_structure_new_empty ("sharpness-scan-limit")));
  return TRUE;
}

/* FALSE: the frame is past the limits, and dropped. */
static gboolean
on_buffer (ScanJob * job, GstBuffer * buf)
{
  const ScanSettings *s = job->file.settings;
  guint64 index = job->file.frames->len;
  ScanFrame fr = { GST_CLOCK_TIME_NONE, FALSE, FALSE };
  gdouble scores[SCAN_MAX_METRICS];
  GstClockTime pts = GST_BUFFER_PTS (buf), dur = GST_BUFFER_DURATION (buf);
  SharpnessSegmentFrame sf;
  SharpnessSegment seg;

  if (GST_CLOCK_TIME_IS_VALID (pts) && job->segment.format == GST_FORMAT_TIME)
    fr.pts = gst_segment_to_stream_time (&job->segment, GST_FORMAT_TIME, pts);
  if (past_limit (job, index, fr.pts))
    return FALSE;

  for (guint m = 0; m < s->n_metrics; m++) {
    SharpnessMetaReading reading;

    scores[m] = NAN;
    if (!sharpness_meta_read (buf, sharpness_metric_info[s->metrics[m]].nick,
            &reading))
      continue;
    scores[m] = reading.score;
    if (m == 0)
      fr.blurry = reading.blurry;
  }
  /* The buffer's duration first: with a variable frame rate (phones) it
   * is the frame's own, where the caps give an average. */
  if (!GST_CLOCK_TIME_IS_VALID (dur) && job->file.fps_n > 0)
    dur = gst_util_uint64_scale_int (GST_SECOND, job->file.fps_d,
        job->file.fps_n);
  fr.damaged = check_damage (job, buf, index, fr.pts,
      GST_CLOCK_TIME_IS_VALID (dur) ? dur : GST_CLOCK_TIME_NONE);
  g_array_append_val (job->file.frames, fr);
  g_array_append_vals (job->file.scores, scores, s->n_metrics);
  /* A still image's frame, for its thumbnail (dropped if the stream turns
   * out to have more frames: motion JPEG). */
  if (index == 0 && job->image_codec)
    job->file.image = scan_thumb_copy_frame (&job->vinfo, job->sample_caps,
        buf);

  if (isfinite (scores[0])) {
    sf = (SharpnessSegmentFrame) {
      .index = index,
      .pts = fr.pts,
      .duration = GST_CLOCK_TIME_IS_VALID (dur) ? dur : SHARPNESS_TIME_NONE,
      .running_time = GST_CLOCK_TIME_IS_VALID (pts) ?
          gst_segment_to_running_time (&job->segment, GST_FORMAT_TIME, pts) :
          SHARPNESS_TIME_NONE,
      .stream_time = fr.pts,
      .score = scores[0],
      .blurry = fr.blurry,
    };
    if (sharpness_segment_tracker_push (&job->tracker, &sf, &seg) ==
        SHARPNESS_SEGMENT_END)
      add_segment (job, &seg);
    if (!job->tracker.open) {
      scan_clear_sample (&job->open_worst);
    } else if (job->tracker.run.worst_frame == index) {
      /* A new worst frame of the open run: keep it for the thumbnail. */
      scan_clear_sample (&job->open_worst);
      job->open_worst = scan_thumb_copy_frame (&job->vinfo, job->sample_caps,
          buf);
      job->open_worst_frame = index;
    }
  }

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
  SharpnessSegment seg;

  if (sharpness_segment_tracker_finish (&job->tracker, &seg) ==
      SHARPNESS_SEGMENT_END)
    add_segment (job, &seg);
  scan_clear_sample (&job->open_worst);
}
