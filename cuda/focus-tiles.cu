/* The focus tiles (analysis/sharpness-focus.h) on the GPU: blur-effect's
 * four sums over each complete 64 x 64 tile of a frame's interior,
 * bit-identical to sharpness_focus_tiles on the CPU.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * One block per tile loads the tile's gray levels with blur-effect's
 * 6-pixel apron, mirrored at the frame's edges as blur-effect.cu loads
 * them, into shared memory; each thread sums the terms of
 * core/classical-terms.h at 16 of its pixels, and the block's totals go
 * straight to the tile's slot (one block per tile: no atomics, any order).
 * The blur rule asks only for the frames its absolute test flags, so the
 * launch, its copy back and its wait come only with those.
 */
#include <cstdio>
#include <cstdlib>

#include "blur-effect-terms.cuh"
#include "device-alloc.cuh"
#include "sharpness-cuda-private.h"
#include "sharpness-focus.h"

namespace sharpness_cuda
{
namespace
{

constexpr int kTile = SHARPNESS_FOCUS_TILE;
constexpr int kReach = kBlurEffectReach;
constexpr int kSide = kTile + 2 * kReach;
constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;

static_assert (kTile * kTile / kThreads * 1ull * SHARPNESS_BLUR_EFFECT_MAX <
    (1ull << 32), "a thread's sums fit in 32 bits");

__global__ void __launch_bounds__ (kThreads)
focus_tiles_kernel (const __grid_constant__ SharpnessPlane p, int tiles_x,
    SharpnessFocusTile * out)
{
  __shared__ uint8_t g[kSide][kSide];
  __shared__ unsigned long long part[4][kWarps];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int x0 = SHARPNESS_FOCUS_ORIGIN + (int) (blockIdx.x % tiles_x) * kTile;
  const int y0 = SHARPNESS_FOCUS_ORIGIN + (int) (blockIdx.x / tiles_x) * kTile;

  /* Shared (r, c) holds g at the mirrored (x0 - 6 + c, y0 - 6 + r). */
  for (int i = threadIdx.x; i < kSide * kSide; i += kThreads) {
    const int r = i / kSide, c = i % kSide;
    const int y = sharpness_mirror (y0 - kReach + r, p.height);
    g[r][c] = sharpness_plane_gray_at (&p, p.data + (size_t) y * p.stride,
        sharpness_mirror (x0 - kReach + c, p.width));
  }
  __syncthreads ();

  /* M1 and M2 of axis 0 (down the rows), then of axis 1 (along them); a
   * complete tile lies in the interior, every pixel of it counts. */
  unsigned s[4] = { 0, 0, 0, 0 };
  for (int i = threadIdx.x; i < kTile * kTile; i += kThreads)
    blur_effect_add_terms (g, kReach + i / kTile, kReach + i % kTile, s);

#pragma unroll
  for (int k = 0; k < 4; k++) {
    unsigned long long v = s[k];
#pragma unroll
    for (int off = 16; off > 0; off >>= 1)
      v += __shfl_down_sync (0xffffffffu, v, off);
    if (lane == 0)
      part[k][warp] = v;
  }
  __syncthreads ();
  if (threadIdx.x < 4) {
    unsigned long long total = 0;
    for (int w = 0; w < kWarps; w++)
      total += part[threadIdx.x][w];
    out[blockIdx.x].sum[threadIdx.x] = total;
  }
}

}  /* namespace */
}  /* namespace sharpness_cuda */

/* The tiles' device slots and their pinned host copy, grown to the
 * largest grid seen. */
struct SharpnessCudaFocus
{
  void *dev;
  SharpnessFocusTile *host;
  size_t capacity;
};

void
sharpness_cuda_focus_clear (SharpnessCuda * cuda)
{
  SharpnessCudaFocus *f = cuda->focus;

  if (!f)
    return;
  sharpness_cuda::device_free_all ({f->dev}, f->host);
  free (f);
  cuda->focus = NULL;
}

/* Room for @n tiles, kept between frames.  Every call before this one
 * waited for its launch: the old slots are free. */
static SharpnessStatus
focus_reserve (SharpnessCuda * cuda, size_t n)
{
  SharpnessCudaFocus *f = cuda->focus;

  if (f && f->capacity >= n)
    return SHARPNESS_OK;
  if (!f) {
    f = (SharpnessCudaFocus *) calloc (1, sizeof *f);
    if (!f)
      return SHARPNESS_ERROR_NO_MEMORY;
    cuda->focus = f;
  }
  sharpness_cuda::device_free_all ({f->dev}, f->host);
  f->dev = NULL;
  f->host = NULL;
  f->capacity = 0;
  SharpnessStatus st = sharpness_cuda::device_alloc (cuda, &f->dev,
      n * sizeof (SharpnessFocusTile), "focus tiles");
  if (st != SHARPNESS_OK)
    return st;
  f->host = (SharpnessFocusTile *) sharpness_cuda_host_alloc (n *
      sizeof (SharpnessFocusTile));
  if (!f->host)
    return SHARPNESS_ERROR_NO_MEMORY;
  f->capacity = n;
  return SHARPNESS_OK;
}

SharpnessStatus
sharpness_cuda_focus_tiles (SharpnessCuda * cuda, const SharpnessPlane * plane,
    const SharpnessFocusTile ** tiles, int *n)
{
  int tiles_x, tiles_y;

  *tiles = NULL;
  *n = 0;
  sharpness_focus_grid (plane->width, plane->height, &tiles_x, &tiles_y);
  if (!tiles_x)
    return SHARPNESS_OK;
  const size_t count = (size_t) tiles_x * tiles_y;
  SharpnessStatus st = focus_reserve (cuda, count);
  if (st != SHARPNESS_OK)
    return st;

  SharpnessCudaFocus *f = cuda->focus;
  sharpness_cuda::focus_tiles_kernel <<< (unsigned) count,
      sharpness_cuda::kThreads, 0, cuda->stream >>> (*plane, tiles_x,
      (SharpnessFocusTile *) f->dev);
  st = sharpness_cuda_check (cuda, cudaGetLastError (),
      "focus tiles kernel launch");
  if (st == SHARPNESS_OK)
    st = sharpness_cuda_check (cuda, cudaMemcpyAsync (f->host, f->dev,
            count * sizeof *f->host, cudaMemcpyDeviceToHost, cuda->stream),
        "focus tiles: copy back");
  if (st == SHARPNESS_OK)
    st = sharpness_cuda_check (cuda, cudaStreamSynchronize (cuda->stream),
        "focus tiles kernel");
  if (st != SHARPNESS_OK)
    return st;
  *tiles = f->host;
  *n = (int) count;
  return SHARPNESS_OK;
}
