/* See sharpness-cuda-session.h.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudabufferpool.h>
#include <gst/cuda/gstcudautils.h>
#if GST_CHECK_VERSION (1, 24, 0)
#include <gst/cuda/gstcudastream.h>
#endif

#include "sharpness-cuda-session.h"
#include "sharpness-backend.h"
#include "sharpness-allocation.h"
#include "gstsharpnesshostallocator.h"

GST_DEBUG_CATEGORY_STATIC (sharpness_cuda_session_debug);
#define GST_CAT_DEFAULT sharpness_cuda_session_debug

struct _SharpnessCudaSession
{
  GstElement *element;          /* owner, not reffed */
  SharpnessCudaSetup setup;
  SharpnessCudaTeardown teardown;
  gpointer user_data;

  /* Guards @ctx between the streaming thread, which may replace it by the
   * context of incoming CUDA memory, and context queries or set_context
   * from other threads.  In open(), before any buffer flows,
   * gst_cuda_ensure_element_context() fills it through our set_context
   * or, creating a context, directly. */
  GMutex lock;
  GstCudaContext *ctx;
  /* cuda-device-id at open: -1, or the only device whose memory the
   * session reads in place. */
  gint device_id;

  /* Valid between open() and close(), all made in @ctx. */
#if GST_CHECK_VERSION (1, 24, 0)
  /* Also handed upstream in the CUDA pool's config, so that a producer
   * writing on it needs no wait at all. */
  GstCudaStream *gst_stream;
#endif
  CUstream stream;
  gboolean user_ready;          /* setup() succeeded in @ctx */
  GstAllocator *host_allocator;
  CUdeviceptr slot[SHARPNESS_CUDA_SESSION_SLOTS];
  gsize slot_size[SHARPNESS_CUDA_SESSION_SLOTS];
  /* A sticky error was seen: @ctx is unusable. */
  gboolean lost;
  /* CUDA memory of another device than device_id, or of a second context,
   * was seen (warned). */
  gboolean warned_foreign;
  gboolean warned_second_context;
};

gboolean
sharpness_cuda_session_init_once (const gchar ** why)
{
  static gsize init = 0;
  static const gchar *failure = NULL;
  static gchar reason[160];

  if (g_once_init_enter (&init)) {
    CUresult res;
    int count = 0;

    GST_DEBUG_CATEGORY_INIT (sharpness_cuda_session_debug, "sharpnessgpu", 0,
        "gst-sharpness CUDA glue");

    if (!gst_cuda_load_library ()) {
      failure = "cannot load the CUDA driver library (libcuda.so.1)";
    } else if ((res = CuInit (0)) != CUDA_SUCCESS) {
      const gchar *text = NULL;

      CuGetErrorString (res, &text);
      g_snprintf (reason, sizeof (reason), "cuInit failed: %s",
          text ? text : "unknown error");
      failure = reason;
    } else if (CuDeviceGetCount (&count) != CUDA_SUCCESS || count == 0) {
      failure = "no CUDA device";
    } else {
      gst_cuda_memory_init_once ();
    }
    g_once_init_leave (&init, 1);
  }

  if (why)
    *why = failure;
  return failure == NULL;
}

SharpnessCudaSession *
sharpness_cuda_session_new (GstElement * element, SharpnessCudaSetup setup,
    SharpnessCudaTeardown teardown, gpointer user_data)
{
  SharpnessCudaSession *self;

  if (!sharpness_cuda_session_init_once (NULL))
    return NULL;
  self = g_new0 (SharpnessCudaSession, 1);
  self->element = element;
  self->setup = setup;
  self->teardown = teardown;
  self->user_data = user_data;
  self->device_id = -1;
  g_mutex_init (&self->lock);
  return self;
}

