/* GstSharpnessMeta: the score of a frame, carried by its buffer.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A GstCustomMeta (no C API to link against: applications read it by name,
 * e.g. Python's buf.get_custom_meta ("GstSharpnessMeta")).  Its structure,
 * named "GstSharpnessMeta", holds:
 *   metric  G_TYPE_STRING   metric nick ("laplacian", ...)
 *   score   G_TYPE_DOUBLE
 *   blurry  G_TYPE_BOOLEAN
 * and, when the element's `tiles` is on (classical metrics):
 *   tiles-cols   G_TYPE_UINT
 *   tiles-rows   G_TYPE_UINT
 *   tile-scores  GST_TYPE_ARRAY of G_TYPE_DOUBLE, tiles-cols x tiles-rows,
 *                row-major
 * and, when regions of interest were scored:
 *   roi-ids      GST_TYPE_ARRAY of G_TYPE_INT (the ROI metas' ids)
 *   roi-types    GST_TYPE_ARRAY of G_TYPE_STRING (their type names)
 *   roi-scores   GST_TYPE_ARRAY of G_TYPE_DOUBLE
 * (docs/element.md; sharpnessoverlay reads these names).
 * It has no tags, so elements that keep tag-less metas (videoconvert,
 * queues, tees) pass it on; a buffer copy copies it.
 */
#ifndef SHARPNESS_META_H
#define SHARPNESS_META_H

#include <gst/gst.h>

#include "sharpness-messages.h"

G_BEGIN_DECLS

#define SHARPNESS_META_NAME "GstSharpnessMeta"

/* From plugin_init; registering twice is harmless. */
gboolean sharpness_meta_register (void);

/* Records @result (its metric, score, blurry flag, tiles and ROIs) on
 * @buffer, which must be writable.  A meta of the same metric already on
 * the buffer (a second pass over the frame) is updated rather than
 * duplicated; metas of other metrics are left alone. */
void sharpness_meta_set (GstBuffer * buffer,
    const SharpnessFrameResult * result);

G_END_DECLS
#endif /* SHARPNESS_META_H */
