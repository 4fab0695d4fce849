/* The per-context scoring service (sharpness-cuda-service.h): flat
 * combining over the batched classical kernels.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A caller appends its request to the pending list.  When one of the
 * service's lanes (a stream with its own backend) is free, it becomes that
 * lane's leader: it takes every pending request (up to
 * SHARPNESS_CUDA_SERVICE_MAX_BATCH), launches them, one backend call per
 * metric among them, on the lane's stream, waits for that stream, stores
 * each request's sums and status and wakes the waiters; those whose request
 * came in meanwhile lead the next rounds.  Up to SERVICE_LANES rounds are in
 * flight at once, so that a batch is being launched while another is
 * waited for.  Callers whose request is in a round led by another thread
 * sleep on the condition.  There is no worker thread: a lone stream's frame
 * is launched by its own thread at once, as before (docs/architecture.md).
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include <cuda_runtime_api.h>

#include "sharpness-cuda-service.h"
#include "sharpness-cuda.h"
#include "sharpness-tiles.h"

#define ERROR_SIZE 256
/* Rounds in flight at once: one launching while others are waited for
 * (measured on an H200: one lane serialised 8 streams to half the
 * throughput of independent ones). */
#define SERVICE_LANES 4

typedef struct _Request Request;

/* One frame, on its caller's stack until done. */
struct _Request
{
  Request *next;
  SharpnessMetric metric;
  SharpnessPlane plane;
  SharpnessSums *out;
  SharpnessStatus status;
  gboolean done;
  char error[ERROR_SIZE];
};

/* A stream with its backend and launch arrays, used by one leader at a
 * time. */
typedef struct
{
  SharpnessCuda *cuda;
  cudaStream_t stream;
  Request **round;              /* SHARPNESS_CUDA_SERVICE_MAX_BATCH */
  /* Grown to the largest launch, never per frame. */
  SharpnessRegion *regions;
  SharpnessSums *sums;
  Request **group;
  guint cap;
  gboolean busy;                /* under the service's lock */
} Lane;

struct _SharpnessCudaService
{
  CUcontext ctx;                /* key in the table; never pushed here */
  gint refcount;                /* under table_lock */

  GMutex lock;
  GCond cond;
  /* Under lock: */
  Request *head, *tail;         /* pending, oldest first */
  SharpnessCudaServiceStats stats;
  guint guests;                 /* threads between enter() and leave() */
  GCond guest_cond;

  Lane lanes[SERVICE_LANES];
};

static GMutex table_lock;
static GHashTable *table;       /* CUcontext -> service */

static GMutex total_lock;
static SharpnessCudaServiceStats total;

/* The message of a failed request, per thread, valid until its next call
 * (one allocation per thread, on its first error). */
static GPrivate error_key = G_PRIVATE_INIT (g_free);

G_DEFINE_QUARK (sharpness-cuda-service-error-quark,
    sharpness_cuda_service_error);

gboolean
sharpness_cuda_service_disabled (void)
{
  /* Read at every acquire (once per element start, not per frame), so
   * that a benchmark can compare both paths in one process. */
  const gchar *env = g_getenv ("SHARPNESS_CUDA_NO_SERVICE");

  return env && *env && strcmp (env, "0") != 0;
}

gboolean
sharpness_cuda_service_handles (SharpnessMetric metric)
{
  return (guint) metric < SHARPNESS_METRIC_COUNT &&
      sharpness_metric_has_tiles (metric);
}

static void
lane_clear (Lane * lane)
{
  if (lane->cuda)
    sharpness_cuda_free (lane->cuda);
  /* The context may carry a sticky error by now: nothing to do about it. */
  if (lane->stream && cudaStreamDestroy (lane->stream) != cudaSuccess)
    (void) cudaGetLastError ();
  g_free (lane->round);
  g_free (lane->regions);
  g_free (lane->sums);
  g_free (lane->group);
}

static void
service_free (SharpnessCudaService * self)
{
  for (guint i = 0; i < SERVICE_LANES; i++)
    lane_clear (&self->lanes[i]);
  g_mutex_clear (&self->lock);
  g_cond_clear (&self->cond);
  g_cond_clear (&self->guest_cond);
  g_free (self);
}

