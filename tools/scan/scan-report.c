/* sharpness-scan's HTML report: one self-contained page (inline CSS and
 * SVG, thumbnails as data: URIs, no script, nothing fetched).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "scan.h"

#include <math.h>

#define CHART_W 1000.0
#define CHART_H 150.0
#define MARGIN_L 60.0
#define MARGIN_B 22.0
/* Points per polyline: a bucket of frames keeps its worst score, so that
 * a one-frame blur stays visible on a two-hour timeline. */
#define MAX_POINTS 1500

static void
html_text (GString * out, const gchar * text)
{
  /* The page is UTF-8: a file name in another encoding gets U+FFFD. */
  gchar *valid = scan_name_utf8 (text);

  for (const gchar * s = valid; s && *s; s++) {
    switch (*s) {
      case '<':
        g_string_append (out, "&lt;");
        break;
      case '>':
        g_string_append (out, "&gt;");
        break;
      case '&':
        g_string_append (out, "&amp;");
        break;
      case '"':
        g_string_append (out, "&quot;");
        break;
      default:
        g_string_append_c (out, *s);
    }
  }
  g_free (valid);
}

void
scan_report_begin (GString * out, const ScanSettings * s)
{
  const SharpnessMetricInfo *rule = &sharpness_metric_info[s->metrics[0]];

  g_string_append (out, "<!DOCTYPE html>\n<html lang=\"en\"><head>"
      "<meta charset=\"utf-8\">\n<title>sharpness-scan report</title>\n"
      "<style>\n"
      "body{font:14px/1.4 sans-serif;margin:20px;color:#222;background:#fff}"
      "h1{font-size:20px}h2{font-size:16px;margin-top:28px;"
      "border-top:1px solid #ccc;padding-top:12px}"
      "table{border-collapse:collapse;margin:8px 0}"
      "td,th{border:1px solid #ccc;padding:3px 8px;text-align:right;"
      "vertical-align:middle}th{background:#eee}"
      "td.img{padding:2px}"
      "img.thumb{display:block;max-width:240px;max-height:240px}"
      "td.nw{white-space:nowrap}td.name{text-align:left}"
      ".damage{border-left:4px solid #b00;padding-left:8px}"
      ".err{color:#b00;font-weight:bold}.muted{color:#666}"
      "svg{display:block;margin:6px 0}"
      ".seg{fill:#e33;fill-opacity:0.28}.tick{stroke:#d00;stroke-width:1}"
      ".seg.black{fill:#111;fill-opacity:0.55}"
      ".seg.freeze{fill:#1d8fd0;fill-opacity:0.35}"
      ".legend{margin:4px 0 0 60px;font-size:12px;color:#444}"
      ".legend span{display:inline-block;margin-right:14px}"
      ".sw{display:inline-block;width:14px;height:10px;margin-right:4px;"
      "vertical-align:middle;border:1px solid #999}"
      ".sw.blur{background:rgba(238,51,51,.28)}"
      ".sw.black{background:rgba(17,17,17,.55)}"
      ".sw.freeze{background:rgba(29,143,208,.35)}"
      ".sw.dmg{background:rgba(0,0,0,.18)}"
      ".sw.tick{border:0;border-left:2px solid #d00;width:0}"
      "td.kind{text-align:left}"
      ".score{fill:none;stroke:#1f5fbf;stroke-width:1.2}"
      ".thr{stroke:#e08000;stroke-width:1.5;stroke-dasharray:6 4}"
      ".thrlbl{font:11px sans-serif;fill:#b06000}"
      ".dmg{fill:#000;fill-opacity:0.18}"
      ".axis{stroke:#999;stroke-width:1}.lbl{font:11px sans-serif;"
      "fill:#555}\n</style></head><body>\n"
      "<h1>sharpness-scan report</h1>\n<p class=\"muted\">");
  g_string_append_printf (out, "Rule: metric <b>%s</b> (%s)", rule->nick,
      rule->direction == SHARPNESS_LOWER_IS_SHARPER ? "lower is sharper" :
      "higher is sharper");
  if (s->threshold > 0)
    g_string_append_printf (out, ", threshold %g", s->threshold);
  if (s->relative_threshold > 0)
    g_string_append_printf (out, ", relative threshold %g of the median of "
        "the last %u sharp frames", s->relative_threshold, s->window);
  g_string_append_printf (out, "; blurry segments: at least %g s, gaps of "
      "up to %u sharp frames", s->min_duration, s->max_gap);
  if (s->detect & SHARPNESS_DETECT_BLACK)
    g_string_append_printf (out, "; black segments (FFmpeg's blackdetect): "
        "at least %g s of frames with %g of their luma samples at most %g "
        "of the range", s->black_min_duration / (gdouble) GST_SECOND,
        s->black_ratio, s->black_pixel_threshold);
  if (s->detect & SHARPNESS_DETECT_FREEZE)
    g_string_append_printf (out, "; frozen segments (FFmpeg's "
        "freezedetect): at least %g s within %g dB of noise",
        s->freeze_min_duration / (gdouble) GST_SECOND, s->freeze_noise);
  if ((s->detect & SHARPNESS_DETECT_FLAT) && s->flat_threshold > 0)
    g_string_append_printf (out, "; flat frames (under %g of edge pixels) "
        "get no blur verdict", s->flat_threshold);
  g_string_append (out, ". Times from each file's first frame. Generated "
      "by sharpness-scan " VERSION ".</p>\n");
}

