/* sharpnessoverlay: the frame-sized ARGB canvas the overlay draws on, and
 * its two primitives (filled and outlined rectangles).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SHARPNESS_OVERLAY_CANVAS_H
#define SHARPNESS_OVERLAY_CANVAS_H

#include <glib.h>

G_BEGIN_DECLS

/* ARGB as a native-endian 32-bit word is the byte order of
 * GST_VIDEO_OVERLAY_COMPOSITION_FORMAT_RGB (BGRA in memory on little
 * endian, ARGB on big endian), not premultiplied. */
#define SHARPNESS_ARGB(a, r, g, b) \
  (((guint32) (a) << 24) | ((guint32) (r) << 16) | ((guint32) (g) << 8) | \
   (guint32) (b))
/* An opaque colour from 0xRRGGBB. */
#define SHARPNESS_OPAQUE(rgb) (SHARPNESS_ARGB (255, 0, 0, 0) | (rgb))

/* Drawing goes into the rows y0 .. y1 - 1 only: the band of the frame the
 * overlay rectangle covers. */
typedef struct
{
  guint32 *px;                  /* row 0 of the frame */
  gint width, height;
  gint y0, y1;
} SharpnessCanvas;

/* Both clip to the frame's columns and to the band's rows. */
void sharpness_canvas_fill_rect (SharpnessCanvas * c, gint x, gint y, gint w,
    gint h, guint32 argb);
/* An outline @t pixels thick, inside the rectangle. */
void sharpness_canvas_stroke_rect (SharpnessCanvas * c, gint x, gint y,
    gint w, gint h, gint t, guint32 argb);

G_END_DECLS
#endif /* SHARPNESS_OVERLAY_CANVAS_H */
