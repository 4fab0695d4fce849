/* Unit test of the FFmpeg-exact freeze detector (analysis/sharpness-freeze.h):
 * the compared geometry of each kind of pixel format (worked by hand), the
 * SAD and the MAFD, v210 read in place against its yuv422p10le unpacking
 * (odd widths, garbage in the padding, the unused samples and bits 30-31),
 * the noise tolerance in dB and linear, and the state
 * machine (reference updates, freeze_start / freeze_end / freeze_duration,
 * the d boundary, a freeze open at end of stream, reset, discontinuities,
 * a 29.97 fps time base).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <math.h>
#include <string.h>

#include "sharpness-freeze.h"

#include "test-check.h"

#define MS (G_GUINT64_CONSTANT (1000000))

static SharpnessFreezeLayout
layout (const gchar * name, gint w, gint h)
{
  SharpnessFreezeLayout l;
  SharpnessFreezeFormat f = sharpness_freeze_format_from_name (name);

  CHECK (f != SHARPNESS_FREEZE_FORMAT_INVALID);
  CHECK (sharpness_freeze_layout_init (&l, f, w, h));
  return l;
}

static void
test_layouts (void)
{
  SharpnessFreezeLayout l;

  /* yuv420p 321 x 241: Y 321 x 241; U, V ceil (321 / 2) = 161 wide,
   * floor (241 / 2) = 120 rows.  77361 + 2 * 19320 = 116001. */
  l = layout ("yuv420p", 321, 241);
  CHECK (l.n_planes == 3 && l.bytes_per_sample == 1 && l.depth == 8);
  CHECK (l.width[0] == 321 && l.height[0] == 241);
  CHECK (l.width[1] == 161 && l.height[1] == 120);
  CHECK (l.width[2] == 161 && l.height[2] == 120);
  CHECK_EQ_I64 (l.count, 116001);

  /* yuv420p10le (and its alias yuv420p10): samples, not bytes. */
  l = layout ("yuv420p10", 320, 240);
  CHECK (l.bytes_per_sample == 2 && l.depth == 10);
  CHECK (l.width[0] == 320 && l.width[1] == 160 && l.height[1] == 120);
  CHECK_EQ_I64 (l.count, 76800 + 2 * 19200);

  /* yuv422p 5 x 3: U, V 3 x 3. */
  l = layout ("yuv422p", 5, 3);
  CHECK (l.width[1] == 3 && l.height[1] == 3);
  CHECK_EQ_I64 (l.count, 15 + 2 * 9);

  /* yuv410p 9 x 7: chroma ceil (9 / 4) = 3 wide, floor (7 / 4) = 1 row. */
  l = layout ("yuv410p", 9, 7);
  CHECK (l.width[1] == 3 && l.height[1] == 1);

  /* yuva420p 7 x 5: alpha is compared, full size: 35 + 2 * 4 * 2 + 35. */
  l = layout ("yuva420p", 7, 5);
  CHECK (l.n_planes == 4 && l.width[3] == 7 && l.height[3] == 5);
  CHECK_EQ_I64 (l.count, 35 + 16 + 35);

  /* nv12 321 x 241: the interleaved plane is 2 * 161 = 322 wide, 120
   * rows. */
  l = layout ("nv12", 321, 241);
  CHECK (l.n_planes == 2 && l.width[1] == 322 && l.height[1] == 120);
  /* nv16: 4:2:2, all rows. */
  l = layout ("nv16", 4, 3);
  CHECK (l.width[1] == 4 && l.height[1] == 3);

  /* uyvy422 321 x 2: 4 bytes per pixel pair, odd width rounded up to 161
   * pairs: 644 samples a row. */
  l = layout ("uyvy422", 321, 2);
  CHECK (l.n_planes == 1 && l.width[0] == 644 && l.height[0] == 2);
  l = layout ("yuyv422", 320, 2);
  CHECK (l.width[0] == 640);

  /* Packed RGB: every component, alpha too. */
  l = layout ("rgb24", 10, 2);
  CHECK (l.width[0] == 30);
  l = layout ("rgba", 10, 2);
  CHECK (l.width[0] == 40);
  l = layout ("ya8", 10, 2);
  CHECK (l.width[0] == 20);

  /* gbrp: three full planes; gray16le: one plane of 16-bit samples. */
  l = layout ("gbrp", 5, 3);
  CHECK (l.n_planes == 3 && l.width[2] == 5 && l.height[2] == 3);
  l = layout ("gray16le", 5, 3);
  CHECK (l.n_planes == 1 && l.width[0] == 5 && l.depth == 16);

  CHECK (sharpness_freeze_format_from_name ("p010le") ==
      SHARPNESS_FREEZE_FORMAT_INVALID);
  CHECK (!sharpness_freeze_layout_init (&l, SHARPNESS_FREEZE_FORMAT_YUV420P,
          0, 4));
  CHECK (g_strcmp0 (sharpness_freeze_format_name
          (SHARPNESS_FREEZE_FORMAT_YUV420P10), "yuv420p10le") == 0);
}

