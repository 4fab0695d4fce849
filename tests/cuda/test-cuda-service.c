/* The per-context scoring service (cuda/service/sharpness-cuda-service.h) under
 * load: T threads submit frames of many sizes, strides, sample layouts and
 * classical metrics at once through one service, in a GstCudaContext as
 * the element uses it; every result must be bit-identical to
 * sharpness_cuda_sums_device() on the same plane, a bad frame must fail
 * alone, several threads must really have been batched together, and a
 * lone thread must never be.  The same with one lane and with eight
 * (SHARPNESS_CUDA_SERVICE_LANES), and with more threads than a round
 * takes.  Admission (enter/leave) must let sleepers in first come, first
 * served, and never more at once than SHARPNESS_CUDA_SERVICE_GUESTS.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Usage: test-cuda-service [--seed N]
 * Exits 77 ("skipped: no CUDA device") without a usable device.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cuda_runtime.h>
#include <gst/gst.h>
#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudautils.h>

#include "check-cuda.h"
#include "cuda-frames.h"
#include "sharpness-cuda.h"
#include "sharpness-cuda-service-private.h"
#include "sharpness-tiles.h"

/* A frame in device memory and its reference sums per metric. */
typedef struct
{
  const FrameLayout *layout;
  int width, height;
  size_t stride, offset;
  uint8_t *alloc;               /* device */
  SharpnessPlane plane;         /* device */
  SharpnessSums ref[SHARPNESS_METRIC_COUNT];
} Frame;

static GstCudaContext *ctx;
static SharpnessCudaService *service;
static Frame *frames;
static int n_frames;
static SharpnessMetric metrics[SHARPNESS_METRIC_COUNT];
static int n_metrics;
static uint64_t seed;
static gint failures, checks;
static GMutex print_lock;

typedef struct
{
  int index, requests;
  gboolean bad_frames;          /* also submits invalid/unsupported ones */
} Worker;

static void
fail (const char *fmt, ...) G_GNUC_PRINTF (1, 2);

static void
fail (const char *fmt, ...)
{
  va_list args;

  /* The first few are enough to see what went wrong. */
  if (g_atomic_int_add (&failures, 1) >= 20)
    return;
  g_mutex_lock (&print_lock);
  va_start (args, fmt);
  vfprintf (stderr, fmt, args);
  va_end (args);
  fputc ('\n', stderr);
  g_mutex_unlock (&print_lock);
}

/* Sizes: tiny, odd, wide, tall, and full HD (the batch's common case). */
static const int sizes[][2] = {
  {1, 1}, {2, 5}, {3, 3}, {17, 3}, {5, 40}, {64, 64}, {333, 201},
  {640, 360}, {1281, 719}, {1920, 1080}, {1920, 1080}, {1280, 720},
};

static void
make_frames (FrameRng * rng)
{
  int i;

  n_frames = 48;
  frames = g_new0 (Frame, n_frames);
  for (i = 0; i < n_frames; i++) {
    Frame *f = &frames[i];
    /* GRAY8 for a third of the frames, as most streams are 8-bit luma. */
    const FrameLayout *layout = i % 3 == 0 ? &frame_layouts[0] :
        &frame_layouts[frame_rng_next (rng) % frame_layout_count];
    const int *size = sizes[frame_rng_next (rng) % G_N_ELEMENTS (sizes)];
    size_t row = frame_row_bytes (layout, size[0]), extent, bytes;
    uint8_t *host;

    f->layout = layout;
    f->width = size[0];
    f->height = size[1];
    /* Tight, 16-aligned (the kernels' fast path) or odd strides; an odd
     * base address for some (the generic kernel). */
    switch (frame_rng_next (rng) % 3) {
      case 0:
        f->stride = row;
        break;
      case 1:
        f->stride = (row + 15) & ~(size_t) 15;
        break;
      default:
        f->stride = row + 1 + frame_rng_next (rng) % 37;
        break;
    }
    f->offset = frame_rng_next (rng) % 4 == 0 ? 1 + frame_rng_next (rng) % 15
        : 0;
    extent = frame_plane_extent (layout, f->stride, f->width, f->height);
    bytes = f->offset + f->stride * f->height;
    bytes = MAX (bytes, f->offset + extent);
    host = g_malloc (bytes);
    memset (host, 0xa5, bytes);
    frame_fill (host + f->offset, f->stride, layout, f->width, f->height,
        (FrameContent) (frame_rng_next (rng) % 3), rng);
    CHECK_CUDA (cudaMalloc ((void **) &f->alloc, bytes));
    CHECK_CUDA (cudaMemcpy (f->alloc, host, bytes, cudaMemcpyHostToDevice));
    g_free (host);
    f->plane = frame_plane (layout, f->alloc + f->offset, f->stride,
        f->width, f->height);
  }
}

