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
#include "bench-cuda-kernels.h"
#include "bench-floor.h"

typedef SharpnessStatus (*SumsFunc) (SharpnessCuda *, SharpnessMetric,
    const SharpnessPlane *, SharpnessSums *);

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
    sample_end (i, t0, t1);
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
    sample_end (i, t0, t1);
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
    sample_end (i, t0, t1);
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
    const char *size_name, int w, int h, const FrameLayout * const *layouts,
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

/* The command line (the file comment's usage). */
typedef struct
{
  const FrameLayout *layouts[16];
  int nlayouts, host_paths, content_only, content_nv12_only;
  int tiles, content_pass;      /* 1: the table too, 2: that table only */
} KernelsOptions;

/* 0, or the exit status of a bad command line. */
static int
parse_args (int argc, char **argv, KernelsOptions * o)
{
  memset (o, 0, sizeof (*o));
  o->host_paths = 1;
  for (int i = 1; i < argc; i++) {
    if (strcmp (argv[i], "--frames") == 0 && i + 1 < argc) {
      frames = atoi (argv[++i]);
    } else if (strcmp (argv[i], "--warmup") == 0 && i + 1 < argc) {
      warmup = atoi (argv[++i]);
    } else if (strcmp (argv[i], "--layout") == 0 && i + 1 < argc &&
        o->nlayouts < 16) {
      o->layouts[o->nlayouts] = frame_layout_find (argv[++i]);
      if (!o->layouts[o->nlayouts++]) {
        fprintf (stderr, "unknown layout %s\n", argv[i]);
        return 2;
      }
    } else if (strcmp (argv[i], "--no-host") == 0) {
      o->host_paths = 0;
    } else if (strcmp (argv[i], "--content-only") == 0) {
      o->content_only = 1;
    } else if (strcmp (argv[i], "--tiles") == 0) {
      o->tiles = 1;
    } else if (strcmp (argv[i], "--tiles-only") == 0) {
      o->tiles = 2;
    } else if (strcmp (argv[i], "--content-pass") == 0) {
      o->content_pass = 1;
    } else if (strcmp (argv[i], "--content-pass-only") == 0) {
      o->content_pass = 2;
    } else if (strcmp (argv[i], "--content-metric") == 0 && i + 1 < argc) {
      const int m = sharpness_metric_from_nick (argv[++i]);
      if (m < 0 || sharpness_metric_info[m].kind != SHARPNESS_KIND_SUMS) {
        fprintf (stderr, "%s is not a classical metric\n", argv[i]);
        return 2;
      }
      content_metric = (SharpnessMetric) m;
    } else if (strcmp (argv[i], "--content-nv12-only") == 0) {
      o->content_nv12_only = 1;
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
  if (o->nlayouts == 0) {
    static const char *const def[] = { "GRAY8", "P010_10LE", "RGBx", "RGB" };
    for (int i = 0; i < 4; i++)
      o->layouts[o->nlayouts++] = frame_layout_find (def[i]);
  }
  return 0;
}

/* The work-free floors, one row each. */
static void
measure_floors (const struct cudaDeviceProp *prop)
{
  floor_bufs.full_blocks = 8 * prop->multiProcessorCount;
  CHECK_CUDA (cudaMalloc ((void **) &floor_bufs.scratch, 16));
  CHECK_CUDA (cudaMalloc ((void **) &floor_bufs.acc, 8));
  CHECK_CUDA (cudaMalloc ((void **) &floor_bufs.ticket, 4));
  CHECK_CUDA (cudaMemset (floor_bufs.acc, 0, 8));
  CHECK_CUDA (cudaMemset (floor_bufs.ticket, 0, 4));
  CHECK_CUDA (cudaHostAlloc ((void **) &floor_bufs.mapped, 8,
          cudaHostAllocMapped));
  CHECK_CUDA (cudaHostGetDevicePointer ((void **) &floor_bufs.mapped_dev,
          floor_bufs.mapped, 0));
  for (int op = 0; op < FLOOR_COUNT; op++) {
    time_floor (op);
    report (floor_names[op], "-", "-", "-", 0);
  }
  CHECK_CUDA (cudaFree (floor_bufs.scratch));
  CHECK_CUDA (cudaFree (floor_bufs.acc));
  CHECK_CUDA (cudaFree (floor_bufs.ticket));
  CHECK_CUDA (cudaFreeHost (floor_bufs.mapped));
}

/* The --content-pass table: 1080p NV12, P010 and UYVY, black and freeze
 * then with the flat state's edges, and 4K NV12 (@nv12_only: 1080p NV12,
 * black and freeze alone). */
static void
run_content_passes (SharpnessCuda * cuda, const struct cudaDeviceProp *prop,
    int nv12_only, FrameRng * rng)
{
  /* The scoring service's stand-in: a backend on a stream of its own. */
  cudaStream_t other_stream;
  SharpnessCuda *other;

  CHECK_CUDA (cudaStreamCreateWithFlags (&other_stream,
          cudaStreamNonBlocking));
  if (sharpness_cuda_new (other_stream, &other) != SHARPNESS_OK) {
    fprintf (stderr, "sharpness_cuda_new: %s\n",
        sharpness_cuda_last_error (NULL));
    exit (1);
  }
  /* Black and freeze (the target), then with the flat state's edges. */
  for (int flat = 0; flat < 2; flat++) {
    bench_content_pass (cuda, other, prop, "1920x1080", 1920, 1080,
        "NV12", flat, rng);
    if (nv12_only)
      break;
    bench_content_pass (cuda, other, prop, "1920x1080", 1920, 1080,
        "P010_10LE", flat, rng);
    bench_content_pass (cuda, other, prop, "1920x1080", 1920, 1080,
        "UYVY", flat, rng);
  }
  if (!nv12_only)
    bench_content_pass (cuda, other, prop, "3840x2160", 3840, 2160,
        "NV12", 1, rng);
  sharpness_cuda_free (other);
  CHECK_CUDA (cudaStreamDestroy (other_stream));
}

/* The device, the copy bandwidth and the table's heading. */
static void
print_heading (const struct cudaDeviceProp *prop)
{
  int driver = 0, runtime = 0;

  CHECK_CUDA (cudaDriverGetVersion (&driver));
  CHECK_CUDA (cudaRuntimeGetVersion (&runtime));
  const double bw = copy_bandwidth ();
  printf ("# %s, %d SMs, L2 %d MiB, driver %d, runtime %d\n", prop->name,
      prop->multiProcessorCount, prop->l2CacheSize >> 20, driver, runtime);
  printf ("# device-to-device copy: %.0f GB/s (read + written)\n", bw / 1e9);
  printf ("# frames %d after %d warm-up; times in us; MB = plane bytes\n",
      frames, warmup);
  printf ("%-10s %-10s %-10s %-16s %9s %9s %9s %10s\n", "size", "layout",
      "metric", "path", "wall-p50", "wall-p99", "event-p50", "MB");
}

/* The tables the options ask for, in the order of the file comment. */
static void
run_tables (SharpnessCuda * cuda, const struct cudaDeviceProp *prop,
    const KernelsOptions * o)
{
  FrameRng rng;

  if (!o->content_only && o->tiles != 2 && o->content_pass != 2)
    measure_floors (prop);
  frame_rng_seed (&rng, 2026);
  if (o->tiles == 2) {
    bench_tiles (cuda, &rng);
    return;
  }
  if (o->content_pass) {
    run_content_passes (cuda, prop, o->content_nv12_only, &rng);
    if (o->content_pass == 2)
      return;
  }
  if (!o->content_only) {
    /* Fixed cost of a frame: one launch on a 1x1 plane. */
    const FrameLayout *gray = frame_layout_find ("GRAY8");
    bench_size (cuda, prop, "1x1", 1, 1, &gray, 1, 0, &rng);
    bench_size (cuda, prop, "1920x1080", 1920, 1080, o->layouts,
        o->nlayouts, o->host_paths, &rng);
    bench_size (cuda, prop, "3840x2160", 3840, 2160, o->layouts,
        o->nlayouts, o->host_paths, &rng);
  }
  bench_content (cuda, prop, "1920x1080", 1920, 1080, &rng);
  if (o->tiles)
    bench_tiles (cuda, &rng);
}

int
main (int argc, char **argv)
{
  KernelsOptions o;
  struct cudaDeviceProp prop;
  SharpnessCuda *cuda;
  int status = parse_args (argc, argv, &o);

  if (status)
    return status;
  check_cuda_device_or_skip ();
  CHECK_CUDA (cudaSetDevice (0));
  CHECK_CUDA (cudaGetDeviceProperties (&prop, 0));
  CHECK_CUDA (cudaStreamCreateWithFlags (&stream, cudaStreamNonBlocking));
  CHECK_CUDA (cudaEventCreate (&ev0));
  CHECK_CUDA (cudaEventCreate (&ev1));
  wall_us = calloc (frames, sizeof *wall_us);
  event_us = calloc (frames, sizeof *event_us);
  if (!wall_us || !event_us) {
    fprintf (stderr, "out of memory\n");
    return 1;
  }
  if (sharpness_cuda_new (stream, &cuda) != SHARPNESS_OK) {
    fprintf (stderr, "sharpness_cuda_new: %s\n",
        sharpness_cuda_last_error (NULL));
    return 1;
  }

  print_heading (&prop);
  run_tables (cuda, &prop, &o);

  sharpness_cuda_free (cuda);
  CHECK_CUDA (cudaEventDestroy (ev0));
  CHECK_CUDA (cudaEventDestroy (ev1));
  CHECK_CUDA (cudaStreamDestroy (stream));
  free (wall_us);
  free (event_us);
  return 0;
}
