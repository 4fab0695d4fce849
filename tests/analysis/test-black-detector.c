/* Unit test of the FFmpeg-exact black detector (analysis/sharpness-black.h):
 * the pixel thresholds FFmpeg derives (worked by hand below), the count on
 * 8-bit, 16-bit, packed 4:2:2 and v210 planes, the picture ratio, and the
 * run state machine (starts, ends, the minimum-duration boundary, a run
 * open at end of stream, reset, a time base that does not divide d).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "sharpness-black.h"

#include "test-check.h"

#define MS (G_GUINT64_CONSTANT (1000000))

static void
test_thresholds (void)
{
  /* FFmpeg: full = th * (2^depth - 1); limited = 16 * f + th * 219 * f,
   * f = 2^(depth - 8); computed in double, truncated.  th = 0.10:
   *   8-bit  limited 16 + 21.9            = 37.9    -> 37
   *   8-bit  full    0.1 * 255            = 25.5    -> 25
   *   10-bit limited 64 + 21.9 * 4 = 64 + 87.6 = 151.6 -> 151
   *   10-bit full    0.1 * 1023           = 102.3   -> 102
   *   12-bit limited 256 + 21.9 * 16      = 606.4   -> 606
   *   12-bit full    0.1 * 4095           = 409.5   -> 409
   *   16-bit limited 4096 + 21.9 * 256    = 9702.4  -> 9702
   *   16-bit full    0.1 * 65535          = 6553.5  -> 6553 */
  CHECK_EQ_U64 (sharpness_black_pixel_threshold (0.10, 8, FALSE), 37);
  CHECK_EQ_U64 (sharpness_black_pixel_threshold (0.10, 8, TRUE), 25);
  CHECK_EQ_U64 (sharpness_black_pixel_threshold (0.10, 10, FALSE), 151);
  CHECK_EQ_U64 (sharpness_black_pixel_threshold (0.10, 10, TRUE), 102);
  CHECK_EQ_U64 (sharpness_black_pixel_threshold (0.10, 12, FALSE), 606);
  CHECK_EQ_U64 (sharpness_black_pixel_threshold (0.10, 12, TRUE), 409);
  CHECK_EQ_U64 (sharpness_black_pixel_threshold (0.10, 16, FALSE), 9702);
  CHECK_EQ_U64 (sharpness_black_pixel_threshold (0.10, 16, TRUE), 6553);
  CHECK_EQ_U64 (sharpness_black_pixel_threshold (SHARPNESS_BLACK_DEFAULT_PIXEL_TH,
          8, FALSE), 37);
  /* Ends of the range: th 0 is the range's black level, th 1 its white:
   * limited 16 / 235 (8-bit), 64 / 64 + 876 = 940 (10-bit); full 0 / max. */
  CHECK_EQ_U64 (sharpness_black_pixel_threshold (0.0, 8, FALSE), 16);
  CHECK_EQ_U64 (sharpness_black_pixel_threshold (1.0, 8, FALSE), 235);
  CHECK_EQ_U64 (sharpness_black_pixel_threshold (0.0, 10, FALSE), 64);
  CHECK_EQ_U64 (sharpness_black_pixel_threshold (1.0, 10, FALSE), 940);
  CHECK_EQ_U64 (sharpness_black_pixel_threshold (0.0, 8, TRUE), 0);
  CHECK_EQ_U64 (sharpness_black_pixel_threshold (1.0, 8, TRUE), 255);
  CHECK_EQ_U64 (sharpness_black_pixel_threshold (1.0, 10, TRUE), 1023);
  /* The double rounding matters: th = 445/876 (the double
   * 0.5079908675799086) makes 64 + th * 219 * 4 exactly 509 in real
   * numbers (th * 219 = 111.25), but the double th * 219 is
   * 111.24999999999999, times 4 444.99999999999994, plus 64
   * 508.99999999999994: FFmpeg truncates that to 508. */
  CHECK_EQ_U64 (sharpness_black_pixel_threshold (0.5079908675799086, 10,
          FALSE), 508);
  CHECK_EQ_U64 (sharpness_black_pixel_threshold (445.0 / 876.0, 10, FALSE),
      508);
  /* 0.2 * 255 is the double 51.0: 51. */
  CHECK_EQ_U64 (sharpness_black_pixel_threshold (0.2, 8, TRUE), 51);
}

