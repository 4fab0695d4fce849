/* Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "sharpness-overlay-canvas.h"

void
sharpness_canvas_fill_rect (SharpnessCanvas * c, gint x, gint y, gint w,
    gint h, guint32 argb)
{
  gint xa = MAX (x, 0), xb = MIN (x + w, c->width);
  gint ya = MAX (y, c->y0), yb = MIN (y + h, c->y1);

  for (gint j = ya; j < yb; j++) {
    guint32 *row = c->px + (gsize) j * c->width;
    for (gint i = xa; i < xb; i++)
      row[i] = argb;
  }
}

void
sharpness_canvas_stroke_rect (SharpnessCanvas * c, gint x, gint y, gint w,
    gint h, gint t, guint32 argb)
{
  t = MIN (t, MIN (w, h) / 2 + 1);
  sharpness_canvas_fill_rect (c, x, y, w, t, argb);
  sharpness_canvas_fill_rect (c, x, y + h - t, w, t, argb);
  sharpness_canvas_fill_rect (c, x, y + t, t, h - 2 * t, argb);
  sharpness_canvas_fill_rect (c, x + w - t, y + t, t, h - 2 * t, argb);
}
