/* sharpness-scan's JSON output (docs/reference/scan-report.schema.json, versioned
 * by SCAN_SCHEMA_VERSION): each file's object built as a json-glib tree
 * and written by the tools' writer (sharpness-tool-json.h), one file at a
 * time as it finishes.  --json-full's frames, one value per frame and
 * column, are streamed after the tree's members with the same writer's
 * scalars: as a tree they would be a node per value (3.5 million for two
 * hours at 60 fps and eight columns).
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

#define STYLE SHARPNESS_JSON_SPACED

/* Stream time @t counted from the file's first frame, in seconds with
 * every nanosecond; null for NONE. */
static void
add_time (JsonBuilder * b, const gchar * key, const ScanFile * f, guint64 t)
{
  if (t == GST_CLOCK_TIME_NONE || f->start_time == GST_CLOCK_TIME_NONE)
    sharpness_json_add_null (b, key);
  else
    sharpness_json_add_seconds (b, key, (gint64) (t - f->start_time));
}

/* @v by @add (a duration in ns as seconds, a frame index), null for
 * G_MAXUINT64 (GST_CLOCK_TIME_NONE, no such frame). */
static void
add_unless_none (JsonBuilder * b, const gchar * key, guint64 v,
    void (*add) (JsonBuilder *, const gchar *, gint64))
{
  if (v == G_MAXUINT64)
    sharpness_json_add_null (b, key);
  else
    add (b, key, (gint64) v);
}

#define add_duration(b, key, d) \
    add_unless_none (b, key, d, sharpness_json_add_seconds)
#define add_frame(b, key, i) add_unless_none (b, key, i, sharpness_json_add_int)

/* Writes the object @b built (it is freed) as members, without braces. */
static void
write_members (GString * out, JsonBuilder * b)
{
  JsonNode *root = json_builder_get_root (b);

  sharpness_json_members (out, root, STYLE);
  json_node_unref (root);
  g_object_unref (b);
}

void
scan_json_begin (GString * out, const ScanSettings * s)
{
  JsonBuilder *b = json_builder_new ();

  json_builder_begin_object (b);
  sharpness_json_add_int (b, "schema_version", SCAN_SCHEMA_VERSION);
  sharpness_json_begin_object (b, "shard");
  sharpness_json_add_int (b, "index", s->shard_i);
  sharpness_json_add_int (b, "count", MAX (s->shard_n, 1));
  sharpness_json_add_int (b, "inputs", s->inputs_total);
  json_builder_end_object (b);
  json_builder_end_object (b);
  g_string_append_c (out, '{');
  write_members (out, b);
  g_string_append (out, ", \"files\": [");
}

void
scan_json_end (GString * out, gint signal, GPtrArray * not_scanned)
{
  JsonBuilder *b = json_builder_new ();

  json_builder_begin_object (b);
  sharpness_json_add_bool (b, "interrupted", signal != 0);
  sharpness_json_add_string (b, "signal", signal ?
      scan_signal_name (signal) : NULL);
  sharpness_json_begin_array (b, "not_scanned");
  for (guint i = 0; not_scanned && i < not_scanned->len; i++)
    sharpness_json_add_string (b, NULL, not_scanned->pdata[i]);
  json_builder_end_array (b);
  json_builder_end_object (b);
  g_string_append (out, "\n], ");
  write_members (out, b);
  g_string_append (out, "}\n");
}

static void
add_settings (JsonBuilder * b, const ScanSettings * s)
{
  const SharpnessMetricInfo *rule = &sharpness_metric_info[s->metrics[0]];
  gchar *detect = scan_content_detect_list (s->detect);

  sharpness_json_begin_object (b, "settings");
  sharpness_json_begin_array (b, "metrics");
  for (guint m = 0; m < s->n_metrics; m++)
    sharpness_json_add_string (b, NULL,
        sharpness_metric_info[s->metrics[m]].nick);
  json_builder_end_array (b);
  sharpness_json_add_string (b, "rule_metric", rule->nick);
  sharpness_json_add_string (b, "direction", rule->direction ==
      SHARPNESS_LOWER_IS_SHARPER ? "lower-is-sharper" : "higher-is-sharper");
  sharpness_json_add_number (b, "threshold", s->threshold);
  sharpness_json_add_number (b, "relative_threshold", s->relative_threshold);
  sharpness_json_add_int (b, "window", s->window);
  sharpness_json_add_number (b, "min_duration", s->min_duration);
  sharpness_json_add_int (b, "max_gap", s->max_gap);
  sharpness_json_add_string (b, "backend", s->cpu ? "cpu" : "auto");
  sharpness_json_add_string (b, "detect", detect);
  sharpness_json_add_bool (b, "flat", (s->detect & SHARPNESS_DETECT_FLAT) != 0);
  sharpness_json_add_number (b, "black_pixel_threshold",
      s->black_pixel_threshold);
  sharpness_json_add_number (b, "black_ratio", s->black_ratio);
  add_duration (b, "black_min_duration", s->black_min_duration);
  sharpness_json_add_number (b, "freeze_noise", s->freeze_noise);
  add_duration (b, "freeze_min_duration", s->freeze_min_duration);
  sharpness_json_add_number (b, "flat_threshold", s->flat_threshold);
  sharpness_json_add_number (b, "max_duration", s->max_duration > 0 ?
      s->max_duration : NAN);
  if (s->max_frames)
    sharpness_json_add_int (b, "max_frames", (gint64) s->max_frames);
  else
    sharpness_json_add_null (b, "max_frames");
  json_builder_end_object (b);
  g_free (detect);
}

