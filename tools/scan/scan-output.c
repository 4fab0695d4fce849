/* sharpness-scan's text outputs: the CSV of the frames and the summary
 * line of each file.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>

#include "scan.h"

/* Lost frames whose times the summary line lists. */
#define MAX_LOSSES_LISTED 5

/* CSV: RFC 4180 quoting for the file name, which is made valid UTF-8
 * (a CSV is text: one name in another encoding made the whole file
 * unreadable as UTF-8); the JSON's uri has its exact bytes. */
static void
csv_string (GString * out, const gchar * s)
{
  gchar *text = scan_name_utf8 (s);

  g_string_append_c (out, '"');
  for (const gchar * p = text; *p; p++) {
    if (*p == '"')
      g_string_append_c (out, '"');
    g_string_append_c (out, *p);
  }
  g_string_append_c (out, '"');
  g_free (text);
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
  g_string_append (out, ",blurry,kind,damaged,state,black_ratio,"
      "freeze_mafd,structure\n");
}

void
scan_csv_file (GString * out, const ScanFile * f)
{
  guint nm = f->settings->n_metrics;
  gboolean image = f->kind == SCAN_KIND_IMAGE;

  for (guint64 i = 0; i < scan_file_frames (f); i++) {
    const ScanFrame *fr = &g_array_index (f->frames, ScanFrame, i);
    gint verdict = scan_file_image_verdict (f);

    csv_string (out, f->input);
    g_string_append_printf (out, ",%" G_GUINT64_FORMAT ",", i);
    if (fr->pts != GST_CLOCK_TIME_NONE &&
        f->start_time != GST_CLOCK_TIME_NONE)
      scan_append_ns_as_seconds (out, (gint64) (fr->pts - f->start_time));
    for (guint m = 0; m < nm; m++) {
      g_string_append_c (out, ',');
      number (out, scan_file_score (f, i, m));
    }
    /* An image's verdict is the absolute threshold's, empty without
     * one. */
    if (image && verdict < 0)
      g_string_append_c (out, ',');
    else
      g_string_append_printf (out, ",%d", image ? verdict : fr->blurry);
    g_string_append_printf (out, ",%s,%d,%s,", image ? "image" : "video",
        fr->damaged, fr->state < SHARPNESS_CONTENT_N_STATES ?
        sharpness_content_state_name (fr->state) : "");
    number (out, fr->black_ratio);
    g_string_append_c (out, ',');
    number (out, fr->freeze_mafd);
    g_string_append_c (out, ',');
    number (out, fr->structure);
    g_string_append_c (out, '\n');
  }
}

static void
summary_image (GString * s, const ScanFile * f)
{
  const ScanSettings *st = f->settings;
  gint verdict = scan_file_image_verdict (f);

  g_string_append_printf (s, ": image (%dx%d): %s %.4g: %s", f->width,
      f->height, sharpness_metric_info[st->metrics[0]].nick,
      scan_file_score (f, 0, 0), verdict < 0 ? "no verdict" : verdict ?
      "blurry" : "sharp");
  if (verdict < 0)
    g_string_append_printf (s, " (%s)", scan_file_image_no_verdict (f));
}

static void
summary_damage (GString * s, const ScanFile * f)
{
  guint listed = 0;

  g_string_append (s, "; DAMAGED:");
  if (f->lost_frames) {
    g_string_append_printf (s, " %" G_GUINT64_FORMAT " frame%s lost (at",
        f->lost_frames, f->lost_frames > 1 ? "s" : "");
    for (guint i = 0; i < f->damage->len && listed < MAX_LOSSES_LISTED;
        i++) {
      const ScanDamage *d = &g_array_index (f->damage, ScanDamage, i);
      if (d->lost_frames)
        g_string_append_printf (s, "%s %.2f s", listed++ ? "," : "",
            scan_file_time (f, d->start));
    }
    g_string_append (s, listed < f->damage->len ? ", ...)" : ")");
  }
  if (f->corrupted_frames)
    g_string_append_printf (s, "%s %" G_GUINT64_FORMAT " corrupted frame%s",
        f->lost_frames ? "," : "", f->corrupted_frames,
        f->corrupted_frames > 1 ? "s" : "");
  if (f->decoding_warnings)
    g_string_append_printf (s, "%s %u decoding warning%s",
        f->lost_frames || f->corrupted_frames ? "," : "",
        f->decoding_warnings, f->decoding_warnings > 1 ? "s" : "");
  g_string_append (s, ": verdicts over damaged stretches are unreliable");
}

