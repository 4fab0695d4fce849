/* The runtime calls of tests/compare/test-cuda-vmaf.c, for the host
 * stand-in (host memory).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>
#include "c/cuda_runtime.h"
int cudaGetDeviceCount (int *n) { *n = 1; return 0; }
int cudaMalloc (void **p, size_t n) { *p = malloc (n); return *p ? 0 : 2; }
int cudaMemcpy (void *d, const void *s, size_t n, int k) { (void) k; memcpy (d, s, n); return 0; }
int cudaFree (void *p) { free (p); return 0; }
