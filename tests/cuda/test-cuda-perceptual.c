/* The CUDA perceptual metrics (LPC-SI, CWTVNRS, BLIINDS-II) against the CPU
 * reference backend, and their timing.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Default: for every metric, odd and even sizes from 17x13 to 1920x1080 and
 * several kinds of frames (uniform noise, a synthetic natural-looking scene
 * sharp and blurred, other sample layouts), the GPU score from a host plane
 * and from a pitched device plane must be within 1e-4 (relative) of the CPU
 * score, and the same on a second run; the intermediate results are
 * compared too (LPC map, BLIINDS-II features: the predicted DMOS is
 * quantised to 0.5, which would hide small errors).  Prints one line per
 * comparison with the observed difference.
 *
 * --small: only the cases up to 640x480 (for compute-sanitizer).
 * --profile: two frames of each metric at 1080p (for ncu).
 * --bench: median time per frame (CUDA events around the whole call, after
 * warm-up, over 100 frames cycling through 4 different device frames) at
 * 1920x1080, 1280x720, 3840x2160 and 512x512, as a markdown table; LPC-SI
 * and CWTVNRS with and without a CUDA graph, each on a backend of its
 * own.
 *
 * The default run checks the path the environment selects (batched with
 * graphs; SHARPNESS_CUDA_NO_GRAPH=1 and SHARPNESS_CUDA_LPC_BATCH=1|2|4|8
 * select the others).
 *
 * Capture-card formats (UYVY, YUY2, v210): the GPU score of a packed
 * frame, from host memory and from a pitched device copy, must be
 * bit-identical to the GPU score of the same luma as the planar Y plane
 * (I422 / I422_10LE), and within the tolerance of the CPU's.
 *
 * Exits 77 ("skipped: no CUDA device") without a usable device.
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cuda_runtime_api.h>

#include "bliinds2.h"
#include "check-cuda.h"
#include "lpc-map.h"
#include "perceptual-cuda-private.h"
#include "sharpness-cpu.h"
#include "sharpness-cuda.h"
#include "test-frame.h"
#include "test-packed422.h"
#include "test-rng.h"

#define TOLERANCE 1e-4
#define BENCH_WARMUP 20
#define BENCH_FRAMES 100
#define BENCH_RING 4

static const SharpnessMetric metrics[] = {
  SHARPNESS_METRIC_LPC_SI, SHARPNESS_METRIC_CWTVNRS, SHARPNESS_METRIC_BLIINDS2
};

#define N_METRICS ((int) (sizeof metrics / sizeof metrics[0]))

/* --- frames --------------------------------------------------------- */

typedef enum
{
  SCENE_NOISE,                  /* uniform 0..255 */
  SCENE_NATURAL,                /* edges, texture, gradients */
  SCENE_BLURRED,                /* the same, blurred (sigma ~ 2.4) */
  SCENE_BLURRED_MORE            /* the same, blurred (sigma ~ 6.5) */
} Scene;

static const char *const scene_names[] = {
  "noise", "natural", "blurred", "blurred-more"
};

static uint64_t rng_state;

static uint32_t
rng (void)
{
  /* xorshift64* */
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return (uint32_t) ((rng_state * 0x2545F4914F6CDD1DULL) >> 32);
}

static double
rng_unit (void)
{
  return rng () / 4294967296.0;
}

/* Three box-blur passes of radius @r along rows then columns (about a
 * Gaussian of sigma sqrt (r (r + 1))), edges clamped. */
