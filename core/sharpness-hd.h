/* Host/device helpers: one copy of every small function the CPU backend
 * and the CUDA kernels must compute identically.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * SHARPNESS_HD makes a function usable from C (static inline) and from
 * nvcc (host and device, forced inline).  Everything here is integer or
 * index arithmetic, so both backends get the same bits.
 */
#ifndef SHARPNESS_HD_H
#define SHARPNESS_HD_H

#include <stddef.h>
#include <stdlib.h>

#ifdef __CUDACC__
#define SHARPNESS_HD static __host__ __device__ __forceinline__
#else
#define SHARPNESS_HD static inline
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Sample index of position @i (any integer) on an axis of @n samples, in
 * the symmetric extension (edge sample repeated): MATLAB's padarray
 * 'symmetric' whenever that exists (n > pad), also defined for smaller n. */
SHARPNESS_HD int
sharpness_mirror (int i, int n)
{
  const int period = 2 * n;

  i %= period;
  if (i < 0)
    i += period;
  return i < n ? i : period - 1 - i;
}

#ifdef __cplusplus
}
#endif
#endif /* SHARPNESS_HD_H */
