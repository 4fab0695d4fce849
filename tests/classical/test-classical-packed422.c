/* Capture-card formats on the CPU backend: UYVY, YUY2 (8-bit packed 4:2:2)
 * and v210 (10-bit, six pixels in 16 bytes), read in place, against the
 * same luma as the Y plane of planar I422 / I422_10LE.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * For every classical metric the packed frame's sums, score, tile sums and
 * region sums (rectangles starting at every pixel of a v210 group, crops of
 * crops) must equal the planar frame's exactly: random, natural and
 * extreme luma, widths around pairs, groups, vectors and the 1024-term
 * segments, odd heights, padded strides.  Chroma, the top bits of v210
 * words, the padding samples of a last v210 group and the stride padding
 * are random and must change nothing.  Both frames are written by
 * tests/common/test-packed422.c, the v210 slots from a table of its own.
 *
 * Usage: test-classical-packed422 [--seed N]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sharpness-cpu.h"
#include "sharpness-tiles.h"
#include "test-check.h"
#include "test-packed422.h"
#include "test-rng.h"
#include "test-sums.h"

static TestRng rng;

static const char *
nick (SharpnessMetric m)
{
  return sharpness_metric_info[m].nick;
}

#define FRAME_FMT "%s %dx%d stride %zu %s"
#define FRAME_ARGS(f, c) test_packed_name ((f)->format), (f)->width, \
  (f)->height, (f)->stride, test_luma_name (c)

/* The gray image pixel by pixel: the packed plane's and the planar's. */
static void
check_gray (const SharpnessPlane * pk, const SharpnessPlane * pl,
    const char *what)
{
  for (int y = 0; y < pk->height; y++) {
    const uint8_t *a = pk->data + (size_t) y * pk->stride;
    const uint8_t *b = pl->data + (size_t) y * pl->stride;
    for (int x = 0; x < pk->width; x++)
      if (sharpness_plane_gray_at (pk, a, x) !=
          sharpness_plane_gray_at (pl, b, x)) {
        CHECKF (0, "%s: gray (%d, %d) %u != %u", what, x, y,
            sharpness_plane_gray_at (pk, a, x),
            sharpness_plane_gray_at (pl, b, x));
        return;
      }
  }
  test_check_count++;
}

/* Every classical metric's sums and score, packed against planar. */
static void
check_sums (SharpnessCpu * cpu, const TestPacked422 * f, TestLumaContent c,
    const SharpnessPlane * pk, const SharpnessPlane * pl)
{
  for (int i = 0; i < SHARPNESS_METRIC_COUNT; i++) {
    const SharpnessMetric m = (SharpnessMetric) i;
    SharpnessSums a, b;
    double sa, sb;

    if (sharpness_metric_info[m].kind != SHARPNESS_KIND_SUMS)
      continue;
    SharpnessStatus st = sharpness_cpu_sums (cpu, m, pk, &a);
    CHECKF (st == SHARPNESS_OK, FRAME_FMT " %s: packed %s", FRAME_ARGS (f, c),
        nick (m), sharpness_status_to_string (st));
    st = sharpness_cpu_sums (cpu, m, pl, &b);
    CHECKF (st == SHARPNESS_OK, FRAME_FMT " %s: planar %s", FRAME_ARGS (f, c),
        nick (m), sharpness_status_to_string (st));
    CHECKF (test_sums_equal (m, &a, &b),
        FRAME_FMT " %s: sums %" PRIu64 "/%" PRIu64 " sum_sq %" PRIu64 "/%"
        PRIu64, FRAME_ARGS (f, c), nick (m), a.sum, b.sum, a.sum_sq,
        b.sum_sq);
    CHECKF (sharpness_cpu_score (cpu, m, pk, &sa) == SHARPNESS_OK &&
        sharpness_cpu_score (cpu, m, pl, &sb) == SHARPNESS_OK &&
        memcmp (&sa, &sb, sizeof sa) == 0, FRAME_FMT " %s: score %.17g %.17g",
        FRAME_ARGS (f, c), nick (m), sa, sb);
  }
}

/* Tile grids, among them ones finer than the frame. */
static void
check_tiles (SharpnessCpu * cpu, const TestPacked422 * f, TestLumaContent c,
    const SharpnessPlane * pk, const SharpnessPlane * pl)
{
  static const int grids[][2] = { {1, 1}, {3, 2}, {7, 5}, {64, 3} };

  for (size_t g = 0; g < sizeof grids / sizeof grids[0]; g++)
    for (int i = 0; i < SHARPNESS_METRIC_COUNT; i++) {
      const SharpnessMetric m = (SharpnessMetric) i;
      SharpnessTileSums ta, tb;
      SharpnessSums a, b;

      if (!sharpness_metric_has_tiles (m))
        continue;
      if (sharpness_tile_sums_init (&ta, m, grids[g][0], grids[g][1]) ||
          sharpness_tile_sums_init (&tb, m, grids[g][0], grids[g][1]))
        abort ();
      CHECKF (sharpness_cpu_sums_tiles (cpu, m, pk, &a, &ta) == SHARPNESS_OK &&
          sharpness_cpu_sums_tiles (cpu, m, pl, &b, &tb) == SHARPNESS_OK &&
          test_sums_equal (m, &a, &b) && test_tile_sums_equal (m, &ta, &tb),
          FRAME_FMT " %s: tiles %dx%d", FRAME_ARGS (f, c), nick (m),
          grids[g][0], grids[g][1]);
      sharpness_tile_sums_clear (&ta);
      sharpness_tile_sums_clear (&tb);
    }
}

