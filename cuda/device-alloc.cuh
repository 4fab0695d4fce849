/* cudaMalloc with the backend's error reporting, and the matching
 * teardown, for the per-resolution state of the perceptual metrics.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SHARPNESS_DEVICE_ALLOC_CUH
#define SHARPNESS_DEVICE_ALLOC_CUH

#include "sharpness-cuda-private.h"

namespace sharpness_cuda
{

/* @size bytes at *@ptr (NULL on failure); SHARPNESS_ERROR_NO_MEMORY when
 * the device is out of memory, the message naming @what. */
static inline SharpnessStatus
device_alloc (SharpnessCuda * cuda, void **ptr, size_t size, const char *what)
{
  cudaError_t err = cudaMalloc (ptr, size);
  if (err != cudaSuccess)
    *ptr = nullptr;
  SharpnessStatus st = sharpness_cuda_check (cuda, err, what);
  return err == cudaErrorMemoryAllocation ? SHARPNESS_ERROR_NO_MEMORY : st;
}

/* Frees the non-NULL of @buffers (device_alloc's) and @host (pinned, may
 * be NULL).  A state's teardown has no caller to report to: the errors
 * are dropped and the thread's last error cleared, so that the next
 * launch does not see them. */
template <size_t N>
static inline void
device_free_all (void *const (&buffers)[N], void *host = nullptr)
{
  for (void *b : buffers)
    if (b)
      (void) cudaFree (b);
  if (host)
    (void) cudaFreeHost (host);
  (void) cudaGetLastError ();
}

}  // namespace sharpness_cuda

#endif /* SHARPNESS_DEVICE_ALLOC_CUH */
