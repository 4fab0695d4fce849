/* The CUDA backend's classical metrics against the CPU backend: the same
 * exact sums and the same scores, to the bit, on every layout, size and
 * kind of memory.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Tiles and batches (docs/reference/tiles.md): sharpness_cuda_sums_tiles and
 * sharpness_cuda_sums_batch against the CPU's tiled pass and batch, tile
 * for tile, on random and natural frames, odd sizes, grids finer than the
 * frame, the ROIs of a frame (misaligned rectangles of an aligned plane)
 * and batches of frames of several layouts.
 *
 * Capture-card formats (UYVY, YUY2, v210) run through all of the above as
 * layouts of their own (tests/cuda/cuda-frames.c), and against their
 * planar conversion: the GPU's sums of a packed frame in every kind of
 * memory, its tiles and ROIs, equal the CPU's of the same luma as the Y
 * plane of I422 / I422_10LE (tests/common/test-packed422.h).
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

#include "check-cuda.h"
#include "cuda-frames.h"
#include "sharpness-cpu.h"
#include "sharpness-cuda.h"
#include "test-packed422.h"
#include "test-rng.h"
#include "test-sums.h"

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
static TestRng trng;
static int checks, failures;

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
  if (metric == SHARPNESS_METRIC_BLUR_EFFECT) {
    snprintf (buf, sizeof buf, "M1 %" PRIu64 "/%" PRIu64 " %" PRIu64 "/%"
        PRIu64 " M2 %" PRIu64 "/%" PRIu64 " %" PRIu64 "/%" PRIu64,
        gpu->blur_m1[0], ref->blur_m1[0], gpu->blur_m1[1], ref->blur_m1[1],
        gpu->blur_m2[0], ref->blur_m2[0], gpu->blur_m2[1], ref->blur_m2[1]);
    return buf;
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
      if (!test_sums_equal (m, &sums, &ref[m]))
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
 * metrics in between, must not leak into each other.  With @pinned the
 * frames take the overlapped upload (cuda/band-upload.cu), whose band flag
 * carries over from frame to frame. */
static void
check_frames_in_a_row (int pinned)
{
  const FrameLayout *layout = frame_layout_find ("GRAY8");
  const int w = 1920, h = 1080;
  const size_t stride = 1920;
  const int mem = pinned ? MEM_HOST_PINNED : MEM_HOST_PAGEABLE;
  uint8_t *a = pinned ? sharpness_cuda_host_alloc (stride * h) :
      malloc (stride * h);
  uint8_t *b = pinned ? sharpness_cuda_host_alloc (stride * h) :
      malloc (stride * h);
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
          FRAME_NATURAL, m, mem);
      continue;
    }
    /* a, a, b, a: repeats equal, each equal to the CPU. */
    const SharpnessPlane *order[4] = { &pa, &pa, &pb, &pa };
    const SharpnessSums *want[4] = { &ref_a, &ref_a, &ref_b, &ref_a };
    for (int i = 0; i < 4; i++) {
      checks++;
      if (sharpness_cuda_sums_host (cuda, m, order[i], &s[i]) != SHARPNESS_OK)
        fail (sharpness_cuda_last_error (cuda), "in a row status", layout, w,
            h, stride, FRAME_NATURAL, m, mem);
      else if (!test_sums_equal (m, &s[i], want[i]))
        fail (describe_sums (m, &s[i], want[i]), "in a row", layout, w, h,
            stride, i == 2 ? FRAME_RANDOM : FRAME_NATURAL, m,
            mem);
    }
  }
  if (pinned) {
    sharpness_cuda_host_free (a);
    sharpness_cuda_host_free (b);
  } else {
    free (a);
    free (b);
  }
}

/* ---- tiles and batches ---- */

static void
tile_fail (const char *what, const FrameLayout * layout, int w, int h,
    int cols, int rows, SharpnessMetric m, const char *detail)
{
  failures++;
  if (failures <= 50)
    fprintf (stderr, "FAIL %s: %s %dx%d tiles %dx%d %s%s%s\n", what,
        layout->name, w, h, cols, rows, sharpness_metric_info[m].nick,
        detail ? ": " : "", detail ? detail : "");
}

