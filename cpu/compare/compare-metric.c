/* The compare metric table, expanded into its row array and the CPU
 * core's dispatch.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "compare-metric.h"

#define COMPARE_METRIC_INFO_ROW(ID, sym, nick, display, desc, cf, cw) \
  [COMPARE_METRIC_ID_##ID] = { COMPARE_METRIC_ID_##ID, nick, display, desc, \
    cf, cw },
const CompareMetricInfo compare_metric_info[COMPARE_N_METRICS] = {
  COMPARE_METRIC_TABLE (COMPARE_METRIC_INFO_ROW)
};
#undef COMPARE_METRIC_INFO_ROW

unsigned
compare_metrics_heavy_on_cpu (unsigned metrics, int wang)
{
  unsigned heavy = 0;

  for (int m = 0; m < COMPARE_N_METRICS; m++) {
    SharpnessCpuPace pace = wang ? compare_metric_info[m].cpu_wang :
        compare_metric_info[m].cpu_ffmpeg;

    if ((metrics & (1u << m)) && pace == SHARPNESS_CPU_HEAVY)
      heavy |= 1u << m;
  }
  return heavy;
}

/* One metric on the CPU: its function of compare.h, its value in @r. */
typedef SharpnessStatus (*CompareCpuRun) (CompareScratch * scratch,
    const ComparePair * pair, const CompareRequest * req, CompareResult * r);

static SharpnessStatus
run_psnr (CompareScratch * scratch, const ComparePair * pair,
    const CompareRequest * req, CompareResult * r)
{
  return compare_psnr (pair, &r->psnr);
}

static SharpnessStatus
run_ssim (CompareScratch * scratch, const ComparePair * pair,
    const CompareRequest * req, CompareResult * r)
{
  return req->wang ? compare_ssim_wang (scratch, pair, req->downsample,
      &r->ssim) : compare_ssim_ffmpeg (scratch, pair, &r->ssim);
}

static SharpnessStatus
run_ms_ssim (CompareScratch * scratch, const ComparePair * pair,
    const CompareRequest * req, CompareResult * r)
{
  return compare_ms_ssim (scratch, pair, &r->ms_ssim);
}

/* Generated: a row without its run_<sym> does not compile. */
#define COMPARE_METRIC_RUN_ROW(ID, sym, nick, display, desc, cf, cw) \
  [COMPARE_METRIC_ID_##ID] = run_##sym,
static const CompareCpuRun compare_cpu_run[COMPARE_N_METRICS] = {
  COMPARE_METRIC_TABLE (COMPARE_METRIC_RUN_ROW)
};
#undef COMPARE_METRIC_RUN_ROW

void
compare_compute (CompareScratch * scratch, const ComparePair * pair,
    const CompareRequest * req, CompareResult * result)
{
  for (int m = 0; m < COMPARE_N_METRICS; m++)
    result->status[m] = (req->metrics & (1u << m)) ?
        compare_cpu_run[m] (scratch, pair, req, result) :
        SHARPNESS_ERROR_UNSUPPORTED;
}
