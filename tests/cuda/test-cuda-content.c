/* The CUDA backend's content measurements against the CPU's: black
 * samples, edge pixels, CPBD's edge counts, the freeze SAD and the focus
 * tiles, to the unit, on every kind of frame the element hands it.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Expected values come from the analysis library, as the CPU scorer
 * computes them (gst/cudasharpness/sharpness-scorer-cpu.c): black with
 * sharpness_black_count_plane (on the 8-bit gray image for packed RGB),
 * edges with sharpness_structure_count, CPBD's counts with
 * sharpness_cpbd_count (measured with the edges, and with black and
 * freeze alone: the fused kernels without the edges run its items too),
 * the SAD with sharpness_freeze_sad against a host copy of the frame the
 * reference should hold.
 *
 * Formats: GRAY8, GRAY16_LE, NV12, I420, I420_10LE, I422_10LE,
 * P010_10LE (the raw layout the element makes for formats FFmpeg
 * converts), RGBA, BGR, UYVY and YUY2 (luma read in place, one byte in
 * and none), v210 (black on the 10-bit luma as the CPU scorer's
 * sharpness_black_count_v210, edges on its gray image, the freeze SAD
 * of SHARPNESS_FREEZE_FORMAT_V210: the yuv422p10le sum FFmpeg's decoded
 * frame gives, over the samples of each row's groups that hold pixels,
 * with random bits 30-31, unused samples of the last group and padding
 * that must not count). Sizes from 1x1 to 1920x1080, odd ones, tight
 * and padded (odd) strides; for v210 also the widths around its 6-pixel
 * groups and 48-pixel rows (1, 5, 6, 7, 47, 48, 49, 1918, 1920) at
 * several heights. Memory: cudaMallocPitch, device rows at the host
 * stride from an odd address (the kernel's byte paths), pageable and
 * pinned host memory (staged into the candidate buffer). Content:
 * random, natural, dark (black counts away from 0 and all), flat.
 * Each frame is measured twice, the second time against the first as the
 * reference, launched beside a laplacian on the backend's stream (whose
 * sums must stay the CPU's), in order, and in the launch of a classical
 * metric's score (FUSED: laplacian, variance, entropy or tenengrad by
 * turns, their sums the CPU's too; without a score, _end's own launch).
 * Then sequences of frames with keep, drop and nothing between them,
 * mixing memories, sizes, orders, and black + freeze with and without the
 * edges.  Last, the focus tiles (sharpness_cuda_focus_tiles against
 * sharpness_focus_tiles): every format and content from no tile to 4K.
 *
 * Usage: test-cuda-content [--quick] [--seed N]
 * Exits 77 ("skipped: no CUDA device") without a CUDA device.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cuda_runtime.h>

#include "check-cuda.h"
#include "cuda-frames.h"
#include "sharpness-black.h"
#include "sharpness-cpbd.h"
#include "sharpness-focus.h"
#include "sharpness-cpu.h"
#include "sharpness-cuda.h"
#include "sharpness-freeze.h"
#include "sharpness-structure.h"

typedef struct
{
  const char *name;
  /* The freeze layout's format; INVALID: P010's raw two planes. */
  SharpnessFreezeFormat freeze;
  SharpnessSamples samples;
  int pixel_stride, depth, shift;
  int offset_r, offset_g, offset_b;
  int luma_offset;              /* bytes into plane 0 */
} TestFormat;

static const TestFormat formats[] = {
  {"GRAY8", SHARPNESS_FREEZE_FORMAT_GRAY8, SHARPNESS_SAMPLES_Y8, 1, 8, 0},
  {"GRAY16_LE", SHARPNESS_FREEZE_FORMAT_GRAY16, SHARPNESS_SAMPLES_Y16LE, 2,
      16, 0},
  {"NV12", SHARPNESS_FREEZE_FORMAT_NV12, SHARPNESS_SAMPLES_Y8, 1, 8, 0},
  {"I420", SHARPNESS_FREEZE_FORMAT_YUV420P, SHARPNESS_SAMPLES_Y8, 1, 8, 0},
  {"I420_10LE", SHARPNESS_FREEZE_FORMAT_YUV420P10, SHARPNESS_SAMPLES_Y16LE,
      2, 10, 0},
  /* ProRes 4:2:2's decoded frames: chroma planes of every row. */
  {"I422_10LE", SHARPNESS_FREEZE_FORMAT_YUV422P10, SHARPNESS_SAMPLES_Y16LE,
      2, 10, 0},
  {"P010_10LE", SHARPNESS_FREEZE_FORMAT_INVALID, SHARPNESS_SAMPLES_Y16LE, 2,
      10, 6},
  {"RGBA", SHARPNESS_FREEZE_FORMAT_RGBA, SHARPNESS_SAMPLES_RGB8, 4, 8, 0, 0,
      1, 2},
  {"BGR", SHARPNESS_FREEZE_FORMAT_BGR24, SHARPNESS_SAMPLES_RGB8, 3, 8, 0, 2,
      1, 0},
  {"UYVY", SHARPNESS_FREEZE_FORMAT_UYVY422, SHARPNESS_SAMPLES_Y8, 2, 8, 0, 0,
      0, 0, 1},
  {"YUY2", SHARPNESS_FREEZE_FORMAT_YUYV422, SHARPNESS_SAMPLES_Y8, 2, 8, 0, 0,
      0, 0, 0},
  {"v210", SHARPNESS_FREEZE_FORMAT_V210, SHARPNESS_SAMPLES_V210, 0, 10,
      0},
};