/* The reference: each frame alone, through a backend of its own. */
static void
reference_sums (void)
{
  SharpnessCuda *cuda;
  cudaStream_t stream;

  CHECK_CUDA (cudaStreamCreateWithFlags (&stream, cudaStreamNonBlocking));
  if (sharpness_cuda_new (stream, &cuda) != SHARPNESS_OK) {
    fprintf (stderr, "backend creation failed: %s\n",
        sharpness_cuda_last_error (NULL));
    exit (1);
  }
  for (int i = 0; i < n_frames; i++) {
    for (int m = 0; m < n_metrics; m++) {
      SharpnessStatus st = sharpness_cuda_sums_device (cuda, metrics[m],
          &frames[i].plane, &frames[i].ref[metrics[m]]);

      if (st != SHARPNESS_OK) {
        fprintf (stderr, "reference %s on frame %d: %s\n",
            sharpness_metric_info[metrics[m]].nick, i,
            st == SHARPNESS_ERROR_DEVICE ? sharpness_cuda_last_error (cuda)
            : sharpness_status_to_string (st));
        exit (1);
      }
    }
  }
  sharpness_cuda_free (cuda);
  CHECK_CUDA (cudaStreamDestroy (stream));
}

static gpointer
worker_main (gpointer data)
{
  Worker *w = data;
  FrameRng rng;
  SharpnessSums sums;

  frame_rng_seed (&rng, seed + 7919 * (uint64_t) (w->index + 1));
  if (!gst_cuda_context_push (ctx)) {
    fail ("thread %d: cannot push the CUDA context", w->index);
    return NULL;
  }
  for (int r = 0; r < w->requests; r++) {
    const int i = (int) (frame_rng_next (&rng) % n_frames);
    const SharpnessMetric m = metrics[frame_rng_next (&rng) % n_metrics];
    const Frame *f = &frames[i];
    const char *msg = NULL;
    SharpnessStatus st;

    if (w->bad_frames && r % 17 == 5) {
      /* An empty plane and a metric without batches are refused alone. */
      SharpnessPlane bad = f->plane;

      bad.width = 0;
      st = sharpness_cuda_service_sums (service, m, &bad, &sums, &msg);
      if (st != SHARPNESS_ERROR_INVALID)
        fail ("thread %d: an empty plane gave %s", w->index,
            sharpness_status_to_string (st));
      st = sharpness_cuda_service_sums (service, SHARPNESS_METRIC_LPC_SI,
          &f->plane, &sums, &msg);
      if (st != SHARPNESS_ERROR_UNSUPPORTED)
        fail ("thread %d: lpc-si gave %s", w->index,
            sharpness_status_to_string (st));
      g_atomic_int_add (&checks, 2);
    }

    /* Garbage in, so that a field the service forgets shows. */
    memset (&sums, 0x5a, sizeof sums);
    st = sharpness_cuda_service_sums (service, m, &f->plane, &sums, &msg);
    g_atomic_int_inc (&checks);
    if (st != SHARPNESS_OK) {
      fail ("thread %d, %s on frame %d (%s %dx%d): %s%s%s", w->index,
          sharpness_metric_info[m].nick, i, f->layout->name, f->width,
          f->height, sharpness_status_to_string (st), msg ? ": " : "",
          msg ? msg : "");
      continue;
    }
    if (memcmp (&sums, &f->ref[m], sizeof sums) != 0)
      fail ("thread %d, %s on frame %d (%s %dx%d stride %zu offset %zu): "
          "sums differ from sharpness_cuda_sums_device (sum %" PRIu64
          " vs %" PRIu64 ")", w->index, sharpness_metric_info[m].nick, i,
          f->layout->name, f->width, f->height, f->stride, f->offset,
          (uint64_t) sums.sum, (uint64_t) f->ref[m].sum);
  }
  gst_cuda_context_pop (NULL);
  return NULL;
}

/* Releases the service and makes a new one with the tunables set to
 * @lanes and @guests (NULL: unset); checks the settings it took. */
