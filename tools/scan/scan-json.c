/* sharpness-scan's JSON output (docs/reference/scan-report.schema.json, versioned
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
#include "scan-setup.h"
#include "sharpness-tool-json.h"

#define ns_to_s scan_ns_to_s

#define json_string sharpness_json_string
#define json_number sharpness_json_number

/* Every bit of a double, for the numbers a merge reads back. */
static void
json_exact (GString * out, gdouble v)
{
  if (isfinite (v))
    g_string_append_printf (out, "%.17g", v);
  else
    g_string_append (out, "null");
}

/* Stream time @t counted from the file's first frame, in seconds with
 * every nanosecond; null for NONE. */
static void
json_time (GString * out, const ScanFile * f, guint64 t)
{
  if (t == GST_CLOCK_TIME_NONE || f->start_time == GST_CLOCK_TIME_NONE)
    g_string_append (out, "null");
  else
    scan_append_ns_as_seconds (out, (gint64) (t - f->start_time));
}

/* A duration in ns, in seconds; null for NONE. */
static void
json_duration (GString * out, guint64 d)
{
  if (d == GST_CLOCK_TIME_NONE)
    g_string_append (out, "null");
  else
    scan_append_ns_as_seconds (out, (gint64) d);
}

void
scan_json_begin (GString * out, const ScanSettings * s)
{
  g_string_append_printf (out, "{\n  \"schema_version\": %d,\n  "
      "\"shard\": {\"index\": %u, \"count\": %u, \"inputs\": %u},\n  "
      "\"files\": [", SCAN_SCHEMA_VERSION, s->shard_i, MAX (s->shard_n, 1),
      s->inputs_total);
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
  gchar *detect = scan_content_detect_list (s->detect);

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
  g_string_append_printf (out, ", \"max_gap\": %u, \"backend\": \"%s\"",
      s->max_gap, s->cpu ? "cpu" : "auto");
  g_string_append (out, ",\n       \"detect\": ");
  json_string (out, detect);
  g_string_append_printf (out, ", \"flat\": %s, \"black_pixel_threshold\": ",
      s->detect & SHARPNESS_DETECT_FLAT ? "true" : "false");
  json_number (out, s->black_pixel_threshold);
  g_string_append (out, ", \"black_ratio\": ");
  json_number (out, s->black_ratio);
  g_string_append (out, ", \"black_min_duration\": ");
  json_duration (out, s->black_min_duration);
  g_string_append (out, ", \"freeze_noise\": ");
  json_number (out, s->freeze_noise);
  g_string_append (out, ", \"freeze_min_duration\": ");
  json_duration (out, s->freeze_min_duration);
  g_string_append (out, ", \"flat_threshold\": ");
  json_number (out, s->flat_threshold);
  g_string_append (out, ", \"max_duration\": ");
  json_number (out, s->max_duration > 0 ? s->max_duration : NAN);
  g_string_append (out, ", \"max_frames\": ");
  if (s->max_frames)
    g_string_append_printf (out, "%" G_GUINT64_FORMAT, s->max_frames);
  else
    g_string_append (out, "null");
  g_string_append_c (out, '}');
  g_free (detect);
}

