/* sharpnessoverlay: draws the sharpness metas of a frame (tile heat map,
 * region-of-interest scores, frame score) over the video, through a
 * GstVideoOverlayComposition.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef GST_SHARPNESS_OVERLAY_H
#define GST_SHARPNESS_OVERLAY_H

#include <gst/base/gstbasetransform.h>

G_BEGIN_DECLS

#define GST_TYPE_SHARPNESS_OVERLAY (gst_sharpness_overlay_get_type ())
G_DECLARE_FINAL_TYPE (GstSharpnessOverlay, gst_sharpness_overlay, GST,
    SHARPNESS_OVERLAY, GstBaseTransform)

GST_ELEMENT_REGISTER_DECLARE (sharpnessoverlay);

G_END_DECLS
#endif /* GST_SHARPNESS_OVERLAY_H */
