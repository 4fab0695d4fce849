/* sharpness-scan's scheduler: starts --jobs pipelines at a time, writes the
 * results in input order as files complete, then frees them (memory does
 * not grow with the number of inputs), fails a stalled file, and draws the
 * progress line.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <unistd.h>

#include "scan-scheduler.h"

/* A file whose pipeline makes no progress for STALL_SECONDS fails, so
 * that one bad input cannot hang a batch. */
#define STALL_SECONDS 60

static void start_jobs (ScanScheduler * sched);

static void
write_out (FILE * f, GString * s)
{
  if (f && s->len)
    fwrite (s->str, 1, s->len, f);
  g_string_truncate (s, 0);
}

static void
clear_progress (ScanScheduler * sched)
{
  if (sched->progress)
    g_printerr ("\r\033[K");
}

/* Writes the finished files, in input order, and frees their frames. */
static void
emit_ready (ScanScheduler * sched)
{
  GString *s = g_string_new (NULL);

  while (sched->next_emit < sched->n_jobs &&
      sched->jobs[sched->next_emit]->finished) {
    ScanJob *job = sched->jobs[sched->next_emit];
    ScanFile *f = &job->file;

    clear_progress (sched);
    if (f->error) {
      sched->any_error = TRUE;
      g_printerr ("sharpness-scan: %s: error: %s\n", f->input, f->error);
    } else if (!sched->settings->quiet) {
      gchar *line = scan_summary_line (f);
      if (sched->summaries_to_stderr)
        g_printerr ("%s\n", line);
      else
        g_print ("%s\n", line);
      g_free (line);
    }
    if (f->segments->len)
      sched->any_blurry = TRUE;
    if (sched->csv) {
      scan_csv_file (s, f);
      write_out (sched->csv, s);
    }
    if (sched->json) {
      scan_json_file (s, f, sched->next_emit == 0);
      write_out (sched->json, s);
    }
    if (sched->html) {
      scan_report_file (s, f);
      write_out (sched->html, s);
    }
    scan_job_release_results (job);
    sched->next_emit++;
  }
  g_string_free (s, TRUE);
  fflush (stdout);
}

static void
job_done (ScanJob * job, gpointer user_data)
{
  ScanScheduler *sched = user_data;

  sched->running--;
  emit_ready (sched);
  /* From start_jobs () (an input that failed at once), its loop goes on;
   * no recursion over a long list of missing files. */
  if (!sched->starting)
    start_jobs (sched);
}

static void
start_jobs (ScanScheduler * sched)
{
  sched->starting = TRUE;
  while (sched->running < sched->settings->jobs &&
      sched->next_start < sched->n_jobs) {
    ScanJob *job = sched->jobs[sched->next_start++];

    job->done = job_done;
    job->done_data = sched;
    sched->running++;
    scan_job_start (job, sched->cuda_context);
  }
  sched->starting = FALSE;
  if (sched->running == 0 && sched->next_start >= sched->n_jobs)
    g_main_loop_quit (sched->loop);
}

static gboolean
watchdog_cb (gpointer user_data)
{
  ScanScheduler *sched = user_data;
  gint64 now = g_get_monotonic_time ();

  for (guint i = sched->next_emit; i < sched->n_jobs; i++) {
    ScanJob *job = sched->jobs[i];
    guint64 frames;

    if (!job->running || job->finished || !job->pipeline)
      continue;
    g_mutex_lock (&job->lock);
    frames = job->done_frames;
    g_mutex_unlock (&job->lock);
    if (job->watch_time == 0 || frames != job->watch_frames) {
      job->watch_frames = frames;
      job->watch_time = now;
    } else if (now - job->watch_time > STALL_SECONDS * G_USEC_PER_SEC) {
      scan_job_finish (job, g_strdup_printf ("stalled: no frame for %d s "
              "after frame %" G_GUINT64_FORMAT, STALL_SECONDS, frames));
      /* Finishing may have started jobs: look again next time. */
      break;
    }
  }
  return G_SOURCE_CONTINUE;
}

static gboolean
progress_cb (gpointer user_data)
{
  ScanScheduler *sched = user_data;
  gdouble done = sched->next_emit, elapsed;
  guint64 frames = 0;
  gchar *eta;

  for (guint i = sched->next_emit; i < sched->n_jobs; i++) {
    ScanJob *job = sched->jobs[i];
    gdouble fraction;

    if (job->finished) {
      done += 1;
      continue;
    }
    if (!job->running || !job->pipeline)
      continue;
    frames += scan_job_progress (job, &fraction);
    if (fraction > 0)
      done += fraction;
  }
  elapsed = (g_get_monotonic_time () - sched->t_start) / 1e6;
  eta = done > 0 ? scan_format_time (elapsed * (sched->n_jobs - done) /
      done) : g_strdup ("?");
  g_printerr ("\r\033[K%u/%u files, %.0f%%, %.0f fps, ETA %s",
      sched->next_emit, sched->n_jobs, 100.0 * done / MAX (sched->n_jobs, 1),
      elapsed > 0 ? frames / MAX (elapsed, 1e-3) : 0.0, eta);
  g_free (eta);
  return G_SOURCE_CONTINUE;
}

void
scan_scheduler_run (ScanScheduler * sched)
{
  const ScanSettings *s = sched->settings;
  GString *buf = g_string_new (NULL);
  guint progress_id = 0, watchdog_id;

  if (sched->csv) {
    scan_csv_header (buf, s);
    write_out (sched->csv, buf);
  }
  if (sched->json) {
    scan_json_begin (buf);
    write_out (sched->json, buf);
  }
  if (sched->html) {
    scan_report_begin (buf, s);
    write_out (sched->html, buf);
  }

  sched->loop = g_main_loop_new (NULL, FALSE);
  sched->t_start = g_get_monotonic_time ();
  sched->progress = !s->quiet && isatty (STDERR_FILENO);
  if (sched->progress)
    progress_id = g_timeout_add (500, progress_cb, sched);
  watchdog_id = g_timeout_add_seconds (5, watchdog_cb, sched);
  if (sched->n_jobs > 0) {
    start_jobs (sched);
    if (sched->running > 0 || sched->next_start < sched->n_jobs)
      g_main_loop_run (sched->loop);
  }
  clear_progress (sched);
  if (progress_id)
    g_source_remove (progress_id);
  g_source_remove (watchdog_id);
  g_main_loop_unref (sched->loop);
  sched->loop = NULL;

  if (sched->json) {
    scan_json_end (buf);
    write_out (sched->json, buf);
  }
  if (sched->html) {
    scan_report_end (buf);
    write_out (sched->html, buf);
  }
  g_string_free (buf, TRUE);
}
