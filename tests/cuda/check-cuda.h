/* CHECK_CUDA: a CUDA runtime call in the tests and benchmarks of tests/cuda,
 * which end the program with the call and the error on failure; and
 * check_cuda_device_or_skip, their common start.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CHECK_CUDA_H
#define CHECK_CUDA_H

#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime_api.h>

#include "sharpness-cuda.h"

#define CHECK_CUDA(call) do { \
  cudaError_t err_ = (call); \
  if (err_ != cudaSuccess) { \
    fprintf (stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, \
        cudaGetErrorString (err_)); \
    exit (1); \
  } \
} while (0)

/* Ends the program with 77, the skip of meson and CI, and "skipped: no
 * CUDA device (why)" unless the CUDA backend finds a device. */
static inline void
check_cuda_device_or_skip (void)
{
  const char *why = NULL;

  if (sharpness_cuda_device_count (&why) < 1) {
    printf ("skipped: no CUDA device (%s)\n", why ? why : "none");
    exit (77);
  }
}

#endif /* CHECK_CUDA_H */
