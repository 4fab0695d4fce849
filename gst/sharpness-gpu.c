/* Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Every CUDA call here and in the backend runs with the element's
 * GstCudaContext pushed on the calling thread and popped again before
 * returning: the runtime API behind cuda/ otherwise falls back to the
 * device's primary context, which nothing else in the pipeline uses.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudamemory.h>
#include <gst/cuda/gstcudautils.h>

#include "sharpness-gpu.h"
#include "sharpness-cuda.h"
#include "sharpness-frame.h"
#include "gstsharpnesshostallocator.h"

GST_DEBUG_CATEGORY_STATIC (sharpness_gpu_debug);
#define GST_CAT_DEFAULT sharpness_gpu_debug

struct _SharpnessGpu
{
  GstElement *element;          /* owner, not reffed */

  /* Guards @ctx between the streaming thread, which may replace it by the
   * context of incoming CUDA memory, and context queries or set_context
   * from other threads.  In open(), before any buffer flows,
   * gst_cuda_ensure_element_context() fills it through our set_context
   * or, creating a context, directly. */
  GMutex lock;
  GstCudaContext *ctx;

  /* Valid between open() and close(), all made in @ctx. */
  CUstream stream;
  SharpnessCuda *cuda;
  GstAllocator *host_allocator;
  /* A sticky error was seen: @ctx is unusable. */
  gboolean lost;
};

G_DEFINE_QUARK (sharpness-gpu-error-quark, sharpness_gpu_error);

