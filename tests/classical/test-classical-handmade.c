/* The classical metrics on small frames whose sums are worked out by hand
 * below, in every sample layout, with garbage in the stride padding.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Notation: g[y][x], W x H frame, N = W * H.  Scores: the sum over N for
 * the gradient metrics, (N * S2 - S1^2) / N^2 for the variance and
 * -sum p log2 p for the entropy (docs/reference/metrics.md).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sharpness-cpu.h"
#include "test-frame.h"

typedef struct
{
  int level;
  uint64_t count;
} Bin;

typedef struct
{
  const char *name;
  int width, height;
  const uint8_t *gray;          /* row-major, width * height values */
  uint64_t s1, s2;              /* variance sums */
  uint64_t roberts, tenengrad, laplacian, smd, smd2, maxmin;
  Bin bins[10];                 /* non-zero entropy bins, ended by count 0 */
  double variance, entropy;     /* expected scores */
} HandCase;

/* 1x1: no window fits anywhere.
 * S1 = 7, S2 = 49, variance (1*49 - 49) / 1 = 0; one bin: entropy 0. */
static const uint8_t gray_1x1[] = { 7 };

static const HandCase case_1x1 = {
  "1x1", 1, 1, gray_1x1, 7, 49, 0, 0, 0, 0, 0, 0,
  {{7, 1}}, 0.0, 0.0
};

/* 2x2   10 20
 *       40 80
 * S1 = 150, S2 = 100 + 400 + 1600 + 6400 = 8500,
 *   variance = (4 * 8500 - 150^2) / 16 = 11500 / 16 = 718.75.
 * One 2x2 window at (0,0):
 *   roberts |80-10| + |40-20| = 70 + 20 = 90
 *   smd     |10-20| + |10-40| = 10 + 30 = 40
 *   smd2    10 * 30 = 300
 * No 3x3 window: tenengrad = laplacian = maxmin = 0.
 * Four distinct levels: entropy log2 4 = 2. */
static const uint8_t gray_2x2[] = {
  10, 20,
  40, 80,
};

static const HandCase case_2x2 = {
  "2x2", 2, 2, gray_2x2, 150, 8500, 90, 0, 0, 40, 300, 0,
  {{10, 1}, {20, 1}, {40, 1}, {80, 1}}, 11500.0 / 16, 2.0
};

/* 3x3     1   2   4
 *         8  16  32
 *        64 128 255
 * S1 = 1+2+4+8+16+32+64+128+255 = 510,
 * S2 = 1+4+16+64+256+1024+4096+16384+65025 = 86870,
 *   variance = (9 * 86870 - 510^2) / 81 = (781830 - 260100) / 81 = 521730 / 81.
 * roberts, windows at (y,x):
 *   (0,0) |16-1|   + |8-2|    =  15 +  6 =  21
 *   (0,1) |32-2|   + |16-4|   =  30 + 12 =  42
 *   (1,0) |128-8|  + |64-16|  = 120 + 48 = 168
 *   (1,1) |255-16| + |128-32| = 239 + 96 = 335    sum 566
 * smd (right and down differences; the last column and row start none):
 *   (0,0) |1-2|  + |1-8|    =  1 +   7 =   8    smd2  1 *   7 =    7
 *   (0,1) |2-4|  + |2-16|   =  2 +  14 =  16          2 *  14 =   28
 *   (1,0) |8-16| + |8-64|   =  8 +  56 =  64          8 *  56 =  448
 *   (1,1) |16-32|+ |16-128| = 16 + 112 = 128         16 * 112 = 1792
 *   smd 216, smd2 2275
 * The only interior pixel (1,1):
 *   tenengrad Gx = (4 + 2*32 + 255) - (1 + 2*8 + 64) = 323 - 81 = 242,
 *             Gy = (64 + 2*128 + 255) - (1 + 2*2 + 4) = 575 - 9 = 566,
 *             242^2 + 566^2 = 58564 + 320356 = 378920
 *   laplacian |32 + 8 - 2*16| + |128 + 2 - 2*16| = 8 + 98 = 106
 *   maxmin    255 - 1 = 254
 * Nine distinct levels: entropy log2 9. */
