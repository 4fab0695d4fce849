/* Running statistics of frame scores: count, mean, min, max, blurry and
 * unscored frames.  What interval messages, summaries and reports show.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SHARPNESS_STATS_H
#define SHARPNESS_STATS_H

#include <glib.h>

#include "sharpness-content.h"

G_BEGIN_DECLS

typedef struct
{
  guint64 frames;
  guint64 blurry_frames;
  gdouble sum, min, max;
  /* Frames that passed without a score (sharpness_stats_add_unscored). */
  guint64 unscored;
  /* Frames by content state (sharpness_stats_add_state) and the segments
   * (start events) of each kind. */
  guint64 black_frames, frozen_frames, flat_frames;
  guint64 blurry_segments, black_segments, freeze_segments;
} SharpnessStats;

void sharpness_stats_reset (SharpnessStats * stats);
void sharpness_stats_add (SharpnessStats * stats, gdouble score,
    gboolean blurry);
void sharpness_stats_add_unscored (SharpnessStats * stats);
/* Counts a frame's content state and the starts among its events. */
void sharpness_stats_add_content (SharpnessStats * stats,
    const SharpnessContentResult * result);
/* 0 when no frame was added. */
gdouble sharpness_stats_mean (const SharpnessStats * stats);

G_END_DECLS
#endif /* SHARPNESS_STATS_H */