void
scan_report_end (GString * out, gint signal, GPtrArray * not_scanned)
{
  if (signal) {
    g_string_append_printf (out, "<p class=\"err\">The scan was interrupted "
        "(%s): the file being scanned then is marked interrupted",
        scan_signal_name (signal));
    if (not_scanned && not_scanned->len)
      g_string_append_printf (out, "; %u input%s not scanned",
          not_scanned->len, not_scanned->len > 1 ? "s were" : " was");
    g_string_append (out, ".</p>\n");
  }
  g_string_append (out, "</body></html>\n");
}

void
scan_report_images_begin (GString * out)
{
  g_string_append (out, "<section class=\"images\">\n<h2>Images</h2>\n"
      "<table class=\"images\"><tr><th>image</th><th>size</th>"
      "<th>score</th><th>verdict</th><th>thumbnail</th></tr>\n");
}

void
scan_report_images_end (GString * out)
{
  g_string_append (out, "</table>\n</section>\n");
}

/* An image's row of the images' table. */
static void
image_row (GString * out, const ScanFile * f)
{
  const ScanSettings *s = f->settings;
  gint verdict = scan_file_image_verdict (f);

  g_string_append (out, "<tr class=\"image\"><td class=\"name\">");
  html_text (out, f->input);
  g_string_append_printf (out, "</td><td>%d&times;%d</td><td>%s %.4g</td>"
      "<td class=\"%s\">", f->width, f->height,
      sharpness_metric_info[s->metrics[0]].nick, scan_file_score (f, 0, 0),
      verdict == 1 ? "err" : "");
  if (verdict < 0)
    g_string_append_printf (out, "no verdict (%s)",
        scan_file_image_no_verdict (f));
  else
    g_string_append (out, verdict ? "blurry" : "sharp");
  g_string_append (out, "</td><td class=\"img\">");
  if (f->image_base64)
    g_string_append_printf (out, "<img class=\"thumb\" alt=\"thumbnail\" "
        "src=\"data:image/jpeg;base64,%s\">", f->image_base64);
  g_string_append (out, "</td></tr>\n");
}

static gdouble
x_of (gdouble t, gdouble t1)
{
  return MARGIN_L + (t1 > 0 ? t / t1 : 0) * (CHART_W - MARGIN_L - 10);
}

/* Frame @i's place on the timeline: its time from the first frame, as in
 * the table. */
static gdouble
frame_time (const ScanFile * f, guint64 i)
{
  gdouble t = scan_file_frame_time (f, MIN (i, scan_file_frames (f) - 1));
  gdouble dt = f->fps_n > 0 ? (gdouble) f->fps_d / f->fps_n : 0.04;

  return isfinite (t) ? t : i * dt;
}

static const gchar *
kind_class (SharpnessEventKind kind)
{
  return kind == SHARPNESS_EVENT_BLACK ? "seg black" :
      kind == SHARPNESS_EVENT_FREEZE ? "seg freeze" : "seg";
}

/* What the timelines' colours mean. */
static void
legend (GString * out, const ScanSettings * s)
{
  g_string_append (out, "<p class=\"legend\"><span><i class=\"sw blur\">"
      "</i>blurry segment</span><span><i class=\"sw tick\"></i>blurry "
      "frame</span>");
  if (s->detect & SHARPNESS_DETECT_BLACK)
    g_string_append (out, "<span><i class=\"sw black\"></i>black "
        "segment</span>");
  if (s->detect & SHARPNESS_DETECT_FREEZE)
    g_string_append (out, "<span><i class=\"sw freeze\"></i>frozen "
        "segment</span>");
  g_string_append (out, "<span><i class=\"sw dmg\"></i>damaged</span>"
      "</p>\n");
}