static void
blur (double *img, int w, int h, int r)
{
  int n = w > h ? w : h;
  double *line = malloc (n * sizeof (double));
  double *out = malloc (n * sizeof (double));
  if (!line || !out)
    abort ();
  for (int pass = 0; pass < 6; pass++) {
    int horizontal = pass % 2 == 0, len = horizontal ? w : h,
        count = horizontal ? h : w;
    for (int c = 0; c < count; c++) {
      for (int i = 0; i < len; i++)
        line[i] = horizontal ? img[(size_t) c * w + i] :
            img[(size_t) i * w + c];
      for (int i = 0; i < len; i++) {
        double s = 0.0;
        for (int k = -r; k <= r; k++) {
          int j = i + k < 0 ? 0 : i + k >= len ? len - 1 : i + k;
          s += line[j];
        }
        out[i] = s / (2 * r + 1);
      }
      for (int i = 0; i < len; i++) {
        if (horizontal)
          img[(size_t) c * w + i] = out[i];
        else
          img[(size_t) i * w + c] = out[i];
      }
    }
  }
  free (line);
  free (out);
}

/* A gray image of @scene in 0..255. */
static uint8_t *
make_gray (Scene scene, int w, int h, uint64_t seed)
{
  size_t n = (size_t) w * h;
  uint8_t *gray = malloc (n);
  double *img = malloc (n * sizeof (double));
  if (!gray || !img)
    abort ();
  rng_state = seed * 0x9E3779B97F4A7C15ULL + 1;

  if (scene == SCENE_NOISE) {
    for (size_t i = 0; i < n; i++)
      gray[i] = rng () >> 24;
    free (img);
    return gray;
  }

  /* Smooth background: a gradient plus a few oriented waves. */
  double gx = rng_unit () - 0.5, gy = rng_unit () - 0.5;
  double wave[4][4];
  for (int k = 0; k < 4; k++) {
    double angle = rng_unit () * M_PI, period = 6 + rng_unit () * 60;
    wave[k][0] = cos (angle) * 2 * M_PI / period;
    wave[k][1] = sin (angle) * 2 * M_PI / period;
    wave[k][2] = rng_unit () * 2 * M_PI;
    wave[k][3] = 10 + rng_unit () * 20;
  }
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      double v = 120 + 80 * (gx * x / w + gy * y / h);
      for (int k = 0; k < 4; k++)
        v += wave[k][3] * sin (wave[k][0] * x + wave[k][1] * y + wave[k][2]);
      img[(size_t) y * w + x] = v;
    }

  /* Objects with hard edges: discs and rectangles of random levels. */
  int objects = 6 + (int) (sqrt ((double) n) / 20);
  for (int k = 0; k < objects; k++) {
    double cx = rng_unit () * w, cy = rng_unit () * h;
    double size = 2 + rng_unit () * (w < h ? w : h) / 4;
    double level = rng_unit () * 255;
    int disc = rng () & 1;
    int x0 = (int) fmax (0, cx - size), x1 = (int) fmin (w - 1, cx + size);
    int y0 = (int) fmax (0, cy - size), y1 = (int) fmin (h - 1, cy + size);
    for (int y = y0; y <= y1; y++)
      for (int x = x0; x <= x1; x++)
        if (!disc || (x - cx) * (x - cx) + (y - cy) * (y - cy) < size * size)
          img[(size_t) y * w + x] = level;
  }

  /* Fine texture (film grain). */
  for (size_t i = 0; i < n; i++)
    img[i] += (rng_unit () - 0.5) * 12;

  if (scene == SCENE_BLURRED)
    blur (img, w, h, 2);
  else if (scene == SCENE_BLURRED_MORE)
    blur (img, w, h, 6);

  for (size_t i = 0; i < n; i++) {
    double v = floor (img[i] + 0.5);
    gray[i] = v < 0 ? 0 : v > 255 ? 255 : (uint8_t) v;
  }
  free (img);
  return gray;
}

/* @gray in @layout; other layouts get random colours / raw samples around
 * it, so that the gray conversion is exercised too. */
static void
make_frame (TestFrame * f, const TestLayout * layout, const uint8_t * gray,
    int w, int h)
{
  test_frame_init (f, layout, w, h, 13 * layout->pixel_stride, 0xa5);
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++) {
      unsigned g = gray[(size_t) y * w + x];
      if (layout->samples == SHARPNESS_SAMPLES_Y8)
        test_frame_set_raw (f, x, y, g);
      else if (layout->samples == SHARPNESS_SAMPLES_RGB8)
        test_frame_set_rgb (f, x, y, g, (g * 7 + (rng () & 63)) & 255,
            255 - g);
      else
        test_frame_set_raw (f, x, y, ((g << (layout->depth - 8)) |
                (rng () & ((1u << (layout->depth - 8)) - 1))) << layout->shift);
    }
}

