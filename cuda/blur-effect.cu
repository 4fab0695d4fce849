/* Blur effect (Crete-Roffet, Dolmiere, Ladret, Nicolas 2007) on the GPU:
 * per axis, exact sums of the frame's Sobel variations over its interior
 * (M1) and of what an 11-tap box blur along that axis takes away from them
 * (M2), identical to the CPU backend's (docs/reference/metrics.md).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A pixel's terms reach 6 pixels along each axis and 1 across, beyond the
 * 3x3 windows of classical.cuh: one block per 32x32 tile of the interior
 * (rows and columns 2 .. size - 2) loads the tile's gray levels with a
 * 6-pixel apron, mirrored at the frame's edges, into shared memory; each
 * thread then sums the terms of core/classical-terms.h at 4 pixels
 * of one column.  One launch a frame, finished by launch-sums.cuh.
 */
#include <climits>
#include <cstdio>

#include "blur-effect-terms.cuh"
#include "launch-sums.cuh"
#include "sharpness-cuda-private.h"

namespace sharpness_cuda
{
namespace
{

constexpr int kTile = 32;       /* interior pixels per tile side */
constexpr int kReach = kBlurEffectReach;
constexpr int kSide = kTile + 2 * kReach;
constexpr int kRowsPerWarp = kTile / kBlockWarps;

static_assert (kTile == 32, "a warp's lanes are a tile's columns");
static_assert (kRowsPerWarp * kBlockWarps == kTile, "warps cover the tile");
static_assert (4ull * kRowsPerWarp * SHARPNESS_BLUR_EFFECT_MAX < (1ull << 32),
    "a thread's sums fit in 32 bits");

__global__ void __launch_bounds__ (kBlockThreads)
blur_effect_kernel (const __grid_constant__ SharpnessPlane p, int tiles_x,
    SharpnessCudaAccum * accum, SharpnessCudaResult * result,
    unsigned long long seq)
{
  __shared__ int g[kSide][kSide];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const int x0 = 2 + (int) (blockIdx.x % tiles_x) * kTile;
  const int y0 = 2 + (int) (blockIdx.x / tiles_x) * kTile;

  /* Shared (r, c) holds g at the mirrored (x0 - 6 + c, y0 - 6 + r): the
   * mirror applies per sample index, as the box's reflect borders do.
   * Plain 8-bit luma (most frames) is read directly: the generic reader's
   * per-sample dispatch over every layout costs the load loop more than
   * the loads. */
  const bool y8 = p.samples == SHARPNESS_SAMPLES_Y8 && p.pixel_stride == 1;
  for (int r = warp; r < kSide; r += kBlockWarps) {
    const int y = sharpness_mirror (y0 - kReach + r, p.height);
    const uint8_t *row = p.data + (size_t) y * p.stride;
    if (y8) {
      for (int c = lane; c < kSide; c += 32)
        g[r][c] = __ldg (row + sharpness_mirror (x0 - kReach + c, p.width));
    } else {
      for (int c = lane; c < kSide; c += 32)
        g[r][c] = sharpness_plane_gray_at (&p, row,
            sharpness_mirror (x0 - kReach + c, p.width));
    }
  }
  __syncthreads ();

  /* M1 and M2 of axis 0 (down the rows), then of axis 1 (along them). */
  unsigned s[4] = { 0, 0, 0, 0 };
  const int c = kReach + lane;
  if (x0 + lane <= p.width - 2) {
#pragma unroll
    for (int j = 0; j < kRowsPerWarp; j++) {
      const int dy = warp + j * kBlockWarps;
      if (y0 + dy > p.height - 2)
        break;
      blur_effect_add_terms (g, kReach + dy, c, s);
    }
  }

  const unsigned long long t[4] = { s[0], s[1], s[2], s[3] };
  finish_four (t, accum, result, seq);
}

SharpnessStatus
blur_effect_sums (SharpnessCuda * cuda, void *, const SharpnessPlane * plane,
    SharpnessSums * sums)
{
  /* Under 4x4 the interior is empty: the caller's zero sums stand. */
  if (plane->width < 4 || plane->height < 4)
    return SHARPNESS_OK;

  const long long tiles_x = (plane->width - 3 + kTile - 1) / kTile;
  const long long tiles_y = (plane->height - 3 + kTile - 1) / kTile;
  if (tiles_x * tiles_y > INT_MAX)
    return SHARPNESS_ERROR_UNSUPPORTED;

  const unsigned long long seq = ++cuda->seq;
  blur_effect_kernel <<< (int) (tiles_x * tiles_y), kBlockThreads, 0,
      cuda->stream >>> (*plane, (int) tiles_x, cuda->accum, cuda->result_dev,
      seq);
  SharpnessStatus st = sharpness_cuda_check (cuda, cudaGetLastError (),
      "blur-effect kernel launch");
  if (st != SHARPNESS_OK)
    return st;
  st = sharpness_cuda_check (cuda, cudaStreamSynchronize (cuda->stream),
      "blur-effect kernel");
  if (st != SHARPNESS_OK)
    return st;

  /* Written by the launch's last block into mapped memory. */
  const SharpnessCudaResult *r = cuda->result;
  if (r->seq != seq) {
    snprintf (cuda->error, sizeof cuda->error,
        "blur-effect kernel: finished without writing its result");
    return SHARPNESS_ERROR_DEVICE;
  }
  for (int ax = 0; ax < 2; ax++) {
    sums->blur_m1[ax] = r->sums4[2 * ax];
    sums->blur_m2[ax] = r->sums4[2 * ax + 1];
  }
  return SHARPNESS_OK;
}

}  /* namespace */
}  /* namespace sharpness_cuda */

SHARPNESS_CUDA_SUMS_METRIC (BLUR_EFFECT, blur_effect, nullptr, nullptr,
    nullptr, sharpness_cuda::blur_effect_sums);
