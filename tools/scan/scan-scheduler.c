/* sharpness-scan's scheduler: starts --jobs pipelines at a time, writes the
 * results in input order as files complete, then frees them (memory does
 * not grow with the number of inputs), fails a stalled file, draws the
 * progress line, and stops cleanly on SIGINT and SIGTERM.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <signal.h>
#include <string.h>
#include <unistd.h>

#include <glib-unix.h>

#include "scan-scheduler.h"

/* A file whose pipeline makes no progress for STALL_SECONDS fails, so
 * that one bad input cannot hang a batch. */
#define STALL_SECONDS 60

static void start_jobs (ScanScheduler * sched);

static void
clear_progress (ScanScheduler * sched)
{
  if (sched->progress)
    g_printerr ("\r\033[K");
}

static void
print_summary (ScanScheduler * sched, const ScanFile * f)
{
  gchar *line;

  if (f->error) {
    gchar *name = scan_name_for_line (f->input);

    g_printerr ("sharpness-scan: %s: error: %s\n", name, f->error);
    g_free (name);
    return;
  }
  if (sched->settings->quiet)
    return;
  line = scan_summary_line (f);
  if (sched->summaries_to_stderr)
    g_printerr ("%s\n", line);
  else
    g_print ("%s\n", line);
  g_free (line);
}

/* Writes the finished files, in input order, and frees their frames. */
static void
emit_ready (ScanScheduler * sched)
{
  GString *s = g_string_new (NULL), *img = g_string_new (NULL);

  while (sched->next_emit < sched->n_jobs &&
      sched->jobs[sched->next_emit]->finished) {
    ScanJob *job = sched->jobs[sched->next_emit];
    ScanFile *f = &job->file;

    clear_progress (sched);
    print_summary (sched, f);
    sched->any_error |= f->error != NULL;
    sched->any_blurry |= scan_file_kind_segments (f,
        SHARPNESS_EVENT_BLUR) > 0 || scan_file_image_verdict (f) == 1;
    sched->any_damaged |= scan_file_damaged (f);
    if (sched->csv) {
      scan_csv_file (s, f);
      scan_outfile_write (sched->csv, s);
    }
    if (sched->json) {
      scan_json_file (s, f, sched->next_emit == 0);
      scan_outfile_write (sched->json, s);
    }
    if (sched->html) {
      scan_report_file (s, img, f);
      scan_outfile_write (sched->html, s);
      if (img->len)
        sched->n_images++;
      scan_outfile_write (sched->images, img);
    }
    scan_job_release_results (job);
    sched->next_emit++;
  }
  g_string_free (s, TRUE);
  g_string_free (img, TRUE);
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
  while (!sched->signal && sched->running < sched->settings->jobs &&
      sched->next_start < sched->n_jobs) {
    ScanJob *job = sched->jobs[sched->next_start++];

    job->done = job_done;
    job->done_data = sched;
    sched->running++;
    scan_job_start (job, sched->cuda_context);
  }
  sched->starting = FALSE;
  if (sched->running == 0 && (sched->signal ||
          sched->next_start >= sched->n_jobs))
    g_main_loop_quit (sched->loop);
}

static void
on_signal (ScanScheduler * sched, gint sig)
{
  if (sched->signal)
    return;
  sched->signal = sig;
  scan_outfile_exit_on_signals ();
  clear_progress (sched);
  g_printerr ("sharpness-scan: %s: stopping, writing the outputs of what "
      "was scanned (%s again to quit at once)\n", scan_signal_name (sig),
      scan_signal_name (sig));
  /* No file starts any more; the running ones end with what they have. */
  for (guint i = sched->next_emit; i < sched->next_start; i++) {
    ScanJob *job = sched->jobs[i];
    if (job->running && !job->finished) {
      job->file.stopped = SCAN_STOP_SIGNAL;
      scan_job_finish (job, NULL);
    }
  }
  if (sched->running == 0)
    g_main_loop_quit (sched->loop);
}

static gboolean
sigint_cb (gpointer sched)
{
  on_signal (sched, SIGINT);
  return G_SOURCE_CONTINUE;
}

static gboolean
sigterm_cb (gpointer sched)
{
  on_signal (sched, SIGTERM);
  return G_SOURCE_CONTINUE;
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
  /* Whole seconds: an estimate has no milliseconds. */
  eta = done > 0 ? scan_format_seconds (elapsed * (sched->n_jobs - done) /
      done) : g_strdup ("?");
  g_printerr ("\r\033[K%u/%u files, %.0f%%, %.0f fps, ETA %s",
      sched->next_emit, sched->n_jobs, 100.0 * done / MAX (sched->n_jobs, 1),
      elapsed > 0 ? frames / MAX (elapsed, 1e-3) : 0.0, eta);
  g_free (eta);
  return G_SOURCE_CONTINUE;
}

