/* Content measurements on the GPU: black samples, edge pixels and the
 * freeze SAD of a frame in one launch, bit-identical to the CPU scorer
 * (sharpness-black.h, sharpness-structure.h, sharpness-freeze.h).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * One kernel, two kinds of work item of one warp each:
 *  - luma items: 32 lanes across a row times a band of kRows rows of the
 *    frame's first plane as the metrics read it; each lane keeps its rows
 *    in registers, so every sample is loaded once for the black count and
 *    the edges (the right neighbour comes from the next lane).  A Y8 plane
 *    with 16-byte aligned rows goes four samples at a time (SIMD byte
 *    compares, 16-byte loads); when it is also plane 0 of the freeze
 *    layout, the same loads feed that plane's SAD and its copy into the
 *    candidate buffer.  Anything else reads pixel by pixel through the
 *    shared rules (sharpness_plane_gray_at, sharpness_black_sample_at).
 *  - SAD items: 32 lanes of 16 bytes times kRows rows of one freeze plane
 *    (all of them, or all but a fused plane 0): the frame's bytes against
 *    the reference's, and the frame into the candidate.
 * Counts are integers, so the order in which blocks add them does not
 * matter; the last block (fence and ticket, as launch-sums.cuh) moves the
 * totals into mapped pinned memory with the launch's sequence number, and
 * the host reads them there after the metric's synchronisation.
 *
 * The reference and the candidate are the two halves of one device
 * allocation, each plane packed with rows padded to 16 bytes; keeping the
 * candidate swaps the halves.  A host frame is uploaded straight into the
 * candidate half (sharpness_cuda_content_stage_host): the kernel then only
 * reads it.
 */
#include <climits>
#include <cstdio>
#include <cstring>

#include "sharpness-cuda-private.h"
#include "sharpness-black-sample.h"
#include "sharpness-structure.h"

