/* The loudness library (loudness/sharpness-loudness.h) on test signals
 * generated here as EBU Tech 3341 and Tech 3342 describe them, each
 * reading within the document's tolerance:
 * - Tech 3341 cases 1-6 (1 kHz sines; integrated -23.0 LUFS, case 2
 *   -33.0, +-0.1 LU; cases 1 and 2 also momentary and short-term once
 *   their windows are full), case 6 as 5.1 with a silent LFE and as five
 *   channels with their roles set;
 * - a short-term case (1.34 s at -20 dBFS, 1.66 s at -30 dBFS, 20 times:
 *   every 3 s window holds one period, -23.0 +-0.1 LUFS from 3 s on) and
 *   a momentary one (0.18 s at -20 dBFS, 0.22 s at -30 dBFS: every 400 ms
 *   window holds one period, -23.0 +-0.1 from 0.4 s on);
 * - true peak: a sine at fs/4 whose samples miss its crests by a phase
 *   of 0, 45, 60 and 67.5 degrees (crest -6.0 dBFS, so -6.0 dBTP however
 *   low the samples) and one whose samples reach 0 dBFS at 45 degrees
 *   (+3.0 dBTP), within +0.2 / -0.4 dB;
 * - Tech 3342 cases 1-4 (loudness range 10, 5, 20, 15 LU, +-1 LU);
 * - reset(), silence (-inf), and bad formats refused with a reason.
 * The expected values are the documents' (and follow from BS.1770-4 by
 * hand: a 1 kHz stereo sine of peak -23 dBFS reads -23.0 LUFS).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "sharpness-loudness.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "test-check.h"

#define RATE 48000
#define STEP (RATE / 10)        /* 100 ms */

/* A segment: @seconds of a @hz sine of crest @dbfs (-inf: silence) on the
 * channels whose bit is in @mask... with per-channel crests where
 * @per_channel is given. */
typedef struct
{
  gdouble seconds, dbfs;
} Segment;

typedef struct
{
  guint channels;
  gdouble phase;                /* radians, at sample 0 */
  gdouble hz;
  const gdouble *channel_db;    /* per channel offsets, NULL: all 0 */
  guint64 n;                    /* samples written so far */
} Gen;

/* Up to @max frames of the current segment into @buf; the frames. */
static gsize
gen (Gen * g, gfloat * buf, gsize frames, gdouble dbfs)
{
  gdouble a = isinf (dbfs) ? 0 : pow (10, dbfs / 20);

  for (gsize i = 0; i < frames; i++, g->n++) {
    gdouble v = a * sin (2 * G_PI * g->hz * g->n / RATE + g->phase);

    for (guint c = 0; c < g->channels; c++)
      buf[i * g->channels + c] = g->channel_db ?
          (isinf (g->channel_db[c]) ? 0 : v * pow (10, g->channel_db[c] /
              20)) : v;
  }
  return frames;
}

typedef void (*StepFunc) (gdouble t, const SharpnessLoudnessReading * r,
    gpointer user_data);

/* Plays @segs in 100 ms pushes (reading after each); the final reading. */
static void
play (SharpnessLoudness * l, Gen * g, const Segment * segs, guint n_segs,
    StepFunc step, gpointer user_data, SharpnessLoudnessReading * out)
{
  gfloat *buf = g_new (gfloat, STEP * g->channels);
  guint64 done = 0;

  for (guint s = 0; s < n_segs; s++) {
    guint64 frames = (guint64) llround (segs[s].seconds * RATE);

    while (frames > 0) {
      gsize k = MIN (frames, STEP - done % STEP);

      gen (g, buf, k, segs[s].dbfs);
      sharpness_loudness_push (l, buf, k);
      frames -= k;
      done += k;
      if (step && done % STEP == 0) {
        SharpnessLoudnessReading r;

        sharpness_loudness_read (l, &r);
        step ((gdouble) done / RATE, &r, user_data);
      }
    }
  }
  sharpness_loudness_read (l, out);
  g_free (buf);
}

static SharpnessLoudness *
meter (guint channels)
{
  GError *err = NULL;
  SharpnessLoudness *l = sharpness_loudness_new (channels, RATE, &err);

  g_assert_no_error (err);
  return l;
}

static void
expect (gdouble got, gdouble want, gdouble below, gdouble above,
    const gchar * what)
{
  gchar *s = g_strdup_printf ("%s: %.3f (%.1f, -%.1f/+%.1f)", what, got,
      want, below, above);

  test_check (got >= want - below && got <= want + above, s);
  g_free (s);
}

/* --- Tech 3341 ----------------------------------------------------- */

typedef struct
{
  gdouble from, want;
  gboolean momentary;
  gdouble worst;
} Track;

