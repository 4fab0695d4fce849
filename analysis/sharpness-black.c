/* Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "sharpness-black.h"

#include <stdlib.h>

#include "sharpness-simd.h"

guint
sharpness_black_pixel_threshold (gdouble pixel_black_th, guint depth,
    gboolean full_range)
{
  /* vf_blackdetect.c: max = (1 << depth) - 1, factor = 1 << (depth - 8),
   * both int; the expressions below are FFmpeg's, operand for operand, so
   * that the double rounding is the same (factor is a power of two: the
   * multiplication by it is exact).  The assignment to FFmpeg's unsigned
   * int truncates. */
  const int max = (1 << depth) - 1;
  const int factor = 1 << (depth - 8);
  gdouble th;

  g_return_val_if_fail (depth >= 8 && depth <= 16, 0);
  g_return_val_if_fail (pixel_black_th >= 0.0 && pixel_black_th <= 1.0, 0);

  if (full_range)
    th = pixel_black_th * max;
  else
    th = 16 * factor + pixel_black_th * (235 - 16) * factor;
  return (guint) th;
}

gboolean
sharpness_black_ffmpeg_full_range (SharpnessBlackRangeRule rule,
    SharpnessBlackFormatKind kind, SharpnessBlackRange range)
{
  if (kind == SHARPNESS_BLACK_FORMAT_YUVJ)
    return TRUE;
  /* 5.1, config_input: ff_fmt_is_in (inlink->format, yuvj_formats). */
  if (rule == SHARPNESS_BLACK_RANGE_RULE_FFMPEG_5_1)
    return FALSE;
  /* 7.1, filter_frame: picref->color_range == AVCOL_RANGE_JPEG; the buffer
   * source fills an unspecified range with the link's, which
   * avfiltergraph.c's pick_format sets to JPEG for formats that are not
   * "regular YUV" (fewer than 3 components: gray). */
  if (range == SHARPNESS_BLACK_RANGE_UNSPECIFIED)
    return kind == SHARPNESS_BLACK_FORMAT_GRAY;
  return range == SHARPNESS_BLACK_RANGE_FULL;
}

/* The common case (the luma of 8-bit planar YUV) in a loop the compiler
 * vectorises; the same rule as sharpness_black_sample_is_black(). */
static SHARPNESS_SIMD_CLONES guint32
black_row_y8 (const uint8_t * row, int width, guint threshold)
{
  guint32 n = 0;

  for (int x = 0; x < width; x++)
    n += row[x] <= threshold;
  return n;
}

gboolean
sharpness_black_count_plane (const SharpnessPlane * luma, guint threshold,
    guint64 * count)
{
  guint64 n = 0;

  *count = 0;
  g_return_val_if_fail (luma != NULL, FALSE);
  if (luma->samples != SHARPNESS_SAMPLES_Y8 &&
      luma->samples != SHARPNESS_SAMPLES_Y16LE)
    return FALSE;

  for (int y = 0; y < luma->height; y++) {
    const uint8_t *row = luma->data + (size_t) y * luma->stride;

    if (luma->samples == SHARPNESS_SAMPLES_Y8 && luma->pixel_stride == 1) {
      n += black_row_y8 (row, luma->width, threshold);
      continue;
    }
    for (int x = 0; x < luma->width; x++)
      n += sharpness_black_sample_is_black (sharpness_black_sample_at (luma,
              row, x), threshold);
  }
  *count = n;
  return TRUE;
}

guint
sharpness_black_v210_luma (const guint8 * row, gint x)
{
  /* Each 16-byte block holds 6 pixels in four little-endian 32-bit words
   * of three 10-bit fields (bits 0-9, 10-19, 20-29):
   *   w0: Cb0 Y0 Cr0   w1: Y1 Cb2 Y2   w2: Cr2 Y3 Cb4   w3: Y4 Cr4 Y5
   * so luma k of the block is field (1, 0, 2, 1, 0, 2)[k] of word
   * (0, 1, 1, 2, 3, 3)[k]. */
  static const guint8 word_of[6] = { 0, 1, 1, 2, 3, 3 };
  static const guint8 field_of[6] = { 1, 0, 2, 1, 0, 2 };
  const guint8 *w = row + (gsize) (x / 6) * 16 + word_of[x % 6] * 4;
  guint32 v = w[0] | ((guint32) w[1] << 8) | ((guint32) w[2] << 16) |
      ((guint32) w[3] << 24);

  return (v >> (10 * field_of[x % 6])) & 0x3ff;
}

guint64
sharpness_black_count_v210 (const guint8 * data, gsize stride, gint width,
    gint height, guint threshold)
{
  guint64 n = 0;

  for (gint y = 0; y < height; y++) {
    const guint8 *row = data + (gsize) y * stride;
    for (gint x = 0; x < width; x++)
      n += sharpness_black_sample_is_black (sharpness_black_v210_luma (row,
              x), threshold);
  }
  return n;
}

gboolean
sharpness_black_frame_is_black (guint64 black, guint64 pixels,
    gdouble picture_black_ratio_th)
{
  /* FFmpeg: (double) nb_black_pixels / (w * h) >= picture_black_ratio_th. */
  if (pixels == 0)
    return FALSE;
  return (gdouble) black / (gdouble) pixels >= picture_black_ratio_th;
}

void
sharpness_black_settings_init (SharpnessBlackSettings * s)
{
  *s = (SharpnessBlackSettings) {
    .picture_black_ratio_th = SHARPNESS_BLACK_DEFAULT_PICTURE_TH,
    .min_duration = SHARPNESS_BLACK_DEFAULT_MIN_DURATION,
  };
}