namespace sharpness_cuda
{
namespace content
{

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr unsigned kFull = 0xffffffffu;
/* Rows of a work item: the row below a luma band is loaded twice (its
 * edges need it), a quarter more luma loads, mostly from L2.  Eight rows
 * load fewer twice but hold twice the registers: 184 per thread, a block
 * filling a multiprocessor's register file, none of the metric's beside
 * it; four fit 128 (launch bounds below), half of it. */
constexpr int kRows = 4;
/* Bytes of a lane per row: one 16-byte load. */
constexpr int kBytes = 16;
constexpr int kSpan = 32 * kBytes;
/* Generic luma items: each lane takes kGenericPixels pixels 32 apart, so
 * that a warp's loads of one pixel position are consecutive. */
constexpr int kGenericPixels = 8;
constexpr int kGenericSpan = 32 * kGenericPixels;

static_assert (kRows * kBytes * 255ull < (1ull << 32) &&
    kRows * (kBytes / 2) * 65535ull < (1ull << 32),
    "an item's SAD fits in 32 bits");

/* Device accumulators: zero between launches, the last block reads them
 * out and resets them. */
struct Accum
{
  unsigned long long black, edges, sad;
  unsigned int blocks_done;
};

/* What the last block writes into mapped memory; @seq last. */
struct Result
{
  unsigned long long seq, black, edges, sad;
};

/* One plane of the freeze SAD. */
struct SadPlane
{
  const uint8_t *frame;
  size_t frame_stride;
  const uint8_t *ref;           /* NULL: no reference */
  uint8_t *cand;                /* NULL: the frame is the candidate already */
  size_t pitch;                 /* of ref and cand */
  int row_bytes, height;
  int segments;                 /* warps across a row */
  int item0;                    /* its first item in the launch */
  int vec;                      /* the frame's rows are 16-byte aligned */
};

enum LumaMode
{
  kLumaNone,
  kLumaFast,                    /* Y8, pixel stride 1, 16-byte rows */
  kLumaFast16,                  /* Y16LE, pixel stride 2, 16-byte rows */
  kLumaGeneric
};

struct Launch
{
  SharpnessPlane luma;
  int luma_mode, luma_segments, luma_items;
  int black, structure;
  unsigned threshold, level;
  unsigned threshold4, level4;  /* fast path: the byte repeated */
  /* Fast luma items also compare and copy plane 0 (fused: luma is it). */
  int fused;
  SadPlane fuse;
  SadPlane sad[4];
  int n_sad, bytes_per_sample;
  int items;
  Accum *accum;
  Result *result;
  unsigned long long seq;
};

__device__ __forceinline__ uint4
zero4 ()
{
  return make_uint4 (0u, 0u, 0u, 0u);
}

/* Bytes [@x0, @x0 + 16) of @row, zeros from byte @n on.  Whole chunks of
 * aligned rows in one load; the chunk across the end of a row byte by
 * byte, so that nothing past the row's last byte is read. */
__device__ __forceinline__ uint4
load16 (const uint8_t * row, int x0, int n, bool vec)
{
  if (vec && x0 + kBytes <= n)
    return __ldg (reinterpret_cast < const uint4 * >(row + x0));
  unsigned w[4] = { 0u, 0u, 0u, 0u };
#pragma unroll
  for (int j = 0; j < kBytes; j++)
    if (x0 + j < n)
      w[j >> 2] |= (unsigned) row[x0 + j] << (8 * (j & 3));
  return make_uint4 (w[0], w[1], w[2], w[3]);
}

/* The first @n - @x0 bytes of @v (at most 16) to @row + @x0. */
__device__ __forceinline__ void
store16 (uint8_t * row, int x0, int n, uint4 v)
{
  if (x0 + kBytes <= n) {
    *reinterpret_cast < uint4 * >(row + x0) = v;
    return;
  }
  const unsigned w[4] = { v.x, v.y, v.z, v.w };
#pragma unroll
  for (int j = 0; j < kBytes; j++)
    if (x0 + j < n)
      row[x0 + j] = (uint8_t) (w[j >> 2] >> (8 * (j & 3)));
}

/* 0xff in the bytes of word @k of a chunk whose index is below @n. */
__device__ __forceinline__ unsigned
byte_mask (int n, int k)
{
  const int m = n - 4 * k;
  return m >= 4 ? kFull : m <= 0 ? 0u : (1u << (8 * m)) - 1u;
}

__device__ __forceinline__ unsigned
sad_bytes (uint4 a, uint4 b)
{
  return __vsadu4 (a.x, b.x) + __vsadu4 (a.y, b.y) + __vsadu4 (a.z, b.z) +
      __vsadu4 (a.w, b.w);
}

__device__ __forceinline__ unsigned
sad_word16 (unsigned a, unsigned b)
{
  const unsigned d = __vabsdiffu2 (a, b);
  return (d & 0xffffu) + (d >> 16);
}

/* Little-endian 16-bit samples: two per word. */
__device__ __forceinline__ unsigned
sad_words (uint4 a, uint4 b)
{
  return sad_word16 (a.x, b.x) + sad_word16 (a.y, b.y) +
      sad_word16 (a.z, b.z) + sad_word16 (a.w, b.w);
}

/* Row @y's chunk at @x0 of a plane of @n bytes a row: a whole item
 * (every lane's chunk inside the row, every row inside the plane) loads
 * unconditionally, with nothing between the loads that could make the
 * compiler wait for one before issuing the next; the item across the
 * right or bottom edge goes through load16's checks. */
template <bool kWhole>
__device__ __forceinline__ uint4
load_row (const uint8_t * base, size_t stride, int y, int x0, int n,
    bool need)
{
  if constexpr (kWhole)
    return __ldg (reinterpret_cast < const uint4 * >(base + (size_t) y *
            stride + x0));
  else
    return need ? load16 (base + (size_t) y * stride, x0, n, true) : zero4 ();
}

/* Black samples among pixels [0, @valid) of a chunk of 16-bit samples,
 * and their gray values (sharpness_gray_from_y16, the metrics' rule). */
__device__ __forceinline__ void
y16_row (const uint4 & v, const SharpnessPlane & p, unsigned threshold,
    int valid, bool count, unsigned &nb, int (&g)[8])
{
  const unsigned w[4] = { v.x, v.y, v.z, v.w };
#pragma unroll
  for (int i = 0; i < 8; i++) {
    const unsigned raw = (w[i >> 1] >> (16 * (i & 1))) & 0xffffu;
    if (count && i < valid)
      nb += sharpness_black_sample_is_black (raw >> p.shift, threshold);
    g[i] = sharpness_gray_from_y16 (raw, p.depth, p.shift);
  }
}

/* A luma item of a plane of 8-bit (@kBps 1) or 16-bit (2) samples with
 * 16-byte aligned rows: each lane's 16 bytes of kRows rows, and the row
 * below for the edges of the last one.  8-bit samples go four at a time
 * (SIMD byte compares): word k of a row holds pixels 4k .. 4k + 3, their
 * right neighbours are the same word shifted by one byte, the first byte
 * of the next word filling in (of the next lane for word 3).  When the
 * plane is also plane 0 of the freeze layout (fused), the same registers
 * feed its SAD and its copy into the candidate. */
template <int kBps, bool kWhole>
__device__ __forceinline__ void
luma_fast (const Launch & l, int item, int lane, unsigned long long &black,
    unsigned long long &edges, unsigned long long &sad)
{
  constexpr int N = kBytes / kBps;      /* pixels per chunk */
  const SharpnessPlane & p = l.luma;
  const int seg = item % l.luma_segments, band = item / l.luma_segments;
  const int x0 = (seg * 32 + lane) * kBytes, y0 = band * kRows;
  const int px0 = x0 / kBps;            /* the chunk's first pixel */
  const int W = p.width, H = p.height, n = W * kBps;
  const int rows = kWhole ? kRows : min (kRows, H - y0);
  /* The row below the band, for the edges of its last row (a whole item
   * reads the last row again where there is none: harmless). */
  const bool below = l.structure && y0 + kRows < H;
  const int y_below = min (y0 + kRows, H - 1);
  const bool ref = l.fused && l.fuse.ref;
  uint4 g[kRows + 1], f[kRows];

  /* Every load first, so that the item has them all in flight. */
#pragma unroll
  for (int r = 0; r < kRows; r++)
    g[r] = load_row < kWhole > (p.data, p.stride, y0 + r, x0, n, r < rows);
  g[kRows] = load_row < kWhole > (p.data, p.stride, y_below, x0, n,
      below);
  if (ref) {
#pragma unroll
    for (int r = 0; r < kRows; r++)
      f[r] = load_row < kWhole > (l.fuse.ref, l.fuse.pitch, y0 + r, x0, n,
          r < rows);
  }

  /* Pixels [0, valid) of the chunk are in the frame, [0, evalid) have a
   * right neighbour. */
  const int valid = max (0, min (N, W - px0));
  const int evalid = max (0, min (N, W - 1 - px0));
  unsigned nb = 0, ne = 0, ns = 0;
  int gray[8], down[8];

  if constexpr (kBps == 2) {
    unsigned unused = 0;
    y16_row (g[0], p, 0, 0, false, unused, gray);
  }
#pragma unroll
  for (int r = 0; r < kRows; r++) {
    /* Warp-uniform: every lane of the item shares its rows. */
    if (!kWhole && r >= rows)
      break;
    const bool has_down = r + 1 < rows || (r == kRows - 1 && below);
    if constexpr (kBps == 1) {
      const unsigned a[4] = { g[r].x, g[r].y, g[r].z, g[r].w };
      if (l.black) {
#pragma unroll
        for (int k = 0; k < 4; k++)
          nb += __popc (__vcmpleu4 (a[k], l.threshold4) &
              (kWhole ? kFull : byte_mask (valid, k))) >> 3;
      }
      if (l.structure) {
        unsigned next = __shfl_down_sync (kFull, a[0], 1) & 0xffu;
        if (lane == 31)
          next = px0 + N < W ? p.data[(size_t) (y0 + r) * p.stride + px0 +
              N] : 0u;
        if (has_down) {
          const unsigned b[4] = { g[r + 1].x, g[r + 1].y, g[r + 1].z,
            g[r + 1].w
          };
          const unsigned right[4] = { __funnelshift_r (a[0], a[1], 8),
            __funnelshift_r (a[1], a[2], 8), __funnelshift_r (a[2], a[3], 8),
            __funnelshift_r (a[3], next, 8)
          };
#pragma unroll
          for (int k = 0; k < 4; k++) {
            const unsigned m = __vmaxu4 (__vabsdiffu4 (a[k], right[k]),
                __vabsdiffu4 (a[k], b[k]));
            ne += __popc (__vcmpgeu4 (m, l.level4) & byte_mask (evalid,
                    k)) >> 3;
          }
        }
      }
    } else {
      /* 16-bit samples: raw values for black, gray for the edges. */
      if (l.black) {
        const uint4 v = g[r];
        const unsigned w[4] = { v.x, v.y, v.z, v.w };
#pragma unroll
        for (int i = 0; i < 8; i++)
          if (kWhole || i < valid)
            nb += sharpness_black_sample_is_black (((w[i >> 1] >>
                        (16 * (i & 1))) & 0xffffu) >> p.shift, l.threshold);
      }
      if (l.structure) {
        int next = __shfl_down_sync (kFull, gray[0], 1);
        if (lane == 31)
          next = px0 + N < W ? sharpness_plane_gray_at (&p,
              p.data + (size_t) (y0 + r) * p.stride, px0 + N) : 0;
        if (has_down) {
          unsigned unused = 0;
          y16_row (g[r + 1], p, 0, 0, false, unused, down);
#pragma unroll
          for (int i = 0; i < 8; i++)
            if (i < evalid)
              ne += sharpness_structure_is_edge (gray[i], i + 1 < 8 ?
                  gray[i + 1 < 8 ? i + 1 : i] : next, down[i], l.level);
#pragma unroll
          for (int i = 0; i < 8; i++)
            gray[i] = down[i];
        }
      }
    }
    if (l.fused) {
      if (ref)
        ns += kBps == 1 ? sad_bytes (g[r], f[r]) : sad_words (g[r], f[r]);
      if (l.fuse.cand && (kWhole || x0 < n)) {
        uint8_t *row = l.fuse.cand + (size_t) (y0 + r) * l.fuse.pitch;
        if constexpr (kWhole)
          *reinterpret_cast < uint4 * >(row + x0) = g[r];
        else
          store16 (row, x0, n, g[r]);
      }
    }
  }
  black += nb;
  edges += ne;
  sad += ns;
}

/* A fast luma item: whole, or across the frame's right or bottom edge
 * (warp-uniform). */
template <int kBps>
__device__ __forceinline__ void
luma_fast_item (const Launch & l, int item, int lane,
    unsigned long long &black, unsigned long long &edges,
    unsigned long long &sad)
{
  const int seg = item % l.luma_segments, band = item / l.luma_segments;
  const bool whole = (seg + 1) * kSpan <= l.luma.width * kBps &&
      (band + 1) * kRows <= l.luma.height;
  if (whole)
    luma_fast < kBps, true > (l, item, lane, black, edges, sad);
  else
    luma_fast < kBps, false > (l, item, lane, black, edges, sad);
}

/* Gray values of the lane's pixels of row @y (0 past the right edge). */
__device__ __forceinline__ void
gray_row (const SharpnessPlane & p, int y, int xb,
    int (&g)[kGenericPixels])
{
  const uint8_t *row = p.data + (size_t) y * p.stride;
#pragma unroll
  for (int i = 0; i < kGenericPixels; i++) {
    const int x = xb + 32 * i;
    g[i] = x < p.width ? sharpness_plane_gray_at (&p, row, x) : 0;
  }
}

/* A luma item of any other plane, pixel by pixel through the shared
 * rules.  Black reads native-depth luma (Y8, Y16LE, v210: what FFmpeg's
 * blackdetect sees) and the gray image of packed RGB, as the CPU scorer
 * does. */
__device__ __forceinline__ void
luma_generic (const Launch & l, int item, int lane,
    unsigned long long &black, unsigned long long &edges)
{
  const SharpnessPlane & p = l.luma;
  const int seg = item % l.luma_segments, band = item / l.luma_segments;
  const int xb = seg * kGenericSpan + lane, y0 = band * kRows;
  const int W = p.width, H = p.height;
  const int rows = min (kRows, H - y0);
  const bool raw = p.samples != SHARPNESS_SAMPLES_RGB8;
  /* Gray values: for the edges, and for black on the other samples. */
  const bool gray = l.structure || !raw;
  int cur[kGenericPixels], nxt[kGenericPixels];
  unsigned nb = 0, ne = 0;

  if (gray)
    gray_row (p, y0, xb, cur);
  for (int r = 0; r < rows; r++) {
    const int y = y0 + r;
    const uint8_t *row = p.data + (size_t) y * p.stride;
    /* Warp-uniform. */
    const bool down = l.structure && y + 1 < H;

    /* Without the edges no row below was read into cur. */
    if (r > 0 && gray && !l.structure)
      gray_row (p, y, xb, cur);
    if (down)
      gray_row (p, y + 1, xb, nxt);
    if (l.black) {
#pragma unroll
      for (int i = 0; i < kGenericPixels; i++) {
        const int x = xb + 32 * i;
        if (x < W)
          nb += sharpness_black_sample_is_black (raw ?
              sharpness_black_sample_at (&p, row, x) : (unsigned) cur[i],
              l.threshold);
      }
    }
    if (down) {
#pragma unroll
      for (int i = 0; i < kGenericPixels; i++) {
        const int x = xb + 32 * i;
        /* Pixel x + 1 is the next lane's; lane 31's is lane 0's next
         * pixel, or, for the last one, the next item's. */
        int right = __shfl_down_sync (kFull, cur[i], 1);
        const int wrap = __shfl_sync (kFull,
            cur[i + 1 < kGenericPixels ? i + 1 : i], 0);
        if (lane == 31)
          right = i + 1 < kGenericPixels ? wrap : x + 1 < W ?
              sharpness_plane_gray_at (&p, row, x + 1) : 0;
        if (x < W - 1)
          ne += sharpness_structure_is_edge (cur[i], right, nxt[i], l.level);
      }
#pragma unroll
      for (int i = 0; i < kGenericPixels; i++)
        cur[i] = nxt[i];
    }
  }
  black += nb;
  edges += ne;
}

/* A SAD item: the frame's bytes of one plane against the reference's, and
 * the frame into the candidate. */
template <bool kWhole>
__device__ __forceinline__ void
sad_rows (const SadPlane & s, int bytes_per_sample, int x0, int y0,
    int rows, unsigned long long &sad)
{
  const int n = s.row_bytes;
  uint4 f[kRows], g[kRows];

#pragma unroll
  for (int r = 0; r < kRows; r++) {
    if constexpr (kWhole)
      f[r] = __ldg (reinterpret_cast < const uint4 * >(s.frame +
              (size_t) (y0 + r) * s.frame_stride + x0));
    else
      f[r] = r < rows ? load16 (s.frame + (size_t) (y0 + r) *
          s.frame_stride, x0, n, s.vec) : zero4 ();
  }
  if (s.ref) {
#pragma unroll
    for (int r = 0; r < kRows; r++)
      g[r] = load_row < kWhole > (s.ref, s.pitch, y0 + r, x0, n, r < rows);
  }
  unsigned acc = 0;
#pragma unroll
  for (int r = 0; r < kRows; r++) {
    if (!kWhole && r >= rows)
      break;
    if (s.ref)
      acc += bytes_per_sample == 1 ? sad_bytes (f[r], g[r]) :
          sad_words (f[r], g[r]);
    if (s.cand) {
      uint8_t *row = s.cand + (size_t) (y0 + r) * s.pitch;
      if constexpr (kWhole)
        *reinterpret_cast < uint4 * >(row + x0) = f[r];
      else
        store16 (row, x0, n, f[r]);
    }
  }
  sad += acc;
}

__device__ __forceinline__ void
sad_item (const SadPlane & s, int bytes_per_sample, int local, int lane,
    unsigned long long &sad)
{
  const int seg = local % s.segments, band = local / s.segments;
  const int x0 = (seg * 32 + lane) * kBytes, y0 = band * kRows;
  const int rows = min (kRows, s.height - y0);

  /* Warp-uniform: aligned rows, every lane's chunk and every row inside. */
  if (s.vec && (seg + 1) * kSpan <= s.row_bytes && rows == kRows)
    sad_rows < true > (s, bytes_per_sample, x0, y0, rows, sad);
  else if (x0 < s.row_bytes)
    sad_rows < false > (s, bytes_per_sample, x0, y0, rows, sad);
}

__device__ __forceinline__ unsigned long long
warp_sum (unsigned long long v)
{
#pragma unroll
  for (int off = 16; off > 0; off >>= 1)
    v += __shfl_down_sync (kFull, v, off);
  return v;
}

/* At most 128 registers (two blocks would fit a multiprocessor): the
 * launch takes one per multiprocessor (sharpness_cuda_content_begin),
 * leaving the other half to the metric's kernel beside it. */
__global__ void __launch_bounds__ (kThreads, 2)
content_kernel (const __grid_constant__ Launch l)
{
  __shared__ unsigned long long part[3][kWarps];
  __shared__ bool last;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  unsigned long long black = 0, edges = 0, sad = 0;

  for (int item = blockIdx.x * kWarps + warp; item < l.items;
      item += gridDim.x * kWarps) {
    if (item < l.luma_items) {
      if (l.luma_mode == kLumaFast)
        luma_fast_item < 1 > (l, item, lane, black, edges, sad);
      else if (l.luma_mode == kLumaFast16)
        luma_fast_item < 2 > (l, item, lane, black, edges, sad);
      else
        luma_generic (l, item, lane, black, edges);
    } else {
      int p = 0;
      while (p + 1 < l.n_sad && item >= l.sad[p + 1].item0)
        p++;
      sad_item (l.sad[p], l.bytes_per_sample, item - l.sad[p].item0, lane,
          sad);
    }
  }

  black = warp_sum (black);
  edges = warp_sum (edges);
  sad = warp_sum (sad);
  if (lane == 0) {
    part[0][warp] = black;
    part[1][warp] = edges;
    part[2][warp] = sad;
  }
  /* This block's candidate stores and sums are visible device-wide before
   * its ticket: once the last block has written the sequence number, the
   * launch has read and written everything it will. */
  __threadfence ();
  __syncthreads ();
  if (threadIdx.x == 0) {
    unsigned long long t[3] = { 0, 0, 0 };
    for (int w = 0; w < kWarps; w++)
      for (int k = 0; k < 3; k++)
        t[k] += part[k][w];
    if (t[0])
      atomicAdd (&l.accum->black, t[0]);
    if (t[1])
      atomicAdd (&l.accum->edges, t[1]);
    if (t[2])
      atomicAdd (&l.accum->sad, t[2]);
    __threadfence ();
    last = atomicAdd (&l.accum->blocks_done, 1u) == gridDim.x - 1;
  }
  __syncthreads ();
  if (!last || threadIdx.x != 0)
    return;

  /* Every other block's additions are in: read out, reset, publish. */
  __threadfence ();
  const unsigned long long b = atomicExch (&l.accum->black, 0ull);
  const unsigned long long e = atomicExch (&l.accum->edges, 0ull);
  const unsigned long long s = atomicExch (&l.accum->sad, 0ull);
  l.accum->blocks_done = 0;
  l.result->black = b;
  l.result->edges = e;
  l.result->sad = s;
  /* The host may read the sums as soon as it sees the sequence number. */
  __threadfence_system ();
  *(volatile unsigned long long *) &l.result->seq = l.seq;
}

}  /* namespace content */
}  /* namespace sharpness_cuda */

