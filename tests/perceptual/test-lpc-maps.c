/* LPC-SI and CWTVNRS of the CPU backend on a raw gray image, with their
 * intermediate maps, for the Python tests to compare against the oracle.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Usage: test-lpc-maps FILE WIDTH HEIGHT [--f64] [--maps DIR] [--repeat N]
 *   FILE holds WIDTH * HEIGHT gray bytes, or doubles with --f64.
 *   Prints "lpc-si <score>" and "cwtvnrs <score>": for bytes, what
 *   sharpness_cpu_score gives a GRAY8 plane; for doubles (gray levels the
 *   8-bit element never sees, e.g. an unquantised blur), what the internal
 *   API (cpu/lpc-map.h, cpu/cwtvnrs-private.h) gives.
 *   --maps computes the maps through the internal API (for bytes, checking
 *   that its scores equal the backend's to the last bit) and writes lpc.f64, tv.f64, reblurred.f64, lpc_reblurred.f64 and
 *   tv_reblurred.f64 (raw doubles, row-major) into the existing DIR.
 *   --repeat times N more frames of each metric (bytes only) and prints the
 *   fastest and the mean wall-clock time per frame, and the fastest process
 *   CPU time, on stderr.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cwtvnrs-private.h"
#include "lpc-map.h"
#include "sharpness-cpu.h"

typedef struct
{
  double lpc_si, cwtvnrs;
} Scores;

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

/* Both scores through the internal API (CWTVNRS's state, whose LPC map of
 * the frame LPC-SI pools), writing the maps into @dir unless NULL. */
static int
internal_scores (const double *image, int w, int h, const char *dir,
    Scores * out)
{
  const size_t n = (size_t) w * h;
  SharpnessCpuCwtvnrs *cw;
  double *pool = malloc (n * sizeof *pool);
  int ok = 0;

  if (!pool || sharpness_cpu_cwtvnrs_new (w, h, &cw) != SHARPNESS_OK) {
    fprintf (stderr, "cannot create the CWTVNRS state for %dx%d\n", w, h);
    free (pool);
    return 0;
  }
  memcpy (cw->image[0], image, n * sizeof *image);
  out->cwtvnrs = sharpness_cpu_cwtvnrs_run (cw);
  out->lpc_si = sharpness_cpu_lpc_si_pool (cw->lpc_map[0], w, h, pool);

  ok = !dir || (write_doubles (dir, "lpc", cw->lpc_map[0], n) &&
      write_doubles (dir, "tv", cw->tv_map[0], n) &&
      write_doubles (dir, "reblurred", cw->image[1], n) &&
      write_doubles (dir, "lpc_reblurred", cw->lpc_map[1], n) &&
      write_doubles (dir, "tv_reblurred", cw->tv_map[1], n));
  sharpness_cpu_cwtvnrs_free (cw);
  free (pool);
  return ok;
}

static int
backend_score (SharpnessCpu * cpu, SharpnessMetric metric,
    const SharpnessPlane * p, double *out)
{
  SharpnessStatus st = sharpness_cpu_score (cpu, metric, p, out);

  if (st != SHARPNESS_OK) {
    fprintf (stderr, "%s: %s\n", sharpness_metric_info[metric].nick,
        sharpness_status_to_string (st));
    return 0;
  }
  return 1;
}

/* Scores of a GRAY8 plane through sharpness_cpu_score, then @repeat timed
 * frames each, which must score the same. */
