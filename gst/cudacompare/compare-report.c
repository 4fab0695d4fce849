/* Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "compare-report.h"

void
compare_values_init (CompareValues * values, const CompareLayout * l,
    const ComparePsnr * psnr, const CompareSsim * ssim,
    const CompareMsSsim * ms_ssim)
{
  values->n = 0;
  if (psnr) {
    for (gint j = 0; j < l->n_planes; j++)
      compare_values_add (values, compare_value_plane_field
          (SHARPNESS_FIELD_PSNR_Y, l->names[j]), psnr->psnr[j]);
    compare_values_add (values, SHARPNESS_FIELD_PSNR_AVG, psnr->psnr_avg);
    for (gint j = 0; j < l->n_planes; j++)
      compare_values_add (values, compare_value_plane_field
          (SHARPNESS_FIELD_MSE_Y, l->names[j]), psnr->mse[j]);
    compare_values_add (values, SHARPNESS_FIELD_MSE_AVG, psnr->mse_avg);
  }
  if (ssim) {
    for (gint j = 0; j < l->n_planes; j++)
      compare_values_add (values, compare_value_plane_field
          (SHARPNESS_FIELD_SSIM_Y, l->names[j]), ssim->ssim[j]);
    compare_values_add (values, SHARPNESS_FIELD_SSIM_ALL, ssim->all);
    compare_values_add (values, SHARPNESS_FIELD_SSIM_DB, ssim->db);
  }
  if (ms_ssim)
    compare_values_add (values, SHARPNESS_FIELD_MS_SSIM, ms_ssim->ms_ssim);
}

void
compare_stats_reset (CompareStats * stats)
{
  memset (stats, 0, sizeof (*stats));
}

void
compare_stats_add (CompareStats * stats, const CompareValues * values,
    guint64 frame)
{
  stats->pairs++;
  compare_stats_add_values (stats, values, frame);
}

void
compare_stats_add_values (CompareStats * stats, const CompareValues * values,
    guint64 frame)
{
  for (gint i = 0; i < values->n; i++) {
    CompareFieldStats *f = NULL;
    gdouble v = values->v[i];

    for (gint k = 0; k < stats->n && !f; k++)
      if (stats->field[k] == values->field[i])
        f = &stats->f[k];
    if (!f) {
      if (stats->n == COMPARE_MAX_VALUES)
        continue;
      stats->field[stats->n] = values->field[i];
      f = &stats->f[stats->n++];
    }
    if (isnan (v))
      continue;
    if (f->n == 0 || v < f->min)
      f->min = v, f->min_frame = frame;
    if (f->n == 0 || v > f->max)
      f->max = v, f->max_frame = frame;
    f->n++;
    if (isfinite (v)) {
      f->sum += v;
      f->finite++;
    }
  }
}

static gdouble
field_mean (const CompareFieldStats * f)
{
  if (f->finite)
    return f->sum / f->finite;
  /* Every value infinite (identical frames: PSNR +inf) or none. */
  return f->n ? f->max : NAN;
}

void
compare_stats_means (const CompareStats * stats, CompareValues * means)
{
  means->n = stats->n;
  for (gint k = 0; k < stats->n; k++) {
    means->field[k] = stats->field[k];
    means->v[k] = field_mean (&stats->f[k]);
  }
}

