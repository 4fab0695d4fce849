/* The compare metric table, expanded into its row array.
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