static void
test_sad (void)
{
  /* yuv420p 3 x 3: Y 3 x 3, U and V 2 wide, 1 row (the second chroma row
   * exists in memory but floor (3 / 2) = 1 row is compared). */
  guint8 fy[3 * 4], ry[3 * 4], fu[2 * 2], ru[2 * 2], fv[2 * 2], rv[2 * 2];
  const guint8 *frame[4] = { fy, fu, fv, NULL };
  const guint8 *ref[4] = { ry, ru, rv, NULL };
  const gsize stride[4] = { 4, 2, 2, 0 };
  SharpnessFreezeLayout l = layout ("yuv420p", 3, 3);

  memset (fy, 100, sizeof fy);
  memset (ry, 100, sizeof ry);
  memset (fu, 128, sizeof fu);
  memset (ru, 128, sizeof ru);
  memset (fv, 128, sizeof fv);
  memset (rv, 128, sizeof rv);
  CHECK_EQ_I64 (sharpness_freeze_sad (&l, frame, stride, ref, stride), 0);

  /* Row padding (byte 3 of each luma row) and the second chroma row are
   * not compared. */
  fy[3] = fy[7] = 0;
  fu[2] = fu[3] = 0;
  rv[3] = 255;
  CHECK_EQ_I64 (sharpness_freeze_sad (&l, frame, stride, ref, stride), 0);

  /* |100 - 90| + |90 - 100| + |128 - 0| + |255 - 128|, both ways. */
  fy[0] = 90;
  ry[9] = 90;
  fu[1] = 0;
  rv[0] = 255;
  CHECK_EQ_I64 (sharpness_freeze_sad (&l, frame, stride, ref, stride),
      10 + 10 + 128 + 127);
  CHECK_EQ_I64 (sharpness_freeze_sad (&l, ref, stride, frame, stride),
      275);
}

static void
put16 (guint8 * p, guint v)
{
  p[0] = v & 0xff;
  p[1] = v >> 8;
}

static void
test_sad_16bit (void)
{
  /* gray10le 2 x 1: |1023 - 0| + |256 - 255| = 1024 (a byte-wise sum
   * would give 255 + 3 + 1 + 1 = 260). */
  guint8 a[4], b[4];
  const guint8 *fa[4] = { a, NULL, NULL, NULL };
  const guint8 *fb[4] = { b, NULL, NULL, NULL };
  const gsize stride[4] = { 4, 0, 0, 0 };
  SharpnessFreezeLayout l = layout ("gray10le", 2, 1);

  put16 (a, 1023);
  put16 (a + 2, 256);
  put16 (b, 0);
  put16 (b + 2, 255);
  CHECK_EQ_I64 (sharpness_freeze_sad (&l, fa, stride, fb, stride), 1024);
}

/* v210 word @k of a row: samples 3k .. 3k + 2 of @s (the packed order Cb0
 * Y0 Cr0 Y1 ...), @junk in bits 30-31. */