static void
test_range_rules (void)
{
  const SharpnessBlackRangeRule v7 = SHARPNESS_BLACK_RANGE_RULE_FFMPEG_7_1;
  const SharpnessBlackRangeRule v5 = SHARPNESS_BLACK_RANGE_RULE_FFMPEG_5_1;
  const SharpnessBlackFormatKind yuv = SHARPNESS_BLACK_FORMAT_YUV;
  const SharpnessBlackFormatKind yuvj = SHARPNESS_BLACK_FORMAT_YUVJ;
  const SharpnessBlackFormatKind gray = SHARPNESS_BLACK_FORMAT_GRAY;
  const SharpnessBlackRange unspec = SHARPNESS_BLACK_RANGE_UNSPECIFIED;
  const SharpnessBlackRange tv = SHARPNESS_BLACK_RANGE_LIMITED;
  const SharpnessBlackRange pc = SHARPNESS_BLACK_RANGE_FULL;

  /* 7.1: the frame's range flag; yuvj always full; gray full unless
   * flagged limited. */
  CHECK (!sharpness_black_ffmpeg_full_range (v7, yuv, unspec));
  CHECK (!sharpness_black_ffmpeg_full_range (v7, yuv, tv));
  CHECK (sharpness_black_ffmpeg_full_range (v7, yuv, pc));
  CHECK (sharpness_black_ffmpeg_full_range (v7, yuvj, unspec));
  CHECK (sharpness_black_ffmpeg_full_range (v7, yuvj, tv));
  CHECK (sharpness_black_ffmpeg_full_range (v7, gray, unspec));
  CHECK (!sharpness_black_ffmpeg_full_range (v7, gray, tv));
  CHECK (sharpness_black_ffmpeg_full_range (v7, gray, pc));
  /* 5.1: the format only. */
  CHECK (!sharpness_black_ffmpeg_full_range (v5, yuv, pc));
  CHECK (!sharpness_black_ffmpeg_full_range (v5, yuv, unspec));
  CHECK (sharpness_black_ffmpeg_full_range (v5, yuvj, unspec));
  CHECK (sharpness_black_ffmpeg_full_range (v5, yuvj, tv));
  CHECK (!sharpness_black_ffmpeg_full_range (v5, gray, unspec));
  CHECK (!sharpness_black_ffmpeg_full_range (v5, gray, pc));
}

static void
test_count_8bit (void)
{
  /* 5 x 3 pixels, stride 8: the padding (zeros) must not count. */
  static const guint8 data[3 * 8] = {
    0, 37, 38, 255, 16, 0, 0, 0,
    36, 37, 37, 200, 39, 0, 0, 0,
    255, 38, 1, 2, 3, 0, 0, 0,
  };
  SharpnessPlane p = {
    .samples = SHARPNESS_SAMPLES_Y8, .data = data, .stride = 8,
    .width = 5, .height = 3, .pixel_stride = 1,
  };
  guint64 n;

  /* <= 37: row 0: 0, 37, 16 (3); row 1: 36, 37, 37 (3); row 2: 1, 2, 3
   * (3). */
  CHECK (sharpness_black_count_plane (&p, 37, &n));
  CHECK_EQ_U64 (n, 9);
  /* <= 36: 37 no longer counts (3 of them). */
  CHECK (sharpness_black_count_plane (&p, 36, &n));
  CHECK_EQ_U64 (n, 6);
  /* <= 255: every pixel, no padding. */
  CHECK (sharpness_black_count_plane (&p, 255, &n));
  CHECK_EQ_U64 (n, 15);
  /* <= 0: the one 0 of row 0. */
  CHECK (sharpness_black_count_plane (&p, 0, &n));
  CHECK_EQ_U64 (n, 1);

  /* RGB is not counted. */
  p.samples = SHARPNESS_SAMPLES_RGB8;
  CHECK (!sharpness_black_count_plane (&p, 37, &n));
  CHECK_EQ_U64 (n, 0);
}

static void
put16 (guint8 * p, guint v)
{
  p[0] = v & 0xff;
  p[1] = v >> 8;
}