/* Rectangle @i of a @w x @h plane: the whole plane, then rectangles of
 * random sizes whose left edges fall on every pixel of a v210 group. */
static SharpnessRect
region_rect (int i, int w, int h)
{
  SharpnessRect r = { 0, 0, 0, 0 };

  if (i == 0)
    return r;
  r.x = w > 1 ? (i % 6 + 6 * test_rng_range (&rng, 0, w / 6)) % w : 0;
  r.y = test_rng_range (&rng, 0, h - 1);
  r.width = test_rng_range (&rng, 1, w - r.x);
  r.height = test_rng_range (&rng, 1, h - r.y);
  return r;
}

/* A batch of regions (some with tiles) packed against planar; each region
 * also cropped and cropped again inside the crop, scored alone. */
static void
check_regions (SharpnessCpu * cpu, const TestPacked422 * f, TestLumaContent c,
    const SharpnessPlane * pk, const SharpnessPlane * pl)
{
  enum { N = 13 };
  SharpnessRegion ra[N], rb[N];
  SharpnessTileSums ta[N], tb[N];
  SharpnessSums sa[N], sb[N];

  for (int i = 0; i < SHARPNESS_METRIC_COUNT; i++) {
    const SharpnessMetric m = (SharpnessMetric) i;

    if (!sharpness_metric_has_tiles (m))
      continue;
    for (int k = 0; k < N; k++) {
      const SharpnessRect r = region_rect (k, f->width, f->height);
      ra[k] = (SharpnessRegion) {
      *pk, r, NULL};
      rb[k] = (SharpnessRegion) {
      *pl, r, NULL};
      if (k % 3 == 2) {
        const int cols = test_rng_range (&rng, 1, 9);
        const int rows = test_rng_range (&rng, 1, 4);
        if (sharpness_tile_sums_init (&ta[k], m, cols, rows) ||
            sharpness_tile_sums_init (&tb[k], m, cols, rows))
          abort ();
        ra[k].tiles = &ta[k];
        rb[k].tiles = &tb[k];
      }
    }
    CHECKF (sharpness_cpu_sums_batch (cpu, m, ra, N, sa) == SHARPNESS_OK &&
        sharpness_cpu_sums_batch (cpu, m, rb, N, sb) == SHARPNESS_OK,
        FRAME_FMT " %s: batch status", FRAME_ARGS (f, c), nick (m));
    for (int k = 0; k < N; k++) {
      const SharpnessRect *r = &ra[k].rect;
      CHECKF (test_sums_equal (m, &sa[k], &sb[k]) && (!ra[k].tiles ||
              test_tile_sums_equal (m, &ta[k], &tb[k])),
          FRAME_FMT " %s: region %d,%d %dx%d%s", FRAME_ARGS (f, c), nick (m),
          r->x, r->y, r->width, r->height, ra[k].tiles ? " with tiles" : "");

      /* A crop of the crop: its phase adds to the first one's. */
      SharpnessPlane ca, cb, cca, ccb;
      SharpnessSums a, b;
      if (!sharpness_plane_crop (pk, r, &ca) ||
          !sharpness_plane_crop (pl, r, &cb)) {
        CHECKF (0, "crop %d,%d %dx%d refused", r->x, r->y, r->width,
            r->height);
        continue;
      }
      const SharpnessRect inner = {
        test_rng_range (&rng, 0, ca.width - 1) % 7, 0, 0, 0
      };
      SharpnessRect in = inner;
      in.width = ca.width - in.x;
      in.height = ca.height;
      if (!sharpness_plane_crop (&ca, &in, &cca) ||
          !sharpness_plane_crop (&cb, &in, &ccb)) {
        CHECKF (0, "inner crop refused");
        continue;
      }
      check_gray (&cca, &ccb, "crop of a crop");
      CHECKF (sharpness_cpu_sums (cpu, m, &cca, &a) == SHARPNESS_OK &&
          sharpness_cpu_sums (cpu, m, &ccb, &b) == SHARPNESS_OK &&
          test_sums_equal (m, &a, &b),
          FRAME_FMT " %s: crop %d,%d %dx%d then +%d",
          FRAME_ARGS (f, c), nick (m), r->x, r->y, r->width, r->height, in.x);
    }
    for (int k = 0; k < N; k++)
      if (ra[k].tiles) {
        sharpness_tile_sums_clear (&ta[k]);
        sharpness_tile_sums_clear (&tb[k]);
      }
  }
}

