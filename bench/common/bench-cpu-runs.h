/* The CPU cost of a library call on a held stream: one warm-up run, then
 * a number of timed runs on the process's CPU clock (what the work costs
 * a core, whatever else the machine runs), their median and the slowest.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Header only, GLib, like tests/common/test-stats.h whose comparator it
 * sorts with.
 */
#ifndef BENCH_CPU_RUNS_H
#define BENCH_CPU_RUNS_H

#include <stdlib.h>
#include <time.h>

#include <glib.h>

#include "test-stats.h"

/* The process's CPU time, in seconds. */
static inline gdouble
bench_cpu_seconds (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* One run of the work over @data: the CPU seconds of the work alone
 * (bench_cpu_seconds around it, its set-up and tear-down left out). */
typedef gdouble (*BenchCpuRun) (gpointer data);

/* @run once to warm up, then @runs (>= 1) times: the median and the
 * slowest of the timed runs, in CPU seconds. */
static inline void
bench_cpu_runs (BenchCpuRun run, gpointer data, gint runs, gdouble * median,
    gdouble * slowest)
{
  gdouble *cpu = g_new (gdouble, runs);

  run (data);
  for (gint i = 0; i < runs; i++)
    cpu[i] = run (data);
  qsort (cpu, runs, sizeof (gdouble), test_cmp_double);
  *median = cpu[runs / 2];
  *slowest = cpu[runs - 1];
  g_free (cpu);
}

#endif /* BENCH_CPU_RUNS_H */
