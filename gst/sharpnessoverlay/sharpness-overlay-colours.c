/* Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "sharpness-overlay-colours.h"

#include <math.h>

#include "sharpness-overlay-canvas.h"

/* Where on the ramp the absolute mode puts a score just worse than the
 * threshold (orange) and one at or just better than it (lime): the two
 * sides never share a colour, and yellow, between them, is left to tiles
 * without a finite score. */
#define ABSOLUTE_WORSE_TOP 0.25
#define ABSOLUTE_BETTER_BOTTOM 0.75

/* t = 0 red, 0.5 yellow, 1 green. */
static guint32
ramp (gdouble t, guint8 alpha)
{
  guint r, g;

  t = CLAMP (t, 0.0, 1.0);
  if (t < 0.5) {
    r = 255;
    g = (guint) lround (510.0 * t);
  } else {
    r = (guint) lround (510.0 * (1.0 - t));
    g = 255;
  }
  return SHARPNESS_ARGB (alpha, r, g, 0);
}

void
sharpness_overlay_colour_scale_relative (SharpnessOverlayColourScale * scale,
    SharpnessDirection direction)
{
  scale->absolute = FALSE;
  scale->direction = direction;
  scale->threshold = 0.0;
  scale->span_worse = scale->span_better = 0.0;
}

/* The bounds of the table's range text ("[0, 510)", "[0, 8]"); the C
 * locale's number syntax whatever the process's locale. */
static void
metric_range (const SharpnessMetricInfo * info, gdouble * lo, gdouble * hi)
{
  const gchar *p = info ? info->range : NULL;
  gchar *end;

  *lo = 0.0;
  *hi = INFINITY;
  if (!p || (*p != '[' && *p != '('))
    return;
  *lo = g_ascii_strtod (p + 1, &end);
  if (end == p + 1 || *end != ',') {
    *lo = 0.0;
    return;
  }
  p = end + 1;
  *hi = g_ascii_strtod (p, &end);
  if (end == p || *hi <= *lo)
    *hi = INFINITY;
}

void
sharpness_overlay_colour_scale_absolute (SharpnessOverlayColourScale * scale,
    const SharpnessMetricInfo * info, gdouble threshold)
{
  SharpnessDirection dir = info ? info->direction :
      SHARPNESS_HIGHER_IS_SHARPER;
  gdouble lo, hi, worst, best, fallback = fabs (threshold) > 0.0 ?
      fabs (threshold) : 1.0;

  metric_range (info, &lo, &hi);
  worst = dir == SHARPNESS_HIGHER_IS_SHARPER ? lo : hi;
  best = dir == SHARPNESS_HIGHER_IS_SHARPER ? hi : lo;

  scale->absolute = TRUE;
  scale->direction = dir;
  scale->threshold = threshold;
  /* Red at the blurry end of the range; green as far on the sharp side of
   * the threshold (the sharp end of most ranges is out of reach of real
   * video: laplacian's 1020 is a pixel-sized checkerboard). */
  scale->span_worse = fabs (threshold - worst);
  if (!isfinite (scale->span_worse) || scale->span_worse <= 0.0)
    scale->span_worse = fallback;
  scale->span_better = MIN (fabs (best - threshold), scale->span_worse);
  if (!isfinite (scale->span_better) || scale->span_better <= 0.0)
    scale->span_better = fallback;
}

static void
relative_colours (const SharpnessOverlayColourScale * scale,
    const gdouble * scores, guint n, guint8 alpha, guint32 * argb)
{
  gdouble lo = INFINITY, hi = -INFINITY;

  for (guint i = 0; i < n; i++) {
    gdouble v = scores[i];
    if (isfinite (v)) {
      lo = MIN (lo, v);
      hi = MAX (hi, v);
    }
  }
  for (guint i = 0; i < n; i++) {
    gdouble v = scores[i], t = 0.5;
    /* Equal tiles (or no finite score) give the middle of the ramp: a
     * relative map cannot tell a uniformly sharp frame from a blurry one. */
    if (isfinite (v) && hi > lo) {
      t = (v - lo) / (hi - lo);
      if (scale->direction == SHARPNESS_LOWER_IS_SHARPER)
        t = 1.0 - t;
    }
    argb[i] = ramp (t, alpha);
  }
}

static void
absolute_colours (const SharpnessOverlayColourScale * scale,
    const gdouble * scores, guint n, guint8 alpha, guint32 * argb)
{
  for (guint i = 0; i < n; i++) {
    gdouble v = scores[i], t = 0.5, d;
    gboolean worse;

    if (isfinite (v)) {
      d = fabs (v - scale->threshold);
      /* As cudasharpness's blurry rule: a score equal to the threshold is
       * not worse. */
      worse = scale->direction == SHARPNESS_LOWER_IS_SHARPER ?
          v > scale->threshold : v < scale->threshold;
      if (worse)
        t = ABSOLUTE_WORSE_TOP * (1.0 - MIN (d / scale->span_worse, 1.0));
      else
        t = ABSOLUTE_BETTER_BOTTOM + (1.0 - ABSOLUTE_BETTER_BOTTOM) *
            MIN (d / scale->span_better, 1.0);
    }
    argb[i] = ramp (t, alpha);
  }
}

void
sharpness_overlay_tile_colours (const SharpnessOverlayColourScale * scale,
    const gdouble * scores, guint n, guint8 alpha, guint32 * argb)
{
  if (scale->absolute)
    absolute_colours (scale, scores, n, alpha, argb);
  else
    relative_colours (scale, scores, n, alpha, argb);
}