void
sharpness_cuda_session_set_context (SharpnessCudaSession * self,
    GstContext * context, gint device_id)
{
  g_mutex_lock (&self->lock);
  /* Once the stream and kernels live in a context, another one only comes
   * with the memory (adopt_context), never from under them. */
  if (self->stream)
    GST_DEBUG_OBJECT (self->element, "open, keeping the CUDA context");
  else
    gst_cuda_handle_set_context (self->element, context, device_id,
        &self->ctx);
  g_mutex_unlock (&self->lock);
}

gboolean
sharpness_cuda_session_handle_context_query (SharpnessCudaSession * self,
    GstQuery * query)
{
  GstCudaContext *ctx;
  gboolean ret;

  g_mutex_lock (&self->lock);
  ctx = self->ctx ? gst_object_ref (self->ctx) : NULL;
  g_mutex_unlock (&self->lock);

  ret = gst_cuda_handle_context_query (self->element, query, ctx);
  gst_clear_object (&ctx);
  return ret;
}

static void
set_error_from_cu (GError ** error, gint code, const gchar * what, CUresult res)
{
  const gchar *name = NULL, *text = NULL;

  CuGetErrorName (res, &name);
  CuGetErrorString (res, &text);
  g_set_error (error, SHARPNESS_BACKEND_ERROR, code, "%s: %s (%s)", what,
      text ? text : "unknown error", name ? name : "?");
}

/* Frees what was made in self->ctx: user state, slots, stream, allocator. */
static void
release_device (SharpnessCudaSession * self)
{
  gboolean any = self->user_ready || self->stream;

  gst_clear_object (&self->host_allocator);
  for (guint i = 0; i < SHARPNESS_CUDA_SESSION_SLOTS; i++)
    any = any || self->slot[i];
  if (!any)
    return;

  if (!gst_cuda_context_push (self->ctx)) {
    GST_ERROR_OBJECT (self->element, "cannot push the CUDA context, leaking "
        "the stream and device buffers");
  } else {
    if (self->user_ready && self->teardown)
      self->teardown (self->user_data);
    for (guint i = 0; i < SHARPNESS_CUDA_SESSION_SLOTS; i++) {
      /* Fails harmlessly on a context with a sticky error. */
      if (self->slot[i])
        CuMemFree (self->slot[i]);
    }
#if GST_CHECK_VERSION (1, 24, 0)
    gst_clear_cuda_stream (&self->gst_stream);
#else
    if (self->stream)
      CuStreamDestroy (self->stream);
#endif
    gst_cuda_context_pop (NULL);
  }
  self->user_ready = FALSE;
  memset (self->slot, 0, sizeof (self->slot));
  memset (self->slot_size, 0, sizeof (self->slot_size));
  self->stream = NULL;
}

/* Makes the stream, the user's state and the allocator in self->ctx. */
static gboolean
create_device (SharpnessCudaSession * self, GError ** error)
{
  gboolean ok;

  if (!gst_cuda_context_push (self->ctx)) {
    g_set_error (error, SHARPNESS_BACKEND_ERROR,
        SHARPNESS_BACKEND_ERROR_NO_DEVICE,
        "cannot make the CUDA context current");
    return FALSE;
  }

  /* Non-blocking: work of other elements is ordered explicitly (see
   * order_after_producer), never through the legacy stream. */
#if GST_CHECK_VERSION (1, 24, 0)
  self->gst_stream = gst_cuda_stream_new (self->ctx);
  self->stream = self->gst_stream ?
      gst_cuda_stream_get_handle (self->gst_stream) : NULL;
  if (!self->stream) {
    gst_clear_cuda_stream (&self->gst_stream);
    gst_cuda_context_pop (NULL);
    g_set_error (error, SHARPNESS_BACKEND_ERROR,
        SHARPNESS_BACKEND_ERROR_NO_DEVICE, "cannot create a CUDA stream");
    return FALSE;
  }
#else
  {
    CUresult res = CuStreamCreate (&self->stream, CU_STREAM_NON_BLOCKING);

    if (res != CUDA_SUCCESS) {
      self->stream = NULL;
      gst_cuda_context_pop (NULL);
      set_error_from_cu (error, SHARPNESS_BACKEND_ERROR_NO_DEVICE,
          "cannot create a CUDA stream", res);
      return FALSE;
    }
  }
#endif

  ok = !self->setup || self->setup (self->user_data, self->stream, error);
  gst_cuda_context_pop (NULL);
  if (!ok) {
    release_device (self);
    return FALSE;
  }
  self->user_ready = TRUE;

  self->host_allocator = gst_sharpness_host_allocator_new (self->ctx);
  self->lost = FALSE;
  return TRUE;
}

