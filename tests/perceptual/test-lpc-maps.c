/* LPC-SI and CWTVNRS of the CPU backend on a raw gray image, with their
 * intermediate maps, for the Python tests to compare against the oracle.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Usage: test-lpc-maps GRAY-FILE WIDTH HEIGHT [--maps DIR] [--repeat N]
 *   Prints "lpc-si <score>" and "cwtvnrs <score>" (sharpness_cpu_score on
 *   a GRAY8 plane).  --maps writes lpc.f64, tv.f64, reblurred.f64,
 *   lpc_reblurred.f64 and tv_reblurred.f64 (raw doubles, row-major) into
 *   DIR.  --repeat times N more frames of each metric and prints the
 *   fastest and the mean wall-clock time per frame, and the fastest
 *   process CPU time, on stderr.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cwtvnrs.h"
#include "lpc-map.h"
#include "sharpness-cpu.h"

static double
seconds (clockid_t clock)
{
  struct timespec t;
  clock_gettime (clock, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static int
write_doubles (const char *dir, const char *name, const double *v, size_t n)
{
  char path[4096];
  FILE *f;
  int ok;

  snprintf (path, sizeof path, "%s/%s.f64", dir, name);
  f = fopen (path, "wb");
  if (!f) {
    perror (path);
    return 0;
  }
  ok = fwrite (v, sizeof *v, n, f) == n;
  ok = (fclose (f) == 0) && ok;
  if (!ok)
    fprintf (stderr, "%s: write failed\n", path);
  return ok;
}

/* The maps through the internal API: the LPC and TV maps of the frame and
 * of its re-blurred copy, as CWTVNRS computes them. */
static int
dump_maps (const uint8_t * gray, int w, int h, const char *dir)
{
  const size_t n = (size_t) w * h;
  SharpnessCpuCwtvnrs *cw;
  int ok;

  if (sharpness_cpu_cwtvnrs_new (w, h, &cw) != SHARPNESS_OK) {
    fprintf (stderr, "cannot create the CWTVNRS state for %dx%d\n", w, h);
    return 0;
  }
  for (size_t i = 0; i < n; i++)
    cw->image[0][i] = gray[i];
  sharpness_cpu_cwtvnrs_run (cw);

  ok = write_doubles (dir, "lpc", cw->lpc_map[0], n) &&
      write_doubles (dir, "tv", cw->tv_map[0], n) &&
      write_doubles (dir, "reblurred", cw->image[1], n) &&
      write_doubles (dir, "lpc_reblurred", cw->lpc_map[1], n) &&
      write_doubles (dir, "tv_reblurred", cw->tv_map[1], n);
  sharpness_cpu_cwtvnrs_free (cw);
  return ok;
}

static int
score (SharpnessCpu * cpu, SharpnessMetric metric, const SharpnessPlane * p,
    double *out)
{
  SharpnessStatus st = sharpness_cpu_score (cpu, metric, p, out);

  if (st != SHARPNESS_OK) {
    fprintf (stderr, "%s: %s\n", sharpness_metric_info[metric].nick,
        sharpness_status_to_string (st));
    return 0;
  }
  return 1;
}

int
main (int argc, char **argv)
{
  static const SharpnessMetric metrics[] = {
    SHARPNESS_METRIC_LPC_SI, SHARPNESS_METRIC_CWTVNRS
  };
  const char *maps_dir = NULL;
  int repeat = 0, w, h, ret = 1;
  uint8_t *gray = NULL;
  SharpnessCpu *cpu = NULL;
  FILE *f;

  if (argc < 4) {
    fprintf (stderr, "usage: %s GRAY-FILE WIDTH HEIGHT [--maps DIR] "
        "[--repeat N]\n", argv[0]);
    return 2;
  }
  w = atoi (argv[2]);
  h = atoi (argv[3]);
  for (int i = 4; i + 1 < argc; i += 2) {
    if (!strcmp (argv[i], "--maps"))
      maps_dir = argv[i + 1];
    else if (!strcmp (argv[i], "--repeat"))
      repeat = atoi (argv[i + 1]);
  }
  if (w < 1 || h < 1 || repeat < 0) {
    fprintf (stderr, "bad size or repeat count\n");
    return 2;
  }

  gray = malloc ((size_t) w * h);
  f = fopen (argv[1], "rb");
  if (!gray || !f || fread (gray, 1, (size_t) w * h, f) != (size_t) w * h) {
    fprintf (stderr, "%s: cannot read %dx%d gray bytes\n", argv[1], w, h);
    goto out;
  }

  SharpnessPlane plane = {
    .samples = SHARPNESS_SAMPLES_Y8, .data = gray, .stride = (size_t) w,
    .width = w, .height = h, .pixel_stride = 1,
  };
  cpu = sharpness_cpu_new ();
  if (!cpu)
    goto out;

  for (size_t m = 0; m < sizeof metrics / sizeof metrics[0]; m++) {
    double s, best = 1e300, best_cpu = 1e300, total = 0.0;

    if (!score (cpu, metrics[m], &plane, &s))
      goto out;
    printf ("%s %.17g\n", sharpness_metric_info[metrics[m]].nick, s);
    for (int r = 0; r < repeat; r++) {
      double again, t0 = seconds (CLOCK_MONOTONIC);
      double c0 = seconds (CLOCK_PROCESS_CPUTIME_ID);
      if (!score (cpu, metrics[m], &plane, &again))
        goto out;
      const double t = seconds (CLOCK_MONOTONIC) - t0;
      const double c = seconds (CLOCK_PROCESS_CPUTIME_ID) - c0;
      best = t < best ? t : best;
      best_cpu = c < best_cpu ? c : best_cpu;
      total += t;
      if (again != s) {
        fprintf (stderr, "%s: frame %d scored %.17g, the first %.17g\n",
            sharpness_metric_info[metrics[m]].nick, r + 1, again, s);
        goto out;
      }
    }
    if (repeat)
      fprintf (stderr, "%s %dx%d: %.1f ms per frame (fastest of %d), "
          "%.1f ms mean, %.1f ms CPU time (fastest)\n",
          sharpness_metric_info[metrics[m]].nick, w, h, best * 1e3, repeat,
          total / repeat * 1e3, best_cpu * 1e3);
  }

  if (maps_dir && !dump_maps (gray, w, h, maps_dir))
    goto out;
  ret = 0;

out:
  if (f)
    fclose (f);
  sharpness_cpu_free (cpu);
  free (gray);
  return ret;
}
