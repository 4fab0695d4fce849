/* GstCompareMeta: a GstCustomMeta on each scored distorted buffer whose
 * structure holds the pair's values (field names as the `compare`
 * message's: docs/compare.md).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef COMPARE_META_H
#define COMPARE_META_H

#include <gst/gst.h>

G_BEGIN_DECLS

#define COMPARE_META_NAME "GstCompareMeta"

/* Once, from plugin_init. */
gboolean compare_meta_register (void);

/* Adds the meta to writable @buffer (or replaces its structure's fields)
 * with the fields of @values. */
void compare_meta_set (GstBuffer * buffer, const GstStructure * values);

G_END_DECLS
#endif /* COMPARE_META_H */
