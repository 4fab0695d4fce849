/* sharpness-scan --reference's outputs of one distorted file: the CSV and
 * the JSON of its frames, and its report page (the VMAF timeline, the
 * worst frames side by side, the pooled scores).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <stdlib.h>

#include "scan-reference.h"
#include "sharpness-tool-json.h"
#include "vmaf.h"

#define CHART_W 1000.0
#define CHART_H 200.0
#define MARGIN_L 40.0
#define MARGIN_B 20.0
/* Points of the timeline: a bucket of frames keeps its lowest VMAF, so
 * that a one-frame drop stays visible on a long file (as the scan's). */
#define MAX_POINTS 1500

static const gdouble percentiles[] = SCAN_REF_PERCENTILES;

static gdouble
value (const ScanRefResult * r, guint i, guint column)
{
  return g_array_index (r->values, gdouble, i * r->n_columns + column);
}

/* Seconds of the frame's stream time, counted from the first frame's (as
 * the scan counts); NaN when unknown. */
static gdouble
frame_seconds (const ScanRefResult * r, guint i)
{
  guint64 t0 = g_array_index (r->frames, ScanRefFrame, 0).pts;
  guint64 t = g_array_index (r->frames, ScanRefFrame, i).pts;

  if (!GST_CLOCK_TIME_IS_VALID (t) || !GST_CLOCK_TIME_IS_VALID (t0))
    return NAN;
  return ((gint64) t - (gint64) t0) / (gdouble) GST_SECOND;
}

static void
append_seconds (GString * out, const ScanRefResult * r, guint i)
{
  guint64 t0 = g_array_index (r->frames, ScanRefFrame, 0).pts;
  guint64 t = g_array_index (r->frames, ScanRefFrame, i).pts;

  if (GST_CLOCK_TIME_IS_VALID (t) && GST_CLOCK_TIME_IS_VALID (t0))
    scan_append_ns_as_seconds (out, (gint64) t - (gint64) t0);
}

static gint
by_vmaf (gconstpointer a, gconstpointer b, gpointer data)
{
  const ScanRefResult *r = data;
  guint i = *(const guint *) a, j = *(const guint *) b;
  gdouble x = value (r, i, 0), y = value (r, j, 0);

  return x < y ? -1 : x > y ? 1 : i < j ? -1 : i > j;
}

guint *
scan_ref_rank (const ScanRefResult * r, guint * n)
{
  guint *idx = g_new (guint, MAX (r->frames->len, 1));

  *n = 0;
  for (guint i = 0; i < r->frames->len; i++)
    if (!isnan (value (r, i, 0)))
      idx[(*n)++] = i;
  g_qsort_with_data (idx, *n, sizeof *idx, by_vmaf, (gpointer) r);
  return idx;
}

static gint
cmp_double (const void *a, const void *b)
{
  gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;

  return x < y ? -1 : x > y;
}

/* Pooled as the element's compare-summary pools (cpu/compare/vmaf.h:
 * libvmaf's sums, in frame order; numpy's percentiles). */
void
scan_ref_pool (const ScanRefResult * r, guint column, ScanRefPooled * out)
{
  CompareVmafPool pool;
  double pooled[COMPARE_VMAF_N_POOLS];
  gdouble *sorted = g_new (gdouble, MAX (r->frames->len, 1));

  compare_vmaf_pool_init (&pool);
  out->n = 0;
  for (guint i = 0; i < r->frames->len; i++) {
    gdouble v = value (r, i, column);

    if (isnan (v))
      continue;
    compare_vmaf_pool_add (&pool, v);
    sorted[out->n++] = v;
  }
  compare_vmaf_pool_result (&pool, pooled);
  out->mean = pooled[COMPARE_VMAF_POOL_MEAN];
  out->harmonic_mean = pooled[COMPARE_VMAF_POOL_HARMONIC_MEAN];
  out->min = out->n ? pooled[COMPARE_VMAF_POOL_MIN] : NAN;
  out->max = out->n ? pooled[COMPARE_VMAF_POOL_MAX] : NAN;
  qsort (sorted, out->n, sizeof *sorted, cmp_double);
  for (guint p = 0; p < G_N_ELEMENTS (percentiles); p++)
    out->p[p] = compare_vmaf_percentile (sorted, out->n, percentiles[p]);
  g_free (sorted);
}

/* CSV: a value as the element gave it (every digit: the shortest text
 * that reads back as the same double), empty when none. */