#define N_FORMATS ((int) (sizeof formats / sizeof formats[0]))

typedef enum
{
  MEM_DEVICE_PITCHED,
  MEM_DEVICE_ODD,
  MEM_HOST_PAGEABLE,
  MEM_HOST_PINNED,
  MEM_COUNT
} MemKind;

static const char *const mem_names[MEM_COUNT] = {
  "device-pitched", "device-odd", "host-pageable", "host-pinned"
};

typedef enum
{
  FILL_RANDOM,
  FILL_NATURAL,
  FILL_DARK,
  FILL_FLAT,
  FILL_COUNT
} Fill;

static const char *const fill_names[FILL_COUNT] = {
  "random", "natural", "dark", "flat"
};

/* A frame on the host: its planes as the freeze layout compares them. */
typedef struct
{
  const TestFormat *format;
  SharpnessFreezeLayout layout;
  int w, h;
  uint8_t *data[4];
  size_t stride[4];
} HostFrame;

/* The same frame where the backend reads it. */
typedef struct
{
  MemKind mem;
  uint8_t *alloc[4];            /* what to free */
  SharpnessContentPlanes planes;
} PlacedFrame;

static SharpnessCuda *cuda;
static SharpnessCpu *cpu;
static FrameRng rng;
static int checks, failures;

static void
layout_for (const TestFormat * f, int w, int h, SharpnessFreezeLayout * l)
{
  if (f->freeze != SHARPNESS_FREEZE_FORMAT_INVALID) {
    if (!sharpness_freeze_layout_init (l, f->freeze, w, h)) {
      fprintf (stderr, "no freeze layout for %s %dx%d\n", f->name, w, h);
      exit (1);
    }
    return;
  }
  /* P010 as sharpness_freeze_layout_from_info() makes it: the raw planes,
   * 16-bit words, chroma pairs of ceil (w / 2) by ceil (h / 2). */
  memset (l, 0, sizeof *l);
  l->n_planes = 2;
  l->bytes_per_sample = 2;
  l->depth = 16;
  l->width[0] = w;
  l->height[0] = h;
  l->width[1] = 2 * ((w + 1) / 2);
  l->height[1] = (h + 1) / 2;
  l->count = (uint64_t) l->width[0] * l->height[0] +
      (uint64_t) l->width[1] * l->height[1];
}

static double
uniform (void)
{
  return (double) (frame_rng_next (&rng) >> 11) / 9007199254740992.0;
}

/* Sample @i of row @y of a plane holding @max at most. */
static unsigned
sample (Fill fill, int i, int y, unsigned max, double phase)
{
  double v;

  switch (fill) {
    case FILL_RANDOM:
      return (unsigned) (frame_rng_next (&rng) % (max + 1ull));
    case FILL_FLAT:
      return max / 3;
    case FILL_NATURAL:
    case FILL_DARK:
    default:
      /* Smooth shading, a hard edge and noise. */
      v = 0.5 + 0.35 * sin (i / 9.0 + phase) * cos (y / 7.0 - phase) +
          (i > (y % 41) + 20 ? 0.12 : -0.12) + 0.02 * (uniform () - 0.5);
      if (fill == FILL_DARK)
        v *= 0.25;
      v = v < 0 ? 0 : v > 1 ? 1 : v;
      return (unsigned) (v * max + 0.5);
  }
}

static void
fill_frame (HostFrame * f, Fill fill)
{
  const SharpnessFreezeLayout *l = &f->layout;
  const double phase = uniform () * 6.0;

  for (int p = 0; p < l->n_planes; p++) {
    /* Padding random: a kernel that reads it as samples gets caught. */
    for (size_t i = 0; i < f->stride[p] * l->height[p]; i++)
      f->data[p][i] = (uint8_t) frame_rng_next (&rng);
    for (int y = 0; y < l->height[p]; y++) {
      uint8_t *row = f->data[p] + y * f->stride[p];
      if (f->format->samples == SHARPNESS_SAMPLES_V210) {
        /* Three 10-bit slots a word (slot i of the row is sample i / 2 of
         * its pixels, more or less), the top two bits random: nothing
         * may read them, nor the slots past the row's last pixel. */
        for (int j = 0; j < l->width[p]; j++) {
          uint32_t word = (uint32_t) (frame_rng_next (&rng) & 3) << 30;
          for (int k = 0; k < 3; k++)
            word |= (uint32_t) sample (fill, (3 * j + k) / 2, y, 1023,
                phase) << (10 * k);
          for (int b = 0; b < 4; b++)
            row[4 * j + b] = (uint8_t) (word >> (8 * b));
        }
        continue;
      }
      for (int x = 0; x < l->width[p]; x++) {
        if (l->bytes_per_sample == 1) {
          row[x] = (uint8_t) sample (fill, x, y, 255, phase);
        } else {
          const TestFormat *t = f->format;
          unsigned v = fill == FILL_RANDOM ?
              (unsigned) (frame_rng_next (&rng) & 0xffff) :
              sample (fill, x, y, (1u << t->depth) - 1, phase) << t->shift;
          row[2 * x] = (uint8_t) v;
          row[2 * x + 1] = (uint8_t) (v >> 8);
        }
      }
    }
  }
}

