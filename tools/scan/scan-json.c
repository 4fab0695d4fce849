/* sharpness-scan's JSON output (docs/scan-report.schema.json, versioned
 * by SCAN_SCHEMA_VERSION).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>

#include "scan.h"
#include "sharpness-tool-json.h"

#define ns_to_s scan_ns_to_s

#define json_string sharpness_json_string
#define json_number sharpness_json_number

void
scan_json_begin (GString * out)
{
  g_string_append_printf (out, "{\n  \"schema_version\": %d,\n  "
      "\"files\": [", SCAN_SCHEMA_VERSION);
}

void
scan_json_end (GString * out, gint signal, GPtrArray * not_scanned)
{
  g_string_append_printf (out, "\n  ],\n  \"interrupted\": %s,\n  "
      "\"signal\": ", signal ? "true" : "false");
  json_string (out, signal ? scan_signal_name (signal) : NULL);
  g_string_append (out, ",\n  \"not_scanned\": [");
  for (guint i = 0; not_scanned && i < not_scanned->len; i++) {
    g_string_append (out, i ? ", " : "");
    json_string (out, not_scanned->pdata[i]);
  }
  g_string_append (out, "]\n}\n");
}

static void
json_settings (GString * out, const ScanSettings * s)
{
  g_string_append (out, "{\"metrics\": [");
  for (guint m = 0; m < s->n_metrics; m++) {
    if (m)
      g_string_append (out, ", ");
    json_string (out, sharpness_metric_info[s->metrics[m]].nick);
  }
  g_string_append (out, "], \"rule_metric\": ");
  json_string (out, sharpness_metric_info[s->metrics[0]].nick);
  g_string_append (out, ", \"direction\": ");
  json_string (out, sharpness_metric_info[s->metrics[0]].direction ==
      SHARPNESS_LOWER_IS_SHARPER ? "lower-is-sharper" : "higher-is-sharper");
  g_string_append (out, ", \"threshold\": ");
  json_number (out, s->threshold);
  g_string_append (out, ", \"relative_threshold\": ");
  json_number (out, s->relative_threshold);
  g_string_append_printf (out, ", \"window\": %u, \"min_duration\": ",
      s->window);
  json_number (out, s->min_duration);
  g_string_append_printf (out, ", \"max_gap\": %u, \"backend\": \"%s\"}",
      s->max_gap, s->cpu ? "cpu" : "auto");
}

static void
json_stream (GString * out, const ScanFile * f)
{
  g_string_append_printf (out, "{\"width\": %d, \"height\": %d, "
      "\"framerate\": ", f->width, f->height);
  json_number (out, f->fps_n > 0 && f->fps_d > 0 ?
      (gdouble) f->fps_n / f->fps_d : NAN);
  g_string_append (out, ", \"duration\": ");
  json_number (out, ns_to_s (f->duration));
  g_string_append_printf (out, ", \"frames\": %" G_GUINT64_FORMAT
      ", \"codec\": ", scan_file_frames (f));
  json_string (out, f->codec);
  g_string_append (out, ", \"decoder\": ");
  json_string (out, f->decoder);
  g_string_append (out, ", \"format\": ");
  json_string (out, f->format);
  g_string_append (out, ", \"decoded_format\": ");
  json_string (out, f->decoded_format);
  g_string_append_printf (out, ", \"memory\": \"%s\", \"interlaced\": %s"
      ", \"orientation\": ", f->cuda_memory ? "cuda" : "system",
      f->interlaced ? "true" : "false");
  json_string (out, f->orientation);
  g_string_append (out, ", \"sizes\": [");
  for (guint i = 0; i < f->sizes->len; i++) {
    const ScanSize *sz = &g_array_index (f->sizes, ScanSize, i);
    g_string_append_printf (out, "%s{\"frame\": %" G_GUINT64_FORMAT
        ", \"width\": %d, \"height\": %d}", i ? ", " : "", sz->frame,
        sz->width, sz->height);
  }
  g_string_append_printf (out, "], \"video_streams\": %u}",
      MAX (f->video_streams, 1));
}

/* Stream time of frame @i in seconds, or NaN. */
static gdouble
frame_time (const ScanFile * f, guint64 i)
{
  if (i >= scan_file_frames (f))
    return NAN;
  return ns_to_s (g_array_index (f->frames, ScanFrame, i).pts);
}

