/* sharpnessoverlay: the colour of each tile of the map, relative to the
 * frame (where the detail is) or absolute (which tiles are sharp enough),
 * on one red-yellow-green ramp (docs/reference/sharpnessoverlay.md, "Colour ramp").
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SHARPNESS_OVERLAY_COLOURS_H
#define SHARPNESS_OVERLAY_COLOURS_H

#include <glib.h>

#include "sharpness-metric.h"

G_BEGIN_DECLS

/* How scores map onto the ramp, set up once a frame. */
typedef struct
{
  gboolean absolute;
  SharpnessDirection direction;
  /* Absolute only: the sharp/blurry boundary and how far from it a score
   * reaches the end of the ramp, on each side. */
  gdouble threshold;
  gdouble span_worse, span_better;
} SharpnessOverlayColourScale;

/* From the frame's least (red) to its sharpest (green) tile. */
void sharpness_overlay_colour_scale_relative (SharpnessOverlayColourScale *
    scale, SharpnessDirection direction);

/* Blurry tiles (worse than @threshold) red to orange, sharp ones lime to
 * green.  @info (NULL for a metric the table lacks: higher is sharper,
 * range [0, inf)) gives the direction and the range whose blurry end is
 * full red. */
void sharpness_overlay_colour_scale_absolute (SharpnessOverlayColourScale *
    scale, const SharpnessMetricInfo * info, gdouble threshold);

/* @argb[i] (the ramp's colour at @alpha) for each of the @n @scores. */
void sharpness_overlay_tile_colours (const SharpnessOverlayColourScale *
    scale, const gdouble * scores, guint n, guint8 alpha, guint32 * argb);

G_END_DECLS
#endif /* SHARPNESS_OVERLAY_COLOURS_H */