static guint32
v210_word (const guint16 * s, gint k, guint32 junk)
{
  return (guint32) s[3 * k] | ((guint32) s[3 * k + 1] << 10) |
      ((guint32) s[3 * k + 2] << 20) | (junk << 30);
}

/* A v210 row of @w pixels from the yuv422p10le rows @y, @u, @v (as FFmpeg's
 * v210 decoder reads them back), then @pad_words words of padding; the
 * samples of the last group past the row's, its bits 30-31 and the padding
 * from @rand. */
static void
pack_v210_row (guint8 * row, gint w, const guint16 * y, const guint16 * u,
    const guint16 * v, gint words, GRand * rand)
{
  const gint cw = (w + 1) / 2;
  guint16 s[6 * 4096];

  /* The packed order, garbage past the real samples. */
  for (gint i = 0; i < 3 * words; i++)
    s[i] = (guint16) g_rand_int_range (rand, 0, 1024);
  for (gint i = 0, x = 0, c = 0; x < w; c++) {
    s[i++] = u[c];
    s[i++] = y[x++];
    s[i++] = v[c];
    if (x < w)
      s[i++] = y[x++];
    if (c + 1 >= cw)
      break;
  }
  for (gint k = 0; k < words; k++) {
    guint32 word = v210_word (s, k, (guint32) g_rand_int_range (rand, 0, 4));
    row[4 * k] = (guint8) word;
    row[4 * k + 1] = (guint8) (word >> 8);
    row[4 * k + 2] = (guint8) (word >> 16);
    row[4 * k + 3] = (guint8) (word >> 24);
  }
}

/* The v210 layout: FFmpeg's yuv422p10le count, and a SAD read from the
 * packed words equal to that of the unpacked planes, for widths around the
 * 6-pixel groups and the 48-pixel row alignment. */
static void
test_v210 (void)
{
  static const gint widths[] = { 1, 2, 3, 4, 5, 6, 7, 8, 11, 12, 13, 47, 48,
    49, 717, 718, 1918, 1920
  };
  SharpnessFreezeLayout l, p10;
  GRand *rand = g_rand_new_with_seed (210);

  /* 718 x 3: groups ceil (718 / 6) = 120, 480 words; Y 718, U, V 359. */
  l = layout ("v210", 718, 3);
  CHECK (l.n_planes == 1 && l.bytes_per_sample == 4 && l.depth == 10);
  CHECK (l.width[0] == 480 && l.height[0] == 3);
  CHECK (l.v210_samples == 718 + 2 * 359);
  CHECK_EQ_I64 (l.count, 3 * (718 + 2 * 359));
  /* 1 x 1: one group, Cb0 Y0 Cr0. */
  l = layout ("v210", 1, 1);
  CHECK (l.width[0] == 4 && l.v210_samples == 3 && l.count == 3);
  l = layout ("yuv422p10le", 5, 2);
  CHECK (l.v210_samples == 0);

  for (guint i = 0; i < G_N_ELEMENTS (widths); i++) {
    const gint w = widths[i], h = 3, cw = (w + 1) / 2;
    /* GStreamer's and FFmpeg's stride: 48-pixel rows of 128 bytes. */
    const gsize stride = (gsize) (w + 47) / 48 * 128;
    guint8 *packed[2];
    guint16 *planes[2][3];
    gsize p10_stride[4] = { 2 * (gsize) w, 2 * (gsize) cw, 2 * (gsize) cw };

    CHECK (sharpness_freeze_layout_init (&l, SHARPNESS_FREEZE_FORMAT_V210, w,
            h));
    CHECK (sharpness_freeze_layout_init (&p10,
            SHARPNESS_FREEZE_FORMAT_YUV422P10, w, h));
    CHECK_EQ_I64 (l.count, p10.count);
    CHECK (l.width[0] * 4 <= (gint) stride);
    for (gint f = 0; f < 2; f++) {
      packed[f] = g_malloc (stride * h);
      for (gint c = 0; c < 3; c++) {
        gint n = (c ? cw : w) * h;
        planes[f][c] = g_new (guint16, n);
        for (gint k = 0; k < n; k++)
          /* Frame 1 mostly frame 0: small and large differences. */
          planes[f][c][k] = f && g_rand_int_range (rand, 0, 3) ?
              planes[0][c][k] : (guint16) g_rand_int_range (rand, 0, 1024);
      }
      for (gint y = 0; y < h; y++)
        pack_v210_row (packed[f] + y * stride, w, planes[f][0] + y * w,
            planes[f][1] + y * cw, planes[f][2] + y * cw, (gint) stride / 4,
            rand);
    }
    {
      const guint8 *a[4] = { packed[0] }, *b[4] = { packed[1] };
      const guint8 *pa[4] = { (guint8 *) planes[0][0],
        (guint8 *) planes[0][1], (guint8 *) planes[0][2]
      };
      const guint8 *pb[4] = { (guint8 *) planes[1][0],
        (guint8 *) planes[1][1], (guint8 *) planes[1][2]
      };
      gsize st[4] = { stride };
      guint64 want = sharpness_freeze_sad (&p10, pa, p10_stride, pb,
          p10_stride);

      CHECK_EQ_I64 (sharpness_freeze_sad (&l, a, st, b, st), want);
      CHECK_EQ_I64 (sharpness_freeze_sad (&l, b, st, a, st), want);
      CHECK_EQ_I64 (sharpness_freeze_sad (&l, a, st, a, st), 0);
    }
    for (gint f = 0; f < 2; f++) {
      g_free (packed[f]);
      for (gint c = 0; c < 3; c++)
        g_free (planes[f][c]);
    }
  }
  g_rand_free (rand);
}

