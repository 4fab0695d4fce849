/* sharpness-monitor's /metrics: Prometheus' text format, names and units
 * by its rules (docs/reference/sharpness-monitor.md lists them).  No label per frame, tile or
 * ROI: one series per channel (and kind, reason), one latency histogram
 * per device.  Each channel's counters are copied under its lock (the
 * copy is the only thing done under it) and written afterwards.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>

#include "monitor-app.h"

/* A label value: backslash, double quote and newline escaped. */
static void
label (GString * out, const gchar * v)
{
  g_string_append_c (out, '"');
  for (const gchar * p = v; *p; p++) {
    if (*p == '\\' || *p == '"')
      g_string_append_c (out, '\\');
    if (*p == '\n')
      g_string_append (out, "\\n");
    else
      g_string_append_c (out, *p);
  }
  g_string_append_c (out, '"');
}

static void
head (GString * out, const gchar * name, const gchar * type,
    const gchar * help)
{
  g_string_append_printf (out, "# HELP %s %s\n# TYPE %s %s\n", name, help,
      name, type);
}

static void
value (GString * out, gdouble v)
{
  if (isnan (v))
    g_string_append (out, " NaN\n");
  else if (isinf (v))
    g_string_append (out, v > 0 ? " +Inf\n" : " -Inf\n");
  else
    g_string_append_printf (out, " %.10g\n", v);
}

static void
series (GString * out, const gchar * name, const gchar * channel,
    const gchar * k2, const gchar * v2, gdouble v)
{
  g_string_append_printf (out, "%s{channel=", name);
  label (out, channel);
  if (k2) {
    g_string_append_printf (out, ",%s=", k2);
    label (out, v2);
  }
  g_string_append_c (out, '}');
  value (out, v);
}

