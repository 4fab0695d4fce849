/* Tile sums and batches of the classical metrics on the CPU backend
 * (docs/reference/tiles.md): hand-worked tiles, a naive per-pixel reference on
 * random frames of every layout, sizes not divisible by the grid, grids
 * finer than the frame, tile sums adding up to the frame's, and batches of
 * regions equal to scoring each cropped plane alone.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Usage: test-classical-tiles [--seed N]
 *        test-classical-tiles --dump FILE WIDTH HEIGHT COLS ROWS
 * --dump reads a raw 8-bit gray image and prints every classical metric's
 * tile sums and tile scores as JSON, for the numpy oracle
 * (tests/classical/test_tiles_oracle.py).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sharpness-cpu.h"
#include "sharpness-tiles-private.h"
#include "classical-terms.h"
#include "test-check.h"
#include "test-frame.h"
#include "test-rng.h"
#include "test-sums.h"

static const SharpnessMetric classical[] = {
  SHARPNESS_METRIC_VARIANCE, SHARPNESS_METRIC_ROBERTS,
  SHARPNESS_METRIC_TENENGRAD, SHARPNESS_METRIC_LAPLACIAN,
  SHARPNESS_METRIC_SMD, SHARPNESS_METRIC_SMD2, SHARPNESS_METRIC_MAXMIN,
  SHARPNESS_METRIC_ENTROPY,
};
#define N_CLASSICAL ((int) (sizeof classical / sizeof classical[0]))

static const char *
nick (SharpnessMetric m)
{
  return sharpness_metric_info[m].nick;
}

/* ---- the naive reference: every term added to its anchor's tile ---- */

/* Term of @m anchored at (x, y) of the @w x @h gray image @g, or -1 when
 * its window does not fit (variance and entropy: see the callers). */
static int64_t
naive_term (SharpnessMetric m, const uint8_t * g, int w, int h, int x, int y)
{
#define G(xx, yy) ((int) g[(size_t) (yy) * w + (xx)])
  switch (m) {
    case SHARPNESS_METRIC_ROBERTS:
    case SHARPNESS_METRIC_SMD:
    case SHARPNESS_METRIC_SMD2:
      if (x > w - 2 || y > h - 2)
        return -1;
      if (m == SHARPNESS_METRIC_ROBERTS)
        return sharpness_term_roberts (G (x, y), G (x + 1, y), G (x, y + 1),
            G (x + 1, y + 1));
      if (m == SHARPNESS_METRIC_SMD)
        return sharpness_term_smd (G (x, y), G (x + 1, y), G (x, y + 1));
      return sharpness_term_smd2 (G (x, y), G (x + 1, y), G (x, y + 1));
    case SHARPNESS_METRIC_TENENGRAD:
    case SHARPNESS_METRIC_LAPLACIAN:
    case SHARPNESS_METRIC_MAXMIN:
      if (x < 1 || y < 1 || x > w - 2 || y > h - 2)
        return -1;
      if (m == SHARPNESS_METRIC_TENENGRAD)
        return sharpness_term_tenengrad (G (x - 1, y - 1), G (x, y - 1),
            G (x + 1, y - 1), G (x - 1, y), G (x + 1, y), G (x - 1, y + 1),
            G (x, y + 1), G (x + 1, y + 1));
      if (m == SHARPNESS_METRIC_LAPLACIAN)
        return sharpness_term_laplacian (G (x, y - 1), G (x - 1, y), G (x, y),
            G (x + 1, y), G (x, y + 1));
      {
        int hi = 0, lo = 255;
        for (int dy = -1; dy <= 1; dy++)
          for (int dx = -1; dx <= 1; dx++) {
            hi = G (x + dx, y + dy) > hi ? G (x + dx, y + dy) : hi;
            lo = G (x + dx, y + dy) < lo ? G (x + dx, y + dy) : lo;
          }
        return hi - lo;
      }
    default:
      return G (x, y);
  }
#undef G
}