using namespace sharpness_cuda::content;

/* The state behind the content entry points, made on first use. */
struct SharpnessCudaContent
{
  cudaStream_t side;            /* SHARPNESS_CONTENT_BESIDE launches */
  cudaEvent_t fork;             /* the backend's stream, before one */
  Accum *accum;                 /* device memory */
  Result *result, *result_dev;  /* mapped pinned memory */
  unsigned long long seq;
  int blocks_per_sm;

  /* The reference and the candidate: halves of @frames. */
  uint8_t *frames;
  size_t frames_size, half;
  int n_planes, width[4], height[4], bytes_per_sample;
  size_t offset[4], pitch[4];
  int ref_index;                /* the reference's half */
  int have_reference, have_candidate;

  /* Between _begin and _end. */
  int pending, launched, freeze, has_sad;
  int staged;                   /* a host frame was staged for the next */
  int pending_staged;           /* ... and for this one */
  cudaStream_t stream;
  unsigned long long pending_seq;
  uint64_t pixels, interior;
  int black, structure;
};

void
sharpness_cuda_content_clear (SharpnessCuda * cuda)
{
  SharpnessCudaContent *c = cuda->content;

  if (!c)
    return;
  /* Teardown: nothing to report to. */
  if (c->side) {
    (void) cudaStreamSynchronize (c->side);
    (void) cudaStreamDestroy (c->side);
  }
  if (c->fork)
    (void) cudaEventDestroy (c->fork);
  if (c->accum)
    (void) cudaFree (c->accum);
  if (c->result)
    (void) cudaFreeHost (c->result);
  if (c->frames)
    (void) cudaFree (c->frames);
  (void) cudaGetLastError ();
  free (c);
  cuda->content = NULL;
}

