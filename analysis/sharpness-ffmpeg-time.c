/* Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "sharpness-ffmpeg-time.h"

gboolean
sharpness_time_base_valid (const SharpnessTimeBase * tb)
{
  return tb && tb->num > 0 && tb->den > 0;
}

gint64
sharpness_ffmpeg_rescale (gint64 a, gint64 b, gint64 c)
{
  unsigned __int128 q;

  g_return_val_if_fail (a >= 0 && b > 0 && c > 0, 0);
  /* av_rescale_rnd's AV_ROUND_NEAR_INF adds c / 2 (integer division, so
   * an odd c, which has no exact half, rounds the same way). */
  q = ((unsigned __int128) a * (unsigned __int128) b + (guint64) c / 2) /
      (guint64) c;
  return q > G_MAXINT64 ? G_MAXINT64 : (gint64) q;
}

gint64
sharpness_ffmpeg_ticks_from_ns (guint64 ns, const SharpnessTimeBase * tb)
{
  unsigned __int128 num, den, q;

  g_return_val_if_fail (sharpness_time_base_valid (tb), 0);
  /* ticks = ns * den / (num * 1e9), to nearest. */
  num = (unsigned __int128) ns * (guint64) tb->den;
  den = (unsigned __int128) (guint64) tb->num * 1000000000u;
  q = (num + den / 2) / den;
  return q > G_MAXINT64 ? G_MAXINT64 : (gint64) q;
}
