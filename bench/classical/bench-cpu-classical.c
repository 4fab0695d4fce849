/* Time of the CPU classical metrics per frame, per sample layout.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Usage: bench-cpu-classical [FRAMES [WIDTH HEIGHT]]
 *
 * Frames look like video: a smooth random field, hard-edged shapes and a
 * little grain, no pure black.  Four different frames are scored in turn
 * (as a stream would, not one frame hot in the cache); after a warm-up the
 * median of FRAMES timings (default 60) is printed as markdown tables of
 * ns/frame: wall-clock time, and the thread's CPU time, which leaves out
 * the time the thread waited for a core on a busy machine.  The layouts:
 * Y8, P010_10LE, BGRx, and the capture-card formats UYVY and v210 read in
 * place (with GStreamer's strides).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sharpness-cpu.h"
#include "test-frame.h"
#include "test-packed422.h"
#include "test-rng.h"

#define N_FRAMES 4
#define WARMUP 5

static TestRng rng_state = { 0x12345678u };

static uint32_t
rng (void)
{
  return test_rng_u32 (&rng_state);
}

static double
rng_unit (void)
{
  return test_rng_unit (&rng_state);
}

/* A luma field in [16, 235] for frame @k: a few low-frequency waves, eight
 * rectangles with hard edges, grain. */
static void
make_field (double *field, int w, int h, int k)
{
  double fx[4], fy[4], ph[4];
  struct
  {
    int x0, y0, x1, y1;
    double level;
  } rect[8];

  for (int i = 0; i < 4; i++) {
    fx[i] = (0.5 + 4.0 * rng_unit ()) * 2 * M_PI / w;
    fy[i] = (0.5 + 4.0 * rng_unit ()) * 2 * M_PI / h;
    ph[i] = 2 * M_PI * rng_unit () + k;
  }
  for (int i = 0; i < 8; i++) {
    rect[i].x0 = rng () % w;
    rect[i].y0 = rng () % h;
    rect[i].x1 = rect[i].x0 + rng () % (w / 4 + 1);
    rect[i].y1 = rect[i].y0 + rng () % (h / 4 + 1);
    rect[i].level = 60.0 * (rng_unit () - 0.5);
  }

  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      double v = 125.0;
      for (int i = 0; i < 4; i++)
        v += 20.0 * sin (fx[i] * x + ph[i]) * cos (fy[i] * y + ph[i]);
      for (int i = 0; i < 8; i++)
        if (x >= rect[i].x0 && x < rect[i].x1 && y >= rect[i].y0 &&
            y < rect[i].y1)
          v += rect[i].level;
      v += 6.0 * (rng_unit () - 0.5);
      field[(size_t) y * w + x] = v < 16.0 ? 16.0 : v > 235.0 ? 235.0 : v;
    }
}

static void
render (TestFrame * f, const double *field)
{
  const SharpnessPlane *p = &f->plane;

  for (int y = 0; y < p->height; y++)
    for (int x = 0; x < p->width; x++) {
      double v = field[(size_t) y * p->width + x];
      switch (p->samples) {
        case SHARPNESS_SAMPLES_Y16LE:
          test_frame_set_raw (f, x, y,
              (unsigned) (v * (1 << (p->depth - 8))) << p->shift);
          break;
        case SHARPNESS_SAMPLES_RGB8:
          /* A colour cast that varies with the luma. */
          test_frame_set_rgb (f, x, y, (unsigned) (v * 0.9 + 20.0),
              (unsigned) v, (unsigned) (v * 0.8 + 10.0));
          break;
        default:
          test_frame_set_raw (f, x, y, (unsigned) v);
          break;
      }
    }
}

static int
compare_i64 (const void *a, const void *b)
{
  long long x = *(const long long *) a, y = *(const long long *) b;
  return (x > y) - (x < y);
}

