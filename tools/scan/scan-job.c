/* sharpness-scan: one input's scan: its state, its bus, how it ends and
 * what is checked when it does.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <unistd.h>

#include <gst/pbutils/pbutils.h>

#include "scan-job.h"
#include "scan-setup.h"

/* Warnings of the decoding elements kept as notes (the count goes on). */
#define MAX_WARNING_NOTES 5

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
  job->file.orientation_method = GST_VIDEO_ORIENTATION_IDENTITY;
  job->file.frames = g_array_new (FALSE, FALSE, sizeof (ScanFrame));
  job->file.scores = g_array_new (FALSE, FALSE, sizeof (gdouble));
  job->file.segments = g_array_new (FALSE, FALSE, sizeof (ScanSegment));
  job->file.sizes = g_array_new (FALSE, FALSE, sizeof (ScanSize));
  job->file.damage = g_array_new (FALSE, FALSE, sizeof (ScanDamage));
  job->file.notes = g_ptr_array_new_with_free_func (g_free);
  job->file.start_time = GST_CLOCK_TIME_NONE;
  job->input_fd = -1;
  job->first_pts = job->prev_pts = job->prev_duration = GST_CLOCK_TIME_NONE;
  g_mutex_init (&job->lock);
  gst_segment_init (&job->segment, GST_FORMAT_UNDEFINED);
  gst_video_info_init (&job->vinfo);
  scan_content_settings (s, 0, 0, &job->content_settings);
  job->content = sharpness_content_new (&job->content_settings,
      s->metrics[0], s->window);
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
    scan_clear_sample (&ss->thumb);
  }
  g_array_set_size (f->segments, 0);
  g_array_set_size (f->damage, 0);
  g_array_set_size (f->sizes, 0);
  scan_clear_sample (&f->image);
  g_clear_pointer (&f->image_base64, g_free);
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
  g_free (job->file.decoded_format);
  g_free (job->file.orientation);
  g_free (job->file.error);
  g_free (job->file.warning);
  g_array_unref (job->file.frames);
  g_array_unref (job->file.scores);
  g_array_unref (job->file.segments);
  g_array_unref (job->file.sizes);
  g_array_unref (job->file.damage);
  g_ptr_array_unref (job->file.notes);
  g_free (job->source_warning);
  g_free (job->scorer_warning);
  if (job->decode)
    sharpness_tool_decode_unref (job->decode);
  gst_clear_caps (&job->sample_caps);
  scan_frames_clear_thumbs (job);
  sharpness_content_free (job->content);
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
    job->file.error = g_strdup ("a directory without image or video files "
        "(docs/reference/sharpness-scan.md lists the extensions read)");
  else if (path && access (path, R_OK) != 0)
    job->file.error = g_strdup ("cannot be read (permission denied)");
  g_free (path);
  return job->file.error == NULL;
}

/* A detection asked for that measured none of the judged frames (a backend
 * or a format that does not measure it) found nothing for want of data:
 * said, so that no segment does not read as none there. */
static void
note_unmeasured (ScanFile * f)
{
  guint detect = f->settings->detect;
  guint64 judged = 0, black = 0, freeze = 0;

  for (guint64 i = 0; i < scan_file_frames (f); i++) {
    const ScanFrame *fr = &g_array_index (f->frames, ScanFrame, i);

    if (fr->state == SCAN_STATE_NONE)
      continue;
    judged++;
    black += isfinite (fr->black_ratio);
    freeze += isfinite (fr->freeze_mafd);
  }
  if (judged == 0 || f->kind == SCAN_KIND_IMAGE)
    return;
  if (((detect & SHARPNESS_DETECT_BLACK) && black == 0) ||
      ((detect & SHARPNESS_DETECT_FREEZE) && freeze == 0))
    g_ptr_array_add (f->notes, g_strdup_printf ("%s%s%s not measured on "
            "these frames (%s memory, %s): none can be found; --cpu "
            "measures them", (detect & SHARPNESS_DETECT_BLACK) && !black ?
            "black frames" : "", (detect & SHARPNESS_DETECT_BLACK) && !black
            && (detect & SHARPNESS_DETECT_FREEZE) && !freeze ? " and " : "",
            (detect & SHARPNESS_DETECT_FREEZE) && !freeze ? "frozen frames" :
            "", f->cuda_memory ? "CUDA" : "system", f->format ? f->format :
            "?"));
}

