/* Loudness and true peak with libebur128 (sharpness-loudness.h).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "sharpness-loudness.h"

#include <ebur128.h>
#include <math.h>
#include <string.h>

G_DEFINE_QUARK (sharpness-loudness-error-quark, sharpness_loudness_error)

/* Histogram mode: integrated loudness from a fixed histogram instead of a
 * list of every 100 ms block, which would grow for as long as a live
 * channel runs.  Momentary, short-term and the loudness range are made
 * here from libebur128's 100 ms blocks (see below). */
#define MODE (EBUR128_MODE_M | EBUR128_MODE_I | EBUR128_MODE_TRUE_PEAK | \
    EBUR128_MODE_HISTOGRAM)

/* Loudness range (EBU Tech 3342): short-term loudness every 100 ms, as
 * FFmpeg's ebur128 filter takes it (libebur128's own range takes it every
 * second, which read 0.34 LU away from FFmpeg's on programme material),
 * kept in a histogram of 0.01 LU from the absolute gate up to +10 LUFS. */
#define LRA_ABS_GATE (-70.0)
#define LRA_TOP 10.0
#define LRA_GRAIN 100
#define LRA_BINS (80 * LRA_GRAIN + 1)   /* -70 to +10 LUFS */
#define LRA_REL_GATE (-20.0)
#define SHORT_TERM_STEPS 30     /* 3 s of 100 ms steps */
#define MOMENTARY_STEPS 4       /* 400 ms */
/* BS.1770-4: loudness = -0.691 + 10 log10 (weighted mean square). */
#define LOUDNESS_OFFSET (-0.691)

struct _SharpnessLoudness
{
  ebur128_state *st;
  guint channels, rate;
  /* Roles set by set_channel(), 0 (libebur128's default) where none. */
  gint roles[64];
  /* Since the last reset: libebur128's true peak is since its init. */
  gdouble peak;
  gdouble peak_last;
  /* Frames into the current 100 ms step; steps since the start.  The
   * mean square (K-weighted, channel-weighted) of the last 3 s of 100 ms
   * blocks: momentary and short-term are means of the last 4 and 30,
   * made once a step, not summed again over 3 s of samples at each
   * reading (which cost as much as the rest of the measurement). */
  gsize step_frames;
  guint64 steps;
  gdouble block[SHORT_TERM_STEPS];
  guint block_pos;
  gdouble momentary, short_term;
  guint32 lra_hist[LRA_BINS];
  guint64 lra_count;
};

/* Each histogram bin's loudness as energy (10^(L/10)), shared. */
static gdouble bin_energy[LRA_BINS];

static void
bin_energy_init (void)
{
  static gsize done = 0;

  if (g_once_init_enter (&done)) {
    for (gint i = 0; i < LRA_BINS; i++)
      bin_energy[i] = pow (10, (LRA_ABS_GATE + (gdouble) i / LRA_GRAIN) / 10);
    g_once_init_leave (&done, 1);
  }
}

static ebur128_state *
make_state (guint channels, guint rate, GError ** error)
{
  ebur128_state *st = ebur128_init (channels, rate, MODE);

  if (!st)
    g_set_error (error, sharpness_loudness_error_quark (), 0,
        "libebur128 cannot measure %u channels at %u Hz", channels, rate);
  return st;
}

SharpnessLoudness *
sharpness_loudness_new (guint channels, guint rate, GError ** error)
{
  SharpnessLoudness *l;
  ebur128_state *st;

  if (channels < 1 || channels > 64 || rate < 8000 || rate > 384000) {
    g_set_error (error, sharpness_loudness_error_quark (), 0,
        "loudness: %u channels at %u Hz: 1 to 64 channels at 8 to 384 kHz "
        "expected", channels, rate);
    return NULL;
  }
  if (!(st = make_state (channels, rate, error)))
    return NULL;
  bin_energy_init ();
  l = g_new0 (SharpnessLoudness, 1);
  l->st = st;
  l->channels = channels;
  l->rate = rate;
  l->momentary = l->short_term = -INFINITY;
  return l;
}

void
sharpness_loudness_free (SharpnessLoudness * l)
{
  if (!l)
    return;
  ebur128_destroy (&l->st);
  g_free (l);
}

static gdouble
loudness_of (gdouble mean_square)
{
  return mean_square > 0 ? LOUDNESS_OFFSET + 10 * log10 (mean_square) :
      -INFINITY;
}

/* The mean of the last @n blocks (those before the start count as
 * silence, as libebur128's zeroed window does). */
static gdouble
blocks_mean (const SharpnessLoudness * l, guint n)
{
  gdouble sum = 0;

  for (guint i = 1; i <= n; i++)
    sum += l->block[(l->block_pos + SHORT_TERM_STEPS - i) % SHORT_TERM_STEPS];
  return sum / n;
}

/* A 100 ms step ended: its block's mean square (from libebur128's loudness
 * of the last 100 ms), the momentary and short-term loudness; the
 * short-term one, once 3 s are in the window, goes to the range's
 * histogram (absolute gate applied). */
static void
step_done (SharpnessLoudness * l)
{
  double block;
  gdouble s;
  gint bin;

  if (ebur128_loudness_window (l->st, 100, &block) != EBUR128_SUCCESS)
    block = -HUGE_VAL;
  l->block[l->block_pos] = isfinite (block) ?
      pow (10, (block - LOUDNESS_OFFSET) / 10) : 0;
  l->block_pos = (l->block_pos + 1) % SHORT_TERM_STEPS;
  l->momentary = loudness_of (blocks_mean (l, MOMENTARY_STEPS));
  l->short_term = s = loudness_of (blocks_mean (l, SHORT_TERM_STEPS));
  if (++l->steps < SHORT_TERM_STEPS || !(s >= LRA_ABS_GATE))
    return;
  bin = (gint) lround ((MIN (s, LRA_TOP) - LRA_ABS_GATE) * LRA_GRAIN);
  l->lra_hist[bin]++;
  l->lra_count++;
}