static SharpnessStatus
content_state (SharpnessCuda * cuda, SharpnessCudaContent ** out)
{
  SharpnessCudaContent *c = cuda->content;
  SharpnessStatus st;

  *out = c;
  if (c)
    return SHARPNESS_OK;
  c = (SharpnessCudaContent *) calloc (1, sizeof *c);
  if (!c) {
    snprintf (cuda->error, sizeof cuda->error, "out of host memory");
    return SHARPNESS_ERROR_NO_MEMORY;
  }
  cuda->content = c;
  /* Non-blocking: it must not wait for the legacy stream. */
  if ((st = sharpness_cuda_check (cuda, cudaStreamCreateWithFlags (&c->side,
                  cudaStreamNonBlocking), "content stream")) != SHARPNESS_OK ||
      (st = sharpness_cuda_check (cuda, cudaEventCreateWithFlags (&c->fork,
                  cudaEventDisableTiming), "content event")) != SHARPNESS_OK ||
      (st = sharpness_cuda_check (cuda, cudaMalloc ((void **) &c->accum,
                  sizeof *c->accum), "content accumulators")) != SHARPNESS_OK
      || (st = sharpness_cuda_check (cuda, cudaMemsetAsync (c->accum, 0,
                  sizeof *c->accum, cuda->stream), "content accumulators"))
      != SHARPNESS_OK ||
      (st = sharpness_cuda_check (cuda, cudaHostAlloc ((void **) &c->result,
                  sizeof *c->result,
                  cudaHostAllocMapped | cudaHostAllocPortable),
              "content result")) != SHARPNESS_OK ||
      (st = sharpness_cuda_check (cuda,
              cudaHostGetDevicePointer ((void **) &c->result_dev, c->result,
                  0), "content result mapping")) != SHARPNESS_OK ||
      (st = sharpness_cuda_check (cuda,
              cudaOccupancyMaxActiveBlocksPerMultiprocessor (&c->blocks_per_sm,
                  content_kernel, kThreads, 0), "content kernel occupancy"))
      != SHARPNESS_OK) {
    sharpness_cuda_content_clear (cuda);
    return st;
  }
  memset (c->result, 0, sizeof *c->result);
  if (c->blocks_per_sm < 1) {
    snprintf (cuda->error, sizeof cuda->error,
        "content kernel cannot run on this device");
    sharpness_cuda_content_clear (cuda);
    return SHARPNESS_ERROR_DEVICE;
  }
  /* The first launch may go on the side stream: the accumulators' reset
   * is ordered before it by the fork, or by this wait for direct use. */
  st = sharpness_cuda_check (cuda, cudaStreamSynchronize (cuda->stream),
      "content setup");
  if (st != SHARPNESS_OK) {
    sharpness_cuda_content_clear (cuda);
    return st;
  }
  *out = c;
  return SHARPNESS_OK;
}

