/* bench-output.c: the per-frame mode's CSV rows and markdown table.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "bench-sharpness.h"

void
emit_csv (const Resolution * res, const gchar * metric, Mode mode,
    const Result * r)
{
  if (r->failed) {
    fprintf (csv, "%s,%d,%d,%s,%s,0,,,,,\"%s\"\n", res->name, res->width,
        res->height, metric, mode_names[mode], r->note);
  } else {
    fprintf (csv, "%s,%d,%d,%s,%s,%u,%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT
        ",%" G_GUINT64_FORMAT ",%.1f,\n", res->name, res->width, res->height,
        metric, mode_names[mode], r->frames, r->median, r->p10, r->p90,
        1e9 / r->median);
  }
  fflush (csv);
}

static gchar *
fmt_us (const Result * r)
{
  if (r->failed)
    return g_strdup ("n/a");
  return g_strdup_printf ("%.1f", r->median / 1000.0);
}

static gchar *
fmt_fps (const Result * r)
{
  if (r->failed)
    return g_strdup ("n/a");
  return g_strdup_printf ("%.0f", 1e9 / r->median);
}

static gchar *
fmt_ratio (const Result * num, const Result * den)
{
  if (num->failed || den->failed || den->median == 0)
    return g_strdup ("n/a");
  return g_strdup_printf ("%.2f", (double) num->median / den->median);
}

void
emit_markdown_resolution (const Resolution * res, Result results[][MODE_COUNT],
    const Result * shared, guint n_metrics, const SharpnessMetric * metrics)
{
  const Result *va = &shared[MODE_VIDEOANALYSE],
      *h2d = &shared[MODE_H2D_PINNED], *h2d_pageable =
      &shared[MODE_H2D_PAGEABLE];
  gchar *a, *b, *c;
  guint m;

  g_string_append_printf (markdown, "\n### %s (%dx%d NV12)\n\n"
      "Times in us per frame (medians); ratios of medians.\n\n", res->name,
      res->width, res->height);
  a = fmt_us (h2d);
  b = fmt_us (h2d_pageable);
  c = fmt_us (va);
  g_string_append_printf (markdown, "Copy floor (luma plane, %.1f MB): "
      "pinned H2D %s us, pageable H2D %s us. videoanalyse (I420): %s us/frame."
      "\n\n", (double) res->width * res->height / 1e6, a, b, c);
  g_free (a);
  g_free (b);
  g_free (c);

  g_string_append (markdown, "| metric | kernel | CUDA memory | pinned | "
      "pageable | CPU backend | pinned / pinned H2D | fps, CUDA memory | "
      "fps, pinned | CPU / CUDA memory | CPU / pinned | videoanalyse / CUDA "
      "memory | videoanalyse / pinned |\n"
      "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (m = 0; m < n_metrics; m++) {
    Result *r = results[m];
    gchar *cells[] = {
      fmt_us (&r[MODE_KERNEL]), fmt_us (&r[MODE_CUDA_MEMORY]),
      fmt_us (&r[MODE_PINNED]), fmt_us (&r[MODE_PAGEABLE]),
      fmt_us (&r[MODE_CPU]), fmt_ratio (&r[MODE_PINNED], h2d),
      fmt_fps (&r[MODE_CUDA_MEMORY]), fmt_fps (&r[MODE_PINNED]),
      fmt_ratio (&r[MODE_CPU], &r[MODE_CUDA_MEMORY]),
      fmt_ratio (&r[MODE_CPU], &r[MODE_PINNED]),
      fmt_ratio (va, &r[MODE_CUDA_MEMORY]), fmt_ratio (va, &r[MODE_PINNED]),
    };
    guint k;

    g_string_append_printf (markdown, "| %s |",
        sharpness_metric_info[metrics[m]].nick);
    for (k = 0; k < G_N_ELEMENTS (cells); k++) {
      g_string_append_printf (markdown, " %s |", cells[k]);
      g_free (cells[k]);
    }
    g_string_append_c (markdown, '\n');
  }
  for (m = 0; m < n_metrics; m++) {
    Mode mode;

    for (mode = MODE_KERNEL; mode <= MODE_CPU; mode++) {
      if (results[m][mode].failed)
        g_string_append_printf (markdown, "\n- %s %s: %s",
            sharpness_metric_info[metrics[m]].nick, mode_names[mode],
            results[m][mode].note);
    }
  }
  g_string_append (markdown, "\n");
}