/* Naive tile sums of @m over @g; the tile of a pixel from the partition's
 * definition (searching the spans, not sharpness_tile_of). */
static void
naive_tiles (SharpnessMetric m, const uint8_t * g, int w, int h,
    SharpnessTileSums * t)
{
  sharpness_tile_sums_zero (t, m);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      int c = 0, r = 0, b, e;
      for (;; c++) {
        sharpness_tile_span (w, t->cols, c, &b, &e);
        if (x >= b && x < e)
          break;
      }
      for (;; r++) {
        sharpness_tile_span (h, t->rows, r, &b, &e);
        if (y >= b && y < e)
          break;
      }
      const size_t k = (size_t) r * t->cols + c;
      const int64_t v = naive_term (m, g, w, h, x, y);
      if (m == SHARPNESS_METRIC_ENTROPY) {
        t->hist[k * 256 + v]++;
      } else if (v >= 0) {
        t->sum[k] += (uint64_t) v;
        if (m == SHARPNESS_METRIC_VARIANCE)
          t->sum_sq[k] += (uint64_t) (v * v);
      }
    }
}

static uint8_t *
gray_of (const SharpnessPlane * p)
{
  uint8_t *g = malloc ((size_t) p->width * p->height);
  if (!g)
    abort ();
  for (int y = 0; y < p->height; y++)
    for (int x = 0; x < p->width; x++)
      g[(size_t) y * p->width + x] = test_frame_gray (p, x, y);
  return g;
}

/* The backend's tile sums of @plane against the naive ones; the frame's
 * sums against sharpness_cpu_sums() and against the tiles' total; the
 * tile scores against the tiles' own sums over their own sizes. */
static void
check_plane (SharpnessCpu * cpu, const SharpnessPlane * plane, int cols,
    int rows, const char *what)
{
  uint8_t *g = gray_of (plane);

  for (int i = 0; i < N_CLASSICAL; i++) {
    const SharpnessMetric m = classical[i];
    SharpnessTileSums got, want;
    SharpnessSums frame, tiled, total;

    if (sharpness_tile_sums_init (&got, m, cols, rows) != SHARPNESS_OK ||
        sharpness_tile_sums_init (&want, m, cols, rows) != SHARPNESS_OK)
      abort ();
    naive_tiles (m, g, plane->width, plane->height, &want);
    SharpnessStatus st = sharpness_cpu_sums_tiles (cpu, m, plane, &tiled,
        &got);
    CHECKF (st == SHARPNESS_OK, "%s %s %dx%d: status %s", what, nick (m),
        cols, rows, sharpness_status_to_string (st));
    CHECKF (test_tile_sums_equal (m, &got, &want),
        "%s %s %dx%d tiles: tile sums", what, nick (m), cols, rows);
    CHECKF (sharpness_cpu_sums (cpu, m, plane, &frame) == SHARPNESS_OK,
        "%s %s: frame sums", what, nick (m));
    sharpness_tile_sums_total (&got, m, &total);
    CHECKF (test_sums_equal (m, &tiled, &frame),
        "%s %s %dx%d: frame sums of the tiled pass", what, nick (m), cols,
        rows);
    CHECKF (test_sums_equal (m, &total, &frame),
        "%s %s %dx%d: tiles add up to the frame", what, nick (m), cols, rows);

    /* Each tile's score is the tile scored alone as a plane... but only
     * for variance and entropy (the windowed metrics' terms near a tile's
     * edge read pixels outside it, by design): there the crop must agree. */
    for (int r = 0; r < rows; r++)
      for (int c = 0; c < cols; c++) {
        int x0, x1, y0, y1;
        sharpness_tile_span (plane->width, cols, c, &x0, &x1);
        sharpness_tile_span (plane->height, rows, r, &y0, &y1);
        const double s = sharpness_score_from_tile_sums (m, &got,
            plane->width, plane->height, c, r);
        if (x1 == x0 || y1 == y0) {
          CHECKF (s == 0.0, "%s %s: empty tile (%d, %d) scores %g", what,
              nick (m), c, r, s);
          continue;
        }
        if (m != SHARPNESS_METRIC_VARIANCE && m != SHARPNESS_METRIC_ENTROPY)
          continue;
        SharpnessPlane crop;
        SharpnessRect rect = { x0, y0, x1 - x0, y1 - y0 };
        double alone;
        sharpness_plane_crop (plane, &rect, &crop);
        CHECKF (sharpness_cpu_score (cpu, m, &crop, &alone) == SHARPNESS_OK &&
            memcmp (&alone, &s, sizeof s) == 0, "%s %s: tile (%d, %d) "
            "%.17g, the tile alone %.17g", what, nick (m), c, r, s, alone);
      }
    sharpness_tile_sums_clear (&got);
    sharpness_tile_sums_clear (&want);
  }
  free (g);
}