gboolean
sharpness_cuda_session_open (SharpnessCudaSession * self, gint device_id,
    GError ** error)
{
  const gchar *why;

  g_return_val_if_fail (self->stream == NULL, FALSE);

  if (!sharpness_cuda_session_init_once (&why)) {
    g_set_error (error, SHARPNESS_BACKEND_ERROR,
        SHARPNESS_BACKEND_ERROR_NO_DEVICE, "%s", why);
    return FALSE;
  }

  self->device_id = device_id;
  self->warned_foreign = FALSE;
  self->warned_second_context = FALSE;
  /* Takes a context from neighbours or the application (through our
   * set_context, which fills self->ctx), else creates and announces one. */
  if (!gst_cuda_ensure_element_context (self->element, device_id,
          &self->ctx)) {
    if (device_id >= 0)
      g_set_error (error, SHARPNESS_BACKEND_ERROR,
          SHARPNESS_BACKEND_ERROR_NO_DEVICE,
          "cannot create a CUDA context on device %d", device_id);
    else
      g_set_error (error, SHARPNESS_BACKEND_ERROR,
          SHARPNESS_BACKEND_ERROR_NO_DEVICE, "cannot create a CUDA context");
    return FALSE;
  }

  if (!create_device (self, error)) {
    g_mutex_lock (&self->lock);
    gst_clear_object (&self->ctx);
    g_mutex_unlock (&self->lock);
    return FALSE;
  }
  return TRUE;
}

void
sharpness_cuda_session_close (SharpnessCudaSession * self)
{
  if (self->ctx)
    release_device (self);

  g_mutex_lock (&self->lock);
  gst_clear_object (&self->ctx);
  g_mutex_unlock (&self->lock);
  self->lost = FALSE;
}

gboolean
sharpness_cuda_session_is_open (SharpnessCudaSession * self)
{
  return self && self->ctx != NULL;
}

void
sharpness_cuda_session_free (SharpnessCudaSession * self)
{
  if (!self)
    return;
  sharpness_cuda_session_close (self);
  g_mutex_clear (&self->lock);
  g_free (self);
}

gboolean
sharpness_cuda_session_ready (SharpnessCudaSession * self, GError ** error)
{
  g_return_val_if_fail (self->ctx != NULL, FALSE);

  if (!self->stream) {
    /* An earlier switch to another context could not set up there. */
    GError *err = NULL;

    if (!create_device (self, &err)) {
      err->code = SHARPNESS_BACKEND_ERROR_FRAME;
      g_propagate_error (error, err);
      return FALSE;
    }
  }
  if (self->lost) {
    g_set_error (error, SHARPNESS_BACKEND_ERROR,
        SHARPNESS_BACKEND_ERROR_DEVICE_LOST,
        "CUDA context is unusable after an earlier error");
    return FALSE;
  }
  return TRUE;
}

CUstream
sharpness_cuda_session_stream (SharpnessCudaSession * self)
{
  return self->stream;
}

gboolean
sharpness_cuda_session_push (SharpnessCudaSession * self, GError ** error)
{
  if (gst_cuda_context_push (self->ctx))
    return TRUE;
  g_set_error (error, SHARPNESS_BACKEND_ERROR,
      SHARPNESS_BACKEND_ERROR_DEVICE_LOST,
      "cannot make the CUDA context current");
  return FALSE;
}

