/* bench-cuda-timing.c: the timed loops' clock, samples and report
 * rows, shared by every table of bench-cuda-kernels.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "bench-cuda-kernels.h"

int frames = 1000, warmup = 100;
cudaStream_t stream;
cudaEvent_t ev0, ev1;
double *wall_us, *event_us;

double
now_us (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

double
percentile (double *v, int n, double p)
{
  qsort (v, n, sizeof *v, test_cmp_double);
  int i = (int) (p * (n - 1) + 0.5);
  return v[i];
}

void
report (const char *what, const char *size, const char *layout,
    const char *metric, double bytes)
{
  const double wall50 = percentile (wall_us, frames, 0.5);
  const double wall99 = percentile (wall_us, frames, 0.99);
  const double ev50 = percentile (event_us, frames, 0.5);
  printf ("%-10s %-10s %-10s %-16s %9.1f %9.1f %9.1f %10.1f\n", size, layout,
      metric, what, wall50, wall99, ev50, bytes / 1e6);
  fflush (stdout);
}

/* Ends call @i of a timed loop: the host's call ran from @t0 to @t1 after
 * ev0 was recorded on the stream; records ev1, waits for it and keeps
 * both times once the warm-up is over. */
void
sample_end (int i, double t0, double t1)
{
  CHECK_CUDA (cudaEventRecord (ev1, stream));
  CHECK_CUDA (cudaEventSynchronize (ev1));
  if (i >= warmup) {
    float ms;
    CHECK_CUDA (cudaEventElapsedTime (&ms, ev0, ev1));
    wall_us[i - warmup] = t1 - t0;
    event_us[i - warmup] = ms * 1e3;
  }
}