/* ---- hand-worked tiles ---- */

typedef struct
{
  SharpnessMetric metric;
  uint64_t sum[4];              /* per tile, row-major */
  double score[4];
} HandTiles;

/* 5x4, g = 5 x^2 on every row (0 5 20 45 80), grid 2x2: tile columns
 * floor (c * 5 / 2) = 0, 2, 5 (x 0-1 and 2-4), tile rows 0, 2, 4 (y 0-1
 * and 2-3); tiles of 2x2, 3x2, 2x2 and 3x2 pixels.
 * 2x2 anchors: x 0..3, y 0..2 (row y = 2 lies in the bottom tiles);
 *   roberts   2 (g[x+1] - g[x]) = 10, 30, 50, 70 per x
 *             tiles: 2 (10 + 30) = 80, 2 (50 + 70) = 240, 40, 120
 *   smd       g[x+1] - g[x] (no vertical change) = 5, 15, 25, 35
 *             tiles: 40, 120, 20, 60
 *   smd2      (g[x+1] - g[x]) * 0 = 0 everywhere
 * 3x3 centres: x 1..3, y 1..2 (y 1 top, y 2 bottom; x 1 left, 2-3 right);
 *   laplacian |g[x+1] + g[x-1] - 2 g[x]| = 10 (vertical 0): 10, 20, 10, 20
 *   tenengrad Gx = 4 (g[x+1] - g[x-1]) = 80 x, Gy = 0: 6400 x^2
 *             = 6400, 25600, 57600: tiles 6400, 83200, 6400, 83200
 *   maxmin    g[x+1] - g[x-1] = 20 x: tiles 20, 40 + 60 = 100, 20, 100
 * Scores: the sum over the tile's pixels (4 or 6).
 * Variance: left tiles 0, 5, 0, 5: S1 10, S2 50, (4 * 50 - 100) / 16
 *   = 6.25; right tiles 20 45 80 twice: S1 290, S2 17650,
 *   (6 * 17650 - 290^2) / 36 = 21800 / 36.
 * Entropy: left tiles two levels, 1 bit; right tiles three, log2 3. */
static const HandTiles ramp_tiles[] = {
  {SHARPNESS_METRIC_ROBERTS, {80, 240, 40, 120},
      {80 / 4.0, 240 / 6.0, 40 / 4.0, 120 / 6.0}},
  {SHARPNESS_METRIC_SMD, {40, 120, 20, 60},
      {40 / 4.0, 120 / 6.0, 20 / 4.0, 60 / 6.0}},
  {SHARPNESS_METRIC_SMD2, {0, 0, 0, 0}, {0, 0, 0, 0}},
  {SHARPNESS_METRIC_LAPLACIAN, {10, 20, 10, 20},
      {10 / 4.0, 20 / 6.0, 10 / 4.0, 20 / 6.0}},
  {SHARPNESS_METRIC_TENENGRAD, {6400, 83200, 6400, 83200},
      {6400 / 4.0, 83200 / 6.0, 6400 / 4.0, 83200 / 6.0}},
  {SHARPNESS_METRIC_MAXMIN, {20, 100, 20, 100},
      {20 / 4.0, 100 / 6.0, 20 / 4.0, 100 / 6.0}},
  {SHARPNESS_METRIC_VARIANCE, {10, 290, 10, 290},
      {6.25, 21800.0 / 36, 6.25, 21800.0 / 36}},
};

