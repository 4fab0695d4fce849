/* The per-resolution state of LPC-SI and CWTVNRS in the CPU backend: a
 * backend that changes frame size (and back) must score every frame as a
 * fresh backend does, row padding must not matter, and frames too long for
 * the FFT must be refused, not crash.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fft2d.h"
#include "sharpness-cpu.h"

static const SharpnessMetric metrics[] = {
  SHARPNESS_METRIC_LPC_SI, SHARPNESS_METRIC_CWTVNRS
};

/* Integer hash of a pixel position: the same noise whatever the stride. */
static uint32_t
hash (uint32_t x, uint32_t y)
{
  uint32_t h = x * 0x9e3779b1u ^ (y + 0x7f4a7c15u) * 0x85ebca6bu;
  h ^= h >> 15;
  h *= 0x2c1b3c6du;
  return h ^ (h >> 12);
}

/* A deterministic textured frame: w x h gray bytes (smooth ramps plus
 * noise), rows @stride apart, noise in the padding. */
static uint8_t *
make_frame (int w, int h, size_t stride)
{
  uint8_t *p = malloc (stride * h);

  if (!p)
    abort ();
  for (int y = 0; y < h; y++)
    for (size_t x = 0; x < stride; x++)
      p[y * stride + x] = x < (size_t) w ?
          (uint8_t) ((x * 3 + y * 5) % 200 + (hash (x, y) >> 28)) :
          (uint8_t) hash (x, y + 1000);
  return p;
}

static SharpnessPlane
gray8_plane (const uint8_t * data, int w, int h, size_t stride)
{
  SharpnessPlane p = {
    .samples = SHARPNESS_SAMPLES_Y8, .data = data, .stride = stride,
    .width = w, .height = h, .pixel_stride = 1,
  };
  return p;
}

static int
fresh_score (SharpnessMetric m, const SharpnessPlane * p, double *out)
{
  SharpnessCpu *cpu = sharpness_cpu_new ();
  int ok = cpu && sharpness_cpu_score (cpu, m, p, out) == SHARPNESS_OK;

  sharpness_cpu_free (cpu);
  return ok;
}

int
main (void)
{
  static const int sizes[][2] = { {64, 48}, {37, 53}, {64, 48}, {1, 1} };
  SharpnessCpu *cpu = sharpness_cpu_new ();
  int failed = 0;

  if (!cpu)
    return 1;

  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
    const int w = sizes[i][0], h = sizes[i][1];
    uint8_t *tight = make_frame (w, h, w);
    uint8_t *padded = make_frame (w, h, w + 13);
    const SharpnessPlane pt = gray8_plane (tight, w, h, w);
    const SharpnessPlane pp = gray8_plane (padded, w, h, w + 13);

    for (size_t m = 0; m < sizeof metrics / sizeof metrics[0]; m++) {
      const char *nick = sharpness_metric_info[metrics[m]].nick;
      double shared, fresh, pad;

      if (sharpness_cpu_score (cpu, metrics[m], &pt, &shared) != SHARPNESS_OK
          || !fresh_score (metrics[m], &pt, &fresh)
          || sharpness_cpu_score (cpu, metrics[m], &pp, &pad) != SHARPNESS_OK) {
        printf ("FAIL %s %dx%d: scoring failed\n", nick, w, h);
        failed = 1;
        continue;
      }
      /* Same pixels (the frames differ only in their padding). */
      const int same = shared == fresh && shared == pad;
      printf ("%s %s %dx%d: after a size change %.17g, fresh %.17g, "
          "padded rows %.17g\n", same ? "ok  " : "FAIL", nick, w, h, shared,
          fresh, pad);
      failed |= !same;
    }
    free (tight);
    free (padded);
  }

  /* Longer than Bluestein's largest fast transform allows. */
  {
    const int w = SHARPNESS_FFT_MAX_LENGTH + 1;
    uint8_t *row = calloc (w, 1);
    const SharpnessPlane p = gray8_plane (row, w, 1, w);
    for (size_t m = 0; row && m < sizeof metrics / sizeof metrics[0]; m++) {
      double s;
      SharpnessStatus st = sharpness_cpu_score (cpu, metrics[m], &p, &s);
      printf ("%s %s %dx1: %s\n", st == SHARPNESS_ERROR_UNSUPPORTED ?
          "ok  " : "FAIL", sharpness_metric_info[metrics[m]].nick, w,
          sharpness_status_to_string (st));
      failed |= st != SHARPNESS_ERROR_UNSUPPORTED;
    }
    failed |= !row;
    free (row);
  }

  sharpness_cpu_free (cpu);
  return failed;
}
