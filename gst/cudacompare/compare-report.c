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

static void
add (CompareValues * values, const gchar * name, gdouble v)
{
  g_return_if_fail (values->n < COMPARE_MAX_VALUES);
  values->name[values->n] = g_intern_string (name);
  values->v[values->n++] = v;
}

void
compare_values_init (CompareValues * values, const CompareLayout * l,
    const ComparePsnr * psnr, const CompareSsim * ssim,
    const CompareMsSsim * ms_ssim)
{
  gchar name[32];

  values->n = 0;
  if (psnr) {
    for (gint j = 0; j < l->n_planes; j++) {
      g_snprintf (name, sizeof (name), "psnr-%c", l->names[j]);
      add (values, name, psnr->psnr[j]);
    }
    add (values, "psnr-avg", psnr->psnr_avg);
    for (gint j = 0; j < l->n_planes; j++) {
      g_snprintf (name, sizeof (name), "mse-%c", l->names[j]);
      add (values, name, psnr->mse[j]);
    }
    add (values, "mse-avg", psnr->mse_avg);
  }
  if (ssim) {
    for (gint j = 0; j < l->n_planes; j++) {
      g_snprintf (name, sizeof (name), "ssim-%c", l->names[j]);
      add (values, name, ssim->ssim[j]);
    }
    add (values, "ssim-all", ssim->all);
    add (values, "ssim-db", ssim->db);
  }
  if (ms_ssim)
    add (values, "ms-ssim", ms_ssim->ms_ssim);
}

void
compare_values_to_structure (const CompareValues * values, GstStructure * s)
{
  for (gint i = 0; i < values->n; i++)
    gst_structure_set (s, values->name[i], G_TYPE_DOUBLE, values->v[i], NULL);
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
  for (gint i = 0; i < values->n; i++) {
    CompareFieldStats *f = NULL;
    gdouble v = values->v[i];

    for (gint k = 0; k < stats->n && !f; k++)
      if (stats->name[k] == values->name[i])
        f = &stats->f[k];
    if (!f) {
      if (stats->n == COMPARE_MAX_VALUES)
        continue;
      stats->name[stats->n] = values->name[i];
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
    means->name[k] = stats->name[k];
    means->v[k] = field_mean (&stats->f[k]);
  }
}

GstMessage *
compare_message_new (GstObject * src, GstClockTime timestamp,
    GstClockTime stream_time, GstClockTime running_time,
    GstClockTime duration, guint64 frame, const CompareValues * values,
    guint64 interval_frames, guint64 unpaired)
{
  GstStructure *s = gst_structure_new (COMPARE_MESSAGE_NAME,
      "timestamp", G_TYPE_UINT64, timestamp,
      "stream-time", G_TYPE_UINT64, stream_time,
      "running-time", G_TYPE_UINT64, running_time,
      "duration", G_TYPE_UINT64, duration,
      "frame", G_TYPE_UINT64, frame, NULL);

  compare_values_to_structure (values, s);
  if (interval_frames)
    gst_structure_set (s, "frames", G_TYPE_UINT64, interval_frames,
        "unpaired", G_TYPE_UINT64, unpaired, NULL);
  return gst_message_new_element (src, s);
}

GstMessage *
compare_summary_new (GstObject * src, const CompareCounts * c,
    const CompareStats * total, const ComparePsnrSummary * psnr,
    const CompareLayout * layout, const ComparePair * layout_pair)
{
  GstStructure *s = gst_structure_new (COMPARE_SUMMARY_NAME,
      "frames", G_TYPE_UINT64, c->dist_frames,
      "pairs", G_TYPE_UINT64, c->pairs,
      "ref-frames", G_TYPE_UINT64, c->ref_frames,
      "dist-frames", G_TYPE_UINT64, c->dist_frames,
      "unpaired-ref", G_TYPE_UINT64, c->unpaired_ref,
      "unpaired-dist", G_TYPE_UINT64, c->unpaired_dist,
      "unscored", G_TYPE_UINT64, c->unscored, NULL);
  gchar name[48];

  for (gint k = 0; k < total->n; k++) {
    const CompareFieldStats *f = &total->f[k];

    g_snprintf (name, sizeof (name), "%s-mean", total->name[k]);
    gst_structure_set (s, name, G_TYPE_DOUBLE, field_mean (f), NULL);
    if (!f->n)
      continue;
    g_snprintf (name, sizeof (name), "%s-min", total->name[k]);
    gst_structure_set (s, name, G_TYPE_DOUBLE, f->min, NULL);
    g_snprintf (name, sizeof (name), "%s-min-frame", total->name[k]);
    gst_structure_set (s, name, G_TYPE_UINT64, f->min_frame, NULL);
    g_snprintf (name, sizeof (name), "%s-max", total->name[k]);
    gst_structure_set (s, name, G_TYPE_DOUBLE, f->max, NULL);
    g_snprintf (name, sizeof (name), "%s-max-frame", total->name[k]);
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
          file->columns[i] = values->name[i];
          fprintf (file->f, ",%s", values->name[i]);
        }
        fputc ('\n', file->f);
      }
      fprintf (file->f, "%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",", n,
          frame);
      if (GST_CLOCK_TIME_IS_VALID (pts))
        fprintf (file->f, "%" G_GUINT64_FORMAT, pts);
      /* By the header's columns: a metric refusing a frame leaves its
       * cells empty. */
      for (gint k = 0; k < file->n_columns; k++) {
        fputc (',', file->f);
        for (gint i = 0; i < values->n; i++)
          if (values->name[i] == file->columns[k])
            write_number (file->f, values->v[i], FALSE);
      }
      fputc ('\n', file->f);
      break;
    case COMPARE_STATS_JSON:
      fprintf (file->f, "%s\n{\"n\": %" G_GUINT64_FORMAT ", \"frame\": %"
          G_GUINT64_FORMAT ", \"pts\": ", file->lines ? "," : "", n, frame);
      if (GST_CLOCK_TIME_IS_VALID (pts))
        fprintf (file->f, "%" G_GUINT64_FORMAT, pts);
      else
        fputs ("null", file->f);
      for (gint i = 0; i < values->n; i++) {
        fprintf (file->f, ", \"%s\": ", values->name[i]);
        write_number (file->f, values->v[i], TRUE);
      }
      fputc ('}', file->f);
      break;
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
