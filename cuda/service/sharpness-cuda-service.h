/* The per-context scoring service: every element of a process scoring on
 * one CUDA context hands its classical-metric frames to one service, which
 * launches them together (one sharpness_cuda_sums_batch() per metric among
 * the pending frames) on its own stream.  A lone stream's frame is launched
 * at once by its own thread, with the single-frame kernel.
 * docs/architecture.md, "Many streams per GPU: the scoring service".
 * No GStreamer: GLib and the C API of cuda/.  Compiled only when HAVE_CUDA.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Every function runs with the service's CUDA context current on the
 * calling thread (the element pushes its GstCudaContext around the call):
 * the thread that happens to launch a batch launches in that context.
 */
#ifndef SHARPNESS_CUDA_SERVICE_H
#define SHARPNESS_CUDA_SERVICE_H

#include <glib.h>
#include <cuda.h>

#include "sharpness-metric.h"
#include "sharpness-plane.h"
#include "sharpness-status.h"
#include "sharpness-sums.h"

G_BEGIN_DECLS

typedef struct _SharpnessCudaService SharpnessCudaService;

#define SHARPNESS_CUDA_SERVICE_ERROR (sharpness_cuda_service_error_quark ())
GQuark sharpness_cuda_service_error_quark (void);

typedef enum
{
  /* The service's stream or backend could not be made in the context. */
  SHARPNESS_CUDA_SERVICE_ERROR_SETUP
} SharpnessCudaServiceError;

/* Most frames in one batch (one launch per metric and sample layout). */
#define SHARPNESS_CUDA_SERVICE_MAX_BATCH 256

/* Tunables, read from the environment once when a service is made (the
 * first acquire in a context, or the first after its last release):
 *   SHARPNESS_CUDA_SERVICE_LANES   rounds in flight at once, each on a
 *                                  stream of its own (1..8, default 8);
 *   SHARPNESS_CUDA_SERVICE_GUESTS  threads between enter() and leave() at
 *                                  once (1..64, default 16).
 * A number out of range is clamped to it; anything else leaves the
 * default. */
#define SHARPNESS_CUDA_SERVICE_MAX_LANES 8
#define SHARPNESS_CUDA_SERVICE_MAX_GUESTS 64

/* TRUE when the environment variable SHARPNESS_CUDA_NO_SERVICE is set to
 * anything but "" or "0" (read at each acquire): acquire then returns NULL without an
 * error and each element scores on its own stream (the path without a
 * service), so that both can be compared in one process. */
gboolean sharpness_cuda_service_disabled (void);

/* The service of @ctx (the context current on the calling thread), made
 * with its stream and backend on first use, else one more reference.  NULL
 * without @error set when disabled; NULL with @error when it cannot be set
 * up. */
SharpnessCudaService *sharpness_cuda_service_acquire (CUcontext ctx,
    GError ** error);
/* The same for the context current on the calling thread (found through
 * the driver's cuCtxGetCurrent, reached via the runtime). */
SharpnessCudaService *sharpness_cuda_service_acquire_current (GError **
    error);
/* Drops a reference; the last one frees the stream and backend (the
 * context must still be current and alive). */
void sharpness_cuda_service_release (SharpnessCudaService * service);

/* TRUE for the metrics the service scores: the classical ones with batches
 * (sharpness_metric_has_tiles()). */
gboolean sharpness_cuda_service_handles (SharpnessMetric metric);

/* The exact sums of @metric over @plane, a device plane of the service's
 * context whose data is ready (the caller has waited for its producer and
 * for its own copies), bit-identical to sharpness_cuda_sums_device().
 * Blocks until they are in @sums (sleeping, not spinning, while another
 * thread launches).  On SHARPNESS_ERROR_DEVICE, *@error_message (if not
 * NULL) points to the backend's message, valid on this thread until its
 * next call; every frame of a failed launch gets its error. */
SharpnessStatus sharpness_cuda_service_sums (SharpnessCudaService * service,
    SharpnessMetric metric, const SharpnessPlane * plane, SharpnessSums * sums,
    const char **error_message);

/* Admission for the work the service does not batch (perceptual metrics,
 * tiles, ROIs), which each element launches on its own stream: at most
 * SHARPNESS_CUDA_SERVICE_GUESTS threads of the context launch at once, the
 * others sleep in enter() and are let in first come, first served (one
 * leave() hands its place to the oldest sleeper).  Sixty-four threads
 * launching into one context and waiting on their streams spin in the
 * driver and collapse.  Every enter() is followed by one
 * leave(), on the same thread or not. */
void sharpness_cuda_service_enter (SharpnessCudaService * service);
void sharpness_cuda_service_leave (SharpnessCudaService * service);

/* Counters: sharpness_cuda_service_get_total_stats() below, and a
 * service's own (sharpness-cuda-service-private.h, for the tests). */
typedef struct
{
  guint64 requests;             /* frames scored (ok or failed) */
  guint64 batches;              /* rounds of a launching thread */
  guint64 calls;                /* backend calls: one per metric per round */
  guint64 batched_requests;     /* frames of rounds of more than one */
  guint max_batch;              /* most frames in one round */
} SharpnessCudaServiceStats;

/* Over every service of the process since it started (freed ones
 * included): the benchmark reads it through the plugin's module. */
void sharpness_cuda_service_get_total_stats (SharpnessCudaServiceStats *
    stats);

G_END_DECLS
#endif /* SHARPNESS_CUDA_SERVICE_H */
