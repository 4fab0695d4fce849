/* Benchmark of VMAF's CUDA kernels (cuda/compare/compare-vmaf-*.cu) beside
 * the CPU extractors on the same frames (a program, not a test; GPU
 * machine).
 *
 *   bench-vmaf-cuda [W H DEPTH PAIRS CPU_PAIRS]
 *     A sequence of PAIRS pairs of W x H luma in CUDA memory (a ring of 8
 *     pre-made moving frames and their distortions, uploaded before the
 *     clock starts) scored with vmaf_v0.6.1 through the CUDA extractor,
 *     after 20 pairs of warm-up: the wall time of each pair (motion, VIF,
 *     ADM, the one synchronisation, the host's float steps and the SVM),
 *     median and p99.  Then CPU_PAIRS pairs of the same frames through the
 *     CPU extractors (one thread, as the CPU backend), median and p99, the
 *     ratio, and whether every feature and score of those pairs is equal.
 *     Default: 1920 1080 8 500 10, then 3840 2160 8 200 4.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib.h>
#include <cuda_runtime.h>

#include "compare-vmaf-cuda.h"
#include "vmaf-sample.h"
#include "test-stats.h"

#define RING 8
#define WARMUP 20

typedef struct
{
  int w, h, depth;
  size_t stride;
  uint8_t *host[RING][2];
  void *dev[RING][2];
} Ring;

/* Frame @n: textured content panning; its distortion: coarser steps and
 * a small offset (a plausible encode's loss of detail). */
static int
ring_new (Ring * r, int w, int h, int depth)
{
  const double max = (1 << depth) - 1;
  const int bps = depth > 8 ? 2 : 1;

  memset (r, 0, sizeof (*r));
  r->w = w;
  r->h = h;
  r->depth = depth;
  r->stride = ((size_t) w * bps + 255) / 256 * 256;
  for (int n = 0; n < RING; n++) {
    for (int i = 0; i < 2; i++) {
      r->host[n][i] = g_malloc0 (r->stride * h);
      if (cudaMalloc (&r->dev[n][i], r->stride * h) != cudaSuccess)
        return -1;
    }
    for (int y = 0; y < h; y++)
      for (int x = 0; x < w; x++) {
        const double X = x + 4 * n, Y = y + 2 * n;
        const double v = 0.5 + 0.22 * sin (X * 0.043) * cos (Y * 0.029) +
            0.12 * sin ((X + 2 * Y) * 0.31) + 0.08 * ((int) (X / 37 + Y / 23)
            % 2);
        const int a = (int) lrint (v * max);

        vmaf_sample_put (r->host[n][0] + (size_t) y * r->stride, x, depth, a);
        vmaf_sample_put (r->host[n][1] + (size_t) y * r->stride, x, depth,
            (a >> (depth - 6) << (depth - 6)) + (x + y) % 3);
      }
    for (int i = 0; i < 2; i++)
      if (cudaMemcpy (r->dev[n][i], r->host[n][i], r->stride * h,
              cudaMemcpyHostToDevice) != cudaSuccess)
        return -1;
  }
  return 0;
}

static void
ring_free (Ring * r)
{
  for (int n = 0; n < RING; n++)
    for (int i = 0; i < 2; i++) {
      g_free (r->host[n][i]);
      cudaFree (r->dev[n][i]);
    }
}

/* @pairs pairs through @ex (NULL: the CPU), the wall time of each after
 * @warmup into @us; the last frame's record in @last (the one completed
 * by the last push).  FALSE on an error. */
static gboolean
run (const CompareVmafModel * model, const CompareVmafExtractor * ex,
    const Ring * r, int warmup, int pairs, double *us,
    CompareVmafFrame * records)
{
  CompareVmafStream *s = compare_vmaf_stream_new (&model, 1);
  gboolean ok = s != NULL;

  for (int i = 0; ok && i < warmup + pairs; i++) {
    const int n = i % RING, on_dev = ex != NULL;
    const CompareVmafPlane ref = { on_dev ? r->dev[n][0] : r->host[n][0],
      r->stride, r->w, r->h, r->depth
    };
    const CompareVmafPlane dist = { on_dev ? r->dev[n][1] : r->host[n][1],
      r->stride, r->w, r->h, r->depth
    };
    CompareVmafFrame out;
    int done;
    const gint64 t0 = g_get_monotonic_time ();

    ok = compare_vmaf_stream_push_with (s, ex, &ref, &dist, &out, &done) ==
        SHARPNESS_OK;
    if (i >= warmup) {
      us[i - warmup] = (double) (g_get_monotonic_time () - t0);
      if (records && done)
        records[i - warmup] = out;
    }
  }
  compare_vmaf_stream_free (s);
  return ok;
}

