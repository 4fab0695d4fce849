/* Errors decodebin drops, reported all the same (sharpness-scan; set up
 * by sharpness_tool_decode_attach ()).
 *
 * decodebin ignores the errors of an element it is still plugging in (so
 * that it can try another one), and keeps ignoring them once the element
 * is in if they were posted before it was: a demuxer in pull mode that
 * fails at once (an MP4 cut before its `moov`) may post its error in that
 * window, and the pipeline then waits for ever.  A tracer hook sees every
 * error the elements of a watched decodebin post; when the element that
 * posted it is still in its bin and has started (decodebin kept it: the
 * error is real), the error is posted again on the pipeline's bus, where
 * the tool's bus watch handles it as any other.  An error decodebin did
 * not drop comes twice: tools act on the first one.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SHARPNESS_TOOL_DROPPED_ERRORS_H
#define SHARPNESS_TOOL_DROPPED_ERRORS_H

#include <gst/gst.h>

G_BEGIN_DECLS

/* Watches the elements @decodebin (a decodebin or a uridecodebin) plugs.
 * The checks run on the default main context: the tool's main loop. */
void sharpness_tool_dropped_errors_watch (GstElement * decodebin);

G_END_DECLS
#endif /* SHARPNESS_TOOL_DROPPED_ERRORS_H */