static void
test_count_16bit (void)
{
  /* 4 x 2 10-bit samples, little-endian, stride 10 bytes (one padding
   * sample of 0 per row). */
  static const guint vals[2][5] = {
    {151, 152, 0, 1023, 0},
    {64, 150, 256, 151, 0},
  };
  guint8 data[2 * 10];
  guint8 p010[2 * 10];
  SharpnessPlane p = {
    .samples = SHARPNESS_SAMPLES_Y16LE, .data = data, .stride = 10,
    .width = 4, .height = 2, .pixel_stride = 2, .depth = 10, .shift = 0,
  };
  guint64 n;

  for (int y = 0; y < 2; y++)
    for (int x = 0; x < 5; x++) {
      put16 (data + y * 10 + 2 * x, vals[y][x]);
      /* P010: the same values in the high bits, junk in the low 6. */
      put16 (p010 + y * 10 + 2 * x, (vals[y][x] << 6) | (x * 13 % 64));
    }
  /* <= 151: 151, 0 / 64, 150, 151: 5 (a byte-wise count would differ:
   * 256 has a low byte of 0). */
  CHECK (sharpness_black_count_plane (&p, 151, &n));
  CHECK_EQ_U64 (n, 5);
  CHECK (sharpness_black_count_plane (&p, 150, &n));
  CHECK_EQ_U64 (n, 3);
  CHECK (sharpness_black_count_plane (&p, 1023, &n));
  CHECK_EQ_U64 (n, 8);

  p.data = p010;
  p.shift = 6;
  CHECK (sharpness_black_count_plane (&p, 151, &n));
  CHECK_EQ_U64 (n, 5);
}

static void
test_count_packed_422 (void)
{
  /* UYVY, 4 x 1: U Y0 V Y1 U Y2 V Y3 with chroma 0 (which would count if
   * read as luma) and luma 37, 38, 10, 255. */
  static const guint8 uyvy[8] = { 0, 37, 0, 38, 0, 10, 0, 255 };
  /* YUY2: Y0 U Y1 V ... with the same luma, chroma 0. */
  static const guint8 yuy2[8] = { 37, 0, 38, 0, 10, 0, 255, 0 };
  SharpnessPlane p = {
    .samples = SHARPNESS_SAMPLES_Y8, .data = uyvy + 1, .stride = 8,
    .width = 4, .height = 1, .pixel_stride = 2,
  };
  guint64 n;

  CHECK (sharpness_black_count_plane (&p, 37, &n));
  CHECK_EQ_U64 (n, 2);
  p.data = yuy2;
  CHECK (sharpness_black_count_plane (&p, 37, &n));
  CHECK_EQ_U64 (n, 2);
  CHECK (sharpness_black_count_plane (&p, 9, &n));
  CHECK_EQ_U64 (n, 0);
}

static void
put32 (guint8 * p, guint32 v)
{
  p[0] = v & 0xff;
  p[1] = (v >> 8) & 0xff;
  p[2] = (v >> 16) & 0xff;
  p[3] = v >> 24;
}

static void
test_count_v210 (void)
{
  /* One row of 8 pixels: two 6-pixel blocks (32 bytes; the second block
   * holds pixels 6 and 7).  Luma 0..7 = 100, 200, 151, 152, 64, 1000, 151,
   * 900; chroma 0 everywhere (it would count). */
  static const guint luma[12] = { 100, 200, 151, 152, 64, 1000, 151, 900,
    5, 5, 5, 5
  };
  guint8 row[32];

  for (int b = 0; b < 2; b++) {
    const guint *y = luma + 6 * b;
    guint8 *w = row + 16 * b;
    /* w0: Cb Y0 Cr, w1: Y1 Cb Y2, w2: Cr Y3 Cb, w3: Y4 Cr Y5. */
    put32 (w + 0, y[0] << 10);
    put32 (w + 4, y[1] | (y[2] << 20));
    put32 (w + 8, y[3] << 10);
    put32 (w + 12, y[4] | (y[5] << 20));
  }
  for (int x = 0; x < 8; x++)
    CHECK_EQ_U64 (sharpness_black_v210_luma (row, x), luma[x]);
  /* <= 151 among the 8 pixels: 100, 151, 64, 151 (the 5s are past the
   * width). */
  CHECK_EQ_U64 (sharpness_black_count_v210 (row, 32, 8, 1, 151), 4);
  CHECK_EQ_U64 (sharpness_black_count_v210 (row, 32, 8, 1, 99), 1);
}

static void
test_ratio (void)
{
  /* 98 / 100 is the double 0.98, so >= 0.98 holds; 97 / 100 does not. */
  CHECK (sharpness_black_frame_is_black (98, 100, 0.98));
  CHECK (!sharpness_black_frame_is_black (97, 100, 0.98));
  CHECK (sharpness_black_frame_is_black (75264, 76800, 0.98));   /* 0.98 */
  CHECK (!sharpness_black_frame_is_black (75263, 76800, 0.98));
  CHECK (sharpness_black_frame_is_black (0, 100, 0.0));
  CHECK (!sharpness_black_frame_is_black (0, 0, 0.0));
}

/* Pushes frames 0..n-1 at 25 fps (40 ms), black where black[i]; collects
 * the events.  Returns the number of INTERVAL events and fills the last
 * one's result. */
