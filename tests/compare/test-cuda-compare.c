/* The CUDA compare backend against the CPU backend: PSNR sums and SSIM
 * ffmpeg mode bit-identical, Wang SSIM and MS-SSIM within 1e-6 relative;
 * random and smooth content, odd sizes, padded strides, 8 and 10 bits.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>

#include "cuda-compare-frames.h"

static int failures;

static double
rel (double a, double b)
{
  if (a == b || (isnan (a) && isnan (b)))
    return 0.0;
  return fabs (a - b) / fmax (fabs (b), 1e-300);
}

/* Every metric in one compare_cuda_compute call (one queue, shared
 * buffers and result slots): the same values as the CPU, the refusals of
 * a frame too small for one metric leaving the others. */
static void
check_compute (CompareCuda * cuda, CompareScratch * s, const TestPair * t,
    const char *what)
{
  for (int wang = 0; wang < 2; wang++) {
    const CompareRequest req = { COMPARE_METRIC_PSNR | COMPARE_METRIC_SSIM |
      COMPARE_METRIC_MS_SSIM, wang, wang
    };
    ComparePsnr pc;
    CompareSsim sc;
    CompareMsSsim mc;
    CompareResult g;
    const SharpnessStatus *status = g.status;
    SharpnessStatus want_s, want_m;
    SharpnessStatus st = compare_cuda_compute (cuda, &t->dev, &req, &g);

    compare_psnr (&t->host, &pc);
    want_s = wang ? compare_ssim_wang (s, &t->host, 1, &sc) :
        compare_ssim_ffmpeg (s, &t->host, &sc);
    want_m = compare_ms_ssim (s, &t->host, &mc);
    if (st != SHARPNESS_OK || status[COMPARE_METRIC_ID_PSNR] != SHARPNESS_OK
        || status[COMPARE_METRIC_ID_SSIM] != want_s
        || status[COMPARE_METRIC_ID_MS_SSIM] != want_m
        || memcmp (pc.sse, g.psnr.sse, sizeof pc.sse)) {
      failures++;
      printf ("FAIL %s compute%s: %s, status %d %d %d (want 0 %d %d)\n", what,
          wang ? " wang" : "", compare_cuda_last_error (cuda),
          status[COMPARE_METRIC_ID_PSNR], status[COMPARE_METRIC_ID_SSIM],
          status[COMPARE_METRIC_ID_MS_SSIM], want_s, want_m);
      continue;
    }
    for (int c = 0; want_s == SHARPNESS_OK && c < t->host.n_planes; c++)
      if (wang ? rel (g.ssim.ssim[c], sc.ssim[c]) > 1e-6 :
          memcmp (&g.ssim.ssim[c], &sc.ssim[c], sizeof (double)) != 0) {
        failures++;
        printf ("FAIL %s compute%s plane %d: %.17g vs cpu %.17g\n", what,
            wang ? " wang" : "", c, g.ssim.ssim[c], sc.ssim[c]);
      }
    if (want_m == SHARPNESS_OK && rel (g.ms_ssim.ms_ssim, mc.ms_ssim) > 1e-6) {
      failures++;
      printf ("FAIL %s compute ms-ssim: %.17g vs cpu %.17g\n", what,
          g.ms_ssim.ms_ssim, mc.ms_ssim);
    }
  }
}