static void
check_frame (SharpnessCpu * cpu, TestPackedFormat format, int w, int h,
    size_t pad, TestLumaContent c, int full)
{
  TestPacked422 f;

  test_packed422_init (&f, format, w, h, pad, &rng);
  test_packed422_fill (&f, c, &rng);
  const SharpnessPlane pk = test_packed422_plane (&f, f.mem);
  const SharpnessPlane pl = test_packed422_planar_plane (&f, f.planar_mem);

  CHECKF (sharpness_plane_is_valid (&pk), FRAME_FMT ": plane not valid",
      FRAME_ARGS (&f, c));
  check_gray (&pk, &pl, test_packed_name (format));
  check_sums (cpu, &f, c, &pk, &pl);
  if (full) {
    check_tiles (cpu, &f, c, &pk, &pl);
    check_regions (cpu, &f, c, &pk, &pl);
  }
  test_packed422_clear (&f);
}

/* v210's plane description on its own: row bytes, validity, crops. */
static void
check_v210_plane (void)
{
  static uint8_t rows[2 * 128];
  SharpnessPlane p = {
    .samples = SHARPNESS_SAMPLES_V210,
    .data = rows,
    .stride = 128,
    .width = 48,
    .height = 2,
  };
  SharpnessPlane c;

  CHECKF (sharpness_plane_row_bytes (&p) == 128, "48 pixels: 8 groups");
  CHECKF (sharpness_plane_is_valid (&p), "v210 48x2 stride 128");
  p.width = 49;
  CHECKF (sharpness_plane_row_bytes (&p) == 144, "49 pixels: 9 groups");
  CHECKF (!sharpness_plane_is_valid (&p), "stride 128 below 9 groups");
  p.width = 7;
  p.phase = 5;
  CHECKF (sharpness_plane_row_bytes (&p) == 32, "7 pixels from pixel 5");
  p.phase = 6;
  CHECKF (!sharpness_plane_is_valid (&p), "phase 6");
  p.phase = 0;
  p.width = 48;
  const SharpnessRect r = { 13, 1, 20, 1 };
  CHECKF (sharpness_plane_crop (&p, &r, &c) && c.data == rows + 128 + 32 &&
      c.phase == 1 && c.width == 20, "crop at x 13: group 2, pixel 1");
  const SharpnessRect r2 = { 5, 0, 3, 1 };
  SharpnessPlane cc;
  CHECKF (sharpness_plane_crop (&c, &r2, &cc) && cc.data == c.data + 16 &&
      cc.phase == 0, "crop at x 5 of that: group 3, pixel 0");
}

int
main (int argc, char **argv)
{
  uint64_t seed = test_rng_seed_from_env (0x422422ull);
  SharpnessCpu *cpu = sharpness_cpu_new ();

  for (int i = 1; i < argc; i++) {
    if (strcmp (argv[i], "--seed") == 0 && i + 1 < argc) {
      seed = strtoull (argv[++i], NULL, 0);
    } else {
      fprintf (stderr, "usage: %s [--seed N]\n", argv[0]);
      return 2;
    }
  }
  if (!cpu) {
    fprintf (stderr, "FAIL: sharpness_cpu_new\n");
    return 1;
  }
  test_rng_seed (&rng, seed);
  check_v210_plane ();

  /* Widths around pairs, groups (6, 12, 48) and vectors; odd heights. */
  static const int widths[] = {
    1, 2, 3, 4, 5, 6, 7, 11, 12, 13, 17, 23, 47, 48, 49, 95, 96, 97, 131
  };
  static const int heights[] = { 1, 2, 3, 4, 5, 13 };
  static const size_t pads[] = { 0, 16, 128, 3 };
  int k = 0;
  for (int fmt = 0; fmt < TEST_PACKED_COUNT; fmt++)
    for (size_t w = 0; w < sizeof widths / sizeof widths[0]; w++)
      for (size_t h = 0; h < sizeof heights / sizeof heights[0]; h++, k++)
        check_frame (cpu, fmt, widths[w], heights[h], pads[k % 4],
            k % TEST_LUMA_COUNT, 1);

  /* Video sizes, and around the 1024-term segments. */
  static const struct
  {
    int w, h, full;
  } video[] = {
    {1023, 5, 1}, {1025, 4, 1}, {1921, 7, 1}, {641, 361, 1}, {1280, 720, 0},
    {1920, 1080, 0},
  };
  for (int fmt = 0; fmt < TEST_PACKED_COUNT; fmt++)
    for (size_t v = 0; v < sizeof video / sizeof video[0]; v++)
      for (int c = TEST_LUMA_RANDOM; c <= TEST_LUMA_NATURAL; c++, k++)
        check_frame (cpu, fmt, video[v].w, video[v].h, pads[k % 4], c,
            video[v].full);
  /* The largest terms everywhere. */
  for (int fmt = 0; fmt < TEST_PACKED_COUNT; fmt++)
    check_frame (cpu, fmt, 1920, 1080, 0, TEST_LUMA_EXTREME, 0);

  sharpness_cpu_free (cpu);
  printf ("%d checks, %d failures (seed 0x%" PRIx64 ")\n", test_check_count,
      test_check_failures, seed);
  return test_check_failures ? 1 : 0;
}