/* 3x3 of test-classical-handmade.c on a 3x3 grid: tiles of one pixel,
 * each term in the tile of its anchor (y, x):
 *   roberts (0,0) 21, (0,1) 42, (1,0) 168, (1,1) 335
 *   smd     (0,0) 8, (0,1) 16, (1,0) 64, (1,1) 128
 *   smd2    (0,0) 7, (0,1) 28, (1,0) 448, (1,1) 1792
 *   tenengrad 378920, laplacian 106, maxmin 254 at (1,1) only.
 * A one-pixel tile scores its sum; variance 0 and entropy 0 everywhere. */
static const uint8_t gray_3x3[] = { 1, 2, 4, 8, 16, 32, 64, 128, 255 };

static const struct
{
  SharpnessMetric metric;
  uint64_t sum[9];
} pixel_tiles[] = {
  {SHARPNESS_METRIC_ROBERTS, {21, 42, 0, 168, 335, 0, 0, 0, 0}},
  {SHARPNESS_METRIC_SMD, {8, 16, 0, 64, 128, 0, 0, 0, 0}},
  {SHARPNESS_METRIC_SMD2, {7, 28, 0, 448, 1792, 0, 0, 0, 0}},
  {SHARPNESS_METRIC_TENENGRAD, {0, 0, 0, 0, 378920, 0, 0, 0, 0}},
  {SHARPNESS_METRIC_LAPLACIAN, {0, 0, 0, 0, 106, 0, 0, 0, 0}},
  {SHARPNESS_METRIC_MAXMIN, {0, 0, 0, 0, 254, 0, 0, 0, 0}},
  {SHARPNESS_METRIC_VARIANCE, {1, 2, 4, 8, 16, 32, 64, 128, 255}},
};

