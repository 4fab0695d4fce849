/* bench-result.c: the resolutions and modes measured, the clock, and
 * a measurement's median and percentiles.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "bench-sharpness.h"

const gchar *const mode_names[MODE_COUNT] = {
  "kernel", "cuda-memory", "pinned", "pageable", "cpu", "videoanalyse",
  "h2d-pinned", "h2d-pageable",
};

const Resolution all_resolutions[N_RESOLUTIONS] = {
  {"720p", 1280, 720},
  {"1080p", 1920, 1080},
  {"4K", 3840, 2160},
  {"8K", 7680, 4320},
};

guint64
now_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (guint64) ts.tv_sec * G_GUINT64_CONSTANT (1000000000) + ts.tv_nsec;
}

void
result_from_samples (Result * r, guint64 * s, guint n)
{
  memset (r, 0, sizeof (*r));
  if (n == 0) {
    r->failed = TRUE;
    g_strlcpy (r->note, "no frame measured", sizeof (r->note));
    return;
  }
  qsort (s, n, sizeof (*s), test_cmp_u64);
  r->frames = n;
  r->median = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
  r->p10 = s[n / 10];
  r->p90 = s[n - 1 - n / 10];
}

void
result_fail (Result * r, const gchar * fmt, ...)
{
  va_list args;

  memset (r, 0, sizeof (*r));
  r->failed = TRUE;
  va_start (args, fmt);
  g_vsnprintf (r->note, sizeof (r->note), fmt, args);
  va_end (args);
}