/* Once the frames are in: what the stream turned out to be. */
static void
describe_stream (ScanJob * job)
{
  ScanFile *f = &job->file;
  GstVideoOrientationMethod m = f->orientation_method;

  /* Sizes as displayed: a quarter turn swaps them. */
  if (m == GST_VIDEO_ORIENTATION_90R || m == GST_VIDEO_ORIENTATION_90L ||
      m == GST_VIDEO_ORIENTATION_UL_LR || m == GST_VIDEO_ORIENTATION_UR_LL) {
    for (guint i = 0; i < f->sizes->len; i++) {
      ScanSize *sz = &g_array_index (f->sizes, ScanSize, i);
      gint w = sz->width;
      sz->width = sz->height;
      sz->height = w;
    }
  }
  if (f->sizes->len) {
    f->width = g_array_index (f->sizes, ScanSize, 0).width;
    f->height = g_array_index (f->sizes, ScanSize, 0).height;
  }
  scan_pipeline_describe (job);
  f->kind = scan_pipeline_image_codec (job) && scan_file_frames (f) == 1 ?
      SCAN_KIND_IMAGE : SCAN_KIND_VIDEO;
  if (f->kind != SCAN_KIND_IMAGE)
    scan_clear_sample (&f->image);
  if (f->video_streams > 1)
    g_ptr_array_insert (f->notes, 0, g_strdup_printf ("%u video streams: "
            "only the first one was scanned", f->video_streams));
  if (f->interlaced)
    g_ptr_array_add (f->notes, g_strdup ("interlaced: frames scored as "
            "delivered, both fields woven (combing on motion raises "
            "sharpness scores)"));
  note_unmeasured (f);
}

/* The first metric that scored none of the file's frames, or -1. */
static gint
unscoring_metric (const ScanFile * f)
{
  guint64 n = scan_file_frames (f);

  for (guint m = 0; m < f->settings->n_metrics && n > 0; m++) {
    guint64 i;

    for (i = 0; i < n && !isfinite (scan_file_score (f, i, m)); i++);
    if (i == n)
      return m;
  }
  return -1;
}

/* What the frames say about the file as a whole; takes @error. */
static gchar *
check_frames (ScanJob * job, gchar * error)
{
  guint64 n = scan_file_frames (&job->file);
  gint m;

  if (!error && job->no_video)
    error = g_strdup ("no video stream (audio only?)");
  if (!error && n == 0 && job->file.stopped != SCAN_STOP_SIGNAL)
    error = g_strdup (job->file.warning ? job->file.warning :
        "no video frame could be decoded");
  if (!error && (m = unscoring_metric (&job->file)) >= 0)
    /* A file with no score would read as sharp. */
    error = g_strdup_printf ("%s scored none of its %" G_GUINT64_FORMAT
        " frames%s%s (a metric too slow for the CPU needs --cpu, or a CUDA "
        "GPU)", sharpness_metric_info[job->file.settings->metrics[m]].nick,
        n, job->scorer_warning ? ": " : "", job->scorer_warning ?
        job->scorer_warning : "");
  if (!error && job->file.stopped == SCAN_STOP_NONE &&
      job->file.duration != GST_CLOCK_TIME_NONE) {
    /* The container promised more than was decoded: truncated or damaged
     * (demuxers end such files with a plain EOS). */
    gdouble have = scan_file_seconds (&job->file);
    gdouble want = job->file.duration / (gdouble) GST_SECOND;
    if (have + 0.5 < want * 0.98)
      error = g_strdup_printf ("truncated or damaged: frames end at %.2f s, "
          "the container says %.2f s", have, want);
  }
  return error;
}

/* Segments over a damaged stretch: their verdict is unreliable. */
static void
flag_damaged_segments (ScanFile * f)
{
  for (guint i = 0; i < f->segments->len; i++) {
    ScanSegment *ss = &g_array_index (f->segments, ScanSegment, i);
    for (guint k = 0; k < f->damage->len && !ss->damaged; k++) {
      const ScanDamage *d = &g_array_index (f->damage, ScanDamage, k);
      ss->damaged = ss->start_frame <= d->last_frame &&
          ss->end_frame >= d->first_frame;
    }
  }
}

static gint
by_start (gconstpointer a, gconstpointer b)
{
  const ScanSegment *x = a, *y = b;

  if (x->start_frame != y->start_frame)
    return x->start_frame < y->start_frame ? -1 : 1;
  return (gint) x->kind - (gint) y->kind;
}

