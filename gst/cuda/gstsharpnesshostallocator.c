/* Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * GStreamer 1.22 has no pinned host allocator (1.24's GstCudaMemory can
 * stage through one, 1.22's cannot), so the element brings this small one.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <string.h>

#include "gstsharpnesshostallocator.h"
#include "sharpness-cuda.h"

GST_DEBUG_CATEGORY_STATIC (gst_sharpness_host_allocator_debug);
#define GST_CAT_DEFAULT gst_sharpness_host_allocator_debug

typedef struct
{
  GstMemory mem;
  /* What cudaHostAlloc returned; NULL in shared sub-memories. */
  gpointer block;
  /* First byte of the memory (block moved up to the requested alignment). */
  guint8 *data;
} GstSharpnessHostMemory;

struct _GstSharpnessHostAllocator
{
  GstAllocator parent;

  GstCudaContext *context;
};

G_DEFINE_TYPE (GstSharpnessHostAllocator, gst_sharpness_host_allocator,
    GST_TYPE_ALLOCATOR);

static gpointer
host_mem_map (GstMemory * mem, gsize maxsize, GstMapFlags flags)
{
  return ((GstSharpnessHostMemory *) mem)->data;
}

static void
host_mem_unmap (GstMemory * mem)
{
}

static GstMemory *
host_mem_share (GstMemory * mem, gssize offset, gssize size)
{
  GstSharpnessHostMemory *src = (GstSharpnessHostMemory *) mem;
  GstSharpnessHostMemory *sub;
  GstMemory *parent = mem->parent ? mem->parent : mem;

  if (size == -1)
    size = mem->size > (gsize) offset ? mem->size - offset : 0;

  sub = g_new0 (GstSharpnessHostMemory, 1);
  gst_memory_init (GST_MEMORY_CAST (sub),
      GST_MINI_OBJECT_FLAGS (parent) | GST_MINI_OBJECT_FLAG_LOCK_READONLY,
      mem->allocator, parent, mem->maxsize, mem->align, mem->offset + offset,
      size);
  sub->data = src->data;

  return GST_MEMORY_CAST (sub);
}

static GstMemory *
gst_sharpness_host_allocator_alloc (GstAllocator * allocator, gsize size,
    GstAllocationParams * params)
{
  GstSharpnessHostAllocator *self = GST_SHARPNESS_HOST_ALLOCATOR (allocator);
  GstSharpnessHostMemory *mem;
  gsize maxsize = size + params->prefix + params->padding;
  gsize align = params->align | gst_memory_alignment;
  gpointer block;
  gsize shift;

  /* Over-allocate by the alignment mask (a few bytes; pinned blocks are
   * page-aligned in practice) so that any requested alignment holds. */
  if (!gst_cuda_context_push (self->context)) {
    GST_ERROR_OBJECT (self, "cannot push the CUDA context");
    return NULL;
  }
  block = sharpness_cuda_host_alloc (maxsize + align);
  gst_cuda_context_pop (NULL);
  if (!block) {
    GST_ERROR_OBJECT (self, "cannot allocate %" G_GSIZE_FORMAT
        " bytes of pinned host memory", maxsize + align);
    return NULL;
  }

  shift = (align + 1 - ((guintptr) block & align)) & align;

  mem = g_new0 (GstSharpnessHostMemory, 1);
  mem->block = block;
  mem->data = (guint8 *) block + shift;
  gst_memory_init (GST_MEMORY_CAST (mem), params->flags, allocator, NULL,
      maxsize, align, params->prefix, size);

  if (params->prefix && (params->flags & GST_MEMORY_FLAG_ZERO_PREFIXED))
    memset (mem->data, 0, params->prefix);
  if (params->padding && (params->flags & GST_MEMORY_FLAG_ZERO_PADDED))
    memset (mem->data + params->prefix + size, 0, params->padding);

  return GST_MEMORY_CAST (mem);
}

static void
gst_sharpness_host_allocator_free (GstAllocator * allocator, GstMemory * memory)
{
  GstSharpnessHostAllocator *self = GST_SHARPNESS_HOST_ALLOCATOR (allocator);
  GstSharpnessHostMemory *mem = (GstSharpnessHostMemory *) memory;

  if (mem->block) {
    if (gst_cuda_context_push (self->context)) {
      sharpness_cuda_host_free (mem->block);
      gst_cuda_context_pop (NULL);
    } else {
      GST_ERROR_OBJECT (self, "cannot push the CUDA context, leaking %p",
          mem->block);
    }
  }
  g_free (mem);
}

static void
gst_sharpness_host_allocator_finalize (GObject * object)
{
  GstSharpnessHostAllocator *self = GST_SHARPNESS_HOST_ALLOCATOR (object);

  gst_clear_object (&self->context);

  G_OBJECT_CLASS (gst_sharpness_host_allocator_parent_class)->finalize (object);
}

static void
gst_sharpness_host_allocator_class_init (GstSharpnessHostAllocatorClass * klass)
{
  GObjectClass *gobject_class = G_OBJECT_CLASS (klass);
  GstAllocatorClass *allocator_class = GST_ALLOCATOR_CLASS (klass);

  gobject_class->finalize = gst_sharpness_host_allocator_finalize;
  allocator_class->alloc = gst_sharpness_host_allocator_alloc;
  allocator_class->free = gst_sharpness_host_allocator_free;

  GST_DEBUG_CATEGORY_INIT (gst_sharpness_host_allocator_debug,
      "sharpnesshostallocator", 0, "Pinned host memory for cudasharpness");
}

static void
gst_sharpness_host_allocator_init (GstSharpnessHostAllocator * self)
{
  GstAllocator *allocator = GST_ALLOCATOR_CAST (self);

  allocator->mem_type = GST_SHARPNESS_HOST_MEMORY_TYPE;
  allocator->mem_map = host_mem_map;
  allocator->mem_unmap = host_mem_unmap;
  allocator->mem_share = host_mem_share;
  /* mem_copy and mem_is_span: GstAllocator's fallbacks (copy through a new
   * memory of this allocator) are right for plain host memory. */
}

GstAllocator *
gst_sharpness_host_allocator_new (GstCudaContext * context)
{
  GstSharpnessHostAllocator *self;

  g_return_val_if_fail (GST_IS_CUDA_CONTEXT (context), NULL);

  self = g_object_new (GST_TYPE_SHARPNESS_HOST_ALLOCATOR, NULL);
  gst_object_ref_sink (self);
  self->context = gst_object_ref (context);

  return GST_ALLOCATOR_CAST (self);
}

GstBufferPool *
gst_sharpness_host_pool_new (GstAllocator * allocator, GstCaps * caps,
    guint min_buffers, guint max_buffers)
{
  GstVideoInfo info;
  GstBufferPool *pool;
  GstStructure *config;

  g_return_val_if_fail (GST_IS_SHARPNESS_HOST_ALLOCATOR (allocator), NULL);

  if (!gst_video_info_from_caps (&info, caps))
    return NULL;

  pool = gst_video_buffer_pool_new ();
  config = gst_buffer_pool_get_config (pool);
  gst_buffer_pool_config_set_params (config, caps, GST_VIDEO_INFO_SIZE (&info),
      min_buffers, max_buffers);
  gst_buffer_pool_config_set_allocator (config, allocator, NULL);
  gst_buffer_pool_config_add_option (config, GST_BUFFER_POOL_OPTION_VIDEO_META);
  if (!gst_buffer_pool_set_config (pool, config)) {
    GST_WARNING_OBJECT (allocator, "pool refused its configuration");
    gst_object_unref (pool);
    return NULL;
  }

  return pool;
}