/* A copy of @host's rows in pitched device memory. */
static int
upload (const SharpnessPlane * host, SharpnessPlane * dev, void **mem)
{
  size_t row = (size_t) host->width * host->pixel_stride, pitch;
  if (cudaMallocPitch (mem, &pitch, row, host->height) != cudaSuccess ||
      cudaMemcpy2D (*mem, pitch, host->data, host->stride, row, host->height,
          cudaMemcpyHostToDevice) != cudaSuccess) {
    fprintf (stderr, "device plane: %s\n",
        cudaGetErrorString (cudaGetLastError ()));
    return 0;
  }
  *dev = *host;
  dev->data = *mem;
  dev->stride = pitch;
  return 1;
}

/* --- comparison ----------------------------------------------------- */

/* Tolerances of the intermediate results (docs/performance/notes-cuda-perceptual.md):
 * BLIINDS-II features are computed in double on both sides, in the same
 * order but for the sums' association and FMA contraction; the LPC map
 * goes through single-precision inverse FFTs on the GPU. */
#define FEATURE_TOLERANCE 1e-7
#define MAP_TOLERANCE 2e-3

typedef struct
{
  int width, height;
  Scene scene;
  int layout;                   /* index into test_layouts */
  int maps;                     /* also compare the LPC map */
} Case;

static const Case cases[] = {
  {17, 13, SCENE_NOISE, 0, 1}, {17, 13, SCENE_NATURAL, 0, 1},
  {255, 171, SCENE_NOISE, 0, 1}, {255, 171, SCENE_NATURAL, 0, 1},
  {255, 171, SCENE_BLURRED, 0, 1}, {255, 171, SCENE_BLURRED_MORE, 0, 1},
  {255, 171, SCENE_NATURAL, 6, 0},      /* RGB */
  {255, 171, SCENE_NATURAL, 5, 0},      /* P010_10LE */
  {640, 480, SCENE_NOISE, 0, 1}, {640, 480, SCENE_NATURAL, 0, 1},
  {640, 480, SCENE_BLURRED, 9, 0},      /* BGRx */
  {640, 480, SCENE_BLURRED_MORE, 0, 1},
  {1279, 719, SCENE_NATURAL, 0, 1}, {1279, 719, SCENE_BLURRED_MORE, 0, 0},
  {1920, 1080, SCENE_NOISE, 0, 0}, {1920, 1080, SCENE_NATURAL, 0, 0},
  {1920, 1080, SCENE_BLURRED, 0, 1},
};

#define N_CASES ((int) (sizeof cases / sizeof cases[0]))

static double
rel_diff (double gpu, double cpu)
{
  if (gpu == cpu)
    return 0.0;
  return fabs (gpu - cpu) / fmax (fabs (cpu), 1e-12);
}

/* CPU work per case: the three scores, the LPC map's crop, the features. */
enum
{ TASK_MAP = N_METRICS, TASK_FEATURES, N_TASKS };

/* A case's frame and everything the CPU computed from it. */
typedef struct
{
  const Case *cs;
  int skip;                     /* left out (--small) */
  TestFrame frame;
  SharpnessStatus cpu_status[N_METRICS];
  double cpu_score[N_METRICS];
  double *cpu_map;              /* the LPC crop, if cs->maps */
  size_t map_count;
  SharpnessStatus feature_status;
  double cpu_features[SHARPNESS_BLIINDS2_N_FEATURES];
} Prepared;

/* The CPU reference takes seconds per metric at 1080p: (case, task) items
 * are shared among threads, largest frames first. */
typedef struct
{
  Prepared *all;
  int next;
  pthread_mutex_t lock;
} Work;