static gboolean
lane_init (Lane * lane, GError ** error)
{
  cudaError_t err;
  SharpnessStatus status;

  lane->round = g_new (Request *, SHARPNESS_CUDA_SERVICE_MAX_BATCH);
  /* The runtime creates the stream in the context current on this thread
   * (the caller's); non-blocking: it must not wait for the legacy stream. */
  err = cudaStreamCreateWithFlags (&lane->stream, cudaStreamNonBlocking);
  if (err != cudaSuccess) {
    (void) cudaGetLastError ();
    lane->stream = NULL;
    g_set_error (error, SHARPNESS_CUDA_SERVICE_ERROR,
        SHARPNESS_CUDA_SERVICE_ERROR_SETUP,
        "cannot create the scoring service's CUDA stream: %s",
        cudaGetErrorString (err));
    return FALSE;
  }
  status = sharpness_cuda_new (lane->stream, &lane->cuda);
  if (status != SHARPNESS_OK) {
    const char *why = sharpness_cuda_last_error (NULL);

    lane->cuda = NULL;
    g_set_error (error, SHARPNESS_CUDA_SERVICE_ERROR,
        SHARPNESS_CUDA_SERVICE_ERROR_SETUP,
        "cannot set up the scoring service's CUDA backend: %s",
        why && *why ? why : sharpness_status_to_string (status));
    return FALSE;
  }
  return TRUE;
}

static SharpnessCudaService *
service_new (CUcontext ctx, GError ** error)
{
  SharpnessCudaService *self = g_new0 (SharpnessCudaService, 1);

  self->ctx = ctx;
  self->refcount = 1;
  g_mutex_init (&self->lock);
  g_cond_init (&self->cond);
  g_cond_init (&self->guest_cond);
  for (guint i = 0; i < SERVICE_LANES; i++) {
    if (!lane_init (&self->lanes[i], error)) {
      service_free (self);
      return NULL;
    }
  }
  return self;
}

SharpnessCudaService *
sharpness_cuda_service_acquire (CUcontext ctx, GError ** error)
{
  SharpnessCudaService *self;

  g_return_val_if_fail (ctx != NULL, NULL);
  if (sharpness_cuda_service_disabled ())
    return NULL;

  g_mutex_lock (&table_lock);
  if (!table)
    table = g_hash_table_new (g_direct_hash, g_direct_equal);
  self = g_hash_table_lookup (table, ctx);
  if (self) {
    self->refcount++;
  } else {
    self = service_new (ctx, error);
    if (self)
      g_hash_table_insert (table, ctx, self);
  }
  g_mutex_unlock (&table_lock);
  return self;
}

typedef CUresult (CUDAAPI * CtxGetCurrentFunc) (CUcontext * ctx);

SharpnessCudaService *
sharpness_cuda_service_acquire_current (GError ** error)
{
  static gsize once = 0;
  static CtxGetCurrentFunc get_current;
  CUcontext ctx = NULL;

  if (sharpness_cuda_service_disabled ())
    return NULL;
  /* libgstcuda 1.22's loader has no cuCtxGetCurrent, and the runtime links
   * no libcuda: ask the runtime for the driver's entry point, once. */
  if (g_once_init_enter (&once)) {
    void *fn = NULL;
    enum cudaDriverEntryPointQueryResult found;

    if (cudaGetDriverEntryPointByVersion ("cuCtxGetCurrent", &fn, 4000,
            cudaEnableDefault, &found) != cudaSuccess ||
        found != cudaDriverEntryPointSuccess) {
      (void) cudaGetLastError ();
      fn = NULL;
    }
    get_current = (CtxGetCurrentFunc) fn;
    g_once_init_leave (&once, 1);
  }
  if (!get_current || get_current (&ctx) != CUDA_SUCCESS || !ctx) {
    g_set_error (error, SHARPNESS_CUDA_SERVICE_ERROR,
        SHARPNESS_CUDA_SERVICE_ERROR_SETUP,
        "no current CUDA context for the scoring service");
    return NULL;
  }
  return sharpness_cuda_service_acquire (ctx, error);
}