/* One frame in @mem, every classical metric on each grid: GPU tiles (and
 * the frame's sums of the same launch) against the CPU's. */
static void
check_tiles (const FrameLayout * layout, int w, int h, FrameContent content,
    MemKind mem, const int (*grids)[2], int ngrids, int variant)
{
  const size_t stride = frame_row_bytes (layout, w) + (variant % 3) * 7;
  const size_t extent = frame_plane_extent (layout, stride, w, h);
  uint8_t *host = malloc (extent);
  if (!host)
    exit (1);
  frame_fill (host, stride, layout, w, h, content, &rng);
  const SharpnessPlane hplane = frame_plane (layout, host, stride, w, h);
  void *to_free;
  const SharpnessPlane plane = place (mem, layout, host, stride, w, h,
      variant, &to_free);

  for (int g = 0; g < ngrids; g++)
    for (int m = 0; m < SHARPNESS_METRIC_COUNT; m++) {
      if (!sharpness_metric_has_tiles (m))
        continue;
      const int cols = grids[g][0], rows = grids[g][1];
      SharpnessTileSums ct, gt;
      SharpnessSums cs, gs, plain;
      if (sharpness_tile_sums_init (&ct, m, cols, rows) != SHARPNESS_OK ||
          sharpness_tile_sums_init (&gt, m, cols, rows) != SHARPNESS_OK)
        exit (1);
      checks++;
      if (sharpness_cpu_sums_tiles (cpu, m, &hplane, &cs, &ct) !=
          SHARPNESS_OK) {
        tile_fail ("cpu tiles", layout, w, h, cols, rows, m, NULL);
      } else {
        SharpnessPlane dev = plane;
        SharpnessStatus st = mem == MEM_HOST_PAGEABLE ||
            mem == MEM_HOST_PINNED ?
            sharpness_cuda_stage_host (cuda, &plane, &dev) : SHARPNESS_OK;
        if (st == SHARPNESS_OK)
          st = sharpness_cuda_sums_tiles (cuda, m, &dev, &gs, &gt);
        if (st != SHARPNESS_OK)
          tile_fail ("gpu tiles status", layout, w, h, cols, rows, m,
              sharpness_cuda_last_error (cuda));
        else if (!test_tile_sums_equal (m, &gt, &ct))
          tile_fail ("gpu tiles", layout, w, h, cols, rows, m,
              mem_names[mem]);
        else if (!test_sums_equal (m, &gs, &cs))
          tile_fail ("gpu tiled frame sums", layout, w, h, cols, rows, m,
              describe_sums (m, &gs, &cs));
        /* The plain kernel right after: accumulators reset, same sums. */
        checks++;
        if (st == SHARPNESS_OK && (sharpness_cuda_sums_device (cuda, m, &dev,
                    &plain) != SHARPNESS_OK ||
                !test_sums_equal (m, &plain, &cs)))
          tile_fail ("plain after tiles", layout, w, h, cols, rows, m,
              mem_names[mem]);
      }
      sharpness_tile_sums_clear (&ct);
      sharpness_tile_sums_clear (&gt);
    }
  release (mem, to_free);
  free (host);
}

/* Random rectangles of a @w x @h plane: the whole plane, corners, single
 * pixels, thin strips, boxes at every alignment. */
static SharpnessRect
random_rect (int i, int w, int h)
{
  SharpnessRect r = { 0, 0, 0, 0 };
  if (i == 0)
    return r;
  r.width = 1 + (int) (frame_rng_next (&rng) % (i % 4 == 1 ? 3 : w));
  r.height = 1 + (int) (frame_rng_next (&rng) % (i % 4 == 2 ? 3 : h));
  r.x = (int) (frame_rng_next (&rng) % (w - r.width + 1));
  r.y = (int) (frame_rng_next (&rng) % (h - r.height + 1));
  if (i % 5 == 0)
    r.x = w - r.width;
  if (i % 7 == 0)
    r.y = h - r.height;
  return r;
}

