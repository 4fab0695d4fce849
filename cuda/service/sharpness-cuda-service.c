/* The per-context scoring service (sharpness-cuda-service.h): flat
 * combining over the batched classical kernels.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A caller appends its request to the pending list (oldest first).  While
 * its request is pending and one of the service's lanes (a stream with its
 * own backend) is free, it becomes that lane's leader: it takes every
 * pending request (up to SHARPNESS_CUDA_SERVICE_MAX_BATCH), launches them,
 * one backend call per metric among them, on the lane's stream, waits for
 * that stream and stores each request's sums and status.  Up to `lanes`
 * rounds are in flight at once, so that a batch is being launched while
 * another is waited for.  There is no worker thread: a lone stream's frame
 * is launched at once by its own thread, as it would be without a service.
 *
 * Wake-ups are targeted, never broadcast (64 threads woken per round, most
 * to go back to sleep, cost a millisecond of p99 on 16 cores): each thread
 * sleeps on a condition of its own.  A leader, its round done, wakes the
 * thread of each request of the round, and, if requests are pending, the
 * thread of the oldest one, once, to lead the next round ("summons" it).
 * A lone stream leads its own rounds and wakes nobody.
 *
 * No lost wake-up.  Invariant, whenever the lock is free:
 *   (I) pending requests and a free lane  =>  `summoned` is set,
 * and `summoned`'s thread has not yet passed the top of its wait loop since
 * it was set: it sleeps and has been signalled, or it runs and will take
 * the lock again.  At the top of the loop a thread clears `summoned` if it
 * is its own request; then it either leads (its request pending, a lane
 * free), returns or sleeps, and every unlock (before run_round(), the wait
 * and the return) is preceded by summon(), which sets `summoned` (and
 * signals it) when the left side of (I) holds and it is not set.  Every
 * change of the pending list or the lanes happens under the lock, so (I)
 * holds whenever the lock is free; a request is never pending with a lane
 * free and nobody coming.  Spurious or stale signals are harmless: every
 * wait is in a loop on its condition.
 *
 * Admission of unbatched work (enter/leave) is a FIFO of tickets, each on
 * its sleeper's stack: a leave() with sleepers hands its place to the
 * oldest one, and a newcomer queues behind sleepers, so a guest waits for
 * exactly the guests ahead of it.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include <cuda_runtime_api.h>

#include "sharpness-cuda-service-private.h"
#include "sharpness-cuda-tuning.h"
#include "sharpness-cuda.h"
#include "sharpness-tiles.h"

#define ERROR_SIZE 256
/* Rounds in flight at once by default: one launching while others are
 * waited for.  With one lane, a round's wait left the GPU idle between
 * rounds; eight came closest to independent streams
 * (docs/performance/notes-cuda-service.md). */
#define DEFAULT_LANES 8
/* Unbatched frames (perceptual metrics, tiles, ROIs) launching at once by
 * default: a slot is held while the frame's kernels run, so more slots
 * overlap more work, while all threads launching at once collapse
 * (docs/performance/notes-cuda-service.md). */
#define DEFAULT_GUESTS 16

typedef struct _Request Request;
typedef struct _Ticket Ticket;

/* One frame, on its caller's stack until done.  Its thread returns only
 * after seeing `done` under the service's lock, so a leader may touch it
 * (and signal `wake`) as long as it holds the lock. */
struct _Request
{
  Request *next;
  SharpnessMetric metric;
  SharpnessPlane plane;
  SharpnessSums *out;
  SharpnessStatus status;
  GCond *wake;                  /* its thread's (thread_wake ()) */
  /* Under the service's lock: */
  gboolean pending;             /* in the pending list */
  gboolean sleeping;            /* its thread waits on `wake` */
  gboolean done;
  char error[ERROR_SIZE];
};

/* A thread asleep in enter(), on its stack until admitted. */
struct _Ticket
{
  Ticket *next;
  GCond *wake;
  gboolean admitted;            /* under the service's lock */
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
  guint n_lanes;                /* SHARPNESS_CUDA_SERVICE_LANES, fixed */
  guint guest_slots;            /* SHARPNESS_CUDA_SERVICE_GUESTS, fixed */

