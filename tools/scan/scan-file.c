/* sharpness-scan: what the outputs ask of a scanned file (its duration,
 * verdicts, damage, why it stopped), and times and signals in words.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <signal.h>

#include "scan.h"

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

gdouble
scan_ns_to_s (guint64 t)
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
  return scan_ns_to_s (last->pts - first->pts) + frame;
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

gboolean
scan_file_damaged (const ScanFile * f)
{
  return f->lost_frames > 0 || f->corrupted_frames > 0 ||
      f->decoding_warnings > 0;
}

gint
scan_file_image_verdict (const ScanFile * f)
{
  const ScanSettings *s = f->settings;
  gdouble score;

  if (f->kind != SCAN_KIND_IMAGE || scan_file_frames (f) == 0 ||
      s->threshold <= 0)
    return -1;
  score = scan_file_score (f, 0, 0);
  if (!isfinite (score))
    return -1;
  return sharpness_metric_is_worse (s->metrics[0], score, s->threshold);
}

const gchar *
scan_file_stop_reason (const ScanFile * f)
{
  switch (f->stopped) {
    case SCAN_STOP_DURATION:
      return "stopped at --duration";
    case SCAN_STOP_MAX_FRAMES:
      return "stopped at --max-frames";
    case SCAN_STOP_SIGNAL:
      return "interrupted";
    default:
      return NULL;
  }
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

gchar *
scan_format_seconds (gdouble seconds)
{
  gint64 t;

  if (!isfinite (seconds) || seconds < 0)
    return g_strdup ("?");
  t = (gint64) (seconds + 0.5);
  if (t >= 3600)
    return g_strdup_printf ("%d:%02d:%02d", (gint) (t / 3600),
        (gint) (t / 60 % 60), (gint) (t % 60));
  return g_strdup_printf ("%d:%02d", (gint) (t / 60), (gint) (t % 60));
}

const gchar *
scan_signal_name (gint sig)
{
  switch (sig) {
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
    default:
      return "signal";
  }
}
