/* sharpness-scan's scheduler: --jobs pipelines at a time, the watchdog,
 * the progress line, the outputs written in input order, and SIGINT and
 * SIGTERM.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SCAN_SCHEDULER_H
#define SCAN_SCHEDULER_H

#include "scan-job.h"
#include "scan-setup.h"

G_BEGIN_DECLS

typedef struct
{
  const ScanSettings *settings;
  ScanJob **jobs;
  guint n_jobs;
  /* The CUDA context of the GPU check, given to every pipeline: one
   * context for all files instead of a new one per file. */
  GstContext *cuda_context;
  /* Outputs (NULL: not asked for), committed by the caller; summary lines
   * go to standard error when an output is standard output. */
  ScanOutFile *csv, *json, *html;
  gboolean summaries_to_stderr;

  /* Results. */
  gboolean any_error, any_blurry, any_damaged;
  gint signal;                  /* that interrupted the scan, or 0 */
  /* --merge: the inputs the parts' signals left unscanned (else the
   * scheduler's own). */
  GPtrArray *not_scanned;

  /* Private. */
  ScanOutFile *images;          /* the report's images table */
  guint n_images;
  guint next_start, next_emit, running;
  gboolean starting;            /* inside start_jobs () */
  gboolean progress;
  gint64 t_start;
  GMainLoop *loop;
} ScanScheduler;

/* Scans every job, writing each file's outputs as soon as the files
 * before it are written.  On SIGINT or SIGTERM, stops the running files,
 * writes what they had and returns with @signal set; a second signal
 * removes the outputs' temporary files and exits at once. */
void scan_scheduler_run (ScanScheduler * sched);

/* --merge: writes the outputs of @sched's jobs, all finished. */
void scan_scheduler_write_all (ScanScheduler * sched);

/* Opens the outputs asked for (NULL: not); FALSE, with a message, when
 * one cannot be written. */
gboolean scan_open_outputs (ScanScheduler * sched, const gchar * csv,
    const gchar * json, const gchar * report);

/* Puts the outputs in place and returns the exit status: a signal's, 2
 * for an error or an output not written, 3 and 1 as the --fail-on options
 * ask, else 0. */
gint scan_scheduler_status (ScanScheduler * sched, gboolean fail_on_blurry,
    gboolean fail_on_damaged);

G_END_DECLS
#endif /* SCAN_SCHEDULER_H */