static void
json_segment (GString * out, const ScanFile * f, const ScanSegment * ss)
{
  const SharpnessSegment *s = &ss->seg;

  g_string_append (out, "{\"start\": ");
  json_number (out, ns_to_s (s->start));
  g_string_append (out, ", \"end\": ");
  json_number (out, ns_to_s (s->end));
  g_string_append_printf (out, ", \"start_frame\": %" G_GUINT64_FORMAT
      ", \"end_frame\": %" G_GUINT64_FORMAT ", \"duration\": ",
      s->start_frame, s->end_frame);
  json_number (out, sharpness_segment_duration (s) / (gdouble) GST_SECOND);
  g_string_append_printf (out, ", \"frames\": %" G_GUINT64_FORMAT
      ", \"blurry_frames\": %" G_GUINT64_FORMAT ", \"min_score\": ",
      s->frames, s->blurry_frames);
  json_number (out, s->min_score);
  g_string_append (out, ", \"mean_score\": ");
  json_number (out, sharpness_segment_mean (s));
  g_string_append (out, ", \"max_score\": ");
  json_number (out, s->max_score);
  g_string_append_printf (out, ", \"worst_frame\": %" G_GUINT64_FORMAT
      ", \"worst_time\": ", s->worst_frame);
  json_number (out, frame_time (f, s->worst_frame));
  g_string_append (out, ", \"worst_score\": ");
  json_number (out, s->worst_score);
  g_string_append_printf (out, ", \"damaged\": %s}", ss->damaged ? "true" :
      "false");
}

static void
json_summary (GString * out, const ScanFile * f)
{
  const ScanSettings *st = f->settings;
  guint64 n = scan_file_frames (f), blurry = 0;
  gdouble secs = scan_file_seconds (f), bsecs = scan_file_blurry_seconds (f);

  for (guint64 i = 0; i < n; i++)
    blurry += g_array_index (f->frames, ScanFrame, i).blurry;
  g_string_append_printf (out, "{\"frames\": %" G_GUINT64_FORMAT
      ", \"blurry_frames\": %" G_GUINT64_FORMAT ", \"segments\": %u"
      ", \"blurry_duration\": ", n, blurry, f->segments->len);
  json_number (out, bsecs);
  g_string_append (out, ", \"blurry_fraction\": ");
  json_number (out, secs > 0 ? bsecs / secs : 0.0);
  g_string_append (out, ", \"scores\": {");
  for (guint m = 0; m < st->n_metrics; m++) {
    gdouble sum = 0, mn = INFINITY, mx = -INFINITY;
    guint64 k = 0;

    for (guint64 i = 0; i < n; i++) {
      gdouble v = scan_file_score (f, i, m);
      if (!isfinite (v))
        continue;
      sum += v;
      mn = MIN (mn, v);
      mx = MAX (mx, v);
      k++;
    }
    if (m)
      g_string_append (out, ", ");
    json_string (out, sharpness_metric_info[st->metrics[m]].nick);
    g_string_append_printf (out, ": {\"scored\": %" G_GUINT64_FORMAT
        ", \"mean\": ", k);
    json_number (out, k ? sum / k : NAN);
    g_string_append (out, ", \"min\": ");
    json_number (out, k ? mn : NAN);
    g_string_append (out, ", \"max\": ");
    json_number (out, k ? mx : NAN);
    g_string_append_c (out, '}');
  }
  g_string_append (out, "}, \"elapsed\": ");
  json_number (out, f->elapsed);
  g_string_append (out, ", \"fps\": ");
  json_number (out, f->elapsed > 0 ? n / f->elapsed : NAN);
  g_string_append_c (out, '}');
}

