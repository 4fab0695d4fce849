/* The classical metrics on random frames of many sizes and every layout,
 * against a naive implementation written straight from docs/reference/metrics.md.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The reference reads each gray value through sharpness_plane_gray_at(),
 * pixel by pixel, with the window written out as in the spec; the sums must
 * match exactly and the scores to the last bit.  The backend is also run
 * again after the stride padding is overwritten, which must change nothing.
 *
 * SHARPNESS_TEST_SEED sets the random seed (printed on failure).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sharpness-cpu.h"
#include "test-frame.h"
#include "test-rng.h"
#include "test-sums.h"

static TestRng rng_state;

static uint32_t
rng (void)
{
  return test_rng_u32 (&rng_state);
}

static int
rng_range (int lo, int hi)
{
  return test_rng_range (&rng_state, lo, hi);
}

#define G(x, y) ((int64_t) test_frame_gray (p, (x), (y)))

static int64_t
abs64 (int64_t v)
{
  return v < 0 ? -v : v;
}

/* Blur effect, axis @ax (0: down the rows, 1: along them) at (x, y), as
 * docs/reference/metrics.md words it: the gray level mirrored at the edges, the
 * 11-tap box sum along the axis, Sobel of the frame and of the box sums
 * (edge [1, 0, -1] along the axis, [1, 2, 1] across). */
static int64_t
mirrored_gray (const SharpnessPlane * p, int x, int y)
{
  return test_frame_gray (p, sharpness_mirror (x, p->width),
      sharpness_mirror (y, p->height));
}

static int64_t
box_sum (const SharpnessPlane * p, int ax, int x, int y)
{
  int64_t s = 0;
  for (int k = -5; k <= 5; k++)
    s += ax == 0 ? mirrored_gray (p, x, y + k) : mirrored_gray (p, x + k, y);
  return s;
}

/* Sobel along @ax at (x, y) of the frame (@box NULL) or of the box sums
 * @box (W x H, row-major), both read mirrored. */
static int64_t
sobel_along (const SharpnessPlane * p, const int64_t * box, int ax, int x,
    int y)
{
  const int W = p->width, H = p->height;
  int64_t s = 0;
  for (int d = -1; d <= 1; d++) {
    const int64_t w = d == 0 ? 2 : 1;
    const int xa = ax == 0 ? x + d : x + 1, ya = ax == 0 ? y + 1 : y + d;
    const int xb = ax == 0 ? x + d : x - 1, yb = ax == 0 ? y - 1 : y + d;
    if (box)
      s += w * (box[sharpness_mirror (ya, H) * W + sharpness_mirror (xa, W)] -
          box[sharpness_mirror (yb, H) * W + sharpness_mirror (xb, W)]);
    else
      s += w * (mirrored_gray (p, xa, ya) - mirrored_gray (p, xb, yb));
  }
  return s;
}