static void
host_frame_init (HostFrame * f, const TestFormat * t, int w, int h, int pad)
{
  memset (f, 0, sizeof *f);
  f->format = t;
  f->w = w;
  f->h = h;
  layout_for (t, w, h, &f->layout);
  for (int p = 0; p < f->layout.n_planes; p++) {
    f->stride[p] = (size_t) f->layout.width[p] *
        f->layout.bytes_per_sample + pad;
    /* Chroma of a frame one row high: no rows compared, none here. */
    f->data[p] = malloc (f->stride[p] * f->layout.height[p] + 1);
    if (!f->data[p]) {
      fprintf (stderr, "out of memory\n");
      exit (1);
    }
  }
}

static void
host_frame_clear (HostFrame * f)
{
  for (int p = 0; p < 4; p++)
    free (f->data[p]);
  memset (f, 0, sizeof *f);
}

/* @src's samples into @dst (same format and size, any strides). */
static void
host_frame_copy (HostFrame * dst, const HostFrame * src)
{
  const SharpnessFreezeLayout *l = &src->layout;

  for (int p = 0; p < l->n_planes; p++)
    for (int y = 0; y < l->height[p]; y++)
      memcpy (dst->data[p] + y * dst->stride[p], src->data[p] +
          y * src->stride[p], (size_t) l->width[p] * l->bytes_per_sample);
}

/* @dst becomes a copy of @src, reallocated when the size differs. */
static void
host_frame_assign (HostFrame * dst, const HostFrame * src)
{
  if (!dst->format || dst->w != src->w || dst->h != src->h) {
    host_frame_clear (dst);
    host_frame_init (dst, src->format, src->w, src->h, 0);
  }
  host_frame_copy (dst, src);
}

/* The luma plane of a frame whose plane 0 is at @data0 with @stride. */
static SharpnessPlane
luma_of (const TestFormat * t, const uint8_t * data0, size_t stride, int w,
    int h)
{
  SharpnessPlane p;

  memset (&p, 0, sizeof p);
  p.samples = t->samples;
  p.data = data0 + t->luma_offset;
  p.stride = stride;
  p.width = w;
  p.height = h;
  p.pixel_stride = t->pixel_stride;
  p.depth = t->depth;
  p.shift = t->shift;
  p.offset_r = t->offset_r;
  p.offset_g = t->offset_g;
  p.offset_b = t->offset_b;
  return p;
}

static SharpnessContentParams
params_for (const HostFrame * f, unsigned threshold, unsigned level,
    int black, int structure, int freeze, int cpbd)
{
  SharpnessContentParams c;

  memset (&c, 0, sizeof c);
  c.cpbd = cpbd;
  c.black = black;
  c.black_threshold = threshold;
  c.structure = structure;
  c.edge_level = level;
  if (freeze) {
    c.n_planes = f->layout.n_planes;
    c.bytes_per_sample = f->layout.bytes_per_sample;
    c.v210_samples = f->layout.v210_samples;
    for (int p = 0; p < c.n_planes; p++) {
      c.width[p] = f->layout.width[p];
      c.height[p] = f->layout.height[p];
    }
  }
  return c;
}

/* Puts @f where @mem says. */
static void
place (PlacedFrame * pf, MemKind mem, const HostFrame * f, int variant)
{
  const SharpnessFreezeLayout *l = &f->layout;

  memset (pf, 0, sizeof *pf);
  pf->mem = mem;
  for (int p = 0; p < l->n_planes; p++) {
    const size_t row = (size_t) l->width[p] * l->bytes_per_sample;
    uint8_t *d = NULL;
    size_t pitch = f->stride[p];

    if (l->height[p] == 0 || row == 0) {
      /* Nothing compared: nothing to read either. */
      pf->planes.data[p] = NULL;
      pf->planes.stride[p] = pitch;
      continue;
    }
    const size_t extent = f->stride[p] * (l->height[p] - 1) + row;

    switch (mem) {
      case MEM_DEVICE_PITCHED:
        CHECK_CUDA (cudaMallocPitch ((void **) &d, &pitch, row,
                l->height[p]));
        CHECK_CUDA (cudaMemcpy2D (d, pitch, f->data[p], f->stride[p], row,
                l->height[p], cudaMemcpyHostToDevice));
        pf->alloc[p] = d;
        break;
      case MEM_DEVICE_ODD:{
        /* The host stride, from an odd address every other frame: the
         * kernel's byte paths. */
        const size_t offset = (variant & 1) ? 3 : 0;
        CHECK_CUDA (cudaMalloc ((void **) &d, extent + offset));
        CHECK_CUDA (cudaMemcpy (d + offset, f->data[p], extent,
                cudaMemcpyHostToDevice));
        pf->alloc[p] = d;
        d += offset;
        break;
      }
      case MEM_HOST_PINNED:
        d = sharpness_cuda_host_alloc (extent);
        if (!d) {
          fprintf (stderr, "pinned allocation failed\n");
          exit (1);
        }
        memcpy (d, f->data[p], extent);
        pf->alloc[p] = d;
        break;
      case MEM_HOST_PAGEABLE:
      default:
        d = f->data[p];
        break;
    }
    pf->planes.data[p] = d;
    pf->planes.stride[p] = pitch;
  }
  /* A copy from pageable memory may return before its DMA lands, and the
   * library's stream does not wait for the legacy default stream: without
   * this the kernel can read the device frame before it is all there (the
   * element gets the same guarantee from GstCudaMemory's stream sync). */
  CHECK_CUDA (cudaDeviceSynchronize ());
  pf->planes.luma = luma_of (f->format, pf->planes.data[0],
      pf->planes.stride[0], f->w, f->h);
}