static int
params_valid (const SharpnessContentParams * p)
{
  if (p->n_planes == 0)
    return 1;
  if (p->n_planes < 0 || p->n_planes > 4 ||
      (p->bytes_per_sample != 1 && p->bytes_per_sample != 2))
    return 0;
  /* A plane of no rows or samples compares nothing (FFmpeg's chroma rows
   * of a frame one row high are h >> 1 = 0). */
  for (int i = 0; i < p->n_planes; i++)
    if (p->width[i] < 0 || p->height[i] < 0 ||
        p->width[i] > INT_MAX / 2 / p->bytes_per_sample)
      return 0;
  return 1;
}

static int
empty_plane (const SharpnessContentParams * p, int i)
{
  return p->width[i] == 0 || p->height[i] == 0;
}

/* The buffers for @p's layout: a layout other than the stored frames'
 * forgets them (they compare with nothing); grown, never shrunk. */
static SharpnessStatus
prepare_layout (SharpnessCuda * cuda, SharpnessCudaContent * c,
    const SharpnessContentParams * p)
{
  int same = c->n_planes == p->n_planes &&
      c->bytes_per_sample == p->bytes_per_sample;

  for (int i = 0; same && i < p->n_planes; i++)
    same = c->width[i] == p->width[i] && c->height[i] == p->height[i];
  if (same && c->frames)
    return SHARPNESS_OK;

  c->have_reference = c->have_candidate = 0;
  c->n_planes = 0;
  c->ref_index = 0;
  size_t at = 0;
  for (int i = 0; i < p->n_planes; i++) {
    c->offset[i] = at;
    c->pitch[i] = ((size_t) p->width[i] * p->bytes_per_sample + 15) &
        ~(size_t) 15;
    at += c->pitch[i] * p->height[i];
  }
  const size_t half = (at + 255) & ~(size_t) 255;
  if (2 * half > c->frames_size) {
    if (c->frames) {
      /* Every launch that used them has been waited for (_end). */
      SharpnessStatus st = sharpness_cuda_check (cuda, cudaFree (c->frames),
          "freeze reference release");
      c->frames = NULL;
      c->frames_size = 0;
      if (st != SHARPNESS_OK)
        return st;
    }
    cudaError_t err = cudaMalloc ((void **) &c->frames, 2 * half);
    if (err != cudaSuccess) {
      c->frames = NULL;
      SharpnessStatus st = sharpness_cuda_check (cuda, err,
          "freeze reference allocation");
      return err == cudaErrorMemoryAllocation ? SHARPNESS_ERROR_NO_MEMORY : st;
    }
    c->frames_size = 2 * half;
  }
  c->half = half;
  c->n_planes = p->n_planes;
  c->bytes_per_sample = p->bytes_per_sample;
  for (int i = 0; i < p->n_planes; i++) {
    c->width[i] = p->width[i];
    c->height[i] = p->height[i];
  }
  return SHARPNESS_OK;
}