static void
remake_service (const char *lanes, const char *guests, guint want_lanes,
    guint want_guests)
{
  SharpnessCudaServiceState state;
  GError *err = NULL;

  if (!gst_cuda_context_push (ctx)) {
    fprintf (stderr, "cannot push the CUDA context\n");
    exit (1);
  }
  sharpness_cuda_service_release (service);
  if (lanes)
    g_setenv ("SHARPNESS_CUDA_SERVICE_LANES", lanes, TRUE);
  else
    g_unsetenv ("SHARPNESS_CUDA_SERVICE_LANES");
  if (guests)
    g_setenv ("SHARPNESS_CUDA_SERVICE_GUESTS", guests, TRUE);
  else
    g_unsetenv ("SHARPNESS_CUDA_SERVICE_GUESTS");
  service = sharpness_cuda_service_acquire_current (&err);
  gst_cuda_context_pop (NULL);
  if (!service) {
    fprintf (stderr, "no service with lanes=%s guests=%s: %s\n",
        lanes ? lanes : "(unset)", guests ? guests : "(unset)",
        err ? err->message : "?");
    exit (1);
  }
  sharpness_cuda_service_get_state (service, &state);
  if (state.lanes != want_lanes || state.guest_slots != want_guests)
    fail ("lanes=%s guests=%s gave %u lanes and %u guests, not %u and %u",
        lanes ? lanes : "(unset)", guests ? guests : "(unset)",
        state.lanes, state.guest_slots, want_lanes, want_guests);
  if (state.guests != 0 || state.guests_waiting != 0)
    fail ("a new service has guests");
  g_atomic_int_inc (&checks);
}

/* Admission: who got in, in which order, and how many at once. */
static gint guest_order[64];
static gint guest_count, guests_inside, guests_most;

static void
guest_in (int index)
{
  gint now = g_atomic_int_add (&guests_inside, 1) + 1, most;

  do
    most = g_atomic_int_get (&guests_most);
  while (now > most
      && !g_atomic_int_compare_and_exchange (&guests_most, most, now));
  if (index >= 0) {
    gint pos = g_atomic_int_add (&guest_count, 1);

    if (pos < (gint) G_N_ELEMENTS (guest_order))
      guest_order[pos] = index;
  }
}

static gpointer
queued_guest_main (gpointer data)
{
  sharpness_cuda_service_enter (service);
  guest_in (GPOINTER_TO_INT (data));
  g_usleep (100);
  g_atomic_int_add (&guests_inside, -1);
  sharpness_cuda_service_leave (service);
  return NULL;
}

/* Sleepers are let in in the order they came (one slot, arrivals
 * serialised by waiting until each one sleeps in enter()). */
static void
check_admission_order (int threads)
{
  GThread **t = g_new (GThread *, threads);
  SharpnessCudaServiceState state;

  g_assert (threads <= (int) G_N_ELEMENTS (guest_order));
  guest_count = guests_inside = guests_most = 0;
  /* The only slot, held while the others queue up. */
  sharpness_cuda_service_enter (service);
  guest_in (-1);
  for (int i = 0; i < threads; i++) {
    gint64 deadline = g_get_monotonic_time () + 10 * G_TIME_SPAN_SECOND;

    t[i] = g_thread_new ("guest", queued_guest_main, GINT_TO_POINTER (i));
    for (;;) {
      sharpness_cuda_service_get_state (service, &state);
      if (state.guests_waiting == (guint) i + 1)
        break;
      if (state.guests_waiting > (guint) i + 1 || state.guests != 1 ||
          g_get_monotonic_time () > deadline) {
        fail ("guest %d: %u asleep and %u in, not %d and 1", i,
            state.guests_waiting, state.guests, i + 1);
        break;
      }
      g_usleep (200);
    }
  }
  g_atomic_int_add (&guests_inside, -1);
  sharpness_cuda_service_leave (service);
  for (int i = 0; i < threads; i++)
    g_thread_join (t[i]);
  if (guest_count != threads)
    fail ("%d of %d guests got in", guest_count, threads);
  for (int i = 0; i < MIN (guest_count, threads); i++) {
    if (guest_order[i] != i) {
      fail ("admission out of order: guest %d got in %d-th", guest_order[i],
          i + 1);
      break;
    }
  }
  if (guests_most != 1)
    fail ("%d guests in at once with one slot", guests_most);
  sharpness_cuda_service_get_state (service, &state);
  if (state.guests != 0 || state.guests_waiting != 0)
    fail ("after the guests: %u in, %u asleep", state.guests,
        state.guests_waiting);
  printf ("%d guests queued on one slot: let in in order\n", threads);
  g_atomic_int_add (&checks, threads + 1);
  g_free (t);
}

