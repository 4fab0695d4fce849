/* Timing of the CUDA backend's classical metrics, frame by frame, end to
 * end (launch, kernel, read-back, stream synchronisation), next to the
 * floors they are bounded by.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Usage: bench-cuda-kernels [--frames N] [--warmup N] [--layout NAME]...
 *                           [--no-host] [--content-only]
 *                           [--tiles | --tiles-only]
 *                           [--content-pass | --content-pass-only]
 *                           [--content-metric NICK] [--content-nv12-only]
 * Device-memory frames rotate over buffers three times the size of the L2
 * cache, so that every frame comes from DRAM; the "hot" rows repeat one
 * frame.  Each row gives the median and 99th percentile of the wall time
 * of sharpness_cuda_sums_{device,host} and the median of CUDA events
 * recorded around it.  The "content" rows time entropy (whose histogram
 * suffered most from equal values: one shared atomic per pixel serialised
 * within a warp) and variance on a flat GRAY8 1080p frame (every pixel
 * 128) next to natural and random ones; --content-only runs just those.
 *
 * --tiles (or --tiles-only) adds the table of docs/reference/tiles.md: 1080p GRAY8
 * laplacian, tenengrad and entropy with tiles off, 8x4 and 64x64, the
 * frame with 16 ROIs in one batch, and batches of K = 1, 8, 32 and 64
 * frames (cost per frame), each with its ratio to the plain launch.
 *
 * --content-pass (or --content-pass-only) adds the cost of the content
 * measurements (black and the freeze SAD of every plane, then with the
 * edge count of the flat state, docs/performance/notes-cuda-content.md)
 * on NV12, P010 and UYVY frames in device memory at 1080p and NV12 at 4K,
 * in the same run: laplacian alone; the content launch
 * alone; the two as the scorer runs them on its own stream (content
 * beside the metric, one synchronisation) and, for comparison, with the
 * content launch in order before it; as through the scoring service
 * (the metric on another backend's stream, the content launch in order on
 * ours); and in the metric's own launch (FUSED: what the scorer does for
 * NV12 and P010; UYVY's luma has no such kernel, so its row is the
 * content launched alone after the metric).  Every frame is kept as the reference, so every frame compares.
 * "# overhead" lines: each pass's wall p50 over the metric alone's.
 * --content-metric NICK: another classical metric than laplacian;
 * --content-nv12-only: 1080p NV12, black and freeze only.
 * Host paths (GRAY8 and the capture-card layouts UYVY, YUY2 and v210):
 * after the copy floor of each kind of host memory ("copy-pinned": a plain
 * H2D copy of the whole plane, chroma included) and the metrics through
 * sharpness_cuda_sums_host, a line "# ratio" gives each metric's wall-p50
 * over the copy's.  Capture cards, UYVY 1080p in pinned memory:
 *   bench-cuda-kernels --layout UYVY --layout v210
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cuda_runtime.h>

#include "bench-floor.h"
#include "check-cuda.h"
#include "cuda-frames.h"
#include "sharpness-cuda.h"

static int frames = 1000, warmup = 100;
/* The metric the content passes run beside or in (--content-metric). */
static SharpnessMetric content_metric = SHARPNESS_METRIC_LAPLACIAN;
static cudaStream_t stream;
static cudaEvent_t ev0, ev1;
static double *wall_us, *event_us;

