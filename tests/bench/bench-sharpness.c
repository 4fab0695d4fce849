/* bench-sharpness: what cudasharpness costs per frame, on natural frames.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * For each resolution and metric, on one ring of natural frames (tiles of
 * scikit-image photographs, see export-tiles.py) this measures:
 *
 *   kernel        CUDA events around sharpness_cuda_score_device() on a
 *                 frame already in device memory: the device's share.
 *   cuda-memory   the element on memory:CUDAMemory (frames uploaded once).
 *   pinned        the element on system-memory NV12 from the pinned pool it
 *                 proposes upstream (asked for with an allocation query, as
 *                 an upstream element would; the ring is acquired from it).
 *   pageable      the element on ordinary malloc'ed NV12 buffers.
 *   cpu           the element with backend=cpu, pageable NV12.
 * and once per resolution:
 *   videoanalyse  GStreamer's videoanalyse (videosignal) on I420.
 *   h2d-pinned, h2d-pageable
 *                 host-to-device copy of the luma plane (CUDA events): the
 *                 floor under any system-memory GPU path.
 *
 * Element times come from pad probes: the sink-pad probe stamps a buffer's
 * arrival, the src-pad probe its departure (the element is in place and
 * pushes from the same thread), so they cover exactly the element's work.
 * Medians over many frames after a warm-up; the ring is larger than the
 * GPU's L2 cache so repeated frames do not measure the cache.
 *
 *   bench-sharpness [--tiles FILE] [--resolutions 720p,1080p,4K,8K]
 *       [--metrics nick,...] [--seconds S] [--cpu-seconds S]
 *       [--cpu-frame-limit S] [--max-frames N] [--device N]
 *       [--csv FILE] [--markdown FILE] [--element-props "tiles=8x4 ..."]
 *
 * Many streams per GPU:
 *
 *   bench-sharpness --streams N[,N...]|all [--metrics nick,...]
 *       [--streams-seconds S] [--streams-warmup S] [--streams-grace S]
 *       [--streams-ring K] [--compare-no-service] [--device N]
 *       [--csv FILE] [--markdown FILE]
 *
 *   runs, for each N (all: 1,8,32,64,128,256) and metric (default
 *   laplacian,tenengrad,bliinds2), N independent pipelines
 *   "appsrc ! cudasharpness ! fakesink" in this one process, each fed as
 *   fast as it takes frames (from appsrc's need-data, in its own streaming
 *   thread) from its own ring of K natural 1080p NV12 frames already in
 *   CUDA memory.  After a warm-up, frames leaving the elements are counted
 *   for S seconds (aggregate frames/s) and each frame's time in its element
 *   is sampled (sink-pad to src-pad probes: p50, p99); then every source
 *   sends EOS.  Every frame pushed must come out with a GstSharpnessMeta of
 *   the metric.  A run whose streams have not all drained grace seconds
 *   after the stop is reported incomplete, so the benchmark ends in bounded
 *   time even when throughput collapses.  --compare-no-service runs each
 *   case again with SHARPNESS_CUDA_NO_SERVICE=1 (each element on its own
 *   stream, the path before the scoring service).
 *
 * One property's cost, resolved against run-to-run noise:
 *
 *   bench-sharpness --alternate PROP=A,B [--alternate-rounds R]
 *       [--alternate-frames K] [--resolutions ...] [--metrics nick,...]
 *       [--element-props ...] [--csv FILE] [--markdown FILE]
 *
 *   runs, for each metric (default: the classical ones), one pipeline
 *   "appsrc ! cudasharpness ! fakesink" on the ring in CUDA memory and
 *   switches PROP between A and B in R rounds (ABBA order) of one
 *   segment each: K frames measured after a few left out, nothing in
 *   flight at a switch.  Both settings then share the process, the
 *   pipeline, its threads and the machine's state of the moment, which
 *   separate runs do not (they differ by up to a fifth).  Reported: each
 *   setting's median over its frames, and B over A per round.
 *
 * Needs the plugin on GST_PLUGIN_PATH and a CUDA device.
 */
#include <dlfcn.h>
#include <errno.h>
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

static const Resolution all_resolutions[] = {
  {"720p", 1280, 720},
  {"1080p", 1920, 1080},
  {"4K", 3840, 2160},
  {"8K", 7680, 4320},
};

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

static const gchar *mode_names[MODE_COUNT] = {
  "kernel", "cuda-memory", "pinned", "pageable", "cpu", "videoanalyse",
  "h2d-pinned", "h2d-pageable",
};

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

static Options opt;
static GstCudaContext *cuda_ctx;
static FILE *csv;
static GString *markdown;

static guint64
now_ns (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (guint64) ts.tv_sec * G_GUINT64_CONSTANT (1000000000) + ts.tv_nsec;
}

static int
cmp_u64 (const void *a, const void *b)
{
  guint64 x = *(const guint64 *) a, y = *(const guint64 *) b;
  return x < y ? -1 : x > y;
}

static void
result_from_samples (Result * r, guint64 * s, guint n)
{
  memset (r, 0, sizeof (*r));
  if (n == 0) {
    r->failed = TRUE;
    g_strlcpy (r->note, "no frame measured", sizeof (r->note));
    return;
  }
  qsort (s, n, sizeof (*s), cmp_u64);
  r->frames = n;
  r->median = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
  r->p10 = s[n / 10];
  r->p90 = s[n - 1 - n / 10];
}

static void
result_fail (Result * r, const gchar * fmt, ...) G_GNUC_PRINTF (2, 3);

static void
result_fail (Result * r, const gchar * fmt, ...)
{
  va_list args;

  memset (r, 0, sizeof (*r));
  r->failed = TRUE;
  va_start (args, fmt);
  g_vsnprintf (r->note, sizeof (r->note), fmt, args);
  va_end (args);
}

/* ---- Natural frames ---------------------------------------------------- */

static gboolean
tiles_load (Tiles * t, const gchar * path)
{
  gchar *contents, *body;
  gsize length, tile_bytes;

  if (!g_file_get_contents (path, &contents, &length, NULL))
    return FALSE;
  body = memchr (contents, '\n', MIN (length, 64));
  if (!body || sscanf (contents, "sharpness-tiles %d %d", &t->size,
          &t->count) != 2 || t->size < 2 || t->size % 2 || t->count < 1) {
    g_free (contents);
    return FALSE;
  }
  body++;
  tile_bytes = (gsize) t->size * t->size * 3 / 2;
  if (length - (body - contents) != tile_bytes * t->count) {
    g_free (contents);
    return FALSE;
  }
  t->data = g_memdup2 (body, tile_bytes * t->count);
  g_free (contents);
  return TRUE;
}

static guint32
hash3 (guint32 a, guint32 b, guint32 c)
{
  guint32 h = a * 0x9e3779b1u ^ (b + 0x7f4a7c15u) * 0x85ebca6bu ^
      (c + 0x165667b1u) * 0xc2b2ae35u;
  h ^= h >> 15;
  h *= 0x2c1b3c6du;
  h ^= h >> 12;
  return h;
}

/* Frame @index of a ring: a grid of tiles, each picked and mirrored by a
 * hash of (frame, cell), the grid shifted by an even per-frame offset. */
static void
compose_frame (const Tiles * t, guint index, gint w, gint h, guint8 * y,
    guint8 * u, guint8 * v)
{
  const gint ts = t->size, cs = ts / 2;
  const gsize tile_bytes = (gsize) ts * ts * 3 / 2;
  const guint32 shift = hash3 (index, 0xffff, 0xffff);
  const gint ox = (shift % ts) & ~1, oy = ((shift >> 16) % ts) & ~1;
  gint px, py;

  for (py = 0; py < h; py++) {
    gint gy = py + oy;
    for (px = 0; px < w; px++) {
      gint gx = px + ox;
      guint32 k = hash3 (index, gx / ts, gy / ts);
      const guint8 *tile = t->data + (k % t->count) * tile_bytes;
      gint tx = gx % ts, ty = gy % ts;

      if (k & (1u << 30))
        tx = ts - 1 - tx;
      if (k & (1u << 31))
        ty = ts - 1 - ty;
      y[(gsize) py * w + px] = tile[ty * ts + tx];
      if (!(px & 1) && !(py & 1)) {
        gsize c = (gsize) (py / 2) * (w / 2) + px / 2;
        u[c] = tile[ts * ts + (ty / 2) * cs + tx / 2];
        v[c] = tile[ts * ts + cs * cs + (ty / 2) * cs + tx / 2];
      }
    }
  }
}

static void
ring_init (Ring * ring, const Tiles * tiles, const Resolution * res)
{
  guint i;

  ring->res = res;
  gst_video_info_set_format (&ring->i420, GST_VIDEO_FORMAT_I420, res->width,
      res->height);
  gst_video_info_set_format (&ring->nv12, GST_VIDEO_FORMAT_NV12, res->width,
      res->height);
  ring->n = CLAMP (RING_BYTES / GST_VIDEO_INFO_SIZE (&ring->nv12) + 1,
      RING_MIN, RING_MAX);
  ring->frames = g_new0 (guint8 *, ring->n);
  for (i = 0; i < ring->n; i++) {
    gsize luma = (gsize) res->width * res->height;
    ring->frames[i] = g_malloc (luma * 3 / 2);
    compose_frame (tiles, i, res->width, res->height, ring->frames[i],
        ring->frames[i] + luma, ring->frames[i] + luma + luma / 4);
  }
}

static void
ring_clear (Ring * ring)
{
  guint i;

  for (i = 0; i < ring->n; i++)
    g_free (ring->frames[i]);
  g_free (ring->frames);
}