static void
cpu_map (Prepared * p)
{
  const SharpnessPlane *plane = &p->frame.plane;
  const int w = plane->width, h = plane->height;
  const int b = sharpness_cpu_lpc_border (w, h);
  double *image = malloc ((size_t) w * h * sizeof (double));
  double *map = malloc ((size_t) w * h * sizeof (double));
  SharpnessCpuLpc *lpc;

  p->map_count = (size_t) (w - 2 * b) * (h - 2 * b);
  p->cpu_map = malloc (p->map_count * sizeof (double));
  if (!image || !map || !p->cpu_map || sharpness_cpu_lpc_new (w, h, &lpc))
    abort ();
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      image[(size_t) y * w + x] = test_frame_gray (plane, x, y);
  sharpness_cpu_lpc_map (lpc, image, map);
  for (int y = b; y < h - b; y++)
    for (int x = b; x < w - b; x++)
      p->cpu_map[(size_t) (y - b) * (w - 2 * b) + (x - b)] =
          map[(size_t) y * w + x];
  sharpness_cpu_lpc_free (lpc);
  free (image);
  free (map);
}

static void
cpu_features (Prepared * p)
{
  const SharpnessPlane *plane = &p->frame.plane;
  SharpnessBliinds2 *b = sharpness_bliinds2_new (plane->width,
      plane->height);

  p->feature_status = b ? sharpness_bliinds2_features (b, plane,
      p->cpu_features) : SHARPNESS_ERROR_UNSUPPORTED;
  sharpness_bliinds2_free (b);
}

static void *
cpu_worker (void *data)
{
  Work *work = data;
  SharpnessCpu *cpu = sharpness_cpu_new ();

  for (;;) {
    pthread_mutex_lock (&work->lock);
    int item = work->next++;
    pthread_mutex_unlock (&work->lock);
    if (item >= N_CASES * N_TASKS)
      break;
    /* Cases run from small to large: take them from the end. */
    Prepared *p = &work->all[N_CASES - 1 - item / N_TASKS];
    int task = item % N_TASKS;
    if (p->skip)
      continue;
    if (task < N_METRICS)
      p->cpu_status[task] = sharpness_cpu_score (cpu, metrics[task],
          &p->frame.plane, &p->cpu_score[task]);
    else if (task == TASK_MAP && p->cs->maps)
      cpu_map (p);
    else if (task == TASK_FEATURES)
      cpu_features (p);
  }
  sharpness_cpu_free (cpu);
  return NULL;
}

static void
cpu_references (Prepared * all, int small_only)
{
  Work work = { all, 0, PTHREAD_MUTEX_INITIALIZER };
  long cores = sysconf (_SC_NPROCESSORS_ONLN);
  int n_threads = cores < 1 ? 1 : cores > 32 ? 32 : (int) cores;
  pthread_t threads[32];

  for (int c = 0; c < N_CASES; c++) {
    const Case *cs = &cases[c];
    uint8_t *gray = make_gray (cs->scene, cs->width, cs->height, c + 1);
    all[c].cs = cs;
    all[c].skip = small_only && cs->width > 640;
    make_frame (&all[c].frame, &test_layouts[cs->layout], gray, cs->width,
        cs->height);
    free (gray);
  }
  for (int t = 0; t < n_threads; t++)
    if (pthread_create (&threads[t], NULL, cpu_worker, &work)) {
      fprintf (stderr, "cannot start CPU threads\n");
      abort ();
    }
  for (int t = 0; t < n_threads; t++)
    pthread_join (threads[t], NULL);
}

/* Largest differences seen, per metric and of the intermediate results. */
typedef struct
{
  double score[N_METRICS];
  double map;
  double features;
} Worst;