typedef struct
{
  guint n_start, n_end, n_interval;
  SharpnessBlackResult last_start, last_end, last_interval;
} Events;

static void
collect (Events * ev, SharpnessBlackEvents e, const SharpnessBlackResult * r)
{
  if (e & SHARPNESS_BLACK_EVENT_RUN_START) {
    ev->n_start++;
    ev->last_start = *r;
  }
  if (e & SHARPNESS_BLACK_EVENT_RUN_END) {
    ev->n_end++;
    ev->last_end = *r;
  }
  if (e & SHARPNESS_BLACK_EVENT_INTERVAL) {
    ev->n_interval++;
    ev->last_interval = *r;
  }
}

/* Frames 0..n-1, pts i * 40 ms; frames [b0, b1) black (98 of 100 pixels),
 * the others 10 of 100.  finish() at the end if @eos. */
static Events
run_25fps (SharpnessBlackDetector * det, guint n, guint b0, guint b1,
    gboolean eos)
{
  Events ev = { 0 };
  SharpnessBlackResult r;

  for (guint i = 0; i < n; i++) {
    gboolean black = i >= b0 && i < b1;
    SharpnessBlackEvents e = sharpness_black_detector_push (det, i * 40 * MS,
        40 * MS, black ? 98 : 10, 100, &r);
    CHECK (r.black == black);
    collect (&ev, e, &r);
  }
  if (eos) {
    SharpnessBlackEvents e = sharpness_black_detector_finish (det, &r);
    collect (&ev, e, &r);
  }
  return ev;
}

static void
test_runs (void)
{
  SharpnessBlackDetector det;
  Events ev;

  sharpness_black_detector_init (&det, NULL);

  /* Frames 10..59 black (50 frames), 60 not: start 400 ms, end 2400 ms,
   * duration exactly d = 2 s: reported. */
  ev = run_25fps (&det, 80, 10, 60, TRUE);
  CHECK (ev.n_start == 1 && ev.n_end == 1 && ev.n_interval == 1);
  CHECK_EQ_U64 (ev.last_start.start, 400 * MS);
  CHECK_EQ_U64 (ev.last_start.start_frame, 10);
  CHECK_EQ_U64 (ev.last_interval.start, 400 * MS);
  CHECK_EQ_U64 (ev.last_interval.end, 2400 * MS);
  CHECK_EQ_U64 (ev.last_interval.duration, 2000 * MS);
  CHECK_EQ_U64 (ev.last_interval.end_frame, 60);
  CHECK (!ev.last_interval.at_eos);

  /* Frames 10..58 (49 frames, d minus one frame): 1.96 s, RUN_START and
   * RUN_END (FFmpeg's metadata) but no INTERVAL (no log line). */
  sharpness_black_detector_init (&det, NULL);
  ev = run_25fps (&det, 80, 10, 59, TRUE);
  CHECK (ev.n_start == 1 && ev.n_end == 1 && ev.n_interval == 0);
  CHECK_EQ_U64 (ev.last_end.end, 2360 * MS);
  CHECK_EQ_U64 (ev.last_end.duration, 1960 * MS);

  /* Two runs; d = 0 reports even a single black frame. */
  {
    SharpnessBlackSettings s;
    sharpness_black_settings_init (&s);
    s.min_duration = 0;
    sharpness_black_detector_init (&det, &s);
    ev = run_25fps (&det, 5, 2, 3, TRUE);
    CHECK (ev.n_interval == 1);
    CHECK_EQ_U64 (ev.last_interval.duration, 40 * MS);
  }
}

static void
test_eos (void)
{
  SharpnessBlackDetector det;
  Events ev;

  /* Black from frame 10 to the last frame 69: the run ends at the pts of
   * the last frame (2760 ms), 2.36 s: reported at EOS. */
  sharpness_black_detector_init (&det, NULL);
  ev = run_25fps (&det, 70, 10, 70, TRUE);
  CHECK (ev.n_start == 1 && ev.n_end == 0 && ev.n_interval == 1);
  CHECK (ev.last_interval.at_eos);
  CHECK_EQ_U64 (ev.last_interval.start, 400 * MS);
  CHECK_EQ_U64 (ev.last_interval.end, 2760 * MS);
  CHECK_EQ_U64 (ev.last_interval.duration, 2360 * MS);
  CHECK_EQ_U64 (ev.last_interval.end_frame, 69);
  CHECK_EQ_U64 (ev.last_interval.last_frame_end, 2800 * MS);

  /* Frames 10..60 black, 60 the last: end = pts 2400 ms, exactly 2 s. */
  sharpness_black_detector_init (&det, NULL);
  ev = run_25fps (&det, 61, 10, 61, TRUE);
  CHECK (ev.n_interval == 1);
  CHECK_EQ_U64 (ev.last_interval.duration, 2000 * MS);

  /* Frames 10..59 black, 59 the last: 50 frames that cover 2 s, but
   * FFmpeg measures to the last pts (2360 ms): 1.96 s, not reported. */
  sharpness_black_detector_init (&det, NULL);
  ev = run_25fps (&det, 60, 10, 60, TRUE);
  CHECK (ev.n_start == 1 && ev.n_interval == 0);

  /* finish() resets: a second finish reports nothing. */
  CHECK (sharpness_black_detector_finish (&det, NULL) ==
      SHARPNESS_BLACK_EVENT_NONE);
}