static const uint8_t gray_3x3[] = {
  1, 2, 4,
  8, 16, 32,
  64, 128, 255,
};

static const HandCase case_3x3 = {
  "3x3", 3, 3, gray_3x3, 510, 86870, 566, 378920, 106, 216, 2275, 254,
  {{1, 1}, {2, 1}, {4, 1}, {8, 1}, {16, 1}, {32, 1}, {64, 1}, {128, 1},
      {255, 1}},
  521730.0 / 81, 3.169925001442312       /* log2 9 */
};

/* 4x3 (W = 4, H = 3): two interior pixels; the corners 200 and 90 are
 * outside every laplacian term, and 90 (bottom right) outside every
 * smd/smd2 term.
 *       200  10  10  10
 *        10  20  40  10
 *        10  10  10  90
 * S1 = 230 + 80 + 120 = 430,
 * S2 = (40000 + 3*100) + (100 + 400 + 1600 + 100) + (3*100 + 8100)
 *    = 40300 + 2200 + 8400 = 50900,
 *   variance = (12 * 50900 - 430^2) / 144 = (610800 - 184900) / 144
 *            = 425900 / 144.
 * roberts, windows at (y,x):
 *   (0,0) |20-200| + |10-10| = 180   (0,1) |40-10| + |20-10| = 40
 *   (0,2) |10-10|  + |40-10| =  30   (1,0) |10-10| + |10-20| = 10
 *   (1,1) |10-20|  + |10-40| =  40   (1,2) |90-40| + |10-10| = 50
 *   sum 350
 * smd / smd2:
 *   (0,0) |200-10| + |200-10| = 380   190 * 190 = 36100
 *   (0,1) |10-10|  + |10-20|  =  10     0 *  10 =     0
 *   (0,2) |10-10|  + |10-40|  =  30     0 *  30 =     0
 *   (1,0) |10-20|  + |10-10|  =  10    10 *   0 =     0
 *   (1,1) |20-40|  + |20-10|  =  30    20 *  10 =   200
 *   (1,2) |40-10|  + |40-10|  =  60    30 *  30 =   900
 *   smd 520, smd2 37200
 * tenengrad:
 *   (1,1) Gx = (10 + 80 + 10) - (200 + 20 + 10) = -130,
 *         Gy = (10 + 20 + 10) - (200 + 20 + 10) = -190: 16900 + 36100 = 53000
 *   (1,2) Gx = (10 + 20 + 90) - (10 + 40 + 10) = 60,
 *         Gy = (10 + 20 + 90) - (10 + 20 + 10) = 80:     3600 + 6400 = 10000
 *   sum 63000
 * laplacian:
 *   (1,1) |40 + 10 - 40| + |10 + 10 - 40| = 10 + 20 =  30
 *   (1,2) |10 + 20 - 80| + |10 + 10 - 80| = 50 + 60 = 110   sum 140
 * maxmin: (1,1) 200 - 10 = 190, (1,2) 90 - 10 = 80: sum 270
 * entropy: 10 eight times, 20, 40, 90, 200 once:
 *   (2/3) log2 (3/2) + 4 (1/12) log2 12
 *   = (2/3)(log2 3 - 1) + (1/3)(2 + log2 3) = log2 3. */
static const uint8_t gray_4x3[] = {
  200, 10, 10, 10,
  10, 20, 40, 10,
  10, 10, 10, 90,
};

static const HandCase case_4x3 = {
  "4x3", 4, 3, gray_4x3, 430, 50900, 350, 63000, 140, 520, 37200, 270,
  {{10, 8}, {20, 1}, {40, 1}, {90, 1}, {200, 1}},
  425900.0 / 144, 1.584962500721156     /* log2 3 */
};