static void
check_hand (SharpnessCpu * cpu)
{
  for (int l = 0; l < test_n_layouts; l++) {
    const TestLayout *layout = &test_layouts[l];
    TestFrame ramp, px;

    test_frame_init (&ramp, layout, 5, 4, 7, 0xa5);
    for (int y = 0; y < 4; y++)
      for (int x = 0; x < 5; x++)
        test_frame_set_gray (&ramp, x, y, (uint8_t) (5 * x * x));
    test_frame_init (&px, layout, 3, 3, 3, 0x5a);
    for (int k = 0; k < 9; k++)
      test_frame_set_gray (&px, k % 3, k / 3, gray_3x3[k]);

    for (size_t k = 0; k < sizeof ramp_tiles / sizeof ramp_tiles[0]; k++) {
      const SharpnessMetric m = ramp_tiles[k].metric;
      SharpnessTileSums t;
      SharpnessSums s;
      sharpness_tile_sums_init (&t, m, 2, 2);
      CHECKF (sharpness_cpu_sums_tiles (cpu, m, &ramp.plane, &s, &t) ==
          SHARPNESS_OK, "ramp %s %s: status", layout->name, nick (m));
      for (int i = 0; i < 4; i++) {
        const double score = sharpness_score_from_tile_sums (m, &t, 5, 4,
            i % 2, i / 2);
        CHECKF (t.sum[i] == ramp_tiles[k].sum[i], "ramp %s %s tile %d: sum %"
            PRIu64 ", expected %" PRIu64, layout->name, nick (m), i,
            t.sum[i], ramp_tiles[k].sum[i]);
        CHECKF (score == ramp_tiles[k].score[i], "ramp %s %s tile %d: score "
            "%.17g, expected %.17g", layout->name, nick (m), i, score,
            ramp_tiles[k].score[i]);
      }
      sharpness_tile_sums_clear (&t);
    }
    /* Entropy of the ramp's tiles: 1 bit left, log2 3 right. */
    {
      SharpnessTileSums t;
      SharpnessSums s;
      const double want[4] = { 1.0, log2 (3.0), 1.0, log2 (3.0) };
      sharpness_tile_sums_init (&t, SHARPNESS_METRIC_ENTROPY, 2, 2);
      CHECKF (sharpness_cpu_sums_tiles (cpu, SHARPNESS_METRIC_ENTROPY,
              &ramp.plane, &s, &t) == SHARPNESS_OK, "ramp entropy status");
      CHECKF (t.hist[0 * 256 + 0] == 2 && t.hist[0 * 256 + 5] == 2 &&
          t.hist[1 * 256 + 20] == 2 && t.hist[1 * 256 + 45] == 2 &&
          t.hist[1 * 256 + 80] == 2, "ramp %s entropy: tile histograms",
          layout->name);
      for (int i = 0; i < 4; i++) {
        const double e = sharpness_score_from_tile_sums
            (SHARPNESS_METRIC_ENTROPY, &t, 5, 4, i % 2, i / 2);
        CHECKF (fabs (e - want[i]) < 1e-12, "ramp %s entropy tile %d: %.17g",
            layout->name, i, e);
      }
      sharpness_tile_sums_clear (&t);
    }

    for (size_t k = 0; k < sizeof pixel_tiles / sizeof pixel_tiles[0]; k++) {
      const SharpnessMetric m = pixel_tiles[k].metric;
      SharpnessTileSums t;
      SharpnessSums s;
      sharpness_tile_sums_init (&t, m, 3, 3);
      CHECKF (sharpness_cpu_sums_tiles (cpu, m, &px.plane, &s, &t) ==
          SHARPNESS_OK, "1-pixel tiles %s %s: status", layout->name,
          nick (m));
      for (int i = 0; i < 9; i++) {
        const double score = sharpness_score_from_tile_sums (m, &t, 3, 3,
            i % 3, i / 3);
        CHECKF (t.sum[i] == pixel_tiles[k].sum[i], "1-pixel tiles %s %s tile "
            "%d: %" PRIu64 ", expected %" PRIu64, layout->name, nick (m), i,
            t.sum[i], pixel_tiles[k].sum[i]);
        CHECKF (score == (m == SHARPNESS_METRIC_VARIANCE ? 0.0 :
                (double) pixel_tiles[k].sum[i]), "1-pixel tiles %s %s tile "
            "%d: score %.17g", layout->name, nick (m), i, score);
      }
      sharpness_tile_sums_clear (&t);
    }

    test_frame_clear (&ramp);
    test_frame_clear (&px);
  }
}

/* ---- random frames against the naive reference ---- */

static void
fill_random (TestFrame * f, TestRng * rng, int smooth)
{
  const SharpnessPlane *p = &f->plane;
  for (int y = 0; y < p->height; y++)
    for (int x = 0; x < p->width; x++) {
      const uint64_t v = test_rng_next (rng);
      if (smooth) {
        /* Mostly smooth with some noise: many equal neighbours. */
        test_frame_set_gray (f, x, y, (uint8_t) ((x * 3 + y * 5) / 4 +
                (v >> 62)));
      } else if (p->samples == SHARPNESS_SAMPLES_RGB8) {
        test_frame_set_rgb (f, x, y, v & 0xff, (v >> 8) & 0xff,
            (v >> 16) & 0xff);
      } else {
        test_frame_set_raw (f, x, y, (unsigned) (v >> 48) &
            (p->samples == SHARPNESS_SAMPLES_Y8 ? 0xffu : 0xffffu));
      }
    }
}