static int
backend_scores (const uint8_t * gray, int w, int h, int repeat, Scores * out)
{
  const SharpnessMetric metrics[] = {
    SHARPNESS_METRIC_LPC_SI, SHARPNESS_METRIC_CWTVNRS
  };
  double *dst[] = { &out->lpc_si, &out->cwtvnrs };
  const SharpnessPlane plane = {
    .samples = SHARPNESS_SAMPLES_Y8, .data = gray, .stride = (size_t) w,
    .width = w, .height = h, .pixel_stride = 1,
  };
  SharpnessCpu *cpu = sharpness_cpu_new ();
  int ok = cpu != NULL;

  for (size_t m = 0; ok && m < sizeof metrics / sizeof metrics[0]; m++) {
    const char *nick = sharpness_metric_info[metrics[m]].nick;
    double best = 1e300, best_cpu = 1e300, total = 0.0;

    ok = backend_score (cpu, metrics[m], &plane, dst[m]);
    for (int r = 0; ok && r < repeat; r++) {
      const double t0 = seconds (CLOCK_MONOTONIC);
      const double c0 = seconds (CLOCK_PROCESS_CPUTIME_ID);
      double again;

      ok = backend_score (cpu, metrics[m], &plane, &again);
      const double t = seconds (CLOCK_MONOTONIC) - t0;
      const double c = seconds (CLOCK_PROCESS_CPUTIME_ID) - c0;
      best = t < best ? t : best;
      best_cpu = c < best_cpu ? c : best_cpu;
      total += t;
      if (ok && again != *dst[m]) {
        fprintf (stderr, "%s: frame %d scored %.17g, the first %.17g\n",
            nick, r + 1, again, *dst[m]);
        ok = 0;
      }
    }
    if (ok && repeat)
      fprintf (stderr, "%s %dx%d: %.1f ms per frame (fastest of %d), "
          "%.1f ms mean, %.1f ms CPU time (fastest)\n", nick, w, h,
          best * 1e3, repeat, total / repeat * 1e3, best_cpu * 1e3);
  }
  sharpness_cpu_free (cpu);
  return ok;
}

int
main (int argc, char **argv)
{
  const char *maps_dir = NULL;
  int repeat = 0, is_f64 = 0, w, h, ret = 1;
  size_t n, sample_size;
  void *raw = NULL;
  double *image = NULL;
  Scores got, internal;
  FILE *f = NULL;

  if (argc < 4) {
    fprintf (stderr, "usage: %s FILE WIDTH HEIGHT [--f64] [--maps DIR] "
        "[--repeat N]\n", argv[0]);
    return 2;
  }
  w = atoi (argv[2]);
  h = atoi (argv[3]);
  for (int i = 4; i < argc; i++) {
    if (!strcmp (argv[i], "--f64"))
      is_f64 = 1;
    else if (!strcmp (argv[i], "--maps") && i + 1 < argc)
      maps_dir = argv[++i];
    else if (!strcmp (argv[i], "--repeat") && i + 1 < argc)
      repeat = atoi (argv[++i]);
    else {
      fprintf (stderr, "unknown argument %s\n", argv[i]);
      return 2;
    }
  }
  if (w < 1 || h < 1 || repeat < 0 || (repeat && is_f64)) {
    fprintf (stderr, "bad size, repeat count or option mix\n");
    return 2;
  }

  n = (size_t) w * h;
  sample_size = is_f64 ? sizeof (double) : 1;
  raw = malloc (n * sample_size);
  image = malloc (n * sizeof *image);
  f = fopen (argv[1], "rb");
  if (!raw || !image || !f || fread (raw, sample_size, n, f) != n) {
    fprintf (stderr, "%s: cannot read %dx%d samples\n", argv[1], w, h);
    goto out;
  }
  for (size_t i = 0; i < n; i++)
    image[i] = is_f64 ? ((const double *) raw)[i] : ((const uint8_t *) raw)[i];

  if (is_f64) {
    if (!internal_scores (image, w, h, maps_dir, &got))
      goto out;
  } else {
    if (!backend_scores (raw, w, h, repeat, &got))
      goto out;
    if (maps_dir && !internal_scores (image, w, h, maps_dir, &internal))
      goto out;
    if (maps_dir && (got.lpc_si != internal.lpc_si ||
            got.cwtvnrs != internal.cwtvnrs)) {
      fprintf (stderr, "backend scores %.17g %.17g, internal API %.17g "
          "%.17g\n", got.lpc_si, got.cwtvnrs, internal.lpc_si,
          internal.cwtvnrs);
      goto out;
    }
  }
  printf ("lpc-si %.17g\ncwtvnrs %.17g\n", got.lpc_si, got.cwtvnrs);
  ret = 0;

out:
  if (f)
    fclose (f);
  free (raw);
  free (image);
  return ret;
}