void
sharpness_black_detector_init (SharpnessBlackDetector * det,
    const SharpnessBlackSettings * settings)
{
  SharpnessBlackSettings s;

  if (settings)
    s = *settings;
  else
    sharpness_black_settings_init (&s);
  *det = (SharpnessBlackDetector) {
    .settings = s,
  };
  if (sharpness_time_base_valid (&s.time_base)) {
    /* config_input: black_min_duration = black_min_duration_time /
     * av_q2d (time_base), stored in an int64 (truncation).  d is FFmpeg's
     * double of seconds: the nanoseconds back to seconds is the double
     * nearest to the decimal FFmpeg parsed (up to 9 decimals). */
    gdouble d = (gdouble) s.min_duration / 1e9;
    gdouble tb = s.time_base.num / (gdouble) s.time_base.den;
    det->min_ticks = (gint64) (d / tb);
  }
  sharpness_black_detector_reset (det);
}

void
sharpness_black_detector_reset (SharpnessBlackDetector * det)
{
  det->frames = 0;
  det->started = FALSE;
  det->start = det->start_frame = 0;
  det->have_last = FALSE;
  det->last_pts = det->last_duration = SHARPNESS_TIME_NONE;
  det->last_frame = 0;
}

/* end - start >= d, counted as FFmpeg counts (ticks or ns). */
static gboolean
long_enough (const SharpnessBlackDetector * det, guint64 start, guint64 end)
{
  const SharpnessTimeBase *tb = &det->settings.time_base;

  if (end < start)
    return FALSE;
  if (sharpness_time_base_valid (tb))
    return sharpness_ffmpeg_ticks_from_ns (end, tb) -
        sharpness_ffmpeg_ticks_from_ns (start, tb) >= det->min_ticks;
  return end - start >= det->settings.min_duration;
}

static void
fill_run (const SharpnessBlackDetector * det, SharpnessBlackResult * r,
    guint64 end, guint64 end_frame)
{
  r->start = det->start;
  r->start_frame = det->start_frame;
  r->end = end;
  r->end_frame = end_frame;
  r->duration = end >= det->start ? end - det->start : 0;
}

/* One frame whose ratio and verdict are known. */
static SharpnessBlackEvents
push_judged (SharpnessBlackDetector * det, guint64 pts, guint64 duration,
    gdouble ratio, gboolean is_black, SharpnessBlackResult * res)
{
  SharpnessBlackResult r = {
    .start = SHARPNESS_TIME_NONE,
    .end = SHARPNESS_TIME_NONE,
    .duration = SHARPNESS_TIME_NONE,
    .last_frame_end = SHARPNESS_TIME_NONE,
  };
  const guint64 index = det->frames++;

  r.ratio = ratio;
  r.black = is_black;

  if (pts != SHARPNESS_TIME_NONE) {
    if (r.black) {
      if (!det->started) {
        det->started = TRUE;
        det->start = pts;
        det->start_frame = index;
        r.events |= SHARPNESS_BLACK_EVENT_RUN_START;
        r.start = pts;
        r.start_frame = index;
      }
    } else if (det->started) {
      det->started = FALSE;
      fill_run (det, &r, pts, index);
      r.events |= SHARPNESS_BLACK_EVENT_RUN_END;
      if (long_enough (det, det->start, pts))
        r.events |= SHARPNESS_BLACK_EVENT_INTERVAL;
    }
    det->have_last = TRUE;
    det->last_pts = pts;
    det->last_duration = duration;
    det->last_frame = index;
  }

  if (res)
    *res = r;
  return r.events;
}

SharpnessBlackEvents
sharpness_black_detector_push (SharpnessBlackDetector * det, guint64 pts,
    guint64 duration, guint64 black, guint64 pixels,
    SharpnessBlackResult * res)
{
  return push_judged (det, pts, duration,
      pixels ? (gdouble) black / (gdouble) pixels : 0.0,
      sharpness_black_frame_is_black (black, pixels,
          det->settings.picture_black_ratio_th), res);
}

SharpnessBlackEvents
sharpness_black_detector_push_ratio (SharpnessBlackDetector * det,
    guint64 pts, guint64 duration, gdouble ratio, SharpnessBlackResult * res)
{
  /* The double FFmpeg compares is the ratio itself. */
  return push_judged (det, pts, duration, ratio,
      ratio >= det->settings.picture_black_ratio_th, res);
}

SharpnessBlackEvents
sharpness_black_detector_finish (SharpnessBlackDetector * det,
    SharpnessBlackResult * res)
{
  SharpnessBlackResult r = {
    .start = SHARPNESS_TIME_NONE,
    .end = SHARPNESS_TIME_NONE,
    .duration = SHARPNESS_TIME_NONE,
    .last_frame_end = SHARPNESS_TIME_NONE,
  };

  /* uninit: black_end = last_picref_pts, then check_black_end. */
  if (det->started && det->have_last) {
    fill_run (det, &r, det->last_pts, det->last_frame);
    r.at_eos = TRUE;
    if (det->last_duration != SHARPNESS_TIME_NONE)
      r.last_frame_end = det->last_pts + det->last_duration;
    if (long_enough (det, det->start, det->last_pts))
      r.events |= SHARPNESS_BLACK_EVENT_INTERVAL;
  }
  sharpness_black_detector_reset (det);
  if (res)
    *res = r;
  return r.events;
}