/* The frame and @nroi ROIs of one device frame in one batch (some with
 * tiles), against the CPU batch; each ROI also against the plain kernel on
 * the cropped plane (the generic path: its data is misaligned). */
static void
check_rois (const FrameLayout * layout, int w, int h, FrameContent content,
    int nroi)
{
  enum { MAX_REGIONS = 40 };
  const size_t stride = frame_row_bytes (layout, w);
  uint8_t *host = malloc (frame_plane_extent (layout, stride, w, h));
  SharpnessRegion hr[MAX_REGIONS], gr[MAX_REGIONS];
  SharpnessTileSums ht[MAX_REGIONS], gt[MAX_REGIONS];
  SharpnessSums hs[MAX_REGIONS], gs[MAX_REGIONS];
  void *to_free;

  if (!host || nroi + 1 > MAX_REGIONS)
    exit (1);
  frame_fill (host, stride, layout, w, h, content, &rng);
  const SharpnessPlane hplane = frame_plane (layout, host, stride, w, h);
  const SharpnessPlane dplane = place (MEM_DEVICE_PITCHED, layout, host,
      stride, w, h, 0, &to_free);

  for (int m = 0; m < SHARPNESS_METRIC_COUNT; m++) {
    if (!sharpness_metric_has_tiles (m))
      continue;
    const int n = nroi + 1;
    for (int i = 0; i < n; i++) {
      const SharpnessRect r = random_rect (i, w, h);
      hr[i] = (SharpnessRegion) {
      hplane, r, NULL};
      gr[i] = (SharpnessRegion) {
      dplane, r, NULL};
      if (i % 3 == 1) {
        const int cols = 1 + (int) (frame_rng_next (&rng) % 9);
        const int rows = 1 + (int) (frame_rng_next (&rng) % 5);
        sharpness_tile_sums_init (&ht[i], m, cols, rows);
        sharpness_tile_sums_init (&gt[i], m, cols, rows);
        hr[i].tiles = &ht[i];
        gr[i].tiles = &gt[i];
      }
    }
    checks++;
    if (sharpness_cpu_sums_batch (cpu, m, hr, n, hs) != SHARPNESS_OK) {
      tile_fail ("cpu batch", layout, w, h, 0, 0, m, NULL);
    } else if (sharpness_cuda_sums_batch (cuda, m, gr, n, gs) !=
        SHARPNESS_OK) {
      tile_fail ("gpu batch status", layout, w, h, 0, 0, m,
          sharpness_cuda_last_error (cuda));
    } else {
      for (int i = 0; i < n; i++) {
        char detail[96];
        snprintf (detail, sizeof detail, "region %d (%d,%d %dx%d)", i,
            gr[i].rect.x, gr[i].rect.y, gr[i].rect.width,
            gr[i].rect.height);
        checks++;
        if (!test_sums_equal (m, &gs[i], &hs[i]))
          tile_fail ("gpu batch sums", layout, w, h, 0, 0, m, detail);
        if (gr[i].tiles && !test_tile_sums_equal (m, &gt[i], &ht[i]))
          tile_fail ("gpu batch tiles", layout, w, h, gt[i].cols, gt[i].rows,
              m, detail);
        SharpnessPlane crop;
        SharpnessSums alone;
        sharpness_plane_crop (&dplane, &gr[i].rect, &crop);
        checks++;
        if (sharpness_cuda_sums_device (cuda, m, &crop, &alone) !=
            SHARPNESS_OK || !test_sums_equal (m, &alone, &gs[i]))
          tile_fail ("gpu batch vs the crop alone", layout, w, h, 0, 0, m,
              detail);
      }
    }
    for (int i = 0; i < n; i++)
      if (hr[i].tiles) {
        sharpness_tile_sums_clear (&ht[i]);
        sharpness_tile_sums_clear (&gt[i]);
      }
  }
  release (MEM_DEVICE_PITCHED, to_free);
  free (host);
}

