/* bench-sharpness.h: what the files of bench-sharpness share (see
 * bench-sharpness.c for what it measures): its options, the natural
 * frames, results, the timed element runs and the outputs.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef BENCH_SHARPNESS_H
#define BENCH_SHARPNESS_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gst/gst.h>
#include <gst/app/gstappsrc.h>
#include <gst/video/video.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>
#include <cuda_runtime.h>

#include "sharpness-cuda.h"
#include "sharpness-metric.h"
/* The service's counters, read through the loaded plugin (dlsym). */
#include "sharpness-cuda-service.h"
#include "sharpness-fields.h"
#include "test-stats.h"

#ifndef BENCH_TILES
#define BENCH_TILES "tiles.bin"
#endif

#define PINNED_MEMORY_TYPE "SharpnessHostMemory"

/* Frames of a ring: enough to exceed the L2 cache, within limits. */
#define RING_BYTES (256u << 20)
#define RING_MIN 4
#define RING_MAX 64

/* GPU runs: frames left out first (setup at the first frame of a size),
 * samples wanted at least. */
#define GPU_WARMUP 5
#define GPU_MIN_SAMPLES 5
/* Direct CUDA timings: calls left out first (the first call of a size sets
 * up the metric's device state, cuFFT plans included). */
#define DIRECT_WARMUP 3

#define CHECK_CUDA(call) do { \
    cudaError_t err_ = (call); \
    if (err_ != cudaSuccess) \
      g_error ("%s:%d: %s: %s", __FILE__, __LINE__, #call, \
          cudaGetErrorString (err_)); \
  } while (0)

typedef struct
{
  const gchar *name;
  gint width, height;
} Resolution;

/* 720p, 1080p, 4K, 8K (bench-result.c). */
#define N_RESOLUTIONS 4
extern const Resolution all_resolutions[N_RESOLUTIONS];

typedef enum
{
  MODE_KERNEL,
  MODE_CUDA_MEMORY,
  MODE_PINNED,
  MODE_PAGEABLE,
  MODE_CPU,
  MODE_VIDEOANALYSE,
  MODE_H2D_PINNED,
  MODE_H2D_PAGEABLE,
  MODE_COUNT
} Mode;

/* The modes' names in the CSV (bench-result.c). */
extern const gchar *const mode_names[MODE_COUNT];

/* One measurement: a median over @frames frames, or @failed with a note. */
typedef struct
{
  guint frames;
  guint64 median, p10, p90;
  gboolean failed;
  gchar note[160];
} Result;

typedef struct
{
  gchar *tiles_path;
  gchar **resolutions;
  gchar **metrics;
  gdouble seconds, cpu_seconds, cpu_frame_limit;
  guint max_frames;
  gint device;
  gchar *csv_path, *markdown_path;
  /* --streams mode: counts of pipelines (NULL: the per-frame modes). */
  guint *streams;
  guint n_streams;
  gdouble streams_seconds, streams_warmup, streams_grace;
  guint streams_ring;
  gboolean compare_no_service;
  /* Extra cudasharpness properties ("tiles=8x4 pooling=top-percent"). */
  gchar *element_props;
  /* --alternate mode: the property and its two values (NULL: off). */
  gchar *alt_prop, *alt_values[2];
  guint alt_rounds, alt_frames;
} Options;

/* Natural picture tiles: Y then Cb, Cr (I420) of size x size pixels. */
typedef struct
{
  gint size, count;
  guint8 *data;
} Tiles;

/* The frames of one resolution, as contiguous I420 (the source of every
 * ring, so that all modes see the same pictures). */
typedef struct
{
  const Resolution *res;
  GstVideoInfo i420, nv12;
  guint n;
  guint8 **frames;
} Ring;

/* One element's pass per buffer, from its sink- and src-pad probes. */
typedef struct
{
  guint64 t_in;
  guint warmup;
  guint64 first;                /* time of the first buffer */
  guint64 *samples;
  guint cap;
  gint seen;                    /* atomic: buffers out of the element */
  gint n;                       /* atomic: samples taken */
} Timing;

/* bench-sharpness.c: the options, the CUDA context every pipeline
 * shares and the two outputs. */
extern Options opt;
extern GstCudaContext *cuda_ctx;
extern FILE *csv;
extern GString *markdown;

/* bench-result.c */
guint64 now_ns (void);
void result_from_samples (Result * r, guint64 * s, guint n);
void result_fail (Result * r, const gchar * fmt, ...) G_GNUC_PRINTF (2, 3);

/* bench-frames.c */
gboolean tiles_load (Tiles * t, const gchar * path);
void ring_init (Ring * ring, const Tiles * tiles, const Resolution * res);
void ring_clear (Ring * ring);
void fill_buffer (const Ring * ring, guint i, GstBuffer * buf,
    const GstVideoInfo * info);
GstBuffer **make_sysmem_buffers (const Ring * ring, const GstVideoInfo * info);
GstBuffer **make_cuda_buffers_n (const Ring * ring, guint n);
GstBuffer **make_cuda_buffers (const Ring * ring);
void free_buffers (GstBuffer ** bufs, guint n);

/* bench-element.c */
gboolean handle_message (GstMessage * msg, guint * warnings,
    gchar ** first_warning);
gboolean drain_bus (GstBus * bus, guint * warnings, gchar ** first_warning);
GstElement *timed_pipeline_new (const gchar * caps, const gchar * element_desc,
    Timing * t, GstElement ** src, GstElement ** el, GstBus ** bus);
void run_element (const Ring * ring, GstBuffer ** ring_bufs,
    const gchar * caps, const gchar * element_desc, gdouble seconds,
    guint warmup, guint min_samples, Result * r);

/* bench-direct.c */
void run_kernel (SharpnessCuda * sc, cudaStream_t stream,
    SharpnessMetric metric, const Ring * ring, GstBuffer ** cuda_bufs,
    Result * r);
void run_copy_floor (cudaStream_t stream, const Ring * ring, Result * pinned,
    Result * pageable);

/* bench-streams.c, bench-alternate.c: the two other modes. */
gboolean run_streams_mode (const Tiles * tiles,
    const SharpnessMetric * metrics, guint n_metrics);
gboolean alt_values (GValue values[2]);
gboolean run_alternate_mode (const Tiles * tiles,
    const SharpnessMetric * metrics, guint n_metrics, const GValue values[2]);

/* bench-output.c */
void emit_csv (const Resolution * res, const gchar * metric, Mode mode,
    const Result * r);
void emit_markdown_resolution (const Resolution * res,
    Result results[][MODE_COUNT], const Result * shared, guint n_metrics,
    const SharpnessMetric * metrics);

#endif /* BENCH_SHARPNESS_H */