static void
csv_value (GString * out, gdouble v)
{
  gchar buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (isnan (v))
    return;
  if (isinf (v))
    g_string_append (out, v > 0 ? "inf" : "-inf");
  else
    g_string_append (out, g_ascii_dtostr (buf, sizeof buf, v));
}

void
scan_ref_csv (GString * out, const ScanRefResult * r)
{
  g_string_append (out, "frame,pts");
  for (guint c = 0; c < r->n_columns; c++)
    g_string_append_printf (out, ",%s", sharpness_field_name (r->columns[c]));
  g_string_append_c (out, '\n');
  for (guint i = 0; i < r->frames->len; i++) {
    g_string_append_printf (out, "%" G_GUINT64_FORMAT ",",
        g_array_index (r->frames, ScanRefFrame, i).frame);
    append_seconds (out, r, i);
    for (guint c = 0; c < r->n_columns; c++) {
      g_string_append_c (out, ',');
      csv_value (out, value (r, i, c));
    }
    g_string_append_c (out, '\n');
  }
}

static void
add_pooled (JsonBuilder * b, const gchar * key, const ScanRefPooled * p,
    gboolean with_percentiles)
{
  sharpness_json_begin_object (b, key);
  sharpness_json_add_int (b, "frames", p->n);
  sharpness_json_add_exact (b, "mean", p->mean);
  sharpness_json_add_exact (b, "harmonic_mean", p->harmonic_mean);
  sharpness_json_add_exact (b, "min", p->min);
  sharpness_json_add_exact (b, "max", p->max);
  for (guint i = 0; with_percentiles && i < G_N_ELEMENTS (percentiles); i++) {
    gchar key_p[8];

    g_snprintf (key_p, sizeof key_p, "p%g", percentiles[i]);
    sharpness_json_add_exact (b, key_p, p->p[i]);
  }
  json_builder_end_object (b);
}

/* The members before the frames, as one tree. */
static JsonNode *
json_head (const ScanRefResult * r)
{
  JsonBuilder *b = json_builder_new ();
  JsonNode *node;
  gchar *ref = scan_name_utf8 (r->reference);
  gchar *dist = scan_name_utf8 (r->distorted);

  json_builder_begin_object (b);
  sharpness_json_add_string (b, "reference", ref);
  sharpness_json_add_string (b, "distorted", dist);
  sharpness_json_add_string (b, "vmaf_model", r->model);
  sharpness_json_add_string (b, "libvmaf_version",
      COMPARE_VMAF_LIBVMAF_VERSION);
  sharpness_json_add_int (b, "reference_frames", r->ref_frames);
  sharpness_json_add_int (b, "distorted_frames", r->dist_frames);
  sharpness_json_add_int (b, "compared_frames", r->frames->len);
  sharpness_json_add_number (b, "elapsed", r->elapsed);
  sharpness_json_begin_array (b, "notes");
  for (guint i = 0; i < r->notes->len; i++) {
    gchar *note = scan_name_utf8 (r->notes->pdata[i]);
    sharpness_json_add_string (b, NULL, note);
    g_free (note);
  }
  json_builder_end_array (b);
  sharpness_json_begin_object (b, "pooled");
  for (guint c = 0; c < r->n_columns; c++) {
    ScanRefPooled p;

    scan_ref_pool (r, c, &p);
    add_pooled (b, sharpness_field_name (r->columns[c]), &p, c == 0);
  }
  json_builder_end_object (b);
  sharpness_json_begin_array (b, "worst_frames");
  for (guint i = 0; i < r->worst->len; i++) {
    guint64 f = g_array_index (r->worst, ScanRefWorst, i).frame;

    json_builder_begin_object (b);
    sharpness_json_add_int (b, "frame", f);
    sharpness_json_add_exact (b, "vmaf", value (r, f, 0));
    json_builder_end_object (b);
  }
  json_builder_end_array (b);
  json_builder_end_object (b);
  node = json_builder_get_root (b);
  g_object_unref (b);
  g_free (ref);
  g_free (dist);
  return node;
}

void
scan_ref_json (GString * out, const ScanRefResult * r)
{
  JsonNode *head = json_head (r);

  g_string_append_c (out, '{');
  sharpness_json_members (out, head, SHARPNESS_JSON_SPACED);
  json_node_unref (head);
  /* The frames streamed, not a tree: a node per value would be millions
   * for a film. */
  g_string_append (out, ", \"frames\": [");
  for (guint i = 0; i < r->frames->len; i++) {
    g_string_append_printf (out, "%s\n{\"frame\": %" G_GUINT64_FORMAT
        ", \"pts\": ", i ? "," : "",
        g_array_index (r->frames, ScanRefFrame, i).frame);
    if (isnan (frame_seconds (r, i)))
      g_string_append (out, "null");
    else
      append_seconds (out, r, i);
    for (guint c = 0; c < r->n_columns; c++) {
      g_string_append (out, ", ");
      sharpness_json_string (out, sharpness_field_name (r->columns[c]));
      g_string_append (out, ": ");
      sharpness_json_double (out, value (r, i, c));
    }
    g_string_append_c (out, '}');
  }
  g_string_append (out, "]}\n");
}