static void
json_stream (GString * out, const ScanFile * f)
{
  g_string_append_printf (out, "{\"width\": %d, \"height\": %d, "
      "\"framerate\": ", f->width, f->height);
  json_number (out, f->fps_n > 0 && f->fps_d > 0 ?
      (gdouble) f->fps_n / f->fps_d : NAN);
  if (f->fps_n > 0 && f->fps_d > 0)
    g_string_append_printf (out, ", \"framerate_fraction\": [%d, %d]",
        f->fps_n, f->fps_d);
  else
    g_string_append (out, ", \"framerate_fraction\": null");
  g_string_append (out, ", \"duration\": ");
  json_number (out, ns_to_s (f->duration));
  g_string_append (out, ", \"start_time\": ");
  json_duration (out, f->start_time);
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

/* Frames flagged blurry from @a to @b. */
static guint64
blurry_frames (const ScanFile * f, guint64 a, guint64 b)
{
  guint64 n = 0;

  for (guint64 i = a; i <= b && i < scan_file_frames (f); i++)
    n += g_array_index (f->frames, ScanFrame, i).blurry;
  return n;
}

static void
json_segment (GString * out, const ScanFile * f, const ScanSegment * ss)
{
  g_string_append (out, "{\"kind\": ");
  json_string (out, sharpness_event_kind_name (ss->kind));
  g_string_append (out, ", \"start\": ");
  json_time (out, f, ss->start);
  g_string_append (out, ", \"end\": ");
  json_time (out, f, ss->end);
  g_string_append_printf (out, ", \"start_frame\": %" G_GUINT64_FORMAT
      ", \"end_frame\": %" G_GUINT64_FORMAT ", \"duration\": ",
      ss->start_frame, ss->end_frame);
  json_duration (out, ss->duration);
  g_string_append_printf (out, ", \"frames\": %" G_GUINT64_FORMAT
      ", \"kind_frames\": %" G_GUINT64_FORMAT ", \"blurry_frames\": %"
      G_GUINT64_FORMAT ", \"scored_frames\": %" G_GUINT64_FORMAT
      ", \"min_score\": ", ss->end_frame - ss->start_frame + 1,
      ss->kind_frames, blurry_frames (f, ss->start_frame, ss->end_frame),
      ss->scored_frames);
  json_number (out, ss->min);
  g_string_append (out, ", \"mean_score\": ");
  json_number (out, ss->mean);
  g_string_append (out, ", \"max_score\": ");
  json_number (out, ss->max);
  if (ss->scored_frames)
    g_string_append_printf (out, ", \"worst_frame\": %" G_GUINT64_FORMAT
        ", \"worst_time\": ", ss->worst_frame);
  else
    g_string_append (out, ", \"worst_frame\": null, \"worst_time\": ");
  json_number (out, ss->scored_frames ? scan_file_frame_time (f,
          ss->worst_frame) : NAN);
  g_string_append (out, ", \"worst_score\": ");
  json_number (out, ss->worst_score);
  if (ss->thumb_frame != G_MAXUINT64)
    g_string_append_printf (out, ", \"thumbnail_frame\": %" G_GUINT64_FORMAT,
        ss->thumb_frame);
  else
    g_string_append (out, ", \"thumbnail_frame\": null");
  g_string_append_printf (out, ", \"damaged\": %s", ss->damaged ? "true" :
      "false");
  if (f->settings->json_full) {
    g_string_append (out, ",\n        \"thumbnail\": ");
    json_string (out, ss->jpeg_base64);
    g_string_append (out, ", \"crop\": ");
    json_string (out, ss->crop_base64);
  }
  g_string_append_c (out, '}');
}

static void
json_summary (GString * out, const ScanFile * f)
{
  const ScanSettings *st = f->settings;
  guint64 n = scan_file_frames (f), blurry = 0;
  guint64 states[SHARPNESS_CONTENT_N_STATES] = { 0 };
  gdouble secs = scan_file_seconds (f), bsecs = scan_file_blurry_seconds (f);

  for (guint64 i = 0; i < n; i++) {
    const ScanFrame *fr = &g_array_index (f->frames, ScanFrame, i);
    blurry += fr->blurry;
    if (fr->state < SHARPNESS_CONTENT_N_STATES)
      states[fr->state]++;
  }
  g_string_append_printf (out, "{\"frames\": %" G_GUINT64_FORMAT
      ", \"blurry_frames\": %" G_GUINT64_FORMAT ", \"segments\": %u"
      ", \"blurry_duration\": ", n, blurry,
      scan_file_kind_segments (f, SHARPNESS_EVENT_BLUR));
  json_number (out, bsecs);
  g_string_append (out, ", \"blurry_fraction\": ");
  json_number (out, secs > 0 ? bsecs / secs : 0.0);
  g_string_append_printf (out, ", \"black_segments\": %u, "
      "\"black_duration\": ", scan_file_kind_segments (f,
          SHARPNESS_EVENT_BLACK));
  json_number (out, scan_file_kind_seconds (f, SHARPNESS_EVENT_BLACK));
  g_string_append_printf (out, ", \"frozen_segments\": %u, "
      "\"frozen_duration\": ", scan_file_kind_segments (f,
          SHARPNESS_EVENT_FREEZE));
  json_number (out, scan_file_kind_seconds (f, SHARPNESS_EVENT_FREEZE));
  g_string_append (out, ", \"states\": {");
  for (guint k = 0; k < SHARPNESS_CONTENT_N_STATES; k++)
    g_string_append_printf (out, "%s\"%s\": %" G_GUINT64_FORMAT, k ? ", " :
        "", sharpness_content_state_name (k), states[k]);
  g_string_append (out, "}, \"scores\": {");
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
  json_exact (out, f->elapsed);
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
    json_time (out, f, d->start);
    g_string_append (out, ", \"end\": ");
    json_time (out, f, d->end);
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
  g_string_append_printf (out, ", \"blurry\": %s", verdict < 0 ? "null" :
      verdict ? "true" : "false");
  if (f->settings->json_full) {
    g_string_append (out, ", \"thumbnail\": ");
    json_string (out, f->image_base64);
  }
  g_string_append_c (out, '}');
}

/* --json-full: every frame, one array per column, numbers exact. */
static void
json_frames (GString * out, const ScanFile * f)
{
  const ScanSettings *st = f->settings;
  guint64 n = scan_file_frames (f);

#define EACH_FRAME(name, ...) G_STMT_START { \
    g_string_append (out, name); \
    for (guint64 i = 0; i < n; i++) { \
      const ScanFrame *fr = &g_array_index (f->frames, ScanFrame, i); \
      if (i) \
        g_string_append_c (out, ','); \
      __VA_ARGS__; \
    } \
    g_string_append_c (out, ']'); } G_STMT_END

  EACH_FRAME ("{\"time\": [", json_time (out, f, fr->pts));
  g_string_append (out, ",\n       \"scores\": {");
  for (guint m = 0; m < st->n_metrics; m++) {
    if (m)
      g_string_append (out, ",\n        ");
    json_string (out, sharpness_metric_info[st->metrics[m]].nick);
    EACH_FRAME (": [", (void) fr; json_exact (out, scan_file_score (f, i,
                m)));
  }
  g_string_append_c (out, '}');
  EACH_FRAME (",\n       \"blurry\": [", g_string_append_c (out,
          fr->blurry ? '1' : '0'));
  EACH_FRAME (",\n       \"state\": [", json_string (out,
          fr->state < SHARPNESS_CONTENT_N_STATES ?
          sharpness_content_state_name (fr->state) : NULL));
  EACH_FRAME (",\n       \"black_ratio\": [", json_exact (out,
          fr->black_ratio));
  EACH_FRAME (",\n       \"freeze_mafd\": [", json_exact (out,
          fr->freeze_mafd));
  EACH_FRAME (",\n       \"structure\": [", json_exact (out,
          fr->structure));
  EACH_FRAME (",\n       \"damaged\": [", g_string_append_c (out,
          fr->damaged ? '1' : '0'));
  g_string_append_c (out, '}');
#undef EACH_FRAME
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
  g_string_append_printf (out, "\"index\": %u, \"input\": ", f->index);
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
  if (f->settings->json_full) {
    g_string_append (out, ",\n     \"frames\": ");
    json_frames (out, f);
  }
  g_string_append_c (out, '}');
}