static void
test_mafd (void)
{
  /* 320 x 240 yuv420p: 115200 samples.  SAD 115200 (1 per sample):
   * 1 / 256 = 0.00390625 exactly; 10-bit: 1 / 1024. */
  CHECK (sharpness_freeze_mafd (115200, 115200, 8) == 0.00390625);
  CHECK (sharpness_freeze_mafd (115200, 115200, 10) == 1.0 / 1024);
  /* (double) sad / count first, then / 2^depth: 1 / 3 / 256. */
  CHECK (sharpness_freeze_mafd (1, 3, 8) == (1.0 / 3.0) / 256.0);
  CHECK (sharpness_freeze_mafd (0, 3, 8) == 0.0);
}

static void
test_noise (void)
{
  gdouble n;

  /* -60 dB: exp2 (log2 (10) * -3) is exactly the double 0.001, FFmpeg's
   * default. */
  CHECK (sharpness_freeze_noise_from_db (-60) == 0.001);
  CHECK (sharpness_freeze_noise_from_db (-60) ==
      SHARPNESS_FREEZE_DEFAULT_NOISE);
  /* -40 dB is one ulp above 0.01 (exp2 is not pow (10, x)). */
  CHECK (sharpness_freeze_noise_from_db (-40) == nextafter (0.01, 1.0));
  CHECK (sharpness_freeze_noise_from_db (0) == 1.0);

  CHECK (sharpness_freeze_parse_noise ("0.001", &n) && n == 0.001);
  CHECK (sharpness_freeze_parse_noise ("-60dB", &n) && n == 0.001);
  CHECK (sharpness_freeze_parse_noise ("-40dB", &n) &&
      n == nextafter (0.01, 1.0));
  CHECK (sharpness_freeze_parse_noise ("0.01", &n) && n == 0.01);
  CHECK (sharpness_freeze_parse_noise ("1", &n) && n == 1.0);
  CHECK (!sharpness_freeze_parse_noise ("1.5", &n));
  CHECK (!sharpness_freeze_parse_noise ("6dB", &n));     /* 1.99 > 1 */
  CHECK (!sharpness_freeze_parse_noise ("-0.1", &n));
  CHECK (!sharpness_freeze_parse_noise ("abc", &n));
  CHECK (!sharpness_freeze_parse_noise ("0.1x", &n));
  CHECK (!sharpness_freeze_parse_noise ("", &n));
}