/* K whole frames of several sizes and layouts in one call (one launch per
 * layout variant): each equal to its own single launch and to the CPU. */
static void
check_frame_batch (int k, int w, int h)
{
  enum { MAX_K = 64 };
  SharpnessRegion regions[MAX_K];
  SharpnessSums got[MAX_K], want;
  void *to_free[MAX_K];
  uint8_t *host[MAX_K];

  if (k > MAX_K)
    exit (1);
  for (int i = 0; i < k; i++) {
    const FrameLayout *layout = &frame_layouts[i % 4 == 3 ?
        i % frame_layout_count : 0];
    const int fw = w - (i % 5) * 3, fh = h - (i % 3);
    const size_t stride = frame_row_bytes (layout, fw);
    host[i] = malloc (frame_plane_extent (layout, stride, fw, fh));
    if (!host[i])
      exit (1);
    frame_fill (host[i], stride, layout, fw, fh, i % 2 ? FRAME_NATURAL :
        FRAME_RANDOM, &rng);
    memset (&regions[i], 0, sizeof regions[i]);
    regions[i].plane = place (i % 7 == 6 ? MEM_DEVICE_ODD :
        MEM_DEVICE_PITCHED, layout, host[i], stride, fw, fh, i, &to_free[i]);
  }
  for (int m = 0; m < SHARPNESS_METRIC_COUNT; m++) {
    if (!sharpness_metric_has_tiles (m))
      continue;
    checks++;
    if (sharpness_cuda_sums_batch (cuda, m, regions, k, got) !=
        SHARPNESS_OK) {
      tile_fail ("frame batch status", &frame_layouts[0], w, h, 0, 0, m,
          sharpness_cuda_last_error (cuda));
      continue;
    }
    for (int i = 0; i < k; i++) {
      checks++;
      if (sharpness_cuda_sums_device (cuda, m, &regions[i].plane, &want) !=
          SHARPNESS_OK || !test_sums_equal (m, &got[i], &want)) {
        char detail[32];
        snprintf (detail, sizeof detail, "frame %d of %d", i, k);
        tile_fail ("frame batch", &frame_layouts[0], w, h, 0, 0, m, detail);
      }
    }
  }
  for (int i = 0; i < k; i++) {
    release (i % 7 == 6 ? MEM_DEVICE_ODD : MEM_DEVICE_PITCHED, to_free[i]);
    free (host[i]);
  }
}

static void
check_tiles_and_batches (int quick)
{
  static const int grids[][2] = {
    {1, 1}, {8, 4}, {64, 64}, {7, 5}, {13, 1}, {1, 64}, {3, 3},
  };
  static const struct
  {
    int w, h;
  } sizes[] = {
    {1, 1}, {3, 3}, {7, 5}, {31, 17}, {100, 71}, {513, 67}, {1279, 719},
    {1920, 1080},
  };
  const int ngrids = sizeof grids / sizeof grids[0];
  int variant = 0;

  for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
    for (int l = 0; l < frame_layout_count; l++) {
      if (quick && l % 4 != 0)
        continue;
      for (int mem = 0; mem < MEM_COUNT; mem++) {
        if (mem != MEM_DEVICE_PITCHED && (l + s + mem) % 4 != 0)
          continue;
        check_tiles (&frame_layouts[l], sizes[s].w, sizes[s].h,
            (variant & 1) ? FRAME_NATURAL : FRAME_RANDOM, mem, grids, ngrids,
            variant);
        variant++;
      }
    }
  /* One-pixel tiles. */
  static const int pixel_grid[][2] = { {7, 5} };
  check_tiles (&frame_layouts[0], 7, 5, FRAME_RANDOM, MEM_DEVICE_PITCHED,
      pixel_grid, 1, 0);

  for (int l = 0; l < frame_layout_count; l++) {
    if (quick && l % 4 != 0)
      continue;
    check_rois (&frame_layouts[l], 1920, 1080, FRAME_NATURAL, 16);
    check_rois (&frame_layouts[l], 97, 61, FRAME_RANDOM, 24);
  }
  check_frame_batch (1, 1920, 1080);
  check_frame_batch (8, 1920, 1080);
  if (!quick) {
    check_frame_batch (32, 1920, 1080);
    check_frame_batch (64, 640, 360);
  }
}