static void
check_random (SharpnessCpu * cpu, TestRng * rng)
{
  static const struct
  {
    int w, h;
  } sizes[] = {
    {1, 1}, {2, 2}, {3, 3}, {2, 7}, {7, 5}, {16, 4}, {31, 17}, {64, 3},
    {100, 71}, {257, 33},
  };
  static const struct
  {
    int cols, rows;
  } grids[] = {
    {1, 1}, {2, 1}, {1, 3}, {3, 2}, {7, 5}, {8, 4}, {13, 9}, {64, 64},
    {64, 1}, {1, 64},
  };
  char what[96];

  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
    for (int l = 0; l < test_n_layouts; l++)
      for (size_t gi = 0; gi < sizeof grids / sizeof grids[0]; gi++) {
        /* Every layout on a few grids, every grid on a few layouts. */
        if ((l + gi + s) % 3 != 0 && gi != 3)
          continue;
        TestFrame f;
        test_frame_init (&f, &test_layouts[l], sizes[s].w, sizes[s].h,
            (l * 5) % 17, 0xee);
        fill_random (&f, rng, (int) (gi & 1));
        snprintf (what, sizeof what, "%s %dx%d", test_layouts[l].name,
            sizes[s].w, sizes[s].h);
        check_plane (cpu, &f.plane, grids[gi].cols, grids[gi].rows, what);
        /* One-pixel tiles where the frame is small enough. */
        if (gi == 0 && sizes[s].w <= 64 && sizes[s].h <= 64)
          check_plane (cpu, &f.plane, sizes[s].w, sizes[s].h, what);
        test_frame_clear (&f);
      }

  /* A video frame, the grids of the benchmark. */
  TestFrame f;
  test_frame_init (&f, &test_layouts[0], 1920, 1080, 0, 0);
  fill_random (&f, rng, 1);
  check_plane (cpu, &f.plane, 8, 4, "Y8 1920x1080");
  check_plane (cpu, &f.plane, 64, 64, "Y8 1920x1080");
  test_frame_clear (&f);
}

/* ---- batches: regions of a frame and whole frames ---- */

static void
check_batch (SharpnessCpu * cpu, TestRng * rng)
{
  enum { N = 24 };
  TestFrame frames[3];
  SharpnessRegion regions[N];
  SharpnessTileSums tiles[N];
  SharpnessSums got[N];

  for (int l = 0; l < test_n_layouts; l++) {
    const int w[3] = { 97, 64, 33 }, h[3] = { 61, 48, 5 };
    for (int k = 0; k < 3; k++) {
      test_frame_init (&frames[k], &test_layouts[l], w[k], h[k], 9, 0x11);
      fill_random (&frames[k], rng, k == 1);
    }

    for (int mi = 0; mi < N_CLASSICAL; mi++) {
      const SharpnessMetric m = classical[mi];
      for (int i = 0; i < N; i++) {
        const int k = i % 3;
        const SharpnessPlane *p = &frames[k].plane;
        SharpnessRect r = { 0, 0, 0, 0 };
        if (i >= 3) {
          /* ROIs: corners, edges, single pixels, random boxes. */
          r.width = 1 + (int) (test_rng_next (rng) % p->width);
          r.height = 1 + (int) (test_rng_next (rng) % p->height);
          r.x = (int) (test_rng_next (rng) % (p->width - r.width + 1));
          r.y = (int) (test_rng_next (rng) % (p->height - r.height + 1));
          if (i % 5 == 0)
            r.x = p->width - r.width;
          if (i % 7 == 0)
            r.y = p->height - r.height;
        }
        regions[i].plane = *p;
        regions[i].rect = r;
        regions[i].tiles = NULL;
        if (i % 2 == 1) {
          sharpness_tile_sums_init (&tiles[i], m, 1 + i % 5, 1 + i % 3);
          regions[i].tiles = &tiles[i];
        }
      }
      CHECKF (sharpness_cpu_sums_batch (cpu, m, regions, N, got) ==
          SHARPNESS_OK, "batch %s %s: status", test_layouts[l].name,
          nick (m));
      for (int i = 0; i < N; i++) {
        SharpnessPlane crop;
        SharpnessSums alone;
        sharpness_plane_crop (&regions[i].plane, &regions[i].rect, &crop);
        CHECKF (sharpness_cpu_sums (cpu, m, &crop, &alone) == SHARPNESS_OK &&
            test_sums_equal (m, &got[i], &alone),
            "batch %s %s region %d (%d,%d %dx%d): sums differ from the crop "
            "alone", test_layouts[l].name,
            nick (m), i, regions[i].rect.x, regions[i].rect.y,
            regions[i].rect.width, regions[i].rect.height);
        if (regions[i].tiles) {
          SharpnessTileSums want;
          uint8_t *g = gray_of (&crop);
          sharpness_tile_sums_init (&want, m, tiles[i].cols, tiles[i].rows);
          naive_tiles (m, g, crop.width, crop.height, &want);
          CHECKF (test_tile_sums_equal (m, &tiles[i], &want),
              "batch %s %s region %d: tile sums", test_layouts[l].name,
              nick (m), i);
          sharpness_tile_sums_clear (&want);
          sharpness_tile_sums_clear (&tiles[i]);
          free (g);
        }
      }
    }
    for (int k = 0; k < 3; k++)
      test_frame_clear (&frames[k]);
  }
}