/* Writes frame @i of @ring into a mapped NV12 or I420 video frame. */
static void
ring_write (const Ring * ring, guint i, GstVideoFrame * f)
{
  const gint w = ring->res->width, h = ring->res->height;
  const guint8 *y = ring->frames[i], *u = y + (gsize) w * h,
      *v = u + (gsize) w * h / 4;
  gint row, col;

  for (row = 0; row < h; row++)
    memcpy ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (f, 0) +
        (gsize) row * GST_VIDEO_FRAME_PLANE_STRIDE (f, 0), y + (gsize) row * w,
        w);
  for (row = 0; row < h / 2; row++) {
    const guint8 *ur = u + (gsize) row * (w / 2), *vr = v + (gsize) row * (w / 2);

    if (GST_VIDEO_FRAME_FORMAT (f) == GST_VIDEO_FORMAT_NV12) {
      guint8 *uv = (guint8 *) GST_VIDEO_FRAME_PLANE_DATA (f, 1) +
          (gsize) row * GST_VIDEO_FRAME_PLANE_STRIDE (f, 1);
      for (col = 0; col < w / 2; col++) {
        uv[2 * col] = ur[col];
        uv[2 * col + 1] = vr[col];
      }
    } else {
      memcpy ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (f, 1) +
          (gsize) row * GST_VIDEO_FRAME_PLANE_STRIDE (f, 1), ur, w / 2);
      memcpy ((guint8 *) GST_VIDEO_FRAME_PLANE_DATA (f, 2) +
          (gsize) row * GST_VIDEO_FRAME_PLANE_STRIDE (f, 2), vr, w / 2);
    }
  }
}

static void
fill_buffer (const Ring * ring, guint i, GstBuffer * buf,
    const GstVideoInfo * info)
{
  GstVideoFrame f;

  if (!gst_video_frame_map (&f, info, buf, GST_MAP_WRITE))
    g_error ("cannot map a ring buffer for writing");
  ring_write (ring, i, &f);
  gst_video_frame_unmap (&f);
}

static GstBuffer **
make_sysmem_buffers (const Ring * ring, const GstVideoInfo * info)
{
  GstBuffer **bufs = g_new0 (GstBuffer *, ring->n);
  guint i;

  for (i = 0; i < ring->n; i++) {
    bufs[i] = gst_buffer_new_allocate (NULL, GST_VIDEO_INFO_SIZE (info), NULL);
    fill_buffer (ring, i, bufs[i], info);
  }
  return bufs;
}

/* @n NV12 frames in CUDA memory of cuda_ctx, frame i holding picture
 * i % ring->n, uploaded once, with the pitched layout in a GstVideoMeta. */
static GstBuffer **
make_cuda_buffers_n (const Ring * ring, guint n)
{
  GstCudaAllocator *alloc =
      (GstCudaAllocator *) gst_allocator_find (GST_CUDA_MEMORY_TYPE_NAME);
  GstBuffer **bufs = g_new0 (GstBuffer *, n);
  guint i;

  if (!alloc)
    g_error ("no CUDA allocator");
  for (i = 0; i < n; i++) {
#if GST_CHECK_VERSION (1, 24, 0)
    GstMemory *mem = gst_cuda_allocator_alloc (alloc, cuda_ctx, NULL,
        &ring->nv12);
#else
    GstMemory *mem = gst_cuda_allocator_alloc (alloc, cuda_ctx, &ring->nv12);
#endif
    GstCudaMemory *cmem = GST_CUDA_MEMORY_CAST (mem);
    GstMapInfo map;

    if (!mem)
      g_error ("cannot allocate CUDA memory");
    bufs[i] = gst_buffer_new ();
    gst_buffer_append_memory (bufs[i], mem);
    gst_buffer_add_video_meta_full (bufs[i], GST_VIDEO_FRAME_FLAG_NONE,
        GST_VIDEO_FORMAT_NV12, ring->res->width, ring->res->height, 2,
        cmem->info.offset, cmem->info.stride);
    fill_buffer (ring, i % ring->n, bufs[i], &cmem->info);
    /* The first CUDA map uploads the staged frame; later maps do not. */
    if (!gst_memory_map (mem, &map, GST_MAP_READ | GST_MAP_CUDA))
      g_error ("cannot upload a CUDA ring buffer");
    gst_memory_unmap (mem, &map);
  }
  gst_object_unref (alloc);
  return bufs;
}

static GstBuffer **
make_cuda_buffers (const Ring * ring)
{
  return make_cuda_buffers_n (ring, ring->n);
}

static void
free_buffers (GstBuffer ** bufs, guint n)
{
  guint i;

  for (i = 0; bufs && i < n; i++)
    gst_clear_buffer (&bufs[i]);
  g_free (bufs);
}

/* ---- Element runs ------------------------------------------------------ */

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

static GstPadProbeReturn
on_sink_buffer (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  ((Timing *) user_data)->t_in = now_ns ();
  return GST_PAD_PROBE_OK;
}

static GstPadProbeReturn
on_src_buffer (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  Timing *t = user_data;
  guint64 d = now_ns () - t->t_in;
  gint n = g_atomic_int_get (&t->n);
  gint seen = g_atomic_int_get (&t->seen);

  if (seen == 0)
    t->first = d;
  if ((guint) seen >= t->warmup && (guint) n < t->cap) {
    t->samples[n] = d;
    g_atomic_int_set (&t->n, n + 1);
  }
  g_atomic_int_set (&t->seen, seen + 1);
  return GST_PAD_PROBE_OK;
}

/* FALSE on an error.  Warnings (a fallback to the CPU, say) are counted:
 * such a run does not measure what it claims to. */
static gboolean
handle_message (GstMessage * msg, guint * warnings, gchar ** first_warning)
{
  GError *err = NULL;

  switch (GST_MESSAGE_TYPE (msg)) {
    case GST_MESSAGE_ERROR:
      gst_message_parse_error (msg, &err, NULL);
      g_printerr ("error from %s: %s\n", GST_MESSAGE_SRC_NAME (msg),
          err->message);
      g_clear_error (&err);
      return FALSE;
    case GST_MESSAGE_WARNING:
      gst_message_parse_warning (msg, &err, NULL);
      if (!*first_warning)
        *first_warning = g_strdup (err->message);
      (*warnings)++;
      g_clear_error (&err);
      return TRUE;
    default:
      return TRUE;
  }
}

static gboolean
drain_bus (GstBus * bus, guint * warnings, gchar ** first_warning)
{
  GstMessage *msg;
  gboolean ok = TRUE;

  while ((msg = gst_bus_pop (bus))) {
    ok = handle_message (msg, warnings, first_warning) && ok;
    gst_message_unref (msg);
  }
  return ok;
}

/* appsrc makes no allocation query of its own (its buffers come from the
 * application), so the benchmark asks as any upstream element would, once
 * the element has negotiated: the pool it gets first must be the element's
 * pinned pool.  The ring is acquired from it.  NULL with a reason in @r
 * otherwise; *@pool is the active pool to release afterwards. */
static GstBuffer **
acquire_pinned_ring (const Ring * ring, GstElement * src, Result * r,
    GstBufferPool ** pool)
{
  GstPad *pad = gst_element_get_static_pad (src, "src");
  GstCaps *caps = gst_pad_get_current_caps (pad);
  GstQuery *query = gst_query_new_allocation (caps, TRUE);
  GstStructure *config;
  GstAllocator *allocator = NULL;
  GstBuffer **bufs = NULL;
  guint i, size, min, max;

  *pool = NULL;
  if (!gst_pad_peer_query (pad, query) ||
      gst_query_get_n_allocation_pools (query) == 0) {
    result_fail (r, "no pool proposed");
    goto out;
  }
  gst_query_parse_nth_allocation_pool (query, 0, pool, &size, &min, &max);
  if (!*pool) {
    result_fail (r, "no pool proposed");
    goto out;
  }
  config = gst_buffer_pool_get_config (*pool);
  gst_buffer_pool_config_get_allocator (config, &allocator, NULL);
  if (!allocator || g_strcmp0 (allocator->mem_type, PINNED_MEMORY_TYPE)) {
    result_fail (r, "the first pool proposed is not the pinned pool");
    gst_structure_free (config);
    gst_clear_object (pool);
    goto out;
  }
  gst_buffer_pool_config_set_params (config, caps, size, min, max);
  if (!gst_buffer_pool_set_config (*pool, config) ||
      !gst_buffer_pool_set_active (*pool, TRUE))
    g_error ("cannot configure the pinned pool");

  bufs = g_new0 (GstBuffer *, ring->n);
  for (i = 0; i < ring->n; i++) {
    if (gst_buffer_pool_acquire_buffer (*pool, &bufs[i], NULL) != GST_FLOW_OK)
      g_error ("cannot acquire a pinned buffer");
    if (!gst_memory_is_type (gst_buffer_peek_memory (bufs[i], 0),
            PINNED_MEMORY_TYPE))
      g_error ("the pinned pool handed out other memory");
    fill_buffer (ring, i, bufs[i], &ring->nv12);
  }

out:
  gst_query_unref (query);
  gst_caps_unref (caps);
  gst_object_unref (pad);
  return bufs;
}

/* "appsrc name=src ! @element_desc ! fakesink" on the benchmark's CUDA
 * context (no per-run setup), the element named "el" timed into @t by
 * pad probes: the pipeline, its source, element and bus. */
static GstElement *
timed_pipeline_new (const gchar * caps, const gchar * element_desc,
    Timing * t, GstElement ** src, GstElement ** el, GstBus ** bus)
{
  GstElement *pipeline;
  GstContext *context;
  GstPad *pad;
  GError *err = NULL;
  gchar *desc = g_strdup_printf ("appsrc name=src format=time block=true "
      "max-buffers=2 max-bytes=0 caps=\"%s\" ! %s ! fakesink sync=false "
      "async=false", caps, element_desc);

  pipeline = gst_parse_launch (desc, &err);
  g_free (desc);
  if (!pipeline)
    g_error ("cannot build the pipeline: %s", err->message);
  context = gst_context_new_cuda_context (cuda_ctx);
  gst_element_set_context (pipeline, context);
  gst_context_unref (context);

  *src = gst_bin_get_by_name (GST_BIN (pipeline), "src");
  *el = gst_bin_get_by_name (GST_BIN (pipeline), "el");
  pad = gst_element_get_static_pad (*el, "sink");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, on_sink_buffer, t, NULL);
  gst_object_unref (pad);
  pad = gst_element_get_static_pad (*el, "src");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, on_src_buffer, t, NULL);
  gst_object_unref (pad);
  *bus = gst_element_get_bus (pipeline);
  return pipeline;
}

/* Runs "appsrc ! @element_desc ! fakesink", pushing shallow copies of the
 * ring (writable buffers, as in a real pipeline) round-robin, and times the
 * element named "el".  @ring_bufs NULL: acquire the ring from the pinned
 * pool (MODE_PINNED). */