/* ---- capture-card formats against their planar conversion ---- */

static void
packed_fail (const TestPacked422 * f, TestLumaContent c, const char *mem,
    SharpnessMetric m, const char *what, const char *detail)
{
  failures++;
  if (failures <= 50)
    fprintf (stderr, "FAIL %s: %s %dx%d stride %zu %s %s %s%s%s\n", what,
        test_packed_name (f->format), f->width, f->height, f->stride,
        test_luma_name (c), mem, sharpness_metric_info[m].nick,
        detail ? ": " : "", detail ? detail : "");
}

/* The packed frame @f in each kind of memory, every classical metric's
 * sums and score through the device or host entry point; on the device
 * copy, tiles and a batch of ROIs (left edges on every pixel of a v210
 * group); all against the CPU backend on the planar Y plane. */
static void
check_packed_planar (TestPackedFormat format, int w, int h, size_t pad,
    TestLumaContent c)
{
  enum { N_MEM = 4, N_ROI = 9 };
  static const char *const mem_name[N_MEM] = {
    "device-pitched", "device-odd", "host-pageable", "host-pinned"
  };
  TestPacked422 f;

  test_packed422_init (&f, format, w, h, pad, &trng);
  test_packed422_fill (&f, c, &trng);
  const SharpnessPlane planar = test_packed422_planar_plane (&f,
      f.planar_mem);
  const size_t row = test_packed_row_bytes (format, w);

  SharpnessSums ref[SHARPNESS_METRIC_COUNT];
  double ref_score[SHARPNESS_METRIC_COUNT];
  for (int m = 0; m < SHARPNESS_METRIC_COUNT; m++) {
    if (sharpness_metric_info[m].kind != SHARPNESS_KIND_SUMS)
      continue;
    if (sharpness_cpu_sums (cpu, m, &planar, &ref[m]) != SHARPNESS_OK ||
        sharpness_cpu_score (cpu, m, &planar, &ref_score[m]) != SHARPNESS_OK)
      packed_fail (&f, c, "cpu", m, "planar reference", NULL);
  }

  /* Device copies: pitched (the fast kernels, UYVY's luma at byte 1 of
   * aligned rows), and at an odd address with the host stride (generic). */
  uint8_t *pitched, *odd, *pinned;
  size_t pitch;
  CHECK_CUDA (cudaMallocPitch ((void **) &pitched, &pitch, row, h));
  CHECK_CUDA (cudaMemcpy2D (pitched, pitch, f.mem, f.stride, row, h,
          cudaMemcpyHostToDevice));
  CHECK_CUDA (cudaMalloc ((void **) &odd, f.size + 3));
  CHECK_CUDA (cudaMemcpy (odd + 3, f.mem, f.size, cudaMemcpyHostToDevice));
  pinned = sharpness_cuda_host_alloc (f.size);
  if (!pinned) {
    fprintf (stderr, "sharpness_cuda_host_alloc (%zu) failed\n", f.size);
    exit (1);
  }
  memcpy (pinned, f.mem, f.size);

  SharpnessPlane planes[N_MEM] = {
    test_packed422_plane (&f, pitched),
    test_packed422_plane (&f, odd + 3),
    test_packed422_plane (&f, f.mem),
    test_packed422_plane (&f, pinned),
  };
  planes[0].stride = pitch;

  for (int k = 0; k < N_MEM; k++)
    for (int m = 0; m < SHARPNESS_METRIC_COUNT; m++) {
      if (sharpness_metric_info[m].kind != SHARPNESS_KIND_SUMS)
        continue;
      const int on_host = k >= 2;
      SharpnessSums sums;
      double score = -1.0;
      memset (&sums, 0xa5, sizeof sums);
      SharpnessStatus st = on_host ?
          sharpness_cuda_sums_host (cuda, m, &planes[k], &sums) :
          sharpness_cuda_sums_device (cuda, m, &planes[k], &sums);
      checks++;
      if (st != SHARPNESS_OK)
        packed_fail (&f, c, mem_name[k], m, "sums status",
            sharpness_cuda_last_error (cuda));
      else if (!test_sums_equal (m, &sums, &ref[m]))
        packed_fail (&f, c, mem_name[k], m, "sums",
            describe_sums (m, &sums, &ref[m]));
      st = on_host ? sharpness_cuda_score_host (cuda, m, &planes[k], &score) :
          sharpness_cuda_score_device (cuda, m, &planes[k], &score);
      checks++;
      if (st != SHARPNESS_OK || memcmp (&score, &ref_score[m], sizeof score))
        packed_fail (&f, c, mem_name[k], m, "score",
            st != SHARPNESS_OK ? sharpness_cuda_last_error (cuda) : NULL);
    }

  /* Tiles and ROIs of the pitched copy. */
  static const int grids[][2] = { {1, 1}, {8, 4}, {7, 5}, {64, 3} };
  for (int m = 0; m < SHARPNESS_METRIC_COUNT; m++) {
    if (!sharpness_metric_has_tiles (m))
      continue;
    for (size_t g = 0; g < sizeof grids / sizeof grids[0]; g++) {
      SharpnessTileSums ct, gt;
      SharpnessSums cs, gs;
      if (sharpness_tile_sums_init (&ct, m, grids[g][0], grids[g][1]) ||
          sharpness_tile_sums_init (&gt, m, grids[g][0], grids[g][1]))
        exit (1);
      checks++;
      if (sharpness_cpu_sums_tiles (cpu, m, &planar, &cs, &ct) !=
          SHARPNESS_OK ||
          sharpness_cuda_sums_tiles (cuda, m, &planes[0], &gs, &gt) !=
          SHARPNESS_OK)
        packed_fail (&f, c, "device-pitched", m, "tiles status",
            sharpness_cuda_last_error (cuda));
      else if (!test_tile_sums_equal (m, &gt, &ct) ||
          !test_sums_equal (m, &gs, &cs))
        packed_fail (&f, c, "device-pitched", m, "tiles", NULL);
      sharpness_tile_sums_clear (&ct);
      sharpness_tile_sums_clear (&gt);
    }

    SharpnessRegion hr[N_ROI], gr[N_ROI];
    SharpnessTileSums ht[N_ROI], gt[N_ROI];
    SharpnessSums hs[N_ROI], gs[N_ROI];
    for (int i = 0; i < N_ROI; i++) {
      SharpnessRect r = { 0, 0, 0, 0 };
      if (i > 0) {
        r.x = (i % 6 + 6 * test_rng_range (&trng, 0, w / 6)) % w;
        r.y = test_rng_range (&trng, 0, h - 1);
        r.width = test_rng_range (&trng, 1, w - r.x);
        r.height = test_rng_range (&trng, 1, h - r.y);
      }
      hr[i] = (SharpnessRegion) {
      planar, r, NULL};
      gr[i] = (SharpnessRegion) {
      planes[0], r, NULL};
      if (i % 3 == 2) {
        const int cols = test_rng_range (&trng, 1, 9);
        const int rows = test_rng_range (&trng, 1, 5);
        if (sharpness_tile_sums_init (&ht[i], m, cols, rows) ||
            sharpness_tile_sums_init (&gt[i], m, cols, rows))
          exit (1);
        hr[i].tiles = &ht[i];
        gr[i].tiles = &gt[i];
      }
    }
    checks++;
    if (sharpness_cpu_sums_batch (cpu, m, hr, N_ROI, hs) != SHARPNESS_OK ||
        sharpness_cuda_sums_batch (cuda, m, gr, N_ROI, gs) != SHARPNESS_OK) {
      packed_fail (&f, c, "device-pitched", m, "ROI batch status",
          sharpness_cuda_last_error (cuda));
    } else {
      for (int i = 0; i < N_ROI; i++) {
        char detail[96];
        snprintf (detail, sizeof detail, "region %d,%d %dx%d%s",
            gr[i].rect.x, gr[i].rect.y, gr[i].rect.width, gr[i].rect.height,
            gr[i].tiles ? " with tiles" : "");
        checks++;
        if (!test_sums_equal (m, &gs[i], &hs[i]) || (gr[i].tiles &&
                !test_tile_sums_equal (m, &gt[i], &ht[i])))
          packed_fail (&f, c, "device-pitched", m, "ROI", detail);
        /* The crop alone: v210 inside a group, the generic kernel. */
        SharpnessPlane crop;
        SharpnessSums alone;
        sharpness_plane_crop (&planes[0], &gr[i].rect, &crop);
        checks++;
        if (sharpness_cuda_sums_device (cuda, m, &crop, &alone) !=
            SHARPNESS_OK || !test_sums_equal (m, &alone, &hs[i]))
          packed_fail (&f, c, "device-pitched", m, "ROI cropped alone",
              detail);
      }
    }
    for (int i = 0; i < N_ROI; i++)
      if (hr[i].tiles) {
        sharpness_tile_sums_clear (&ht[i]);
        sharpness_tile_sums_clear (&gt[i]);
      }
  }

  CHECK_CUDA (cudaFree (pitched));
  CHECK_CUDA (cudaFree (odd));
  sharpness_cuda_host_free (pinned);
  test_packed422_clear (&f);
}