static void
naive_sums (SharpnessMetric m, const SharpnessPlane * p, SharpnessSums * s)
{
  const int W = p->width, H = p->height;

  memset (s, 0, sizeof *s);
  switch (m) {
    case SHARPNESS_METRIC_VARIANCE:
      for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
          s->sum += G (x, y);
          s->sum_sq += G (x, y) * G (x, y);
        }
      break;
    case SHARPNESS_METRIC_ROBERTS:
      for (int y = 0; y <= H - 2; y++)
        for (int x = 0; x <= W - 2; x++)
          s->sum += abs64 (G (x + 1, y + 1) - G (x, y)) +
              abs64 (G (x, y + 1) - G (x + 1, y));
      break;
    case SHARPNESS_METRIC_TENENGRAD:
      for (int y = 1; y <= H - 2; y++)
        for (int x = 1; x <= W - 2; x++) {
          int64_t gx = (G (x + 1, y - 1) + 2 * G (x + 1, y) + G (x + 1, y + 1))
              - (G (x - 1, y - 1) + 2 * G (x - 1, y) + G (x - 1, y + 1));
          int64_t gy = (G (x - 1, y + 1) + 2 * G (x, y + 1) + G (x + 1, y + 1))
              - (G (x - 1, y - 1) + 2 * G (x, y - 1) + G (x + 1, y - 1));
          s->sum += gx * gx + gy * gy;
        }
      break;
    case SHARPNESS_METRIC_LAPLACIAN:
      for (int y = 1; y <= H - 2; y++)
        for (int x = 1; x <= W - 2; x++)
          s->sum += abs64 (G (x + 1, y) + G (x - 1, y) - 2 * G (x, y)) +
              abs64 (G (x, y + 1) + G (x, y - 1) - 2 * G (x, y));
      break;
    case SHARPNESS_METRIC_SMD:
      for (int y = 0; y <= H - 2; y++)
        for (int x = 0; x <= W - 2; x++)
          s->sum += abs64 (G (x, y) - G (x + 1, y)) +
              abs64 (G (x, y) - G (x, y + 1));
      break;
    case SHARPNESS_METRIC_SMD2:
      for (int y = 0; y <= H - 2; y++)
        for (int x = 0; x <= W - 2; x++)
          s->sum += abs64 (G (x, y) - G (x + 1, y)) *
              abs64 (G (x, y) - G (x, y + 1));
      break;
    case SHARPNESS_METRIC_MAXMIN:
      for (int y = 1; y <= H - 2; y++)
        for (int x = 1; x <= W - 2; x++) {
          int64_t hi = 0, lo = 255;
          for (int dy = -1; dy <= 1; dy++)
            for (int dx = -1; dx <= 1; dx++) {
              int64_t v = G (x + dx, y + dy);
              hi = v > hi ? v : hi;
              lo = v < lo ? v : lo;
            }
          s->sum += hi - lo;
        }
      break;
    case SHARPNESS_METRIC_ENTROPY:
      for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
          s->hist[G (x, y)]++;
      break;
    case SHARPNESS_METRIC_BLUR_EFFECT:{
      int64_t *box = malloc ((size_t) W * H * sizeof *box);
      if (!box)
        abort ();
      for (int ax = 0; ax < 2; ax++) {
        for (int y = 0; y < H; y++)
          for (int x = 0; x < W; x++)
            box[(size_t) y * W + x] = box_sum (p, ax, x, y);
        for (int y = 2; y <= H - 2; y++)
          for (int x = 2; x <= W - 2; x++) {
            int64_t sharp = 11 * abs64 (sobel_along (p, NULL, ax, x, y));
            int64_t blur = abs64 (sobel_along (p, box, ax, x, y));
            s->blur_m1[ax] += sharp;
            s->blur_m2[ax] += sharp > blur ? sharp - blur : 0;
          }
      }
      free (box);
      break;
    }
    default:
      break;
  }
}

#undef G

/* Content: uniform noise, a smooth ramp with noise, or flat patches, so
 * that every metric sees small and large terms and the histogram both
 * spread and peaked.  16-bit samples mostly stay inside the depth; a few
 * do not, as garbage in the unused high bits would. */
static unsigned
random_raw (const SharpnessPlane * p, int style, int x, int y)
{
  unsigned v;

  switch (style) {
    case 0:
      v = rng ();
      break;
    case 1:
      v = (unsigned) (x * 3 + y * 5) + rng () % 16;
      break;
    default:
      v = ((x / 7 + y / 5) % 3) * 97u;
      break;
  }
  if (p->samples != SHARPNESS_SAMPLES_Y16LE)
    return v & 0xff;
  if (style == 0 && rng () % 16 == 0)
    return v & 0xffff;
  /* Scale the 8-bit pattern up, with random low bits to exercise rounding. */
  unsigned wide = ((v & 0xff) << (p->depth - 8)) |
      (rng () & ((1u << (p->depth - 8)) - 1));
  return (wide << p->shift) | (rng () & ((1u << p->shift) - 1));
}

static void
fill_random (TestFrame * f, int style)
{
  const SharpnessPlane *p = &f->plane;

  for (int y = 0; y < p->height; y++)
    for (int x = 0; x < p->width; x++) {
      if (p->samples == SHARPNESS_SAMPLES_RGB8) {
        unsigned r = random_raw (p, style, x, y);
        unsigned g = random_raw (p, style, x + 1, y);
        unsigned b = random_raw (p, style, x, y + 1);
        test_frame_set_rgb (f, x, y, r, g, b);
      } else {
        test_frame_set_raw (f, x, y, random_raw (p, style, x, y));
      }
    }
  /* The x/alpha byte of RGBx layouts and the odd byte of Y8/2 keep their
   * random fill from test_frame_init (); nothing to do for them here. */
}

static int failures;

