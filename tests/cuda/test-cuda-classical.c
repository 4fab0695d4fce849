/* The CUDA backend's classical metrics against the CPU backend: the same
 * exact sums and the same scores, to the bit, on every layout, size and
 * kind of memory.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Usage: test-cuda-classical [--quick | --tiny] [--seed N]
 * --quick and --tiny cut the cases down for the sanitizers.
 * Frames are fresh random draws each run; the seed is printed so that a
 * failure can be replayed.  Exits 77 without a CUDA device.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cuda_runtime.h>

#include "cuda-frames.h"
#include "sharpness-cpu.h"
#include "sharpness-cuda.h"

typedef enum
{
  MEM_DEVICE_PITCHED,           /* cudaMallocPitch: the kernels' fast path */
  MEM_DEVICE_ALIGNED,           /* 16-byte rows, allocation to the last byte */
  MEM_DEVICE_ODD,               /* host stride, maybe odd base: generic path */
  MEM_HOST_PAGEABLE,
  MEM_HOST_PINNED,
  MEM_COUNT
} MemKind;

static const char *const mem_names[MEM_COUNT] = {
  "device-pitched", "device-aligned", "device-odd", "host-pageable",
  "host-pinned"
};

static SharpnessCpu *cpu;
static SharpnessCuda *cuda;
static FrameRng rng;
static int checks, failures;

#define CHECK_CUDA(call) do { \
  cudaError_t err_ = (call); \
  if (err_ != cudaSuccess) { \
    fprintf (stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, \
        cudaGetErrorString (err_)); \
    exit (1); \
  } \
} while (0)

static void
fail (const char *fmt, const char *what, const FrameLayout * layout, int w,
    int h, size_t stride, FrameContent content, SharpnessMetric metric,
    MemKind mem)
{
  failures++;
  if (failures > 50)
    return;
  fprintf (stderr, "FAIL %s: %s %dx%d stride %zu %s %s %s",
      what, layout->name, w, h, stride, frame_content_name (content),
      sharpness_metric_info[metric].nick, mem_names[mem]);
  if (fmt)
    fprintf (stderr, " (%s)", fmt);
  fputc ('\n', stderr);
}

static int
sums_equal (SharpnessMetric metric, const SharpnessSums * a,
    const SharpnessSums * b)
{
  if (metric == SHARPNESS_METRIC_ENTROPY)
    return memcmp (a->hist, b->hist, sizeof a->hist) == 0;
  return a->sum == b->sum && a->sum_sq == b->sum_sq;
}

static const char *
describe_sums (SharpnessMetric metric, const SharpnessSums * gpu,
    const SharpnessSums * ref)
{
  static char buf[160];
  if (metric == SHARPNESS_METRIC_ENTROPY) {
    for (int k = 0; k < 256; k++)
      if (gpu->hist[k] != ref->hist[k]) {
        snprintf (buf, sizeof buf, "hist[%d] %" PRIu64 " != %" PRIu64, k,
            gpu->hist[k], ref->hist[k]);
        return buf;
      }
  }
  snprintf (buf, sizeof buf, "sum %" PRIu64 "/%" PRIu64 " sum_sq %" PRIu64
      "/%" PRIu64, gpu->sum, ref->sum, gpu->sum_sq, ref->sum_sq);
  return buf;
}

/* Puts the host frame where @mem says; returns the plane the backend gets
 * and what to free afterwards. */