static void
check_packed_formats (int quick)
{
  static const struct
  {
    int w, h;
  } sizes[] = {
    {1, 1}, {2, 3}, {5, 3}, {6, 2}, {7, 5}, {13, 4}, {47, 9}, {48, 3},
    {49, 17}, {97, 61}, {1921, 7}, {1280, 720}, {1920, 1080}, {3840, 2160},
  };
  const int n = sizeof sizes / sizeof sizes[0];
  int k = 0;

  for (int fmt = 0; fmt < TEST_PACKED_COUNT; fmt++)
    for (int s = quick ? 2 : 0; s < (quick ? n - 1 : n); s += quick ? 3 : 1)
      for (int c = 0; c < (s >= n - 3 ? 2 : TEST_LUMA_COUNT); c++, k++)
        check_packed_planar (fmt, sizes[s].w, sizes[s].h,
            (size_t) (k % 3) * 64, c);
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

  check_cuda_device_or_skip ();

  struct cudaDeviceProp prop;
  cudaStream_t stream;
  CHECK_CUDA (cudaSetDevice (0));
  CHECK_CUDA (cudaGetDeviceProperties (&prop, 0));
  CHECK_CUDA (cudaStreamCreate (&stream));
  printf ("device: %s, seed: %" PRIu64 "%s\n", prop.name, seed,
      tiny ? ", tiny" : quick ? ", quick" : "");
  frame_rng_seed (&rng, seed);
  test_rng_seed (&trng, seed);

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
    /* blur-effect: the smallest interior, and 32x32 interior tiles + 1. */
    {4, 4}, {5, 13}, {36, 35},
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

    /* 8K on the sample kinds. */
    static const char *const big[] = { "GRAY8", "P010_10LE", "BGRA", "RGB",
      "UYVY", "v210"
    };
    for (int l = 0; l < 6; l++)
      check_frame (frame_layout_find (big[l]), 7680, 4320, 0, FRAME_NATURAL,
          variant++);
  }

  check_frames_in_a_row (0);
  check_frames_in_a_row (1);
  check_tiles_and_batches (quick);
  check_packed_formats (quick);

  sharpness_cuda_free (cuda);
  sharpness_cpu_free (cpu);
  CHECK_CUDA (cudaStreamDestroy (stream));

  printf ("%d checks, %d failures\n", checks, failures);
  return failures ? 1 : 0;
}
