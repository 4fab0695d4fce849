/* sharpness-scan: one input's scan: its state, its bus, how it ends and
 * what is checked when it does.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <unistd.h>

#include <gst/pbutils/pbutils.h>

#include "scan-job.h"

ScanJob *
scan_job_new (guint index, const gchar * input, const gchar * uri,
    const ScanSettings * s)
{
  ScanJob *job = g_new0 (ScanJob, 1);

  job->file.index = index;
  job->file.input = g_strdup (input);
  job->file.uri = g_strdup (uri);
  job->file.settings = s;
  job->file.duration = GST_CLOCK_TIME_NONE;
  job->file.frames = g_array_new (FALSE, FALSE, sizeof (ScanFrame));
  job->file.scores = g_array_new (FALSE, FALSE, sizeof (gdouble));
  job->file.segments = g_array_new (FALSE, FALSE, sizeof (ScanSegment));
  g_mutex_init (&job->lock);
  gst_segment_init (&job->segment, GST_FORMAT_UNDEFINED);
  gst_video_info_init (&job->vinfo);
  sharpness_segment_tracker_init (&job->tracker,
      (guint64) (s->min_duration * GST_SECOND + 0.5), s->max_gap,
      sharpness_metric_info[s->metrics[0]].direction ==
      SHARPNESS_LOWER_IS_SHARPER);
  return job;
}

void
scan_job_release_results (ScanJob * job)
{
  ScanFile *f = &job->file;

  g_array_set_size (f->frames, 0);
  g_array_set_size (f->scores, 0);
  for (guint i = 0; i < f->segments->len; i++) {
    ScanSegment *ss = &g_array_index (f->segments, ScanSegment, i);
    g_free (ss->jpeg_base64);
    g_free (ss->crop_base64);
    scan_clear_sample (&ss->worst);
  }
  g_array_set_size (f->segments, 0);
}

void
scan_job_free (ScanJob * job)
{
  scan_job_release_results (job);
  g_free (job->file.input);
  g_free (job->file.uri);
  g_free (job->file.codec);
  g_free (job->file.decoder);
  g_free (job->file.format);
  g_free (job->file.error);
  g_free (job->file.warning);
  g_array_unref (job->file.frames);
  g_array_unref (job->file.scores);
  g_array_unref (job->file.segments);
  gst_clear_caps (&job->sample_caps);
  scan_clear_sample (&job->open_worst);
  g_mutex_clear (&job->lock);
  g_free (job);
}

static gboolean
check_input (ScanJob * job)
{
  gchar *path;

  if (!job->file.uri) {
    job->file.error = g_strdup ("not a file name or URI");
    return FALSE;
  }
  if (!g_str_has_prefix (job->file.uri, "file:"))
    return TRUE;
  path = g_filename_from_uri (job->file.uri, NULL, NULL);
  if (path && !g_file_test (path, G_FILE_TEST_EXISTS))
    job->file.error = g_strdup ("no such file");
  else if (path && g_file_test (path, G_FILE_TEST_IS_DIR))
    job->file.error = g_strdup ("is a directory");
  else if (path && access (path, R_OK) != 0)
    job->file.error = g_strdup ("cannot be read (permission denied)");
  g_free (path);
  return job->file.error == NULL;
}

void
scan_job_finish (ScanJob * job, gchar * error)
{
  guint64 n;

  if (job->finished) {
    g_free (error);
    return;
  }
  job->finished = TRUE;
  job->file.elapsed = (g_get_monotonic_time () - job->t_start) / 1e6;
  if (job->pipeline) {
    gint64 dur = -1;
    if (gst_element_query_duration (job->pipeline, GST_FORMAT_TIME, &dur) &&
        dur > 0)
      job->file.duration = dur;
    gst_element_set_state (job->pipeline, GST_STATE_NULL);
  }
  if (job->bus_watch)
    g_source_remove (job->bus_watch);
  job->bus_watch = 0;
  g_clear_pointer (&job->pipeline, gst_object_unref);

  n = scan_file_frames (&job->file);
  if (!error && job->no_video)
    error = g_strdup ("no video stream (audio only?)");
  if (!error && n == 0)
    error = g_strdup (job->file.warning ? job->file.warning :
        "no video frame could be decoded");
  if (!error && job->file.duration != GST_CLOCK_TIME_NONE) {
    /* The container promised more than was decoded: truncated or damaged
     * (demuxers end such files with a plain EOS). */
    gdouble have = scan_file_seconds (&job->file);
    gdouble want = job->file.duration / (gdouble) GST_SECOND;
    if (have + 0.5 < want * 0.98)
      error = g_strdup_printf ("truncated or damaged: frames end at %.2f s, "
          "the container says %.2f s", have, want);
  }
  if (!job->file.error)
    job->file.error = error;
  else
    g_free (error);
  if (!job->file.error)
    scan_frames_finish (job);
  scan_clear_sample (&job->open_worst);
  scan_thumbs_make (&job->file);

  job->running = FALSE;
  if (job->done)
    job->done (job, job->done_data);
}