static void
track (gdouble t, const SharpnessLoudnessReading * r, gpointer user_data)
{
  Track *k = user_data;
  gdouble v = k->momentary ? r->momentary : r->short_term;

  if (t >= k->from - 1e-9 && fabs (v - k->want) > fabs (k->worst - k->want))
    k->worst = v;
}

static void
tech_3341 (void)
{
  static const Segment c1[] = { {20, -23} }, c2[] = { {20, -33} },
      c3[] = { {10, -36}, {60, -23}, {10, -36} },
      c4[] = { {10, -72}, {10, -36}, {60, -23}, {10, -36}, {10, -72} },
      c5[] = { {20, -26}, {20.1, -20}, {20, -26} }, c6[] = { {20, 0} };
  static const struct
  {
    const gchar *name;
    const Segment *segs;
    guint n;
    gdouble want;
  } cases[] = {
    {"Tech 3341 case 1", c1, 1, -23}, {"Tech 3341 case 2", c2, 1, -33},
    {"Tech 3341 case 3", c3, 3, -23}, {"Tech 3341 case 4", c4, 5, -23},
    {"Tech 3341 case 5", c5, 3, -23},
  };
  /* Case 6: L and R -28, C -24, Ls and Rs -30 dBFS; the LFE silent. */
  static const gdouble five_one[] = { -28, -28, -24, -INFINITY, -30, -30 };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    SharpnessLoudness *l = meter (2);
    Gen g = { 2, 0, 1000, NULL, 0 };
    Track m = { 0.4, cases[i].want, TRUE, cases[i].want };
    SharpnessLoudnessReading r;
    gchar *what = g_strdup_printf ("%s: integrated", cases[i].name);

    play (l, &g, cases[i].segs, cases[i].n, i < 2 ? track : NULL, &m, &r);
    expect (r.integrated, cases[i].want, 0.1, 0.1, what);
    g_free (what);
    if (i < 2) {
      what = g_strdup_printf ("%s: momentary, the farthest from 0.4 s on",
          cases[i].name);
      expect (m.worst, cases[i].want, 0.1, 0.1, what);
      g_free (what);
      what = g_strdup_printf ("%s: short-term at the end", cases[i].name);
      expect (r.short_term, cases[i].want, 0.1, 0.1, what);
      g_free (what);
    }
    sharpness_loudness_free (l);
  }
  {
    SharpnessLoudness *l = meter (6);
    Gen g = { 6, 0, 1000, five_one, 0 };
    SharpnessLoudnessReading r;

    play (l, &g, c6, 1, NULL, NULL, &r);
    expect (r.integrated, -23, 0.1, 0.1, "Tech 3341 case 6 (5.1, silent "
        "LFE): integrated");
    sharpness_loudness_free (l);
  }
  {
    /* The same in five channels (L R C Ls Rs), roles set; once more
     * after reset(), which keeps them. */
    static const gdouble five[] = { -28, -28, -24, -30, -30 };
    static const SharpnessLoudnessChannel roles[] = {
      SHARPNESS_LOUDNESS_LEFT, SHARPNESS_LOUDNESS_RIGHT,
      SHARPNESS_LOUDNESS_CENTER, SHARPNESS_LOUDNESS_LEFT_SURROUND,
      SHARPNESS_LOUDNESS_RIGHT_SURROUND
    };
    SharpnessLoudness *l = meter (5);
    Gen g = { 5, 0, 1000, five, 0 };
    SharpnessLoudnessReading r;
    GError *err = NULL;

    for (guint c = 0; c < 5; c++)
      sharpness_loudness_set_channel (l, c, roles[c], NULL);
    play (l, &g, c6, 1, NULL, NULL, &r);
    expect (r.integrated, -23, 0.1, 0.1, "Tech 3341 case 6 (5 channels, "
        "roles set): integrated");
    sharpness_loudness_reset (l, NULL);
    play (l, &g, c6, 1, NULL, NULL, &r);
    expect (r.integrated, -23, 0.1, 0.1, "  ... after reset()");
    test_check (!sharpness_loudness_set_channel (l, 5, SHARPNESS_LOUDNESS_LEFT,
            &err) && err && strstr (err->message, "channel 5 of 5"),
        "a sixth channel refused with a reason");
    g_clear_error (&err);
    sharpness_loudness_free (l);
  }
}