static SharpnessPlane
place (MemKind mem, const FrameLayout * layout, const uint8_t * host,
    size_t stride, int w, int h, int variant, void **to_free)
{
  const size_t row = frame_row_bytes (layout, w);
  const size_t extent = frame_plane_extent (layout, stride, w, h);
  uint8_t *dev;
  size_t pitch;

  *to_free = NULL;
  switch (mem) {
    case MEM_DEVICE_PITCHED:
      CHECK_CUDA (cudaMallocPitch ((void **) &dev, &pitch, row, h));
      CHECK_CUDA (cudaMemcpy2D (dev, pitch, host, stride, row, h,
              cudaMemcpyHostToDevice));
      *to_free = dev;
      return frame_plane (layout, dev, pitch, w, h);
    case MEM_DEVICE_ALIGNED:
      pitch = ((row + 15) & ~(size_t) 15) + 16 * (variant & 1);
      CHECK_CUDA (cudaMalloc ((void **) &dev,
              frame_plane_extent (layout, pitch, w, h)));
      CHECK_CUDA (cudaMemcpy2D (dev, pitch, host, stride, row, h,
              cudaMemcpyHostToDevice));
      *to_free = dev;
      return frame_plane (layout, dev, pitch, w, h);
    case MEM_DEVICE_ODD:{
      const size_t offset = (variant & 1) ? 3 : 0;
      CHECK_CUDA (cudaMalloc ((void **) &dev, extent + offset));
      CHECK_CUDA (cudaMemcpy (dev + offset, host, extent,
              cudaMemcpyHostToDevice));
      *to_free = dev;
      return frame_plane (layout, dev + offset, stride, w, h);
    }
    case MEM_HOST_PINNED:{
      uint8_t *pinned = sharpness_cuda_host_alloc (extent);
      if (!pinned) {
        fprintf (stderr, "sharpness_cuda_host_alloc (%zu) failed\n", extent);
        exit (1);
      }
      memcpy (pinned, host, extent);
      *to_free = pinned;
      return frame_plane (layout, pinned, stride, w, h);
    }
    case MEM_HOST_PAGEABLE:
    default:
      return frame_plane (layout, host, stride, w, h);
  }
}

static void
release (MemKind mem, void *ptr)
{
  if (!ptr)
    return;
  if (mem == MEM_HOST_PINNED)
    sharpness_cuda_host_free (ptr);
  else
    CHECK_CUDA (cudaFree (ptr));
}

/* One frame: CPU sums and score once per metric, then every memory kind. */
static void
check_frame (const FrameLayout * layout, int w, int h, size_t pad,
    FrameContent content, int variant)
{
  const size_t stride = frame_row_bytes (layout, w) + pad;
  const size_t extent = frame_plane_extent (layout, stride, w, h);
  uint8_t *host = malloc (extent);
  if (!host) {
    fprintf (stderr, "out of memory\n");
    exit (1);
  }
  frame_fill (host, stride, layout, w, h, content, &rng);
  const SharpnessPlane hplane = frame_plane (layout, host, stride, w, h);

  SharpnessSums ref[SHARPNESS_METRIC_COUNT];
  double ref_score[SHARPNESS_METRIC_COUNT];
  for (int m = 0; m < SHARPNESS_METRIC_COUNT; m++) {
    if (sharpness_metric_info[m].kind != SHARPNESS_KIND_SUMS)
      continue;
    if (sharpness_cpu_sums (cpu, m, &hplane, &ref[m]) != SHARPNESS_OK ||
        sharpness_cpu_score (cpu, m, &hplane, &ref_score[m]) != SHARPNESS_OK) {
      fail ("CPU backend failed", "cpu", layout, w, h, stride, content, m,
          MEM_HOST_PAGEABLE);
      free (host);
      return;
    }
  }

  for (int mem = 0; mem < MEM_COUNT; mem++) {
    void *to_free;
    const SharpnessPlane plane = place (mem, layout, host, stride, w, h,
        variant, &to_free);
    const int on_host = mem == MEM_HOST_PAGEABLE || mem == MEM_HOST_PINNED;

    for (int m = 0; m < SHARPNESS_METRIC_COUNT; m++) {
      if (sharpness_metric_info[m].kind != SHARPNESS_KIND_SUMS)
        continue;
      SharpnessSums sums;
      double score;
      memset (&sums, 0xa5, sizeof sums);
      SharpnessStatus st = on_host ?
          sharpness_cuda_sums_host (cuda, m, &plane, &sums) :
          sharpness_cuda_sums_device (cuda, m, &plane, &sums);
      checks++;
      if (st != SHARPNESS_OK) {
        fail (sharpness_cuda_last_error (cuda), "sums status", layout, w, h,
            plane.stride, content, m, mem);
        continue;
      }
      if (!sums_equal (m, &sums, &ref[m]))
        fail (describe_sums (m, &sums, &ref[m]), "sums", layout, w, h,
            plane.stride, content, m, mem);

      score = -1.0;
      st = on_host ? sharpness_cuda_score_host (cuda, m, &plane, &score) :
          sharpness_cuda_score_device (cuda, m, &plane, &score);
      checks++;
      if (st != SHARPNESS_OK) {
        fail (sharpness_cuda_last_error (cuda), "score status", layout, w, h,
            plane.stride, content, m, mem);
      } else if (memcmp (&score, &ref_score[m], sizeof score) != 0) {
        char buf[96];
        snprintf (buf, sizeof buf, "%.17g != %.17g", score, ref_score[m]);
        fail (buf, "score", layout, w, h, plane.stride, content, m, mem);
      }
    }
    release (mem, to_free);
  }
  free (host);
}