/* A single row, and a single column: no window fits (H or W is 1).
 *   0 50 100 150 200: S1 = 500, S2 = 2500 + 10000 + 22500 + 40000 = 75000,
 *   variance = (5 * 75000 - 500^2) / 25 = 125000 / 25 = 5000;
 *   five distinct levels: entropy log2 5. */
static const uint8_t gray_line5[] = { 0, 50, 100, 150, 200 };

static const HandCase case_5x1 = {
  "5x1", 5, 1, gray_line5, 500, 75000, 0, 0, 0, 0, 0, 0,
  {{0, 1}, {50, 1}, {100, 1}, {150, 1}, {200, 1}},
  125000.0 / 25, 2.321928094887362      /* log2 5 */
};

static const HandCase case_1x5 = {
  "1x5", 1, 5, gray_line5, 500, 75000, 0, 0, 0, 0, 0, 0,
  {{0, 1}, {50, 1}, {100, 1}, {150, 1}, {200, 1}},
  125000.0 / 25, 2.321928094887362
};

/* 2x3 (W = 2, H = 3): 2x2 windows but no 3x3 one although H = 3.
 *     0  10
 *    30  60
 *   100 150
 * S1 = 350, S2 = 100 + 900 + 3600 + 10000 + 22500 = 37100,
 *   variance = (6 * 37100 - 350^2) / 36 = (222600 - 122500) / 36 = 100100 / 36.
 * roberts (0,0) |60-0| + |30-10| = 80, (1,0) |150-30| + |100-60| = 160: 240
 * smd     (0,0) |0-10| + |0-30| = 40,  (1,0) |30-60| + |30-100| = 100: 140
 * smd2    10 * 30 + 30 * 70 = 300 + 2100 = 2400
 * Six distinct levels: entropy log2 6. */
static const uint8_t gray_2x3[] = {
  0, 10,
  30, 60,
  100, 150,
};

static const HandCase case_2x3 = {
  "2x3", 2, 3, gray_2x3, 350, 37100, 240, 0, 0, 140, 2400, 0,
  {{0, 1}, {10, 1}, {30, 1}, {60, 1}, {100, 1}, {150, 1}},
  100100.0 / 36, 2.584962500721156      /* log2 6 */
};

/* 3x2 (W = 3, H = 2):
 *    5 10  20
 *   40 80 160
 * S1 = 315, S2 = 25 + 100 + 400 + 1600 + 6400 + 25600 = 34125,
 *   variance = (6 * 34125 - 315^2) / 36 = (204750 - 99225) / 36 = 105525 / 36.
 * roberts (0,0) |80-5| + |40-10| = 105, (0,1) |160-10| + |80-20| = 210: 315
 * smd     (0,0) |5-10| + |5-40| = 40,   (0,1) |10-20| + |10-80| = 80:  120
 * smd2    5 * 35 + 10 * 70 = 175 + 700 = 875
 * Six distinct levels: entropy log2 6. */
static const uint8_t gray_3x2[] = {
  5, 10, 20,
  40, 80, 160,
};

static const HandCase case_3x2 = {
  "3x2", 3, 2, gray_3x2, 315, 34125, 315, 0, 0, 120, 875, 0,
  {{5, 1}, {10, 1}, {20, 1}, {40, 1}, {80, 1}, {160, 1}},
  105525.0 / 36, 2.584962500721156
};

/* The gray image of the rounding and clamping frames below:
 *     0   1
 *   255 255
 * S1 = 511, S2 = 1 + 2 * 65025 = 130051,
 *   variance = (4 * 130051 - 511^2) / 16 = (520204 - 261121) / 16 = 259083 / 16.
 * roberts |255-0| + |255-1| = 509; smd |0-1| + |0-255| = 256; smd2 1 * 255.
 * entropy: bins 1, 1, 2 of 4: 2 (1/4) log2 4 + (1/2) log2 2 = 1.5. */
static const uint8_t gray_clamp[] = {
  0, 1,
  255, 255,
};

static const HandCase case_clamp = {
  "0/1/255", 2, 2, gray_clamp, 511, 130051, 509, 0, 0, 256, 255, 0,
  {{0, 1}, {1, 1}, {255, 2}}, 259083.0 / 16, 1.5
};