static int
check_intermediates (SharpnessCuda * cuda, const Prepared * p,
    const SharpnessPlane * dev, const char *label, Worst * worst)
{
  int failures = 0;
  SharpnessStatus st;

  if (p->cs->maps) {
    float *map = malloc (p->map_count * sizeof (float));
    double d = 0.0;
    if (!map)
      abort ();
    if ((st = sharpness_cuda_lpc_si_crop_map (cuda, dev, map))) {
      printf ("lpc-map  %s FAIL: %s (%s)\n", label,
          sharpness_status_to_string (st), sharpness_cuda_last_error (cuda));
      failures++;
    } else {
      for (size_t i = 0; i < p->map_count; i++)
        d = fmax (d, isfinite (map[i]) ? fabs (map[i] - p->cpu_map[i]) :
            INFINITY);
      printf ("lpc-map  %s max abs %.2e%s\n", label, d,
          d <= MAP_TOLERANCE ? "" : "  FAIL");
      failures += !(d <= MAP_TOLERANCE);
      worst->map = fmax (worst->map, d);
    }
    free (map);
  }

  double features[SHARPNESS_BLIINDS2_N_FEATURES], d = 0.0;
  int at = 0;
  st = sharpness_cuda_bliinds2_features (cuda, dev, features);
  if (st != p->feature_status) {
    printf ("features %s FAIL: %s, cpu: %s (%s)\n", label,
        sharpness_status_to_string (st),
        sharpness_status_to_string (p->feature_status),
        sharpness_cuda_last_error (cuda));
    return failures + 1;
  }
  if (st != SHARPNESS_OK)
    return failures;
  for (int i = 0; i < SHARPNESS_BLIINDS2_N_FEATURES; i++) {
    double di = rel_diff (features[i], p->cpu_features[i]);
    if (!(di <= d)) {
      d = di;
      at = i;
    }
  }
  printf ("features %s max rel %.2e (feature %d: cpu %.12g gpu %.12g)%s\n",
      label, d, at, p->cpu_features[at], features[at],
      d <= FEATURE_TOLERANCE ? "" : "  FAIL");
  worst->features = fmax (worst->features, d);
  return failures + !(d <= FEATURE_TOLERANCE);
}

static int
check (SharpnessCuda * cuda, int small_only, Worst * worst)
{
  Prepared *all = calloc (N_CASES, sizeof *all);
  int failures = 0;

  if (!all)
    abort ();
  cpu_references (all, small_only);

  for (int c = 0; c < N_CASES; c++) {
    const Case *cs = &cases[c];
    const SharpnessPlane *host = &all[c].frame.plane;
    SharpnessPlane dev;
    void *mem = NULL;
    char label[64];

    if (all[c].skip)
      continue;
    snprintf (label, sizeof label, "%4dx%-4d %-12s %-9s", cs->width,
        cs->height, scene_names[cs->scene], test_layouts[cs->layout].name);
    if (!upload (host, &dev, &mem))
      return failures + 1;

    for (int m = 0; m < N_METRICS; m++) {
      const char *nick = sharpness_metric_get_info (metrics[m])->nick;
      const double ref = all[c].cpu_score[m];
      double gpu, device, again;
      SharpnessStatus st = all[c].cpu_status[m];

      if (st != SHARPNESS_OK) {
        /* Sizes a metric does not support must be refused alike. */
        SharpnessStatus gpu_st = sharpness_cuda_score_host (cuda, metrics[m],
            host, &gpu);
        printf ("%-8s %s cpu: %s, gpu: %s\n", nick, label,
            sharpness_status_to_string (st),
            sharpness_status_to_string (gpu_st));
        failures += gpu_st != st;
        continue;
      }
      if ((st = sharpness_cuda_score_host (cuda, metrics[m], host, &gpu)) ||
          (st = sharpness_cuda_score_device (cuda, metrics[m], &dev,
                  &device)) ||
          (st = sharpness_cuda_score_device (cuda, metrics[m], &dev,
                  &again))) {
        printf ("%-8s %s FAIL: %s (%s)\n", nick, label,
            sharpness_status_to_string (st), sharpness_cuda_last_error (cuda));
        failures++;
        continue;
      }
      double d = fmax (rel_diff (gpu, ref), rel_diff (device, ref));
      int same = device == gpu && again == device;
      int ok = d <= TOLERANCE && isfinite (gpu) && same;
      printf ("%-8s %s cpu %.10g gpu %.10g rel %.2e%s%s\n", nick, label, ref,
          gpu, d, same ? "" : " (host/device/repeat differ)",
          ok ? "" : "  FAIL");
      worst->score[m] = fmax (worst->score[m], d);
      failures += !ok;
    }
    failures += check_intermediates (cuda, &all[c], &dev, label, worst);
    cudaFree (mem);
  }
  for (int c = 0; c < N_CASES; c++) {
    test_frame_clear (&all[c].frame);
    free (all[c].cpu_map);
  }
  free (all);
  return failures;
}