GstMessage *
compare_summary_new (GstObject * src, const CompareCounts * c,
    const CompareStats * total, const ComparePsnrSummary * psnr,
    const CompareLayout * layout, const ComparePair * layout_pair)
{
  GstStructure *s = sharpness_structure_new (SHARPNESS_FIELD_COMPARE_SUMMARY);
  gchar name[48];

  sharpness_structure_set_uint64 (s, SHARPNESS_FIELD_FRAMES, c->dist_frames);
  sharpness_structure_set_uint64 (s, SHARPNESS_FIELD_PAIRS, c->pairs);
  sharpness_structure_set_uint64 (s, SHARPNESS_FIELD_REF_FRAMES,
      c->ref_frames);
  sharpness_structure_set_uint64 (s, SHARPNESS_FIELD_DIST_FRAMES,
      c->dist_frames);
  sharpness_structure_set_uint64 (s, SHARPNESS_FIELD_UNPAIRED_REF,
      c->unpaired_ref);
  sharpness_structure_set_uint64 (s, SHARPNESS_FIELD_UNPAIRED_DIST,
      c->unpaired_dist);
  sharpness_structure_set_uint64 (s, SHARPNESS_FIELD_UNSCORED, c->unscored);

  /* Once per stream: per-value names made with the value's name. */
  for (gint k = 0; k < total->n; k++) {
    const CompareFieldStats *f = &total->f[k];
    const gchar *value = sharpness_field_name (total->field[k]);

    g_snprintf (name, sizeof (name), "%s-mean", value);
    gst_structure_set (s, name, G_TYPE_DOUBLE, field_mean (f), NULL);
    if (!f->n)
      continue;
    g_snprintf (name, sizeof (name), "%s-min", value);
    gst_structure_set (s, name, G_TYPE_DOUBLE, f->min, NULL);
    g_snprintf (name, sizeof (name), "%s-min-frame", value);
    gst_structure_set (s, name, G_TYPE_UINT64, f->min_frame, NULL);
    g_snprintf (name, sizeof (name), "%s-max", value);
    gst_structure_set (s, name, G_TYPE_DOUBLE, f->max, NULL);
    g_snprintf (name, sizeof (name), "%s-max-frame", value);
    gst_structure_set (s, name, G_TYPE_UINT64, f->max_frame, NULL);
  }

  if (psnr && psnr->n_frames > 0 && layout_pair) {
    gdouble plane[COMPARE_MAX_PLANES], average, min, max;

    /* FFmpeg's end-of-stream line: "PSNR y:.. u:.. v:.. average:..
     * min:.. max:..", each the PSNR of a mean (or extreme) MSE. */
    compare_psnr_summary_result (psnr, layout_pair, plane, &average, &min,
        &max);
    for (gint j = 0; j < layout->n_planes; j++) {
      g_snprintf (name, sizeof (name), "ffmpeg-psnr-%c", layout->names[j]);
      gst_structure_set (s, name, G_TYPE_DOUBLE, plane[layout->display[j]],
          NULL);
    }
    gst_structure_set (s, "ffmpeg-psnr-average", G_TYPE_DOUBLE, average,
        "ffmpeg-psnr-min", G_TYPE_DOUBLE, min,
        "ffmpeg-psnr-max", G_TYPE_DOUBLE, max, NULL);
  }

  /* FFmpeg's end-of-stream line: "SSIM Y:.. (dB) .. All:.. (dB)", each the
   * mean of the frames' values and the dB of that mean (not the mean of
   * the frames' dB, which ssim-db-mean is): the same sums in the same
   * order. */
  for (gint k = 0; k < total->n; k++) {
    const CompareFieldStats *f = &total->f[k];
    SharpnessField field = total->field[k];
    const gchar *value;

    if (field < SHARPNESS_FIELD_SSIM_Y || field > SHARPNESS_FIELD_SSIM_ALL ||
        f->finite == 0)
      continue;
    value = sharpness_field_name (field);
    g_snprintf (name, sizeof (name), "ffmpeg-%s", value);
    gst_structure_set (s, name, G_TYPE_DOUBLE, f->sum / f->finite, NULL);
    g_snprintf (name, sizeof (name), "ffmpeg-%s-db", value);
    gst_structure_set (s, name, G_TYPE_DOUBLE,
        compare_ssim_db (f->sum, (gdouble) f->finite), NULL);
  }
  return gst_message_new_element (src, s);
}

gboolean
compare_stats_file_open (CompareStatsFile * file, const gchar * path,
    CompareStatsFormat format, GError ** error)
{
  memset (file, 0, sizeof (*file));
  file->format = format;
  file->f = g_fopen (path, "w");
  if (!file->f) {
    int e = errno;

    g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (e),
        "cannot open stats-file %s for writing: %s", path, g_strerror (e));
    return FALSE;
  }
  if (format == COMPARE_STATS_JSON)
    fputs ("[", file->f);
  return TRUE;
}

static void
write_number (FILE * f, gdouble v, gboolean json)
{
  /* JSON has no inf/NaN: null (PSNR +inf of identical planes reads as
   * mse 0 beside it). */
  if (json && !isfinite (v))
    fputs ("null", f);
  else
    fprintf (f, "%.17g", v);
}

/* Nanoseconds as seconds, exactly (nine decimals). */
static void
write_seconds (FILE * f, GstClockTime t)
{
  fprintf (f, "%" G_GUINT64_FORMAT ".%09" G_GUINT64_FORMAT, t / GST_SECOND,
      t % GST_SECOND);
}

