/* bench-cuda-tiles.c: tiles, ROIs and batches against the plain launch
 * (--tiles, the table of docs/reference/tiles.md).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "bench-cuda-kernels.h"

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
    sample_end (i, t0, t1);
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

void
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