static void
unplace (PlacedFrame * pf)
{
  for (int p = 0; p < 4; p++) {
    if (!pf->alloc[p])
      continue;
    if (pf->mem == MEM_HOST_PINNED)
      sharpness_cuda_host_free (pf->alloc[p]);
    else
      CHECK_CUDA (cudaFree (pf->alloc[p]));
  }
  memset (pf, 0, sizeof *pf);
}

/* What the CPU scorer measures on @f (SAD against @ref when not NULL). */
static SharpnessContentSums
expected (const HostFrame * f, const SharpnessContentParams * c,
    const HostFrame * ref)
{
  SharpnessContentSums e;
  const SharpnessPlane luma = luma_of (f->format, f->data[0], f->stride[0],
      f->w, f->h);

  memset (&e, 0, sizeof e);
  e.pixels = (uint64_t) f->w * f->h;
  if (c->black && luma.samples == SHARPNESS_SAMPLES_V210) {
    e.black_count = sharpness_black_count_v210 (luma.data, luma.stride,
        luma.width, luma.height, c->black_threshold);
  } else if (c->black && !sharpness_black_count_plane (&luma,
          c->black_threshold, &e.black_count)) {
    for (int y = 0; y < luma.height; y++)
      for (int x = 0; x < luma.width; x++)
        e.black_count += sharpness_plane_gray_at (&luma, luma.data +
            (size_t) y * luma.stride, x) <= c->black_threshold;
  }
  if (c->structure)
    e.edges = sharpness_structure_count (&luma, c->edge_level, &e.interior);
  if (c->cpbd)
    sharpness_cpbd_count (&luma, &e.cpbd_edges, &e.cpbd_sharp);
  if (c->n_planes > 0 && ref) {
    e.has_sad = 1;
    e.sad = sharpness_freeze_sad (&f->layout,
        (const guint8 * const *) f->data, f->stride,
        (const guint8 * const *) ref->data, ref->stride);
  }
  return e;
}

static void
report (const char *what, const HostFrame * f, MemKind mem, Fill fill,
    const SharpnessContentParams * c, const SharpnessContentSums * got,
    const SharpnessContentSums * want, SharpnessStatus st)
{
  failures++;
  if (failures > 40)
    return;
  fprintf (stderr, "FAIL %s: %s %dx%d stride %zu %s %s thr %u level %u",
      what, f->format->name, f->w, f->h, f->stride[0], mem_names[mem],
      fill_names[fill], c->black_threshold, c->edge_level);
  if (st != SHARPNESS_OK)
    fprintf (stderr, " status %s (%s)", sharpness_status_to_string (st),
        sharpness_cuda_last_error (cuda));
  else
    fprintf (stderr, " black %" PRIu64 "/%" PRIu64 " pixels %" PRIu64 "/%"
        PRIu64 " edges %" PRIu64 "/%" PRIu64 " interior %" PRIu64 "/%" PRIu64
        " sad %d:%" PRIu64 "/%d:%" PRIu64 " cpbd %d:%" PRIu64 ",%" PRIu64
        "/%" PRIu64 ",%" PRIu64, got->black_count,
        want->black_count, got->pixels, want->pixels, got->edges, want->edges,
        got->interior, want->interior, got->has_sad, got->sad, want->has_sad,
        want->sad, c->cpbd, got->cpbd_edges, got->cpbd_sharp,
        want->cpbd_edges, want->cpbd_sharp);
  fputc ('\n', stderr);
}

static int
sums_equal (const SharpnessContentSums * a, const SharpnessContentSums * b,
    const SharpnessContentParams * c)
{
  return (!c->black || (a->black_count == b->black_count &&
          a->pixels == b->pixels)) &&
      (!c->structure || (a->edges == b->edges &&
          a->interior == b->interior)) &&
      (!c->cpbd || (a->cpbd_edges == b->cpbd_edges &&
          a->cpbd_sharp == b->cpbd_sharp)) &&
      a->has_sad == b->has_sad && a->sad == b->sad;
}

/* The orders a measurement is tried in, by turns; FUSED without a score
 * launch to take the items tests _end's own launch of them. */
static const SharpnessContentOrder orders[] = {
  SHARPNESS_CONTENT_BESIDE, SHARPNESS_CONTENT_IN_ORDER,
  SHARPNESS_CONTENT_FUSED,
};

#define N_ORDERS ((int) (sizeof orders / sizeof orders[0]))

/* The classical metrics a FUSED launch is checked with, by turns: one sum,
 * two sums (variance) and the histogram (entropy) end their launches
 * differently. */
static const SharpnessMetric fused_metrics[] = {
  SHARPNESS_METRIC_LAPLACIAN, SHARPNESS_METRIC_VARIANCE,
  SHARPNESS_METRIC_ENTROPY, SHARPNESS_METRIC_TENENGRAD,
};

