/* CPBD's counts on the GPU (analysis/sharpness-cpbd.h): a content work
 * item of one warp per complete 64 x 64 block of the luma, bit-identical
 * to sharpness_cpbd_count.  Included by content.cuh, whose Launch it
 * reads.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The lanes take the block's columns two apart: the block's contrast
 * (max - min, reduced over the warp) gives w_JNB, then each edge
 * candidate's rows are read around it and classified by
 * sharpness_cpbd_classify, the CPU's own function.  Most pixels fail the
 * Sobel level on six reads; only the others read their whole
 * neighbourhood.  A block's counts go into the warp's sums only when it
 * is an edge block.  Not inlined into the kernels that run content items:
 * a classical kernel's registers stay its own.
 */
#ifndef SHARPNESS_CONTENT_CPBD_CUH
#define SHARPNESS_CONTENT_CPBD_CUH

#include "sharpness-cpbd.h"

namespace sharpness_cuda
{
namespace content
{

/* Gray value of (@x, @y), @x clamped into the row (the border column
 * replicated, as sharpness-cpbd.h reads it); @y must be a row. */
__device__ __forceinline__ uint8_t
cpbd_gray (const SharpnessPlane & p, int x, int y)
{
  x = x < 0 ? 0 : x >= p.width ? p.width - 1 : x;
  return sharpness_plane_gray_at (&p, p.data + (size_t) y * p.stride, x);
}

__device__ __forceinline__ unsigned
warp_min_u (unsigned v)
{
#pragma unroll
  for (int off = 16; off > 0; off >>= 1)
    v = min (v, __shfl_xor_sync (0xffffffffu, v, off));
  return v;
}

__device__ __forceinline__ unsigned
warp_max_u (unsigned v)
{
#pragma unroll
  for (int off = 16; off > 0; off >>= 1)
    v = max (v, __shfl_xor_sync (0xffffffffu, v, off));
  return v;
}

__device__ __forceinline__ unsigned
warp_sum_u (unsigned v)
{
#pragma unroll
  for (int off = 16; off > 0; off >>= 1)
    v += __shfl_xor_sync (0xffffffffu, v, off);
  return v;
}

/* CPBD block @block of @p (row-major over @blocks_x blocks a row), for
 * one warp: its edge pixels and those not noticeably blurred, added to
 * lane 0's @edges and @sharp when it is an edge block.  Static: every
 * kernel file that includes the content launch compiles its own copy
 * (a non-inline device function with external linkage is defined once
 * per file, and the plugin's link refused the duplicates). */
static __device__ __noinline__ void
cpbd_block (const SharpnessPlane & p, int blocks_x, int block, int lane,
    unsigned long long &edges, unsigned long long &sharp)
{
  constexpr int B = SHARPNESS_CPBD_BLOCK, R = SHARPNESS_CPBD_REACH;
  const int x0 = (block % blocks_x) * B, y0 = (block / blocks_x) * B;
  unsigned lo = 255u, hi = 0u, e = 0u, s = 0u;

  for (int y = y0; y < y0 + B; y++)
    for (int x = x0 + lane; x < x0 + B; x += 32) {
      const unsigned g = cpbd_gray (p, x, y);
      lo = min (lo, g);
      hi = max (hi, g);
    }
  const unsigned jnb = sharpness_cpbd_jnb_width (warp_max_u (hi) -
      warp_min_u (lo));

  /* Edge pixels: rows 1 .. H - 2, columns 1 .. W - 2. */
  const int ya = max (y0, 1), yb = min (y0 + B, p.height - 1);
  const int xa = max (x0, 1), xb = min (x0 + B, p.width - 1);
  for (int y = ya; y < yb; y++)
    for (int x = x0 + lane; x < x0 + B; x += 32) {
      if (x < xa || x >= xb)
        continue;
      const int sobel = (cpbd_gray (p, x + 1, y - 1) +
          2 * cpbd_gray (p, x + 1, y) + cpbd_gray (p, x + 1, y + 1)) -
          (cpbd_gray (p, x - 1, y - 1) + 2 * cpbd_gray (p, x - 1, y) +
          cpbd_gray (p, x - 1, y + 1));
      /* sharpness_cpbd_classify's first test, on six reads. */
      if (sobel <= SHARPNESS_CPBD_LEVEL && -sobel <= SHARPNESS_CPBD_LEVEL)
        continue;
      uint8_t w[3][2 * R + 1];
#pragma unroll
      for (int r = 0; r < 3; r++)
#pragma unroll
        for (int i = 0; i < 2 * R + 1; i++)
          w[r][i] = cpbd_gray (p, x - R + i, y - 1 + r);
      const int c = sharpness_cpbd_classify (w[0] + R, w[1] + R, w[2] + R,
          jnb);
      e += c != 0;
      s += c == 2;
    }
  e = warp_sum_u (e);
  s = warp_sum_u (s);
  if (lane == 0 && e > SHARPNESS_CPBD_BLOCK_EDGES) {
    edges += e;
    sharp += s;
  }
}

}  /* namespace content */
}  /* namespace sharpness_cuda */

#endif /* SHARPNESS_CONTENT_CPBD_CUH */
