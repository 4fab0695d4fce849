/* The perceptual metrics (LPC-SI, CWTVNRS, BLIINDS-II) on the CPU backend
 * read capture-card frames (UYVY, YUY2, v210) through the shared gray
 * path: the score of a packed frame must be bit-identical to that of the
 * same luma as planar I422 / I422_10LE, whatever the chroma and padding.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Usage: test-perceptual-packed422 [--seed N]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sharpness-cpu.h"
#include "sharpness-tiles.h"
#include "test-packed422.h"
#include "test-rng.h"

static int checks, failures;

static void
check (SharpnessCpu * cpu, SharpnessMetric m, const TestPacked422 * f,
    const SharpnessPlane * pk, const SharpnessPlane * pl, const char *what)
{
  double a = -1.0, b = -2.0;
  SharpnessStatus sa = sharpness_cpu_score (cpu, m, pk, &a);
  SharpnessStatus sb = sharpness_cpu_score (cpu, m, pl, &b);

  checks++;
  if (sa != sb || (sa == SHARPNESS_OK && memcmp (&a, &b, sizeof a) != 0)) {
    failures++;
    fprintf (stderr, "FAIL %s %s %dx%d stride %zu%s: %.17g (%s), planar "
        "%.17g (%s)\n", sharpness_metric_info[m].nick,
        test_packed_name (f->format), pk->width, pk->height, f->stride, what,
        a, sharpness_status_to_string (sa), b,
        sharpness_status_to_string (sb));
  }
}

int
main (int argc, char **argv)
{
  static const int sizes[][2] = {
    {4, 4}, {7, 5}, {17, 13}, {47, 31}, {97, 61}, {160, 90},
  };
  uint64_t seed = test_rng_seed_from_env (0x1c5142ull);
  SharpnessCpu *cpu = sharpness_cpu_new ();
  TestRng rng;
  int k = 0;

  if (argc == 3 && strcmp (argv[1], "--seed") == 0)
    seed = strtoull (argv[2], NULL, 0);
  if (!cpu) {
    fprintf (stderr, "FAIL: sharpness_cpu_new\n");
    return 1;
  }
  test_rng_seed (&rng, seed);

  for (int fmt = 0; fmt < TEST_PACKED_COUNT; fmt++)
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++, k++) {
      TestPacked422 f;
      test_packed422_init (&f, fmt, sizes[s][0], sizes[s][1], k % 2 ? 16 : 0,
          &rng);
      test_packed422_fill (&f, k % 3 ? TEST_LUMA_NATURAL : TEST_LUMA_RANDOM,
          &rng);
      const SharpnessPlane pk = test_packed422_plane (&f, f.mem);
      const SharpnessPlane pl = test_packed422_planar_plane (&f,
          f.planar_mem);
      /* A crop starting inside a v210 group, too. */
      const SharpnessRect r = { 1 + k % 5, 1, sizes[s][0] - 1 - k % 5,
        sizes[s][1] - 1
      };
      SharpnessPlane ck, cl;
      const int cropped = r.width > 0 && sharpness_plane_crop (&pk, &r, &ck)
          && sharpness_plane_crop (&pl, &r, &cl);

      for (int i = 0; i < SHARPNESS_METRIC_COUNT; i++) {
        if (sharpness_metric_info[i].kind != SHARPNESS_KIND_FLOAT)
          continue;
        check (cpu, i, &f, &pk, &pl, "");
        if (cropped)
          check (cpu, i, &f, &ck, &cl, " cropped");
      }
      test_packed422_clear (&f);
    }
  sharpness_cpu_free (cpu);
  printf ("%d checks, %d failures (seed 0x%" PRIx64 ")\n", checks, failures,
      seed);
  return failures ? 1 : 0;
}
