/* sharpnessoverlay: labels in a built-in 5x7 bitmap font, scaled by whole
 * pixels (no pango, no font files), and the text size a frame gets.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SHARPNESS_OVERLAY_TEXT_H
#define SHARPNESS_OVERLAY_TEXT_H

#include "sharpness-overlay-canvas.h"

G_BEGIN_DECLS

/* The largest scale: a glyph 7 x 32 = 224 pixels high. */
#define SHARPNESS_TEXT_SCALE_MAX 32

/* A glyph is 5x7 pixels in a 6x8 cell, times the scale. */
#define SHARPNESS_TEXT_HEIGHT(scale) (7 * (gint) (scale))
/* Padding around a label's text inside its background box. */
#define SHARPNESS_LABEL_PAD(scale) ((gint) (scale) + 1)
#define SHARPNESS_LABEL_HEIGHT(scale) \
  (SHARPNESS_TEXT_HEIGHT (scale) + 2 * SHARPNESS_LABEL_PAD (scale))

/* The scale for a frame @height lines high when the user sets none: the
 * glyphs about 2.6 % of the height (at least 2 % from 405 lines up), so a
 * label stays readable on a wall or a multiviewer tile that shrinks the
 * frame; never below the font's own 7 pixels. */
guint sharpness_overlay_text_auto_scale (gint height);

/* Width in pixels of @text drawn at @scale (no trailing cell gap). */
gint sharpness_overlay_text_width (const gchar * text, guint scale);
/* Where the @n-th character cell of a text starts, from its left edge. */
gint sharpness_overlay_text_advance (guint n, guint scale);

/* @text with its top-left corner at (@x, @y); characters the font lacks
 * are drawn as '?', lower case as upper case. */
void sharpness_overlay_text_draw (SharpnessCanvas * c, gint x, gint y,
    guint scale, const gchar * text, guint32 argb);

/* A label: the box (@x, @y, @w, @h) filled with @bg, @text in @fg inside
 * its padding. */
void sharpness_overlay_label_draw (SharpnessCanvas * c, gint x, gint y,
    gint w, gint h, guint scale, const gchar * text, guint32 bg, guint32 fg);

G_END_DECLS
#endif /* SHARPNESS_OVERLAY_TEXT_H */