/* The gray image of the red, green, blue, white frame below:
 *   77 149
 *   29 255
 * S1 = 510, S2 = 5929 + 22201 + 841 + 65025 = 93996,
 *   variance = (4 * 93996 - 510^2) / 16 = (375984 - 260100) / 16 = 115884 / 16.
 * roberts |255-77| + |29-149| = 178 + 120 = 298;
 * smd |77-149| + |77-29| = 72 + 48 = 120; smd2 72 * 48 = 3456.
 * Four distinct levels: entropy 2. */
static const uint8_t gray_primaries[] = {
  77, 149,
  29, 255,
};

static const HandCase case_primaries = {
  "primaries", 2, 2, gray_primaries, 510, 93996, 298, 0, 0, 120, 3456, 0,
  {{29, 1}, {77, 1}, {149, 1}, {255, 1}}, 115884.0 / 16, 2.0
};

/* 8192x3, every row 0 0 255 255 0 0 255 255 ...: a row of tenengrad terms
 * overflows 32 bits.
 * S1 = 3 * 4096 * 255 = 3133440, S2 = 3 * 4096 * 65025 = 799027200; half the
 * pixels 0, half 255: variance 127.5^2 = 16256.25, entropy 1.
 * Rows are equal, so every vertical difference is 0.
 * g[x] != g[x+1] exactly when x % 4 is 1 or 3: for x in 0..8190 that is
 * 2048 + 2047 = 4095 columns.
 *   roberts  2 rows * 4095 * (255 + 255)            = 4176900
 *   smd      2 rows * 4095 * 255                    = 2088450;  smd2 0
 * Interior x in 1..8190 (8190 centres, one row): g[x-1] and g[x+1] are
 * always one 0 and one 255, so
 *   tenengrad Gx = (1+2+1) * (+-255) = +-1020, Gy = 0:
 *             8190 * 1020^2 = 8190 * 1040400 = 8520876000 (> 2^32)
 *   laplacian |255 - 2 g[x]| = 255: 8190 * 255  = 2088450
 *   maxmin    every window holds a 0 and a 255: 8190 * 255 = 2088450 */
#define STRIPES_W 8192
#define STRIPES_H 3
static uint8_t gray_stripes[STRIPES_W * STRIPES_H];

static const HandCase case_stripes = {
  "stripes", STRIPES_W, STRIPES_H, gray_stripes, 3133440, 799027200,
  4176900, 8520876000, 2088450, 2088450, 0, 2088450,
  {{0, 12288}, {255, 12288}}, 16256.25, 1.0
};

/* 1920x1080 all 255: S1 = 2073600 * 255 = 528768000 and
 * S2 = 2073600 * 65025 = 134835840000 (> 2^32); no gradient anywhere;
 * variance (N^2 * 65025 - (N * 255)^2) / N^2 = 0; one bin: entropy 0. */
#define WHITE_W 1920
#define WHITE_H 1080
static uint8_t gray_white[WHITE_W * WHITE_H];

static const HandCase case_white = {
  "white", WHITE_W, WHITE_H, gray_white, 528768000, 134835840000,
  0, 0, 0, 0, 0, 0, {{255, WHITE_W * WHITE_H}}, 0.0, 0.0
};

static const HandCase *const gray_cases[] = {
  &case_1x1, &case_2x2, &case_3x3, &case_4x3, &case_5x1, &case_1x5,
  &case_2x3, &case_3x2, &case_clamp, &case_primaries, &case_stripes,
  &case_white,
};

static int failures;

static void
fail (const char *what, const char *layout, const HandCase * c,
    SharpnessMetric m, const char *fmt, ...)
    __attribute__ ((format (printf, 5, 6)));

static void
fail (const char *what, const char *layout, const HandCase * c,
    SharpnessMetric m, const char *fmt, ...)
{
  va_list args;

  printf ("FAIL %s: case %s, layout %s, metric %s: ", what, c->name, layout,
      sharpness_metric_info[m].nick);
  va_start (args, fmt);
  vprintf (fmt, args);
  va_end (args);
  printf ("\n");
  failures++;
}