/* The accumulators are reset by the kernel itself: frames in a row, other
 * metrics in between, must not leak into each other. */
static void
check_frames_in_a_row (void)
{
  const FrameLayout *layout = frame_layout_find ("GRAY8");
  const int w = 1920, h = 1080;
  const size_t stride = 1920;
  uint8_t *a = malloc (stride * h), *b = malloc (stride * h);
  if (!a || !b) {
    fprintf (stderr, "out of memory\n");
    exit (1);
  }
  frame_fill (a, stride, layout, w, h, FRAME_NATURAL, &rng);
  frame_fill (b, stride, layout, w, h, FRAME_RANDOM, &rng);
  const SharpnessPlane pa = frame_plane (layout, a, stride, w, h);
  const SharpnessPlane pb = frame_plane (layout, b, stride, w, h);

  for (int m = 0; m < SHARPNESS_METRIC_COUNT; m++) {
    if (sharpness_metric_info[m].kind != SHARPNESS_KIND_SUMS)
      continue;
    SharpnessSums ref_a, ref_b, s[4];
    if (sharpness_cpu_sums (cpu, m, &pa, &ref_a) != SHARPNESS_OK ||
        sharpness_cpu_sums (cpu, m, &pb, &ref_b) != SHARPNESS_OK) {
      fail ("CPU backend failed", "in a row", layout, w, h, stride,
          FRAME_NATURAL, m, MEM_HOST_PAGEABLE);
      continue;
    }
    /* a, a, b, a: repeats equal, each equal to the CPU. */
    const SharpnessPlane *order[4] = { &pa, &pa, &pb, &pa };
    const SharpnessSums *want[4] = { &ref_a, &ref_a, &ref_b, &ref_a };
    for (int i = 0; i < 4; i++) {
      checks++;
      if (sharpness_cuda_sums_host (cuda, m, order[i], &s[i]) != SHARPNESS_OK)
        fail (sharpness_cuda_last_error (cuda), "in a row status", layout, w,
            h, stride, FRAME_NATURAL, m, MEM_HOST_PAGEABLE);
      else if (!sums_equal (m, &s[i], want[i]))
        fail (describe_sums (m, &s[i], want[i]), "in a row", layout, w, h,
            stride, i == 2 ? FRAME_RANDOM : FRAME_NATURAL, m,
            MEM_HOST_PAGEABLE);
    }
  }
  free (a);
  free (b);
}

static void
expect_status (SharpnessStatus got, SharpnessStatus want, const char *what)
{
  checks++;
  if (got != want) {
    failures++;
    fprintf (stderr, "FAIL %s: status %s, expected %s\n", what,
        sharpness_status_to_string (got), sharpness_status_to_string (want));
  }
}

static void
check_arguments (void)
{
  uint8_t byte = 0;
  SharpnessPlane p = frame_plane (frame_layout_find ("GRAY8"), &byte, 1, 1, 1);
  SharpnessSums sums;
  double score;

  expect_status (sharpness_cuda_sums_host (cuda, SHARPNESS_METRIC_VARIANCE,
          NULL, &sums), SHARPNESS_ERROR_INVALID, "NULL plane");
  expect_status (sharpness_cuda_sums_host (cuda, SHARPNESS_METRIC_COUNT, &p,
          &sums), SHARPNESS_ERROR_INVALID, "metric out of range");
  expect_status (sharpness_cuda_score_host (NULL, SHARPNESS_METRIC_VARIANCE,
          &p, &score), SHARPNESS_ERROR_INVALID, "NULL backend");
  expect_status (sharpness_cuda_sums_host (cuda, SHARPNESS_METRIC_LPC_SI, &p,
          &sums), SHARPNESS_ERROR_UNSUPPORTED, "sums of a float metric");
  p.width = 0;
  expect_status (sharpness_cuda_sums_host (cuda, SHARPNESS_METRIC_VARIANCE,
          &p, &sums), SHARPNESS_ERROR_INVALID, "zero width");
  p.width = 4;
  p.height = 2;
  p.stride = 3;
  expect_status (sharpness_cuda_sums_device (cuda, SHARPNESS_METRIC_VARIANCE,
          &p, &sums), SHARPNESS_ERROR_INVALID, "stride below the row");
}