  GMutex lock;
  /* Under lock: */
  Request *head, *tail;         /* pending, oldest first */
  guint free_lanes;
  Request *summoned;            /* see (I) above; NULL: nobody */
  SharpnessCudaServiceStats stats;
  guint guests;                 /* threads between enter() and leave() */
  Ticket *ticket_head, *ticket_tail;    /* asleep in enter(), oldest first */
  guint guests_waiting;

  Lane lanes[SHARPNESS_CUDA_SERVICE_MAX_LANES];
};

static GMutex table_lock;
static GHashTable *table;       /* CUcontext -> service */

static GMutex total_lock;
static SharpnessCudaServiceStats total;

/* The message of a failed request, per thread, valid until its next call
 * (one allocation per thread, on its first error). */
static GPrivate error_key = G_PRIVATE_INIT (g_free);

static void
wake_free (gpointer data)
{
  g_cond_clear (data);
  g_free (data);
}

/* The calling thread's own condition, made on its first wait: one
 * allocation per thread, none per frame on any platform (a GCond on the
 * stack would allocate in g_cond_init() where GLib has no futex).  Freed
 * when the thread exits, which it cannot do while inside the service, the
 * only time another thread signals it. */
static GPrivate wake_key = G_PRIVATE_INIT (wake_free);

static GCond *
thread_wake (void)
{
  GCond *wake = g_private_get (&wake_key);

  if (G_UNLIKELY (!wake)) {
    wake = g_new (GCond, 1);
    g_cond_init (wake);
    g_private_set (&wake_key, wake);
  }
  return wake;
}

/* An environment tunable in [@min, @max]: clamped when a number, @def when
 * unset or not a number. */
static guint
env_tunable (const gchar * name, guint min, guint max, guint def)
{
  const gchar *env = g_getenv (name);
  gchar *end = NULL;
  gint64 v;

  if (!env || !*env)
    return def;
  v = g_ascii_strtoll (env, &end, 10);
  if (end == env || *end != '\0')
    return def;
  return (guint) CLAMP (v, (gint64) min, (gint64) max);
}

G_DEFINE_QUARK (sharpness-cuda-service-error-quark,
    sharpness_cuda_service_error);