static void
stats (double *us, int n, double *median, double *p99)
{
  qsort (us, n, sizeof (double), test_cmp_double);
  *median = us[n / 2];
  *p99 = us[(int) ceil (0.99 * n) - 1];
}

static int
bench (CompareVmafCuda * vc, const CompareVmafModel * model, int w, int h,
    int depth, int pairs, int cpu_pairs)
{
  CompareVmafExtractor ex;
  Ring r;
  double *gpu_us = g_new (double, pairs), *cpu_us = g_new (double, pairs);
  CompareVmafFrame *gpu_rec = g_new0 (CompareVmafFrame, pairs);
  CompareVmafFrame *cpu_rec = g_new0 (CompareVmafFrame, pairs);
  double gm, gp, cm, cp;
  int equal = 0, compared = 0, rc = 1;

  if (cpu_pairs > pairs)
    cpu_pairs = pairs;
  compare_vmaf_cuda_extractor (vc, &ex);
  if (ring_new (&r, w, h, depth)) {
    fprintf (stderr, "cannot make the frames\n");
    goto out;
  }
  /* The GPU's first: its records of the first cpu_pairs pairs are
   * compared with the CPU's (the same frames: the warm-ups are equal). */
  if (!run (model, &ex, &r, WARMUP, pairs, gpu_us, gpu_rec) ||
      !run (model, NULL, &r, WARMUP % RING, cpu_pairs, cpu_us, cpu_rec)) {
    fprintf (stderr, "a push failed: %s\n", compare_vmaf_cuda_last_error (vc));
    goto out;
  }
  for (int i = 1; i < cpu_pairs; i++) {
    compared++;
    if (!memcmp (gpu_rec[i].value, cpu_rec[i].value,
            sizeof (gpu_rec[i].value)) &&
        !memcmp (gpu_rec[i].score, cpu_rec[i].score,
            sizeof (gpu_rec[i].score)))
      equal++;
  }
  stats (gpu_us, pairs, &gm, &gp);
  stats (cpu_us, cpu_pairs, &cm, &cp);
  printf ("%dx%d %d-bit vmaf_v0.6.1: CUDA %d pairs median %.0f us p99 %.0f "
      "us; CPU (one thread) %d pairs median %.0f us p99 %.0f us; CPU / CUDA "
      "%.1f; %d of %d pairs equal to the bit\n", w, h, depth, pairs, gm, gp,
      cpu_pairs, cm, cp, cm / gm, equal, compared);
  rc = equal == compared ? 0 : 1;
out:
  ring_free (&r);
  g_free (gpu_us);
  g_free (cpu_us);
  g_free (gpu_rec);
  g_free (cpu_rec);
  return rc;
}

int
main (int argc, char **argv)
{
  CompareVmafModel *model;
  CompareVmafCuda *vc;
  char err[256];
  int n = 0, rc = 0;

  if (cudaGetDeviceCount (&n) != cudaSuccess || n == 0) {
    printf ("no CUDA device\n");
    return 77;
  }
  model = compare_vmaf_model_load_builtin ("vmaf_v0.6.1", 0, err,
      sizeof (err));
  if (!model || compare_vmaf_cuda_new (NULL, &vc) != SHARPNESS_OK) {
    fprintf (stderr, "cannot start: %s %s\n", model ? "" : err,
        compare_vmaf_cuda_last_error (NULL));
    return 1;
  }
  if (argc >= 6) {
    rc = bench (vc, model, atoi (argv[1]), atoi (argv[2]), atoi (argv[3]),
        atoi (argv[4]), atoi (argv[5]));
  } else {
    rc |= bench (vc, model, 1920, 1080, 8, 500, 10);
    rc |= bench (vc, model, 3840, 2160, 8, 200, 4);
  }
  compare_vmaf_cuda_free (vc);
  compare_vmaf_model_free (model);
  return rc;
}
