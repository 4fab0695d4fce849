/* Page-locked (pinned) host memory for buffers offered to upstream, so that
 * the element's host-to-device copy of a system-memory frame runs at full
 * PCIe / NVLink speed instead of going through the driver's staging buffer.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef GST_SHARPNESS_HOST_ALLOCATOR_H
#define GST_SHARPNESS_HOST_ALLOCATOR_H

#include <gst/gst.h>
#include <gst/video/video.h>
#include <gst/cuda/gstcudacontext.h>

G_BEGIN_DECLS

/* GstMemory type of the memory this allocator hands out. */
#define GST_SHARPNESS_HOST_MEMORY_TYPE "SharpnessHostMemory"

#define GST_TYPE_SHARPNESS_HOST_ALLOCATOR (gst_sharpness_host_allocator_get_type ())
G_DECLARE_FINAL_TYPE (GstSharpnessHostAllocator, gst_sharpness_host_allocator,
    GST, SHARPNESS_HOST_ALLOCATOR, GstAllocator);

/* Memory is allocated and freed with @context pushed; it is portable, so it
 * copies at full speed in every context of the process. */
GstAllocator *gst_sharpness_host_allocator_new (GstCudaContext * context);


/* A GstVideoBufferPool for @caps (system memory) whose buffers are pinned
 * memory of @allocator, with GstVideoMeta enabled; configured, not active.
 * NULL when @caps is not a video format or the configuration is refused. */
GstBufferPool *gst_sharpness_host_pool_new (GstAllocator * allocator,
    GstCaps * caps, guint min_buffers, guint max_buffers);

G_END_DECLS
#endif /* GST_SHARPNESS_HOST_ALLOCATOR_H */