/* --- capture-card formats ------------------------------------------ */

/* A pitched device copy of the @row bytes of each of @h rows of @src. */
static uint8_t *
device_copy (const uint8_t * src, size_t stride, size_t row, int h,
    size_t * pitch)
{
  void *mem = NULL;
  if (cudaMallocPitch (&mem, pitch, row, h) != cudaSuccess ||
      cudaMemcpy2D (mem, *pitch, src, stride, row, h,
          cudaMemcpyHostToDevice) != cudaSuccess) {
    fprintf (stderr, "device copy: %s\n",
        cudaGetErrorString (cudaGetLastError ()));
    exit (1);
  }
  return mem;
}

static int
check_packed (SharpnessCuda * cuda, SharpnessCpu * cpu)
{
  static const int sizes[][2] = { {17, 13}, {97, 61}, {255, 171} };
  int failures = 0;
  TestRng trng;

  test_rng_seed (&trng, 0x422);
  for (int fmt = 0; fmt < TEST_PACKED_COUNT; fmt++)
    for (int s = 0; s < 3; s++) {
      const int w = sizes[s][0], h = sizes[s][1];
      TestPacked422 f;
      size_t pitch, ppitch;

      test_packed422_init (&f, fmt, w, h, 32, &trng);
      test_packed422_fill (&f, s == 0 ? TEST_LUMA_RANDOM : TEST_LUMA_NATURAL,
          &trng);
      uint8_t *dev = device_copy (f.mem, f.stride,
          test_packed_row_bytes (fmt, w), h, &pitch);
      const SharpnessPlane pl = test_packed422_planar_plane (&f,
          f.planar_mem);
      uint8_t *pdev = device_copy (f.planar_mem, f.planar_stride,
          sharpness_plane_row_bytes (&pl), h, &ppitch);
      const SharpnessPlane host = test_packed422_plane (&f, f.mem);
      SharpnessPlane packed_dev = test_packed422_plane (&f, dev);
      SharpnessPlane planar_dev = pl;
      packed_dev.stride = pitch;
      planar_dev.data = pdev;
      planar_dev.stride = ppitch;

      for (int m = 0; m < N_METRICS; m++) {
        const char *nick = sharpness_metric_get_info (metrics[m])->nick;
        double ref, planar, from_host, from_dev;
        SharpnessStatus st;
        if ((st = sharpness_cpu_score (cpu, metrics[m], &pl, &ref)) ||
            (st = sharpness_cuda_score_device (cuda, metrics[m], &planar_dev,
                    &planar)) ||
            (st = sharpness_cuda_score_host (cuda, metrics[m], &host,
                    &from_host)) ||
            (st = sharpness_cuda_score_device (cuda, metrics[m], &packed_dev,
                    &from_dev))) {
          printf ("%-8s %4dx%-4d %s FAIL: %s (%s)\n", nick, w, h,
              test_packed_name (fmt), sharpness_status_to_string (st),
              sharpness_cuda_last_error (cuda));
          failures++;
          continue;
        }
        const int ok = from_host == planar && from_dev == planar &&
            rel_diff (planar, ref) <= TOLERANCE;
        printf ("%-8s %4dx%-4d %-4s gpu %.10g planar %.10g cpu %.10g%s\n",
            nick, w, h, test_packed_name (fmt), from_dev, planar, ref,
            ok ? "" : "  FAIL");
        failures += !ok;
      }
      cudaFree (dev);
      cudaFree (pdev);
      test_packed422_clear (&f);
    }
  return failures;
}