typedef struct
{
  guint n_start, n_end;
  SharpnessFreezeResult start, end;
} Events;

static void
collect (Events * ev, SharpnessFreezeEvents e, const SharpnessFreezeResult * r)
{
  if (e & SHARPNESS_FREEZE_EVENT_START) {
    ev->n_start++;
    ev->start = *r;
  }
  if (e & SHARPNESS_FREEZE_EVENT_END) {
    ev->n_end++;
    ev->end = *r;
  }
}

/* Frames 0..n-1 at 25 fps; frames (f0, f1) repeat frame f0 (SAD 0), the
 * others all differ (SAD = count).  SAD/count with count 1000, depth 8. */
static Events
run_25fps (SharpnessFreezeDetector * det, guint n, guint f0, guint f1,
    SharpnessFreezeResult * eos)
{
  Events ev = { 0 };
  SharpnessFreezeResult r;

  for (guint i = 0; i < n; i++) {
    gboolean same = i > f0 && i < f1;
    gboolean had_ref = sharpness_freeze_detector_has_reference (det);
    SharpnessFreezeEvents e = sharpness_freeze_detector_push (det,
        i * 40 * MS, same ? 0 : 1000, 1000, &r);

    CHECK (r.compared == had_ref);
    CHECK (r.frozen == (had_ref && same));
    /* Every frame that is not frozen becomes the reference. */
    CHECK (r.keep_reference == !r.frozen);
    CHECK (sharpness_freeze_detector_has_reference (det));
    collect (&ev, e, &r);
  }
  if (eos)
    sharpness_freeze_detector_finish (det, eos);
  return ev;
}

static void
test_freezes (void)
{
  SharpnessFreezeDetector det;
  SharpnessFreezeResult eos;
  Events ev;

  /* Reference frame 10, copies 11..60 (50), frame 61 differs.  At frame
   * 60, 60 - 10 = 50 frames = 2 s = d: freeze_start = pts of frame 10.
   * Frame 61: freeze_end 2440 ms, freeze_duration 2.04 s. */
  sharpness_freeze_detector_init (&det, NULL);
  ev = run_25fps (&det, 80, 10, 61, &eos);
  CHECK (ev.n_start == 1 && ev.n_end == 1);
  CHECK_EQ_I64 (ev.start.start, 400 * MS);
  CHECK_EQ_I64 (ev.start.start_frame, 10);
  CHECK (!(ev.start.events & SHARPNESS_FREEZE_EVENT_END));
  CHECK (ev.start.frozen);
  CHECK_EQ_I64 (ev.end.start, 400 * MS);
  CHECK_EQ_I64 (ev.end.end, 2440 * MS);
  CHECK_EQ_I64 (ev.end.end_frame, 61);
  CHECK_EQ_I64 (ev.end.duration_us, 2040000);
  CHECK_EQ_I64 (ev.end.duration, 2040 * MS);
  CHECK (eos.events == SHARPNESS_FREEZE_EVENT_NONE);

  /* d exactly: copies 11..59, frame 60 differs.  Frame 60 is 2 s after
   * the reference and not frozen: start, duration and end at once. */
  sharpness_freeze_detector_init (&det, NULL);
  ev = run_25fps (&det, 80, 10, 60, NULL);
  CHECK (ev.n_start == 1 && ev.n_end == 1);
  CHECK (ev.start.events == (SHARPNESS_FREEZE_EVENT_START |
          SHARPNESS_FREEZE_EVENT_END));
  CHECK_EQ_I64 (ev.end.start, 400 * MS);
  CHECK_EQ_I64 (ev.end.end, 2400 * MS);
  CHECK_EQ_I64 (ev.end.duration_us, 2000000);

  /* d minus one frame: copies 11..58, frame 59 differs, 1.96 s: nothing. */
  sharpness_freeze_detector_init (&det, NULL);
  ev = run_25fps (&det, 80, 10, 59, NULL);
  CHECK (ev.n_start == 0 && ev.n_end == 0);

  /* d = 0: every frame that differs reports a one-frame "freeze" (FFmpeg
   * measures from the reference, the previous frame). */
  {
    SharpnessFreezeSettings s;
    sharpness_freeze_settings_init (&s);
    s.min_duration = 0;
    sharpness_freeze_detector_init (&det, &s);
    ev = run_25fps (&det, 5, 0, 0, NULL);
    CHECK (ev.n_start == 4 && ev.n_end == 4);
    CHECK_EQ_I64 (ev.end.duration_us, 40000);
  }
}