static uint64_t
expected_sum (const HandCase * c, SharpnessMetric m)
{
  switch (m) {
    case SHARPNESS_METRIC_VARIANCE:
      return c->s1;
    case SHARPNESS_METRIC_ROBERTS:
      return c->roberts;
    case SHARPNESS_METRIC_TENENGRAD:
      return c->tenengrad;
    case SHARPNESS_METRIC_LAPLACIAN:
      return c->laplacian;
    case SHARPNESS_METRIC_SMD:
      return c->smd;
    case SHARPNESS_METRIC_SMD2:
      return c->smd2;
    case SHARPNESS_METRIC_MAXMIN:
      return c->maxmin;
    default:
      return 0;
  }
}

static double
expected_score (const HandCase * c, SharpnessMetric m)
{
  switch (m) {
    case SHARPNESS_METRIC_VARIANCE:
      return c->variance;
    case SHARPNESS_METRIC_ENTROPY:
      return c->entropy;
    case SHARPNESS_METRIC_BLUR_EFFECT:
      /* Every case is under 4x4 (no interior) or flat: no variation on
       * either axis scores 1 (test_blur_effect_step has a real one). */
      return 1.0;
    default:
      return (double) expected_sum (c, m) / ((double) c->width * c->height);
  }
}

/* Checks every classical metric of @plane against @c. */
static void
check_plane (SharpnessCpu * cpu, const HandCase * c, const SharpnessPlane * plane,
    const char *layout)
{
  for (int i = 0; i < SHARPNESS_METRIC_COUNT; i++) {
    SharpnessMetric m = (SharpnessMetric) i;
    SharpnessSums sums;
    SharpnessStatus st;
    double score;

    if (sharpness_metric_info[m].kind != SHARPNESS_KIND_SUMS)
      continue;

    st = sharpness_cpu_sums (cpu, m, plane, &sums);
    if (st != SHARPNESS_OK) {
      fail ("sums", layout, c, m, "%s", sharpness_status_to_string (st));
      continue;
    }

    if (m == SHARPNESS_METRIC_ENTROPY) {
      uint64_t hist[256] = { 0 };
      for (const Bin * b = c->bins; b->count; b++)
        hist[b->level] = b->count;
      for (int k = 0; k < 256; k++)
        if (sums.hist[k] != hist[k])
          fail ("histogram", layout, c, m, "bin %d: %llu, expected %llu", k,
              (unsigned long long) sums.hist[k], (unsigned long long) hist[k]);
    } else if (sums.sum != expected_sum (c, m)) {
      fail ("sum", layout, c, m, "%llu, expected %llu",
          (unsigned long long) sums.sum,
          (unsigned long long) expected_sum (c, m));
    }
    if (m == SHARPNESS_METRIC_BLUR_EFFECT && (sums.blur_m1[0] ||
            sums.blur_m1[1] || sums.blur_m2[0] || sums.blur_m2[1]))
      fail ("blur-effect sums", layout, c, m, "not 0");
    if (m == SHARPNESS_METRIC_VARIANCE && sums.sum_sq != c->s2)
      fail ("sum of squares", layout, c, m, "%llu, expected %llu",
          (unsigned long long) sums.sum_sq, (unsigned long long) c->s2);

    st = sharpness_cpu_score (cpu, m, plane, &score);
    double want = expected_score (c, m);
    /* The entropy adds its logarithms in its own order: allow rounding. */
    double tol = m == SHARPNESS_METRIC_ENTROPY ? 1e-14 * want : 0.0;
    if (st != SHARPNESS_OK)
      fail ("score", layout, c, m, "%s", sharpness_status_to_string (st));
    else if (!(fabs (score - want) <= tol))
      fail ("score", layout, c, m, "%.17g, expected %.17g", score, want);
  }
}

static const size_t paddings[] = { 0, 3, 64 };