static gpointer
busy_guest_main (gpointer data)
{
  guint32 r = (guint32) GPOINTER_TO_INT (data) * 2654435761u + 1;

  for (int k = 0; k < 300; k++) {
    sharpness_cuda_service_enter (service);
    guest_in (-1);
    r = r * 1664525u + 1013904223u;
    if (r >> 30 == 0)
      g_usleep ((r >> 8) % 50);
    g_atomic_int_add (&guests_inside, -1);
    sharpness_cuda_service_leave (service);
  }
  return NULL;
}

/* Many threads in and out: never more than @slots in, nobody stuck. */
static void
check_admission_limit (int threads, guint slots)
{
  GThread **t = g_new (GThread *, threads);
  SharpnessCudaServiceState state;

  guest_count = guests_inside = guests_most = 0;
  for (int i = 0; i < threads; i++)
    t[i] = g_thread_new ("guest", busy_guest_main, GINT_TO_POINTER (i));
  for (int i = 0; i < threads; i++)
    g_thread_join (t[i]);
  if (guests_most < 1 || (guint) guests_most > slots)
    fail ("%d guests in at once with %u slots", guests_most, slots);
  sharpness_cuda_service_get_state (service, &state);
  if (state.guests != 0 || state.guests_waiting != 0)
    fail ("after the guests: %u in, %u asleep", state.guests,
        state.guests_waiting);
  printf ("%d threads x 300 admissions on %u slots: at most %d in\n",
      threads, slots, guests_most);
  g_atomic_int_inc (&checks);
  g_free (t);
}

/* @threads threads of @requests requests each; the service's counters
 * before and after in @delta. */
static void
run_threads (int threads, int requests, SharpnessCudaServiceStats * delta)
{
  GThread **t = g_new (GThread *, threads);
  Worker *w = g_new0 (Worker, threads);
  SharpnessCudaServiceStats before, after;

  sharpness_cuda_service_get_stats (service, &before);
  for (int i = 0; i < threads; i++) {
    w[i].index = i;
    w[i].requests = requests;
    w[i].bad_frames = i % 4 == 1;
    t[i] = g_thread_new ("service-test", worker_main, &w[i]);
  }
  for (int i = 0; i < threads; i++)
    g_thread_join (t[i]);
  sharpness_cuda_service_get_stats (service, &after);
  delta->requests = after.requests - before.requests;
  delta->batches = after.batches - before.batches;
  delta->calls = after.calls - before.calls;
  delta->batched_requests = after.batched_requests - before.batched_requests;
  delta->max_batch = after.max_batch;
  printf ("%d threads x %d requests: %" G_GUINT64_FORMAT " requests in %"
      G_GUINT64_FORMAT " rounds, %" G_GUINT64_FORMAT " backend calls, %"
      G_GUINT64_FORMAT " batched, largest round so far %u\n", threads,
      requests, delta->requests, delta->batches, delta->calls,
      delta->batched_requests, delta->max_batch);
  g_free (t);
  g_free (w);
}

