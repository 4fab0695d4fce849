/* Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "sharpness-stats.h"

void
sharpness_stats_reset (SharpnessStats * stats)
{
  stats->frames = stats->blurry_frames = 0;
  stats->sum = stats->min = stats->max = 0.0;
  stats->unscored = 0;
}

void
sharpness_stats_add_unscored (SharpnessStats * stats)
{
  stats->unscored++;
}

void
sharpness_stats_add (SharpnessStats * stats, gdouble score, gboolean blurry)
{
  if (stats->frames == 0) {
    stats->min = stats->max = score;
  } else {
    stats->min = MIN (stats->min, score);
    stats->max = MAX (stats->max, score);
  }
  stats->sum += score;
  stats->frames++;
  if (blurry)
    stats->blurry_frames++;
}

gdouble
sharpness_stats_mean (const SharpnessStats * stats)
{
  return stats->frames ? stats->sum / stats->frames : 0.0;
}
