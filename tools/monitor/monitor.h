/* sharpness-monitor: what its parts share.  The settings (command line
 * and configuration file), the channels, the alarm kinds, and the monitor
 * itself, which owns them on the main thread.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Threads: the main loop owns the channels' lifecycle, the alarms, the
 * event store, the webhooks and the HTTP server.  Streaming threads only
 * update a channel's counters (MonitorChannelStats, under its lock, held
 * for the update alone) and hand over thumbnails (a pointer swap).
 */
#ifndef MONITOR_H
#define MONITOR_H

#include <gst/gst.h>

#include "sharpness-alarm.h"
#include "sharpness-metric.h"

G_BEGIN_DECLS

typedef enum
{
  MONITOR_KIND_BLUR,
  MONITOR_KIND_BLACK,
  MONITOR_KIND_FREEZE,
  MONITOR_KIND_SILENCE,
  MONITOR_KIND_NO_SIGNAL,
  MONITOR_KIND_PSNR_DROP,
  MONITOR_KIND_SSIM_DROP,
  MONITOR_KIND_VMAF_DROP,
  MONITOR_KIND_TR101290_P1,
  MONITOR_KIND_TR101290_P2,
  MONITOR_KIND_NO_SCTE35,
  MONITOR_KIND_LOUDNESS_HIGH,
  MONITOR_KIND_LOUDNESS_LOW,
  MONITOR_KIND_TRUE_PEAK,
  MONITOR_KIND_NO_AUDIO,
  MONITOR_KIND_NO_CAPTIONS,
  MONITOR_N_KINDS
} MonitorKind;

/* One alarm kind of one channel. */
typedef struct
{
  gboolean enabled;
  gdouble onset;                /* s the condition lasts before the alarm */
  gdouble clear;                /* s it is gone before the alarm ends */
  /* silence: dBFS below which audio is silent; psnr-drop: dB; ssim-drop:
   * SSIM (all planes); vmaf-drop: VMAF (0-100); loudness-high / -low:
   * LUFS above / below which the short-term loudness is out of range
   * (the target +- the tolerance); true-peak: dBTP; unused by the
   * others. */
  gdouble level;
} MonitorKindSettings;

/* One alarm kind, in the one table of them (monitor-kinds.c). */
typedef struct
{
  const gchar *name;            /* the configuration's, the API's, events' */
  /* Decided by the element: the cudasharpness event kind (its start and
   * end messages, read with sharpness_event_message_parse), which applies
   * the onset itself; -1: decided by the monitor, from what it measures,
   * through analysis/sharpness-alarm.h's onset and clear hold-off. */
  gint element_kind;
  /* The element's property taking the onset (ns), and its `detect` flag
   * (NULL: always detected; the onset property's 0 turns it off). */
  const gchar *onset_property;
  const gchar *detect_flag;
  MonitorKindSettings defaults;
} MonitorKindInfo;

extern const MonitorKindInfo monitor_kinds[MONITOR_N_KINDS];

/* "blur", "black", "freeze", "silence", "no-signal", "psnr-drop",
 * "ssim-drop", "vmaf-drop", "tr101290-p1", "tr101290-p2", "no-scte35",
 * "loudness-high", "loudness-low", "true-peak", "no-audio",
 * "no-captions";
 * monitor_kind_from_name: -1 when unknown. */
const gchar *monitor_kind_name (MonitorKind kind);
gint monitor_kind_from_name (const gchar * name);
/* The monitor kind of the element's event kind @element_kind. */
MonitorKind monitor_kind_of_element (gint element_kind);

/* ETSI TR 101 290 on a channel's MPEG-TS (monitor-transport.c): the
 * limits of its timed indicators, in seconds (TR 101 290 V1.4.1 clause
 * 5.2's by default; PID_error's is the user's, 5 s by default). */
typedef struct
{
  gboolean enabled;
  gdouble pat_interval, pmt_interval, pid_interval;
  gdouble pcr_repetition, pcr_discontinuity, pts_interval;
} MonitorTransportConfig;

