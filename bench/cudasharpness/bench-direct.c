/* bench-direct.c: the CUDA library and the copy engine without the
 * element: sharpness_cuda_score_device and host-to-device copies timed
 * with CUDA events.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "bench-sharpness.h"

/* Device time (CUDA events) of sharpness_cuda_score_device on each ring
 * frame in turn: the kernels, their launches' gaps and the result readback. */
void
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

void
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
