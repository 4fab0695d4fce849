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

G_END_DECLS
#endif /* SCAN_SCHEDULER_H */