int
main (int argc, char **argv)
{
  SharpnessCudaServiceStats d;
  SharpnessCudaService *again;
  GError *err = NULL;
  FrameRng rng;

  seed = (uint64_t) time (NULL) ^ ((uint64_t) clock () << 32);
  for (int i = 1; i < argc; i++) {
    if (strcmp (argv[i], "--seed") == 0 && i + 1 < argc) {
      seed = strtoull (argv[++i], NULL, 0);
    } else {
      fprintf (stderr, "usage: %s [--seed N]\n", argv[0]);
      return 2;
    }
  }
  check_cuda_device_or_skip ();
  if (sharpness_cuda_service_disabled ()) {
    printf ("skipped: SHARPNESS_CUDA_NO_SERVICE is set\n");
    return 77;
  }
  gst_init (NULL, NULL);
  if (!gst_cuda_load_library () || CuInit (0) != CUDA_SUCCESS) {
    printf ("skipped: no CUDA device (libgstcuda cannot load the driver)\n");
    return 77;
  }
  /* A context of its own, as the element's GstCudaContext: not the
   * runtime's primary context. */
  ctx = gst_cuda_context_new (0);
  if (!ctx || !gst_cuda_context_push (ctx)) {
    fprintf (stderr, "cannot make and push a CUDA context\n");
    return 1;
  }
  printf ("seed: %" PRIu64 "\n", seed);
  /* The defaults first, whatever the caller's environment. */
  g_unsetenv ("SHARPNESS_CUDA_SERVICE_LANES");
  g_unsetenv ("SHARPNESS_CUDA_SERVICE_GUESTS");

  for (int m = 0; m < SHARPNESS_METRIC_COUNT; m++) {
    if (sharpness_metric_has_tiles ((SharpnessMetric) m))
      metrics[n_metrics++] = (SharpnessMetric) m;
    if (sharpness_cuda_service_handles ((SharpnessMetric) m) !=
        (sharpness_metric_has_tiles ((SharpnessMetric) m) != 0))
      fail ("sharpness_cuda_service_handles (%s) is wrong",
          sharpness_metric_info[m].nick);
  }
  frame_rng_seed (&rng, seed);
  make_frames (&rng);
  reference_sums ();

  service = sharpness_cuda_service_acquire_current (&err);
  if (!service) {
    fprintf (stderr, "no service: %s\n", err ? err->message : "?");
    return 1;
  }
  again = sharpness_cuda_service_acquire (gst_cuda_context_get_handle (ctx),
      &err);
  if (again != service)
    fail ("a second acquire in the same context gave another service");
  sharpness_cuda_service_release (again);
  gst_cuda_context_pop (NULL);

  /* A lone thread: every frame launched at once, alone. */
  run_threads (1, 400, &d);
  if (d.requests < 400 || d.batched_requests != 0 || d.max_batch != 1 ||
      d.calls != d.batches)
    fail ("a lone thread was batched (%" G_GUINT64_FORMAT " requests, %"
        G_GUINT64_FORMAT " batched, largest round %u)", d.requests,
        d.batched_requests, d.max_batch);

  /* Many threads: rounds of several frames must happen. */
  run_threads (8, 600, &d);
  run_threads (64, 150, &d);
  if (d.batched_requests == 0 || d.max_batch < 2 || d.batches >= d.requests)
    fail ("64 threads were never batched together (%" G_GUINT64_FORMAT
        " requests in %" G_GUINT64_FORMAT " rounds)", d.requests, d.batches);
  if (d.max_batch > SHARPNESS_CUDA_SERVICE_MAX_BATCH)
    fail ("a round of %u frames, over the cap", d.max_batch);

  /* The tunables, read when a service is made. */
  remake_service ("8", NULL, 8, 16);
  remake_service ("99", "0", 8, 1);
  remake_service ("x", "1000", 8, 64);
  remake_service ("2", "5", 2, 5);

  /* One lane: every round serialised; more threads than a round takes. */
  remake_service ("1", NULL, 1, 16);
  run_threads (1, 100, &d);
  if (d.batched_requests != 0 || d.max_batch != 1)
    fail ("one lane: a lone thread was batched");
  run_threads (16, 200, &d);
  run_threads (300, 12, &d);
  if (d.batched_requests == 0 || d.max_batch < 2)
    fail ("one lane: 300 threads were never batched together");
  if (d.max_batch > SHARPNESS_CUDA_SERVICE_MAX_BATCH)
    fail ("one lane: a round of %u frames, over the cap", d.max_batch);

  /* Eight lanes. */
  remake_service ("8", NULL, 8, 16);
  run_threads (1, 100, &d);
  if (d.batched_requests != 0 || d.max_batch != 1)
    fail ("eight lanes: a lone thread was batched");
  run_threads (16, 200, &d);
  run_threads (64, 100, &d);

  /* Admission: first come, first served on one slot; the limit under
   * load. */
  remake_service (NULL, "1", 8, 1);
  check_admission_order (48);
  check_admission_limit (32, 1);
  remake_service ("2", "3", 2, 3);
  check_admission_limit (32, 3);
  remake_service (NULL, NULL, 8, 16);
  check_admission_limit (64, 16);

  gst_cuda_context_push (ctx);
  sharpness_cuda_service_release (service);
  for (int i = 0; i < n_frames; i++)
    CHECK_CUDA (cudaFree (frames[i].alloc));
  gst_cuda_context_pop (NULL);
  g_free (frames);
  gst_object_unref (ctx);

  printf ("%d checks, %d failures\n", g_atomic_int_get (&checks),
      g_atomic_int_get (&failures));
  return g_atomic_int_get (&failures) ? 1 : 0;
}
