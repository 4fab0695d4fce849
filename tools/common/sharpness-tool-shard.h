/* --shard I/N, as both tools take it: sharpness-scan scans inputs I, I+N,
 * I+2N... of its list, sharpness-monitor watches channels I, I+N, ...
 * (docs/reference/sharpness-scan.md, sharpness-monitor.md).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SHARPNESS_TOOL_SHARD_H
#define SHARPNESS_TOOL_SHARD_H

#include <glib.h>

G_BEGIN_DECLS

/* Reads "I/N" (decimal digits only, 0 <= I < N) into @index and @count;
 * FALSE, and both untouched, for anything else. */
gboolean sharpness_tool_parse_shard (const gchar * text, guint * index,
    guint * count);

G_END_DECLS
#endif /* SHARPNESS_TOOL_SHARD_H */