/* Steps whose period is the window: every window holds one period. */
static void
windows (void)
{
  Segment s[40], m[50];
  SharpnessLoudnessReading r;

  for (guint i = 0; i < 20; i++) {
    s[2 * i] = (Segment) {
    1.34, -20};
    s[2 * i + 1] = (Segment) {
    1.66, -30};
  }
  for (guint i = 0; i < 25; i++) {
    m[2 * i] = (Segment) {
    0.18, -20};
    m[2 * i + 1] = (Segment) {
    0.22, -30};
  }
  {
    SharpnessLoudness *l = meter (2);
    Gen g = { 2, 0, 1000, NULL, 0 };
    Track k = { 3, -23, FALSE, -23 };

    play (l, &g, s, G_N_ELEMENTS (s), track, &k, &r);
    expect (k.worst, -23, 0.1, 0.1, "1.34 s at -20, 1.66 s at -30 dBFS: "
        "short-term, the farthest from 3 s on");
    sharpness_loudness_free (l);
  }
  {
    SharpnessLoudness *l = meter (2);
    Gen g = { 2, 0, 1000, NULL, 0 };
    Track k = { 0.4, -23, TRUE, -23 };

    play (l, &g, m, G_N_ELEMENTS (m), track, &k, &r);
    expect (k.worst, -23, 0.1, 0.1, "0.18 s at -20, 0.22 s at -30 dBFS: "
        "momentary, the farthest from 0.4 s on");
    sharpness_loudness_free (l);
  }
}

static void
true_peak (void)
{
  static const gdouble phases[] = { 0, 45, 60, 67.5 };
  SharpnessLoudnessReading r;

  for (guint i = 0; i <= G_N_ELEMENTS (phases); i++) {
    gboolean over = i == G_N_ELEMENTS (phases);
    gdouble deg = over ? 45 : phases[i];
    /* Crest -6 dBFS; or samples of 0 dBFS at 45 degrees: crest +3.01. */
    Segment seg = { 2, over ? 20 * log10 (sqrt (2)) : -6 };
    SharpnessLoudness *l = meter (2);
    Gen g = { 2, deg * G_PI / 180, RATE / 4.0, NULL, 0 };
    gchar *what;

    play (l, &g, &seg, 1, NULL, NULL, &r);
    what = g_strdup_printf ("sine at fs/4, samples %.1f degrees off the "
        "crest: true peak", deg);
    expect (r.true_peak, over ? 3 : -6, 0.4, 0.2, what);
    g_free (what);
    sharpness_loudness_free (l);
  }
}

static void
tech_3342 (void)
{
  static const Segment c1[] = { {20, -20}, {20, -30} },
      c2[] = { {20, -20}, {20, -15} }, c3[] = { {20, -40}, {20, -20} },
      c4[] = { {20, -50}, {20, -35}, {20, -20}, {20, -35}, {20, -50} };
  static const struct
  {
    const Segment *segs;
    guint n;
    gdouble want;
  } cases[] = { {c1, 2, 10}, {c2, 2, 5}, {c3, 2, 20}, {c4, 5, 15} };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++) {
    SharpnessLoudness *l = meter (2);
    Gen g = { 2, 0, 1000, NULL, 0 };
    SharpnessLoudnessReading r;
    gchar *what = g_strdup_printf ("Tech 3342 case %u: loudness range", i
        + 1);

    play (l, &g, cases[i].segs, cases[i].n, NULL, NULL, &r);
    expect (r.range, cases[i].want, 1, 1, what);
    g_free (what);
    sharpness_loudness_free (l);
  }
}

static void
edges (void)
{
  static const Segment loud[] = { {5, -10} }, quiet[] = { {5, -33} },
      silence[] = { {2, -INFINITY} };
  SharpnessLoudness *l = meter (2);
  Gen g = { 2, 0, 1000, NULL, 0 };
  SharpnessLoudnessReading r;
  GError *err = NULL;

  play (l, &g, silence, 1, NULL, NULL, &r);
  test_check (isinf (r.momentary) && r.momentary < 0 && isinf (r.true_peak),
      "silence: momentary and true peak -inf");
  play (l, &g, loud, 1, NULL, NULL, &r);
  test_check (sharpness_loudness_reset (l, NULL), "reset");
  play (l, &g, quiet, 1, NULL, NULL, &r);
  expect (r.integrated, -33, 0.1, 0.1, "after reset: integrated of what "
      "followed alone");
  expect (r.true_peak, -33, 0.4, 0.2, "after reset: true peak of what "
      "followed alone");
  sharpness_loudness_free (l);
  test_check (!sharpness_loudness_new (0, RATE, &err) && err &&
      strstr (err->message, "0 channels"), "0 channels refused with a "
      "reason");
  g_clear_error (&err);
  test_check (!sharpness_loudness_new (2, 1000, &err) && err &&
      strstr (err->message, "1000 Hz"), "1000 Hz refused with a reason");
  g_clear_error (&err);
}

int
main (void)
{
  tech_3341 ();
  windows ();
  true_peak ();
  tech_3342 ();
  edges ();
  return test_check_finish (NULL);
}