static long long
now_ns (clockid_t clock)
{
  struct timespec ts;
  clock_gettime (clock, &ts);
  return ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

static void
print_header (const char *title, const char *const *layouts, int n_layouts)
{
  printf ("\n%s\n\n| metric |", title);
  for (int l = 0; l < n_layouts; l++)
    printf (" %s |", layouts[l]);
  printf ("\n|---|");
  for (int l = 0; l < n_layouts; l++)
    printf ("---:|");
  printf ("\n");
}

int
main (int argc, char **argv)
{
  int runs = argc > 1 ? atoi (argv[1]) : 60;
  int w = argc > 3 ? atoi (argv[2]) : 1920;
  int h = argc > 3 ? atoi (argv[3]) : 1080;
  static const char *const layout_names[] = { "Y8", "P010_10LE", "BGRx",
    "UYVY", "v210"
  };
  enum { N_LAYOUTS = sizeof layout_names / sizeof layout_names[0] };
  /* The first N_PLAIN layouts are TestFrames, the others packed 4:2:2. */
  enum { N_PLAIN = 3 };
  static const TestPackedFormat packed_formats[N_LAYOUTS - N_PLAIN] = {
    TEST_PACKED_UYVY, TEST_PACKED_V210
  };
  TestFrame frames[N_PLAIN][N_FRAMES];
  TestPacked422 packed[N_LAYOUTS - N_PLAIN][N_FRAMES];
  SharpnessPlane planes[N_LAYOUTS][N_FRAMES];
  double *field;
  long long *wall, *cpu_time;
  long long median[2][SHARPNESS_METRIC_COUNT][N_LAYOUTS];
  double sink = 0.0;
  SharpnessCpu *cpu;

  if (runs < 1 || w < 1 || h < 1) {
    fprintf (stderr, "usage: %s [FRAMES [WIDTH HEIGHT]]\n", argv[0]);
    return 2;
  }
  field = malloc (sizeof (double) * w * h);
  wall = malloc (sizeof (long long) * runs);
  cpu_time = malloc (sizeof (long long) * runs);
  cpu = sharpness_cpu_new ();
  if (!field || !wall || !cpu_time || !cpu) {
    fprintf (stderr, "out of memory\n");
    return 1;
  }

  for (int l = 0; l < N_PLAIN; l++) {
    const TestLayout *layout = test_layout_find (layout_names[l]);
    /* Rows padded to 64 bytes, like GStreamer's video buffer pools do. */
    size_t row = (size_t) w * layout->pixel_stride;
    for (int k = 0; k < N_FRAMES; k++) {
      test_frame_init (&frames[l][k], layout, w, h, ((row + 63) & ~63ul) - row,
          0);
      planes[l][k] = frames[l][k].plane;
    }
  }
  for (int l = N_PLAIN; l < N_LAYOUTS; l++)
    for (int k = 0; k < N_FRAMES; k++) {
      TestPacked422 *f = &packed[l - N_PLAIN][k];
      test_packed422_init (f, packed_formats[l - N_PLAIN], w, h, 0,
          &rng_state);
      planes[l][k] = test_packed422_plane (f, f->mem);
    }
  for (int k = 0; k < N_FRAMES; k++) {
    make_field (field, w, h, k);
    for (int l = 0; l < N_PLAIN; l++)
      render (&frames[l][k], field);
    for (int l = N_PLAIN; l < N_LAYOUTS; l++) {
      TestPacked422 *f = &packed[l - N_PLAIN][k];
      const double scale = f->format == TEST_PACKED_V210 ? 4.0 : 1.0;
      for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
          test_packed422_set_luma (f, x, y,
              (unsigned) (field[(size_t) y * w + x] * scale));
    }
  }

  for (int m = 0; m < SHARPNESS_METRIC_COUNT; m++) {
    if (sharpness_metric_info[m].kind != SHARPNESS_KIND_SUMS)
      continue;
    for (int l = 0; l < N_LAYOUTS; l++) {
      for (int i = -WARMUP; i < runs; i++) {
        const SharpnessPlane *p = &planes[l][(i + WARMUP) % N_FRAMES];
        double score;
        long long w0 = now_ns (CLOCK_MONOTONIC);
        long long c0 = now_ns (CLOCK_THREAD_CPUTIME_ID);
        SharpnessStatus st = sharpness_cpu_score (cpu, (SharpnessMetric) m, p,
            &score);
        long long c1 = now_ns (CLOCK_THREAD_CPUTIME_ID);
        long long w1 = now_ns (CLOCK_MONOTONIC);
        if (st != SHARPNESS_OK) {
          fprintf (stderr, "%s: %s\n", sharpness_metric_info[m].nick,
              sharpness_status_to_string (st));
          return 1;
        }
        sink += score;
        if (i >= 0) {
          wall[i] = w1 - w0;
          cpu_time[i] = c1 - c0;
        }
      }
      qsort (wall, runs, sizeof wall[0], compare_i64);
      qsort (cpu_time, runs, sizeof cpu_time[0], compare_i64);
      median[0][m][l] = wall[runs / 2];
      median[1][m][l] = cpu_time[runs / 2];
    }
  }

  printf ("CPU classical metrics, %dx%d, median of %d frames, ns/frame\n",
      w, h, runs);
  for (int t = 0; t < 2; t++) {
    print_header (t == 0 ? "Wall clock:" : "Thread CPU time:", layout_names,
        N_LAYOUTS);
    for (int m = 0; m < SHARPNESS_METRIC_COUNT; m++) {
      if (sharpness_metric_info[m].kind != SHARPNESS_KIND_SUMS)
        continue;
      printf ("| %s |", sharpness_metric_info[m].nick);
      for (int l = 0; l < N_LAYOUTS; l++)
        printf (" %lld |", median[t][m][l]);
      printf ("\n");
    }
  }
  /* Keeps the scores alive, and tells identical runs apart. */
  printf ("\n(checksum %.6g)\n", sink);

  for (int k = 0; k < N_FRAMES; k++) {
    for (int l = 0; l < N_PLAIN; l++)
      test_frame_clear (&frames[l][k]);
    for (int l = N_PLAIN; l < N_LAYOUTS; l++)
      test_packed422_clear (&packed[l - N_PLAIN][k]);
  }
  sharpness_cpu_free (cpu);
  free (cpu_time);
  free (wall);
  free (field);
  return 0;
}
