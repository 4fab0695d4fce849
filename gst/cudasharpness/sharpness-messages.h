/* cudasharpness's bus messages: `sharpness` (per frame or per interval),
 * `sharpness-blurry-start` / `sharpness-blurry-end` (blurry segments) and
 * `sharpness-summary` (at EOS).  Their fields are listed in the element's
 * SECTION comment (gstcudasharpness.c) and docs/element.md.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SHARPNESS_MESSAGES_H
#define SHARPNESS_MESSAGES_H

#include <gst/gst.h>

#include "sharpness-blur-segments.h"
#include "sharpness-meta.h"
#include "sharpness-stats.h"

G_BEGIN_DECLS

/* `sharpness` for @result (its tiles and ROIs included); with @interval
 * (the frames since the previous message, @result's included) it also
 * carries frames, mean, min, max and blurry-frames. */
GstMessage *sharpness_message_new_frame (GstObject * src,
    const SharpnessFrameResult * result, const SharpnessStats * interval);

/* `sharpness-summary` over @total, the frames scored with @metric. */
GstMessage *sharpness_message_new_summary (GstObject * src,
    const gchar * metric, const SharpnessStats * total);

/* `sharpness-blurry-start` for the run @seg of @metric that just lasted
 * min-blurry-duration. */
GstMessage *sharpness_message_new_blurry_start (GstObject * src,
    const gchar * metric, const SharpnessSegment * seg);
/* `sharpness-blurry-end` for the finished segment @seg. */
GstMessage *sharpness_message_new_blurry_end (GstObject * src,
    const gchar * metric, const SharpnessSegment * seg);

G_END_DECLS
#endif /* SHARPNESS_MESSAGES_H */