static double
now_us (void)
{
  struct timespec ts;
  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

static int
cmp_double (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static double
percentile (double *v, int n, double p)
{
  qsort (v, n, sizeof *v, cmp_double);
  int i = (int) (p * (n - 1) + 0.5);
  return v[i];
}

typedef SharpnessStatus (*SumsFunc) (SharpnessCuda *, SharpnessMetric,
    const SharpnessPlane *, SharpnessSums *);

static void
report (const char *what, const char *size, const char *layout,
    const char *metric, double bytes)
{
  const double wall50 = percentile (wall_us, frames, 0.5);
  const double wall99 = percentile (wall_us, frames, 0.99);
  const double ev50 = percentile (event_us, frames, 0.5);
  printf ("%-10s %-10s %-10s %-16s %9.1f %9.1f %9.1f %10.1f\n", size, layout,
      metric, what, wall50, wall99, ev50, bytes / 1e6);
  fflush (stdout);
}

/* Times @func over planes[i % n] for warmup + frames calls. */
static void
time_sums (SharpnessCuda * cuda, SumsFunc func, SharpnessMetric metric,
    const SharpnessPlane * planes, int n)
{
  SharpnessSums sums;
  for (int i = 0; i < warmup + frames; i++) {
    const SharpnessPlane *p = &planes[i % n];
    CHECK_CUDA (cudaEventRecord (ev0, stream));
    const double t0 = now_us ();
    if (func (cuda, metric, p, &sums) != SHARPNESS_OK) {
      fprintf (stderr, "%s: %s\n", sharpness_metric_info[metric].nick,
          sharpness_cuda_last_error (cuda));
      exit (1);
    }
    const double t1 = now_us ();
    CHECK_CUDA (cudaEventRecord (ev1, stream));
    CHECK_CUDA (cudaEventSynchronize (ev1));
    if (i >= warmup) {
      float ms;
      CHECK_CUDA (cudaEventElapsedTime (&ms, ev0, ev1));
      wall_us[i - warmup] = t1 - t0;
      event_us[i - warmup] = ms * 1e3;
    }
  }
}

/* Host-to-device copy of the plane alone (@src: the frame's first byte,
 * @row bytes of each row): the floor of the host path. */
static void
time_upload (const uint8_t * src, size_t stride, size_t row, int h,
    uint8_t * dst)
{
  for (int i = 0; i < warmup + frames; i++) {
    CHECK_CUDA (cudaEventRecord (ev0, stream));
    const double t0 = now_us ();
    CHECK_CUDA (cudaMemcpy2DAsync (dst, row, src, stride, row, h,
            cudaMemcpyHostToDevice, stream));
    CHECK_CUDA (cudaStreamSynchronize (stream));
    const double t1 = now_us ();
    CHECK_CUDA (cudaEventRecord (ev1, stream));
    CHECK_CUDA (cudaEventSynchronize (ev1));
    if (i >= warmup) {
      float ms;
      CHECK_CUDA (cudaEventElapsedTime (&ms, ev0, ev1));
      wall_us[i - warmup] = t1 - t0;
      event_us[i - warmup] = ms * 1e3;
    }
  }
}

/* Work-free stream operations, each followed by a synchronisation: the
 * floor of any frame, and where the classical kernels' fixed cost goes. */
typedef enum
{
  FLOOR_MEMSET,                 /* cudaMemsetAsync of 4 bytes */
  FLOOR_EMPTY_1,                /* empty kernel, 1 block */
  FLOOR_EMPTY_FULL,             /* empty kernel, 8 blocks per SM */
  FLOOR_MAPPED,                 /* 1 block writes 8 bytes of mapped memory */
  FLOOR_TICKET_1,               /* add, fence, ticket, read-out: 1 block */
  FLOOR_TICKET_FULL,            /* the same, 8 blocks per SM */
  FLOOR_COUNT
} FloorOp;

static const char *const floor_names[FLOOR_COUNT] = {
  "memset+sync", "empty-1+sync", "empty-full+sync", "mapped+sync",
  "ticket-1+sync", "ticket-full+sync"
};

static struct
{
  uint8_t *scratch;
  unsigned long long *acc, *mapped, *mapped_dev;
  unsigned *ticket;
  int full_blocks;
} floor_bufs;

static cudaError_t
floor_op (FloorOp op, int i)
{
  switch (op) {
    case FLOOR_MEMSET:
      return cudaMemsetAsync (floor_bufs.scratch, i & 0xff, 4, stream);
    case FLOOR_EMPTY_1:
      return bench_floor_empty (stream, 1);
    case FLOOR_EMPTY_FULL:
      return bench_floor_empty (stream, floor_bufs.full_blocks);
    case FLOOR_MAPPED:
      return bench_floor_mapped (stream, floor_bufs.mapped_dev, i);
    case FLOOR_TICKET_1:
      return bench_floor_ticket (stream, 1, floor_bufs.acc,
          floor_bufs.ticket, floor_bufs.mapped_dev, i);
    case FLOOR_TICKET_FULL:
    default:
      return bench_floor_ticket (stream, floor_bufs.full_blocks,
          floor_bufs.acc, floor_bufs.ticket, floor_bufs.mapped_dev, i);
  }
}

static void
time_floor (FloorOp op)
{
  for (int i = 0; i < warmup + frames; i++) {
    CHECK_CUDA (cudaEventRecord (ev0, stream));
    const double t0 = now_us ();
    CHECK_CUDA (floor_op (op, i));
    CHECK_CUDA (cudaStreamSynchronize (stream));
    const double t1 = now_us ();
    CHECK_CUDA (cudaEventRecord (ev1, stream));
    CHECK_CUDA (cudaEventSynchronize (ev1));
    if (i >= warmup) {
      float ms;
      CHECK_CUDA (cudaEventElapsedTime (&ms, ev0, ev1));
      wall_us[i - warmup] = t1 - t0;
      event_us[i - warmup] = ms * 1e3;
    }
  }
}

/* Device-to-device copy bandwidth, bytes read plus bytes written. */
static double
copy_bandwidth (void)
{
  const size_t size = (size_t) 1 << 30;
  uint8_t *a, *b;
  float best = 1e30f;
  CHECK_CUDA (cudaMalloc ((void **) &a, size));
  CHECK_CUDA (cudaMalloc ((void **) &b, size));
  CHECK_CUDA (cudaMemset (a, 1, size));
  for (int i = 0; i < 12; i++) {
    float ms;
    CHECK_CUDA (cudaEventRecord (ev0, stream));
    CHECK_CUDA (cudaMemcpyAsync (b, a, size, cudaMemcpyDeviceToDevice, stream));
    CHECK_CUDA (cudaEventRecord (ev1, stream));
    CHECK_CUDA (cudaEventSynchronize (ev1));
    CHECK_CUDA (cudaEventElapsedTime (&ms, ev0, ev1));
    if (i >= 2 && ms < best)
      best = ms;
  }
  CHECK_CUDA (cudaFree (a));
  CHECK_CUDA (cudaFree (b));
  return 2.0 * size / (best * 1e-3);
}

static void
bench_size (SharpnessCuda * cuda, const struct cudaDeviceProp *prop,
    const char *size_name, int w, int h, const FrameLayout ** layouts,
    int nlayouts, int host_paths, FrameRng * rng)
{
  for (int l = 0; l < nlayouts; l++) {
    const FrameLayout *layout = layouts[l];
    const size_t row = frame_row_bytes (layout, w);
    const size_t stride = row;
    const size_t extent = frame_plane_extent (layout, stride, w, h);
    uint8_t *host = malloc (extent);
    if (!host) {
      fprintf (stderr, "out of memory\n");
      exit (1);
    }
    frame_fill (host, stride, layout, w, h, FRAME_NATURAL, rng);

    /* Enough device frames to overflow L2 three times. */
    int n = (int) (3.0 * prop->l2CacheSize / (double) extent) + 1;
    n = n < 2 ? 2 : n > 64 ? 64 : n;
    SharpnessPlane *planes = calloc (n, sizeof *planes);
    uint8_t **dev = calloc (n, sizeof *dev);
    for (int i = 0; i < n; i++) {
      size_t pitch;
      CHECK_CUDA (cudaMallocPitch ((void **) &dev[i], &pitch, row, h));
      CHECK_CUDA (cudaMemcpy2D (dev[i], pitch, host, stride, row, h,
              cudaMemcpyHostToDevice));
      planes[i] = frame_plane (layout, dev[i], pitch, w, h);
    }

    for (int m = 0; m < SHARPNESS_METRIC_COUNT; m++) {
      if (sharpness_metric_info[m].kind != SHARPNESS_KIND_SUMS)
        continue;
      time_sums (cuda, sharpness_cuda_sums_device, m, planes, n);
      report ("device", size_name, layout->name, sharpness_metric_info[m].nick,
          (double) extent);
      if (l == 0) {
        time_sums (cuda, sharpness_cuda_sums_device, m, planes, 1);
        report ("device-hot", size_name, layout->name,
            sharpness_metric_info[m].nick, (double) extent);
      }
    }

    if (host_paths && (layout->samples == SHARPNESS_SAMPLES_Y8 ||
            layout->samples == SHARPNESS_SAMPLES_V210)) {
      uint8_t *pinned = sharpness_cuda_host_alloc (extent);
      if (!pinned) {
        fprintf (stderr, "pinned allocation failed\n");
        exit (1);
      }
      memcpy (pinned, host, extent);
      const uint8_t *base[2] = { host, pinned };
      static const char *const names[2] = { "host-pageable", "host-pinned" };
      static const char *const floors[2] =
          { "copy-pageable", "copy-pinned" };
      for (int k = 0; k < 2; k++) {
        const SharpnessPlane hp = frame_plane (layout, base[k], stride, w, h);
        double ratio[SHARPNESS_METRIC_COUNT];
        time_upload (base[k], stride, row, h, dev[0]);
        const double copy50 = percentile (wall_us, frames, 0.5);
        report (floors[k], size_name, layout->name, "-", (double) extent);
        for (int m = 0; m < SHARPNESS_METRIC_COUNT; m++) {
          if (sharpness_metric_info[m].kind != SHARPNESS_KIND_SUMS)
            continue;
          time_sums (cuda, sharpness_cuda_sums_host, m, &hp, 1);
          ratio[m] = percentile (wall_us, frames, 0.5) / copy50;
          report (names[k], size_name, layout->name,
              sharpness_metric_info[m].nick, (double) extent);
        }
        printf ("# ratio %s %s %s / %s:", size_name, layout->name, names[k],
            floors[k]);
        for (int m = 0; m < SHARPNESS_METRIC_COUNT; m++)
          if (sharpness_metric_info[m].kind == SHARPNESS_KIND_SUMS)
            printf (" %s %.2f", sharpness_metric_info[m].nick, ratio[m]);
        printf ("\n");
      }
      sharpness_cuda_host_free (pinned);
    }

    for (int i = 0; i < n; i++)
      CHECK_CUDA (cudaFree (dev[i]));
    free (dev);
    free (planes);
    free (host);
  }
}

/* Entropy and variance on GRAY8 frames of @w x @h with flat, natural and
 * random content. */
static void
bench_content (SharpnessCuda * cuda, const struct cudaDeviceProp *prop,
    const char *size_name, int w, int h, FrameRng * rng)
{
  static const SharpnessMetric metrics[] = { SHARPNESS_METRIC_ENTROPY,
    SHARPNESS_METRIC_VARIANCE
  };
  static const char *const contents[] = { "flat", "natural", "random" };
  const FrameLayout *layout = frame_layout_find ("GRAY8");
  const size_t row = frame_row_bytes (layout, w);
  const size_t extent = frame_plane_extent (layout, row, w, h);
  uint8_t *host = malloc (extent);
  if (!host) {
    fprintf (stderr, "out of memory\n");
    exit (1);
  }
  int n = (int) (3.0 * prop->l2CacheSize / (double) extent) + 1;
  n = n < 2 ? 2 : n > 64 ? 64 : n;
  SharpnessPlane *planes = calloc (n, sizeof *planes);
  uint8_t **dev = calloc (n, sizeof *dev);

  for (int c = 0; c < 3; c++) {
    if (c == 0)
      memset (host, 128, extent);
    else
      frame_fill (host, row, layout, w, h, c == 1 ? FRAME_NATURAL :
          FRAME_RANDOM, rng);
    for (int i = 0; i < n; i++) {
      size_t pitch;
      CHECK_CUDA (cudaMallocPitch ((void **) &dev[i], &pitch, row, h));
      CHECK_CUDA (cudaMemcpy2D (dev[i], pitch, host, row, row, h,
              cudaMemcpyHostToDevice));
      planes[i] = frame_plane (layout, dev[i], pitch, w, h);
    }
    for (size_t k = 0; k < sizeof metrics / sizeof metrics[0]; k++) {
      char what[32];
      snprintf (what, sizeof what, "content-%s", contents[c]);
      time_sums (cuda, sharpness_cuda_sums_device, metrics[k], planes, n);
      report (what, size_name, layout->name,
          sharpness_metric_info[metrics[k]].nick, (double) extent);
    }
    for (int i = 0; i < n; i++)
      CHECK_CUDA (cudaFree (dev[i]));
  }
  free (dev);
  free (planes);
  free (host);
}

/* ---- content measurements beside a metric ---- */

typedef enum
{
  PASS_METRIC,                  /* the metric alone */
  PASS_CONTENT,                 /* the content launch alone */
  PASS_BESIDE,                  /* content beside the metric: the scorer */
  PASS_IN_ORDER,                /* content in order before the metric */
  PASS_SERVICE,                 /* metric on another stream, content ours */
  PASS_FUSED,                   /* content in the metric's launch */
  PASS_COUNT
} ContentPass;

static const char *const pass_names[PASS_COUNT] = {
  "metric", "content", "metric+beside", "metric+in-order",
  "service+content", "metric+fused"
};

/* One frame of @pass over @planes: wall time around the host calls, CUDA
 * events on the backend's stream around it. */
static void
time_content_pass (SharpnessCuda * cuda, SharpnessCuda * other,
    ContentPass pass, const SharpnessContentPlanes * planes, int n,
    const SharpnessContentParams * params)
{
  for (int i = 0; i < warmup + frames; i++) {
    const SharpnessContentPlanes *p = &planes[i % n];
    SharpnessContentSums cs;
    SharpnessSums sums;
    SharpnessStatus st = SHARPNESS_OK;

    CHECK_CUDA (cudaEventRecord (ev0, stream));
    const double t0 = now_us ();
    switch (pass) {
      case PASS_METRIC:
        st = sharpness_cuda_sums_device (cuda, content_metric, &p->luma,
            &sums);
        break;
      case PASS_CONTENT:
        st = sharpness_cuda_content_device (cuda, p, params, &cs);
        break;
      case PASS_BESIDE:
      case PASS_IN_ORDER:
      case PASS_SERVICE:
      case PASS_FUSED:
        st = sharpness_cuda_content_begin (cuda, p, params,
            pass == PASS_BESIDE ? SHARPNESS_CONTENT_BESIDE :
            pass == PASS_FUSED ? SHARPNESS_CONTENT_FUSED :
            SHARPNESS_CONTENT_IN_ORDER);
        if (st == SHARPNESS_OK) {
          SharpnessStatus ms = sharpness_cuda_sums_device (pass ==
              PASS_SERVICE ? other : cuda, content_metric,
              &p->luma, &sums);
          st = sharpness_cuda_content_end (cuda, &cs);
          if (ms != SHARPNESS_OK)
            st = ms;
        }
        break;
      default:
        break;
    }
    if (pass != PASS_METRIC)
      sharpness_cuda_content_reference (cuda, 1);
    const double t1 = now_us ();
    if (st != SHARPNESS_OK) {
      fprintf (stderr, "%s: %s\n", pass_names[pass],
          sharpness_cuda_last_error (cuda));
      exit (1);
    }
    CHECK_CUDA (cudaEventRecord (ev1, stream));
    CHECK_CUDA (cudaEventSynchronize (ev1));
    if (i >= warmup) {
      float ms;
      CHECK_CUDA (cudaEventElapsedTime (&ms, ev0, ev1));
      wall_us[i - warmup] = t1 - t0;
      event_us[i - warmup] = ms * 1e3;
    }
  }
}

/* The passes on frames of @w x @h in device memory, rotating over buffers
 * three times the L2: @format NV12 and P010_10LE (luma and chroma planes)
 * or UYVY (one packed plane, the luma read in place).  @flat: the edge
 * count of the flat state too; without it, black and freeze alone (what
 * the overhead target is about).  A "# overhead" line gives each pass's
 * wall p50 over the metric's. */
static void
bench_content_pass (SharpnessCuda * cuda, SharpnessCuda * other,
    const struct cudaDeviceProp *prop, const char *size_name, int w, int h,
    const char *format, int flat, FrameRng * rng)
{
  const int packed = strcmp (format, "UYVY") == 0;
  const int bps = strcmp (format, "P010_10LE") == 0 ? 2 : 1;
  const FrameLayout *layout = frame_layout_find (packed ? "UYVY" :
      bps == 1 ? "GRAY8" : "P010_10LE");
  const int cw = 2 * ((w + 1) / 2), ch = packed ? 0 : h / 2;
  const size_t row0 = packed ? 2 * (size_t) cw : (size_t) w * bps;
  const size_t row1 = (size_t) cw * bps;
  const size_t bytes = row0 * h + row1 * ch;
  const int nplanes = packed ? 1 : 2;
  uint8_t *host = malloc (row0 * h);
  if (!host) {
    fprintf (stderr, "out of memory\n");
    exit (1);
  }
  frame_fill (host, row0, layout, w, h, FRAME_NATURAL, rng);

  int n = (int) (3.0 * prop->l2CacheSize / (double) bytes) + 1;
  n = n < 2 ? 2 : n > 64 ? 64 : n;
  SharpnessContentPlanes *planes = calloc (n, sizeof *planes);
  uint8_t **dev = calloc (2 * n, sizeof *dev);
  if (!planes || !dev) {
    fprintf (stderr, "out of memory\n");
    exit (1);
  }
  for (int i = 0; i < n; i++) {
    size_t pitch0, pitch1 = 0;
    CHECK_CUDA (cudaMallocPitch ((void **) &dev[2 * i], &pitch0, row0, h));
    CHECK_CUDA (cudaMemcpy2D (dev[2 * i], pitch0, host, row0, row0, h,
            cudaMemcpyHostToDevice));
    if (!packed) {
      CHECK_CUDA (cudaMallocPitch ((void **) &dev[2 * i + 1], &pitch1, row1,
              ch));
      /* Chroma: the luma's first rows will do. */
      CHECK_CUDA (cudaMemcpy2D (dev[2 * i + 1], pitch1, host, row0,
              row1 < row0 ? row1 : row0, ch, cudaMemcpyHostToDevice));
    }
    planes[i].luma = frame_plane (layout, dev[2 * i], pitch0, w, h);
    planes[i].data[0] = dev[2 * i];
    planes[i].stride[0] = pitch0;
    planes[i].data[1] = dev[2 * i + 1];
    planes[i].stride[1] = pitch1;
  }

  SharpnessContentParams params;
  memset (&params, 0, sizeof params);
  params.black = 1;
  params.black_threshold = bps == 1 ? 37 : 151;
  params.structure = flat;
  params.edge_level = 8;
  params.n_planes = nplanes;
  params.bytes_per_sample = bps;
  params.width[0] = packed ? 2 * cw : w;
  params.height[0] = h;
  params.width[1] = cw;
  params.height[1] = ch;

  char what[64];
  double wall50[PASS_COUNT], ev50[PASS_COUNT];
  for (int k = 0; k < PASS_COUNT; k++) {
    sharpness_cuda_content_reference (cuda, 0);
    time_content_pass (cuda, other, k, planes, n, &params);
    snprintf (what, sizeof what, "%s%s", pass_names[k], k == PASS_METRIC ?
        "" : flat ? " bf+flat" : " bf");
    report (what, size_name, format,
        sharpness_metric_info[content_metric].nick, (double) bytes);
    wall50[k] = percentile (wall_us, frames, 0.5);
    ev50[k] = percentile (event_us, frames, 0.5);
  }
  sharpness_cuda_content_reference (cuda, 0);
  printf ("# overhead %s %s %s, %s, wall p50 over the metric's "
      "(events in brackets):", size_name, format,
      sharpness_metric_info[content_metric].nick, flat ?
      "black+freeze+flat" : "black+freeze");
  for (int k = 1; k < PASS_COUNT; k++)
    printf (" %s %.3f (%.3f)", pass_names[k], wall50[k] / wall50[0],
        ev50[k] / ev50[0]);
  printf ("\n");
  fflush (stdout);

  for (int i = 0; i < 2 * n; i++)
    if (dev[i])
      CHECK_CUDA (cudaFree (dev[i]));
  free (dev);
  free (planes);
  free (host);
}

/* ---- tiles, ROIs and batches ---- */

typedef struct
{
  SharpnessCuda *cuda;
  SharpnessMetric metric;
  SharpnessPlane *planes;
  int n;
  SharpnessTileSums *tiles;     /* NULL: plain launch */
  SharpnessRegion *regions;     /* batch: the regions of one call ... */
  int k;                        /* ... and their count */
  int rois;                     /* the regions are ROIs of planes[i % n] */
  SharpnessSums *sums;
} TileBench;

static SharpnessStatus
tile_bench_op (TileBench * b, int i)
{
  const SharpnessPlane *p = &b->planes[i % b->n];
  if (b->regions) {
    for (int j = 0; j < b->k; j++)
      b->regions[j].plane = b->rois ? *p : b->planes[(i * b->k + j) % b->n];
    return sharpness_cuda_sums_batch (b->cuda, b->metric, b->regions, b->k,
        b->sums);
  }
  if (b->tiles)
    return sharpness_cuda_sums_tiles (b->cuda, b->metric, p, b->sums,
        b->tiles);
  return sharpness_cuda_sums_device (b->cuda, b->metric, p, b->sums);
}

/* Median wall and event times of @b, per call. */
static void
time_tile_bench (TileBench * b, double *wall50, double *event50)
{
  for (int i = 0; i < warmup + frames; i++) {
    CHECK_CUDA (cudaEventRecord (ev0, stream));
    const double t0 = now_us ();
    if (tile_bench_op (b, i) != SHARPNESS_OK) {
      fprintf (stderr, "%s: %s\n", sharpness_metric_info[b->metric].nick,
          sharpness_cuda_last_error (b->cuda));
      exit (1);
    }
    const double t1 = now_us ();
    CHECK_CUDA (cudaEventRecord (ev1, stream));
    CHECK_CUDA (cudaEventSynchronize (ev1));
    if (i >= warmup) {
      float ms;
      CHECK_CUDA (cudaEventElapsedTime (&ms, ev0, ev1));
      wall_us[i - warmup] = t1 - t0;
      event_us[i - warmup] = ms * 1e3;
    }
  }
  *wall50 = percentile (wall_us, frames, 0.5);
  *event50 = percentile (event_us, frames, 0.5);
}

static void
tile_row (const char *metric, const char *what, int per, double wall,
    double event, double base_wall, double base_event)
{
  printf ("%-10s %-16s %9.1f %9.1f %9.1f %9.1f %7.3f %7.3f\n", metric, what,
      wall, event, wall / per, event / per, wall / per / base_wall,
      event / per / base_event);
  fflush (stdout);
}

static void
bench_tiles (SharpnessCuda * cuda, FrameRng * rng)
{
  static const SharpnessMetric metrics[] = { SHARPNESS_METRIC_LAPLACIAN,
    SHARPNESS_METRIC_TENENGRAD, SHARPNESS_METRIC_ENTROPY
  };
  static const int grids[][2] = { {8, 4}, {64, 64} };
  static const int batch_k[] = { 1, 8, 32, 64 };
  enum { N = 64, ROIS = 16 };
  const int w = 1920, h = 1080;
  const FrameLayout *layout = frame_layout_find ("GRAY8");
  const size_t row = frame_row_bytes (layout, w);
  uint8_t *host = malloc (row * h);
  SharpnessPlane planes[N];
  uint8_t *dev[N];
  SharpnessRegion regions[N + ROIS + 1];
  SharpnessSums sums[N + ROIS + 1];

  if (!host)
    exit (1);
  for (int i = 0; i < N; i++) {
    size_t pitch;
    frame_fill (host, row, layout, w, h, FRAME_NATURAL, rng);
    CHECK_CUDA (cudaMallocPitch ((void **) &dev[i], &pitch, row, h));
    CHECK_CUDA (cudaMemcpy2D (dev[i], pitch, host, row, row, h,
            cudaMemcpyHostToDevice));
    planes[i] = frame_plane (layout, dev[i], pitch, w, h);
  }

  printf ("\n# tiles, ROIs and batches: 1920x1080 GRAY8, %d frames in "
      "device memory; /fr = per frame; r- = per frame / plain launch\n", N);
  printf ("%-10s %-16s %9s %9s %9s %9s %7s %7s\n", "metric", "case",
      "wall-p50", "event-p50", "wall/fr", "event/fr", "r-wall", "r-event");
  for (size_t mi = 0; mi < sizeof metrics / sizeof metrics[0]; mi++) {
    const SharpnessMetric m = metrics[mi];
    const char *nick = sharpness_metric_info[m].nick;
    TileBench b = { cuda, m, planes, N, NULL, NULL, 0, 0, sums };
    double base_wall, base_event, wall, event;

    time_tile_bench (&b, &base_wall, &base_event);
    tile_row (nick, "tiles off", 1, base_wall, base_event, base_wall,
        base_event);

    for (size_t g = 0; g < sizeof grids / sizeof grids[0]; g++) {
      SharpnessTileSums t;
      char what[32];
      if (sharpness_tile_sums_init (&t, m, grids[g][0], grids[g][1]) !=
          SHARPNESS_OK)
        exit (1);
      b.tiles = &t;
      time_tile_bench (&b, &wall, &event);
      snprintf (what, sizeof what, "tiles %dx%d", grids[g][0], grids[g][1]);
      tile_row (nick, what, 1, wall, event, base_wall, base_event);
      b.tiles = NULL;
      sharpness_tile_sums_clear (&t);
    }

    /* The frame and 16 ROIs at odd offsets: large ones (64 to 511 pixels
     * a side, most of the frame's area in all) and detector-sized ones
     * (48 to 160: faces, objects).  Each ROI is its own region, so its
     * cost follows its area: the rows print the ROIs' share of the
     * frame's pixels. */
    static const struct
    {
      int min, span;
    } sizes[] = { {64, 448}, {48, 113} };
    for (size_t z = 0; z < sizeof sizes / sizeof sizes[0]; z++) {
      FrameRng boxes;
      long long area = 0;
      char what[32];
      frame_rng_seed (&boxes, 16);
      memset (regions, 0, sizeof regions);
      for (int j = 1; j <= ROIS; j++) {
        SharpnessRect *r = &regions[j].rect;
        r->width = sizes[z].min + (int) (frame_rng_next (&boxes) %
            sizes[z].span);
        r->height = sizes[z].min + (int) (frame_rng_next (&boxes) %
            sizes[z].span);
        r->x = (int) (frame_rng_next (&boxes) % (w - r->width));
        r->y = (int) (frame_rng_next (&boxes) % (h - r->height));
        area += (long long) r->width * r->height;
      }
      b.regions = regions;
      b.k = ROIS + 1;
      b.rois = 1;
      time_tile_bench (&b, &wall, &event);
      snprintf (what, sizeof what, "+16 ROIs %d%%", (int) (100 * area /
              ((long long) w * h)));
      tile_row (nick, what, 1, wall, event, base_wall, base_event);
    }

    b.rois = 0;
    memset (regions, 0, sizeof regions);
    for (size_t k = 0; k < sizeof batch_k / sizeof batch_k[0]; k++) {
      char what[32];
      b.k = batch_k[k];
      time_tile_bench (&b, &wall, &event);
      snprintf (what, sizeof what, "batch K=%d", batch_k[k]);
      tile_row (nick, what, batch_k[k], wall, event, base_wall, base_event);
    }
  }
  for (int i = 0; i < N; i++)
    CHECK_CUDA (cudaFree (dev[i]));
  free (host);
}

int
main (int argc, char **argv)
{
  const FrameLayout *layouts[16];
  int nlayouts = 0, host_paths = 1, content_only = 0, tiles = 0;
  int content_pass = 0, content_nv12_only = 0;
  const char *why = NULL;

  for (int i = 1; i < argc; i++) {
    if (strcmp (argv[i], "--frames") == 0 && i + 1 < argc) {
      frames = atoi (argv[++i]);
    } else if (strcmp (argv[i], "--warmup") == 0 && i + 1 < argc) {
      warmup = atoi (argv[++i]);
    } else if (strcmp (argv[i], "--layout") == 0 && i + 1 < argc &&
        nlayouts < 16) {
      layouts[nlayouts] = frame_layout_find (argv[++i]);
      if (!layouts[nlayouts++]) {
        fprintf (stderr, "unknown layout %s\n", argv[i]);
        return 2;
      }
    } else if (strcmp (argv[i], "--no-host") == 0) {
      host_paths = 0;
    } else if (strcmp (argv[i], "--content-only") == 0) {
      content_only = 1;
    } else if (strcmp (argv[i], "--tiles") == 0) {
      tiles = 1;
    } else if (strcmp (argv[i], "--tiles-only") == 0) {
      tiles = 2;
    } else if (strcmp (argv[i], "--content-pass") == 0) {
      content_pass = 1;
    } else if (strcmp (argv[i], "--content-pass-only") == 0) {
      content_pass = 2;
    } else if (strcmp (argv[i], "--content-metric") == 0 && i + 1 < argc) {
      const int m = sharpness_metric_from_nick (argv[++i]);
      if (m < 0 || sharpness_metric_info[m].kind != SHARPNESS_KIND_SUMS) {
        fprintf (stderr, "%s is not a classical metric\n", argv[i]);
        return 2;
      }
      content_metric = (SharpnessMetric) m;
    } else if (strcmp (argv[i], "--content-nv12-only") == 0) {
      content_nv12_only = 1;
    } else {
      fprintf (stderr, "usage: %s [--frames N] [--warmup N] [--layout NAME]"
          "... [--no-host] [--content-only] [--tiles | --tiles-only]"
          " [--content-pass | --content-pass-only] [--content-metric NICK]"
          " [--content-nv12-only]\n", argv[0]);
      return 2;
    }
  }
  if (frames < 1 || warmup < 0) {
    fprintf (stderr, "bad --frames or --warmup\n");
    return 2;
  }
  if (nlayouts == 0) {
    static const char *const def[] = { "GRAY8", "P010_10LE", "RGBx", "RGB" };
    for (int i = 0; i < 4; i++)
      layouts[nlayouts++] = frame_layout_find (def[i]);
  }
  if (sharpness_cuda_device_count (&why) < 1) {
    printf ("skipped: no CUDA device (%s)\n", why ? why : "none");
    return 77;
  }

  struct cudaDeviceProp prop;
  int driver = 0, runtime = 0;
  CHECK_CUDA (cudaSetDevice (0));
  CHECK_CUDA (cudaGetDeviceProperties (&prop, 0));
  CHECK_CUDA (cudaDriverGetVersion (&driver));
  CHECK_CUDA (cudaRuntimeGetVersion (&runtime));
  CHECK_CUDA (cudaStreamCreateWithFlags (&stream, cudaStreamNonBlocking));
  CHECK_CUDA (cudaEventCreate (&ev0));
  CHECK_CUDA (cudaEventCreate (&ev1));
  wall_us = calloc (frames, sizeof *wall_us);
  event_us = calloc (frames, sizeof *event_us);

  SharpnessCuda *cuda;
  if (sharpness_cuda_new (stream, &cuda) != SHARPNESS_OK) {
    fprintf (stderr, "sharpness_cuda_new: %s\n",
        sharpness_cuda_last_error (NULL));
    return 1;
  }

  const double bw = copy_bandwidth ();
  printf ("# %s, %d SMs, L2 %d MiB, driver %d, runtime %d\n", prop.name,
      prop.multiProcessorCount, prop.l2CacheSize >> 20, driver, runtime);
  printf ("# device-to-device copy: %.0f GB/s (read + written)\n", bw / 1e9);
  printf ("# frames %d after %d warm-up; times in us; MB = plane bytes\n",
      frames, warmup);
  printf ("%-10s %-10s %-10s %-16s %9s %9s %9s %10s\n", "size", "layout",
      "metric", "path", "wall-p50", "wall-p99", "event-p50", "MB");

  floor_bufs.full_blocks = 8 * prop.multiProcessorCount;
  CHECK_CUDA (cudaMalloc ((void **) &floor_bufs.scratch, 16));
  CHECK_CUDA (cudaMalloc ((void **) &floor_bufs.acc, 8));
  CHECK_CUDA (cudaMalloc ((void **) &floor_bufs.ticket, 4));
  CHECK_CUDA (cudaMemset (floor_bufs.acc, 0, 8));
  CHECK_CUDA (cudaMemset (floor_bufs.ticket, 0, 4));
  CHECK_CUDA (cudaHostAlloc ((void **) &floor_bufs.mapped, 8,
          cudaHostAllocMapped));
  CHECK_CUDA (cudaHostGetDevicePointer ((void **) &floor_bufs.mapped_dev,
          floor_bufs.mapped, 0));
  for (int op = 0; op < FLOOR_COUNT && !content_only && tiles != 2 &&
      content_pass != 2; op++) {
    time_floor (op);
    report (floor_names[op], "-", "-", "-", 0);
  }
  CHECK_CUDA (cudaFree (floor_bufs.scratch));
  CHECK_CUDA (cudaFree (floor_bufs.acc));
  CHECK_CUDA (cudaFree (floor_bufs.ticket));
  CHECK_CUDA (cudaFreeHost (floor_bufs.mapped));

  FrameRng rng;
  frame_rng_seed (&rng, 2026);

  if (tiles == 2) {
    bench_tiles (cuda, &rng);
    sharpness_cuda_free (cuda);
    return 0;
  }
  if (content_pass) {
    /* The scoring service's stand-in: a backend on a stream of its own. */
    cudaStream_t other_stream;
    SharpnessCuda *other;
    CHECK_CUDA (cudaStreamCreateWithFlags (&other_stream,
            cudaStreamNonBlocking));
    if (sharpness_cuda_new (other_stream, &other) != SHARPNESS_OK) {
      fprintf (stderr, "sharpness_cuda_new: %s\n",
          sharpness_cuda_last_error (NULL));
      return 1;
    }
    /* Black and freeze (the target), then with the flat state's edges. */
    for (int flat = 0; flat < 2; flat++) {
      bench_content_pass (cuda, other, &prop, "1920x1080", 1920, 1080,
          "NV12", flat, &rng);
      if (content_nv12_only)
        break;
      bench_content_pass (cuda, other, &prop, "1920x1080", 1920, 1080,
          "P010_10LE", flat, &rng);
      bench_content_pass (cuda, other, &prop, "1920x1080", 1920, 1080,
          "UYVY", flat, &rng);
    }
    if (!content_nv12_only)
      bench_content_pass (cuda, other, &prop, "3840x2160", 3840, 2160,
          "NV12", 1, &rng);
    sharpness_cuda_free (other);
    CHECK_CUDA (cudaStreamDestroy (other_stream));
    if (content_pass == 2) {
      sharpness_cuda_free (cuda);
      return 0;
    }
  }
  if (!content_only) {
    /* Fixed cost of a frame: one launch on a 1x1 plane. */
    const FrameLayout *gray = frame_layout_find ("GRAY8");
    bench_size (cuda, &prop, "1x1", 1, 1, &gray, 1, 0, &rng);
    bench_size (cuda, &prop, "1920x1080", 1920, 1080, layouts, nlayouts,
        host_paths, &rng);
    bench_size (cuda, &prop, "3840x2160", 3840, 2160, layouts, nlayouts,
        host_paths, &rng);
  }
  bench_content (cuda, &prop, "1920x1080", 1920, 1080, &rng);
  if (tiles)
    bench_tiles (cuda, &rng);

  sharpness_cuda_free (cuda);
  CHECK_CUDA (cudaEventDestroy (ev0));
  CHECK_CUDA (cudaEventDestroy (ev1));
  CHECK_CUDA (cudaStreamDestroy (stream));
  free (wall_us);
  free (event_us);
  return 0;
}
