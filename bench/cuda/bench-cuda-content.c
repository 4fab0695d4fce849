/* bench-cuda-content.c: the content measurements (black, freeze SAD,
 * edges) beside, in order before, through the service's stand-in and in
 * the launch of a classical metric (--content-pass).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "bench-cuda-kernels.h"

/* The metric the content passes run beside or in (--content-metric). */
SharpnessMetric content_metric = SHARPNESS_METRIC_LAPLACIAN;

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
    sample_end (i, t0, t1);
  }
}

/* The passes on frames of @w x @h in device memory, rotating over buffers
 * three times the L2: @format NV12 and P010_10LE (luma and chroma planes)
 * or UYVY (one packed plane, the luma read in place).  @flat: the edge
 * count of the flat state too; without it, black and freeze alone (what
 * the overhead target is about).  A "# overhead" line gives each pass's
 * wall p50 over the metric's. */
void
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
