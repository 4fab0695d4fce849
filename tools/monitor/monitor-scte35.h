/* sharpness-monitor: a channel's ANSI/SCTE 35 cues (splice_insert and
 * time_signal, read by the transport analyser, monitor-transport.c) as
 * events: kind "scte35", event the command's name, its PTS and fields.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef MONITOR_SCTE35_H
#define MONITOR_SCTE35_H

#include "monitor-events.h"
#include "monitor-transport.h"

G_BEGIN_DECLS

/* The event of @cue on @channel: its JSON made whole (MonitorEvent's
 * body), its kind no-scte35 (the alarm watching cues) for the code that
 * sorts events by kind. */
MonitorEvent *monitor_scte35_event (const gchar * channel,
    const MonitorTransportCue * cue);

/* The API's transport.scte35 of a channel: its SCTE 35 PIDs, the
 * commands and errors counted, the last cue; NULL where the transport
 * never carried SCTE 35 (monitor_transport_has_scte35). */
JsonNode *monitor_scte35_api_node (const MonitorTransportStats * ts);

G_END_DECLS
#endif /* MONITOR_SCTE35_H */