static void
run_element (const Ring * ring, GstBuffer ** ring_bufs, const gchar * caps,
    const gchar * element_desc, gdouble seconds, guint warmup,
    guint min_samples, Result * r)
{
  GstElement *pipeline, *src, *el;
  GstBus *bus;
  GstBuffer **pinned = NULL;
  GstBufferPool *pinned_pool = NULL;
  Timing t = { 0, };
  gchar *first_warning = NULL;
  guint warnings = 0, pushed = 0, in_flight;
  guint64 start;
  gboolean ok = TRUE;

  t.warmup = warmup;
  t.cap = opt.max_frames;
  t.samples = g_new (guint64, t.cap);
  pipeline = timed_pipeline_new (caps, element_desc, &t, &src, &el, &bus);

  if (gst_element_set_state (pipeline, GST_STATE_PLAYING) ==
      GST_STATE_CHANGE_FAILURE) {
    gst_element_set_state (pipeline, GST_STATE_NULL);
    drain_bus (bus, &warnings, &first_warning);
    result_fail (r, "pipeline did not start%s%s", first_warning ? ": " : "",
        first_warning ? first_warning : "");
    goto done;
  }

  if (!ring_bufs) {
    /* One ordinary frame through the element settles the caps. */
    GstBuffer *prime = gst_buffer_new_allocate (NULL,
        GST_VIDEO_INFO_SIZE (&ring->nv12), NULL);
    fill_buffer (ring, 0, prime, &ring->nv12);
    gst_app_src_push_buffer (GST_APP_SRC (src), prime);
    pushed++;
    guint64 deadline = now_ns () + 30 * GST_SECOND;

    while (g_atomic_int_get (&t.seen) == 0 && now_ns () < deadline)
      g_usleep (100);
    if (g_atomic_int_get (&t.seen) == 0) {
      result_fail (r, "the first frame did not come through");
      goto stop;
    }
    pinned = acquire_pinned_ring (ring, src, r, &pinned_pool);
    if (!pinned)
      goto stop;
    ring_bufs = pinned;
  }

  /* Slow runs (one sample will do) keep one buffer in flight, so that
   * stopping does not wait for queued frames; fast ones keep the element
   * busy. */
  in_flight = min_samples > 1 ? 3 : 1;
  start = now_ns ();
  for (;;) {
    guint n = g_atomic_int_get (&t.n), seen = g_atomic_int_get (&t.seen);
    guint64 elapsed = now_ns () - start;

    if (!drain_bus (bus, &warnings, &first_warning)) {
      ok = FALSE;
      break;
    }
    if (n >= t.cap || (elapsed > seconds * GST_SECOND && (n >= min_samples
                || (min_samples == 1 && seen > 0))))
      break;
    if (pushed - seen >= in_flight) {
      g_usleep (20);
      continue;
    }
    if (gst_app_src_push_buffer (GST_APP_SRC (src),
            gst_buffer_copy (ring_bufs[pushed % ring->n])) != GST_FLOW_OK) {
      ok = FALSE;
      break;
    }
    pushed++;
  }

stop:
  gst_app_src_end_of_stream (GST_APP_SRC (src));
  while (ok) {
    GstMessage *msg = gst_bus_timed_pop (bus, 600 * GST_SECOND);
    gboolean eos;

    if (!msg) {
      g_printerr ("timeout waiting for EOS\n");
      ok = FALSE;
      break;
    }
    eos = GST_MESSAGE_TYPE (msg) == GST_MESSAGE_EOS;
    ok = handle_message (msg, &warnings, &first_warning);
    gst_message_unref (msg);
    if (eos)
      break;
  }
  gst_element_set_state (pipeline, GST_STATE_NULL);
  ok = drain_bus (bus, &warnings, &first_warning) && ok;

  if (!r->failed) {
    guint n = g_atomic_int_get (&t.n);

    /* A frame slower than the whole budget: its first (warm-up) time is
     * the only one there is; the CSV shows frames = 1. */
    if (n == 0 && g_atomic_int_get (&t.seen) > 0) {
      t.samples[0] = t.first;
      n = 1;
    }
    result_from_samples (r, t.samples, n);
    if (!ok)
      result_fail (r, "pipeline error");
    else if (warnings)
      result_fail (r, "%u warnings: %s", warnings, first_warning);
  }

done:
  free_buffers (pinned, ring->n);
  if (pinned_pool) {
    gst_buffer_pool_set_active (pinned_pool, FALSE);
    gst_object_unref (pinned_pool);
  }
  g_free (first_warning);
  g_free (t.samples);
  gst_object_unref (bus);
  gst_object_unref (src);
  gst_object_unref (el);
  gst_object_unref (pipeline);
}

/* ---- Direct CUDA measurements ------------------------------------------ */

/* Device time (CUDA events) of sharpness_cuda_score_device on each ring
 * frame in turn: the kernels, their launches' gaps and the result readback. */
static void
run_kernel (SharpnessCuda * sc, cudaStream_t stream, SharpnessMetric metric,
    const Ring * ring, GstBuffer ** cuda_bufs, Result * r)
{
  GstMapInfo *maps = g_new0 (GstMapInfo, ring->n);
  guint64 *samples = g_new (guint64, opt.max_frames);
  cudaEvent_t e0, e1;
  guint i, n = 0;
  guint64 start;
  SharpnessStatus status = SHARPNESS_OK;

  for (i = 0; i < ring->n; i++) {
    if (!gst_memory_map (gst_buffer_peek_memory (cuda_bufs[i], 0), &maps[i],
            GST_MAP_READ | GST_MAP_CUDA))
      g_error ("cannot map a CUDA ring buffer");
  }
  CHECK_CUDA (cudaEventCreate (&e0));
  CHECK_CUDA (cudaEventCreate (&e1));

  start = now_ns ();
  for (i = 0; status == SHARPNESS_OK; i++) {
    GstVideoMeta *meta = gst_buffer_get_video_meta (cuda_bufs[i % ring->n]);
    SharpnessPlane plane = {
      .samples = SHARPNESS_SAMPLES_Y8,
      .data = (const uint8_t *) maps[i % ring->n].data + meta->offset[0],
      .stride = meta->stride[0],
      .width = ring->res->width,
      .height = ring->res->height,
      .pixel_stride = 1,
    };
    double score;
    float ms;

    if (i == DIRECT_WARMUP)
      start = now_ns ();
    if (n >= opt.max_frames || (now_ns () - start > opt.seconds * GST_SECOND
            && n > 0))
      break;
    CHECK_CUDA (cudaEventRecord (e0, stream));
    status = sharpness_cuda_score_device (sc, metric, &plane, &score);
    CHECK_CUDA (cudaEventRecord (e1, stream));
    CHECK_CUDA (cudaEventSynchronize (e1));
    CHECK_CUDA (cudaEventElapsedTime (&ms, e0, e1));
    if (i >= DIRECT_WARMUP)
      samples[n++] = (guint64) (ms * 1e6);
  }

  if (status != SHARPNESS_OK)
    result_fail (r, "%s", status == SHARPNESS_ERROR_DEVICE ?
        sharpness_cuda_last_error (sc) : sharpness_status_to_string (status));
  else
    result_from_samples (r, samples, n);

  CHECK_CUDA (cudaEventDestroy (e0));
  CHECK_CUDA (cudaEventDestroy (e1));
  for (i = 0; i < ring->n; i++)
    gst_memory_unmap (gst_buffer_peek_memory (cuda_bufs[i], 0), &maps[i]);
  g_free (maps);
  g_free (samples);
}

/* Host-to-device copies of the luma plane from @n host buffers in turn. */
static void
run_h2d (cudaStream_t stream, guint8 ** host, guint n, gsize bytes, Result * r)
{
  guint64 *samples = g_new (guint64, opt.max_frames);
  cudaEvent_t e0, e1;
  void *dst;
  guint i, count = 0;
  guint64 start;

  CHECK_CUDA (cudaMalloc (&dst, bytes));
  CHECK_CUDA (cudaEventCreate (&e0));
  CHECK_CUDA (cudaEventCreate (&e1));
  start = now_ns ();
  for (i = 0;; i++) {
    float ms;

    if (i == DIRECT_WARMUP)
      start = now_ns ();
    if (count >= opt.max_frames || (now_ns () - start >
            opt.seconds * GST_SECOND && count > 0))
      break;
    CHECK_CUDA (cudaEventRecord (e0, stream));
    CHECK_CUDA (cudaMemcpyAsync (dst, host[i % n], bytes,
            cudaMemcpyHostToDevice, stream));
    CHECK_CUDA (cudaEventRecord (e1, stream));
    CHECK_CUDA (cudaEventSynchronize (e1));
    CHECK_CUDA (cudaEventElapsedTime (&ms, e0, e1));
    if (i >= DIRECT_WARMUP)
      samples[count++] = (guint64) (ms * 1e6);
  }
  result_from_samples (r, samples, count);
  CHECK_CUDA (cudaEventDestroy (e0));
  CHECK_CUDA (cudaEventDestroy (e1));
  CHECK_CUDA (cudaFree (dst));
  g_free (samples);
}

static void
run_copy_floor (cudaStream_t stream, const Ring * ring, Result * pinned,
    Result * pageable)
{
  gsize luma = (gsize) ring->res->width * ring->res->height;
  guint8 **host = g_new0 (guint8 *, ring->n);
  guint i;

  for (i = 0; i < ring->n; i++)
    host[i] = ring->frames[i];
  run_h2d (stream, host, ring->n, luma, pageable);

  for (i = 0; i < ring->n; i++) {
    CHECK_CUDA (cudaHostAlloc ((void **) &host[i], luma,
            cudaHostAllocPortable));
    memcpy (host[i], ring->frames[i], luma);
  }
  run_h2d (stream, host, ring->n, luma, pinned);
  for (i = 0; i < ring->n; i++)
    CHECK_CUDA (cudaFreeHost (host[i]));
  g_free (host);
}

/* ---- Many streams (--streams) ------------------------------------------ */

/* Latency samples kept per run, over all its streams (the last ones of
 * each stream when it scores more). */
#define STREAMS_SAMPLES (4u << 20)
#define STREAMS_MIN_SAMPLES 4096u

typedef struct _StreamsRun StreamsRun;