void
monitor_metrics_render (Monitor * m, GString * out)
{
  guint n = m->channels->len;
  MonitorChannelStats *st = g_new (MonitorChannelStats, MAX (n, 1));
  guint64 lat[MONITOR_LATENCY_BUCKETS + 1] = { 0 }, lat_count = 0;
  gdouble lat_sum = 0;

  for (guint i = 0; i < n; i++)
    monitor_channel_snapshot (g_ptr_array_index (m->channels, i), &st[i]);

  head (out, "sharpness_build_info", "gauge", "Build of sharpness-monitor "
      "(version, device: cpu or cuda:N).");
  g_string_append_printf (out, "sharpness_build_info{version=\"%s\","
      "device=\"%s\"} 1\n", VERSION, m->device_label);

  head (out, "sharpness_channel_up", "gauge", "1 while the channel's frames "
      "flow, else 0 (starting, retrying, finished).");
  for (guint i = 0; i < n; i++) {
    MonitorChannel *c = g_ptr_array_index (m->channels, i);
    series (out, "sharpness_channel_up", c->cfg->name, NULL, NULL,
        c->state == MONITOR_CHANNEL_UP && c->pipeline ? 1 : 0);
  }

#define COUNTER(metric, help, field) \
  head (out, metric, "counter", help); \
  for (guint i = 0; i < n; i++) { \
    MonitorChannel *c = g_ptr_array_index (m->channels, i); \
    series (out, metric, c->cfg->name, NULL, NULL, (gdouble) st[i].field); \
  }
  COUNTER ("sharpness_frames_decoded_total", "Frames decoded.", decoded);
  COUNTER ("sharpness_frames_scored_total", "Frames scored.", scored);
  COUNTER ("sharpness_blurry_frames_total", "Frames flagged blurry.",
      blurry);
#undef COUNTER

  head (out, "sharpness_frames_dropped_total", "counter", "Frames dropped "
      "before analysis, by reason.");
  for (guint i = 0; i < n; i++) {
    MonitorChannel *c = g_ptr_array_index (m->channels, i);
    for (gint r = 0; r < MONITOR_N_DROP_REASONS; r++)
      series (out, "sharpness_frames_dropped_total", c->cfg->name, "reason",
          monitor_drop_reason_name (r), (gdouble) st[i].dropped[r]);
  }

  head (out, "sharpness_score", "gauge", "The last frame's score.");
  for (guint i = 0; i < n; i++) {
    MonitorChannel *c = g_ptr_array_index (m->channels, i);
    series (out, "sharpness_score", c->cfg->name, "metric",
        sharpness_metric_info[c->cfg->metric].nick, st[i].score);
  }

  head (out, "sharpness_frame_score", "histogram", "Frame scores; buckets "
      "around the channel's threshold (decades without one).");
  for (guint i = 0; i < n; i++) {
    MonitorChannel *c = g_ptr_array_index (m->channels, i);
    gboolean decades = c->cfg->threshold <= 0;
    guint64 cum = 0;

    for (guint b = 0; b <= MONITOR_SCORE_BUCKETS; b++) {
      gchar le[32];
      cum += st[i].score_buckets[b];
      if (b < MONITOR_SCORE_BUCKETS)
        g_ascii_formatd (le, sizeof (le), "%.6g", decades ?
            monitor_score_bucket_decades[b] :
            monitor_score_bucket_factors[b] * c->cfg->threshold);
      else
        g_strlcpy (le, "+Inf", sizeof (le));
      series (out, "sharpness_frame_score_bucket", c->cfg->name, "le", le,
          (gdouble) cum);
    }
    series (out, "sharpness_frame_score_sum", c->cfg->name, NULL, NULL,
        st[i].score_sum);
    series (out, "sharpness_frame_score_count", c->cfg->name, NULL, NULL,
        (gdouble) cum);
  }

  head (out, "sharpness_alarm_active", "gauge", "1 while the alarm of this "
      "kind is on.");
  for (guint i = 0; i < n; i++) {
    MonitorChannel *c = g_ptr_array_index (m->channels, i);
    for (gint k = 0; k < MONITOR_N_KINDS; k++)
      if (c->cfg->kinds[k].enabled)
        series (out, "sharpness_alarm_active", c->cfg->name, "kind",
            monitor_kind_name (k), c->alarms.kinds[k].active);
  }
  head (out, "sharpness_alarm_events_total", "counter", "Alarms raised (one "
      "per start event).");
  for (guint i = 0; i < n; i++) {
    MonitorChannel *c = g_ptr_array_index (m->channels, i);
    for (gint k = 0; k < MONITOR_N_KINDS; k++)
      if (c->cfg->kinds[k].enabled)
        series (out, "sharpness_alarm_events_total", c->cfg->name, "kind",
            monitor_kind_name (k), (gdouble) c->alarms.kinds[k].events_total);
  }
  head (out, "sharpness_alarm_last_change_timestamp_seconds", "gauge",
      "When the alarm last started or ended (Unix time), 0 never.");
  for (guint i = 0; i < n; i++) {
    MonitorChannel *c = g_ptr_array_index (m->channels, i);
    for (gint k = 0; k < MONITOR_N_KINDS; k++)
      if (c->cfg->kinds[k].enabled)
        series (out, "sharpness_alarm_last_change_timestamp_seconds",
            c->cfg->name, "kind", monitor_kind_name (k),
            c->alarms.kinds[k].last_change_us / 1e6);
  }
  head (out, "sharpness_source_restarts_total", "counter", "Pipelines "
      "rebuilt after a failure (each attempt).");
  for (guint i = 0; i < n; i++) {
    MonitorChannel *c = g_ptr_array_index (m->channels, i);
    series (out, "sharpness_source_restarts_total", c->cfg->name, NULL,
        NULL, (gdouble) c->restarts);
  }
  head (out, "sharpness_source_reconnects_total", "counter", "Failures "
      "after which the channel's frames came back.");
  for (guint i = 0; i < n; i++) {
    MonitorChannel *c = g_ptr_array_index (m->channels, i);
    series (out, "sharpness_source_reconnects_total", c->cfg->name, NULL,
        NULL, (gdouble) c->reconnects);
  }

  /* TR 101 290: channels whose input is (or was) MPEG-TS, one series per
   * indicator, none per PID (a multiplex has hundreds). */
  {
    MonitorTransportStats *ts = g_new0 (MonitorTransportStats, MAX (n, 1));

    for (guint i = 0; i < n; i++) {
      MonitorChannel *c = g_ptr_array_index (m->channels, i);
      if (c->transport)
        monitor_transport_snapshot (c->transport, &ts[i]);
    }
    head (out, "sharpness_tr101290_errors_total", "counter", "ETSI TR 101 "
        "290 priority 1 and 2 errors counted on the channel's MPEG-TS, by "
        "indicator.");
    for (guint i = 0; i < n; i++) {
      MonitorChannel *c = g_ptr_array_index (m->channels, i);
      for (gint k = 0; ts[i].seen && k < SHARPNESS_TR101290_N_INDICATORS; k++)
        series (out, "sharpness_tr101290_errors_total", c->cfg->name,
            "indicator", monitor_transport_indicator_name (k),
            (gdouble) ts[i].errors[k]);
    }
    /* In bytes, Prometheus' base unit (promtool refuses bits): the bit
     * rate is 8 times it (the API's "bitrate" is in bit/s). */
    head (out, "sharpness_ts_rate_bytes_per_second", "gauge", "The "
        "channel's MPEG-TS rate over the last second of the stream (all "
        "PIDs, null packets too).");
    for (guint i = 0; i < n; i++) {
      MonitorChannel *c = g_ptr_array_index (m->channels, i);
      if (ts[i].seen)
        series (out, "sharpness_ts_rate_bytes_per_second", c->cfg->name,
            NULL, NULL, ts[i].bitrate / 8);
    }
    /* ANSI/SCTE 35: channels whose transport carries it. */
    head (out, "sharpness_scte35_commands_total", "counter", "ANSI/SCTE 35 "
        "splice_info_sections read on the channel's MPEG-TS, by command "
        "(encrypted: its command is ciphertext).");
    for (guint i = 0; i < n; i++) {
      MonitorChannel *c = g_ptr_array_index (m->channels, i);
      for (gint k = 0; monitor_transport_has_scte35 (&ts[i]) &&
          k < SHARPNESS_SCTE35_N_COUNTS; k++)
        series (out, "sharpness_scte35_commands_total", c->cfg->name,
            "command", sharpness_scte35_count_name (k),
            (gdouble) ts[i].scte35[k]);
    }
    head (out, "sharpness_scte35_errors_total", "counter", "ANSI/SCTE 35 "
        "splice_info_sections not read, by error (crc_error: CRC_32 wrong; "
        "malformed).");
    for (guint i = 0; i < n; i++) {
      MonitorChannel *c = g_ptr_array_index (m->channels, i);
      for (gint k = SHARPNESS_SCTE35_CRC_ERROR;
          monitor_transport_has_scte35 (&ts[i]) &&
          k < SHARPNESS_SCTE35_N_RESULTS; k++)
        series (out, "sharpness_scte35_errors_total", c->cfg->name,
            "error", sharpness_scte35_result_name (k),
            (gdouble) ts[i].scte35_errors[k]);
    }
    head (out, "sharpness_ts_sync", "gauge", "1 while the channel's MPEG-TS "
        "is in sync (TR 101 290 1.1), else 0.");
    for (guint i = 0; i < n; i++) {
      MonitorChannel *c = g_ptr_array_index (m->channels, i);
      if (ts[i].seen)
        series (out, "sharpness_ts_sync", c->cfg->name, NULL, NULL,
            ts[i].in_sync);
    }
    g_free (ts);
  }

  /* Loudness: channels whose audio is measured. */
  {
    MonitorLoudnessReading *lr = g_new0 (MonitorLoudnessReading, MAX (n, 1));
    static const struct
    {
      const gchar *name, *help;
      gsize offset;
    } gauges[] = {
      {"sharpness_loudness_momentary_lufs", "Momentary loudness (400 ms, "
            "ITU-R BS.1770-4) of the channel's first audio stream, -Inf "
            "below the absolute gate.",
          G_STRUCT_OFFSET (MonitorLoudnessReading, momentary)},
      {"sharpness_loudness_short_term_lufs", "Short-term loudness (3 s).",
          G_STRUCT_OFFSET (MonitorLoudnessReading, short_term)},
      {"sharpness_loudness_integrated_lufs", "Integrated (gated) loudness "
            "since the stream started (EBU R 128).",
          G_STRUCT_OFFSET (MonitorLoudnessReading, integrated)},
      {"sharpness_loudness_range_lu", "Loudness range (EBU Tech 3342) since "
            "the stream started.",
          G_STRUCT_OFFSET (MonitorLoudnessReading, range)},
      {"sharpness_true_peak_dbtp", "True peak (ITU-R BS.1770-4 annex 2, all "
            "channels) since the stream started.",
          G_STRUCT_OFFSET (MonitorLoudnessReading, true_peak)},
    };

    for (guint i = 0; i < n; i++)
      monitor_loudness_peek (((MonitorChannel *) g_ptr_array_index
              (m->channels, i))->loudness, &lr[i]);
    for (guint g = 0; g < G_N_ELEMENTS (gauges); g++) {
      head (out, gauges[g].name, "gauge", gauges[g].help);
      for (guint i = 0; i < n; i++) {
        MonitorChannel *c = g_ptr_array_index (m->channels, i);
        if (lr[i].measured)
          series (out, gauges[g].name, c->cfg->name, NULL, NULL,
              G_STRUCT_MEMBER (gdouble, &lr[i], gauges[g].offset));
      }
    }
    g_free (lr);
  }

  /* Captions: every channel's counts (0 where it has none), and the time
   * since the last one where one came. */
  {
    MonitorCaptionsStats *cs = g_new0 (MonitorCaptionsStats, MAX (n, 1));
    gint64 now_us = g_get_monotonic_time ();

    for (guint i = 0; i < n; i++)
      monitor_captions_snapshot (((MonitorChannel *) g_ptr_array_index
              (m->channels, i))->captions, &cs[i]);
    head (out, "sharpness_caption_packets_total", "counter", "Valid "
        "CEA-608/708 cc_data packets (cc_valid set) on the channel's "
        "pictures, by type (CEA-608 field 1 or 2, CEA-708 DTVCC).");
    for (guint i = 0; i < n; i++) {
      MonitorChannel *c = g_ptr_array_index (m->channels, i);
      for (gint t = 0; t < MONITOR_CAPTION_N_TYPES; t++)
        series (out, "sharpness_caption_packets_total", c->cfg->name,
            "type", monitor_caption_type_name (t),
            (gdouble) cs[i].packets[t]);
    }
    head (out, "sharpness_caption_frames_total", "counter", "Pictures "
        "carrying at least one valid caption packet.");
    for (guint i = 0; i < n; i++)
      series (out, "sharpness_caption_frames_total", ((MonitorChannel *)
              g_ptr_array_index (m->channels, i))->cfg->name, NULL, NULL,
          (gdouble) cs[i].frames);
    head (out, "sharpness_caption_age_seconds", "gauge", "Seconds since "
        "the last picture with captions (none before the first).");
    for (guint i = 0; i < n; i++)
      if (cs[i].last_caption_us)
        series (out, "sharpness_caption_age_seconds", ((MonitorChannel *)
                g_ptr_array_index (m->channels, i))->cfg->name, NULL, NULL,
            (now_us - cs[i].last_caption_us) / 1e6);
    g_free (cs);
  }

  head (out, "sharpness_compare_psnr_decibels", "gauge", "PSNR (average of "
      "the planes) of the last compared pair.");
  for (guint i = 0; i < n; i++) {
    MonitorChannel *c = g_ptr_array_index (m->channels, i);
    if (c->cfg->compare_with)
      series (out, "sharpness_compare_psnr_decibels", c->cfg->name,
          "reference", c->cfg->compare_with, st[i].psnr);
  }
  head (out, "sharpness_compare_ssim", "gauge", "SSIM (all planes) of the "
      "last compared pair.");
  for (guint i = 0; i < n; i++) {
    MonitorChannel *c = g_ptr_array_index (m->channels, i);
    if (c->cfg->compare_with)
      series (out, "sharpness_compare_ssim", c->cfg->name, "reference",
          c->cfg->compare_with, st[i].ssim);
  }
  head (out, "sharpness_compare_vmaf", "gauge", "VMAF (0-100, the channel's "
      "vmaf-model) of the last compared frame whose score is known (one "
      "frame behind the pair), where compare-vmaf is on.");
  for (guint i = 0; i < n; i++) {
    MonitorChannel *c = g_ptr_array_index (m->channels, i);
    if (c->cfg->compare_with && c->cfg->compare_vmaf)
      series (out, "sharpness_compare_vmaf", c->cfg->name, "reference",
          c->cfg->compare_with, st[i].vmaf);
  }

  for (guint i = 0; i < n; i++) {
    for (guint b = 0; b <= MONITOR_LATENCY_BUCKETS; b++)
      lat[b] += st[i].latency_buckets[b];
    lat_sum += st[i].latency_sum;
    lat_count += st[i].latency_count;
  }
  head (out, "sharpness_processing_latency_seconds", "histogram", "From a "
      "frame's due time on its pipeline's clock to its score, per device.");
  {
    guint64 cum = 0;
    for (guint b = 0; b <= MONITOR_LATENCY_BUCKETS; b++) {
      cum += lat[b];
      g_string_append_printf (out, "sharpness_processing_latency_seconds_"
          "bucket{device=\"%s\",le=\"", m->device_label);
      if (b < MONITOR_LATENCY_BUCKETS)
        g_string_append_printf (out, "%g\"}", monitor_latency_buckets[b]);
      else
        g_string_append (out, "+Inf\"}");
      g_string_append_printf (out, " %" G_GUINT64_FORMAT "\n", cum);
    }
    g_string_append_printf (out, "sharpness_processing_latency_seconds_sum{"
        "device=\"%s\"}", m->device_label);
    value (out, lat_sum);
    g_string_append_printf (out, "sharpness_processing_latency_seconds_"
        "count{device=\"%s\"} %" G_GUINT64_FORMAT "\n", m->device_label,
        lat_count);
  }

  head (out, "sharpness_event_log_errors_total", "counter", "Event-log "
      "writes that failed.");
  g_string_append_printf (out, "sharpness_event_log_errors_total %"
      G_GUINT64_FORMAT "\n", monitor_events_log_errors (m->events));
  monitor_webhooks_metrics (m->webhooks, out);
  head (out, "sharpness_http_connections", "gauge", "Open connections to "
      "this HTTP server (at most 512; silent ones closed after 10 s).");
  g_string_append_printf (out, "sharpness_http_connections %u\n",
      monitor_http_connections (m->http));
  g_free (st);
}