void
sharpness_cuda_service_release (SharpnessCudaService * self)
{
  gboolean last;

  if (!self)
    return;
  g_mutex_lock (&table_lock);
  last = --self->refcount == 0;
  if (last)
    g_hash_table_remove (table, self->ctx);
  /* Freed under the lock: a new service of the same context (the same
   * handle) must not be made before this one's stream is gone. */
  if (last)
    service_free (self);
  g_mutex_unlock (&table_lock);
}

/* Room for @n requests of one metric in the launch arrays. */
static void
reserve (Lane * self, guint n)
{
  if (n <= self->cap)
    return;
  n = MAX (n, MIN (2 * self->cap, SHARPNESS_CUDA_SERVICE_MAX_BATCH));
  self->regions = g_renew (SharpnessRegion, self->regions, n);
  self->sums = g_renew (SharpnessSums, self->sums, n);
  self->group = g_renew (Request *, self->group, n);
  self->cap = n;
}

static void
fail_group (Lane * self, Request ** group, guint n, SharpnessStatus status)
{
  const char *msg = status == SHARPNESS_ERROR_DEVICE ?
      sharpness_cuda_last_error (self->cuda) : NULL;

  for (guint i = 0; i < n; i++) {
    group[i]->status = status;
    if (msg)
      g_strlcpy (group[i]->error, msg, ERROR_SIZE);
  }
}

/* Scores the @n requests of @self's round, without the service's lock
 * (the lane is busy).  One backend call per metric among them; a frame
 * alone in its metric takes the single-frame kernel (the lone stream's
 * path), several take one batched launch per sample layout.  Returns the
 * number of calls. */
static guint
run_round (Lane * self, guint n)
{
  gboolean present[SHARPNESS_METRIC_COUNT] = { FALSE, };
  guint calls = 0;

  for (guint i = 0; i < n; i++)
    present[self->round[i]->metric] = TRUE;

  for (guint m = 0; m < SHARPNESS_METRIC_COUNT; m++) {
    SharpnessStatus status;
    guint k = 0;

    if (!present[m])
      continue;
    for (guint i = 0; i < n; i++) {
      if (self->round[i]->metric == m)
        k++;
    }
    reserve (self, k);
    k = 0;
    for (guint i = 0; i < n; i++) {
      Request *req = self->round[i];

      if (req->metric != m)
        continue;
      self->group[k] = req;
      memset (&self->regions[k], 0, sizeof (SharpnessRegion));
      self->regions[k].plane = req->plane;
      k++;
    }

    calls++;
    if (k == 1)
      status = sharpness_cuda_sums_device (self->cuda, m, &self->group[0]->plane,
          &self->sums[0]);
    else
      status = sharpness_cuda_sums_batch (self->cuda, m, self->regions, k,
          self->sums);
    if (status != SHARPNESS_OK) {
      fail_group (self, self->group, k, status);
      continue;
    }
    for (guint j = 0; j < k; j++) {
      *self->group[j]->out = self->sums[j];
      self->group[j]->status = SHARPNESS_OK;
    }
  }
  return calls;
}

/* Under self->lock: what a round of @n requests adds to the counters. */
static void
count_round (SharpnessCudaService * self, guint n, guint calls)
{
  SharpnessCudaServiceStats *s = &self->stats;

  s->requests += n;
  s->batches++;
  s->calls += calls;
  if (n > 1)
    s->batched_requests += n;
  s->max_batch = MAX (s->max_batch, n);

  g_mutex_lock (&total_lock);
  total.requests += n;
  total.batches++;
  total.calls += calls;
  if (n > 1)
    total.batched_requests += n;
  total.max_batch = MAX (total.max_batch, n);
  g_mutex_unlock (&total_lock);
}

/* The checks sharpness_cuda_sums_batch() applies to each region, made
 * before a request joins a round: one bad frame must not fail the frames
 * of other streams launched with it. */