static void
check_frame (SharpnessCpu * cpu, TestFrame * f, const char *layout, int style)
{
  const SharpnessPlane *p = &f->plane;

  for (int i = 0; i < SHARPNESS_METRIC_COUNT; i++) {
    SharpnessMetric m = (SharpnessMetric) i;
    SharpnessSums want, got, again;
    SharpnessStatus st;
    double score;

    if (sharpness_metric_info[m].kind != SHARPNESS_KIND_SUMS)
      continue;

    naive_sums (m, p, &want);
    st = sharpness_cpu_sums (cpu, m, p, &got);
    if (st != SHARPNESS_OK || !test_sums_equal (m, &got, &want)) {
      printf ("FAIL %s %dx%d stride %zu style %d %s: %s, sum %" PRIu64
          " (expected %" PRIu64 "), sum_sq %" PRIu64 " (expected %" PRIu64
          ")\n", layout, p->width, p->height, p->stride, style,
          sharpness_metric_info[m].nick, sharpness_status_to_string (st),
          got.sum, want.sum, got.sum_sq, want.sum_sq);
      failures++;
      continue;
    }

    double want_score = sharpness_score_from_sums (m, &want, p->width,
        p->height);
    st = sharpness_cpu_score (cpu, m, p, &score);
    if (st != SHARPNESS_OK || memcmp (&score, &want_score, sizeof score)) {
      printf ("FAIL %s %dx%d %s: score %.17g, expected %.17g (%s)\n", layout,
          p->width, p->height, sharpness_metric_info[m].nick, score,
          want_score, sharpness_status_to_string (st));
      failures++;
    }

    /* Other garbage in the padding: nothing may change. */
    if (test_frame_fill_padding (f, (uint8_t) rng ()) > 0) {
      st = sharpness_cpu_sums (cpu, m, p, &again);
      if (st != SHARPNESS_OK || !test_sums_equal (m, &again, &want)) {
        printf ("FAIL %s %dx%d stride %zu %s: result depends on the padding\n",
            layout, p->width, p->height, p->stride,
            sharpness_metric_info[m].nick);
        failures++;
      }
    }
  }
}

static const struct
{
  int w, h;
} sizes[] = {
  /* Too small for one window or the other, and the smallest that fit. */
  {1, 1}, {1, 2}, {2, 1}, {1, 9}, {9, 1}, {2, 2}, {2, 3}, {3, 2}, {3, 3},
  {4, 3}, {3, 4}, {5, 5},
  /* Odd widths around vector lengths. */
  {7, 13}, {15, 4}, {16, 16}, {17, 5}, {31, 3}, {33, 17}, {63, 5}, {65, 4},
  /* Around the 1024-term segments the backend sums in 32 bits. */
  {1023, 4}, {1024, 3}, {1025, 3}, {1026, 5}, {1027, 3}, {2047, 3},
  {2049, 4}, {3001, 3},
  /* Video sizes, odd ones too. */
  {176, 144}, {641, 361}, {1280, 720}, {1920, 1080},
};

int
main (void)
{
  uint64_t seed = test_rng_seed_from_env (0x5eed5eedull);
  SharpnessCpu *cpu = sharpness_cpu_new ();
  int n_sizes = sizeof sizes / sizeof sizes[0];

  if (!cpu) {
    printf ("FAIL: sharpness_cpu_new\n");
    return 1;
  }
  test_rng_seed (&rng_state, seed);

  /* The listed sizes, then random ones; each in every layout with random
   * padding and garbage.  One backend throughout: its gray rows are grown
   * and reused as widths go up and down. */
  for (int i = 0; i < n_sizes + 40; i++) {
    int w = i < n_sizes ? sizes[i].w : rng_range (1, 300);
    int h = i < n_sizes ? sizes[i].h : rng_range (1, 300);
    for (int l = 0; l < test_n_layouts; l++) {
      TestFrame f;
      size_t pad = rng () % 4 ? rng () % 70 : 0;
      int style = rng () % 3;
      test_frame_init (&f, &test_layouts[l], w, h, pad, (uint8_t) rng ());
      fill_random (&f, style);
      check_frame (cpu, &f, test_layouts[l].name, style);
      test_frame_clear (&f);
    }
  }
  sharpness_cpu_free (cpu);

  if (failures) {
    printf ("%d failures (seed 0x%" PRIx64 ")\n", failures, seed);
    return 1;
  }
  printf ("all random frames match the reference (seed 0x%" PRIx64 ")\n", seed);
  return 0;
}