static int
sums_same (SharpnessMetric m, const SharpnessSums * a, const SharpnessSums * b)
{
  if (m == SHARPNESS_METRIC_ENTROPY)
    return memcmp (a->hist, b->hist, sizeof a->hist) == 0;
  return a->sum == b->sum && (m != SHARPNESS_METRIC_VARIANCE ||
      a->sum_sq == b->sum_sq);
}

/* One measurement of @pf as the scorer makes it: a host frame staged (the
 * metric reads the staged luma), then the launch beside the metric, in
 * order, or in the metric's own launch (order @turn of orders[]); with
 * @metric a classical metric's sums (the laplacian's, or by turns those of
 * fused_metrics[] for FUSED) are checked against the CPU's on the same
 * frame. */
static SharpnessStatus
measure (const PlacedFrame * pf, const HostFrame * f,
    const SharpnessContentParams * c, int turn, int metric,
    SharpnessContentSums * out)
{
  SharpnessContentPlanes planes = pf->planes;
  const SharpnessContentOrder order = orders[turn % N_ORDERS];
  const SharpnessMetric m = order == SHARPNESS_CONTENT_FUSED ?
      fused_metrics[(turn / N_ORDERS) % 4] : SHARPNESS_METRIC_LAPLACIAN;
  SharpnessStatus st;

  if (pf->mem == MEM_HOST_PAGEABLE || pf->mem == MEM_HOST_PINNED) {
    st = sharpness_cuda_content_stage_host (cuda, &pf->planes, c, &planes);
    if (st != SHARPNESS_OK)
      return st;
  }
  st = sharpness_cuda_content_begin (cuda, &planes, c, order);
  if (st != SHARPNESS_OK)
    return st;
  if (metric) {
    SharpnessSums gpu, ref;
    const SharpnessPlane host = luma_of (f->format, f->data[0], f->stride[0],
        f->w, f->h);
    memset (&gpu, 0, sizeof gpu);
    memset (&ref, 0, sizeof ref);
    SharpnessStatus ms = sharpness_cuda_sums_device (cuda, m, &planes.luma,
        &gpu);
    checks++;
    if (ms != SHARPNESS_OK ||
        sharpness_cpu_sums (cpu, m, &host, &ref) != SHARPNESS_OK ||
        !sums_same (m, &gpu, &ref)) {
      failures++;
      fprintf (stderr, "FAIL %s with the content launch (%s): %s %dx%d "
          "%s: %s, sum %" PRIu64 "/%" PRIu64 "\n",
          sharpness_metric_info[m].nick, order == SHARPNESS_CONTENT_FUSED ?
          sharpness_cuda_content_fuses (m, &planes.luma) ? "fused" :
          "fused, not taken" : order == SHARPNESS_CONTENT_BESIDE ? "beside" :
          "in order", f->format->name, f->w, f->h, mem_names[pf->mem],
          sharpness_status_to_string (ms), gpu.sum, ref.sum);
    }
  }
  return sharpness_cuda_content_end (cuda, out);
}

/* Every measurement of one frame: black and structure at several levels,
 * alone and together, with and without freeze; then the frame against
 * another as the reference. */