static void
chart (GString * out, const ScanFile * f, guint m)
{
  const ScanSettings *s = f->settings;
  SharpnessMetric metric = s->metrics[m];
  gboolean lower = sharpness_metric_info[metric].direction ==
      SHARPNESS_LOWER_IS_SHARPER;
  guint64 n = scan_file_frames (f);
  gdouble t1, lo = INFINITY, hi = -INFINITY, y0 = 6, y1 = CHART_H - MARGIN_B;
  guint64 step = MAX (1, (n + MAX_POINTS - 1) / MAX_POINTS);

  t1 = MAX (scan_file_seconds (f), 1e-3);
  for (guint64 i = 0; i < n; i++) {
    gdouble v = scan_file_score (f, i, m);
    if (isfinite (v)) {
      lo = MIN (lo, v);
      hi = MAX (hi, v);
    }
  }
  if (m == 0 && s->threshold > 0) {
    lo = MIN (lo, s->threshold);
    hi = MAX (hi, s->threshold);
  }
  if (!isfinite (lo)) {
    lo = 0;
    hi = 1;
  }
  lo = MIN (lo, 0.0);
  if (hi <= lo)
    hi = lo + 1;
#define Y_OF(v) (y1 - ((v) - lo) / (hi - lo) * (y1 - y0))

  g_string_append_printf (out, "<svg class=\"timeline\" width=\"%g\" "
      "height=\"%g\" viewBox=\"0 0 %g %g\" role=\"img\" "
      "xmlns=\"http://www.w3.org/2000/svg\"><title>%s over time</title>\n",
      CHART_W, CHART_H, CHART_W, CHART_H, sharpness_metric_info[metric].nick);
  /* Segments, shaded over the whole height in the colour of their kind;
   * frozen ones under black ones, which they often span (a black picture
   * does not move); blurry frames as ticks. */
  for (guint i = 0; i < 3 * f->segments->len; i++) {
    static const SharpnessEventKind order[3] = { SHARPNESS_EVENT_FREEZE,
      SHARPNESS_EVENT_BLACK, SHARPNESS_EVENT_BLUR
    };
    const ScanSegment *ss = &g_array_index (f->segments, ScanSegment,
        i % f->segments->len);
    gdouble a, b;

    if (ss->kind != order[i / f->segments->len])
      continue;
    a = x_of (frame_time (f, ss->start_frame), t1);
    b = x_of (frame_time (f, ss->end_frame) +
        (f->fps_n > 0 ? (gdouble) f->fps_d / f->fps_n : 0), t1);
    g_string_append_printf (out, "<rect class=\"%s\" x=\"%.1f\" y=\"%g\" "
        "width=\"%.1f\" height=\"%g\"><title>%s</title></rect>",
        kind_class (ss->kind), a, y0, MAX (b - a, 2.0), y1 - y0,
        scan_kind_words (ss->kind, FALSE));
  }
  /* Damaged stretches, shaded grey. */
  for (guint i = 0; i < f->damage->len; i++) {
    const ScanDamage *d = &g_array_index (f->damage, ScanDamage, i);
    gdouble a = x_of (frame_time (f, d->first_frame), t1);
    gdouble b = x_of (frame_time (f, d->last_frame), t1);
    g_string_append_printf (out, "<rect class=\"dmg\" x=\"%.1f\" y=\"%g\" "
        "width=\"%.1f\" height=\"%g\"><title>damaged</title></rect>", a, y0,
        MAX (b - a, 2.0), y1 - y0);
  }
  if (m == 0) {
    for (guint64 i = 0; i < n; i++)
      if (g_array_index (f->frames, ScanFrame, i).blurry) {
        gdouble x = x_of (frame_time (f, i), t1);
        g_string_append_printf (out, "<line class=\"tick\" x1=\"%.1f\" "
            "x2=\"%.1f\" y1=\"%g\" y2=\"%g\"/>", x, x, y1 - 6, y1);
      }
  }
  /* Axes and labels. */
  g_string_append_printf (out, "\n<line class=\"axis\" x1=\"%g\" x2=\"%g\" "
      "y1=\"%g\" y2=\"%g\"/><line class=\"axis\" x1=\"%g\" x2=\"%g\" "
      "y1=\"%g\" y2=\"%g\"/>", MARGIN_L, CHART_W - 10, y1, y1, MARGIN_L,
      MARGIN_L, y0, y1);
  g_string_append_printf (out, "<text class=\"lbl\" x=\"4\" y=\"%g\">%.4g"
      "</text><text class=\"lbl\" x=\"4\" y=\"%g\">%.4g</text>"
      "<text class=\"lbl\" x=\"4\" y=\"%g\">%s</text>", y0 + 10, hi, y1,
      lo, (y0 + y1) / 2, sharpness_metric_info[metric].nick);
  for (gint k = 0; k <= 8; k++) {
    gdouble t = t1 * k / 8;
    gchar *txt = scan_format_time (t);
    g_string_append_printf (out, "<text class=\"lbl\" x=\"%.1f\" y=\"%g\" "
        "text-anchor=\"middle\">%s</text>", x_of (t, t1) - (k == 8 ? 20 : 0),
        CHART_H - 6, txt);
    g_free (txt);
  }
  if (m == 0 && s->threshold > 0) {
    gdouble y = Y_OF (s->threshold);
    g_string_append_printf (out, "<line class=\"thr\" x1=\"%g\" x2=\"%g\" "
        "y1=\"%.1f\" y2=\"%.1f\"><title>threshold %g</title></line>"
        "<text class=\"thrlbl\" x=\"%g\" y=\"%.1f\" text-anchor=\"end\">"
        "threshold %g</text>", MARGIN_L, CHART_W - 10, y, y, s->threshold,
        CHART_W - 12, y > y0 + 12 ? y - 3 : y + 11, s->threshold);
  }
  /* Scores: the worst of each bucket. */
  g_string_append (out, "\n<polyline class=\"score\" points=\"");
  for (guint64 i = 0; i < n; i += step) {
    gdouble worst = NAN;
    for (guint64 j = i; j < MIN (n, i + step); j++) {
      gdouble v = scan_file_score (f, j, m);
      if (isfinite (v) && (!isfinite (worst) || (lower ? v > worst :
                  v < worst)))
        worst = v;
    }
    if (isfinite (worst))
      g_string_append_printf (out, "%.1f,%.1f ", x_of (frame_time (f, i),
              t1), Y_OF (worst));
  }
  g_string_append (out, "\"/></svg>\n");
#undef Y_OF
}