/* One "appsrc ! cudasharpness ! fakesink" pipeline and what it did. */
typedef struct
{
  StreamsRun *run;
  GstElement *pipeline, *src;
  GstBuffer **ring;             /* K frames of its own, CUDA memory */
  guint ring_n, next;
  gboolean eos_sent;            /* streaming thread only */
  guint64 t_in;                 /* streaming thread only */
  gint pushed, out, scored;     /* atomic */
  gint eos, errors, warnings;   /* atomic */
  guint64 *lat;                 /* ring of latency samples ... */
  guint lat_cap;
  guint lat_n;                  /* ... and how many were taken */
} Stream;

struct _StreamsRun
{
  const gchar *nick;            /* the metric the metas must carry */
  const GstMetaInfo *meta_info; /* GstSharpnessMeta's */
  gint stop;                    /* atomic: send EOS instead of frames */
  gint measuring;               /* atomic: take latency samples */
  GMutex lock;
  gchar *first_problem;         /* under lock */
};

typedef struct
{
  guint n;
  const gchar *nick;
  gboolean service;
  gdouble seconds, fps;
  guint64 frames, p50, p99;
  guint64 pushed, out, scored;
  guint streams_done;
  gboolean complete;
  gdouble per_round;            /* frames per service round; < 0: n/a */
  guint max_round;
  gchar note[200];
} StreamsResult;

typedef void (*ServiceTotalsFunc) (SharpnessCudaServiceStats * stats);

/* The plugin's sharpness_cuda_service_get_total_stats, found in the loaded
 * module (NULL for a plugin without it). */
static ServiceTotalsFunc
service_totals_func (void)
{
  GstPlugin *plugin = gst_registry_find_plugin (gst_registry_get (),
      "sharpness");
  GstPlugin *loaded = plugin ? gst_plugin_load (plugin) : NULL;
  const gchar *file = loaded ? gst_plugin_get_filename (loaded) : NULL;
  ServiceTotalsFunc func = NULL;
  void *handle;

  /* RTLD_NOLOAD: the handle GStreamer already opened, nothing new. */
  handle = file ? dlopen (file, RTLD_NOW | RTLD_NOLOAD) : NULL;
  if (handle)
    func = (ServiceTotalsFunc) dlsym (handle,
        "sharpness_cuda_service_get_total_stats");
  gst_clear_object (&plugin);
  gst_clear_object (&loaded);
  return func;
}

static void
streams_problem (StreamsRun * run, const gchar * what)
{
  g_mutex_lock (&run->lock);
  if (!run->first_problem)
    run->first_problem = g_strdup (what);
  g_mutex_unlock (&run->lock);
}

/* appsrc's streaming thread, whenever its queue is empty: the next frame
 * of the ring (a shallow copy: writable, as in a real pipeline), or EOS
 * once the run stops.  Feeding from here keeps each element busy without
 * a thread per stream. */
static void
streams_need_data (GstAppSrc * src, guint length, gpointer user_data)
{
  Stream *s = user_data;

  if (g_atomic_int_get (&s->run->stop)) {
    if (!s->eos_sent) {
      s->eos_sent = TRUE;
      gst_app_src_end_of_stream (src);
    }
    return;
  }
  g_atomic_int_inc (&s->pushed);
  if (gst_app_src_push_buffer (src,
          gst_buffer_copy (s->ring[s->next++ % s->ring_n])) != GST_FLOW_OK)
    g_atomic_int_inc (&s->errors);
}

static GstPadProbeReturn
streams_on_sink (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  ((Stream *) user_data)->t_in = now_ns ();
  return GST_PAD_PROBE_OK;
}

static GstPadProbeReturn
streams_on_src (GstPad * pad, GstPadProbeInfo * info, gpointer user_data)
{
  Stream *s = user_data;
  guint64 d = now_ns () - s->t_in;
  GstBuffer *buf = GST_PAD_PROBE_INFO_BUFFER (info);
  const GValue *metric = NULL;
  gpointer state = NULL;
  GstMeta *meta;

  /* By the meta's registered info and the field's quark, not by name: 64
   * streams looking names up every frame contend on GLib's quark lock
   * (gst/common/sharpness-fields.h). */
  while (!metric && (meta = gst_buffer_iterate_meta (buf, &state)))
    if (meta->info == s->run->meta_info)
      metric = sharpness_structure_get (gst_custom_meta_get_structure
          ((GstCustomMeta *) meta), SHARPNESS_FIELD_METRIC);
  if (metric && G_VALUE_HOLDS_STRING (metric) &&
      !g_strcmp0 (g_value_get_string (metric), s->run->nick))
    g_atomic_int_inc (&s->scored);
  if (g_atomic_int_get (&s->run->measuring))
    s->lat[s->lat_n++ % s->lat_cap] = d;
  g_atomic_int_inc (&s->out);
  return GST_PAD_PROBE_OK;
}

/* Every message of a stream's bus, in the posting thread: per-frame
 * "sharpness" messages are dropped unread (the run must not queue millions
 * of them), EOS and problems are recorded. */
static GstBusSyncReply
streams_bus_sync (GstBus * bus, GstMessage * msg, gpointer user_data)
{
  Stream *s = user_data;
  GError *err = NULL;

  switch (GST_MESSAGE_TYPE (msg)) {
    case GST_MESSAGE_EOS:
      g_atomic_int_set (&s->eos, 1);
      break;
    case GST_MESSAGE_ERROR:
    case GST_MESSAGE_WARNING:
      if (GST_MESSAGE_TYPE (msg) == GST_MESSAGE_ERROR) {
        gst_message_parse_error (msg, &err, NULL);
        g_atomic_int_inc (&s->errors);
      } else {
        gst_message_parse_warning (msg, &err, NULL);
        g_atomic_int_inc (&s->warnings);
      }
      streams_problem (s->run, err->message);
      g_clear_error (&err);
      break;
    default:
      break;
  }
  return GST_BUS_DROP;
}

static gboolean
stream_setup (Stream * s, StreamsRun * run, GstBuffer ** ring, guint ring_n,
    const gchar * caps, guint lat_cap)
{
  GstAppSrcCallbacks callbacks = { streams_need_data, NULL, NULL };
  GstElement *el;
  GstPad *pad;
  GstBus *bus;
  GstContext *context;
  GError *err = NULL;
  gchar *desc;

  memset (s, 0, sizeof (*s));
  s->run = run;
  s->ring = ring;
  s->ring_n = ring_n;
  s->lat_cap = lat_cap;
  s->lat = g_new (guint64, lat_cap);
  /* block=false: the source is fed from its own streaming thread, which
   * must never wait for room in its own queue. */
  desc = g_strdup_printf ("appsrc name=src format=time block=false "
      "max-buffers=2 max-bytes=0 caps=\"%s\" ! cudasharpness name=el "
      "backend=cuda metric=%s %s ! fakesink sync=false async=false", caps,
      run->nick, opt.element_props);
  s->pipeline = gst_parse_launch (desc, &err);
  g_free (desc);
  if (!s->pipeline) {
    streams_problem (run, err ? err->message : "cannot build a pipeline");
    g_clear_error (&err);
    return FALSE;
  }
  context = gst_context_new_cuda_context (cuda_ctx);
  gst_element_set_context (s->pipeline, context);
  gst_context_unref (context);

  s->src = gst_bin_get_by_name (GST_BIN (s->pipeline), "src");
  gst_app_src_set_callbacks (GST_APP_SRC (s->src), &callbacks, s, NULL);
  el = gst_bin_get_by_name (GST_BIN (s->pipeline), "el");
  pad = gst_element_get_static_pad (el, "sink");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, streams_on_sink, s,
      NULL);
  gst_object_unref (pad);
  pad = gst_element_get_static_pad (el, "src");
  gst_pad_add_probe (pad, GST_PAD_PROBE_TYPE_BUFFER, streams_on_src, s, NULL);
  gst_object_unref (pad);
  gst_object_unref (el);
  bus = gst_element_get_bus (s->pipeline);
  gst_bus_set_sync_handler (bus, streams_bus_sync, s, NULL);
  gst_object_unref (bus);
  return TRUE;
}

static void
stream_clear (Stream * s)
{
  if (s->pipeline) {
    gst_element_set_state (s->pipeline, GST_STATE_NULL);
    gst_object_unref (s->src);
    gst_object_unref (s->pipeline);
  }
  g_free (s->lat);
}

static guint64
streams_out_total (Stream * streams, guint n)
{
  guint64 total = 0;

  for (guint i = 0; i < n; i++)
    total += (guint) g_atomic_int_get (&streams[i].out);
  return total;
}

/* One case: @n pipelines of @nick for the measured time, then drained
 * within the grace time; @rings holds K frames per stream. */