static void
check_frame (const TestFormat * t, int w, int h, int pad, Fill fill,
    int variant)
{
  static const struct
  {
    unsigned threshold, level;
  } levels[] = {
    {37, 8}, {0, 0}, {16, 1}, {255, 255}, {151, 30}, {300, 256},
    {65535, 3},
  };
  const int nlevels = (int) (sizeof levels / sizeof levels[0]);
  HostFrame a, b;

  host_frame_init (&a, t, w, h, pad);
  host_frame_init (&b, t, w, h, pad);
  fill_frame (&a, fill);
  fill_frame (&b, fill);
  if (variant % 3 == 0) {
    /* A near repeat: the SAD of a few changed samples. */
    const int last = b.layout.height[b.layout.n_planes - 1] > 0 ?
        b.layout.n_planes - 1 : 0;
    host_frame_copy (&b, &a);
    b.data[0][0] ^= 0x5a;
    b.data[last][b.stride[last] * (b.layout.height[last] - 1)] ^= 0x11;
  }

  /* Video sizes: the expected values cost the CPU most, fewer levels. */
  const int nl = (long long) w * h > 100000 ? 2 : nlevels;
  PlacedFrame pa[MEM_COUNT], pb[MEM_COUNT];
  for (int mem = 0; mem < MEM_COUNT; mem++) {
    place (&pa[mem], mem, &a, variant);
    place (&pb[mem], mem, &b, variant + 1);
  }

  for (int k = 0; k < nl; k++) {
    const unsigned thr = levels[k].threshold, lev = levels[k].level;
    /* Black and structure together, each alone, then freeze with both,
     * and with black alone (the fused kernels without the edges); CPBD
     * with the edges, and with black and freeze alone (its items in the
     * fused kernels without the edges), once per frame. */
    static const int modes[6][4] = { {1, 1, 0, 1}, {1, 0, 0, 0},
    {0, 1, 0, 0}, {1, 1, 1, 1}, {1, 0, 1, 0}, {1, 0, 1, 1}
    };
    for (int m = 0; m < 6; m++) {
      if (k > 0 && (m == 1 + (k % 2) || m == 5))
        continue;
      const SharpnessContentParams c = params_for (&a, thr, lev,
          modes[m][0], modes[m][1], modes[m][2], modes[m][3]);
      const SharpnessContentSums want_a = expected (&a, &c, NULL);
      const SharpnessContentSums want_b = expected (&b, &c, &a);

      for (int mem = 0; mem < MEM_COUNT; mem++) {
        SharpnessContentSums got;
        SharpnessStatus st;

        /* Black + freeze (m 4, 5: with CPBD) under a metric too: the
         * fused kernel without the edges writes the candidate b is
         * compared with. */
        sharpness_cuda_content_reference (cuda, 0);
        st = measure (&pa[mem], &a, &c, variant + k + m + mem,
            (k == 0 && m == 0) || m >= 4, &got);
        checks++;
        if (st != SHARPNESS_OK || !sums_equal (&got, &want_a, &c))
          report ("first frame", &a, mem, fill, &c, &got, &want_a, st);
        if (!c.n_planes)
          continue;

        /* b against a, kept as the reference. */
        sharpness_cuda_content_reference (cuda, 1);
        st = measure (&pb[mem], &b, &c, variant + k + m + mem + 1, 1,
            &got);
        checks++;
        if (st != SHARPNESS_OK || !sums_equal (&got, &want_b, &c))
          report ("against the reference", &b, mem, fill, &c, &got, &want_b,
              st);
      }
    }
  }

  /* Freeze alone (no luma pass). */
  {
    const SharpnessContentParams c = params_for (&a, 0, 0, 0, 0, 1, 0);
    const SharpnessContentSums want = expected (&b, &c, &a);

    for (int mem = 0; mem < MEM_COUNT; mem++) {
      SharpnessContentSums got;
      SharpnessStatus st;

      sharpness_cuda_content_reference (cuda, 0);
      st = measure (&pa[mem], &a, &c, variant + mem, 0, &got);
      if (st == SHARPNESS_OK) {
        sharpness_cuda_content_reference (cuda, 1);
        st = measure (&pb[mem], &b, &c, variant + mem + 1, 0, &got);
      }
      checks++;
      if (st != SHARPNESS_OK || !sums_equal (&got, &want, &c))
        report ("freeze alone", &b, mem, fill, &c, &got, &want, st);
    }
  }
  for (int mem = 0; mem < MEM_COUNT; mem++) {
    unplace (&pa[mem]);
    unplace (&pb[mem]);
  }
  sharpness_cuda_content_reference (cuda, 0);
  host_frame_clear (&a);
  host_frame_clear (&b);
}

/* Frames in a row with keep, drop or nothing between them, as the
 * element's freeze detector decides; memory and order change from frame
 * to frame, the size twice on the way.  The CPU side models the scorer:
 * the candidate is the last frame measured, keeping it makes it the
 * reference, a new size compares with nothing. */
static void
check_sequence (const TestFormat * t, int w, int h, int steps)
{
  HostFrame pool[5], ref, cand;
  int have_ref = 0, have_cand = 0, lw = 0, lh = 0;

  memset (&ref, 0, sizeof ref);
  memset (&cand, 0, sizeof cand);
  for (int i = 0; i < 5; i++) {
    host_frame_init (&pool[i], t, i < 4 ? w : w / 2 + 1,
        i < 4 ? h : h / 2 + 1, (i & 1) * 13);
    fill_frame (&pool[i], i == 3 ? FILL_DARK : FILL_NATURAL);
  }
  /* Frame 1 is frame 0 with one sample changed; frame 2 a copy of 0. */
  host_frame_copy (&pool[1], &pool[0]);
  pool[1].data[0][pool[1].stride[0] + 1] ^= 0x40;
  host_frame_copy (&pool[2], &pool[0]);

  for (int s = 0; s < steps; s++) {
    const int other = s == steps / 2 || s == steps / 2 + 3;
    HostFrame *f = other ? &pool[4] : &pool[frame_rng_next (&rng) % 4];
    const int mem = (int) (frame_rng_next (&rng) % MEM_COUNT);
    /* Without the edges every other step: the fused kernel without them
     * then writes the candidate that later steps compare with. */
    const SharpnessContentParams c = params_for (f, 37, 8, 1, s % 2, 1,
        s % 3 == 0);
    SharpnessContentSums got, want;
    PlacedFrame pf;

    if (f->w != lw || f->h != lh) {
      have_ref = have_cand = 0;
      lw = f->w;
      lh = f->h;
    }
    place (&pf, mem, f, s);
    SharpnessStatus st = measure (&pf, f, &c, s, s % 3 != 1, &got);
    want = expected (f, &c, have_ref ? &ref : NULL);
    checks++;
    if (st != SHARPNESS_OK || !sums_equal (&got, &want, &c))
      report ("sequence", f, mem, FILL_NATURAL, &c, &got, &want, st);
    unplace (&pf);
    host_frame_assign (&cand, f);
    have_cand = 1;

    switch (frame_rng_next (&rng) % 3) {
      case 0:                  /* keep */
        sharpness_cuda_content_reference (cuda, 1);
        if (have_cand) {
          host_frame_assign (&ref, &cand);
          have_ref = 1;
          have_cand = 0;
        }
        break;
      case 1:                  /* drop */
        sharpness_cuda_content_reference (cuda, 0);
        have_ref = have_cand = 0;
        break;
      default:                 /* nothing: the next frame replaces it */
        break;
    }
  }
  sharpness_cuda_content_reference (cuda, 0);
  for (int i = 0; i < 5; i++)
    host_frame_clear (&pool[i]);
  host_frame_clear (&ref);
  host_frame_clear (&cand);
}