static uint8_t *
half_of (SharpnessCudaContent * c, int index)
{
  return c->frames + (size_t) index * c->half;
}

SharpnessStatus
sharpness_cuda_content_stage_host (SharpnessCuda * cuda,
    const SharpnessContentPlanes * host, const SharpnessContentParams * params,
    SharpnessContentPlanes * dev)
{
  SharpnessCudaContent *c;
  SharpnessStatus st;

  if (!cuda || !host || !params || !dev || !params_valid (params) ||
      !sharpness_plane_is_valid (&host->luma))
    return SHARPNESS_ERROR_INVALID;
  if ((st = content_state (cuda, &c)) != SHARPNESS_OK)
    return st;
  if (c->pending)
    return SHARPNESS_ERROR_INVALID;
  memset (dev, 0, sizeof *dev);
  if (params->n_planes == 0) {
    st = sharpness_cuda_stage_host (cuda, &host->luma, &dev->luma);
    c->staged = st == SHARPNESS_OK;
    return st;
  }

  for (int i = 0; i < params->n_planes; i++)
    if (!empty_plane (params, i) && (!host->data[i] ||
            (params->height[i] > 1 && host->stride[i] <
                (size_t) params->width[i] * params->bytes_per_sample)))
      return SHARPNESS_ERROR_INVALID;
  if ((st = prepare_layout (cuda, c, params)) != SHARPNESS_OK)
    return st;

  uint8_t *cand = half_of (c, c->ref_index ^ 1);
  for (int i = 0; i < params->n_planes; i++) {
    const size_t row = (size_t) params->width[i] * params->bytes_per_sample;
    dev->data[i] = cand + c->offset[i];
    dev->stride[i] = c->pitch[i];
    if (empty_plane (params, i))
      continue;
    st = sharpness_cuda_check (cuda, cudaMemcpy2DAsync (cand + c->offset[i],
            c->pitch[i], host->data[i], params->height[i] > 1 ?
            host->stride[i] : row, row, params->height[i],
            cudaMemcpyHostToDevice, cuda->stream), "frame upload");
    if (st != SHARPNESS_OK) {
      c->have_candidate = 0;
      return st;
    }
  }
  /* The candidate no longer holds the last measured frame. */
  c->have_candidate = 0;
  c->staged = 1;

  /* The luma inside plane 0 (the Y plane, packed RGB, packed 4:2:2): the
   * metric and the measurement read that copy. */
  const SharpnessPlane *l = &host->luma;
  const size_t plane0 = (size_t) params->width[0] * params->bytes_per_sample;
  if ((uintptr_t) l->data >= (uintptr_t) host->data[0] && (l->height == 1 ||
          l->stride == host->stride[0]) && l->height <= params->height[0]) {
    const size_t off = (uintptr_t) l->data - (uintptr_t) host->data[0];
    if (off < plane0 && sharpness_plane_row_bytes (l) <= plane0 - off) {
      dev->luma = *l;
      dev->luma.data = cand + c->offset[0] + off;
      dev->luma.stride = c->pitch[0];
      return SHARPNESS_OK;
    }
  }
  return sharpness_cuda_stage_host (cuda, l, &dev->luma);
}

