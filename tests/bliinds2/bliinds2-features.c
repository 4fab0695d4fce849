/* BLIINDS-II features and score of a raw 8-bit gray image, from the CPU
 * backend, for the Python tests to compare with the oracle.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Usage: bliinds2-features GRAY.raw WIDTH HEIGHT [--repeat N]
 * Prints the 24 features then the backend's score, one per line (%.17g).
 * Fails unless the backend's score (sharpness_cpu_score) equals the model's
 * prediction from the printed features, and unless the same image given
 * as padded-stride RGB (R = G = B) scores the same, and the same again
 * after a frame of another size.  --repeat N times N more backend calls
 * and prints their wall and CPU ms/frame to stderr.
 */
#include "bliinds2.h"
#include "sharpness-cpu.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint8_t *
read_file (const char *path, size_t size)
{
  FILE *f = fopen (path, "rb");
  uint8_t *data = malloc (size + 1);
  size_t got = 0;

  if (!f || !data) {
    perror (path);
    goto fail;
  }
  got = fread (data, 1, size + 1, f);
  if (got != size) {
    fprintf (stderr, "%s: %zu bytes, expected %zu\n", path, got, size);
    goto fail;
  }
  fclose (f);
  return data;

fail:
  if (f)
    fclose (f);
  free (data);
  return NULL;
}

static double
now_ms (clockid_t clock)
{
  struct timespec ts;
  clock_gettime (clock, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int
score_of (SharpnessCpu * cpu, const SharpnessPlane * plane, double *score)
{
  SharpnessStatus st = sharpness_cpu_score (cpu, SHARPNESS_METRIC_BLIINDS2,
      plane, score);
  if (st != SHARPNESS_OK) {
    fprintf (stderr, "sharpness_cpu_score: %s\n",
        sharpness_status_to_string (st));
    return -1;
  }
  return 0;
}

int
main (int argc, char **argv)
{
  int ret = 1, repeat = 0;
  uint8_t *gray = NULL, *rgb = NULL;
  SharpnessBliinds2 *b = NULL;
  SharpnessCpu *cpu = NULL;

  if (argc != 4 && !(argc == 6 && strcmp (argv[4], "--repeat") == 0)) {
    fprintf (stderr, "usage: %s GRAY.raw WIDTH HEIGHT [--repeat N]\n",
        argv[0]);
    return 2;
  }
  int width = atoi (argv[2]), height = atoi (argv[3]);
  if (argc == 6)
    repeat = atoi (argv[5]);
  if (width < 1 || height < 1 || repeat < 0) {
    fprintf (stderr, "bad size or repeat count\n");
    return 2;
  }

  gray = read_file (argv[1], (size_t) width * height);
  if (!gray)
    goto out;
  SharpnessPlane plane = {
    .samples = SHARPNESS_SAMPLES_Y8, .data = gray, .stride = width,
    .width = width, .height = height, .pixel_stride = 1,
  };

  double features[SHARPNESS_BLIINDS2_N_FEATURES];
  b = sharpness_bliinds2_new (width, height);
  cpu = sharpness_cpu_new ();
  if (!b || !cpu) {
    fprintf (stderr, "cannot allocate for %dx%d\n", width, height);
    goto out;
  }
  SharpnessStatus st = sharpness_bliinds2_features (b, &plane, features);
  if (st != SHARPNESS_OK) {
    fprintf (stderr, "features: %s\n", sharpness_status_to_string (st));
    goto out;
  }

  double score, predicted = sharpness_bliinds2_predict (
      &sharpness_bliinds2_live_model, features);
  if (score_of (cpu, &plane, &score))
    goto out;
  if (score != predicted) {
    fprintf (stderr, "FAIL: backend score %.17g != prediction %.17g\n",
        score, predicted);
    goto out;
  }

  /* The same gray image as RGB with padded rows: luma (77 + 150 + 29) g /
   * 256 rounds back to g, so only the plane reading differs. */
  size_t rgb_stride = 3 * (size_t) width + 7;
  rgb = malloc (rgb_stride * height);
  if (!rgb)
    goto out;
  memset (rgb, 0xa5, rgb_stride * height);
  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++)
      memset (rgb + y * rgb_stride + 3 * x, gray[(size_t) y * width + x], 3);
  SharpnessPlane rgb_plane = {
    .samples = SHARPNESS_SAMPLES_RGB8, .data = rgb, .stride = rgb_stride,
    .width = width, .height = height, .pixel_stride = 3,
    .offset_r = 0, .offset_g = 1, .offset_b = 2,
  };
  double rgb_score;
  if (score_of (cpu, &rgb_plane, &rgb_score))
    goto out;
  if (rgb_score != score) {
    fprintf (stderr, "FAIL: RGB score %.17g != gray score %.17g\n",
        rgb_score, score);
    goto out;
  }

  /* A size change rebuilds the backend's scratch; back to this size, the
   * score is the same. */
  if (width > SHARPNESS_BLIINDS2_MIN_SIZE &&
      height > SHARPNESS_BLIINDS2_MIN_SIZE) {
    SharpnessPlane crop = plane;
    double again;
    crop.width--;
    crop.height--;
    if (score_of (cpu, &crop, &again) || score_of (cpu, &plane, &again))
      goto out;
    if (again != score) {
      fprintf (stderr, "FAIL: score %.17g after a size change, %.17g "
          "before\n", again, score);
      goto out;
    }
  }

  for (int i = 0; i < SHARPNESS_BLIINDS2_N_FEATURES; i++)
    printf ("%.17g\n", features[i]);
  printf ("%.17g\n", score);

  if (repeat) {
    /* CPU time too: on a loaded machine the wall time says little. */
    double wall = now_ms (CLOCK_MONOTONIC);
    double cpu_time = now_ms (CLOCK_PROCESS_CPUTIME_ID);
    for (int i = 0; i < repeat; i++)
      if (score_of (cpu, &plane, &score))
        goto out;
    wall = now_ms (CLOCK_MONOTONIC) - wall;
    cpu_time = now_ms (CLOCK_PROCESS_CPUTIME_ID) - cpu_time;
    fprintf (stderr, "%dx%d: %.2f ms/frame wall, %.2f ms/frame CPU "
        "(%d frames)\n", width, height, wall / repeat, cpu_time / repeat,
        repeat);
  }
  ret = 0;

out:
  sharpness_cpu_free (cpu);
  sharpness_bliinds2_free (b);
  free (rgb);
  free (gray);
  return ret;
}