static void
test_reset (void)
{
  SharpnessBlackDetector det;
  SharpnessBlackResult r;
  Events ev;

  sharpness_black_detector_init (&det, NULL);
  /* 60 black frames, then a flush: no event, not even at EOS. */
  ev = run_25fps (&det, 60, 0, 60, FALSE);
  CHECK (ev.n_start == 1 && ev.n_interval == 0);
  sharpness_black_detector_reset (&det);
  CHECK (sharpness_black_detector_finish (&det, &r) ==
      SHARPNESS_BLACK_EVENT_NONE);
  /* After the reset a non-black frame ends nothing. */
  CHECK (sharpness_black_detector_push (&det, 0, 40 * MS, 0, 100, &r) ==
      SHARPNESS_BLACK_EVENT_NONE);
  /* And frame indices count from the reset. */
  sharpness_black_detector_push (&det, 40 * MS, 40 * MS, 100, 100, &r);
  CHECK (r.events == SHARPNESS_BLACK_EVENT_RUN_START);
  CHECK_EQ_U64 (r.start_frame, 1);
}

static void
test_no_pts (void)
{
  SharpnessBlackDetector det;
  SharpnessBlackResult r;

  sharpness_black_detector_init (&det, NULL);
  /* A black frame without pts is black but opens nothing. */
  CHECK (sharpness_black_detector_push (&det, SHARPNESS_TIME_NONE, 0, 100,
          100, &r) == SHARPNESS_BLACK_EVENT_NONE);
  CHECK (r.black);
  CHECK (sharpness_black_detector_finish (&det, &r) ==
      SHARPNESS_BLACK_EVENT_NONE);
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
  SharpnessBlackSettings s;
  SharpnessBlackDetector det;
  SharpnessBlackResult r;
  gboolean interval;

  /* 29.97 fps, d = 2 s.  FFmpeg: (int64) (2 / (1001 / 30000.)) =
   * (int64) 59.94 = 59 ticks, so a run of 59 frames (1.9686 s) is
   * reported.  Without the time base the run is 1968633333 ns < 2 s. */
  for (int with_tb = 0; with_tb < 2; with_tb++) {
    sharpness_black_settings_init (&s);
    if (with_tb)
      s.time_base = (SharpnessTimeBase) {
      1001, 30000};
    sharpness_black_detector_init (&det, &s);
    if (with_tb)
      CHECK (det.min_ticks == 59);
    interval = FALSE;
    for (guint k = 0; k < 100; k++) {
      gboolean black = k >= 20 && k < 79;       /* 59 frames */
      SharpnessBlackEvents e = sharpness_black_detector_push (&det,
          ntsc_ns (k), ntsc_ns (k + 1) - ntsc_ns (k), black ? 100 : 0, 100,
          &r);
      if (e & SHARPNESS_BLACK_EVENT_INTERVAL) {
        interval = TRUE;
        CHECK_EQ_U64 (r.start, ntsc_ns (20));
        CHECK_EQ_U64 (r.end, ntsc_ns (79));
      }
    }
    CHECK (interval == with_tb);
  }

  /* 25 fps with its time base: 2 s is 50 ticks, the same as ns. */
  sharpness_black_settings_init (&s);
  s.time_base = (SharpnessTimeBase) {
  1, 25};
  sharpness_black_detector_init (&det, &s);
  CHECK (det.min_ticks == 50);
}

int
main (void)
{
  test_thresholds ();
  test_range_rules ();
  test_count_8bit ();
  test_count_16bit ();
  test_count_packed_422 ();
  test_count_v210 ();
  test_ratio ();
  test_runs ();
  test_eos ();
  test_reset ();
  test_no_pts ();
  test_time_base ();
  return test_check_finish ("black detector: all checks passed");
}