/* Every gray case in every layout, padding filled with 0xff. */
static void
test_gray_cases (SharpnessCpu * cpu)
{
  for (size_t i = 0; i < sizeof gray_cases / sizeof gray_cases[0]; i++) {
    const HandCase *c = gray_cases[i];
    for (int l = 0; l < test_n_layouts; l++) {
      for (size_t p = 0; p < sizeof paddings / sizeof paddings[0]; p++) {
        TestFrame f;
        test_frame_init (&f, &test_layouts[l], c->width, c->height,
            paddings[p], 0xff);
        for (int y = 0; y < c->height; y++)
          for (int x = 0; x < c->width; x++)
            test_frame_set_gray (&f, x, y, c->gray[y * c->width + x]);
        check_plane (cpu, c, &f.plane, test_layouts[l].name);
        test_frame_clear (&f);
      }
    }
  }
}

/* 16-bit samples whose rounding to 8 bits gives the gray image of
 * case_clamp, g = min (255, (v + 2^(s-1)) >> s), v = raw >> shift:
 *   GRAY16_LE (s = 8): (127 + 128) >> 8 = 0, (128 + 128) >> 8 = 1,
 *     (65407 + 128) >> 8 = 65535 >> 8 = 255, (65535 + 128) >> 8 = 256 -> 255
 *   I420_10LE (s = 2): (1 + 2) >> 2 = 0, (2 + 2) >> 2 = 1,
 *     (1021 + 2) >> 2 = 255, (1023 + 2) >> 2 = 256 -> 255
 *   P010_10LE (the same 10 bits << 6; the low 6 bits, 0x3f here, are
 *     dropped): 0x007f, 0x00bf, 0xff7f, 0xffff */
static void
test_y16_rounding (SharpnessCpu * cpu)
{
  static const struct
  {
    const char *layout;
    unsigned raw[4];
  } frames[] = {
    {"GRAY16_LE", {127, 128, 65407, 65535}},
    {"I420_10LE", {1, 2, 1021, 1023}},
    {"P010_10LE", {0x007f, 0x00bf, 0xff7f, 0xffff}},
  };

  for (size_t i = 0; i < sizeof frames / sizeof frames[0]; i++) {
    const TestLayout *layout = test_layout_find (frames[i].layout);
    for (size_t p = 0; p < sizeof paddings / sizeof paddings[0]; p++) {
      TestFrame f;
      test_frame_init (&f, layout, 2, 2, paddings[p], 0xff);
      for (int k = 0; k < 4; k++)
        test_frame_set_raw (&f, k % 2, k / 2, frames[i].raw[k]);
      check_plane (cpu, &case_clamp, &f.plane, frames[i].layout);
      test_frame_clear (&f);
    }
  }
}

/* Red, green, blue and white pixels, whose BT.601 luma
 * (77 R + 150 G + 29 B + 128) >> 8 is the gray image of case_primaries:
 *   red   (77 * 255 + 128) >> 8 = 19763 >> 8 = 77
 *   green (150 * 255 + 128) >> 8 = 38378 >> 8 = 149
 *   blue  (29 * 255 + 128) >> 8 = 7523 >> 8 = 29
 *   white (256 * 255 + 128) >> 8 = 255
 * in every RGB layout, the x/alpha bytes left at 0xa5: a backend that
 * mixes up the component offsets, or reads the x byte, sees another
 * image. */
static void
test_rgb_luma (SharpnessCpu * cpu)
{
  static const unsigned rgb[4][3] = {
    {255, 0, 0}, {0, 255, 0}, {0, 0, 255}, {255, 255, 255},
  };

  for (int l = 0; l < test_n_layouts; l++) {
    if (test_layouts[l].samples != SHARPNESS_SAMPLES_RGB8)
      continue;
    for (size_t p = 0; p < sizeof paddings / sizeof paddings[0]; p++) {
      TestFrame f;
      test_frame_init (&f, &test_layouts[l], 2, 2, paddings[p], 0xa5);
      for (int k = 0; k < 4; k++)
        test_frame_set_rgb (&f, k % 2, k / 2, rgb[k][0], rgb[k][1], rgb[k][2]);
      check_plane (cpu, &case_primaries, &f.plane, test_layouts[l].name);
      test_frame_clear (&f);
    }
  }
}