void
scan_job_finish (ScanJob * job, gchar * error)
{
  if (job->finished) {
    g_free (error);
    return;
  }
  job->finished = TRUE;
  scan_errors_stop (job);
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
  job->decodebin = NULL;
  gst_clear_object (&job->video_branch);
  g_clear_pointer (&job->pipeline, gst_object_unref);
  /* fdsrc leaves the descriptor it was given open. */
  if (job->input_fd >= 0)
    close (job->input_fd);
  job->input_fd = -1;

  error = check_frames (job, error);
  if (!job->file.error)
    job->file.error = error;
  else
    g_free (error);
  describe_stream (job);
  if (!job->file.error)
    scan_frames_finish (job);
  scan_frames_clear_thumbs (job);
  /* Segments end in the order of their ends; readers want their starts. */
  g_array_sort (job->file.segments, by_start);
  flag_damaged_segments (&job->file);
  scan_thumbs_make (&job->file);

  job->running = FALSE;
  if (job->done)
    job->done (job, job->done_data);
}

/* Whether @src is one of the elements that read and decode the input. */
static gboolean
is_decoding (ScanJob * job, GstObject * src)
{
  return job->decodebin && src != GST_OBJECT (job->decodebin) &&
      gst_object_has_as_ancestor (src, GST_OBJECT (job->decodebin));
}

static void
on_warning (ScanJob * job, GstMessage * msg)
{
  GstObject *src = GST_MESSAGE_SRC (msg);
  GError *err = NULL;
  gchar *dbg = NULL, *text;

  gboolean source = GST_IS_ELEMENT (src) &&
      GST_OBJECT_FLAG_IS_SET (src, GST_ELEMENT_FLAG_SOURCE);
  guint64 position;

  gst_message_parse_warning (msg, &err, &dbg);
  text = g_strdup_printf ("%s (%s)", err->message, GST_OBJECT_NAME (src));
  /* The reason given when no frame comes: the reader's or the decoder's
   * word, not a scorer's. */
  if (!job->file.warning && (source || is_decoding (job, src)))
    job->file.warning = g_strdup (text);
  if (!job->scorer_warning && GST_IS_ELEMENT (src) &&
      gst_element_get_factory (GST_ELEMENT (src)) &&
      g_str_equal (GST_OBJECT_NAME (gst_element_get_factory (GST_ELEMENT
                  (src))), "cudasharpness"))
    job->scorer_warning = g_strdup (err->message);
  if (source) {
    g_free (job->source_warning);
    job->source_warning = g_strdup (err->message);
  } else if (is_decoding (job, src)) {
    /* A warning of a demuxer, parser or decoder is damage: the frames
     * around it may be wrong. */
    g_mutex_lock (&job->lock);
    position = job->position;
    g_mutex_unlock (&job->lock);
    if (job->file.decoding_warnings++ < MAX_WARNING_NOTES)
      g_ptr_array_add (job->file.notes, g_strdup_printf ("decoding "
              "warning at %.2f s: %s", position / (gdouble) GST_SECOND,
              text));
  }
  g_free (text);
  g_clear_error (&err);
  g_free (dbg);
}

static gboolean
bus_cb (GstBus * bus, GstMessage * msg, gpointer user_data)
{
  ScanJob *job = user_data;
  gchar *text;

  switch (GST_MESSAGE_TYPE (msg)) {
    case GST_MESSAGE_EOS:
      /* During a network check, the check ends the file. */
      if (!job->diagnosis)
        scan_job_finish (job, NULL);
      break;
    case GST_MESSAGE_ERROR:
      if (job->diagnosis)
        break;
      text = scan_errors_describe (job, msg);
      if (text)
        scan_job_finish (job, text);
      break;
    case GST_MESSAGE_WARNING:
      on_warning (job, msg);
      break;
    case GST_MESSAGE_STREAM_COLLECTION:
      if (job->no_video)
        scan_job_finish (job, g_strdup ("no video stream (audio only?)"));
      break;
    case GST_MESSAGE_APPLICATION:
      if (gst_message_has_name (msg, SCAN_LIMIT_MESSAGE))
        scan_job_finish (job, NULL);
      if (gst_message_has_name (msg, SHARPNESS_TOOL_DECODE_NO_VIDEO)) {
        job->no_video = TRUE;
        scan_job_finish (job, g_strdup ("no video stream (audio only?)"));
      }
      break;
    case GST_MESSAGE_ELEMENT:
      /* A decoder missing for a stream that is not scanned (a data
       * stream's, say): the video still is. */
      if (gst_is_missing_plugin_message (msg) &&
          !sharpness_tool_decode_missing_not_video (msg)) {
        gchar *d = gst_missing_plugin_message_get_description (msg);
        scan_job_finish (job, g_strdup_printf ("no decoder: %s missing "
                "(install the GStreamer plugin package that has it)", d));
        g_free (d);
      }
      break;
    default:
      break;
  }
  /* The watch is removed by scan_job_finish (). */
  return job->finished ? G_SOURCE_REMOVE : G_SOURCE_CONTINUE;
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
