/* The metric table and the CPU backend's rows for it.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <string.h>

#include "sharpness-cpu.h"
#include "test-check.h"

static void
test_rows (void)
{
  for (int m = 0; m < SHARPNESS_METRIC_COUNT; m++) {
    const SharpnessMetricInfo *info = sharpness_metric_get_info (m);

    CHECKF (info == &sharpness_metric_info[m], "metric %d", m);
    CHECKF (info->metric == (SharpnessMetric) m, "row %d is metric %d", m,
        info->metric);
    CHECKF (info->nick && info->nick[0], "metric %d has no nick", m);
    CHECKF (info->name && info->name[0], "metric %d has no name", m);
    CHECKF (info->range && info->range[0], "metric %d has no range", m);
    CHECKF (info->description && info->description[0],
        "metric %d has no description", m);
    CHECKF (info->direction == SHARPNESS_HIGHER_IS_SHARPER ||
        info->direction == SHARPNESS_LOWER_IS_SHARPER, "metric %d", m);
    CHECKF (info->kind == SHARPNESS_KIND_SUMS ||
        info->kind == SHARPNESS_KIND_FLOAT, "metric %d", m);

    /* Nicks are GEnum nicks and CLI names: lower case, digits, '-'. */
    for (const char *c = info->nick; *c; c++)
      CHECKF ((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '-',
          "nick '%s'", info->nick);
    for (int n = 0; n < m; n++)
      CHECKF (strcmp (sharpness_metric_info[n].nick, info->nick) != 0,
          "metrics %d and %d share the nick '%s'", n, m, info->nick);

    CHECKF (sharpness_metric_from_nick (info->nick) == m, "nick '%s'",
        info->nick);

    /* "Worse" follows the direction. */
    int higher = info->direction == SHARPNESS_HIGHER_IS_SHARPER;
    CHECKF (sharpness_metric_is_worse ((SharpnessMetric) m, 1.0, 2.0) == higher,
        "%s", info->nick);
    CHECKF (sharpness_metric_is_worse ((SharpnessMetric) m, 2.0, 1.0) ==
        !higher, "%s", info->nick);
    CHECKF (!sharpness_metric_is_worse ((SharpnessMetric) m, 1.0, 1.0), "%s",
        info->nick);
  }

  CHECKF (sharpness_metric_get_info (-1) == NULL, "below the table");
  CHECKF (sharpness_metric_get_info (SHARPNESS_METRIC_COUNT) == NULL,
      "past the table");
  CHECKF (sharpness_metric_from_nick ("no-such-metric") == -1, "unknown nick");
  CHECKF (sharpness_metric_from_nick ("") == -1, "empty nick");
  CHECKF (sharpness_metric_from_nick (NULL) == -1, "NULL nick");
  CHECKF (sharpness_metric_from_nick ("Variance") == -1, "nicks are exact");
}

/* Every SUMS metric has a working CPU row; the others are refused by the
 * sums entry point; bad arguments are refused by both. */
static void
test_cpu_rows (void)
{
  /* 4x4 gray ramp with a bump at (1,1) for the laplacian, stride 5 (one
   * byte of padding). */
  static const uint8_t pixels[] = {
    0, 10, 20, 30, 99,
    40, 55, 60, 70, 99,
    80, 90, 100, 110, 99,
    120, 130, 140, 150,
  };
  const SharpnessPlane plane = {
    .samples = SHARPNESS_SAMPLES_Y8, .data = pixels, .stride = 5,
    .width = 4, .height = 4, .pixel_stride = 1,
  };
  SharpnessCpu *cpu = sharpness_cpu_new ();
  SharpnessSums sums;
  SharpnessStatus st;
  double score;

  CHECKF (cpu != NULL, "sharpness_cpu_new");
  if (!cpu)
    return;

  for (int m = 0; m < SHARPNESS_METRIC_COUNT; m++) {
    const SharpnessMetricInfo *info = &sharpness_metric_info[m];

    st = sharpness_cpu_sums (cpu, (SharpnessMetric) m, &plane, &sums);
    if (info->kind == SHARPNESS_KIND_SUMS) {
      CHECKF (st == SHARPNESS_OK, "%s: %s", info->nick,
          sharpness_status_to_string (st));
      st = sharpness_cpu_score (cpu, (SharpnessMetric) m, &plane, &score);
      CHECKF (st == SHARPNESS_OK, "%s: %s", info->nick,
          sharpness_status_to_string (st));
      /* Neither flat nor linear: every classical score is > 0. */
      CHECKF (st != SHARPNESS_OK || score > 0.0, "%s: %g", info->nick, score);
    } else {
      CHECKF (st == SHARPNESS_ERROR_UNSUPPORTED, "%s: %s", info->nick,
          sharpness_status_to_string (st));
    }
  }

  SharpnessPlane bad = plane;
  bad.data = NULL;
  CHECKF (sharpness_cpu_sums (cpu, SHARPNESS_METRIC_SMD, &bad, &sums) ==
      SHARPNESS_ERROR_INVALID, "NULL data");
  bad = plane;
  bad.width = 0;
  CHECKF (sharpness_cpu_sums (cpu, SHARPNESS_METRIC_SMD, &bad, &sums) ==
      SHARPNESS_ERROR_INVALID, "zero width");
  bad = plane;
  bad.stride = 3;
  CHECKF (sharpness_cpu_sums (cpu, SHARPNESS_METRIC_SMD, &bad, &sums) ==
      SHARPNESS_ERROR_INVALID, "stride shorter than a row");
  bad = plane;
  bad.samples = SHARPNESS_SAMPLES_RGB8;
  bad.offset_b = 3;             /* outside the 1-byte pixel */
  CHECKF (sharpness_cpu_sums (cpu, SHARPNESS_METRIC_SMD, &bad, &sums) ==
      SHARPNESS_ERROR_INVALID, "RGB offset outside the pixel");
  CHECKF (sharpness_cpu_sums (cpu, SHARPNESS_METRIC_COUNT, &plane, &sums) ==
      SHARPNESS_ERROR_INVALID, "metric past the table");
  CHECKF (sharpness_cpu_sums (cpu, SHARPNESS_METRIC_SMD, NULL, &sums) ==
      SHARPNESS_ERROR_INVALID, "NULL plane");
  CHECKF (sharpness_cpu_sums (cpu, SHARPNESS_METRIC_SMD, &plane, NULL) ==
      SHARPNESS_ERROR_INVALID, "NULL sums");
  CHECKF (sharpness_cpu_score (cpu, SHARPNESS_METRIC_SMD, &plane, NULL) ==
      SHARPNESS_ERROR_INVALID, "NULL score");

  sharpness_cpu_free (cpu);
  sharpness_cpu_free (NULL);
}

int
main (void)
{
  test_rows ();
  test_cpu_rows ();
  return test_check_finish ("metric table and CPU rows ok");
}