/* Blur effect of a step: 4 rows of 0 0 0 0 255 255 255 255 (W = 8, H = 4),
 * and its transpose.  Equal rows: no variation down them (M1 = 0, no say).
 * Along them, interior row 2, columns 2 .. 6: the columns smoothed down by
 * (1, 2, 1) are c = 4 g = 0 0 0 0 1020 1020 1020 1020, mirrored at the
 * edges (c[-k] = c[k - 1], c[7 + k] = c[8 - k]).
 *   sharp 11 |c[x+1] - c[x-1]|: 0, 11220, 11220, 0, 0
 *   blur |c[x+6] + c[x+5] - c[x-5] - c[x-6]|, x = 3:
 *     c[6] + c[7] - c[1] - c[2] = 2040; x = 4: c[5] + c[6] - c[0] - c[1]
 *     = 2040
 *   M1 = 22440, M2 = 2 * (11220 - 2040) = 18360, score 4080 / 22440 = 2/11
 * (an ideal step: the box spreads it over 11 pixels, Sobel's two-pixel
 * difference keeps 2 of them). */
static void
test_blur_effect_step (SharpnessCpu * cpu)
{
  const SharpnessMetric m = SHARPNESS_METRIC_BLUR_EFFECT;
  static const HandCase name = { "blur-effect step" };      /* for fail () */

  for (int t = 0; t < 2; t++) {
    const int w = t ? 4 : 8, h = t ? 8 : 4, ax = t ? 0 : 1;
    for (int l = 0; l < test_n_layouts; l++) {
      for (size_t p = 0; p < sizeof paddings / sizeof paddings[0]; p++) {
        TestFrame f;
        SharpnessSums sums;
        double score;

        test_frame_init (&f, &test_layouts[l], w, h, paddings[p], 0xff);
        for (int y = 0; y < h; y++)
          for (int x = 0; x < w; x++)
            test_frame_set_gray (&f, x, y, (t ? y : x) >= 4 ? 255 : 0);
        if (sharpness_cpu_sums (cpu, m, &f.plane, &sums) != SHARPNESS_OK ||
            sums.blur_m1[ax] != 22440 || sums.blur_m2[ax] != 18360 ||
            sums.blur_m1[1 - ax] != 0 || sums.blur_m2[1 - ax] != 0)
          fail ("blur-effect step sums", test_layouts[l].name, &name, m,
              "%dx%d", w, h);
        if (sharpness_cpu_score (cpu, m, &f.plane, &score) != SHARPNESS_OK ||
            score != 2.0 / 11.0)
          fail ("blur-effect step", test_layouts[l].name, &name, m,
              "%dx%d: %.17g, expected 2/11", w, h, score);
        test_frame_clear (&f);
      }
    }
  }
}

/* One backend for everything: its gray rows grow with the 8192-wide frame
 * and are reused, stale, by the small frames after it. */
int
main (void)
{
  SharpnessCpu *cpu = sharpness_cpu_new ();

  if (!cpu) {
    printf ("FAIL: sharpness_cpu_new\n");
    return 1;
  }

  for (int x = 0; x < STRIPES_W; x++)
    gray_stripes[x] = (x / 2) % 2 ? 255 : 0;
  for (int y = 1; y < STRIPES_H; y++)
    memcpy (gray_stripes + y * STRIPES_W, gray_stripes, STRIPES_W);
  memset (gray_white, 255, sizeof gray_white);

  test_gray_cases (cpu);
  test_y16_rounding (cpu);
  test_rgb_luma (cpu);
  test_blur_effect_step (cpu);
  sharpness_cpu_free (cpu);

  if (failures) {
    printf ("%d failures\n", failures);
    return 1;
  }
  printf ("all hand-made cases pass\n");
  return 0;
}