static int
ceil_div (long long a, long long b)
{
  return (int) ((a + b - 1) / b);
}

SharpnessStatus
sharpness_cuda_content_begin (SharpnessCuda * cuda,
    const SharpnessContentPlanes * planes,
    const SharpnessContentParams * params, SharpnessContentOrder order)
{
  SharpnessCudaContent *c;
  SharpnessStatus st;
  const int luma = params && (params->black || params->structure);

  if (!cuda || !planes || !params || !params_valid (params) ||
      (luma && !sharpness_plane_is_valid (&planes->luma)))
    return SHARPNESS_ERROR_INVALID;
  for (int i = 0; i < params->n_planes; i++)
    if (!empty_plane (params, i) && (!planes->data[i] ||
            (params->height[i] > 1 && planes->stride[i] <
                (size_t) params->width[i] * params->bytes_per_sample)))
      return SHARPNESS_ERROR_INVALID;
  if ((st = content_state (cuda, &c)) != SHARPNESS_OK)
    return st;
  if (c->pending)
    return SHARPNESS_ERROR_INVALID;
  /* Whether a host frame was just staged for this measurement. */
  const int staged_upload = c->staged;
  c->staged = 0;
  if (params->n_planes > 0 &&
      (st = prepare_layout (cuda, c, params)) != SHARPNESS_OK)
    return st;

  Launch l;
  memset (&l, 0, sizeof l);
  long long items = 0;
  const SharpnessPlane *p = &planes->luma;

  c->black = params->black;
  c->structure = params->structure;
  c->pixels = c->interior = 0;
  if (luma) {
    c->pixels = (uint64_t) p->width * p->height;
    if (p->width >= 2 && p->height >= 2)
      c->interior = (uint64_t) (p->width - 1) * (p->height - 1);
    l.luma = *p;
    l.black = params->black;
    /* Gray differences are at most 255: a higher level finds no edge. */
    l.structure = params->structure && params->edge_level <= 255 &&
        c->interior > 0;
    l.threshold = params->black_threshold;
    l.level = params->edge_level;
    l.threshold4 = (params->black_threshold < 255 ?
        params->black_threshold : 255) * 0x01010101u;
    l.level4 = (params->edge_level < 255 ? params->edge_level : 255) *
        0x01010101u;
    const bool aligned = (uintptr_t) p->data % 16 == 0 &&
        (p->height == 1 || p->stride % 16 == 0);
    if (l.black || l.structure) {
      if (p->samples == SHARPNESS_SAMPLES_Y8 && p->pixel_stride == 1 &&
          aligned) {
        l.luma_mode = kLumaFast;
        l.luma_segments = ceil_div (p->width, kSpan);
      } else if (p->samples == SHARPNESS_SAMPLES_Y16LE &&
          p->pixel_stride == 2 && aligned) {
        l.luma_mode = kLumaFast16;
        l.luma_segments = ceil_div (2ll * p->width, kSpan);
      } else {
        l.luma_mode = kLumaGeneric;
        l.luma_segments = ceil_div (p->width, kGenericSpan);
      }
      items = (long long) l.luma_segments * ceil_div (p->height, kRows);
      l.luma_items = (int) (items < INT_MAX ? items : INT_MAX);
    }
  }

  c->freeze = params->n_planes > 0;
  c->has_sad = c->freeze && c->have_reference;
  if (c->freeze) {
    uint8_t *ref = half_of (c, c->ref_index);
    uint8_t *cand = half_of (c, c->ref_index ^ 1);
    /* A host frame staged into the candidate is only read. */
    int staged = 1;
    for (int i = 0; i < params->n_planes; i++)
      staged = staged && (empty_plane (params, i) ||
          (planes->data[i] == cand + c->offset[i] &&
              planes->stride[i] == c->pitch[i]));
    l.bytes_per_sample = params->bytes_per_sample;
    for (int i = 0; i < params->n_planes; i++) {
      SadPlane s;
      if (empty_plane (params, i))
        continue;
      memset (&s, 0, sizeof s);
      s.frame = planes->data[i];
      s.frame_stride = params->height[i] > 1 ? planes->stride[i] : 0;
      s.ref = c->has_sad ? ref + c->offset[i] : NULL;
      s.cand = staged ? NULL : cand + c->offset[i];
      s.pitch = c->pitch[i];
      s.row_bytes = params->width[i] * params->bytes_per_sample;
      s.height = params->height[i];
      s.segments = ceil_div (s.row_bytes, kSpan);
      s.vec = (uintptr_t) s.frame % 16 == 0 && s.frame_stride % 16 == 0;
      if (!s.ref && !s.cand)
        continue;
      /* Plane 0 is the fast luma: its items compare and copy it. */
      const int luma_bps = l.luma_mode == kLumaFast ? 1 :
          l.luma_mode == kLumaFast16 ? 2 : 0;
      if (i == 0 && luma_bps == params->bytes_per_sample &&
          s.frame == p->data && s.frame_stride == p->stride &&
          s.row_bytes == p->width * luma_bps && s.height == p->height) {
        l.fused = 1;
        l.fuse = s;
        continue;
      }
      s.item0 = (int) (items < INT_MAX ? items : INT_MAX);
      items += (long long) s.segments * ceil_div (s.height, kRows);
      l.sad[l.n_sad++] = s;
    }
  }
  if (items > INT_MAX / 2)
    return SHARPNESS_ERROR_UNSUPPORTED;
  l.items = (int) items;

  c->pending = 1;
  c->launched = 0;
  c->pending_staged = staged_upload;
  if (items == 0)
    return SHARPNESS_OK;        /* nothing to read: sums of zero */

  /* The side stream starts after everything queued on the backend's
   * (the producer's ordering, a host frame's copies).  Nothing orders the
   * backend's stream after the side stream's last launch, and nothing
   * needs to: a launch whose sums _end has read has done every load and
   * store it will (each block fences them before its ticket, the last
   * block writes the sequence number after every ticket), so the next
   * frame's copies and launches, on either stream, find its buffers
   * free. */
  cudaStream_t stream = order == SHARPNESS_CONTENT_BESIDE ? c->side :
      cuda->stream;
  if (order == SHARPNESS_CONTENT_BESIDE &&
      ((st = sharpness_cuda_check (cuda, cudaEventRecord (c->fork,
                      cuda->stream), "content fork")) != SHARPNESS_OK ||
          (st = sharpness_cuda_check (cuda, cudaStreamWaitEvent (c->side,
                      c->fork, 0), "content fork")) != SHARPNESS_OK)) {
    c->pending = 0;
    return st;
  }

  /* One block per multiprocessor at most, looping over the items: half
   * of each one's registers, so that the metric's blocks, launched next
   * beside it, find room on every multiprocessor instead of waiting for
   * this launch to drain; eight warps of 16-byte loads, up to nine in
   * flight a lane, are enough bytes in flight to keep DRAM busy. */
  long long blocks = (items + kWarps - 1) / kWarps;
  const long long cap = cuda->sm_count > 0 ? cuda->sm_count : 1;
  blocks = blocks < cap ? blocks : cap;
  l.accum = c->accum;
  l.result = c->result_dev;
  l.seq = ++c->seq;
  content_kernel <<< (int) blocks, kThreads, 0, stream >>> (l);
  st = sharpness_cuda_check (cuda, cudaGetLastError (),
      "content kernel launch");
  if (st != SHARPNESS_OK) {
    c->pending = 0;
    return st;
  }
  c->launched = 1;
  c->pending_seq = l.seq;
  c->stream = stream;
  return SHARPNESS_OK;
}