static void
test_eos (void)
{
  SharpnessFreezeDetector det;
  SharpnessFreezeResult eos;
  Events ev;

  /* Frozen from frame 10 to the last frame 69: freeze_start at frame 60,
   * no end; finish() says it was open (FFmpeg says nothing). */
  sharpness_freeze_detector_init (&det, NULL);
  ev = run_25fps (&det, 70, 10, 70, &eos);
  CHECK (ev.n_start == 1 && ev.n_end == 0);
  CHECK (eos.events == SHARPNESS_FREEZE_EVENT_OPEN_AT_EOS);
  CHECK_EQ_I64 (eos.start, 400 * MS);
  CHECK_EQ_I64 (eos.end, 2760 * MS);
  CHECK_EQ_I64 (eos.end_frame, 69);
  CHECK (!sharpness_freeze_detector_has_reference (&det));

  /* Frozen to the end but shorter than d: nothing at all. */
  sharpness_freeze_detector_init (&det, NULL);
  ev = run_25fps (&det, 40, 10, 40, &eos);
  CHECK (ev.n_start == 0 && ev.n_end == 0);
  CHECK (eos.events == SHARPNESS_FREEZE_EVENT_NONE);
}

static void
test_reset (void)
{
  SharpnessFreezeDetector det;
  SharpnessFreezeResult r;

  sharpness_freeze_detector_init (&det, NULL);
  run_25fps (&det, 70, 10, 70, NULL);
  sharpness_freeze_detector_reset (&det);
  CHECK (!sharpness_freeze_detector_has_reference (&det));
  /* The next frame is a first frame again: not compared, kept. */
  CHECK (sharpness_freeze_detector_push (&det, 5000 * MS, 0, 1000, &r) ==
      SHARPNESS_FREEZE_EVENT_NONE);
  CHECK (!r.compared && r.keep_reference);
  CHECK (sharpness_freeze_detector_finish (&det, &r) ==
      SHARPNESS_FREEZE_EVENT_NONE);
}

static void
test_noise_boundary (void)
{
  SharpnessFreezeDetector det;
  SharpnessFreezeSettings s;
  SharpnessFreezeResult r;

  /* mafd == n is frozen (<=).  SAD 256 of 1000 samples, depth 8: mafd
   * 0.256 / 256 = 0.001 exactly? (256 / 1000.) / 256 = 0.001 in double. */
  sharpness_freeze_settings_init (&s);
  sharpness_freeze_detector_init (&det, &s);
  sharpness_freeze_detector_push (&det, 0, 0, 1000, &r);
  sharpness_freeze_detector_push (&det, 40 * MS, 256, 1000, &r);
  CHECK (r.mafd == (256 / 1000.) / 256);
  CHECK (r.frozen == (r.mafd <= 0.001));
  CHECK (r.mafd == 0.001 && r.frozen);
  sharpness_freeze_detector_push (&det, 80 * MS, 257, 1000, &r);
  CHECK (!r.frozen && r.keep_reference);
}