/* Each metric alone, and PSNR with SSIM, as the element asks for them. */
static void
check_pair (CompareCuda * cuda, CompareScratch * s, const TestPair * t,
    const char *what)
{
  ComparePsnr pc;
  CompareSsim sc;
  CompareMsSsim mc;
  CompareResult g;
  const ComparePsnr *pg = &g.psnr;
  const CompareSsim *sg = &g.ssim;
  const CompareMsSsim *mg = &g.ms_ssim;
  SharpnessStatus st;
  double worst = 0.0;

  compare_psnr (&t->host, &pc);
  st = test_compute (cuda, &t->dev, COMPARE_METRIC_PSNR, 0, 0, &g);
  if (st != SHARPNESS_OK || memcmp (pc.sse, pg->sse, sizeof pc.sse)
      || memcmp (&pc.psnr_avg, &pg->psnr_avg, sizeof (double))) {
    failures++;
    printf ("FAIL %s psnr: %s, sse %llu vs %llu\n", what,
        compare_cuda_last_error (cuda), (unsigned long long) pg->sse[0],
        (unsigned long long) pc.sse[0]);
  }
  compare_ssim_ffmpeg (s, &t->host, &sc);
  st = test_compute (cuda, &t->dev, COMPARE_METRIC_SSIM, 0, 0, &g);
  if (st != SHARPNESS_OK || memcmp (sc.ssim, sg->ssim, sizeof sc.ssim)
      || memcmp (&sc.all, &sg->all, sizeof (double))) {
    failures++;
    printf ("FAIL %s ssim ffmpeg: %s, %.17g vs cpu %.17g\n", what,
        compare_cuda_last_error (cuda), sg->ssim[0], sc.ssim[0]);
  }
  st = test_compute (cuda, &t->dev, COMPARE_METRIC_PSNR | COMPARE_METRIC_SSIM,
      0, 0, &g);
  if (st != SHARPNESS_OK || memcmp (pc.sse, pg->sse, sizeof pc.sse)
      || memcmp (sc.ssim, sg->ssim, sizeof sc.ssim)) {
    failures++;
    printf ("FAIL %s psnr+ssim\n", what);
  }
  for (int ds = 0; ds < 2; ds++) {
    if (compare_ssim_wang (s, &t->host, ds, &sc) != SHARPNESS_OK)
      continue;
    st = test_compute (cuda, &t->dev, COMPARE_METRIC_SSIM, 1, ds, &g);
    for (int c = 0; c < t->host.n_planes; c++)
      worst = fmax (worst, rel (sg->ssim[c], sc.ssim[c]));
    if (st != SHARPNESS_OK || worst > 1e-6) {
      failures++;
      printf ("FAIL %s wang%s: %s, %.12g vs cpu %.12g\n", what,
          ds ? " downsampled" : "", compare_cuda_last_error (cuda),
          sg->ssim[0], sc.ssim[0]);
    }
  }
  if (compare_ms_ssim (s, &t->host, &mc) == SHARPNESS_OK) {
    st = test_compute (cuda, &t->dev, COMPARE_METRIC_MS_SSIM, 0, 0, &g);
    double r = rel (mg->ms_ssim, mc.ms_ssim);
    for (int l = 0; l < COMPARE_MS_SSIM_SCALES; l++)
      r = fmax (r, fmax (rel (mg->ssim[l], mc.ssim[l]), rel (mg->cs[l],
                  mc.cs[l])));
    worst = fmax (worst, r);
    if (st != SHARPNESS_OK || r > 1e-6) {
      failures++;
      printf ("FAIL %s ms-ssim: %s, %.12g vs cpu %.12g\n", what,
          compare_cuda_last_error (cuda), mg->ms_ssim, mc.ms_ssim);
    }
  }
  check_compute (cuda, s, t, what);
  printf ("%-34s ssim %.6f  worst float-mode rel diff %.2e\n", what,
      sc.all, worst);
}

int
main (void)
{
  static const struct
  {
    int w, h, planes, depth, pad, kind;
  } cases[] = {
    {1920, 1080, 3, 8, 0, 1}, {1920, 1080, 3, 8, 64, 0},
    {1283, 719, 3, 8, 5, 1}, {457, 299, 3, 8, 3, 1}, {463, 263, 3, 8, 0, 0},
    {1283, 719, 3, 10, 6, 1}, {640, 360, 3, 10, 0, 0}, {177, 181, 1, 8, 1, 1},
    {181, 177, 1, 16, 2, 0}, {9, 9, 3, 8, 0, 0},
    /* SSIM ffmpeg-mode bands past 48 KiB of shared memory (opt-in), and
     * one row per band (9000 16-bit samples) */
    {3840, 2160, 3, 8, 0, 1}, {3840, 64, 1, 16, 0, 0}, {9000, 40, 1, 16, 0, 1},
  };
  CompareCuda *cuda;
  CompareScratch *s;
  cudaStream_t stream;

  if (!test_have_device ()) {
    printf ("skipped: no CUDA device\n");
    return 77;
  }
  if (cudaStreamCreate (&stream) != cudaSuccess
      || compare_cuda_new (stream, &cuda) != SHARPNESS_OK) {
    printf ("FAIL: compare_cuda_new: %s\n", compare_cuda_last_error (NULL));
    return 1;
  }
  s = compare_scratch_new ();
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    TestPair t;
    char what[96];
    snprintf (what, sizeof what, "%dx%d %s %d-bit pad %d %s", cases[i].w,
        cases[i].h, cases[i].planes == 3 ? "4:2:0" : "gray", cases[i].depth,
        cases[i].pad, cases[i].kind ? "smooth" : "random");
    if (test_pair_new (&t, cases[i].w, cases[i].h, cases[i].planes,
            cases[i].depth, cases[i].pad, cases[i].kind)) {
      printf ("FAIL: cannot allocate %s\n", what);
      return 1;
    }
    check_pair (cuda, s, &t, what);
    test_pair_free (&t);
  }
  compare_scratch_free (s);
  compare_cuda_free (cuda);
  cudaStreamDestroy (stream);
  printf (failures ? "%d failures\n" : "cuda-compare: GPU == CPU\n", failures);
  return failures ? 1 : 0;
}
