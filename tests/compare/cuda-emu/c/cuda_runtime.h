/* The C side of the host stand-in: what test-cuda-vmaf.c calls.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#pragma once
#include <stddef.h>
enum { cudaSuccess = 0, cudaMemcpyHostToDevice = 1 };
int cudaGetDeviceCount (int *n);
int cudaMalloc (void **p, size_t n);
int cudaMemcpy (void *d, const void *s, size_t n, int k);
int cudaFree (void *p);
