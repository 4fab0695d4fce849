/* Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "sharpness-stats.h"

#include <string.h>

void
sharpness_stats_reset (SharpnessStats * stats)
{
  memset (stats, 0, sizeof (*stats));
}

void
sharpness_stats_add_content (SharpnessStats * stats,
    const SharpnessContentResult * r)
{
  const SharpnessContentEvent *e = r->events;

  stats->black_frames += r->state == SHARPNESS_CONTENT_BLACK;
  stats->frozen_frames += r->state == SHARPNESS_CONTENT_FROZEN;
  stats->flat_frames += r->state == SHARPNESS_CONTENT_FLAT;
  for (guint i = 0; i < r->n_events; i++) {
    if (e[i].is_end)
      continue;
    stats->blurry_segments += e[i].kind == SHARPNESS_EVENT_BLUR;
    stats->black_segments += e[i].kind == SHARPNESS_EVENT_BLACK;
    stats->freeze_segments += e[i].kind == SHARPNESS_EVENT_FREEZE;
  }
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