void
sharpness_cuda_session_pop (SharpnessCudaSession * self)
{
  gst_cuda_context_pop (NULL);
}

gboolean
sharpness_cuda_session_check_lost (SharpnessCudaSession * self)
{
  CUresult res = CUDA_ERROR_INVALID_CONTEXT;

  if (gst_cuda_context_push (self->ctx)) {
    res = CuStreamSynchronize (self->stream);
    gst_cuda_context_pop (NULL);
  }
  self->lost = res != CUDA_SUCCESS;
  return self->lost;
}

static guint
context_device (GstCudaContext * ctx)
{
  guint device = G_MAXUINT;

  g_object_get (ctx, "cuda-device-id", &device, NULL);
  return device;
}

/* Replaces self->ctx by the context the incoming memory lives in, as
 * nvcodec's CUDA filters do, so that the kernels read it in place. */
static gboolean
adopt_context (SharpnessCudaSession * self, GstCudaContext * ctx,
    GError ** error)
{
  GST_INFO_OBJECT (self->element, "input memory belongs to CUDA "
      "context %" GST_PTR_FORMAT ", switching to it from %" GST_PTR_FORMAT,
      ctx, self->ctx);

  release_device (self);
  g_mutex_lock (&self->lock);
  gst_object_replace ((GstObject **) & self->ctx, GST_OBJECT_CAST (ctx));
  g_mutex_unlock (&self->lock);

  return create_device (self, error);
}

/* From GStreamer 1.24 a producer (nvh264dec, cudaconvert, ...) may still
 * be writing the memory on its own stream when the buffer arrives
 * (GST_CUDA_MEMORY_TRANSFER_NEED_SYNC), and a GST_MAP_CUDA map does not
 * wait.  Wait for it unless it wrote on our stream, as gstcudaconvertscale
 * does; gst_cuda_memory_sync() does nothing when the flag is clear. */
static void
order_after_producer (SharpnessCudaSession * self, GstCudaMemory * cmem)
{
#if GST_CHECK_VERSION (1, 24, 0)
  GstCudaStream *in_stream = gst_cuda_memory_get_stream (cmem);

  if (!in_stream || gst_cuda_stream_get_handle (in_stream) != self->stream)
    gst_cuda_memory_sync (cmem);
#else
  /* 1.22: producers finish their work before pushing. */
#endif
}

static gboolean
map_frame (SharpnessCudaFrame * out, GstBuffer * buffer,
    const GstVideoInfo * info, gboolean device, GError ** error)
{
  GstVideoFrame *frame = &out->frame;

  out->device = device;
  if (!gst_video_frame_map (frame, info, buffer,
          GST_MAP_READ | (device ? GST_MAP_CUDA : 0))) {
    g_set_error (error, SHARPNESS_BACKEND_ERROR, SHARPNESS_BACKEND_ERROR_MAP,
        "cannot map the frame%s", device ? " as CUDA memory" : "");
    return FALSE;
  }
  if (!device)
    return TRUE;

  /* A plane reaching past the allocation would make the kernels fault,
   * and a fault poisons the context for every element sharing it.  One
   * CUDA memory holds every plane (checked by the caller). */
  for (guint p = 0; p < GST_VIDEO_FRAME_N_PLANES (frame); p++) {
    GstMapInfo *map = &frame->map[0];
    gint stride = GST_VIDEO_FRAME_PLANE_STRIDE (frame, p);
    gsize offset = (const guint8 *) GST_VIDEO_FRAME_PLANE_DATA (frame, p) -
        (const guint8 *) map->data;
    gint comp[GST_VIDEO_MAX_COMPONENTS];
    gint rows;
    gsize row_bytes = 0, end;

    gst_video_format_info_component (frame->info.finfo, p, comp);
    rows = GST_VIDEO_FRAME_COMP_HEIGHT (frame, comp[0]);
    for (gint i = 0; i < GST_VIDEO_MAX_COMPONENTS && comp[i] >= 0; i++) {
      gsize b = (gsize) GST_VIDEO_FRAME_COMP_WIDTH (frame, comp[i]) *
          GST_VIDEO_FRAME_COMP_PSTRIDE (frame, comp[i]);
      row_bytes = MAX (row_bytes, b);
    }
    end = offset + (gsize) stride * (rows - 1) + row_bytes;
    if (rows < 1 || stride <= 0 || (gsize) stride < row_bytes ||
        end > map->size) {
      g_set_error (error, SHARPNESS_BACKEND_ERROR, SHARPNESS_BACKEND_ERROR_MAP,
          "plane %u (offset %" G_GSIZE_FORMAT ", stride %d) does not fit "
          "the %" G_GSIZE_FORMAT "-byte CUDA memory", p, offset, stride,
          map->size);
      gst_video_frame_unmap (frame);
      return FALSE;
    }
  }
  return TRUE;
}

