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
scan_file_kind_seconds (const ScanFile * f, SharpnessEventKind kind)
{
  gdouble s = 0.0;

  for (guint i = 0; f->segments && i < f->segments->len; i++) {
    const ScanSegment *ss = &g_array_index (f->segments, ScanSegment, i);
    if (ss->kind == kind && ss->duration != GST_CLOCK_TIME_NONE)
      s += ss->duration / (gdouble) GST_SECOND;
  }
  return s;
}

guint
scan_file_kind_segments (const ScanFile * f, SharpnessEventKind kind)
{
  guint n = 0;

  for (guint i = 0; f->segments && i < f->segments->len; i++)
    n += g_array_index (f->segments, ScanSegment, i).kind == kind;
  return n;
}

gdouble
scan_file_blurry_seconds (const ScanFile * f)
{
  return scan_file_kind_seconds (f, SHARPNESS_EVENT_BLUR);
}

gdouble
scan_file_time (const ScanFile * f, guint64 t)
{
  if (t == GST_CLOCK_TIME_NONE || f->start_time == GST_CLOCK_TIME_NONE)
    return NAN;
  /* Signed: a frame before the first one (reordered) comes out
   * negative. */
  return (gint64) (t - f->start_time) / (gdouble) GST_SECOND;
}

void
scan_append_ns_as_seconds (GString * out, gint64 ns)
{
  guint64 a = ns < 0 ? -(guint64) ns : (guint64) ns;
  gsize len;

  /* Every digit of the nanoseconds, no more: 1.4, 0.033366667. */
  g_string_append_printf (out, "%s%" G_GUINT64_FORMAT ".%09u", ns < 0 ?
      "-" : "", a / GST_SECOND, (guint) (a % GST_SECOND));
  len = out->len;
  while (out->str[len - 1] == '0')
    len--;
  if (out->str[len - 1] == '.')
    len--;
  g_string_truncate (out, len);
}

gdouble
scan_file_frame_time (const ScanFile * f, guint64 i)
{
  if (i >= scan_file_frames (f))
    return NAN;
  return scan_file_time (f, g_array_index (f->frames, ScanFrame, i).pts);
}

gchar *
scan_name_for_line (const gchar * name)
{
  GString *out = g_string_new (NULL);
  const gchar *p = name;

  while (p && *p) {
    guchar c = *p;

    if (c == '\\') {
      g_string_append (out, "\\\\");
      p++;
    } else if (c == '\n' || c == '\r' || c == '\t') {
      g_string_append_c (out, '\\');
      g_string_append_c (out, c == '\n' ? 'n' : c == '\r' ? 'r' : 't');
      p++;
    } else if (c < 0x20 || c == 0x7f) {
      /* Other controls could move a terminal's cursor or end the line. */
      g_string_append_printf (out, "\\x%02x", c);
      p++;
    } else if (c < 0x80) {
      g_string_append_c (out, c);
      p++;
    } else if ((gint32) g_utf8_get_char_validated (p, -1) >= 0 &&
        g_utf8_get_char (p) >= 0xa0) {
      const gchar *next = g_utf8_next_char (p);

      g_string_append_len (out, p, next - p);
      p = next;
    } else {
      /* Not UTF-8, or a C1 control (U+0080 to U+009F): byte by byte. */
      const gchar *next = (gint32) g_utf8_get_char_validated (p, -1) >= 0 ?
          g_utf8_next_char (p) : p + 1;

      for (; p < next; p++)
        g_string_append_printf (out, "\\x%02x", (guchar) * p);
    }
  }
  return g_string_free (out, FALSE);
}

gchar *
scan_name_utf8 (const gchar * name)
{
  return name ? g_utf8_make_valid (name, -1) : NULL;
}

const gchar *
scan_kind_words (SharpnessEventKind kind, gboolean plural)
{
  switch (kind) {
    case SHARPNESS_EVENT_BLACK:
      return plural ? "black segments" : "black segment";
    case SHARPNESS_EVENT_FREEZE:
      return plural ? "frozen segments" : "frozen segment";
    default:
      return plural ? "blurry segments" : "blurry segment";
  }
}

gboolean
scan_file_damaged (const ScanFile * f)
{
  return f->lost_frames > 0 || f->corrupted_frames > 0 ||
      f->decoding_warnings > 0;
}

gboolean
scan_file_image_unjudged (const ScanFile * f)
{
  guint state;

  if (f->kind != SCAN_KIND_IMAGE || scan_file_frames (f) == 0)
    return FALSE;
  /* As for the frames of a video: a flat (or black) picture has too
   * little structure for a blur verdict; its score says nothing of
   * focus. */
  state = g_array_index (f->frames, ScanFrame, 0).state;
  return state == SHARPNESS_CONTENT_FLAT || state == SHARPNESS_CONTENT_BLACK;
}

const gchar *
scan_file_image_no_verdict (const ScanFile * f)
{
  if (scan_file_image_verdict (f) >= 0)
    return NULL;
  if (scan_file_image_unjudged (f))
    return g_array_index (f->frames, ScanFrame, 0).state ==
        SHARPNESS_CONTENT_BLACK ? "black: a black picture gets no blur "
        "verdict" : "flat: too few edges for a blur verdict";
  return "only an absolute threshold judges an image: give --threshold";
}

gint
scan_file_image_verdict (const ScanFile * f)
{
  const ScanSettings *s = f->settings;
  gdouble score;

  if (f->kind != SCAN_KIND_IMAGE || scan_file_frames (f) == 0 ||
      s->threshold <= 0 || scan_file_image_unjudged (f))
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