int
main (int argc, char **argv)
{
  int quick = 0, tiny = 0;
  uint64_t seed = (uint64_t) time (NULL) ^ ((uint64_t) clock () << 32);
  const char *why = NULL;

  for (int i = 1; i < argc; i++) {
    if (strcmp (argv[i], "--quick") == 0)
      quick = 1;
    else if (strcmp (argv[i], "--tiny") == 0)
      quick = tiny = 1;
    else if (strcmp (argv[i], "--seed") == 0 && i + 1 < argc)
      seed = strtoull (argv[++i], NULL, 0);
    else {
      fprintf (stderr, "usage: %s [--quick | --tiny] [--seed N]\n", argv[0]);
      return 2;
    }
  }

  if (sharpness_cuda_device_count (&why) < 1) {
    printf ("skipped: no CUDA device (%s)\n", why ? why : "none");
    return 77;
  }

  struct cudaDeviceProp prop;
  cudaStream_t stream;
  CHECK_CUDA (cudaSetDevice (0));
  CHECK_CUDA (cudaGetDeviceProperties (&prop, 0));
  CHECK_CUDA (cudaStreamCreate (&stream));
  printf ("device: %s, seed: %" PRIu64 "%s\n", prop.name, seed,
      tiny ? ", tiny" : quick ? ", quick" : "");
  frame_rng_seed (&rng, seed);

  cpu = sharpness_cpu_new ();
  if (!cpu || sharpness_cuda_new (stream, &cuda) != SHARPNESS_OK) {
    fprintf (stderr, "backend creation failed: %s\n",
        sharpness_cuda_last_error (NULL));
    return 1;
  }

  check_arguments ();

  static const struct
  {
    int w, h;
  } small[] = {
    {1, 1}, {2, 2}, {3, 3}, {7, 5}, {5, 1}, {1, 6}, {31, 17}, {33, 33},
    {47, 9}, {129, 3},
  };
  static const size_t pads[] = { 0, 13, 64 };
  int variant = 0;

  /* Small frames: every layout, content and stride (--quick: fewer). */
  for (size_t s = 0; s < sizeof small / sizeof small[0]; s++)
    for (int l = 0; l < frame_layout_count; l++) {
      if (tiny && (l % 3 != 0 || s % 3 != 2))
        continue;
      for (int c = FRAME_RANDOM; c <= (quick ? FRAME_RANDOM : FRAME_EXTREME);
          c++)
        for (size_t p = quick ? 1 : 0; p < (quick ? 2 : 3); p++)
          check_frame (&frame_layouts[l], small[s].w, small[s].h, pads[p], c,
              variant++);
    }

  /* Video sizes: every layout on random and natural content. */
  static const struct
  {
    int w, h;
  } video[] = {
    {1279, 719}, {1920, 1080}, {3840, 2160},
  };
  const int nvideo = quick ? 1 : 3;
  for (int s = 0; s < nvideo; s++)
    for (int l = 0; l < frame_layout_count; l++)
      for (int c = FRAME_RANDOM; c <= FRAME_NATURAL; c++) {
        if ((quick && l % 3 != 0) || (tiny && (l != 0 || c != FRAME_NATURAL)))
          continue;
        check_frame (&frame_layouts[l], video[s].w, video[s].h,
            variant % 2 ? 64 : 0, c, variant);
        variant++;
      }

  if (!quick) {
    /* Largest terms everywhere: the 32-bit band sums must not wrap. */
    static const char *const extreme[] = { "GRAY8", "P010_10LE", "RGBx" };
    for (int l = 0; l < 3; l++)
      check_frame (frame_layout_find (extreme[l]), 1920, 1080, 0,
          FRAME_EXTREME, variant++);

    /* 8K on the three sample kinds. */
    static const char *const big[] = { "GRAY8", "P010_10LE", "BGRA", "RGB" };
    for (int l = 0; l < 4; l++)
      check_frame (frame_layout_find (big[l]), 7680, 4320, 0, FRAME_NATURAL,
          variant++);
  }

  check_frames_in_a_row ();

  sharpness_cuda_free (cuda);
  sharpness_cpu_free (cpu);
  CHECK_CUDA (cudaStreamDestroy (stream));

  printf ("%d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
