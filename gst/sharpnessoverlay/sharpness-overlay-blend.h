/* sharpnessoverlay: the tile grid blended straight into the frame's planes
 * (piecewise-constant colours), the fast path used when downstream does not
 * compose overlays.  The result is what gst_video_overlay_composition_blend
 * gives for the same grid drawn on an ARGB rectangle (docs/reference/sharpnessoverlay.md).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SHARPNESS_OVERLAY_BLEND_H
#define SHARPNESS_OVERLAY_BLEND_H

#include <gst/video/video.h>

G_BEGIN_DECLS

/* Tables kept between frames (they grow, never shrink: no per-frame
 * allocation once the grid size is stable). */
typedef struct
{
  /* div[r * 256 + in] = (r + in * (255 - alpha)) / 255, r < 255: with
   * c * alpha = 255 q + r, the blend (c * alpha + in * (255 - alpha)) / 255
   * is q + div[r * 256 + in].  Rebuilt when alpha changes. */
  guint8 *div;
  gint div_alpha;               /* -1: not built */

  /* Per colour (tiles, then the grid line) and component: q and r (8-bit
   * formats) or the constant term of the 16-bit blend. */
  guint32 *konst;
  guint8 *quot;
  guint8 *rem;
  guint colours_alloc;

  /* Luma bounds of the tile columns and rows (cols + 1, rows + 1), and
   * the plane-sample bounds of the columns for the current subsampling. */
  gint *col_x;
  gint *row_y;
  gint *col_s;
  guint cols_alloc, rows_alloc;
} SharpnessOverlayBlend;

void sharpness_overlay_blend_init (SharpnessOverlayBlend * blend);
void sharpness_overlay_blend_clear (SharpnessOverlayBlend * blend);

gboolean sharpness_overlay_blend_supports (GstVideoFormat format);

gboolean sharpness_overlay_blend_tiles (SharpnessOverlayBlend * blend,
    GstVideoFrame * frame, guint cols, guint rows, const guint32 * tile_rgb,
    guint32 line_rgb, guint8 alpha, const GstVideoRectangle * hole);

G_END_DECLS
#endif /* SHARPNESS_OVERLAY_BLEND_H */