static void
run_streams_case (guint n, const gchar * nick, gboolean service,
    GstBuffer ** rings, const gchar * caps, ServiceTotalsFunc totals,
    StreamsResult * res)
{
  StreamsRun run = { 0, };
  Stream *streams = g_new0 (Stream, n);
  SharpnessCudaServiceStats st0 = { 0, }, st1 = { 0, };
  const guint lat_cap = MAX (STREAMS_SAMPLES / n, STREAMS_MIN_SAMPLES);
  guint64 t0, t1, out0, out1, deadline, *all;
  guint i, n_all = 0, started = 0;
  gboolean failed = FALSE;

  memset (res, 0, sizeof (*res));
  res->n = n;
  res->nick = nick;
  res->service = service;
  res->per_round = -1;
  run.nick = nick;
  g_mutex_init (&run.lock);
  /* Read by the elements when they open: set before the pipelines start. */
  if (service)
    g_unsetenv ("SHARPNESS_CUDA_NO_SERVICE");
  else
    g_setenv ("SHARPNESS_CUDA_NO_SERVICE", "1", TRUE);

  for (i = 0; i < n && !failed; i++) {
    failed = !stream_setup (&streams[i], &run, rings + (gsize) i *
        opt.streams_ring, opt.streams_ring, caps, lat_cap);
  }
  /* Registered by the plugin, loaded by now (the pipelines hold its
   * element); read by the probes once frames flow. */
  run.meta_info = gst_meta_get_info ("GstSharpnessMeta");
  /* Each stream starts pushing as soon as it plays. */
  for (i = 0; i < n && !failed; i++) {
    if (gst_element_set_state (streams[i].pipeline, GST_STATE_PLAYING) ==
        GST_STATE_CHANGE_FAILURE) {
      streams_problem (&run, "a pipeline did not start");
      failed = TRUE;
    } else {
      started++;
    }
  }

  g_usleep ((gulong) (opt.streams_warmup * G_USEC_PER_SEC));
  if (totals)
    totals (&st0);
  out0 = streams_out_total (streams, n);
  t0 = now_ns ();
  g_atomic_int_set (&run.measuring, 1);
  /* The measured time, cut short by an error. */
  while (!failed && now_ns () - t0 < opt.streams_seconds * GST_SECOND) {
    for (i = 0; i < n; i++)
      failed |= g_atomic_int_get (&streams[i].errors) > 0;
    g_usleep (10000);
  }
  g_atomic_int_set (&run.measuring, 0);
  t1 = now_ns ();
  out1 = streams_out_total (streams, n);
  if (totals)
    totals (&st1);

  /* Stop pushing and wait, within the grace time, for every stream to
   * drain: a collapsed run still ends. */
  g_atomic_int_set (&run.stop, 1);
  deadline = now_ns () + (guint64) (opt.streams_grace * GST_SECOND);
  for (;;) {
    guint done = 0;

    for (i = 0; i < started; i++)
      done += g_atomic_int_get (&streams[i].eos) ||
          g_atomic_int_get (&streams[i].errors) > 0;
    res->streams_done = done;
    if (done == started || now_ns () > deadline)
      break;
    g_usleep (5000);
  }

  res->seconds = (t1 - t0) / 1e9;
  res->frames = out1 - out0;
  res->fps = res->seconds > 0 ? res->frames / res->seconds : 0;
  all = g_new (guint64, (gsize) MIN (lat_cap, STREAMS_SAMPLES) * n + 1);
  for (i = 0; i < n; i++) {
    Stream *s = &streams[i];
    guint k = MIN (s->lat_n, s->lat_cap);

    memcpy (all + n_all, s->lat, k * sizeof (guint64));
    n_all += k;
  }
  if (n_all) {
    qsort (all, n_all, sizeof (guint64), cmp_u64);
    res->p50 = all[n_all / 2];
    res->p99 = all[MIN (n_all - 1, (guint) ((guint64) n_all * 99 / 100))];
  }
  g_free (all);

  if (totals && st1.batches > st0.batches) {
    res->per_round = (gdouble) (st1.requests - st0.requests) /
        (st1.batches - st0.batches);
    res->max_round = st1.max_batch;
  }

  for (i = 0; i < n; i++)
    stream_clear (&streams[i]);
  /* Counted after the pipelines stopped: nothing moves any more. */
  for (i = 0; i < n; i++) {
    res->pushed += (guint) g_atomic_int_get (&streams[i].pushed);
    res->out += (guint) g_atomic_int_get (&streams[i].out);
    res->scored += (guint) g_atomic_int_get (&streams[i].scored);
  }
  res->complete = !failed && res->streams_done == n &&
      res->pushed == res->out && res->scored == res->out;
  if (run.first_problem)
    g_snprintf (res->note, sizeof (res->note), "%s", run.first_problem);
  else if (res->streams_done < n)
    g_snprintf (res->note, sizeof (res->note), "%u of %u streams not "
        "drained %.0f s after the stop", n - res->streams_done, n,
        opt.streams_grace);
  else if (res->scored != res->out || res->pushed != res->out)
    g_snprintf (res->note, sizeof (res->note), "frames lost or unscored");
  g_free (run.first_problem);
  g_mutex_clear (&run.lock);
  g_free (streams);
  g_unsetenv ("SHARPNESS_CUDA_NO_SERVICE");
}

static void
emit_streams_result (const StreamsResult * r)
{
  gchar *round = r->per_round < 0 ? g_strdup ("n/a") :
      g_strdup_printf ("%.1f (max %u)", r->per_round, r->max_round);

  fprintf (csv, "%u,%s,%s,%.3f,%" G_GUINT64_FORMAT ",%.1f,%" G_GUINT64_FORMAT
      ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%"
      G_GUINT64_FORMAT ",%d,%.2f,\"%s\"\n", r->n, r->nick,
      r->service ? "on" : "off", r->seconds, r->frames, r->fps, r->p50,
      r->p99, r->pushed, r->out, r->scored, r->complete, r->per_round,
      r->note);
  fflush (csv);
  g_string_append_printf (markdown, "| %u | %s | %s | %.0f | %.1f | %.1f | "
      "%" G_GUINT64_FORMAT " / %" G_GUINT64_FORMAT " | %s | %s |\n", r->n,
      r->nick, r->service ? "on" : "off", r->fps, r->p50 / 1000.0,
      r->p99 / 1000.0, r->scored, r->pushed, round, r->complete ? "yes" :
      r->note[0] ? r->note : "no");
  g_printerr ("  %u streams, %s, service %s: %.0f frames/s, p50 %.1f us, "
      "p99 %.1f us, %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT " scored%s%s\n",
      r->n, r->nick, r->service ? "on" : "off", r->fps, r->p50 / 1000.0,
      r->p99 / 1000.0, r->scored, r->pushed, r->note[0] ? ": " : "",
      r->note);
  g_free (round);
}

/* The --streams mode; FALSE when a case was incomplete. */
static gboolean
run_streams_mode (const Tiles * tiles, const SharpnessMetric * metrics,
    guint n_metrics)
{
  const Resolution *res = &all_resolutions[1];        /* 1080p */
  ServiceTotalsFunc totals = service_totals_func ();
  guint max_n = 0, i, m;
  GstBuffer **rings;
  gchar *caps;
  Ring ring;
  gboolean all_ok = TRUE;

  for (i = 0; i < opt.n_streams; i++)
    max_n = MAX (max_n, opt.streams[i]);
  ring_init (&ring, tiles, res);
  g_printerr ("%s: %u streams at most, %u frames each in CUDA memory "
      "(pictures from a ring of %u)\n", res->name, max_n, opt.streams_ring,
      ring.n);
  /* Every stream's frames are its own memory, made once for the largest
   * count and shared by the cases. */
  rings = make_cuda_buffers_n (&ring, max_n * opt.streams_ring);
  caps = g_strdup_printf ("video/x-raw(memory:CUDAMemory),format=NV12,"
      "width=%d,height=%d,framerate=30/1", res->width, res->height);

  fprintf (csv, "streams,metric,service,seconds,frames,fps,p50_ns,p99_ns,"
      "pushed,out,scored,complete,frames_per_round,note\n");
  g_string_append_printf (markdown, "\n### Many streams, %s NV12 in CUDA "
      "memory\n\n%u pipelines `appsrc ! cudasharpness ! fakesink` at most in "
      "one process, each fed as fast as it takes frames; %.1f s measured "
      "after %.1f s of warm-up. Latency: sink to src pad of the element. "
      "Round: frames per scoring-service launch round.%s\n\n"
      "| streams | metric | service | frames/s | p50 us | p99 us | scored / "
      "pushed | frames per round | complete |\n"
      "|---:|---|---|---:|---:|---:|---:|---:|---|\n", res->name, max_n,
      opt.streams_seconds, opt.streams_warmup, totals ? "" :
      " (the plugin has no scoring service: rounds n/a)");

  for (m = 0; m < n_metrics; m++) {
    const gchar *nick = sharpness_metric_info[metrics[m]].nick;

    for (i = 0; i < opt.n_streams; i++) {
      StreamsResult r;

      g_printerr ("%u streams, %s\n", opt.streams[i], nick);
      run_streams_case (opt.streams[i], nick, TRUE, rings, caps, totals, &r);
      emit_streams_result (&r);
      all_ok &= r.complete;
      if (opt.compare_no_service) {
        run_streams_case (opt.streams[i], nick, FALSE, rings, caps, totals,
            &r);
        emit_streams_result (&r);
        all_ok &= r.complete;
      }
    }
  }

  free_buffers (rings, max_n * opt.streams_ring);
  g_free (caps);
  ring_clear (&ring);
  return all_ok;
}

/* ---- Alternating settings (--alternate) -------------------------------- */

/* Frames left out after each change of setting (what the element sets up
 * for the new one: a freeze reference, say), and frames before the first
 * round (the pipeline's start, the first frame's setup). */
#define ALT_WARMUP 16
#define ALT_SETTLE 64
/* A segment that has not come through in this long failed. */
#define ALT_SEGMENT_TIMEOUT (60 * GST_SECOND)

/* One metric's alternating run: for each setting the median (and p10,
 * p90) over all its measured frames; over the rounds, the ratio of the
 * second setting's segment median to the first's (median, p10, p90). */
typedef struct
{
  Result setting[2];
  gdouble ratio_median, ratio_p10, ratio_p90;
  gboolean failed;
  gchar note[160];
} AltResult;

static int
cmp_double (const void *a, const void *b)
{
  gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;
  return x < y ? -1 : x > y;
}

/* The two values of --alternate as GValues of the property's type;
 * FALSE with a message when the property or a value is unknown. */
static gboolean
alt_values (GValue values[2])
{
  GstElement *el = gst_element_factory_make ("cudasharpness", NULL);
  GParamSpec *ps = g_object_class_find_property (G_OBJECT_GET_CLASS (el),
      opt.alt_prop);
  gboolean ok = ps != NULL;
  guint i;

  if (!ps)
    g_printerr ("--alternate: cudasharpness has no property \"%s\"\n",
        opt.alt_prop);
  for (i = 0; i < 2 && ok; i++) {
    g_value_init (&values[i], ps->value_type);
    ok = gst_value_deserialize (&values[i], opt.alt_values[i]);
    if (!ok)
      g_printerr ("--alternate: \"%s\" is not a value of %s\n",
          opt.alt_values[i], opt.alt_prop);
  }
  gst_object_unref (el);
  return ok;
}

/* Pushes @frames more frames of the ring (three in flight) and waits
 * until all have left the element.  FALSE on an error or a timeout. */
