/* sharpness-monitor: a channel's CEA-608/708 captions, as GStreamer's
 * parsers extract them (GstVideoCaptionMeta on the decoded pictures: ATSC
 * A/53 cc_data in H.264 and H.265 SEI and in MPEG-2 user data), counted
 * by CEA-708's cc_type and timed, for the no-captions alarm, /metrics and
 * the API.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Threads: the video's streaming thread counts (a pad probe); the main
 * loop reads.  Both under the counter's own lock.
 */
#ifndef MONITOR_CAPTIONS_H
#define MONITOR_CAPTIONS_H

#include <gst/gst.h>

G_BEGIN_DECLS

/* What a valid cc_data packet carries (CEA-708 4.4's cc_type: 0 and 1
 * are CEA-608 fields 1 and 2, 2 and 3 DTVCC packet data and start). */
typedef enum
{
  MONITOR_CAPTION_CEA608_FIELD1,
  MONITOR_CAPTION_CEA608_FIELD2,
  MONITOR_CAPTION_CEA708,
  MONITOR_CAPTION_N_TYPES
} MonitorCaptionType;

/* Pictures with captions come 24 to 60 times a second (some streams carry
 * them on every other picture): none for this long is a gap. */
#define MONITOR_CAPTIONS_GAP_US (500 * 1000)

typedef struct
{
  /* Valid packets (cc_valid set) by type, since the channel started. */
  guint64 packets[MONITOR_CAPTION_N_TYPES];
  /* Pictures with at least one valid packet. */
  guint64 frames;
  /* Monotonic: the last such picture's, and the first one's after a gap
   * (or the first ever); 0: none yet. */
  gint64 last_caption_us, resumed_us;
} MonitorCaptionsStats;

typedef struct _MonitorCaptions MonitorCaptions;

MonitorCaptions *monitor_captions_new (void);
void monitor_captions_free (MonitorCaptions * c);
/* The pad whose video buffers are read (the decoder's output, before any
 * conversion), for this pipeline; the counts go on across pipelines. */
void monitor_captions_attach (MonitorCaptions * c, GstPad * pad);
void monitor_captions_snapshot (MonitorCaptions * c, MonitorCaptionsStats *
    st);
/* "cea608-field1", "cea608-field2", "cea708": the metric's label. */
const gchar *monitor_caption_type_name (MonitorCaptionType t);

G_END_DECLS
#endif /* MONITOR_CAPTIONS_H */
