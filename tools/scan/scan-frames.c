/* sharpness-scan's probe after the last scorer: the scores of every frame
 * from its GstSharpnessMeta, the segment tracker the element's alarms use
 * (analysis/sharpness-blur-segments.c), and a copy of the worst frame of
 * the open run for the thumbnail.  Streaming thread.
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

static void
add_segment (ScanJob * job, const SharpnessSegment * seg)
{
  ScanSegment ss = { *seg, NULL, NULL, NULL };

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

  if (!gst_video_info_from_caps (&info, caps))
    return;
  job->vinfo = info;
  job->file.width = GST_VIDEO_INFO_WIDTH (&info);
  job->file.height = GST_VIDEO_INFO_HEIGHT (&info);
  job->file.fps_n = GST_VIDEO_INFO_FPS_N (&info);
  job->file.fps_d = GST_VIDEO_INFO_FPS_D (&info);
  g_free (job->file.format);
  job->file.format = g_strdup (GST_VIDEO_INFO_NAME (&info));
  job->file.cuda_memory = features &&
      gst_caps_features_contains (features, "memory:CUDAMemory");
  gst_clear_caps (&job->sample_caps);
  job->sample_caps = gst_caps_copy (caps);
  gst_caps_set_features (job->sample_caps, 0, NULL);
}

static void
on_buffer (ScanJob * job, GstBuffer * buf)
{
  const ScanSettings *s = job->file.settings;
  guint64 index = job->file.frames->len;
  ScanFrame fr = { GST_CLOCK_TIME_NONE, FALSE };
  gdouble scores[SCAN_MAX_METRICS];
  GstClockTime pts = GST_BUFFER_PTS (buf), dur = GST_BUFFER_DURATION (buf);
  SharpnessSegmentFrame sf;
  SharpnessSegment seg;

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

  if (GST_CLOCK_TIME_IS_VALID (pts) && job->segment.format == GST_FORMAT_TIME)
    fr.pts = gst_segment_to_stream_time (&job->segment, GST_FORMAT_TIME, pts);
  if (!GST_CLOCK_TIME_IS_VALID (dur) && job->file.fps_n > 0)
    dur = gst_util_uint64_scale_int (GST_SECOND, job->file.fps_d,
        job->file.fps_n);
  g_array_append_val (job->file.frames, fr);
  g_array_append_vals (job->file.scores, scores, s->n_metrics);

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
}

GstPadProbeReturn
scan_frames_probe (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  ScanJob *job = user_data;

  if (info->type & GST_PAD_PROBE_TYPE_BUFFER) {
    on_buffer (job, GST_PAD_PROBE_INFO_BUFFER (info));
  } else if (info->type & GST_PAD_PROBE_TYPE_EVENT_DOWNSTREAM) {
    GstEvent *ev = GST_PAD_PROBE_INFO_EVENT (info);
    GstCaps *caps;

    if (GST_EVENT_TYPE (ev) == GST_EVENT_SEGMENT)
      gst_event_copy_segment (ev, &job->segment);
    else if (GST_EVENT_TYPE (ev) == GST_EVENT_CAPS) {
      gst_event_parse_caps (ev, &caps);
      on_caps (job, caps);
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
