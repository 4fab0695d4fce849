/* Gray values of one thread's chunk of a row, read in place from the plane.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A thread of a classical kernel owns kPixels consecutive pixels of a row
 * and reads them with 16-byte loads when the plane allows it; the samples
 * become gray through the __host__ __device__ functions of
 * core/sharpness-plane.h, so the CPU and the GPU see the same gray image.
 * Chunks that cross the right edge, and planes whose pixel stride or
 * alignment the fast path was not built for, read pixel by pixel through
 * sharpness_plane_gray_at() itself.
 */
#ifndef SHARPNESS_GRAY_CHUNK_CUH
#define SHARPNESS_GRAY_CHUNK_CUH

#include <cstdint>

#include "sharpness-plane.h"

namespace sharpness_cuda
{

/* The layout a kernel is compiled for: the samples and the pixel stride of
 * the fast path (1 for Y8, 2 for Y16LE and for the luma of packed 4:2:2
 * (Y8), 3 or 4 for RGB8, SHARPNESS_V210_GROUP_BYTES for v210, whose
 * groups of six pixels are its "pixels" here), or 0 for the generic path.
 * Chunks are 16 bytes (48 for 3-byte RGB, so that every chunk starts
 * 16-byte aligned; 32 for v210, two groups, so that a thread has about as
 * many pixels as with the other layouts).  The generic path's chunks are
 * 4 pixels: each of its pixels inlines the reader of every layout, and the
 * rare planes it serves do not pay for the compile time 16 would cost.  A
 * band is kBandRows rows: taller bands convert fewer halo rows twice but
 * hold more rows in registers, so only the small chunks of 4-byte RGB,
 * whose conversion costs most, get 8. */
template <SharpnessSamples S, int PS>
struct Layout
{
  static constexpr SharpnessSamples kSamples = S;
  static constexpr int kPixelStride = PS;
  static constexpr bool kFast = PS != 0;
  static constexpr bool kV210 = S == SHARPNESS_SAMPLES_V210;
  static constexpr int kPixels = kV210 ? 2 * SHARPNESS_V210_GROUP_PIXELS :
      PS == 0 ? 4 : (PS == 1 || PS == 3) ? 16 : 16 / PS;
  static constexpr int kBytes = kV210 ? 2 * SHARPNESS_V210_GROUP_BYTES :
      PS * kPixels;
  static constexpr int kVectors = kBytes / 16;
  static constexpr int kWords = 4 * kVectors;
  static constexpr int kBandRows = PS == 4 ? 8 : 4;

