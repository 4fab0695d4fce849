/* cudasharpness's event messages, named and read in one place: the start
 * and end of each blurry, black or frozen stretch.  The element writes
 * them (sharpness_message_new_event, sharpness-messages.c, with the names
 * here); a program reads them with sharpness_event_message_parse, never
 * through field names of its own.  Their fields are listed in the
 * element's SECTION comment (gstcudasharpness.c) and
 * docs/reference/cudasharpness.md.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SHARPNESS_EVENT_MESSAGE_H
#define SHARPNESS_EVENT_MESSAGE_H

#include <gst/gst.h>

#include "sharpness-content.h"
#include "sharpness-fields.h"

G_BEGIN_DECLS

/* The name of @kind's start (`sharpness-blurry-start`,
 * `sharpness-black-start`, `sharpness-freeze-start`) or end message. */
SharpnessField sharpness_event_message_name (SharpnessEventKind kind,
    gboolean is_end);
/* The end message's count of the stretch's own frames: `blurry-frames`,
 * `black-frames`, `frozen-frames`. */
SharpnessField sharpness_event_message_kind_frames (SharpnessEventKind
    kind);

/* An event message, read.  What the message lacks reads as
 * GST_CLOCK_TIME_NONE (times, frame numbers, counts) or NaN (scores). */
typedef struct
{
  SharpnessEventKind kind;
  gboolean is_end;
  const gchar *metric;          /* the message's; NULL when absent */
  /* The stretch's first frame's pts (`timestamp`), its stream and
   * running time. */
  guint64 timestamp, stream_time, running_time;
  guint64 start_frame;
  /* Ends only: the stretch's bounds (ns; `end` is the end of its last
   * frame), its frames (`frames` counted to `end-frame`; `kind_frames`
   * those of its kind), scores and worst frame. */
  guint64 start, end, duration;
  guint64 end_frame, frames, kind_frames, worst_frame;
  gdouble min, mean, max, worst_score;
  /* The element's JPEG of the stretch (its event-thumbnails property),
   * owned by the message, or NULL. */
  GstSample *thumbnail;
} SharpnessEventReading;

/* FALSE when @msg is not an event message; @r is then untouched. */
gboolean sharpness_event_message_parse (GstMessage * msg,
    SharpnessEventReading * r);

/* The last frame of an ended stretch, inclusive (as sharpness-scan gives
 * it).  The element ends a black or frozen stretch at the first frame that
 * is not black or frozen: its `end-frame` is that frame, counted in
 * `frames` but not in the kind's count; at the end of the stream it ends
 * at its last frame, counted in both.  A blurry run's `end-frame` is its
 * last blurry frame already. */
guint64 sharpness_event_reading_last_frame (const SharpnessEventReading *
    r);

G_END_DECLS
#endif /* SHARPNESS_EVENT_MESSAGE_H */