/* --- timing --------------------------------------------------------- */

static int
compare_float (const void *a, const void *b)
{
  float x = *(const float *) a, y = *(const float *) b;
  return (x > y) - (x < y);
}

/* The paths the benchmark compares: the environment is read when a
 * metric's per-size state is built, so each path gets a backend of its
 * own. */
typedef struct
{
  const char *name;
  const char *no_graph;         /* SHARPNESS_CUDA_NO_GRAPH */
} BenchPath;

static const BenchPath bench_paths[] = {
  {"launches", "1"},
  {"graph", "0"},
};

#define N_BENCH_PATHS ((int) (sizeof bench_paths / sizeof bench_paths[0]))

/* Median, p10 and p90 of @metric's time per frame on @planes, in ms. */
static int
bench_one (SharpnessCuda * cuda, cudaStream_t stream, SharpnessMetric metric,
    const SharpnessPlane * planes, float out[3])
{
  float ms[BENCH_FRAMES];
  cudaEvent_t start, stop;

  if (cudaEventCreate (&start) || cudaEventCreate (&stop))
    return 1;
  for (int i = 0; i < BENCH_WARMUP + BENCH_FRAMES; i++) {
    double score;
    SharpnessStatus st = SHARPNESS_OK;
    if (cudaEventRecord (start, stream) ||
        (st = sharpness_cuda_score_device (cuda, metric,
                &planes[i % BENCH_RING], &score)) ||
        cudaEventRecord (stop, stream) || cudaEventSynchronize (stop)) {
      fprintf (stderr, "bench: %s\n", st ? sharpness_cuda_last_error (cuda)
          : cudaGetErrorString (cudaGetLastError ()));
      return 1;
    }
    if (i >= BENCH_WARMUP && cudaEventElapsedTime (&ms[i - BENCH_WARMUP],
            start, stop))
      return 1;
  }
  qsort (ms, BENCH_FRAMES, sizeof ms[0], compare_float);
  out[0] = ms[BENCH_FRAMES / 2];
  out[1] = ms[BENCH_FRAMES / 10];
  out[2] = ms[BENCH_FRAMES * 9 / 10];
  cudaEventDestroy (start);
  cudaEventDestroy (stop);
  return 0;
}

static int
bench (cudaStream_t stream)
{
  static const int sizes[][2] = {
    {1920, 1080}, {1280, 720}, {3840, 2160}, {512, 512}
  };
  struct cudaDeviceProp prop;
  int device, failures = 0;

  if (cudaGetDevice (&device) || cudaGetDeviceProperties (&prop, device))
    return 1;
  printf ("\n%s, median of %d frames after %d warm-up (CUDA events around "
      "the whole call), Y8 device planes\n\n", prop.name, BENCH_FRAMES,
      BENCH_WARMUP);
  printf ("| metric | size | path | median ms/frame | p10 | p90 | "
      "vs launches |\n");
  printf ("|---|---|---|---|---|---|---|\n");

  for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
    const int w = sizes[z][0], h = sizes[z][1];
    SharpnessPlane planes[BENCH_RING];
    void *mem[BENCH_RING];
    TestFrame f[BENCH_RING];

    for (int r = 0; r < BENCH_RING; r++) {
      uint8_t *gray = make_gray (r % 2 ? SCENE_BLURRED : SCENE_NATURAL, w,
          h, 100 + r);
      make_frame (&f[r], &test_layouts[0], gray, w, h);
      free (gray);
      if (!upload (&f[r].plane, &planes[r], &mem[r]))
        return 1;
    }
    for (int m = 0; m < N_METRICS; m++) {
      const SharpnessMetric metric = metrics[m];
      /* BLIINDS-II has one path. */
      const int n_paths = metric == SHARPNESS_METRIC_BLIINDS2 ? 1 :
          N_BENCH_PATHS;
      float before = 0.f;
      for (int p = 0; p < n_paths; p++) {
        const BenchPath *path = &bench_paths[n_paths == 1 ?
            N_BENCH_PATHS - 1 : p];
        SharpnessCuda *cuda;
        float t[3];
        setenv ("SHARPNESS_CUDA_NO_GRAPH", path->no_graph, 1);
        if (sharpness_cuda_new (stream, &cuda)) {
          fprintf (stderr, "CUDA backend: %s\n",
              sharpness_cuda_last_error (NULL));
          return 1;
        }
        if (bench_one (cuda, stream, metric, planes, t)) {
          printf ("| %s | %dx%d | %s | FAIL | | | |\n",
              sharpness_metric_get_info (metric)->nick, w, h, path->name);
          failures++;
        } else {
          char ratio[32] = "";
          if (p == 0)
            before = t[0];
          else if (before > 0.f)
            snprintf (ratio, sizeof ratio, "%.2fx", before / t[0]);
          printf ("| %s | %dx%d | %s | %.3f | %.3f | %.3f | %s |\n",
              sharpness_metric_get_info (metric)->nick, w, h,
              n_paths == 1 ? "-" : path->name, t[0], t[1], t[2], ratio);
        }
        fflush (stdout);
        sharpness_cuda_free (cuda);
      }
    }
    for (int r = 0; r < BENCH_RING; r++) {
      cudaFree (mem[r]);
      test_frame_clear (&f[r]);
    }
  }
  unsetenv ("SHARPNESS_CUDA_NO_GRAPH");
  return failures;
}