/* The focus tiles (analysis/sharpness-focus.h) of @t at @w x @h, from
 * device memory (pitched, or at an odd address every other frame) against
 * sharpness_focus_tiles on the host copy: every tile's four sums, and so
 * the focus, equal. */
static void
check_focus (const TestFormat * t, int w, int h, int pad, Fill fill,
    int variant, SharpnessFocusScratch * scratch)
{
  const SharpnessFocusTile *got;
  HostFrame f;
  PlacedFrame pf;
  int n_want, n_got;

  host_frame_init (&f, t, w, h, pad);
  fill_frame (&f, fill);
  const SharpnessPlane host = luma_of (t, f.data[0], f.stride[0], w, h);
  if (!sharpness_focus_tiles (&host, scratch, &n_want)) {
    fprintf (stderr, "out of memory\n");
    exit (1);
  }
  place (&pf, variant & 1 ? MEM_DEVICE_ODD : MEM_DEVICE_PITCHED, &f,
      variant);
  const SharpnessStatus st = sharpness_cuda_focus_tiles (cuda,
      &pf.planes.luma, &got, &n_got);
  checks++;
  if (st != SHARPNESS_OK || n_got != n_want || (n_want &&
          memcmp (got, scratch->tiles, (size_t) n_want * sizeof *got))) {
    failures++;
    fprintf (stderr, "FAIL focus %s %dx%d pad %d %s: %s, %d tiles for %d",
        t->name, w, h, pad, fill_names[fill], sharpness_status_to_string (st),
        n_got, n_want);
    for (int i = 0; st == SHARPNESS_OK && i < n_want && i < n_got; i++)
      if (memcmp (&got[i], &scratch->tiles[i], sizeof *got)) {
        fprintf (stderr, ", tile %d: %" PRIu64 " %" PRIu64 " %" PRIu64 " %"
            PRIu64 " for %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64, i,
            got[i].sum[0], got[i].sum[1], got[i].sum[2], got[i].sum[3],
            scratch->tiles[i].sum[0], scratch->tiles[i].sum[1],
            scratch->tiles[i].sum[2], scratch->tiles[i].sum[3]);
        break;
      }
    fprintf (stderr, "\n");
  } else if (sharpness_focus_lowest (got, n_got) !=
      sharpness_focus_lowest (scratch->tiles, n_want)) {
    failures++;
    fprintf (stderr, "FAIL focus %s %dx%d: equal tiles, unequal focus\n",
        t->name, w, h);
  }
  unplace (&pf);
  host_frame_clear (&f);
}

static void
check_arguments (void)
{
  SharpnessContentParams c;
  SharpnessContentPlanes p;
  SharpnessContentSums s;

  memset (&c, 0, sizeof c);
  memset (&p, 0, sizeof p);
  checks++;
  c.black = 1;
  if (sharpness_cuda_content_device (cuda, &p, &c, &s) !=
      SHARPNESS_ERROR_INVALID) {
    failures++;
    fprintf (stderr, "FAIL an empty plane was accepted\n");
  }
  checks++;
  if (sharpness_cuda_content_end (cuda, &s) != SHARPNESS_ERROR_INVALID) {
    failures++;
    fprintf (stderr, "FAIL _end without _begin was accepted\n");
  }
  /* v210 words without their sample count, or more samples than the
   * words hold: refused, though the plane is there; 12 in 4 is a group. */
  uint8_t *words;
  CHECK_CUDA (cudaMalloc ((void **) &words, 64));
  CHECK_CUDA (cudaMemset (words, 0, 64));
  p.data[0] = words;
  p.stride[0] = 64;
  c.black = 0;
  c.n_planes = 1;
  c.width[0] = 4;
  c.height[0] = 1;
  c.bytes_per_sample = 4;
  c.v210_samples = 0;
  checks++;
  if (sharpness_cuda_content_device (cuda, &p, &c, &s) !=
      SHARPNESS_ERROR_INVALID) {
    failures++;
    fprintf (stderr, "FAIL v210 words without a sample count were "
        "accepted\n");
  }
  c.v210_samples = 13;
  checks++;
  if (sharpness_cuda_content_device (cuda, &p, &c, &s) !=
      SHARPNESS_ERROR_INVALID) {
    failures++;
    fprintf (stderr, "FAIL 13 v210 samples in 4 words were accepted\n");
  }
  c.bytes_per_sample = 2;
  c.v210_samples = 3;
  checks++;
  if (sharpness_cuda_content_device (cuda, &p, &c, &s) !=
      SHARPNESS_ERROR_INVALID) {
    failures++;
    fprintf (stderr, "FAIL v210 samples in 16-bit words were accepted\n");
  }
  c.bytes_per_sample = 4;
  c.v210_samples = 12;
  checks++;
  if (sharpness_cuda_content_device (cuda, &p, &c, &s) != SHARPNESS_OK ||
      s.has_sad) {
    failures++;
    fprintf (stderr, "FAIL a v210 group was refused\n");
  }
  sharpness_cuda_content_reference (cuda, 0);
  CHECK_CUDA (cudaFree (words));
  memset (&p, 0, sizeof p);
  memset (&c, 0, sizeof c);
  c.n_planes = 5;
  checks++;
  if (sharpness_cuda_content_device (cuda, &p, &c, &s) !=
      SHARPNESS_ERROR_INVALID) {
    failures++;
    fprintf (stderr, "FAIL five planes were accepted\n");
  }
}