static SharpnessStatus
check_request (SharpnessMetric metric, const SharpnessPlane * plane,
    const SharpnessSums * sums)
{
  if (!plane || !sums || (guint) metric >= SHARPNESS_METRIC_COUNT ||
      !sharpness_plane_is_valid (plane))
    return SHARPNESS_ERROR_INVALID;
  if (!sharpness_metric_has_tiles (metric))
    return SHARPNESS_ERROR_UNSUPPORTED;
  /* The batched kernels count pixels of a region in 32 bits. */
  if ((guint64) plane->width * plane->height >= G_GUINT64_CONSTANT (1) << 32)
    return SHARPNESS_ERROR_UNSUPPORTED;
  return SHARPNESS_OK;
}

SharpnessStatus
sharpness_cuda_service_sums (SharpnessCudaService * self,
    SharpnessMetric metric, const SharpnessPlane * plane, SharpnessSums * sums,
    const char **error_message)
{
  Request req;

  if (error_message)
    *error_message = NULL;
  if (!self)
    return SHARPNESS_ERROR_INVALID;
  req.status = check_request (metric, plane, sums);
  if (req.status != SHARPNESS_OK)
    return req.status;
  req.next = NULL;
  req.metric = metric;
  req.plane = *plane;
  req.out = sums;
  req.done = FALSE;
  req.error[0] = '\0';

  g_mutex_lock (&self->lock);
  if (self->tail)
    self->tail->next = &req;
  else
    self->head = &req;
  self->tail = &req;

  while (!req.done) {
    Lane *lane = NULL;
    guint n = 0, calls;

    for (guint i = 0; i < SERVICE_LANES && !lane; i++)
      if (!self->lanes[i].busy)
        lane = &self->lanes[i];
    if (!lane || !self->head) {
      /* Every lane launches (or our request is in a round already): its
       * leader wakes us when its round is done. */
      g_cond_wait (&self->cond, &self->lock);
      continue;
    }
    /* Lead a round of everything pending, oldest first (our own request
     * may be left for the next round when more than the cap wait). */
    lane->busy = TRUE;
    while (self->head && n < SHARPNESS_CUDA_SERVICE_MAX_BATCH) {
      lane->round[n++] = self->head;
      self->head = self->head->next;
    }
    if (!self->head)
      self->tail = NULL;
    g_mutex_unlock (&self->lock);

    calls = run_round (lane, n);

    g_mutex_lock (&self->lock);
    for (guint i = 0; i < n; i++)
      lane->round[i]->done = TRUE;
    count_round (self, n, calls);
    lane->busy = FALSE;
    /* Wakes the waiters of this round, and those of requests that came in
     * meanwhile: they lead the next rounds. */
    g_cond_broadcast (&self->cond);
  }
  g_mutex_unlock (&self->lock);

  if (req.status == SHARPNESS_ERROR_DEVICE && error_message) {
    char *buf = g_private_get (&error_key);

    if (!buf) {
      buf = g_malloc (ERROR_SIZE);
      g_private_set (&error_key, buf);
    }
    g_strlcpy (buf, req.error[0] ? req.error : "CUDA error", ERROR_SIZE);
    *error_message = buf;
  }
  return req.status;
}

void
sharpness_cuda_service_enter (SharpnessCudaService * self)
{
  g_mutex_lock (&self->lock);
  while (self->guests >= SERVICE_LANES)
    g_cond_wait (&self->guest_cond, &self->lock);
  self->guests++;
  g_mutex_unlock (&self->lock);
}

void
sharpness_cuda_service_leave (SharpnessCudaService * self)
{
  g_mutex_lock (&self->lock);
  self->guests--;
  g_cond_signal (&self->guest_cond);
  g_mutex_unlock (&self->lock);
}

void
sharpness_cuda_service_get_stats (SharpnessCudaService * self,
    SharpnessCudaServiceStats * stats)
{
  g_mutex_lock (&self->lock);
  *stats = self->stats;
  g_mutex_unlock (&self->lock);
}

void
sharpness_cuda_service_get_total_stats (SharpnessCudaServiceStats * stats)
{
  g_mutex_lock (&total_lock);
  *stats = total;
  g_mutex_unlock (&total_lock);
}
