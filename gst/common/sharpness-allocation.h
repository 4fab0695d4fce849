/* What an in-place analyser may add to the allocation query it forwards
 * downstream: downstream's answer stands (its pools, its metas), since the
 * buffers upstream allocates are the ones downstream receives.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SHARPNESS_ALLOCATION_H
#define SHARPNESS_ALLOCATION_H

#include <gst/gst.h>

G_BEGIN_DECLS

/* Makes a configured pool for @caps, or NULL. */
typedef GstBufferPool *(*SharpnessPoolFactory) (GstCaps * caps,
    gpointer user_data);

/* Adds the pool @make_pool returns to @query when upstream asked for a
 * pool and downstream proposed none, as gst-plugins-bad's CUDA filters
 * do.  Never adds metas (GstVideoMeta would be claimed on downstream's
 * behalf: a sink may not read padded frames) nor a bare allocator (one
 * allocation per buffer).  TRUE when a pool was added. */
gboolean sharpness_allocation_offer_pool (GstQuery * query,
    SharpnessPoolFactory make_pool, gpointer user_data);

G_END_DECLS
#endif /* SHARPNESS_ALLOCATION_H */