typedef struct
{
  gchar *name;
  gchar *uri;                   /* or NULL with a source fragment */
  gchar *source;                /* a GStreamer source fragment (config
                                 * file only), or NULL */
  guint line;                   /* where the configuration file names it */
  SharpnessMetric metric;
  gdouble threshold, relative_threshold;
  guint window, max_blurry_gap;
  gchar *tiles;                 /* "COLSxROWS" or NULL */
  gchar *roi_types;             /* or NULL */
  gchar *compare_with;          /* another channel's name, or NULL */
  /* The compared pair's VMAF too (cudacompare metrics=vmaf: far costlier
   * than PSNR and SSIM on the CPU, so asked for), with @vmaf_model (the
   * element's vmaf-model: a built-in name or a model file; NULL: the
   * element's default). */
  gboolean compare_vmaf;
  gchar *vmaf_model;
  /* black: the element's black-pixel-threshold and black-ratio;
   * freeze: its freeze-noise (dB). */
  gdouble black_pixel_threshold, black_ratio, freeze_noise;
  MonitorKindSettings kinds[MONITOR_N_KINDS];
  MonitorTransportConfig transport;
} MonitorChannelConfig;

void monitor_channel_config_defaults (MonitorChannelConfig * c);
/* @metric with its default thresholds (the scan tool's rule). */
void monitor_channel_config_set_metric (MonitorChannelConfig * c,
    gint metric);
MonitorChannelConfig *monitor_channel_config_copy (const MonitorChannelConfig
    * c);
void monitor_channel_config_free (MonitorChannelConfig * c);
/* The name of a channel given only as @uri: its file name, or host:port
 * (newly allocated). */
gchar *monitor_channel_name_from_uri (const gchar * uri);
/* Whether @uri's scheme is one the monitor takes ("udp", "rtp", "srt",
 * "rtsp", "http", "https", "file"); over HTTP, only these. */
gboolean monitor_uri_scheme_allowed (const gchar * uri);
/* The URI that the source element takes for @uri (monitor-multicast.c):
 * udp://SOURCE@GROUP:PORT becomes udpsrc's source-specific join
 * (?multicast-source=+SOURCE, GStreamer >= 1.24); FALSE with @error
 * where this GStreamer cannot join for one source.  Any other URI as it
 * is. */
gboolean monitor_uri_for_source (const gchar * uri, gchar ** out,
    GError ** error);

typedef struct
{
  GPtrArray *channels;          /* MonitorChannelConfig: this shard's */
  GPtrArray *all_channels;      /* every configured one (compare-with) */
  gchar *listen;                /* ADDR:PORT */
  gchar **allowed_hosts;        /* Host names answered besides the listen
                                 * address (--allowed-host), or NULL */
  gchar *api_token;             /* NULL: no mutating calls */
  gchar *events_path;           /* JSON lines, or NULL */
  guint64 events_max_bytes;     /* rotation size */
  guint events_keep;            /* rotated files kept */
  gchar **webhooks;
  gchar **alertmanagers;        /* base URLs */
  gint cuda_device_id;
  gboolean cpu;                 /* CPU decoding and scoring */
  gboolean decode_only;         /* no analysis: the benchmark's baseline */
  gboolean as_fast_as_possible; /* file:// not paced */
  gboolean loop;                /* file:// played again at its end */
  guint shard_i, shard_n;
  gdouble restart_after;        /* s without a frame before a restart */
  guint max_backoff;            /* s, the longest wait before a restart */
  guint thumbnail_width;
  guint udp_buffer_size;        /* bytes, each udpsrc's; 0: the system's */
  gboolean gpu_decode;          /* decided at start */
  gboolean quiet;
} MonitorSettings;

/* Parses the command line and the configuration file; returns -1 to go
 * on, else the exit status (a message was printed). */
gint monitor_options_parse (int *argc, char ***argv, MonitorSettings * s);

/* The configuration file (monitor-config.c): its channels appended to
 * @channels, each checked against @defaults-based settings.  Errors name
 * the file and line. */
gboolean monitor_config_load (const gchar * path, GPtrArray * channels,
    GError ** error);
/* Checks a channel's settings (names the line when @c->line). */
gboolean monitor_channel_config_check (const MonitorChannelConfig * c,
    const gchar * where, GError ** error);
/* The same without a place: FALSE with @error and, in @key, the
 * configuration key of the bad value ("threshold", "alarms: blur:
 * onset"; NULL where no one key is). */
gboolean monitor_channel_config_validate (const MonitorChannelConfig * c,
    const gchar ** key, GError ** error);
/* What a channel reads, checked without starting it: its source fragment
 * builds (every element, property and link) and can feed decodebin3; a
 * file:// channel's file exists and is readable. */
gboolean monitor_channel_config_check_input (const MonitorChannelConfig *
    c, const gchar * where, GError ** error);

typedef struct _Monitor Monitor;
typedef struct _MonitorChannel MonitorChannel;

G_END_DECLS
#endif /* MONITOR_H */