gboolean
sharpness_cuda_service_disabled (void)
{
  /* Read at every acquire (once per element start, not per frame), so
   * that a benchmark can compare both paths in one process. */
  const gchar *env = g_getenv (SHARPNESS_CUDA_ENV_NO_SERVICE);

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
  /* Lanes never made are zeroed: lane_clear() skips them. */
  for (guint i = 0; i < SHARPNESS_CUDA_SERVICE_MAX_LANES; i++)
    lane_clear (&self->lanes[i]);
  g_mutex_clear (&self->lock);
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
  /* Once per service, not per frame: a benchmark compares settings by
   * releasing every element between runs. */
  self->n_lanes = env_tunable (SHARPNESS_CUDA_ENV_SERVICE_LANES, 1,
      SHARPNESS_CUDA_SERVICE_MAX_LANES, DEFAULT_LANES);
  self->guest_slots = env_tunable (SHARPNESS_CUDA_ENV_SERVICE_GUESTS, 1,
      SHARPNESS_CUDA_SERVICE_MAX_GUESTS, DEFAULT_GUESTS);
  g_mutex_init (&self->lock);
  for (guint i = 0; i < self->n_lanes; i++) {
    if (!lane_init (&self->lanes[i], error)) {
      service_free (self);
      return NULL;
    }
  }
  self->free_lanes = self->n_lanes;
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

/* Under self->lock: a free lane, or NULL. */
static Lane *
free_lane (SharpnessCudaService * self)
{
  if (self->free_lanes == 0)
    return NULL;
  for (guint i = 0; i < self->n_lanes; i++) {
    if (!self->lanes[i].busy)
      return &self->lanes[i];
  }
  g_assert_not_reached ();
  return NULL;
}

/* Under self->lock, before every unlock: keeps (I).  Wakes one thread, the
 * oldest pending request's, when work waits for a free lane and nobody is
 * coming for it. */
static void
summon (SharpnessCudaService * self)
{
  Request *head = self->head;

  if (!head || self->free_lanes == 0 || self->summoned)
    return;
  self->summoned = head;
  /* Not sleeping: it runs (it leads a round, or is about to take the lock
   * again) and goes through the top of its loop before it can sleep. */
  if (head->sleeping)
    g_cond_signal (head->wake);
}

/* Called with self->lock held, returns with it held (released while the
 * round runs): takes @lane and every pending request (up to the cap),
 * scores them, marks them done and wakes their threads. */
static void
lead_round (SharpnessCudaService * self, Lane * lane)
{
  guint n = 0, calls;

  lane->busy = TRUE;
  self->free_lanes--;
  while (self->head && n < SHARPNESS_CUDA_SERVICE_MAX_BATCH) {
    Request *req = self->head;

    self->head = req->next;
    req->pending = FALSE;
    lane->round[n++] = req;
  }
  if (!self->head)
    self->tail = NULL;
  /* More than a round pending: another free lane takes the rest. */
  summon (self);
  g_mutex_unlock (&self->lock);

  calls = run_round (lane, n);

  g_mutex_lock (&self->lock);
  count_round (self, n, calls);
  lane->busy = FALSE;
  self->free_lanes++;
  for (guint i = 0; i < n; i++)
    lane->round[i]->done = TRUE;
  /* The next round first, so that the GPU is fed while the threads of this
   * one wake up. */
  summon (self);
  /* Then exactly the threads of this round, oldest first; our own is not
   * asleep.  Under the lock: a request lives on its thread's stack until
   * that thread has seen `done` under the lock. */
  for (guint i = 0; i < n; i++) {
    if (lane->round[i]->sleeping)
      g_cond_signal (lane->round[i]->wake);
  }
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
  req.wake = thread_wake ();
  req.pending = TRUE;
  req.sleeping = FALSE;

  g_mutex_lock (&self->lock);
  if (self->tail)
    self->tail->next = &req;
  else
    self->head = &req;
  self->tail = &req;

  for (;;) {
    Lane *lane;

    /* Whatever we were woken for, we are here now (see (I)). */
    if (self->summoned == &req)
      self->summoned = NULL;
    if (req.done)
      break;
    /* Only a thread whose own request is pending leads: one whose request
     * is in another's round waits for it rather than add a round to its
     * own latency. */
    lane = req.pending ? free_lane (self) : NULL;
    if (lane) {
      lead_round (self, lane);
      continue;
    }
    summon (self);
    req.sleeping = TRUE;
    g_cond_wait (req.wake, &self->lock);
    req.sleeping = FALSE;
  }
  summon (self);
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
  Ticket ticket;

  g_return_if_fail (self != NULL);
  g_mutex_lock (&self->lock);
  /* A newcomer never overtakes a sleeper, even when a slot looks free. */
  if (!self->ticket_head && self->guests < self->guest_slots) {
    self->guests++;
    g_mutex_unlock (&self->lock);
    return;
  }
  ticket.next = NULL;
  ticket.wake = thread_wake ();
  ticket.admitted = FALSE;
  if (self->ticket_tail)
    self->ticket_tail->next = &ticket;
  else
    self->ticket_head = &ticket;
  self->ticket_tail = &ticket;
  self->guests_waiting++;
  /* Sleepers exist only while every slot is taken (a slot is given back in
   * leave() only when nobody sleeps), and each leave() then admits the
   * oldest: no lost wake-up, first come first served. */
  while (!ticket.admitted)
    g_cond_wait (ticket.wake, &self->lock);
  g_mutex_unlock (&self->lock);
}

void
sharpness_cuda_service_leave (SharpnessCudaService * self)
{
  Ticket *next;

  g_return_if_fail (self != NULL);
  g_mutex_lock (&self->lock);
  next = self->ticket_head;
  if (next) {
    /* Our slot passes to the oldest sleeper: `guests` stays. */
    self->ticket_head = next->next;
    if (!self->ticket_head)
      self->ticket_tail = NULL;
    self->guests_waiting--;
    next->admitted = TRUE;
    /* Under the lock: the ticket lives until its thread sees `admitted`. */
    g_cond_signal (next->wake);
  } else if (self->guests > 0) {
    self->guests--;
  } else {
    g_critical ("sharpness_cuda_service_leave() without enter()");
  }
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

void
sharpness_cuda_service_get_state (SharpnessCudaService * self,
    SharpnessCudaServiceState * state)
{
  g_mutex_lock (&self->lock);
  state->lanes = self->n_lanes;
  state->guest_slots = self->guest_slots;
  state->guests = self->guests;
  state->guests_waiting = self->guests_waiting;
  g_mutex_unlock (&self->lock);
}