/* The first times of the segments of @kind. */
static void
summary_times (GString * s, const ScanFile * f, SharpnessEventKind kind)
{
  guint listed = 0;

  for (guint i = 0; i < f->segments->len; i++) {
    const ScanSegment *ss = &g_array_index (f->segments, ScanSegment, i);

    if (ss->kind != kind)
      continue;
    if (listed++ == 5) {
      g_string_append (s, " ...");
      break;
    }
    g_string_append_printf (s, " %.2f-%.2f", scan_file_time (f, ss->start),
        scan_file_time (f, ss->end));
  }
}

gchar *
scan_summary_line (const ScanFile * f)
{
  gchar *name = scan_name_for_line (f->input);
  GString *s = g_string_new (name);
  guint nblur;
  guint64 n = scan_file_frames (f);
  gdouble secs = scan_file_seconds (f), bsecs = scan_file_blurry_seconds (f);
  const gchar *stop = scan_file_stop_reason (f);

  if (f->kind == SCAN_KIND_IMAGE) {
    summary_image (s, f);
  } else {
    g_string_append_printf (s, ": %" G_GUINT64_FORMAT " frames", n);
    if (f->width > 0)
      g_string_append_printf (s, " (%dx%d, %.3g fps, %.1f s)", f->width,
          f->height, f->fps_n > 0 ? (gdouble) f->fps_n / f->fps_d : 0.0,
          secs);
    if (stop)
      g_string_append_printf (s, " (%s)", stop);
    nblur = scan_file_kind_segments (f, SHARPNESS_EVENT_BLUR);
    if (nblur == 0) {
      g_string_append (s, ": no blurry segment");
    } else {
      g_string_append_printf (s, ": %u %s, %.2f s (%.1f%%):", nblur,
          scan_kind_words (SHARPNESS_EVENT_BLUR, nblur > 1), bsecs,
          secs > 0 ? 100.0 * bsecs / secs : 0.0);
      summary_times (s, f, SHARPNESS_EVENT_BLUR);
    }
    /* The other kinds only when found: a clean file's line stays short. */
    for (SharpnessEventKind k = SHARPNESS_EVENT_BLACK;
        k < SHARPNESS_EVENT_N_KINDS; k++) {
      guint n_k = scan_file_kind_segments (f, k);

      if (n_k == 0)
        continue;
      g_string_append_printf (s, "; %u %s, %.2f s:", n_k,
          scan_kind_words (k, n_k > 1), scan_file_kind_seconds (f, k));
      summary_times (s, f, k);
    }
  }
  if (scan_file_damaged (f))
    summary_damage (s, f);
  /* The notes that change how to read the numbers (decoding warnings are
   * counted above). */
  for (guint i = 0; i < f->notes->len; i++)
    if (!g_str_has_prefix (f->notes->pdata[i], "decoding warning"))
      g_string_append_printf (s, "; %s", (gchar *) f->notes->pdata[i]);
  /* The scan's speed; meaningless for one image. */
  if (f->kind != SCAN_KIND_IMAGE)
    g_string_append_printf (s, "; %.0f fps", f->elapsed > 0 ?
        n / f->elapsed : 0.0);
  g_free (name);
  return g_string_free (s, FALSE);
}