/* Two frames of each metric at 1080p, for a profiler (ncu) to look at the
 * kernels of a frame after the first (which builds the state). */
static int
profile (SharpnessCuda * cuda)
{
  uint8_t *gray = make_gray (SCENE_NATURAL, 1920, 1080, 7);
  TestFrame f;
  SharpnessPlane dev;
  void *mem = NULL;
  int failures = 0;

  make_frame (&f, &test_layouts[0], gray, 1920, 1080);
  if (!upload (&f.plane, &dev, &mem))
    return 1;
  for (int m = 0; m < N_METRICS; m++)
    for (int i = 0; i < 2; i++) {
      double score;
      if (sharpness_cuda_score_device (cuda, metrics[m], &dev, &score)) {
        fprintf (stderr, "profile: %s\n", sharpness_cuda_last_error (cuda));
        failures++;
      }
    }
  cudaFree (mem);
  test_frame_clear (&f);
  free (gray);
  return failures;
}

int
main (int argc, char **argv)
{
  int do_bench = argc > 1 && strcmp (argv[1], "--bench") == 0;
  int small_only = argc > 1 && strcmp (argv[1], "--small") == 0;
  int do_profile = argc > 1 && strcmp (argv[1], "--profile") == 0;
  cudaStream_t stream;
  SharpnessCuda *cuda;

  check_cuda_device_or_skip ();
  if (cudaStreamCreateWithFlags (&stream, cudaStreamNonBlocking) ||
      sharpness_cuda_new (stream, &cuda)) {
    fprintf (stderr, "CUDA backend: %s\n", sharpness_cuda_last_error (NULL));
    return 1;
  }

  int failures;
  if (do_bench) {
    failures = bench (stream);
  } else if (do_profile) {
    failures = profile (cuda);
  } else {
    Worst worst = { {0} };
    SharpnessCpu *cpu = sharpness_cpu_new ();
    failures = check (cuda, small_only, &worst);
    failures += check_packed (cuda, cpu);
    sharpness_cpu_free (cpu);
    for (int m = 0; m < N_METRICS; m++)
      printf ("%s: largest relative difference %.2e\n",
          sharpness_metric_get_info (metrics[m])->nick, worst.score[m]);
    printf ("LPC map: largest absolute difference %.2e\n", worst.map);
    printf ("BLIINDS-II features: largest relative difference %.2e\n",
        worst.features);
  }

  sharpness_cuda_free (cuda);
  cudaStreamDestroy (stream);
  if (failures)
    printf ("%d failure(s)\n", failures);
  return failures ? 1 : 0;
}