static gboolean
alt_push (GstElement * src, GstBus * bus, Timing * t, GstBuffer ** ring_bufs,
    guint ring_n, guint * pushed, guint frames, guint * warnings,
    gchar ** first_warning)
{
  const guint target = *pushed + frames;
  const guint64 deadline = now_ns () + ALT_SEGMENT_TIMEOUT;

  while ((guint) g_atomic_int_get (&t->seen) < target) {
    guint seen = g_atomic_int_get (&t->seen);

    if (!drain_bus (bus, warnings, first_warning) || now_ns () > deadline)
      return FALSE;
    if (*pushed < target && *pushed - seen < 3) {
      if (gst_app_src_push_buffer (GST_APP_SRC (src),
              gst_buffer_copy (ring_bufs[*pushed % ring_n])) != GST_FLOW_OK)
        return FALSE;
      (*pushed)++;
    } else {
      g_usleep (20);
    }
  }
  return TRUE;
}

/* "appsrc ! @element_desc ! fakesink" on the ring in CUDA memory, the
 * element's property switched between the two values of --alternate:
 * rounds of one segment each (ABBA order, so that a drift weighs on both
 * alike), a segment being ALT_WARMUP frames left out then
 * --alternate-frames measured, with nothing in flight at the switch. */
static void
run_alternating (const Ring * ring, GstBuffer ** ring_bufs, const gchar * caps,
    const gchar * element_desc, const GValue values[2], AltResult * res)
{
  const guint rounds = opt.alt_rounds, frames = opt.alt_frames;
  GstElement *pipeline, *src, *el;
  GstBus *bus;
  Timing t = { 0, };
  gchar *first_warning = NULL;
  guint warnings = 0, pushed = 0, r, k, n_all[2] = { 0, 0 };
  guint64 *all[2];
  gdouble *ratios = g_new (gdouble, rounds);
  gboolean ok;

  memset (res, 0, sizeof (*res));
  t.samples = g_new (guint64, frames);
  all[0] = g_new (guint64, (gsize) rounds * frames);
  all[1] = g_new (guint64, (gsize) rounds * frames);
  pipeline = timed_pipeline_new (caps, element_desc, &t, &src, &el, &bus);

  g_object_set_property (G_OBJECT (el), opt.alt_prop, &values[0]);
  t.warmup = G_MAXUINT;
  ok = gst_element_set_state (pipeline, GST_STATE_PLAYING) !=
      GST_STATE_CHANGE_FAILURE && alt_push (src, bus, &t, ring_bufs, ring->n,
      &pushed, ALT_SETTLE, &warnings, &first_warning);

  for (r = 0; r < rounds && ok; r++) {
    guint64 median[2];

    for (k = 0; k < 2 && ok; k++) {
      const guint s = r % 2 ? 1 - k : k;
      Result seg;
      guint n;

      /* Nothing in flight: the streaming thread is idle. */
      g_object_set_property (G_OBJECT (el), opt.alt_prop, &values[s]);
      t.warmup = pushed + ALT_WARMUP;
      t.cap = frames;
      g_atomic_int_set (&t.n, 0);
      ok = alt_push (src, bus, &t, ring_bufs, ring->n, &pushed,
          ALT_WARMUP + frames, &warnings, &first_warning);
      if (!ok)
        break;
      n = g_atomic_int_get (&t.n);
      memcpy (all[s] + n_all[s], t.samples, n * sizeof (guint64));
      n_all[s] += n;
      result_from_samples (&seg, t.samples, n);
      median[s] = seg.median;
    }
    if (ok)
      ratios[r] = (gdouble) median[1] / MAX (median[0], 1);
  }

  gst_app_src_end_of_stream (GST_APP_SRC (src));
  gst_element_set_state (pipeline, GST_STATE_NULL);
  ok = drain_bus (bus, &warnings, &first_warning) && ok;
  if (!ok || warnings) {
    res->failed = TRUE;
    g_snprintf (res->note, sizeof (res->note), "%s%s%s", !ok ?
        "pipeline error or timeout" : "warnings",
        first_warning ? ": " : "", first_warning ? first_warning : "");
  } else {
    result_from_samples (&res->setting[0], all[0], n_all[0]);
    result_from_samples (&res->setting[1], all[1], n_all[1]);
    qsort (ratios, rounds, sizeof (gdouble), cmp_double);
    res->ratio_median = rounds % 2 ? ratios[rounds / 2] :
        (ratios[rounds / 2 - 1] + ratios[rounds / 2]) / 2;
    res->ratio_p10 = ratios[rounds / 10];
    res->ratio_p90 = ratios[rounds - 1 - rounds / 10];
  }

  g_free (first_warning);
  g_free (t.samples);
  g_free (all[0]);
  g_free (all[1]);
  g_free (ratios);
  gst_object_unref (bus);
  gst_object_unref (src);
  gst_object_unref (el);
  gst_object_unref (pipeline);
}

/* The --alternate mode, 1080p unless --resolutions says otherwise, with
 * the two @values of the property: one table of each metric's two
 * settings, in the CSV and the markdown. */
static gboolean
run_alternate_mode (const Tiles * tiles, const SharpnessMetric * metrics,
    guint n_metrics, const GValue values[2])
{
  gboolean all_ok = TRUE;
  guint r, m;

  fprintf (csv, "resolution,metric,setting,frames,median_ns,p10_ns,p90_ns,"
      "round_ratio_median,round_ratio_p10,round_ratio_p90,note\n");
  for (r = 0; r < G_N_ELEMENTS (all_resolutions); r++) {
    const Resolution *res = &all_resolutions[r];
    guint64 sum[2] = { 0, 0 };
    GstBuffer **cuda_bufs;
    gchar *caps;
    Ring ring;

    if (!g_strv_contains ((const gchar * const *) opt.resolutions, res->name))
      continue;
    ring_init (&ring, tiles, res);
    cuda_bufs = make_cuda_buffers (&ring);
    caps = g_strdup_printf ("video/x-raw(memory:CUDAMemory),format=NV12,"
        "width=%d,height=%d,framerate=30/1", res->width, res->height);
    g_string_append_printf (markdown, "\n### %s NV12 in CUDA memory, %s=%s "
        "against %s=%s\n\nOne pipeline a metric, the property switched "
        "between segments of %u measured frames (after %u left out), %u "
        "rounds in ABBA order. Times: medians in us over every measured "
        "frame of a setting. Per round: the second setting's segment median "
        "over the first's.\n\n| metric | %s=%s | %s=%s | ratio of medians "
        "| per round: median (p10-p90) |\n|---|---:|---:|---:|---|\n",
        res->name, opt.alt_prop, opt.alt_values[1], opt.alt_prop,
        opt.alt_values[0], opt.alt_frames, ALT_WARMUP, opt.alt_rounds,
        opt.alt_prop, opt.alt_values[0], opt.alt_prop, opt.alt_values[1]);

    for (m = 0; m < n_metrics; m++) {
      const gchar *nick = sharpness_metric_info[metrics[m]].nick;
      gchar *desc = g_strdup_printf ("cudasharpness name=el backend=cuda "
          "metric=%s %s", nick, opt.element_props);
      AltResult a;
      guint s;

      g_printerr ("%s %s: %s=%s against %s\n", res->name, nick, opt.alt_prop,
          opt.alt_values[1], opt.alt_values[0]);
      run_alternating (&ring, cuda_bufs, caps, desc, values, &a);
      g_free (desc);
      if (a.failed) {
        all_ok = FALSE;
        fprintf (csv, "%s,%s,,0,,,,,,,\"%s\"\n", res->name, nick, a.note);
        g_string_append_printf (markdown, "| %s | n/a | n/a | n/a | %s |\n",
            nick, a.note);
        continue;
      }
      for (s = 0; s < 2; s++) {
        fprintf (csv, "%s,%s,%s=%s,%u,%" G_GUINT64_FORMAT ",%"
            G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%.4f,%.4f,%.4f,\n",
            res->name, nick, opt.alt_prop, opt.alt_values[s],
            a.setting[s].frames, a.setting[s].median, a.setting[s].p10,
            a.setting[s].p90, a.ratio_median, a.ratio_p10, a.ratio_p90);
        sum[s] += a.setting[s].median;
      }
      fflush (csv);
      g_string_append_printf (markdown, "| %s | %.2f | %.2f | %.3f | %.3f "
          "(%.3f-%.3f) |\n", nick, a.setting[0].median / 1000.0,
          a.setting[1].median / 1000.0, (gdouble) a.setting[1].median /
          a.setting[0].median, a.ratio_median, a.ratio_p10, a.ratio_p90);
    }
    if (sum[0] > 0)
      g_string_append_printf (markdown, "| all, sum of medians | %.2f | %.2f "
          "| %.3f | |\n", sum[0] / 1000.0, sum[1] / 1000.0,
          (gdouble) sum[1] / sum[0]);
    free_buffers (cuda_bufs, ring.n);
    g_free (caps);
    ring_clear (&ring);
  }
  return all_ok;
}

/* ---- Output ------------------------------------------------------------ */

static void
emit_csv (const Resolution * res, const gchar * metric, Mode mode,
    const Result * r)
{
  if (r->failed) {
    fprintf (csv, "%s,%d,%d,%s,%s,0,,,,,\"%s\"\n", res->name, res->width,
        res->height, metric, mode_names[mode], r->note);
  } else {
    fprintf (csv, "%s,%d,%d,%s,%s,%u,%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT
        ",%" G_GUINT64_FORMAT ",%.1f,\n", res->name, res->width, res->height,
        metric, mode_names[mode], r->frames, r->median, r->p10, r->p90,
        1e9 / r->median);
  }
  fflush (csv);
}

static gchar *
fmt_us (const Result * r)
{
  if (r->failed)
    return g_strdup ("n/a");
  return g_strdup_printf ("%.1f", r->median / 1000.0);
}

static gchar *
fmt_fps (const Result * r)
{
  if (r->failed)
    return g_strdup ("n/a");
  return g_strdup_printf ("%.0f", 1e9 / r->median);
}

static gchar *
fmt_ratio (const Result * num, const Result * den)
{
  if (num->failed || den->failed || den->median == 0)
    return g_strdup ("n/a");
  return g_strdup_printf ("%.2f", (double) num->median / den->median);
}