gboolean
sharpness_cuda_session_map (SharpnessCudaSession * self, GstBuffer * buffer,
    const GstVideoInfo * info, gboolean adopt, SharpnessCudaFrame * frame,
    GError ** error)
{
  guint n = gst_buffer_n_memory (buffer);
  GstMemory *mem = n > 0 ? gst_buffer_peek_memory (buffer, 0) : NULL;
  GstCudaMemory *cmem;

  /* CUDA memory is read in place whatever the caps say: mapping it for
   * the CPU would download the frame synchronously. */
  if (!mem || !gst_is_cuda_memory (mem))
    return map_frame (frame, buffer, info, FALSE, error);
  if (n != 1) {
    g_set_error (error, SHARPNESS_BACKEND_ERROR, SHARPNESS_BACKEND_ERROR_FRAME,
        "a buffer of CUDA memory holds %u memories", n);
    return FALSE;
  }

  cmem = GST_CUDA_MEMORY_CAST (mem);
  if (cmem->context != self->ctx) {
    guint device = context_device (cmem->context);

    if (!adopt) {
      /* Another input already lives in our context. */
      if (!self->warned_second_context) {
        self->warned_second_context = TRUE;
        GST_ELEMENT_WARNING (self->element, RESOURCE, SETTINGS,
            ("The inputs are in different CUDA contexts: every frame of "
                "one is copied through host memory; let the pipeline share "
                "one context (the default) to read both in place"), (NULL));
      }
      return map_frame (frame, buffer, info, FALSE, error);
    }
    /* As gstcudabasetransform: adopt only what cuda-device-id allows. */
    if (self->device_id < 0 || device == (guint) self->device_id) {
      if (!adopt_context (self, cmem->context, error))
        return FALSE;
    } else {
      /* Another GPU than the one asked for: honour cuda-device-id, read
       * the frame through host memory (a download and an upload). */
      if (!self->warned_foreign) {
        self->warned_foreign = TRUE;
        GST_ELEMENT_WARNING (self->element, RESOURCE, SETTINGS,
            ("Input CUDA memory is on device %u but cuda-device-id=%d: "
                "every frame is copied through host memory; set "
                "cuda-device-id=-1 or %u to read it in place", device,
                self->device_id, device), (NULL));
      }
      return map_frame (frame, buffer, info, FALSE, error);
    }
  }

  order_after_producer (self, cmem);
  /* Without a GstVideoMeta the layout is the memory's own (pitched), not
   * the caps' packed one. */
  return map_frame (frame, buffer,
      gst_buffer_get_video_meta (buffer) ? info : &cmem->info, TRUE, error);
}

void
sharpness_cuda_session_unmap (SharpnessCudaFrame * frame)
{
  gst_video_frame_unmap (&frame->frame);
}