void
sharpness_loudness_push (SharpnessLoudness * l, const gfloat * frames,
    gsize n_frames)
{
  gsize step = l->rate / 10;

  l->peak_last = 0;
  /* Fed in pieces that end on the 100 ms steps. */
  while (n_frames > 0) {
    gsize k = MIN (n_frames, step - l->step_frames);

    if (ebur128_add_frames_float (l->st, frames, k) != EBUR128_SUCCESS)
      return;
    frames += k * l->channels;
    n_frames -= k;
    if ((l->step_frames += k) == step) {
      l->step_frames = 0;
      step_done (l);
    }
  }
  for (guint c = 0; c < l->channels; c++) {
    double p;

    if (ebur128_prev_true_peak (l->st, c, &p) == EBUR128_SUCCESS)
      l->peak_last = MAX (l->peak_last, p);
  }
  l->peak = MAX (l->peak, l->peak_last);
}

static gdouble
db (gdouble linear)
{
  return linear > 0 ? 20 * log10 (linear) : -INFINITY;
}

/* Tech 3342: of the short-term values above the absolute gate, those
 * above the relative gate (their energy mean - 20 LU); the range between
 * their 10th and 95th percentiles. */
static gdouble
loudness_range (const SharpnessLoudness * l)
{
  gdouble energy = 0, gate, low = NAN, high = NAN;
  guint64 n = 0, seen = 0, lo_rank, hi_rank;
  gint first;

  if (l->lra_count == 0)
    return 0;
  for (gint i = 0; i < LRA_BINS; i++)
    energy += bin_energy[i] * l->lra_hist[i];
  gate = 10 * log10 (energy / l->lra_count) + LRA_REL_GATE;
  first = (gint) ceil ((gate - LRA_ABS_GATE) * LRA_GRAIN - 1e-9);
  first = CLAMP (first, 0, LRA_BINS - 1);
  for (gint i = first; i < LRA_BINS; i++)
    n += l->lra_hist[i];
  if (n == 0)
    return 0;
  /* Nearest-rank percentiles over the gated values. */
  lo_rank = (guint64) (0.10 * (n - 1));
  hi_rank = (guint64) (0.95 * (n - 1));
  for (gint i = first; i < LRA_BINS && isnan (high); i++) {
    if (isnan (low) && seen + l->lra_hist[i] > lo_rank)
      low = LRA_ABS_GATE + (gdouble) i / LRA_GRAIN;
    if (seen + l->lra_hist[i] > hi_rank)
      high = LRA_ABS_GATE + (gdouble) i / LRA_GRAIN;
    seen += l->lra_hist[i];
  }
  return high - low;
}

void
sharpness_loudness_read (SharpnessLoudness * l, SharpnessLoudnessReading * r)
{
  double v;

  r->momentary = l->momentary;
  r->short_term = l->short_term;
  r->integrated = ebur128_loudness_global (l->st, &v) ==
      EBUR128_SUCCESS ? v : NAN;
  r->range = loudness_range (l);
  r->true_peak = db (l->peak);
  r->true_peak_last = db (l->peak_last);
}

static const gint ebur128_roles[] = {
  [SHARPNESS_LOUDNESS_UNUSED] = EBUR128_UNUSED,
  [SHARPNESS_LOUDNESS_LEFT] = EBUR128_LEFT,
  [SHARPNESS_LOUDNESS_RIGHT] = EBUR128_RIGHT,
  [SHARPNESS_LOUDNESS_CENTER] = EBUR128_CENTER,
  [SHARPNESS_LOUDNESS_LEFT_SURROUND] = EBUR128_LEFT_SURROUND,
  [SHARPNESS_LOUDNESS_RIGHT_SURROUND] = EBUR128_RIGHT_SURROUND,
  [SHARPNESS_LOUDNESS_DUAL_MONO] = EBUR128_DUAL_MONO,
};

gboolean
sharpness_loudness_set_channel (SharpnessLoudness * l, guint index,
    SharpnessLoudnessChannel role, GError ** error)
{
  if (index >= l->channels || (guint) role >= G_N_ELEMENTS (ebur128_roles)
      || ebur128_set_channel (l->st, index, ebur128_roles[role]) !=
      EBUR128_SUCCESS) {
    g_set_error (error, sharpness_loudness_error_quark (), 0,
        "loudness: channel %u of %u cannot take role %d", index, l->channels,
        (gint) role);
    return FALSE;
  }
  /* Stored + 1, so that 0 stays "libebur128's default". */
  l->roles[index] = ebur128_roles[role] + 1;
  return TRUE;
}

gboolean
sharpness_loudness_reset (SharpnessLoudness * l, GError ** error)
{
  ebur128_state *st = make_state (l->channels, l->rate, error);

  if (!st)
    return FALSE;
  for (guint c = 0; c < l->channels; c++)
    if (l->roles[c])
      ebur128_set_channel (st, c, l->roles[c] - 1);
  ebur128_destroy (&l->st);
  l->st = st;
  l->peak = l->peak_last = 0;
  l->step_frames = 0;
  l->steps = 0;
  memset (l->block, 0, sizeof (l->block));
  l->block_pos = 0;
  l->momentary = l->short_term = -INFINITY;
  memset (l->lra_hist, 0, sizeof (l->lra_hist));
  l->lra_count = 0;
  return TRUE;
}