/* What the reader needs before the numbers: how the file was decoded,
 * its sizes, its damage and notes. */
static void
stream_notes (GString * out, const ScanFile * f)
{
  if (f->codec || f->decoder) {
    g_string_append (out, "<p class=\"muted\">");
    html_text (out, f->codec);
    g_string_append (out, ", decoded by ");
    html_text (out, f->decoder ? f->decoder : "?");
    if (f->decoded_format && g_strcmp0 (f->decoded_format, f->format))
      g_string_append_printf (out, " (%s, converted)", f->decoded_format);
    g_string_append_printf (out, " into %s memory (%s)",
        f->cuda_memory ? "CUDA" : "system", f->format ? f->format : "?");
    if (f->orientation)
      g_string_append_printf (out, "; orientation %s (sizes and thumbnails "
          "as displayed)", f->orientation);
    if (f->sizes->len > 1) {
      g_string_append (out, "; sizes:");
      for (guint i = 0; i < f->sizes->len; i++) {
        const ScanSize *sz = &g_array_index (f->sizes, ScanSize, i);
        g_string_append_printf (out, "%s %d&times;%d from frame %"
            G_GUINT64_FORMAT, i ? "," : "", sz->width, sz->height, sz->frame);
      }
    }
    g_string_append (out, "</p>\n");
  }
  if (scan_file_damaged (f)) {
    g_string_append_printf (out, "<p class=\"damage err\">Damaged: %"
        G_GUINT64_FORMAT " lost frame%s, %" G_GUINT64_FORMAT " corrupted "
        "frame%s, %u decoding warning%s; verdicts over the damaged stretches "
        "(shaded grey) are unreliable.", f->lost_frames,
        f->lost_frames == 1 ? "" : "s", f->corrupted_frames,
        f->corrupted_frames == 1 ? "" : "s", f->decoding_warnings,
        f->decoding_warnings == 1 ? "" : "s");
    for (guint i = 0; i < f->damage->len && i < 20; i++) {
      const ScanDamage *d = &g_array_index (f->damage, ScanDamage, i);
      gchar *a = scan_format_time (scan_file_time (f, d->start));
      g_string_append_printf (out, "%s %s (frames %" G_GUINT64_FORMAT
          "&ndash;%" G_GUINT64_FORMAT ")", i ? "," : " At", a,
          d->first_frame, d->last_frame);
      g_free (a);
    }
    g_string_append (out, "</p>\n");
  }
  for (guint i = 0; i < f->notes->len; i++) {
    g_string_append (out, "<p class=\"muted\">Note: ");
    html_text (out, f->notes->pdata[i]);
    g_string_append (out, "</p>\n");
  }
}