static void
html_text (GString * out, const gchar * text)
{
  gchar *valid = scan_name_utf8 (text);
  gchar *escaped = g_markup_escape_text (valid, -1);

  g_string_append (out, escaped);
  g_free (escaped);
  g_free (valid);
}

static gdouble
y_of (gdouble vmaf)
{
  return 10 + (1 - CLAMP (vmaf, 0, 100) / 100) * (CHART_H - MARGIN_B - 10);
}

/* The VMAF of every frame against the frame index, 0 to 100. */
static void
timeline (GString * out, const ScanRefResult * r, const ScanRefPooled * p)
{
  guint n = r->frames->len;
  guint per = MAX (1, (n + MAX_POINTS - 1) / MAX_POINTS);
  gdouble w = CHART_W - MARGIN_L - 10;

  g_string_append_printf (out, "<svg class=\"timeline\" width=\"%g\" "
      "height=\"%g\" viewBox=\"0 0 %g %g\" role=\"img\" aria-label=\"VMAF "
      "per frame\">\n", CHART_W, CHART_H, CHART_W, CHART_H);
  for (gint v = 0; v <= 100; v += 20)
    g_string_append_printf (out, "<line class=\"axis\" x1=\"%g\" y1=\"%.1f\" "
        "x2=\"%g\" y2=\"%.1f\"/><text class=\"lbl\" x=\"4\" y=\"%.1f\">%d"
        "</text>\n", MARGIN_L, y_of (v), CHART_W - 10, y_of (v),
        y_of (v) + 4, v);
  if (isfinite (p->mean))
    g_string_append_printf (out, "<line class=\"mean\" x1=\"%g\" y1=\"%.1f\" "
        "x2=\"%g\" y2=\"%.1f\"/>\n", MARGIN_L, y_of (p->mean), CHART_W - 10,
        y_of (p->mean));
  g_string_append (out, "<polyline class=\"vmaf\" points=\"");
  for (guint i = 0; i < n; i += per) {
    gdouble lo = INFINITY;

    for (guint j = i; j < MIN (n, i + per); j++)
      if (value (r, j, 0) < lo)
        lo = value (r, j, 0);
    if (isfinite (lo))
      g_string_append_printf (out, "%.1f,%.1f ", MARGIN_L + (n > 1 ?
              (gdouble) i / (n - 1) : 0) * w, y_of (lo));
  }
  g_string_append (out, "\"/>\n");
  for (guint k = 0; k < r->worst->len; k++) {
    guint64 f = g_array_index (r->worst, ScanRefWorst, k).frame;

    g_string_append_printf (out, "<circle class=\"worst\" cx=\"%.1f\" "
        "cy=\"%.1f\" r=\"3\"><title>frame %" G_GUINT64_FORMAT ": VMAF %.6f"
        "</title></circle>\n", MARGIN_L + (n > 1 ? (gdouble) f / (n - 1) :
            0) * w, y_of (value (r, f, 0)), f, value (r, f, 0));
  }
  g_string_append_printf (out, "<text class=\"lbl\" x=\"%g\" y=\"%g\">frame "
      "0</text><text class=\"lbl\" x=\"%g\" y=\"%g\" text-anchor=\"end\">"
      "frame %u</text>\n</svg>\n", MARGIN_L, CHART_H - 4, CHART_W - 10,
      CHART_H - 4, n ? n - 1 : 0);
}

static void
image_cell (GString * out, const gchar * jpeg, const gchar * alt)
{
  g_string_append (out, "<td class=\"img\">");
  if (jpeg)
    g_string_append_printf (out, "<img class=\"thumb\" alt=\"%s\" "
        "src=\"data:image/jpeg;base64,%s\">", alt, jpeg);
  else
    g_string_append (out, "<span class=\"muted\">not decoded</span>");
  g_string_append (out, "</td>");
}