/* ---- arguments, pooling ---- */

static void
check_arguments (SharpnessCpu * cpu)
{
  uint8_t px[4] = { 1, 2, 3, 4 };
  const SharpnessPlane p = test_layout_plane (&test_layouts[0], px, 2, 2, 2);
  SharpnessTileSums t;
  SharpnessSums s;

  CHECKF (sharpness_tile_sums_init (&t, SHARPNESS_METRIC_SMD, 0, 1) ==
      SHARPNESS_ERROR_INVALID, "grid 0x1");
  CHECKF (sharpness_tile_sums_init (&t, SHARPNESS_METRIC_SMD, 65, 1) ==
      SHARPNESS_ERROR_INVALID, "grid 65x1");
  CHECKF (sharpness_tile_sums_init (&t, SHARPNESS_METRIC_LPC_SI, 2, 2) ==
      SHARPNESS_ERROR_INVALID, "tiles of LPC-SI");
  CHECKF (sharpness_tile_sums_init (&t, SHARPNESS_METRIC_SMD, 2, 2) ==
      SHARPNESS_OK, "grid 2x2");
  CHECKF (sharpness_cpu_sums_tiles (cpu, SHARPNESS_METRIC_LPC_SI, &p, &s, &t)
      == SHARPNESS_ERROR_UNSUPPORTED, "LPC-SI tiles");
  CHECKF (sharpness_cpu_sums_tiles (cpu, SHARPNESS_METRIC_VARIANCE, &p, &s,
          &t) == SHARPNESS_ERROR_INVALID, "variance without sum_sq");
  CHECKF (sharpness_cpu_sums_tiles (cpu, SHARPNESS_METRIC_SMD, &p, &s, NULL)
      == SHARPNESS_ERROR_INVALID, "NULL tiles");
  sharpness_tile_sums_clear (&t);

  SharpnessRegion r = { p, {1, 1, 2, 1}, NULL };
  CHECKF (sharpness_cpu_sums_batch (cpu, SHARPNESS_METRIC_SMD, &r, 1, &s) ==
      SHARPNESS_ERROR_INVALID, "region outside the plane");
  r.rect = (SharpnessRect) {
  1, 0, 1, 2};
  CHECKF (sharpness_cpu_sums_batch (cpu, SHARPNESS_METRIC_SMD, &r, 1, &s) ==
      SHARPNESS_OK, "region inside the plane");
  CHECKF (sharpness_cpu_sums_batch (cpu, SHARPNESS_METRIC_SMD, &r, 0, &s) ==
      SHARPNESS_OK, "empty batch");

  /* Pooling: the sharpest 25 % of 8 tiles are the best 2. */
  const double v[8] = { 1, 9, 3, 7, 5, 2, 8, 4 };
  double scratch[8];
  CHECKF (sharpness_pool_top_percent (SHARPNESS_METRIC_SMD, v, 8, 25.0,
          scratch) == 8.5, "top 25 %%");
  CHECKF (sharpness_pool_top_percent (SHARPNESS_METRIC_BLIINDS2, v, 8, 25.0,
          scratch) == 1.5, "top 25 %% of a lower-is-sharper metric");
  CHECKF (sharpness_pool_top_percent (SHARPNESS_METRIC_SMD, v, 8, 100.0,
          scratch) == 39.0 / 8, "top 100 %%");
  CHECKF (sharpness_pool_top_percent (SHARPNESS_METRIC_SMD, v, 8, 1.0,
          scratch) == 9.0, "top 1 %%: one tile");
}

