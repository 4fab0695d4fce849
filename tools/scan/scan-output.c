/* sharpness-scan's CSV, JSON (docs/scan-report.schema.json) and summary
 * lines.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "scan.h"

#include <math.h>

guint64
scan_file_frames (const ScanFile * f)
{
  return f->frames ? f->frames->len : 0;
}

gdouble
scan_file_score (const ScanFile * f, guint64 frame, guint metric)
{
  return g_array_index (f->scores, gdouble,
      frame * f->settings->n_metrics + metric);
}

static gdouble
ns_to_s (guint64 t)
{
  return t == GST_CLOCK_TIME_NONE ? NAN : t / (gdouble) GST_SECOND;
}

gdouble
scan_file_seconds (const ScanFile * f)
{
  guint64 n = scan_file_frames (f);
  const ScanFrame *first, *last;
  gdouble frame = f->fps_n > 0 ? (gdouble) f->fps_d / f->fps_n : 0.0;

  if (n == 0)
    return 0.0;
  first = &g_array_index (f->frames, ScanFrame, 0);
  last = &g_array_index (f->frames, ScanFrame, n - 1);
  if (first->pts == GST_CLOCK_TIME_NONE || last->pts == GST_CLOCK_TIME_NONE)
    return n * frame;
  return ns_to_s (last->pts - first->pts) + frame;
}

gdouble
scan_file_blurry_seconds (const ScanFile * f)
{
  gdouble s = 0.0;

  for (guint i = 0; f->segments && i < f->segments->len; i++)
    s += sharpness_segment_duration (&g_array_index (f->segments,
            ScanSegment, i).seg) / (gdouble) GST_SECOND;
  return s;
}

gchar *
scan_format_time (gdouble seconds)
{
  gint h, m;
  gdouble s;

  if (!isfinite (seconds) || seconds < 0)
    return g_strdup ("?");
  h = (gint) (seconds / 3600);
  m = (gint) ((seconds - h * 3600) / 60);
  s = seconds - h * 3600 - m * 60;
  if (h)
    return g_strdup_printf ("%d:%02d:%06.3f", h, m, s);
  return g_strdup_printf ("%d:%06.3f", m, s);
}

/* CSV: RFC 4180 quoting for the file name. */
static void
csv_string (GString * out, const gchar * s)
{
  g_string_append_c (out, '"');
  for (; *s; s++) {
    if (*s == '"')
      g_string_append_c (out, '"');
    g_string_append_c (out, *s);
  }
  g_string_append_c (out, '"');
}

static void
number (GString * out, gdouble v)
{
  if (isfinite (v))
    g_string_append_printf (out, "%.10g", v);
}

void
scan_csv_header (GString * out, const ScanSettings * s)
{
  g_string_append (out, "file,index,pts");
  for (guint m = 0; m < s->n_metrics; m++)
    g_string_append_printf (out, ",%s",
        sharpness_metric_info[s->metrics[m]].nick);
  g_string_append (out, ",blurry\n");
}

void
scan_csv_file (GString * out, const ScanFile * f)
{
  guint nm = f->settings->n_metrics;

  for (guint64 i = 0; i < scan_file_frames (f); i++) {
    const ScanFrame *fr = &g_array_index (f->frames, ScanFrame, i);

    csv_string (out, f->input);
    g_string_append_printf (out, ",%" G_GUINT64_FORMAT ",", i);
    number (out, ns_to_s (fr->pts));
    for (guint m = 0; m < nm; m++) {
      g_string_append_c (out, ',');
      number (out, scan_file_score (f, i, m));
    }
    g_string_append_printf (out, ",%d\n", fr->blurry ? 1 : 0);
  }
}

/* JSON text: numbers that are not finite become null. */
static void
json_string (GString * out, const gchar * s)
{
  if (!s) {
    g_string_append (out, "null");
    return;
  }
  g_string_append_c (out, '"');
  for (const guchar * p = (const guchar *) s; *p; p++) {
    switch (*p) {
      case '"':
        g_string_append (out, "\\\"");
        break;
      case '\\':
        g_string_append (out, "\\\\");
        break;
      case '\n':
        g_string_append (out, "\\n");
        break;
      case '\r':
        g_string_append (out, "\\r");
        break;
      case '\t':
        g_string_append (out, "\\t");
        break;
      default:
        if (*p < 0x20)
          g_string_append_printf (out, "\\u%04x", *p);
        else
          g_string_append_c (out, *p);
    }
  }
  g_string_append_c (out, '"');
}

static void
json_number (GString * out, gdouble v)
{
  if (isfinite (v))
    g_string_append_printf (out, "%.10g", v);
  else
    g_string_append (out, "null");
}

void
scan_json_begin (GString * out)
{
  g_string_append (out, "{\n  \"files\": [");
}

void
scan_json_end (GString * out)
{
  g_string_append (out, "\n  ]\n}\n");
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
  g_string_append_printf (out, ", \"memory\": \"%s\"}",
      f->cuda_memory ? "cuda" : "system");
}

static void
json_segment (GString * out, const ScanSegment * ss)
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
      ", \"worst_score\": ", s->worst_frame);
  json_number (out, s->worst_score);
  g_string_append_c (out, '}');
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

void
scan_json_file (GString * out, const ScanFile * f, gboolean first)
{
  g_string_append (out, first ? "\n    {" : ",\n    {");
  g_string_append (out, "\"input\": ");
  json_string (out, f->input);
  g_string_append (out, ", \"uri\": ");
  json_string (out, f->uri);
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
    json_segment (out, &g_array_index (f->segments, ScanSegment, i));
  }
  g_string_append (out, f->segments->len ? "\n     ]" : "]");
  g_string_append (out, ",\n     \"summary\": ");
  if (f->error)
    g_string_append (out, "null");
  else
    json_summary (out, f);
  g_string_append (out, ",\n     \"error\": ");
  json_string (out, f->error);
  g_string_append_c (out, '}');
}

gchar *
scan_summary_line (const ScanFile * f)
{
  GString *s = g_string_new (NULL);
  guint64 n = scan_file_frames (f);
  gdouble secs = scan_file_seconds (f), bsecs = scan_file_blurry_seconds (f);

  g_string_append_printf (s, "%s: %" G_GUINT64_FORMAT " frames", f->input,
      n);
  if (f->width > 0)
    g_string_append_printf (s, " (%dx%d, %.3g fps, %.1f s)", f->width,
        f->height, f->fps_n > 0 ? (gdouble) f->fps_n / f->fps_d : 0.0, secs);
  if (f->segments->len == 0) {
    g_string_append (s, ": no blurry segment");
  } else {
    g_string_append_printf (s, ": %u blurry segment%s, %.2f s (%.1f%%):",
        f->segments->len, f->segments->len > 1 ? "s" : "", bsecs,
        secs > 0 ? 100.0 * bsecs / secs : 0.0);
    for (guint i = 0; i < f->segments->len && i < 5; i++) {
      const SharpnessSegment *seg =
          &g_array_index (f->segments, ScanSegment, i).seg;
      g_string_append_printf (s, " %.2f-%.2f", ns_to_s (seg->start),
          ns_to_s (seg->end));
    }
    if (f->segments->len > 5)
      g_string_append (s, " ...");
  }
  g_string_append_printf (s, "; %.0f fps", f->elapsed > 0 ? n / f->elapsed :
      0.0);
  return g_string_free (s, FALSE);
}