gboolean
sharpness_gpu_init_once (const gchar ** why)
{
  static gsize init = 0;
  static const gchar *failure = NULL;
  static gchar reason[160];

  if (g_once_init_enter (&init)) {
    CUresult res;
    int count = 0;

    GST_DEBUG_CATEGORY_INIT (sharpness_gpu_debug, "sharpnessgpu", 0,
        "cudasharpness CUDA glue");

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

SharpnessGpu *
sharpness_gpu_new (GstElement * element)
{
  SharpnessGpu *gpu = g_new0 (SharpnessGpu, 1);

  gpu->element = element;
  g_mutex_init (&gpu->lock);
  return gpu;
}

void
sharpness_gpu_free (SharpnessGpu * gpu)
{
  if (!gpu)
    return;
  sharpness_gpu_close (gpu);
  g_mutex_clear (&gpu->lock);
  g_free (gpu);
}

void
sharpness_gpu_set_context (SharpnessGpu * gpu, GstContext * context,
    gint device_id)
{
  g_mutex_lock (&gpu->lock);
  gst_cuda_handle_set_context (gpu->element, context, device_id, &gpu->ctx);
  g_mutex_unlock (&gpu->lock);
}

gboolean
sharpness_gpu_handle_context_query (SharpnessGpu * gpu, GstQuery * query)
{
  GstCudaContext *ctx;
  gboolean ret;

  g_mutex_lock (&gpu->lock);
  ctx = gpu->ctx ? gst_object_ref (gpu->ctx) : NULL;
  g_mutex_unlock (&gpu->lock);

  ret = gst_cuda_handle_context_query (gpu->element, query, ctx);
  gst_clear_object (&ctx);
  return ret;
}

static void
set_error_from_cu (GError ** error, gint code, const gchar * what, CUresult res)
{
  const gchar *name = NULL, *text = NULL;

  CuGetErrorName (res, &name);
  CuGetErrorString (res, &text);
  g_set_error (error, SHARPNESS_GPU_ERROR, code, "%s: %s (%s)", what,
      text ? text : "unknown error", name ? name : "?");
}

/* Frees what was made in gpu->ctx: stream, backend, allocator. */
static void
release_device (SharpnessGpu * gpu)
{
  gst_clear_object (&gpu->host_allocator);

  if (!gpu->cuda && !gpu->stream)
    return;

  if (!gst_cuda_context_push (gpu->ctx)) {
    GST_ERROR_OBJECT (gpu->element, "cannot push the CUDA context, leaking "
        "the stream and device buffers");
    gpu->cuda = NULL;
    gpu->stream = NULL;
    return;
  }
  g_clear_pointer (&gpu->cuda, sharpness_cuda_free);
  if (gpu->stream) {
    /* Fails harmlessly on a context that hit a sticky error. */
    CuStreamDestroy (gpu->stream);
    gpu->stream = NULL;
  }
  gst_cuda_context_pop (NULL);
}

/* Makes the stream, backend and allocator in gpu->ctx. */
static gboolean
create_device (SharpnessGpu * gpu, GError ** error)
{
  SharpnessStatus status;
  CUresult res;

  if (!gst_cuda_context_push (gpu->ctx)) {
    g_set_error (error, SHARPNESS_GPU_ERROR, SHARPNESS_GPU_ERROR_NO_DEVICE,
        "cannot make the CUDA context current");
    return FALSE;
  }

  /* Non-blocking: in 1.22 upstream CUDA elements finish their copies before
   * pushing, so there is nothing on the legacy stream to wait for. */
  res = CuStreamCreate (&gpu->stream, CU_STREAM_NON_BLOCKING);
  if (res != CUDA_SUCCESS) {
    gpu->stream = NULL;
    gst_cuda_context_pop (NULL);
    set_error_from_cu (error, SHARPNESS_GPU_ERROR_NO_DEVICE,
        "cannot create a CUDA stream", res);
    return FALSE;
  }

  status = sharpness_cuda_new (gpu->stream, &gpu->cuda);
  gst_cuda_context_pop (NULL);
  if (status != SHARPNESS_OK) {
    g_set_error (error, SHARPNESS_GPU_ERROR, SHARPNESS_GPU_ERROR_NO_DEVICE,
        "cannot set up the CUDA backend: %s",
        sharpness_status_to_string (status));
    gpu->cuda = NULL;
    release_device (gpu);
    return FALSE;
  }

  gpu->host_allocator = gst_sharpness_host_allocator_new (gpu->ctx);
  gpu->lost = FALSE;
  return TRUE;
}

gboolean
sharpness_gpu_open (SharpnessGpu * gpu, gint device_id, GError ** error)
{
  const gchar *why;

  g_return_val_if_fail (gpu->cuda == NULL, FALSE);

  if (!sharpness_gpu_init_once (&why)) {
    g_set_error (error, SHARPNESS_GPU_ERROR, SHARPNESS_GPU_ERROR_NO_DEVICE,
        "%s", why);
    return FALSE;
  }

  /* Takes a context from neighbours or the application (through our
   * set_context, which fills gpu->ctx), else creates and announces one. */
  if (!gst_cuda_ensure_element_context (gpu->element, device_id, &gpu->ctx)) {
    if (device_id >= 0)
      g_set_error (error, SHARPNESS_GPU_ERROR, SHARPNESS_GPU_ERROR_NO_DEVICE,
          "cannot create a CUDA context on device %d", device_id);
    else
      g_set_error (error, SHARPNESS_GPU_ERROR, SHARPNESS_GPU_ERROR_NO_DEVICE,
          "cannot create a CUDA context");
    return FALSE;
  }

  if (!create_device (gpu, error)) {
    g_mutex_lock (&gpu->lock);
    gst_clear_object (&gpu->ctx);
    g_mutex_unlock (&gpu->lock);
    return FALSE;
  }
  return TRUE;
}

void
sharpness_gpu_close (SharpnessGpu * gpu)
{
  if (gpu->ctx)
    release_device (gpu);

  g_mutex_lock (&gpu->lock);
  gst_clear_object (&gpu->ctx);
  g_mutex_unlock (&gpu->lock);
  gpu->lost = FALSE;
}

gboolean
sharpness_gpu_is_open (SharpnessGpu * gpu)
{
  return gpu->ctx != NULL;
}

/* Replaces gpu->ctx by the context the incoming memory lives in, as
 * nvcodec's CUDA filters do, so that the kernels read it in place. */
static gboolean
adopt_context (SharpnessGpu * gpu, GstCudaContext * ctx, GError ** error)
{
  GST_INFO_OBJECT (gpu->element, "input memory belongs to CUDA context %"
      GST_PTR_FORMAT ", switching to it from %" GST_PTR_FORMAT, ctx, gpu->ctx);

  release_device (gpu);
  g_mutex_lock (&gpu->lock);
  gst_object_replace ((GstObject **) & gpu->ctx, GST_OBJECT_CAST (ctx));
  g_mutex_unlock (&gpu->lock);

  return create_device (gpu, error);
}

/* Turns a backend failure into @error.  A device error is checked for
 * stickiness: after one (an illegal address, say) every call in the
 * context fails, and the element must not keep trying silently. */
static gboolean
fail (SharpnessGpu * gpu, SharpnessStatus status, GError ** error)
{
  if (status == SHARPNESS_ERROR_DEVICE) {
    const gchar *msg = sharpness_cuda_last_error (gpu->cuda);
    CUresult res = CUDA_ERROR_INVALID_CONTEXT;

    if (gst_cuda_context_push (gpu->ctx)) {
      res = CuStreamSynchronize (gpu->stream);
      gst_cuda_context_pop (NULL);
    }
    gpu->lost = res != CUDA_SUCCESS;
    if (gpu->lost)
      GST_ERROR_OBJECT (gpu->element, "CUDA context is unusable: %s", msg);
    g_set_error (error, SHARPNESS_GPU_ERROR, gpu->lost ?
        SHARPNESS_GPU_ERROR_DEVICE_LOST : SHARPNESS_GPU_ERROR_FRAME,
        "CUDA backend: %s", msg);
  } else {
    g_set_error (error, SHARPNESS_GPU_ERROR, SHARPNESS_GPU_ERROR_FRAME,
        "CUDA backend: %s", sharpness_status_to_string (status));
  }
  return FALSE;
}

static gboolean
score_cuda_memory (SharpnessGpu * gpu, SharpnessMetric metric,
    GstBuffer * buffer, const GstVideoInfo * info, GstMemory * mem,
    gdouble * score, GError ** error)
{
  GstCudaMemory *cmem = GST_CUDA_MEMORY_CAST (mem);
  GstVideoMeta *meta;
  SharpnessPlane plane;
  SharpnessStatus status;
  GstMapInfo map;
  gsize offset, stride, end;

  if (cmem->context != gpu->ctx && !adopt_context (gpu, cmem->context, error))
    return FALSE;

  /* The memory's own layout is the pitched allocation; a GstVideoMeta, when
   * present, is what upstream promises about this buffer. */
  meta = gst_buffer_get_video_meta (buffer);
  offset = meta ? meta->offset[0] : cmem->info.offset[0];
  stride = MAX (meta ? meta->stride[0] : cmem->info.stride[0], 0);

  if (!gst_memory_map (mem, &map, GST_MAP_READ | GST_MAP_CUDA)) {
    g_set_error (error, SHARPNESS_GPU_ERROR, SHARPNESS_GPU_ERROR_FRAME,
        "cannot map the CUDA memory");
    return FALSE;
  }

  if (!sharpness_plane_init (&plane, info, (const guint8 *) map.data + offset,
          stride)) {
    gst_memory_unmap (mem, &map);
    g_set_error (error, SHARPNESS_GPU_ERROR, SHARPNESS_GPU_ERROR_FRAME,
        "unsupported format %s", GST_VIDEO_INFO_NAME (info));
    return FALSE;
  }

  /* A plane reaching past the allocation would make the kernels fault,
   * and a fault poisons the context for every element sharing it. */
  end = offset + stride * (plane.height - 1) +
      (gsize) plane.width * plane.pixel_stride;
  if (plane.height < 1 || stride < (gsize) plane.width * plane.pixel_stride
      || end > map.size) {
    gst_memory_unmap (mem, &map);
    g_set_error (error, SHARPNESS_GPU_ERROR, SHARPNESS_GPU_ERROR_FRAME,
        "plane 0 (offset %" G_GSIZE_FORMAT ", stride %" G_GSIZE_FORMAT
        ") does not fit the %" G_GSIZE_FORMAT "-byte CUDA memory", offset,
        stride, map.size);
    return FALSE;
  }

  if (!gst_cuda_context_push (gpu->ctx)) {
    gst_memory_unmap (mem, &map);
    g_set_error (error, SHARPNESS_GPU_ERROR, SHARPNESS_GPU_ERROR_DEVICE_LOST,
        "cannot make the CUDA context current");
    return FALSE;
  }
  status = sharpness_cuda_score_device (gpu->cuda, metric, &plane, score);
  gst_cuda_context_pop (NULL);
  gst_memory_unmap (mem, &map);

  return status == SHARPNESS_OK ? TRUE : fail (gpu, status, error);
}

static gboolean
score_system_memory (SharpnessGpu * gpu, SharpnessMetric metric,
    GstBuffer * buffer, const GstVideoInfo * info, gdouble * score,
    GError ** error)
{
  GstVideoFrame frame;
  SharpnessPlane plane;
  SharpnessStatus status;

  if (!gst_video_frame_map (&frame, info, buffer, GST_MAP_READ)) {
    g_set_error (error, SHARPNESS_GPU_ERROR, SHARPNESS_GPU_ERROR_FRAME,
        "cannot map the frame");
    return FALSE;
  }

  if (!sharpness_plane_init (&plane, info, GST_VIDEO_FRAME_PLANE_DATA (&frame,
              0), GST_VIDEO_FRAME_PLANE_STRIDE (&frame, 0))) {
    gst_video_frame_unmap (&frame);
    g_set_error (error, SHARPNESS_GPU_ERROR, SHARPNESS_GPU_ERROR_FRAME,
        "unsupported format %s", GST_VIDEO_INFO_NAME (info));
    return FALSE;
  }

  if (!gst_cuda_context_push (gpu->ctx)) {
    gst_video_frame_unmap (&frame);
    g_set_error (error, SHARPNESS_GPU_ERROR, SHARPNESS_GPU_ERROR_DEVICE_LOST,
        "cannot make the CUDA context current");
    return FALSE;
  }
  status = sharpness_cuda_score_host (gpu->cuda, metric, &plane, score);
  gst_cuda_context_pop (NULL);
  gst_video_frame_unmap (&frame);

  return status == SHARPNESS_OK ? TRUE : fail (gpu, status, error);
}

gboolean
sharpness_gpu_score (SharpnessGpu * gpu, SharpnessMetric metric,
    GstBuffer * buffer, const GstVideoInfo * info, gboolean cuda_memory,
    gdouble * score, GError ** error)
{
  GstMemory *mem;

  g_return_val_if_fail (gpu->ctx != NULL, FALSE);

  if (!gpu->cuda) {
    /* An earlier switch to another context could not set up there. */
    GError *err = NULL;

    if (!create_device (gpu, &err)) {
      err->code = SHARPNESS_GPU_ERROR_FRAME;
      g_propagate_error (error, err);
      return FALSE;
    }
  }
  if (gpu->lost) {
    g_set_error (error, SHARPNESS_GPU_ERROR, SHARPNESS_GPU_ERROR_DEVICE_LOST,
        "CUDA context is unusable after an earlier error: %s",
        sharpness_cuda_last_error (gpu->cuda));
    return FALSE;
  }

  /* CUDA memory is read in place whatever the caps say: mapping it for
   * the CPU would download the frame synchronously. */
  mem = gst_buffer_n_memory (buffer) == 1 ?
      gst_buffer_peek_memory (buffer, 0) : NULL;
  if (mem && gst_is_cuda_memory (mem))
    return score_cuda_memory (gpu, metric, buffer, info, mem, score, error);

  if (cuda_memory) {
    g_set_error (error, SHARPNESS_GPU_ERROR, SHARPNESS_GPU_ERROR_FRAME,
        "caps say CUDA memory but the buffer holds %u memories, the first "
        "of type %s", gst_buffer_n_memory (buffer),
        gst_buffer_n_memory (buffer) ?
        gst_buffer_peek_memory (buffer, 0)->allocator->mem_type : "none");
    return FALSE;
  }
  return score_system_memory (gpu, metric, buffer, info, score, error);
}

/* Puts @pool at index 0 of @query, keeping the others in order behind it:
 * upstream (GstBaseSrc, GstVideoDecoder, ...) takes the first. */
static void
prepend_pool (GstQuery * query, GstBufferPool * pool, guint size, guint min,
    guint max)
{
  guint i, n = gst_query_get_n_allocation_pools (query);

  gst_query_add_allocation_pool (query, pool, size, min, max);
  for (i = 0; i < n; i++) {
    GstBufferPool *other = NULL;
    guint s, mn, mx;

    gst_query_parse_nth_allocation_pool (query, 0, &other, &s, &mn, &mx);
    gst_query_remove_nth_allocation_pool (query, 0);
    gst_query_add_allocation_pool (query, other, s, mn, mx);
    gst_clear_object (&other);
  }
}

static void
prepend_allocator (GstQuery * query, GstAllocator * allocator)
{
  guint i, n = gst_query_get_n_allocation_params (query);
  GstAllocationParams params;

  gst_allocation_params_init (&params);
  gst_query_add_allocation_param (query, allocator, &params);
  for (i = 0; i < n; i++) {
    GstAllocator *other = NULL;

    gst_query_parse_nth_allocation_param (query, 0, &other, &params);
    gst_query_remove_nth_allocation_param (query, 0);
    gst_query_add_allocation_param (query, other, &params);
    gst_clear_object (&other);
  }
}

void
sharpness_gpu_propose_allocation (SharpnessGpu * gpu, GstQuery * query)
{
  GstCaps *caps;
  GstCapsFeatures *features;
  GstVideoInfo info;
  GstBufferPool *pool;
  gboolean need_pool;
  guint min = 0, max = 0;

  gst_query_parse_allocation (query, &caps, &need_pool);
  if (!caps || !gpu->host_allocator || !gst_video_info_from_caps (&info, caps))
    return;

  features = gst_caps_get_features (caps, 0);
  if (features && !gst_caps_features_is_equal (features,
          GST_CAPS_FEATURES_MEMORY_SYSTEM_MEMORY))
    return;

  /* The pool's buffers keep upstream's strides; the meta tells us them. */
  if (!gst_query_find_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL))
    gst_query_add_allocation_meta (query, GST_VIDEO_META_API_TYPE, NULL);

  prepend_allocator (query, gpu->host_allocator);
  if (!need_pool)
    return;

  /* Keep downstream's buffer count requirements. */
  if (gst_query_get_n_allocation_pools (query) > 0)
    gst_query_parse_nth_allocation_pool (query, 0, NULL, NULL, &min, &max);

  pool = gst_sharpness_host_pool_new (gpu->host_allocator, caps, min, max);
  if (!pool) {
    GST_WARNING_OBJECT (gpu->element, "cannot configure a pinned pool for %"
        GST_PTR_FORMAT, caps);
    return;
  }
  GST_DEBUG_OBJECT (gpu->element, "proposing pinned pool %" GST_PTR_FORMAT
      " for %" GST_PTR_FORMAT, pool, caps);
  prepend_pool (query, pool, GST_VIDEO_INFO_SIZE (&info), min, max);
  gst_object_unref (pool);
}
