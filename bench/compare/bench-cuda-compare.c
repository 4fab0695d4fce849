/* Benchmark of the CUDA compare backend: 1080p 4:2:0 8-bit, both frames in
 * device memory; median per pair (CUDA events around each call, which
 * includes the read-back and the synchronisation).  NPP's nppiPSNR /
 * nppiSSIM / nppiMSSSIM are timed beside when the toolkit has NPP (not
 * built here yet: see docs/reference/cudacompare.md).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <time.h>

#include "cuda-compare-frames.h"
#include "test-stats.h"

#define ITER 300

typedef SharpnessStatus (*RunFn) (CompareCuda *, const ComparePair *,
    CompareResult *);

static SharpnessStatus
run_psnr (CompareCuda * c, const ComparePair * p, CompareResult * o)
{
  return test_compute (c, p, COMPARE_METRIC_PSNR, 0, 0, o);
}

static SharpnessStatus
run_ssim (CompareCuda * c, const ComparePair * p, CompareResult * o)
{
  return test_compute (c, p, COMPARE_METRIC_SSIM, 0, 0, o);
}

static SharpnessStatus
run_both (CompareCuda * c, const ComparePair * p, CompareResult * o)
{
  return test_compute (c, p, COMPARE_METRIC_PSNR | COMPARE_METRIC_SSIM, 0, 0,
      o);
}

static SharpnessStatus
run_wang (CompareCuda * c, const ComparePair * p, CompareResult * o)
{
  return test_compute (c, p, COMPARE_METRIC_SSIM, 1, 0, o);
}

static SharpnessStatus
run_wang_luma (CompareCuda * c, const ComparePair * p, CompareResult * o)
{
  ComparePair y = *p;
  y.n_planes = 1;
  return test_compute (c, &y, COMPARE_METRIC_SSIM, 1, 0, o);
}

static SharpnessStatus
run_wang_ds (CompareCuda * c, const ComparePair * p, CompareResult * o)
{
  return test_compute (c, p, COMPARE_METRIC_SSIM, 1, 1, o);
}

static SharpnessStatus
run_ms (CompareCuda * c, const ComparePair * p, CompareResult * o)
{
  return test_compute (c, p, COMPARE_METRIC_MS_SSIM, 0, 0, o);
}

/* What the element does for metrics=psnr+ssim+ms-ssim: one call. */
static SharpnessStatus
run_all (CompareCuda * c, const ComparePair * p, CompareResult * o)
{
  return test_compute (c, p, COMPARE_METRIC_PSNR | COMPARE_METRIC_SSIM |
      COMPARE_METRIC_MS_SSIM, 0, 0, o);
}

static double
now_us (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

int
main (void)
{
  static const struct
  {
    const char *name;
    RunFn fn;
    double target;
  } rows[] = {
    {"PSNR (3 planes)", run_psnr, 25},
    {"SSIM ffmpeg (3 planes)", run_ssim, 40},
    {"PSNR + SSIM ffmpeg, one call", run_both, 65},
    {"SSIM wang (luma)", run_wang_luma, 60},
    {"SSIM wang (3 planes)", run_wang, 0},
    {"SSIM wang, ssim.m downsampling", run_wang_ds, 0},
    {"MS-SSIM (luma)", run_ms, 150},
    {"PSNR + SSIM ffmpeg + MS-SSIM, one call", run_all, 0},
  };
  CompareResult out;
  CompareCuda *cuda;
  CompareScratch *scratch;
  cudaStream_t stream;
  cudaEvent_t e0, e1;
  TestPair t;
  static double times[ITER];
  struct cudaDeviceProp prop;

  if (!test_have_device ()) {
    printf ("skipped: no CUDA device\n");
    return 77;
  }
  cudaGetDeviceProperties (&prop, 0);
  if (cudaStreamCreate (&stream) != cudaSuccess
      || compare_cuda_new (stream, &cuda) != SHARPNESS_OK
      || test_pair_new (&t, 1920, 1080, 3, 8, 0, 1)) {
    printf ("setup failed: %s\n", compare_cuda_last_error (NULL));
    return 1;
  }
  cudaEventCreate (&e0);
  cudaEventCreate (&e1);
  scratch = compare_scratch_new ();

  printf ("compare benchmark: %s, 1920x1080 4:2:0 8-bit, frames in device "
      "memory, median of %d calls\n\n", prop.name, ITER);
  printf ("| metric | GPU us/pair p50 | p99 | target us | CPU backend "
      "ms/pair |\n");
  printf ("|---|---:|---:|---:|---:|\n");
  for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
    double cpu0, cpu;
    for (int i = 0; i < 10; i++)
      rows[r].fn (cuda, &t.dev, &out);  /* warm-up, buffers */
    for (int i = 0; i < ITER; i++) {
      float ms;
      cudaEventRecord (e0, stream);
      if (rows[r].fn (cuda, &t.dev, &out) != SHARPNESS_OK) {
        printf ("%s failed: %s\n", rows[r].name, compare_cuda_last_error (cuda));
        return 1;
      }
      cudaEventRecord (e1, stream);
      cudaEventSynchronize (e1);
      cudaEventElapsedTime (&ms, e0, e1);
      times[i] = ms * 1000.0;
    }
    qsort (times, ITER, sizeof (double), test_cmp_double);
    /* the CPU backend on the same frames, once */
    cpu0 = now_us ();
    switch (r) {
      case 0:
        compare_psnr (&t.host, &out.psnr);
        break;
      case 1:
      case 2:
        compare_ssim_ffmpeg (scratch, &t.host, &out.ssim);
        if (r == 2)
          compare_psnr (&t.host, &out.psnr);
        break;
      case 3:{
        ComparePair y = t.host;
        y.n_planes = 1;
        compare_ssim_wang (scratch, &y, 0, &out.ssim);
        break;
      }
      case 4:
        compare_ssim_wang (scratch, &t.host, 0, &out.ssim);
        break;
      case 5:
        compare_ssim_wang (scratch, &t.host, 1, &out.ssim);
        break;
      case 6:
        compare_ms_ssim (scratch, &t.host, &out.ms_ssim);
        break;
      default:
        compare_psnr (&t.host, &out.psnr);
        compare_ssim_ffmpeg (scratch, &t.host, &out.ssim);
        compare_ms_ssim (scratch, &t.host, &out.ms_ssim);
    }
    cpu = (now_us () - cpu0) / 1000.0;
    if (rows[r].target > 0)
      printf ("| %s | %.1f | %.1f | %.0f%s | %.1f |\n", rows[r].name,
          times[ITER / 2], times[ITER * 99 / 100], rows[r].target,
          times[ITER / 2] <= rows[r].target ? "" : " (missed)", cpu);
    else
      printf ("| %s | %.1f | %.1f | - | %.1f |\n", rows[r].name,
          times[ITER / 2], times[ITER * 99 / 100], cpu);
  }
  printf ("\nNPP (nppiPSNR/nppiSSIM/nppiMSSSIM): not measured (this build "
      "has no NPP path)\n");
  compare_scratch_free (scratch);
  test_pair_free (&t);
  compare_cuda_free (cuda);
  cudaStreamDestroy (stream);
  return 0;
}