static void
emit_markdown_resolution (const Resolution * res, Result results[][MODE_COUNT],
    const Result * shared, guint n_metrics, const SharpnessMetric * metrics)
{
  const Result *va = &shared[MODE_VIDEOANALYSE],
      *h2d = &shared[MODE_H2D_PINNED], *h2d_pageable =
      &shared[MODE_H2D_PAGEABLE];
  gchar *a, *b, *c;
  guint m;

  g_string_append_printf (markdown, "\n### %s (%dx%d NV12)\n\n"
      "Times in us per frame (medians); ratios of medians.\n\n", res->name,
      res->width, res->height);
  a = fmt_us (h2d);
  b = fmt_us (h2d_pageable);
  c = fmt_us (va);
  g_string_append_printf (markdown, "Copy floor (luma plane, %.1f MB): "
      "pinned H2D %s us, pageable H2D %s us. videoanalyse (I420): %s us/frame."
      "\n\n", (double) res->width * res->height / 1e6, a, b, c);
  g_free (a);
  g_free (b);
  g_free (c);

  g_string_append (markdown, "| metric | kernel | CUDA memory | pinned | "
      "pageable | CPU backend | pinned / pinned H2D | fps, CUDA memory | "
      "fps, pinned | CPU / CUDA memory | CPU / pinned | videoanalyse / CUDA "
      "memory | videoanalyse / pinned |\n"
      "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  for (m = 0; m < n_metrics; m++) {
    Result *r = results[m];
    gchar *cells[] = {
      fmt_us (&r[MODE_KERNEL]), fmt_us (&r[MODE_CUDA_MEMORY]),
      fmt_us (&r[MODE_PINNED]), fmt_us (&r[MODE_PAGEABLE]),
      fmt_us (&r[MODE_CPU]), fmt_ratio (&r[MODE_PINNED], h2d),
      fmt_fps (&r[MODE_CUDA_MEMORY]), fmt_fps (&r[MODE_PINNED]),
      fmt_ratio (&r[MODE_CPU], &r[MODE_CUDA_MEMORY]),
      fmt_ratio (&r[MODE_CPU], &r[MODE_PINNED]),
      fmt_ratio (va, &r[MODE_CUDA_MEMORY]), fmt_ratio (va, &r[MODE_PINNED]),
    };
    guint k;

    g_string_append_printf (markdown, "| %s |",
        sharpness_metric_info[metrics[m]].nick);
    for (k = 0; k < G_N_ELEMENTS (cells); k++) {
      g_string_append_printf (markdown, " %s |", cells[k]);
      g_free (cells[k]);
    }
    g_string_append_c (markdown, '\n');
  }
  for (m = 0; m < n_metrics; m++) {
    Mode mode;

    for (mode = MODE_KERNEL; mode <= MODE_CPU; mode++) {
      if (results[m][mode].failed)
        g_string_append_printf (markdown, "\n- %s %s: %s",
            sharpness_metric_info[metrics[m]].nick, mode_names[mode],
            results[m][mode].note);
    }
  }
  g_string_append (markdown, "\n");
}

/* ---- Main -------------------------------------------------------------- */

static gboolean
parse_options (int *argc, char ***argv)
{
  gchar *resolutions = NULL, *metrics = NULL, *streams = NULL;
  gchar *alternate = NULL;
  GOptionEntry entries[] = {
    {"tiles", 0, 0, G_OPTION_ARG_FILENAME, &opt.tiles_path,
        "Natural tiles from export-tiles.py", "FILE"},
    {"resolutions", 0, 0, G_OPTION_ARG_STRING, &resolutions,
        "Comma-separated subset of 720p,1080p,4K,8K", "LIST"},
    {"metrics", 0, 0, G_OPTION_ARG_STRING, &metrics,
        "Comma-separated metric nicks (default: all)", "LIST"},
    {"seconds", 0, 0, G_OPTION_ARG_DOUBLE, &opt.seconds,
        "Time per GPU measurement (default 0.3)", "S"},
    {"cpu-seconds", 0, 0, G_OPTION_ARG_DOUBLE, &opt.cpu_seconds,
        "Time per CPU/videoanalyse measurement (default 0.6)", "S"},
    {"cpu-frame-limit", 0, 0, G_OPTION_ARG_DOUBLE, &opt.cpu_frame_limit,
          "Skip CPU runs whose frames would take longer, extrapolating from "
          "the previous resolution (default 2)", "S"},
    {"max-frames", 0, 0, G_OPTION_ARG_INT, &opt.max_frames,
        "Frames per measurement at most (default 5000)", "N"},
    {"device", 0, 0, G_OPTION_ARG_INT, &opt.device, "CUDA device", "N"},
    {"csv", 0, 0, G_OPTION_ARG_FILENAME, &opt.csv_path,
        "CSV output (default bench-sharpness.csv)", "FILE"},
    {"markdown", 0, 0, G_OPTION_ARG_FILENAME, &opt.markdown_path,
        "Markdown output (also printed)", "FILE"},
    {"streams", 0, 0, G_OPTION_ARG_STRING, &streams,
          "Many-streams mode: N pipelines in one process for each N of the "
          "comma-separated list (all: 1,8,32,64,128,256)", "LIST"},
    {"streams-seconds", 0, 0, G_OPTION_ARG_DOUBLE, &opt.streams_seconds,
        "Measured time per streams run (default 2)", "S"},
    {"streams-warmup", 0, 0, G_OPTION_ARG_DOUBLE, &opt.streams_warmup,
        "Time before measuring, per streams run (default 0.5)", "S"},
    {"streams-grace", 0, 0, G_OPTION_ARG_DOUBLE, &opt.streams_grace,
          "Time the streams have to drain after the stop before the run is "
          "reported incomplete (default 20)", "S"},
    {"streams-ring", 0, 0, G_OPTION_ARG_INT, &opt.streams_ring,
        "Frames in each stream's ring (default 4)", "K"},
    {"element-props", 0, 0, G_OPTION_ARG_STRING, &opt.element_props,
        "Extra cudasharpness properties for every element run, e.g. "
          "\"tiles=8x4\"", "PROPS"},
    {"alternate", 0, 0, G_OPTION_ARG_STRING, &alternate,
          "Alternating mode: switch a cudasharpness property between two "
          "values, e.g. detect=0,black+freeze", "PROP=A,B"},
    {"alternate-rounds", 0, 0, G_OPTION_ARG_INT, &opt.alt_rounds,
        "Alternating mode: rounds (default 40)", "R"},
    {"alternate-frames", 0, 0, G_OPTION_ARG_INT, &opt.alt_frames,
        "Alternating mode: measured frames a segment (default 300)", "K"},
    {"compare-no-service", 0, 0, G_OPTION_ARG_NONE, &opt.compare_no_service,
          "Streams mode: run each case again with SHARPNESS_CUDA_NO_SERVICE=1",
        NULL},
    {NULL}
  };
  GOptionContext *ctx = g_option_context_new ("- cudasharpness benchmark");
  GError *err = NULL;
  gboolean ok;

  opt.seconds = 0.3;
  opt.cpu_seconds = 0.6;
  opt.cpu_frame_limit = 2.0;
  opt.max_frames = 5000;
  opt.streams_seconds = 2.0;
  opt.streams_warmup = 0.5;
  opt.streams_grace = 20.0;
  opt.streams_ring = 4;
  opt.alt_rounds = 40;
  opt.alt_frames = 300;
  g_option_context_add_main_entries (ctx, entries, NULL);
  g_option_context_add_group (ctx, gst_init_get_option_group ());
  ok = g_option_context_parse (ctx, argc, argv, &err);
  if (!ok)
    g_printerr ("%s\n", err->message);
  g_clear_error (&err);
  g_option_context_free (ctx);

  if (!opt.tiles_path)
    opt.tiles_path = g_strdup (BENCH_TILES);
  if (!opt.element_props)
    opt.element_props = g_strdup ("");
  if (!opt.csv_path)
    opt.csv_path = g_strdup (streams ? "bench-sharpness-streams.csv" :
        alternate ? "bench-sharpness-alternate.csv" : "bench-sharpness.csv");
  if (alternate && streams) {
    g_printerr ("--alternate and --streams are separate modes\n");
    ok = FALSE;
  } else if (alternate) {
    gchar **kv = g_strsplit (alternate, "=", 2);
    gchar **ab = kv[0] && kv[1] ? g_strsplit (kv[1], ",", -1) : NULL;

    if (!ab || !*kv[0] || g_strv_length (ab) != 2) {
      g_printerr ("bad --alternate \"%s\" (PROP=A,B)\n", alternate);
      ok = FALSE;
    } else {
      opt.alt_prop = g_strdup (kv[0]);
      opt.alt_values[0] = g_strdup (ab[0]);
      opt.alt_values[1] = g_strdup (ab[1]);
    }
    g_strfreev (ab);
    g_strfreev (kv);
    if (!resolutions)
      resolutions = g_strdup ("1080p");
    if (!metrics)
      metrics = g_strdup ("variance,roberts,tenengrad,laplacian,smd,smd2,"
          "maxmin,entropy");
  }
  opt.resolutions = g_strsplit (resolutions ? resolutions :
      "720p,1080p,4K,8K", ",", -1);
  /* The streams mode's own default: a cheap, a mid and a heavy metric. */
  if (!metrics && streams)
    metrics = g_strdup ("laplacian,tenengrad,bliinds2");
  opt.metrics = metrics ? g_strsplit (metrics, ",", -1) : NULL;
  if (streams) {
    gchar **counts = g_strsplit (g_strcmp0 (streams, "all") ?
        streams : "1,8,32,64,128,256", ",", -1);
    guint i;

    opt.streams = g_new0 (guint, g_strv_length (counts));
    for (i = 0; counts[i]; i++) {
      gchar *end;
      guint64 n = g_ascii_strtoull (counts[i], &end, 10);

      if (end == counts[i] || *end || n < 1 || n > 4096) {
        g_printerr ("bad stream count \"%s\" (1 to 4096)\n", counts[i]);
        ok = FALSE;
        break;
      }
      opt.streams[opt.n_streams++] = (guint) n;
    }
    g_strfreev (counts);
  }
  g_free (resolutions);
  g_free (metrics);
  g_free (streams);
  g_free (alternate);
  return ok && opt.alt_rounds > 0 && opt.alt_frames > 0 &&
      opt.max_frames > 0 && opt.seconds > 0 && opt.cpu_seconds > 0
      && opt.cpu_frame_limit > 0 && opt.streams_seconds > 0 &&
      opt.streams_warmup >= 0 && opt.streams_grace > 0 &&
      opt.streams_ring > 0;
}

