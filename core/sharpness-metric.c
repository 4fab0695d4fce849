/* The metric table, expanded into its row array.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "sharpness-metric.h"

#include <string.h>

#define SHARPNESS_METRIC_INFO_ROW(ID, sym, nick, name, dir, kind, cpu, range, \
    desc) \
  [SHARPNESS_METRIC_##ID] = { SHARPNESS_METRIC_##ID, nick, name, dir, kind, \
    cpu, range, desc },
const SharpnessMetricInfo sharpness_metric_info[SHARPNESS_METRIC_COUNT] = {
  SHARPNESS_METRIC_TABLE (SHARPNESS_METRIC_INFO_ROW)
};
#undef SHARPNESS_METRIC_INFO_ROW

const SharpnessMetricInfo *
sharpness_metric_get_info (int metric)
{
  if (metric < 0 || metric >= SHARPNESS_METRIC_COUNT)
    return NULL;
  return &sharpness_metric_info[metric];
}

int
sharpness_metric_from_nick (const char *nick)
{
  for (int m = 0; nick && m < SHARPNESS_METRIC_COUNT; m++)
    if (strcmp (sharpness_metric_info[m].nick, nick) == 0)
      return m;
  return -1;
}

int
sharpness_metric_is_worse (SharpnessMetric metric, double a, double b)
{
  if (sharpness_metric_info[metric].direction == SHARPNESS_LOWER_IS_SHARPER)
    return a > b;
  return a < b;
}