static void
segment_row (GString * out, const ScanFile * f, guint i)
{
  const ScanSegment *ss = &g_array_index (f->segments, ScanSegment, i);
  gchar *a = scan_format_time (scan_file_time (f, ss->start));
  gchar *b = scan_format_time (scan_file_time (f, ss->end));
  gchar *w = ss->scored_frames ?
      scan_format_time (scan_file_frame_time (f, ss->worst_frame)) : NULL;

  g_string_append_printf (out, "<tr class=\"%s\"><td>%u%s</td>"
      "<td class=\"kind\"><i class=\"sw %s\"></i>%s</td><td>%s</td>"
      "<td>%s</td><td>%.3f</td><td class=\"nw\">%" G_GUINT64_FORMAT
      "&ndash;%" G_GUINT64_FORMAT "</td>",
      sharpness_event_kind_name (ss->kind), i + 1, ss->damaged ?
      " <span class=\"err\" title=\"overlaps a damaged stretch: "
      "unreliable\">damaged</span>" : "",
      sharpness_event_kind_name (ss->kind), ss->kind == SHARPNESS_EVENT_BLUR ?
      "blurry" : ss->kind == SHARPNESS_EVENT_BLACK ? "black" : "frozen", a, b,
      ss->duration != GST_CLOCK_TIME_NONE ? ss->duration /
      (gdouble) GST_SECOND : 0.0, ss->start_frame, ss->end_frame);
  if (w)
    g_string_append_printf (out, "<td>%.4g</td><td>%.4g</td>"
        "<td class=\"nw worst\">frame %" G_GUINT64_FORMAT "<br>%s</td>",
        ss->worst_score, ss->mean, ss->worst_frame, w);
  else
    g_string_append (out, "<td></td><td></td><td class=\"nw worst\"></td>");
  g_string_append (out, "<td class=\"img\">");
  if (ss->jpeg_base64)
    g_string_append_printf (out, "<img class=\"thumb\" alt=\"frame %"
        G_GUINT64_FORMAT "\" title=\"frame %" G_GUINT64_FORMAT "\" "
        "src=\"data:image/jpeg;base64,%s\">", ss->thumb_frame,
        ss->thumb_frame, ss->jpeg_base64);
  g_string_append (out, "</td><td class=\"img\">");
  if (ss->crop_base64)
    g_string_append_printf (out, "<img class=\"thumb\" alt=\"centre of "
        "frame %" G_GUINT64_FORMAT " at full resolution\" "
        "src=\"data:image/jpeg;base64,%s\">", ss->thumb_frame,
        ss->crop_base64);
  g_string_append (out, "</td></tr>\n");
  g_free (a);
  g_free (b);
  g_free (w);
}

void
scan_report_file (GString * out, GString * images, const ScanFile * f)
{
  const ScanSettings *s = f->settings;
  gchar *line;

  if (f->kind == SCAN_KIND_IMAGE && !f->error) {
    image_row (images, f);
    return;
  }
  g_string_append (out, "<section class=\"file\">\n<h2>");
  html_text (out, f->input);
  g_string_append (out, "</h2>\n");
  if (f->error) {
    g_string_append (out, "<p class=\"err\">Error: ");
    html_text (out, f->error);
    g_string_append (out, "</p>\n");
  }
  if (scan_file_frames (f) == 0) {
    g_string_append (out, "</section>\n");
    return;
  }
  line = scan_summary_line (f);
  g_string_append (out, "<p>");
  html_text (out, line);
  g_free (line);
  g_string_append (out, "</p>\n");
  stream_notes (out, f);
  legend (out, s);
  for (guint m = 0; m < s->n_metrics; m++)
    chart (out, f, m);

  if (f->segments->len == 0) {
    g_string_append_printf (out, "<p>No blurry%s segment.</p>\n"
        "</section>\n", (s->detect & SHARPNESS_DETECT_BLACK) &&
        (s->detect & SHARPNESS_DETECT_FREEZE) ? ", black or frozen" :
        (s->detect & SHARPNESS_DETECT_BLACK) ? " or black" :
        (s->detect & SHARPNESS_DETECT_FREEZE) ? " or frozen" : "");
    return;
  }
  g_string_append (out, "<table class=\"segments\"><tr><th>#</th>"
      "<th>kind</th><th>start</th><th>end</th><th>duration (s)</th>"
      "<th>frames</th><th>worst</th><th>mean</th><th>worst frame, at</th>"
      "<th>thumbnail (the worst frame of a blur)</th>"
      "<th>its centre, 1:1</th></tr>\n");
  for (guint i = 0; i < f->segments->len; i++)
    segment_row (out, f, i);
  g_string_append (out, "</table>\n</section>\n");
}