static gboolean
bus_cb (GstBus * bus, GstMessage * msg, gpointer user_data)
{
  ScanJob *job = user_data;
  GError *err = NULL;
  gchar *dbg = NULL;

  switch (GST_MESSAGE_TYPE (msg)) {
    case GST_MESSAGE_EOS:
      scan_job_finish (job, NULL);
      return G_SOURCE_REMOVE;
    case GST_MESSAGE_ERROR:
      gst_message_parse_error (msg, &err, &dbg);
      if (job->no_video)
        scan_job_finish (job, g_strdup ("no video stream (audio only?)"));
      else
        scan_job_finish (job, g_strdup_printf ("%s (%s)", err->message,
                GST_OBJECT_NAME (GST_MESSAGE_SRC (msg))));
      g_clear_error (&err);
      g_free (dbg);
      return G_SOURCE_REMOVE;
    case GST_MESSAGE_WARNING:
      gst_message_parse_warning (msg, &err, &dbg);
      if (!job->file.warning)
        job->file.warning = g_strdup_printf ("%s (%s)", err->message,
            GST_OBJECT_NAME (GST_MESSAGE_SRC (msg)));
      g_clear_error (&err);
      g_free (dbg);
      break;
    case GST_MESSAGE_STREAM_COLLECTION:
      if (job->no_video) {
        scan_job_finish (job, g_strdup ("no video stream (audio only?)"));
        return G_SOURCE_REMOVE;
      }
      break;
    case GST_MESSAGE_ELEMENT:
      if (gst_is_missing_plugin_message (msg)) {
        gchar *d = gst_missing_plugin_message_get_description (msg);
        scan_job_finish (job, g_strdup_printf ("no decoder: %s missing", d));
        g_free (d);
        return G_SOURCE_REMOVE;
      }
      break;
    default:
      break;
  }
  return G_SOURCE_CONTINUE;
}

void
scan_job_start (ScanJob * job, GstContext * cuda_context)
{
  GError *err = NULL;
  GstBus *bus;

  job->running = TRUE;
  job->t_start = g_get_monotonic_time ();
  if (!check_input (job)) {
    scan_job_finish (job, NULL);
    return;
  }
  if (!scan_pipeline_build (job, cuda_context, &err)) {
    scan_job_finish (job, g_strdup (err ? err->message :
            "could not build the pipeline"));
    g_clear_error (&err);
    return;
  }
  bus = gst_element_get_bus (job->pipeline);
  job->bus_watch = gst_bus_add_watch (bus, bus_cb, job);
  gst_object_unref (bus);
  if (gst_element_set_state (job->pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE && !job->finished) {
    /* The bus says why; let its watch report it. */
    GST_DEBUG ("state change failed for %s", job->file.input);
  }
}

guint64
scan_job_progress (ScanJob * job, gdouble * fraction)
{
  guint64 frames;
  gint64 dur = -1;

  *fraction = -1;
  g_mutex_lock (&job->lock);
  frames = job->done_frames;
  if (job->file.duration == GST_CLOCK_TIME_NONE && job->pipeline &&
      gst_element_query_duration (job->pipeline, GST_FORMAT_TIME, &dur) &&
      dur > 0)
    job->file.duration = dur;
  if (job->file.duration != GST_CLOCK_TIME_NONE && job->file.duration > 0)
    *fraction = MIN (1.0, job->position / (gdouble) job->file.duration);
  g_mutex_unlock (&job->lock);
  return frames;
}
