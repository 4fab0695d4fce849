/* cudasharpness's bus messages: `sharpness` (per frame or per interval),
 * the start and end of each blurry, black or frozen stretch, and
 * `sharpness-summary` (at EOS).  Their fields are listed in the element's
 * SECTION comment (gstcudasharpness.c) and docs/reference/cudasharpness.md.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SHARPNESS_MESSAGES_H
#define SHARPNESS_MESSAGES_H

#include <gst/gst.h>

#include "sharpness-content.h"
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

/* The start or end of a stretch of @event's kind: `sharpness-blurry-start`
 * / `-end`, `sharpness-black-start` / `-end`, `sharpness-freeze-start` /
 * `-end`; @metric scored its frames. */
GstMessage *sharpness_message_new_event (GstObject * src,
    const gchar * metric, const SharpnessContentEvent * event);

G_END_DECLS
#endif /* SHARPNESS_MESSAGES_H */