static void
json_damage (GString * out, const ScanFile * f)
{
  g_string_append_printf (out, "{\"lost_frames\": %" G_GUINT64_FORMAT
      ", \"corrupted_frames\": %" G_GUINT64_FORMAT ", \"decoding_warnings"
      "\": %u, \"stretches\": [", f->lost_frames, f->corrupted_frames,
      f->decoding_warnings);
  for (guint i = 0; i < f->damage->len; i++) {
    const ScanDamage *d = &g_array_index (f->damage, ScanDamage, i);
    g_string_append (out, i ? ", {\"start\": " : "{\"start\": ");
    json_number (out, ns_to_s (d->start));
    g_string_append (out, ", \"end\": ");
    json_number (out, ns_to_s (d->end));
    g_string_append_printf (out, ", \"first_frame\": %" G_GUINT64_FORMAT
        ", \"last_frame\": %" G_GUINT64_FORMAT ", \"lost_frames\": %"
        G_GUINT64_FORMAT ", \"corrupted_frames\": %" G_GUINT64_FORMAT "}",
        d->first_frame, d->last_frame, d->lost_frames, d->corrupted_frames);
  }
  g_string_append (out, "]}");
}

static void
json_image (GString * out, const ScanFile * f)
{
  gint verdict = scan_file_image_verdict (f);

  g_string_append (out, "{\"score\": ");
  json_number (out, scan_file_frames (f) ? scan_file_score (f, 0, 0) : NAN);
  g_string_append_printf (out, ", \"blurry\": %s}", verdict < 0 ? "null" :
      verdict ? "true" : "false");
}

static const gchar *
stop_name (ScanStop stop)
{
  switch (stop) {
    case SCAN_STOP_DURATION:
      return "duration";
    case SCAN_STOP_MAX_FRAMES:
      return "max-frames";
    case SCAN_STOP_SIGNAL:
      return "signal";
    default:
      return NULL;
  }
}

void
scan_json_file (GString * out, const ScanFile * f, gboolean first)
{
  g_string_append (out, first ? "\n    {" : ",\n    {");
  g_string_append (out, "\"input\": ");
  json_string (out, f->input);
  g_string_append (out, ", \"uri\": ");
  json_string (out, f->uri);
  g_string_append_printf (out, ", \"kind\": \"%s\"",
      f->kind == SCAN_KIND_IMAGE ? "image" : "video");
  g_string_append (out, ",\n     \"settings\": ");
  json_settings (out, f->settings);
  g_string_append (out, ",\n     \"stream\": ");
  if (f->error && scan_file_frames (f) == 0)
    g_string_append (out, "null");
  else
    json_stream (out, f);
  g_string_append (out, ",\n     \"segments\": [");
  for (guint i = 0; i < f->segments->len; i++) {
    g_string_append (out, i ? ",\n       " : "\n       ");
    json_segment (out, f, &g_array_index (f->segments, ScanSegment, i));
  }
  g_string_append (out, f->segments->len ? "\n     ]" : "]");
  g_string_append (out, ",\n     \"image\": ");
  if (f->kind == SCAN_KIND_IMAGE)
    json_image (out, f);
  else
    g_string_append (out, "null");
  g_string_append (out, ",\n     \"summary\": ");
  if (f->error)
    g_string_append (out, "null");
  else
    json_summary (out, f);
  g_string_append_printf (out, ",\n     \"damaged\": %s, \"damage\": ",
      scan_file_damaged (f) ? "true" : "false");
  json_damage (out, f);
  g_string_append (out, ",\n     \"notes\": [");
  for (guint i = 0; i < f->notes->len; i++) {
    g_string_append (out, i ? ", " : "");
    json_string (out, f->notes->pdata[i]);
  }
  g_string_append_printf (out, "], \"interrupted\": %s, \"stopped_by\": ",
      f->stopped == SCAN_STOP_SIGNAL ? "true" : "false");
  json_string (out, stop_name (f->stopped));
  g_string_append (out, ",\n     \"error\": ");
  json_string (out, f->error);
  g_string_append_c (out, '}');
}