/* ---- --dump for the oracle ---- */

static int
dump (const char *path, int w, int h, int cols, int rows)
{
  FILE *f = fopen (path, "rb");
  uint8_t *g = malloc ((size_t) w * h);
  if (!f || !g || fread (g, 1, (size_t) w * h, f) != (size_t) w * h) {
    fprintf (stderr, "cannot read %dx%d bytes from %s\n", w, h, path);
    return 2;
  }
  fclose (f);

  SharpnessCpu *cpu = sharpness_cpu_new ();
  const SharpnessPlane p = test_layout_plane (&test_layouts[0], g, w, w, h);
  printf ("{\"width\": %d, \"height\": %d, \"cols\": %d, \"rows\": %d", w, h,
      cols, rows);
  for (int i = 0; i < N_CLASSICAL; i++) {
    const SharpnessMetric m = classical[i];
    const int n = cols * rows;
    SharpnessTileSums t;
    SharpnessSums s;
    double *scores = malloc (sizeof *scores * n);

    if (!scores || sharpness_tile_sums_init (&t, m, cols, rows) !=
        SHARPNESS_OK || sharpness_cpu_sums_tiles (cpu, m, &p, &s, &t) !=
        SHARPNESS_OK) {
      fprintf (stderr, "%s: tile sums failed\n", nick (m));
      return 1;
    }
    sharpness_tile_scores (m, &t, w, h, scores);
    printf (",\n \"%s\": {\"scores\": [", nick (m));
    for (int k = 0; k < n; k++)
      printf ("%s%.17g", k ? ", " : "", scores[k]);
    printf ("],\n  \"sums\": [");
    for (int k = 0; k < n; k++) {
      printf ("%s", k ? ", " : "");
      if (m == SHARPNESS_METRIC_ENTROPY) {
        printf ("[");
        for (int b = 0; b < 256; b++)
          printf ("%s%" PRIu32, b ? "," : "", t.hist[(size_t) k * 256 + b]);
        printf ("]");
      } else if (m == SHARPNESS_METRIC_VARIANCE) {
        printf ("[%" PRIu64 ", %" PRIu64 "]", t.sum[k], t.sum_sq[k]);
      } else {
        printf ("%" PRIu64, t.sum[k]);
      }
    }
    printf ("]}");
    sharpness_tile_sums_clear (&t);
    free (scores);
  }
  printf ("}\n");
  sharpness_cpu_free (cpu);
  free (g);
  return 0;
}

int
main (int argc, char **argv)
{
  uint64_t seed = test_rng_seed_from_env (0x7115);

  if (argc == 7 && strcmp (argv[1], "--dump") == 0)
    return dump (argv[2], atoi (argv[3]), atoi (argv[4]), atoi (argv[5]),
        atoi (argv[6]));
  if (argc == 3 && strcmp (argv[1], "--seed") == 0)
    seed = strtoull (argv[2], NULL, 0);
  else if (argc != 1) {
    fprintf (stderr, "usage: %s [--seed N] | --dump FILE W H COLS ROWS\n",
        argv[0]);
    return 2;
  }

  SharpnessCpu *cpu = sharpness_cpu_new ();
  TestRng rng;
  test_rng_seed (&rng, seed);

  check_arguments (cpu);
  check_hand (cpu);
  check_random (cpu, &rng);
  check_batch (cpu, &rng);

  sharpness_cpu_free (cpu);
  printf ("%d checks, %d failures (seed 0x%" PRIx64 ")\n", test_check_count,
      test_check_failures, seed);
  return test_check_failures ? 1 : 0;
}