void
compare_stats_file_write (CompareStatsFile * file, guint64 n, guint64 frame,
    GstClockTime pts, const CompareLayout * layout,
    const ComparePair * layout_pair, const ComparePsnr * psnr,
    const CompareSsim * ssim, const CompareValues * values)
{
  gchar line[512];

  if (!file->f)
    return;

  switch (file->format) {
    case COMPARE_STATS_FFMPEG_PSNR:
      if (!psnr)
        return;
      compare_format_psnr_line (line, sizeof (line), n, psnr, layout_pair,
          layout->rgb);
      fprintf (file->f, "%s\n", line);
      break;
    case COMPARE_STATS_FFMPEG_SSIM:
      if (!ssim)
        return;
      compare_format_ssim_line (line, sizeof (line), n, ssim, layout->rgb);
      fprintf (file->f, "%s\n", line);
      break;
    case COMPARE_STATS_CSV:
      if (file->lines == 0) {
        file->n_columns = values->n;
        fputs ("n,frame,pts", file->f);
        for (gint i = 0; i < values->n; i++) {
          file->columns[i] = values->field[i];
          fprintf (file->f, ",%s", sharpness_field_name (values->field[i]));
        }
        fputc ('\n', file->f);
      }
      fprintf (file->f, "%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",", n,
          frame);
      if (GST_CLOCK_TIME_IS_VALID (pts))
        write_seconds (file->f, pts);
      /* By the header's columns: a metric refusing a frame leaves its
       * cells empty. */
      for (gint k = 0; k < file->n_columns; k++) {
        fputc (',', file->f);
        for (gint i = 0; i < values->n; i++)
          if (values->field[i] == file->columns[k])
            write_number (file->f, values->v[i], FALSE);
      }
      fputc ('\n', file->f);
      break;
    case COMPARE_STATS_JSON:
      fprintf (file->f, "%s\n{\"n\": %" G_GUINT64_FORMAT ", \"frame\": %"
          G_GUINT64_FORMAT ", \"pts\": ", file->lines ? "," : "", n, frame);
      if (GST_CLOCK_TIME_IS_VALID (pts))
        write_seconds (file->f, pts);
      else
        fputs ("null", file->f);
      for (gint i = 0; i < values->n; i++) {
        fprintf (file->f, ", \"%s\": ", sharpness_field_name (values->field[i]));
        write_number (file->f, values->v[i], TRUE);
      }
      fputc ('}', file->f);
      break;
    case COMPARE_STATS_VMAF_JSON:
    case COMPARE_STATS_VMAF_XML:
    case COMPARE_STATS_VMAF_CSV:
      /* The VMAF log is written whole at the end. */
      return;
  }
  file->lines++;
}

gboolean
compare_stats_file_close (CompareStatsFile * file)
{
  gboolean ok;

  if (!file->f)
    return TRUE;
  if (file->format == COMPARE_STATS_JSON)
    fputs ("\n]\n", file->f);
  ok = !ferror (file->f);
  ok = fclose (file->f) == 0 && ok;
  file->f = NULL;
  return ok;
}

void
compare_report_reset_interval (CompareReport * report)
{
  compare_stats_reset (&report->interval_stats);
  sharpness_interval_reset (&report->interval);
  report->unpaired_since_message = 0;
}

void
compare_report_reset (CompareReport * report)
{
  compare_stats_reset (&report->total);
  compare_report_reset_interval (report);
  compare_psnr_summary_init (&report->psnr_summary);
}

GstMessage *
compare_report_pair (CompareReport * report, GstObject * src,
    const CompareLayout * layout, const ComparePair * layout_pair,
    GstBuffer * dist, guint64 n, guint64 frame, CompareResult * r,
    guint computed, const SharpnessTimes * times, guint64 interval)
{
  CompareValues values, means;
  GstMessage *msg;
  gboolean psnr = (computed & COMPARE_METRIC_PSNR) != 0;
  gboolean ssim = (computed & COMPARE_METRIC_SSIM) != 0;

  /* The PSNR summary in plane order, before the display order below. */
  if (psnr)
    compare_psnr_summary_add (&report->psnr_summary, &r->psnr);
  /* From here on, display order (r g b for RGB). */
  compare_layout_psnr_to_display (layout, &r->psnr);
  compare_layout_ssim_to_display (layout, &r->ssim);
  compare_values_init (&values, layout, psnr ? &r->psnr : NULL,
      ssim ? &r->ssim : NULL,
      (computed & COMPARE_METRIC_MS_SSIM) ? &r->ms_ssim : NULL);

  compare_meta_set (dist, frame, &values);
  compare_stats_add (&report->total, &values, frame);
  compare_stats_file_write (&report->stats_file, n, frame,
      GST_BUFFER_PTS (dist), layout, layout_pair, psnr ? &r->psnr : NULL,
      ssim ? &r->ssim : NULL, &values);

  if (!times) {
    compare_report_reset_interval (report);
    return NULL;
  }
  if (interval == 0)
    return compare_message_new (src, times, frame, &values, 0, 0);

  compare_stats_add (&report->interval_stats, &values, frame);
  if (!sharpness_interval_add (&report->interval, times->duration, interval))
    return NULL;
  compare_stats_means (&report->interval_stats, &means);
  msg = compare_message_new (src, times, frame, &means,
      report->interval_stats.pairs, report->unpaired_since_message);
  compare_report_reset_interval (report);
  return msg;
}