void
scan_ref_report (GString * out, const ScanRefResult * r)
{
  ScanRefPooled p;

  scan_ref_pool (r, 0, &p);
  g_string_append (out, "<!DOCTYPE html>\n<html lang=\"en\"><head>"
      "<meta charset=\"utf-8\">\n<title>VMAF: ");
  html_text (out, r->distorted);
  g_string_append (out, "</title>\n<style>\n"
      "body{font:14px/1.4 sans-serif;margin:20px;color:#222;background:#fff}"
      "h1{font-size:20px}h2{font-size:16px;margin-top:28px;"
      "border-top:1px solid #ccc;padding-top:12px}"
      "table{border-collapse:collapse;margin:8px 0}"
      "td,th{border:1px solid #ccc;padding:3px 8px;text-align:right;"
      "vertical-align:middle}th{background:#eee}td.img{padding:2px}"
      "img.thumb{display:block;max-width:320px}.muted{color:#666}"
      ".err{color:#b00;font-weight:bold}svg{display:block;margin:6px 0}"
      ".vmaf{fill:none;stroke:#1f5fbf;stroke-width:1.2}"
      ".mean{stroke:#e08000;stroke-width:1.5;stroke-dasharray:6 4}"
      ".worst{fill:#d00}.axis{stroke:#ddd;stroke-width:1}"
      ".lbl{font:11px sans-serif;fill:#555}\n</style></head><body>\n"
      "<h1>VMAF of ");
  html_text (out, r->distorted);
  g_string_append (out, "</h1>\n<p class=\"muted\">Against ");
  html_text (out, r->reference);
  g_string_append (out, "; model <b>");
  html_text (out, r->model);
  g_string_append_printf (out, "</b> (libvmaf " COMPARE_VMAF_LIBVMAF_VERSION
      "'s numbers, cudacompare metrics=vmaf); %u frames compared (the "
      "reference has %" G_GUINT64_FORMAT ", the distorted file %"
      G_GUINT64_FORMAT "). Generated by sharpness-scan " VERSION ".</p>\n",
      r->frames->len, r->ref_frames, r->dist_frames);
  for (guint i = 0; i < r->notes->len; i++) {
    g_string_append (out, "<p class=\"err\">");
    html_text (out, r->notes->pdata[i]);
    g_string_append (out, "</p>\n");
  }

  g_string_append (out, "<h2>Summary</h2>\n<table class=\"summary\"><tr>"
      "<th>value</th><th>mean</th><th>harmonic mean</th><th>min</th>"
      "<th>max</th>");
  for (guint i = 0; i < G_N_ELEMENTS (percentiles); i++)
    g_string_append_printf (out, "<th>p%g</th>", percentiles[i]);
  g_string_append (out, "</tr>\n");
  for (guint c = 0; c < r->n_columns; c++) {
    ScanRefPooled q;

    /* The score, and the means of what --compare-metrics added; the
     * features are in the CSV and the JSON. */
    if (c > 0 && c < 12)
      continue;
    scan_ref_pool (r, c, &q);
    g_string_append_printf (out, "<tr><td>%s</td><td>%.6f</td><td>%.6f"
        "</td><td>%.6f</td><td>%.6f</td>",
        sharpness_field_name (r->columns[c]), q.mean, q.harmonic_mean,
        q.min, q.max);
    for (guint i = 0; i < G_N_ELEMENTS (percentiles); i++)
      g_string_append_printf (out, "<td>%.6f</td>", q.p[i]);
    g_string_append (out, "</tr>\n");
  }
  g_string_append (out, "</table>\n<h2>VMAF per frame</h2>\n");
  timeline (out, r, &p);
  g_string_append (out, "<p class=\"muted\">Dashed: the mean; dots: the "
      "worst frames below.</p>\n");

  if (r->worst->len == 0) {
    g_string_append (out, "</body></html>\n");
    return;
  }
  g_string_append_printf (out, "<h2>The %u lowest-VMAF frames</h2>\n"
      "<table class=\"worst\"><tr><th>frame</th><th>time (s)</th>"
      "<th>VMAF</th><th>reference</th><th>distorted</th></tr>\n",
      r->worst->len);
  for (guint k = 0; k < r->worst->len; k++) {
    const ScanRefWorst *w = &g_array_index (r->worst, ScanRefWorst, k);

    g_string_append_printf (out, "<tr class=\"worst\"><td>%" G_GUINT64_FORMAT
        "</td><td>", w->frame);
    append_seconds (out, r, w->frame);
    g_string_append_printf (out, "</td><td>%.6f</td>", value (r, w->frame,
            0));
    image_cell (out, w->ref_jpeg, "reference");
    image_cell (out, w->dist_jpeg, "distorted");
    g_string_append (out, "</tr>\n");
  }
  g_string_append (out, "</table>\n</body></html>\n");
}