int
main (int argc, char **argv)
{
  SharpnessMetric metrics[SHARPNESS_METRIC_COUNT];
  gdouble cpu_ns_per_pixel[SHARPNESS_METRIC_COUNT] = { 0, };
  guint n_metrics = 0, r, m;
  Tiles tiles;
  SharpnessCuda *sc;
  cudaStream_t stream;
  char device_name[128] = "";
  gchar *date;
  GDateTime *now;
  GValue alt[2] = { G_VALUE_INIT, G_VALUE_INIT };

  if (!parse_options (&argc, &argv))
    return 2;
  gst_init (&argc, &argv);

  for (m = 0; m < SHARPNESS_METRIC_COUNT; m++) {
    if (!opt.metrics ||
        g_strv_contains ((const gchar * const *) opt.metrics,
            sharpness_metric_info[m].nick))
      metrics[n_metrics++] = (SharpnessMetric) m;
  }
  if (n_metrics == 0) {
    g_printerr ("no known metric selected\n");
    return 2;
  }
  if (!tiles_load (&tiles, opt.tiles_path)) {
    g_printerr ("cannot read the natural tiles %s (make them with "
        "tests/bench/export-tiles.py)\n", opt.tiles_path);
    return 2;
  }
  if (!gst_cuda_load_library () || CuInit (0) != CUDA_SUCCESS) {
    g_printerr ("no CUDA driver\n");
    return 77;
  }
  gst_cuda_memory_init_once ();
  cuda_ctx = gst_cuda_context_new (opt.device);
  if (!cuda_ctx) {
    g_printerr ("no CUDA device %d\n", opt.device);
    return 77;
  }
  {
    CUdevice dev;
    if (CuDeviceGet (&dev, opt.device) == CUDA_SUCCESS)
      CuDeviceGetName (device_name, sizeof (device_name), dev);
  }
  if (!gst_element_factory_find ("cudasharpness")) {
    g_printerr ("cudasharpness not found: set GST_PLUGIN_PATH\n");
    return 2;
  }
  if (opt.alt_prop && !alt_values (alt))
    return 2;

  if (opt.n_streams || opt.alt_prop) {
    gboolean complete;

    csv = fopen (opt.csv_path, "w");
    if (!csv) {
      g_printerr ("cannot write %s: %s\n", opt.csv_path, g_strerror (errno));
      return 2;
    }
    now = g_date_time_new_now_utc ();
    date = g_date_time_format (now, "%Y-%m-%d %H:%M UTC");
    g_date_time_unref (now);
    markdown = g_string_new (NULL);
    g_string_append_printf (markdown, "Device: %s; %s; natural frames from "
        "%d photograph tiles.\n", device_name, date, tiles.count);
    g_free (date);
    complete = opt.n_streams ? run_streams_mode (&tiles, metrics, n_metrics) :
        run_alternate_mode (&tiles, metrics, n_metrics, alt);
    for (guint i = 0; i < G_N_ELEMENTS (alt); i++)
      if (G_IS_VALUE (&alt[i]))
        g_value_unset (&alt[i]);
    fclose (csv);
    g_print ("%s", markdown->str);
    if (opt.markdown_path &&
        !g_file_set_contents (opt.markdown_path, markdown->str, -1, NULL))
      g_printerr ("cannot write %s\n", opt.markdown_path);
    g_string_free (markdown, TRUE);
    g_free (tiles.data);
    gst_object_unref (cuda_ctx);
    /* 1: a case lost frames, did not drain in time or failed. */
    return complete ? 0 : 1;
  }

  csv = fopen (opt.csv_path, "w");
  if (!csv) {
    g_printerr ("cannot write %s: %s\n", opt.csv_path, g_strerror (errno));
    return 2;
  }
  fprintf (csv, "resolution,width,height,metric,mode,frames,median_ns,p10_ns,"
      "p90_ns,fps,note\n");

  now = g_date_time_new_now_utc ();
  date = g_date_time_format (now, "%Y-%m-%d %H:%M UTC");
  g_date_time_unref (now);
  markdown = g_string_new (NULL);
  g_string_append_printf (markdown, "Device: %s; %s; natural frames from %d "
      "photograph tiles; medians of per-frame times (us).\n", device_name,
      date, tiles.count);
  g_free (date);

  if (!gst_cuda_context_push (cuda_ctx))
    g_error ("cannot push the CUDA context");
  CHECK_CUDA (cudaStreamCreateWithFlags (&stream, cudaStreamNonBlocking));
  if (sharpness_cuda_new (stream, &sc) != SHARPNESS_OK)
    g_error ("cannot create the CUDA backend");
  gst_cuda_context_pop (NULL);

  for (r = 0; r < G_N_ELEMENTS (all_resolutions); r++) {
    const Resolution *res = &all_resolutions[r];
    Result (*results)[MODE_COUNT];
    Result shared[MODE_COUNT];
    GstBuffer **cuda_bufs, **nv12_bufs, **i420_bufs;
    gchar *nv12_caps, *cuda_caps, *i420_caps;
    Ring ring;

    if (!g_strv_contains ((const gchar * const *) opt.resolutions, res->name))
      continue;
    ring_init (&ring, &tiles, res);
    g_printerr ("%s: ring of %u natural frames\n", res->name, ring.n);

    nv12_caps = g_strdup_printf ("video/x-raw,format=NV12,width=%d,height=%d,"
        "framerate=30/1", res->width, res->height);
    cuda_caps = g_strdup_printf ("video/x-raw(memory:CUDAMemory),format=NV12,"
        "width=%d,height=%d,framerate=30/1", res->width, res->height);
    i420_caps = g_strdup_printf ("video/x-raw,format=I420,width=%d,height=%d,"
        "framerate=30/1", res->width, res->height);
    nv12_bufs = make_sysmem_buffers (&ring, &ring.nv12);
    i420_bufs = make_sysmem_buffers (&ring, &ring.i420);
    cuda_bufs = make_cuda_buffers (&ring);

    memset (shared, 0, sizeof (shared));
    gst_cuda_context_push (cuda_ctx);
    run_copy_floor (stream, &ring, &shared[MODE_H2D_PINNED],
        &shared[MODE_H2D_PAGEABLE]);
    gst_cuda_context_pop (NULL);
    emit_csv (res, "-", MODE_H2D_PINNED, &shared[MODE_H2D_PINNED]);
    emit_csv (res, "-", MODE_H2D_PAGEABLE, &shared[MODE_H2D_PAGEABLE]);
    run_element (&ring, i420_bufs, i420_caps, "videoanalyse name=el",
        opt.cpu_seconds, 1, 1, &shared[MODE_VIDEOANALYSE]);
    emit_csv (res, "-", MODE_VIDEOANALYSE, &shared[MODE_VIDEOANALYSE]);

    results = g_malloc0_n (n_metrics, sizeof (*results));
    for (m = 0; m < n_metrics; m++) {
      const gchar *nick = sharpness_metric_info[metrics[m]].nick;
      gchar *gpu = g_strdup_printf ("cudasharpness name=el backend=cuda "
          "metric=%s %s", nick, opt.element_props);
      gchar *cpu = g_strdup_printf ("cudasharpness name=el backend=cpu "
          "metric=%s %s", nick, opt.element_props);
      Result *rr = results[m];
      gdouble pixels = (gdouble) res->width * res->height, cpu_estimate;

      g_printerr ("%s %s\n", res->name, nick);
      gst_cuda_context_push (cuda_ctx);
      run_kernel (sc, stream, metrics[m], &ring, cuda_bufs, &rr[MODE_KERNEL]);
      gst_cuda_context_pop (NULL);
      run_element (&ring, cuda_bufs, cuda_caps, gpu, opt.seconds,
          GPU_WARMUP, GPU_MIN_SAMPLES, &rr[MODE_CUDA_MEMORY]);
      run_element (&ring, NULL, nv12_caps, gpu, opt.seconds, GPU_WARMUP,
          GPU_MIN_SAMPLES, &rr[MODE_PINNED]);
      run_element (&ring, nv12_bufs, nv12_caps, gpu, opt.seconds, GPU_WARMUP,
          GPU_MIN_SAMPLES, &rr[MODE_PAGEABLE]);
      /* The perceptual metrics take seconds per large frame on the CPU. */
      cpu_estimate = cpu_ns_per_pixel[metrics[m]] * pixels;
      if (cpu_estimate > opt.cpu_frame_limit * 1e9) {
        result_fail (&rr[MODE_CPU], "skipped: about %.0f s per frame, "
            "extrapolated from the previous size", cpu_estimate / 1e9);
      } else {
        run_element (&ring, nv12_bufs, nv12_caps, cpu, opt.cpu_seconds, 1, 1,
            &rr[MODE_CPU]);
        if (!rr[MODE_CPU].failed)
          cpu_ns_per_pixel[metrics[m]] = (gdouble) rr[MODE_CPU].median / pixels;
      }
      for (Mode mode = MODE_KERNEL; mode <= MODE_CPU; mode++)
        emit_csv (res, nick, mode, &rr[mode]);
      g_free (gpu);
      g_free (cpu);
    }
    emit_markdown_resolution (res, results, shared, n_metrics, metrics);

    g_free (results);
    free_buffers (cuda_bufs, ring.n);
    free_buffers (nv12_bufs, ring.n);
    free_buffers (i420_bufs, ring.n);
    g_free (nv12_caps);
    g_free (cuda_caps);
    g_free (i420_caps);
    ring_clear (&ring);
  }

  gst_cuda_context_push (cuda_ctx);
  sharpness_cuda_free (sc);
  CHECK_CUDA (cudaStreamDestroy (stream));
  gst_cuda_context_pop (NULL);

  fclose (csv);
  g_print ("%s", markdown->str);
  if (opt.markdown_path &&
      !g_file_set_contents (opt.markdown_path, markdown->str, -1, NULL))
    g_printerr ("cannot write %s\n", opt.markdown_path);
  g_string_free (markdown, TRUE);
  g_free (tiles.data);
  gst_object_unref (cuda_ctx);
  return 0;
}
