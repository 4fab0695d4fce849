/* Alarm evidence: a small JPEG of the picture each start and end event of
 * cudasharpness is about (`event-thumbnails`).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The streaming thread only copies the picture, scaled down by nearest
 * sampling into a buffer made once per caps, when it may be needed: the
 * worst frame of an open blurry run when it changes, the frame a black or
 * frozen stretch is announced on (their pictures do not change).  The JPEG
 * is encoded by one worker thread, which then posts the event message with
 * a `thumbnail` field (GstSample, image/jpeg): events keep their order, and
 * a frame never waits for an encoder.
 */
#ifndef SHARPNESS_EVENT_THUMBNAILS_H
#define SHARPNESS_EVENT_THUMBNAILS_H

#include <gst/gst.h>
#include <gst/video/video.h>

#include "sharpness-content.h"

G_BEGIN_DECLS

typedef struct _SharpnessEventThumbnails SharpnessEventThumbnails;

SharpnessEventThumbnails *sharpness_event_thumbnails_new (GstElement *
    element);
/* Waits for the messages being encoded, then frees. */
void sharpness_event_thumbnails_free (SharpnessEventThumbnails * t);

/* For frames of @info, thumbnails @width pixels wide (0: none).  Cheap
 * when nothing changed; a change forgets the pictures kept. */
void sharpness_event_thumbnails_configure (SharpnessEventThumbnails * t,
    const GstVideoInfo * info, guint width);
gboolean sharpness_event_thumbnails_enabled (SharpnessEventThumbnails * t);

/* Keeps @buffer's picture for the events of @kind. */
void sharpness_event_thumbnails_keep (SharpnessEventThumbnails * t,
    SharpnessEventKind kind, GstBuffer * buffer);

/* Posts @message (an event of @kind; taken) once its thumbnail is
 * encoded, after the messages queued before it. */
void sharpness_event_thumbnails_post (SharpnessEventThumbnails * t,
    SharpnessEventKind kind, GstMessage * message);

/* Returns once every queued message is posted (EOS: events come before
 * the summary), or after @timeout. */
void sharpness_event_thumbnails_drain (SharpnessEventThumbnails * t,
    GstClockTime timeout);

G_END_DECLS
#endif /* SHARPNESS_EVENT_THUMBNAILS_H */