static void
test_discontinuity (void)
{
  SharpnessFreezeDetector det;
  SharpnessFreezeSettings s;
  SharpnessFreezeResult r;
  guint n_end = 0;

  /* pts goes back from 10 s to 0 at frame 5: the duration is then counted
   * in frames since the reference at FFmpeg's frame rate.  Frame 0 is the
   * reference (pts 10 s), frames 1..4 copies at 10.04..10.16 s, then 60
   * copies with pts from 0: durations (n - ref_n) / 25 s. */
  sharpness_freeze_settings_init (&s);
  s.fps_n = 25;
  s.fps_d = 1;
  sharpness_freeze_detector_init (&det, &s);
  for (guint i = 0; i < 70; i++) {
    guint64 pts = i < 5 ? 10000 * MS + i * 40 * MS : (i - 5) * 40 * MS;
    gboolean same = i < 60;
    SharpnessFreezeEvents e = sharpness_freeze_detector_push (&det, pts,
        same ? 0 : 1000, 1000, &r);
    if (i == 50)
      /* 50 frames after the reference: 2 s by the frame count. */
      CHECK (e == SHARPNESS_FREEZE_EVENT_START);
    else if (i < 50)
      CHECK (e == SHARPNESS_FREEZE_EVENT_NONE);
    if (e & SHARPNESS_FREEZE_EVENT_END) {
      n_end++;
      /* Frame 60: 60 frames = 2.4 s by the count, end pts 2.2 s. */
      CHECK_EQ_I64 (r.duration_us, 2400000);
      CHECK_EQ_I64 (r.end, 2200 * MS);
      CHECK_EQ_I64 (r.start, 10000 * MS);
    }
  }
  CHECK (n_end == 1);

  /* Without a frame rate the duration of a discontinuity is 0: no
   * freeze is ever reported across it. */
  sharpness_freeze_settings_init (&s);
  sharpness_freeze_detector_init (&det, &s);
  for (guint i = 0; i < 70; i++) {
    guint64 pts = i < 5 ? 10000 * MS + i * 40 * MS : (i - 5) * 40 * MS;
    CHECK (sharpness_freeze_detector_push (&det, pts, i < 60 ? 0 : 1000,
            1000, &r) == SHARPNESS_FREEZE_EVENT_NONE);
  }
}

/* GStreamer's ns of tick k of 1001/30000 (round to nearest). */
static guint64
ntsc_ns (guint64 k)
{
  return (k * G_GUINT64_CONSTANT (1001000000000) + 15000) / 30000;
}

static void
test_time_base (void)
{
  /* 29.97 fps: 60 frames are 60 * 1001 / 30000 s = 2002000 us exactly;
   * 59 frames 1968633.33 us -> 1968633 < 2000000.  With or without the
   * time base the same answer (the ns are within 1 ns of the ticks). */
  for (int with_tb = 0; with_tb < 2; with_tb++) {
    SharpnessFreezeSettings s;
    SharpnessFreezeDetector det;
    SharpnessFreezeResult r;
    guint n_end = 0;

    sharpness_freeze_settings_init (&s);
    if (with_tb)
      s.time_base = (SharpnessTimeBase) {
      1001, 30000};
    for (int copies = 58; copies <= 59; copies++) {
      sharpness_freeze_detector_init (&det, &s);
      n_end = 0;
      for (guint k = 0; k < 100; k++) {
        gboolean same = k > 10 && k <= (guint) (10 + copies);
        if (sharpness_freeze_detector_push (&det, ntsc_ns (k),
                same ? 0 : 1000, 1000, &r) & SHARPNESS_FREEZE_EVENT_END) {
          n_end++;
          CHECK_EQ_I64 (r.duration_us, 2002000);
          CHECK_EQ_I64 (r.start, ntsc_ns (10));
          CHECK_EQ_I64 (r.end, ntsc_ns (70));
        }
      }
      /* 58 copies: the next frame is 59 frames after the reference. */
      CHECK (n_end == (copies == 59 ? 1u : 0u));
    }
  }
}

int
main (void)
{
  test_layouts ();
  test_sad ();
  test_sad_16bit ();
  test_v210 ();
  test_mafd ();
  test_noise ();
  test_freezes ();
  test_eos ();
  test_reset ();
  test_noise_boundary ();
  test_discontinuity ();
  test_time_base ();
  return test_check_finish ("freeze detector: all checks passed");
}
