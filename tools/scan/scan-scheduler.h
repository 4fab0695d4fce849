/* sharpness-scan's scheduler: --jobs pipelines at a time, the watchdog,
 * the progress line, and the outputs written in input order.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SCAN_SCHEDULER_H
#define SCAN_SCHEDULER_H

#include <stdio.h>

#include "scan-job.h"

G_BEGIN_DECLS

typedef struct
{
  const ScanSettings *settings;
  ScanJob **jobs;
  guint n_jobs;
  /* The CUDA context of the GPU check, given to every pipeline: one
   * context for all files instead of a new one per file. */
  GstContext *cuda_context;
  /* Outputs (NULL: not asked for); summary lines go to standard error
   * when an output is standard output. */
  FILE *csv, *json, *html;
  gboolean summaries_to_stderr;

  /* Results. */
  gboolean any_error, any_blurry;

  /* Private. */
  guint next_start, next_emit, running;
  gboolean starting;            /* inside start_jobs () */
  gboolean progress;
  gint64 t_start;
  GMainLoop *loop;
} ScanScheduler;

/* Scans every job, writing each file's outputs as soon as the files
 * before it are written. */
void scan_scheduler_run (ScanScheduler * sched);

G_END_DECLS
#endif /* SCAN_SCHEDULER_H */