  /* Byte offset in its row of the chunk starting at pixel @x0. */
  __device__ static size_t chunk_offset (int x0)
  {
    if constexpr (kV210)
      return (size_t) (x0 / SHARPNESS_V210_GROUP_PIXELS) *
          SHARPNESS_V210_GROUP_BYTES;
    else
      return (size_t) x0 * PS;
  }
};

/* Bit positions inside little-endian words, read once per thread: of R,
 * G and B inside an RGB8 pixel, and of the luma byte inside a 2-byte
 * packed 4:2:2 pixel (8 for UYVY, whose plane starts at the odd byte of a
 * 16-byte aligned row, 0 for YUY2). */
struct SampleShifts
{
  unsigned r, g, b, luma;
};

__device__ __forceinline__ SampleShifts
sample_shifts (const SharpnessPlane & p)
{
  return SampleShifts { 8u * p.offset_r, 8u * p.offset_g, 8u * p.offset_b,
      8u * (unsigned) ((uintptr_t) p.data & 1) };
}

/* Gray value of pixel @i of a chunk held as 32-bit words (all indices are
 * compile-time constants once the callers' loops are unrolled). */
template <class L>
__device__ __forceinline__ int
chunk_gray (const uint32_t (&w)[L::kWords], int i, const SharpnessPlane & p,
    SampleShifts sh)
{
  if constexpr (L::kSamples == SHARPNESS_SAMPLES_Y8 && L::kPixelStride == 2) {
    /* Pixel i is bytes 2i (YUY2) or 2i + 1 (UYVY) of the aligned chunk. */
    return (w[i >> 1] >> (16 * (i & 1) + sh.luma)) & 0xffu;
  } else if constexpr (L::kSamples == SHARPNESS_SAMPLES_Y8) {
    return (w[i >> 2] >> (8 * (i & 3))) & 0xffu;
  } else if constexpr (L::kV210) {
    const int k = i % SHARPNESS_V210_GROUP_PIXELS;
    return sharpness_gray_from_v210 (w[4 * (i / SHARPNESS_V210_GROUP_PIXELS) +
            sharpness_v210_luma_word (k)], sharpness_v210_luma_shift (k));
  } else if constexpr (L::kSamples == SHARPNESS_SAMPLES_Y16LE) {
    return sharpness_gray_from_y16 ((w[i >> 1] >> (16 * (i & 1))) & 0xffffu,
        p.depth, p.shift);
  } else {
    uint32_t px;
    if constexpr (L::kPixelStride == 4) {
      px = w[i];
    } else {
      /* Pixel i starts at byte 3i; up to two words hold its three bytes. */
      const int k = (3 * i) >> 2, bit = 8 * ((3 * i) & 3);
      const int k1 = k + 1 < L::kWords ? k + 1 : k;
      px = bit <= 8 ? w[k] >> bit : __funnelshift_r (w[k], w[k1], bit);
    }
    return sharpness_gray_from_rgb ((px >> sh.r) & 0xffu, (px >> sh.g) & 0xffu,
        (px >> sh.b) & 0xffu);
  }
}

/* The 16-byte vectors of the chunk at pixel @x0 of @row (fast path only:
 * the chunk lies inside the row).  The rows of packed 4:2:2 luma start at
 * byte 0 or 1 of a 16-byte aligned row: the chunk is the aligned vector
 * holding its eight luma bytes, chroma between them. */
template <class L>
__device__ __forceinline__ void
load_chunk_words (const uint8_t * row, int x0, uint32_t (&w)[L::kWords])
{
  uintptr_t at = (uintptr_t) (row + L::chunk_offset (x0));
  if constexpr (L::kSamples == SHARPNESS_SAMPLES_Y8 && L::kPixelStride == 2)
    at &= ~(uintptr_t) 15;
  const uint4 *src = reinterpret_cast < const uint4 * >(at);
#pragma unroll
  for (int v = 0; v < L::kVectors; v++) {
    const uint4 q = __ldg (src + v);
    w[4 * v] = q.x;
    w[4 * v + 1] = q.y;
    w[4 * v + 2] = q.z;
    w[4 * v + 3] = q.w;
  }
}

/* Gray value of the single pixel @x of @row (fast path only). */
template <class L>
__device__ __forceinline__ int
pixel_gray (const SharpnessPlane & p, const uint8_t * row, int x)
{
  if constexpr (L::kV210)
    return sharpness_plane_gray_at (&p, row, x);

  const uint8_t *px = row + (size_t) x * L::kPixelStride;
  if constexpr (L::kSamples == SHARPNESS_SAMPLES_Y8) {
    return __ldg (px);
  } else if constexpr (L::kSamples == SHARPNESS_SAMPLES_Y16LE) {
    return sharpness_gray_from_y16 (__ldg (reinterpret_cast <
            const uint16_t * >(px)), p.depth, p.shift);
  } else {
    return sharpness_gray_from_rgb (__ldg (px + p.offset_r),
        __ldg (px + p.offset_g), __ldg (px + p.offset_b));
  }
}

/* Gray values of the kPixels pixels of row @row starting at pixel @x0 into
 * g[1..kPixels]; pixels at or beyond @width read as 0. */
template <class L>
__device__ __forceinline__ void
load_chunk (const SharpnessPlane & p, const uint8_t * row, int x0,
    SampleShifts sh, int (&g)[L::kPixels + 2])
{
  constexpr int N = L::kPixels;

  if constexpr (L::kFast) {
    if (x0 + N <= p.width) {
      uint32_t w[L::kWords];
      load_chunk_words < L > (row, x0, w);
#pragma unroll
      for (int i = 0; i < N; i++)
        g[1 + i] = chunk_gray < L > (w, i, p, sh);
      return;
    }
  }
#pragma unroll
  for (int i = 0; i < N; i++)
    g[1 + i] = x0 + i < p.width ? sharpness_plane_gray_at (&p, row, x0 + i) : 0;
}

}  /* namespace sharpness_cuda */

#endif /* SHARPNESS_GRAY_CHUNK_CUH */
