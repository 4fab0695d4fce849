/* A CUDA session of an element: the GstCudaContext (shared with the
 * pipeline, adopted from incoming memory), the element's stream and its
 * ordering after the producer's, mapping a GstBuffer to device pointers of
 * all its planes, host-to-device staging of system memory, and the pinned
 * host pool offered upstream.  Used by the CUDA sharpness scorer and by
 * cudacompare; the kernels' own state lives with the user, made and freed
 * through the setup/teardown callbacks whenever the context changes.
 * Compiled only when HAVE_CUDA.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Every CUDA call of a session and of its user runs with the context pushed
 * on the calling thread (sharpness_cuda_session_push) and popped again: the
 * runtime API behind cuda/ otherwise falls back to the device's primary
 * context, which nothing else in the pipeline uses.
 */
#ifndef SHARPNESS_CUDA_SESSION_H
#define SHARPNESS_CUDA_SESSION_H

#include <gst/gst.h>
#include <gst/video/video.h>
#include <gst/cuda/gstcudacontext.h>

G_BEGIN_DECLS

typedef struct _SharpnessCudaSession SharpnessCudaSession;

/* Makes the user's per-context state for @stream (the context is pushed).
 * @error: a message for the user. */
typedef gboolean (*SharpnessCudaSetup) (gpointer user_data, CUstream stream,
    GError ** error);
/* Frees it (the context is pushed; it may have a sticky error). */
typedef void (*SharpnessCudaTeardown) (gpointer user_data);

/* Once per process: loads libcuda, cuInit, libgstcuda's memory.  FALSE with
 * a reason when no CUDA device is usable. */
gboolean sharpness_cuda_session_init_once (const gchar ** why);

/* NULL when sharpness_cuda_session_init_once() failed.  @element: owner
 * (not reffed), for context queries and messages. */
SharpnessCudaSession *sharpness_cuda_session_new (GstElement * element,
    SharpnessCudaSetup setup, SharpnessCudaTeardown teardown,
    gpointer user_data);
void sharpness_cuda_session_free (SharpnessCudaSession * session);

/* Errors are SHARPNESS_BACKEND_ERROR codes (sharpness-scorer.h). */
gboolean sharpness_cuda_session_open (SharpnessCudaSession * session,
    gint device_id, GError ** error);
void sharpness_cuda_session_close (SharpnessCudaSession * session);
gboolean sharpness_cuda_session_is_open (SharpnessCudaSession * session);

void sharpness_cuda_session_set_context (SharpnessCudaSession * session,
    GstContext * context, gint device_id);
gboolean sharpness_cuda_session_handle_context_query (SharpnessCudaSession *
    session, GstQuery * query);
/* Pools for @query's caps (pinned host memory for system memory; from 1.24
 * a CUDA pool writing on our stream), where downstream proposed none. */
gboolean sharpness_cuda_session_propose_allocation (SharpnessCudaSession *
    session, GstQuery * query);

/* Before a frame: re-creates the device state after a failed context
 * switch, refuses when the context is lost (DEVICE_LOST). */
gboolean sharpness_cuda_session_ready (SharpnessCudaSession * session,
    GError ** error);
CUstream sharpness_cuda_session_stream (SharpnessCudaSession * session);
gboolean sharpness_cuda_session_push (SharpnessCudaSession * session,
    GError ** error);
void sharpness_cuda_session_pop (SharpnessCudaSession * session);

/* After a backend call failed with SHARPNESS_ERROR_DEVICE: TRUE when the
 * context now has a sticky error (the session is then marked lost). */
gboolean sharpness_cuda_session_check_lost (SharpnessCudaSession * session);

/* A frame mapped for the session's kernels. */
typedef struct
{
  GstVideoFrame frame;
  /* TRUE: plane and component data are device pointers (GST_MAP_CUDA) of
   * the session's context; FALSE: host memory (system memory, or CUDA
   * memory of another context read through the host). */
  gboolean device;
} SharpnessCudaFrame;

/* Maps @buffer (@info: its caps) for reading.  CUDA memory of the session's
 * context is mapped in place after the producer's work (1.24+); CUDA memory
 * of another context is adopted when @adopt and cuda-device-id allow it,
 * else read through the host with one warning.  Every plane of a device
 * map is checked to lie inside the allocation (a fault would poison the
 * context for every element sharing it).  Errors: MAP, FRAME. */
gboolean sharpness_cuda_session_map (SharpnessCudaSession * session,
    GstBuffer * buffer, const GstVideoInfo * info, gboolean adopt,
    SharpnessCudaFrame * frame, GError ** error);
void sharpness_cuda_session_unmap (SharpnessCudaFrame * frame);

/* Device buffer @slot (0..SHARPNESS_CUDA_SESSION_SLOTS-1) of at least
 * @size bytes, grown when needed (one allocation per growth, none per
 * frame after the largest), freed with the context.  Call pushed. */
#define SHARPNESS_CUDA_SESSION_SLOTS 16
gboolean sharpness_cuda_session_slot (SharpnessCudaSession * session,
    guint slot, gsize size, CUdeviceptr * ptr, GError ** error);
/* Queues a copy of @rows rows of @row_bytes from host @src (stride
 * @src_stride) to device @dst (stride @dst_stride) on the stream; fast
 * when @src is pinned (the pool of propose_allocation).  Call pushed. */
gboolean sharpness_cuda_session_upload (SharpnessCudaSession * session,
    CUdeviceptr dst, gsize dst_stride, gconstpointer src, gsize src_stride,
    gsize row_bytes, gsize rows, GError ** error);

G_END_DECLS
#endif /* SHARPNESS_CUDA_SESSION_H */