static unsigned long long
result_seq (const SharpnessCudaContent * c)
{
  return __atomic_load_n (&c->result->seq, __ATOMIC_ACQUIRE);
}

SharpnessStatus
sharpness_cuda_content_end (SharpnessCuda * cuda, SharpnessContentSums * out)
{
  SharpnessCudaContent *c = cuda ? cuda->content : NULL;

  if (!c || !c->pending || !out)
    return SHARPNESS_ERROR_INVALID;
  c->pending = 0;
  memset (out, 0, sizeof *out);
  if (!c->launched && c->pending_staged) {
    /* Nothing to launch (the frame's first measurement, freeze only):
     * its upload is all there is to wait for before the host frame may
     * go. */
    SharpnessStatus st = sharpness_cuda_check (cuda,
        cudaStreamSynchronize (cuda->stream), "frame upload");
    if (st != SHARPNESS_OK) {
      c->have_candidate = 0;
      return st;
    }
  }
  if (c->launched) {
    /* Usually written already, while the metric's launch was waited for:
     * no second synchronisation. */
    if (result_seq (c) != c->pending_seq) {
      SharpnessStatus st = sharpness_cuda_check (cuda,
          cudaStreamSynchronize (c->stream), "content kernel");
      if (st != SHARPNESS_OK) {
        c->have_candidate = 0;
        return st;
      }
      if (result_seq (c) != c->pending_seq) {
        c->have_candidate = 0;
        snprintf (cuda->error, sizeof cuda->error,
            "content kernel: it finished without writing its result");
        return SHARPNESS_ERROR_DEVICE;
      }
    }
    out->black_count = c->black ? c->result->black : 0;
    out->edges = c->structure ? c->result->edges : 0;
    out->sad = c->has_sad ? c->result->sad : 0;
  }
  out->pixels = c->pixels;
  out->interior = c->structure ? c->interior : 0;
  out->has_sad = c->has_sad;
  if (c->freeze)
    c->have_candidate = 1;
  return SHARPNESS_OK;
}

SharpnessStatus
sharpness_cuda_content_device (SharpnessCuda * cuda,
    const SharpnessContentPlanes * planes,
    const SharpnessContentParams * params, SharpnessContentSums * out)
{
  if (!out)
    return SHARPNESS_ERROR_INVALID;
  SharpnessStatus st = sharpness_cuda_content_begin (cuda, planes, params,
      SHARPNESS_CONTENT_IN_ORDER);
  if (st != SHARPNESS_OK)
    return st;
  return sharpness_cuda_content_end (cuda, out);
}

void
sharpness_cuda_content_reference (SharpnessCuda * cuda, int keep)
{
  SharpnessCudaContent *c = cuda ? cuda->content : NULL;

  if (!c)
    return;
  if (!keep) {
    c->have_reference = c->have_candidate = 0;
    return;
  }
  if (c->have_candidate) {
    c->ref_index ^= 1;
    c->have_reference = 1;
    c->have_candidate = 0;
  }
}