int
main (int argc, char **argv)
{
  int quick = 0;
  uint64_t seed = (uint64_t) time (NULL) ^ ((uint64_t) clock () << 32);

  for (int i = 1; i < argc; i++) {
    if (strcmp (argv[i], "--quick") == 0)
      quick = 1;
    else if (strcmp (argv[i], "--seed") == 0 && i + 1 < argc)
      seed = strtoull (argv[++i], NULL, 0);
    else {
      fprintf (stderr, "usage: %s [--quick] [--seed N]\n", argv[0]);
      return 2;
    }
  }

  check_cuda_device_or_skip ();

  struct cudaDeviceProp prop;
  cudaStream_t stream;
  CHECK_CUDA (cudaSetDevice (0));
  CHECK_CUDA (cudaGetDeviceProperties (&prop, 0));
  CHECK_CUDA (cudaStreamCreateWithFlags (&stream, cudaStreamNonBlocking));
  printf ("device: %s, seed: %" PRIu64 "%s\n", prop.name, seed,
      quick ? ", quick" : "");
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
    {47, 9}, {129, 3}, {513, 7}, {600, 20},
  };
  static const int pads[] = { 0, 13, 64 };
  int variant = 0;

  for (size_t s = 0; s < sizeof small / sizeof small[0]; s++)
    for (int f = 0; f < N_FORMATS; f++)
      for (int fill = 0; fill < FILL_COUNT; fill++) {
        if (quick && (fill == FILL_FLAT || (s + f) % 2))
          continue;
        check_frame (&formats[f], small[s].w, small[s].h,
            pads[variant % 3], fill, variant);
        variant++;
      }

  static const struct
  {
    int w, h;
  } video[] = {
    {1279, 719}, {1920, 1080},
  };
  for (size_t s = 0; s < sizeof video / sizeof video[0]; s++)
    for (int f = 0; f < N_FORMATS; f++)
      for (int fill = FILL_RANDOM; fill <= FILL_DARK; fill++) {
        if (quick && (s == 0 || fill != FILL_NATURAL))
          continue;
        check_frame (&formats[f], video[s].w, video[s].h, pads[variant % 3],
            fill, variant);
        variant++;
      }

  /* v210 around its groups (6 pixels, 16 bytes) and rows (48 pixels,
   * 128 bytes): the last group's unused samples must not count. */
  {
    static const int widths[] = { 1, 5, 6, 7, 47, 48, 49, 1918, 1920 };
    static const int heights[] = { 1, 2, 5, 17 };
    const TestFormat *v210 = NULL;

    for (int f = 0; f < N_FORMATS; f++)
      if (formats[f].samples == SHARPNESS_SAMPLES_V210)
        v210 = &formats[f];

    for (size_t i = 0; i < sizeof widths / sizeof widths[0]; i++) {
      const int w = widths[i];
      for (size_t j = 0; j < sizeof heights / sizeof heights[0]; j++) {
        if (quick && (i + j) % 2)
          continue;
        check_frame (v210, w, heights[j], pads[variant % 3],
            (Fill) (variant % FILL_COUNT), variant);
        variant++;
      }
    }
    check_frame (v210, 1918, 1080, 0, FILL_NATURAL, variant++);
    if (!quick)
      check_frame (v210, 1918, 1080, 13, FILL_RANDOM, variant++);
    check_sequence (v210, 49, 9, quick ? 12 : 40);
    check_sequence (v210, 1918, 33, 12);
  }

  for (int f = 0; f < N_FORMATS; f++) {
    check_sequence (&formats[f], 37, 21, quick ? 12 : 40);
    if (!quick)
      check_sequence (&formats[f], 1280, 720, 12);
  }

  /* The focus tiles: no tile (66 wide), one, cut tiles at the right and
   * bottom, video sizes; growing and shrinking grids on one backend. */
  {
    static const struct
    {
      int w, h;
    } sizes[] = {
      {66, 200}, {67, 67}, {131, 70}, {200, 150}, {1279, 719}, {1920, 1080},
      {130, 131}, {3840, 2160},
    };
    SharpnessFocusScratch scratch = { 0, };

    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
      for (int f = 0; f < N_FORMATS; f++)
        for (int fill = 0; fill < FILL_COUNT; fill++) {
          if ((quick || sizes[s].w > 1920) &&
              (fill != FILL_NATURAL || (s + f) % 2))
            continue;
          check_focus (&formats[f], sizes[s].w, sizes[s].h,
              pads[variant % 3], fill, variant, &scratch);
          variant++;
        }
    sharpness_focus_scratch_clear (&scratch);
  }

  printf ("%d checks, %d failures\n", checks, failures);
  sharpness_cuda_free (cuda);
  sharpness_cpu_free (cpu);
  CHECK_CUDA (cudaStreamDestroy (stream));
  return failures ? 1 : 0;
}
