/* The full-reference metrics: the one table cudacompare, both backends and
 * the tests are driven by.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * COMPARE_METRIC_TABLE is an X-macro:
 *   X (ID, sym, nick, display, description, cpu_ffmpeg, cpu_wang)
 *   ID           enum suffix: COMPARE_METRIC_ID_<ID>, flag COMPARE_METRIC_<ID>
 *   sym          C identifier (per-metric files and functions, the
 *                metric's member of CompareResult)
 *   nick         the `metrics` flag's nick
 *   display      name in messages to people
 *   description  the flag's description, for gst-inspect-1.0
 *   cpu_ffmpeg, cpu_wang
 *                whether the CPU backend keeps up with a live 1080p stream
 *                (SHARPNESS_CPU_LIVE) or takes far longer per frame
 *                (SHARPNESS_CPU_HEAVY), with ssim-mode=ffmpeg and wang: a
 *                fallback from the GPU leaves the heavy ones out rather
 *                than making frames late (docs/performance/performance-cpu.md)
 */
#ifndef COMPARE_METRIC_H
#define COMPARE_METRIC_H

#include "compare.h"
#include "sharpness-metric.h"

#ifdef __cplusplus
extern "C" {
#endif

#define COMPARE_METRIC_TABLE(X) \
  X (PSNR, psnr, "psnr", "PSNR", \
     "PSNR and MSE, as FFmpeg's psnr filter", \
     SHARPNESS_CPU_LIVE, SHARPNESS_CPU_LIVE) \
  X (SSIM, ssim, "ssim", "SSIM", \
     "SSIM (ssim-mode: FFmpeg's ssim filter, or Wang's)", \
     SHARPNESS_CPU_LIVE, SHARPNESS_CPU_HEAVY) \
  X (MS_SSIM, ms_ssim, "ms-ssim", "MS-SSIM", \
     "MS-SSIM of the luma, as Wang's msssim.m", \
     SHARPNESS_CPU_HEAVY, SHARPNESS_CPU_HEAVY)

#define COMPARE_METRIC_ID_ROW(ID, sym, nick, display, desc, cf, cw) \
  COMPARE_METRIC_ID_##ID,
typedef enum
{
  COMPARE_METRIC_TABLE (COMPARE_METRIC_ID_ROW)
  COMPARE_N_METRICS
} CompareMetricId;
#undef COMPARE_METRIC_ID_ROW

/* The `metrics` flags: bit COMPARE_METRIC_ID_<ID>. */
#define COMPARE_METRIC_FLAG_ROW(ID, sym, nick, display, desc, cf, cw) \
  COMPARE_METRIC_##ID = 1 << COMPARE_METRIC_ID_##ID,
typedef enum
{
  COMPARE_METRIC_TABLE (COMPARE_METRIC_FLAG_ROW)
} CompareMetrics;
#undef COMPARE_METRIC_FLAG_ROW

typedef struct
{
  CompareMetricId id;
  const char *nick;
  const char *display;
  const char *description;
  SharpnessCpuPace cpu_ffmpeg, cpu_wang;
} CompareMetricInfo;

/* Indexed by CompareMetricId. */
extern const CompareMetricInfo compare_metric_info[COMPARE_N_METRICS];

/* The flags of @metrics that the CPU cannot compute at a live stream's
 * pace, with ssim-mode=wang when @wang. */
unsigned compare_metrics_heavy_on_cpu (unsigned metrics, int wang);

/* What one comparison computes, on either backend. */
typedef struct
{
  unsigned metrics;             /* CompareMetrics */
  int wang;                     /* ssim-mode=wang: SSIM as ssim.m */
  int downsample;               /* wang mode: ssim.m's downsampling */
} CompareRequest;

typedef struct
{
  /* Per metric (index: CompareMetricId): SHARPNESS_OK when computed; a
   * refusal (frame too small, ...) leaves the others;
   * SHARPNESS_ERROR_UNSUPPORTED for a metric not requested. */
  SharpnessStatus status[COMPARE_N_METRICS];
  ComparePsnr psnr;
  CompareSsim ssim;
  CompareMsSsim ms_ssim;
} CompareResult;

/* The requested metrics of @request on @pair (host memory), each with its
 * function of compare.h (compare-metric.c has one line per metric). */
void compare_compute (CompareScratch * scratch, const ComparePair * pair,
    const CompareRequest * request, CompareResult * result);

#ifdef __cplusplus
}
#endif
#endif /* COMPARE_METRIC_H */