/* The inputs a signal left unscanned. */
static GPtrArray *
not_scanned (ScanScheduler * sched)
{
  GPtrArray *list = g_ptr_array_new ();

  if (sched->not_scanned) {
    for (guint i = 0; i < sched->not_scanned->len; i++)
      g_ptr_array_add (list, sched->not_scanned->pdata[i]);
    return list;
  }
  for (guint i = sched->next_start; sched->signal && i < sched->n_jobs; i++)
    g_ptr_array_add (list, sched->jobs[i]->file.input);
  return list;
}

static void
write_ends (ScanScheduler * sched)
{
  GString *buf = g_string_new (NULL);
  GPtrArray *left = not_scanned (sched);

  if (sched->json) {
    scan_json_end (buf, sched->signal, left);
    scan_outfile_write (sched->json, buf);
  }
  if (sched->html) {
    if (sched->n_images) {
      scan_report_images_begin (buf);
      scan_outfile_write (sched->html, buf);
      scan_outfile_append (sched->html, sched->images);
      scan_report_images_end (buf);
    }
    scan_report_end (buf, sched->signal, left);
    scan_outfile_write (sched->html, buf);
  }
  scan_outfile_discard (sched->images);
  sched->images = NULL;
  if (sched->signal && left->len)
    g_printerr ("sharpness-scan: %s: %u input%s not scanned\n",
        scan_signal_name (sched->signal), left->len, left->len > 1 ? "s" :
        "");
  g_ptr_array_unref (left);
  g_string_free (buf, TRUE);
}

static void
write_begins (ScanScheduler * sched)
{
  const ScanSettings *s = sched->settings;
  GString *buf = g_string_new (NULL);

  if (sched->csv) {
    scan_csv_header (buf, s);
    scan_outfile_write (sched->csv, buf);
  }
  if (sched->json) {
    scan_json_begin (buf, s);
    scan_outfile_write (sched->json, buf);
  }
  if (sched->html) {
    scan_report_begin (buf, s);
    scan_outfile_write (sched->html, buf);
    sched->images = scan_outfile_open_side (sched->html, "images");
  }
  g_string_free (buf, TRUE);
}

void
scan_scheduler_write_all (ScanScheduler * sched)
{
  /* No main loop: a signal removes the temporary files and exits. */
  scan_outfile_exit_on_signals ();
  write_begins (sched);
  emit_ready (sched);
  write_ends (sched);
}

gboolean
scan_open_outputs (ScanScheduler * sched, const gchar * csv,
    const gchar * json, const gchar * report)
{
  sched->summaries_to_stderr = g_strcmp0 (csv, "-") == 0 ||
      g_strcmp0 (json, "-") == 0 || g_strcmp0 (report, "-") == 0;
  if ((csv && !(sched->csv = scan_outfile_open (csv))) ||
      (json && !(sched->json = scan_outfile_open (json))) ||
      (report && !(sched->html = scan_outfile_open (report)))) {
    scan_outfile_discard (sched->csv);
    scan_outfile_discard (sched->json);
    scan_outfile_discard (sched->html);
    sched->csv = sched->json = sched->html = NULL;
    return FALSE;
  }
  return TRUE;
}

gint
scan_scheduler_status (ScanScheduler * sched, gboolean fail_on_blurry,
    gboolean fail_on_damaged)
{
  gboolean write_ok = scan_outfile_commit (sched->csv);

  write_ok = scan_outfile_commit (sched->json) && write_ok;
  write_ok = scan_outfile_commit (sched->html) && write_ok;
  sched->csv = sched->json = sched->html = NULL;
  if (sched->signal)
    return 128 + sched->signal;
  if (sched->any_error || !write_ok)
    return 2;
  if (fail_on_damaged && sched->any_damaged)
    return 3;
  if (fail_on_blurry && sched->any_blurry)
    return 1;
  return 0;
}

void
scan_scheduler_run (ScanScheduler * sched)
{
  const ScanSettings *s = sched->settings;
  guint progress_id = 0, watchdog_id, int_id, term_id;

  write_begins (sched);

  sched->loop = g_main_loop_new (NULL, FALSE);
  sched->t_start = g_get_monotonic_time ();
  sched->progress = !s->quiet && isatty (STDERR_FILENO);
  if (sched->progress)
    progress_id = g_timeout_add (500, progress_cb, sched);
  watchdog_id = g_timeout_add_seconds (5, watchdog_cb, sched);
  int_id = g_unix_signal_add (SIGINT, sigint_cb, sched);
  term_id = g_unix_signal_add (SIGTERM, sigterm_cb, sched);
  if (sched->n_jobs > 0) {
    start_jobs (sched);
    if (sched->running > 0 || (!sched->signal &&
            sched->next_start < sched->n_jobs))
      g_main_loop_run (sched->loop);
  }
  clear_progress (sched);
  if (progress_id)
    g_source_remove (progress_id);
  g_source_remove (watchdog_id);
  g_main_loop_unref (sched->loop);
  sched->loop = NULL;

  /* From here on a signal ends the process at once, as a second one
   * would (without the main loop, nobody would see it). */
  g_source_remove (int_id);
  g_source_remove (term_id);
  scan_outfile_exit_on_signals ();
  write_ends (sched);
}
