/* sharpness-monitor: thumbnails' bytes (monitor-thumbs.c).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef MONITOR_THUMBS_H
#define MONITOR_THUMBS_H

#include <gst/gst.h>

G_BEGIN_DECLS

/* The bytes of @jpeg, or NULL. */
GBytes *monitor_thumbnail_bytes (GstSample * jpeg);

G_END_DECLS
#endif /* MONITOR_THUMBS_H */