gboolean
sharpness_cuda_session_slot (SharpnessCudaSession * self, guint slot,
    gsize size, CUdeviceptr * ptr, GError ** error)
{
  CUresult res;

  g_return_val_if_fail (slot < SHARPNESS_CUDA_SESSION_SLOTS, FALSE);

  if (self->slot_size[slot] < size) {
    if (self->slot[slot])
      CuMemFree (self->slot[slot]);
    self->slot[slot] = 0;
    self->slot_size[slot] = 0;
    res = CuMemAlloc (&self->slot[slot], size);
    if (res != CUDA_SUCCESS) {
      self->slot[slot] = 0;
      set_error_from_cu (error, SHARPNESS_BACKEND_ERROR_FRAME,
          "cannot allocate device memory", res);
      return FALSE;
    }
    self->slot_size[slot] = size;
  }
  *ptr = self->slot[slot];
  return TRUE;
}

gboolean
sharpness_cuda_session_upload (SharpnessCudaSession * self, CUdeviceptr dst,
    gsize dst_stride, gconstpointer src, gsize src_stride, gsize row_bytes,
    gsize rows, GError ** error)
{
  CUDA_MEMCPY2D copy = { 0, };
  CUresult res;

  copy.srcMemoryType = CU_MEMORYTYPE_HOST;
  copy.srcHost = src;
  copy.srcPitch = src_stride;
  copy.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  copy.dstDevice = dst;
  copy.dstPitch = dst_stride;
  copy.WidthInBytes = row_bytes;
  copy.Height = rows;
  /* Asynchronous only from pinned memory; pageable memory is staged by the
   * driver and returns once the source may be reused. */
  res = CuMemcpy2DAsync (&copy, self->stream);
  if (res != CUDA_SUCCESS) {
    set_error_from_cu (error, SHARPNESS_BACKEND_ERROR_FRAME,
        "cannot copy a frame to the device", res);
    return FALSE;
  }
  return TRUE;
}

static GstBufferPool *
make_host_pool (GstCaps * caps, gpointer user_data)
{
  SharpnessCudaSession *self = user_data;

  return gst_sharpness_host_pool_new (self->host_allocator, caps, 0, 0);
}

#if GST_CHECK_VERSION (1, 24, 0)
/* A CUDA pool whose memory upstream writes on our stream, so that
 * order_after_producer() finds nothing to wait for. */
static GstBufferPool *
make_cuda_pool (GstCaps * caps, gpointer user_data)
{
  SharpnessCudaSession *self = user_data;
  GstBufferPool *pool = gst_cuda_buffer_pool_new (self->ctx);
  GstStructure *config = gst_buffer_pool_get_config (pool);
  GstVideoInfo info;

  if (!gst_video_info_from_caps (&info, caps)) {
    gst_structure_free (config);
    gst_object_unref (pool);
    return NULL;
  }
  gst_buffer_pool_config_set_params (config, caps, GST_VIDEO_INFO_SIZE (&info),
      0, 0);
  gst_buffer_pool_config_set_cuda_stream (config, self->gst_stream);
  if (!gst_buffer_pool_set_config (pool, config)) {
    gst_object_unref (pool);
    return NULL;
  }
  return pool;
}
#endif

gboolean
sharpness_cuda_session_propose_allocation (SharpnessCudaSession * self,
    GstQuery * query)
{
  GstCaps *caps = NULL;
  GstCapsFeatures *features;
  gboolean added = FALSE;

  gst_query_parse_allocation (query, &caps, NULL);
  if (!caps || !self->ctx || !self->host_allocator)
    return FALSE;

  features = gst_caps_get_features (caps, 0);
  if (!features || gst_caps_features_is_equal (features,
          GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY)) {
    added = sharpness_allocation_offer_pool (query, make_host_pool, self);
  } else if (gst_caps_features_contains (features,
          GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY)) {
#if GST_CHECK_VERSION (1, 24, 0)
    added = sharpness_allocation_offer_pool (query, make_cuda_pool, self);
#endif
  }
  GST_DEBUG_OBJECT (self->element, "%s a pool for %" GST_PTR_FORMAT,
      added ? "proposed" : "did not propose", caps);
  return added;
}