static void
add_stream (JsonBuilder * b, const ScanFile * f)
{
  gboolean rate = f->fps_n > 0 && f->fps_d > 0;

  json_builder_set_member_name (b, "stream");
  if (f->error && scan_file_frames (f) == 0) {
    json_builder_add_null_value (b);
    return;
  }
  json_builder_begin_object (b);
  sharpness_json_add_int (b, "width", f->width);
  sharpness_json_add_int (b, "height", f->height);
  sharpness_json_add_number (b, "framerate", rate ?
      (gdouble) f->fps_n / f->fps_d : NAN);
  json_builder_set_member_name (b, "framerate_fraction");
  if (rate) {
    json_builder_begin_array (b);
    sharpness_json_add_int (b, NULL, f->fps_n);
    sharpness_json_add_int (b, NULL, f->fps_d);
    json_builder_end_array (b);
  } else {
    json_builder_add_null_value (b);
  }
  sharpness_json_add_number (b, "duration", scan_ns_to_s (f->duration));
  add_duration (b, "start_time", f->start_time);
  sharpness_json_add_int (b, "frames", (gint64) scan_file_frames (f));
  sharpness_json_add_string (b, "codec", f->codec);
  sharpness_json_add_string (b, "decoder", f->decoder);
  sharpness_json_add_string (b, "format", f->format);
  sharpness_json_add_string (b, "decoded_format", f->decoded_format);
  sharpness_json_add_string (b, "memory", f->cuda_memory ? "cuda" :
      "system");
  sharpness_json_add_bool (b, "interlaced", f->interlaced);
  sharpness_json_add_string (b, "orientation", f->orientation);
  sharpness_json_begin_array (b, "sizes");
  for (guint i = 0; i < f->sizes->len; i++) {
    const ScanSize *sz = &g_array_index (f->sizes, ScanSize, i);

    json_builder_begin_object (b);
    sharpness_json_add_int (b, "frame", (gint64) sz->frame);
    sharpness_json_add_int (b, "width", sz->width);
    sharpness_json_add_int (b, "height", sz->height);
    json_builder_end_object (b);
  }
  json_builder_end_array (b);
  sharpness_json_add_int (b, "video_streams", MAX (f->video_streams, 1));
  json_builder_end_object (b);
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
add_segment (JsonBuilder * b, const ScanFile * f, const ScanSegment * ss)
{
  json_builder_begin_object (b);
  sharpness_json_add_string (b, "kind", sharpness_event_kind_name
      (ss->kind));
  add_time (b, "start", f, ss->start);
  add_time (b, "end", f, ss->end);
  sharpness_json_add_int (b, "start_frame", (gint64) ss->start_frame);
  sharpness_json_add_int (b, "end_frame", (gint64) ss->end_frame);
  add_duration (b, "duration", ss->duration);
  sharpness_json_add_int (b, "frames", (gint64) (ss->end_frame -
          ss->start_frame + 1));
  sharpness_json_add_int (b, "kind_frames", (gint64) ss->kind_frames);
  sharpness_json_add_int (b, "blurry_frames", (gint64) blurry_frames (f,
          ss->start_frame, ss->end_frame));
  sharpness_json_add_int (b, "scored_frames", (gint64) ss->scored_frames);
  sharpness_json_add_number (b, "min_score", ss->min);
  sharpness_json_add_number (b, "mean_score", ss->mean);
  sharpness_json_add_number (b, "max_score", ss->max);
  add_frame (b, "worst_frame", ss->scored_frames ? ss->worst_frame :
      G_MAXUINT64);
  sharpness_json_add_number (b, "worst_time", ss->scored_frames ?
      scan_file_frame_time (f, ss->worst_frame) : NAN);
  sharpness_json_add_number (b, "worst_score", ss->worst_score);
  add_frame (b, "thumbnail_frame", ss->thumb_frame);
  sharpness_json_add_bool (b, "damaged", ss->damaged);
  if (f->settings->json_full) {
    sharpness_json_add_string (b, "thumbnail", ss->jpeg_base64);
    sharpness_json_add_string (b, "crop", ss->crop_base64);
  }
  json_builder_end_object (b);
}

/* The statistics of metric @m's scores: scored, mean, min, max. */
static void
add_scores (JsonBuilder * b, const ScanFile * f, guint m)
{
  gdouble sum = 0, mn = INFINITY, mx = -INFINITY;
  guint64 k = 0;

  for (guint64 i = 0; i < scan_file_frames (f); i++) {
    gdouble v = scan_file_score (f, i, m);
    if (!isfinite (v))
      continue;
    sum += v;
    mn = MIN (mn, v);
    mx = MAX (mx, v);
    k++;
  }
  sharpness_json_begin_object (b,
      sharpness_metric_info[f->settings->metrics[m]].nick);
  sharpness_json_add_int (b, "scored", (gint64) k);
  sharpness_json_add_number (b, "mean", k ? sum / k : NAN);
  sharpness_json_add_number (b, "min", k ? mn : NAN);
  sharpness_json_add_number (b, "max", k ? mx : NAN);
  json_builder_end_object (b);
}

static void
add_summary (JsonBuilder * b, const ScanFile * f)
{
  guint64 n = scan_file_frames (f), blurry = 0;
  guint64 states[SHARPNESS_CONTENT_N_STATES] = { 0 };
  gdouble secs = scan_file_seconds (f), bsecs = scan_file_blurry_seconds (f);

  json_builder_set_member_name (b, "summary");
  if (f->error) {
    json_builder_add_null_value (b);
    return;
  }
  for (guint64 i = 0; i < n; i++) {
    const ScanFrame *fr = &g_array_index (f->frames, ScanFrame, i);
    blurry += fr->blurry;
    if (fr->state < SHARPNESS_CONTENT_N_STATES)
      states[fr->state]++;
  }
  json_builder_begin_object (b);
  sharpness_json_add_int (b, "frames", (gint64) n);
  sharpness_json_add_int (b, "blurry_frames", (gint64) blurry);
  sharpness_json_add_int (b, "segments", scan_file_kind_segments (f,
          SHARPNESS_EVENT_BLUR));
  sharpness_json_add_number (b, "blurry_duration", bsecs);
  sharpness_json_add_number (b, "blurry_fraction", secs > 0 ? bsecs / secs :
      0.0);
  sharpness_json_add_int (b, "black_segments", scan_file_kind_segments (f,
          SHARPNESS_EVENT_BLACK));
  sharpness_json_add_number (b, "black_duration", scan_file_kind_seconds (f,
          SHARPNESS_EVENT_BLACK));
  sharpness_json_add_int (b, "frozen_segments", scan_file_kind_segments (f,
          SHARPNESS_EVENT_FREEZE));
  sharpness_json_add_number (b, "frozen_duration", scan_file_kind_seconds (f,
          SHARPNESS_EVENT_FREEZE));
  sharpness_json_begin_object (b, "states");
  for (guint k = 0; k < SHARPNESS_CONTENT_N_STATES; k++)
    sharpness_json_add_int (b, sharpness_content_state_name (k),
        (gint64) states[k]);
  json_builder_end_object (b);
  sharpness_json_begin_object (b, "scores");
  for (guint m = 0; m < f->settings->n_metrics; m++)
    add_scores (b, f, m);
  json_builder_end_object (b);
  sharpness_json_add_exact (b, "elapsed", f->elapsed);
  sharpness_json_add_number (b, "fps", f->elapsed > 0 ? n / f->elapsed :
      NAN);
  json_builder_end_object (b);
}

static void
add_damage (JsonBuilder * b, const ScanFile * f)
{
  sharpness_json_begin_object (b, "damage");
  sharpness_json_add_int (b, "lost_frames", (gint64) f->lost_frames);
  sharpness_json_add_int (b, "corrupted_frames",
      (gint64) f->corrupted_frames);
  sharpness_json_add_int (b, "decoding_warnings", f->decoding_warnings);
  sharpness_json_begin_array (b, "stretches");
  for (guint i = 0; i < f->damage->len; i++) {
    const ScanDamage *d = &g_array_index (f->damage, ScanDamage, i);

    json_builder_begin_object (b);
    add_time (b, "start", f, d->start);
    add_time (b, "end", f, d->end);
    sharpness_json_add_int (b, "first_frame", (gint64) d->first_frame);
    sharpness_json_add_int (b, "last_frame", (gint64) d->last_frame);
    sharpness_json_add_int (b, "lost_frames", (gint64) d->lost_frames);
    sharpness_json_add_int (b, "corrupted_frames",
        (gint64) d->corrupted_frames);
    json_builder_end_object (b);
  }
  json_builder_end_array (b);
  json_builder_end_object (b);
}

static void
add_image (JsonBuilder * b, const ScanFile * f)
{
  gint verdict;

  json_builder_set_member_name (b, "image");
  if (f->kind != SCAN_KIND_IMAGE) {
    json_builder_add_null_value (b);
    return;
  }
  verdict = scan_file_image_verdict (f);
  json_builder_begin_object (b);
  sharpness_json_add_number (b, "score", scan_file_frames (f) ?
      scan_file_score (f, 0, 0) : NAN);
  if (verdict < 0)
    sharpness_json_add_null (b, "blurry");
  else
    sharpness_json_add_bool (b, "blurry", verdict);
  if (f->settings->json_full)
    sharpness_json_add_string (b, "thumbnail", f->image_base64);
  json_builder_end_object (b);
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

/* The file's object but its frames. */
static JsonBuilder *
file_tree (const ScanFile * f)
{
  JsonBuilder *b = json_builder_new ();

  json_builder_begin_object (b);
  sharpness_json_add_int (b, "index", f->index);
  sharpness_json_add_string (b, "input", f->input);
  sharpness_json_add_string (b, "uri", f->uri);
  sharpness_json_add_string (b, "kind", f->kind == SCAN_KIND_IMAGE ?
      "image" : "video");
  add_settings (b, f->settings);
  add_stream (b, f);
  sharpness_json_begin_array (b, "segments");
  for (guint i = 0; i < f->segments->len; i++)
    add_segment (b, f, &g_array_index (f->segments, ScanSegment, i));
  json_builder_end_array (b);
  add_image (b, f);
  add_summary (b, f);
  sharpness_json_add_bool (b, "damaged", scan_file_damaged (f));
  add_damage (b, f);
  sharpness_json_begin_array (b, "notes");
  for (guint i = 0; i < f->notes->len; i++)
    sharpness_json_add_string (b, NULL, f->notes->pdata[i]);
  json_builder_end_array (b);
  sharpness_json_add_bool (b, "interrupted", f->stopped == SCAN_STOP_SIGNAL);
  sharpness_json_add_string (b, "stopped_by", stop_name (f->stopped));
  sharpness_json_add_string (b, "error", f->error);
  json_builder_end_object (b);
  return b;
}

/* Frame @fr's time from the first frame, as add_time () writes it. */
static void
frame_time (GString * out, const ScanFile * f, const ScanFrame * fr)
{
  if (fr->pts == GST_CLOCK_TIME_NONE || f->start_time == GST_CLOCK_TIME_NONE)
    g_string_append (out, "null");
  else
    sharpness_json_double (out, (gint64) (fr->pts - f->start_time) / 1e9);
}

/* --json-full: every frame, one array per column, one line per column,
 * numbers with every bit (sharpness_json_double). */
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

  EACH_FRAME ("{\"time\": [", frame_time (out, f, fr));
  g_string_append (out, ",\n    \"scores\": {");
  for (guint m = 0; m < st->n_metrics; m++) {
    g_string_append (out, m ? ",\n      " : "\n      ");
    sharpness_json_string (out, sharpness_metric_info[st->metrics[m]].nick);
    EACH_FRAME (": [", (void) fr; sharpness_json_double (out,
            scan_file_score (f, i, m)));
  }
  g_string_append_c (out, '}');
  EACH_FRAME (",\n    \"blurry\": [", g_string_append_c (out,
          fr->blurry ? '1' : '0'));
  EACH_FRAME (",\n    \"state\": [", sharpness_json_string (out,
          fr->state < SHARPNESS_CONTENT_N_STATES ?
          sharpness_content_state_name (fr->state) : NULL));
  EACH_FRAME (",\n    \"black_ratio\": [", sharpness_json_double (out,
          fr->black_ratio));
  EACH_FRAME (",\n    \"freeze_mafd\": [", sharpness_json_double (out,
          fr->freeze_mafd));
  EACH_FRAME (",\n    \"structure\": [", sharpness_json_double (out,
          fr->structure));
  EACH_FRAME (",\n    \"damaged\": [", g_string_append_c (out,
          fr->damaged ? '1' : '0'));
  g_string_append_c (out, '}');
#undef EACH_FRAME
}

void
scan_json_file (GString * out, const ScanFile * f, gboolean first)
{
  g_string_append (out, first ? "\n  {" : ",\n  {");
  write_members (out, file_tree (f));
  if (f->settings->json_full) {
    g_string_append (out, ",\n   \"frames\": ");
    json_frames (out, f);
  }
  g_string_append_c (out, '}');
}
