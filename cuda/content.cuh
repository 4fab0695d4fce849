/* Content measurements on the GPU, device side: the work items and the
 * launch ending shared by the content kernel (content.cu) and the
 * classical kernels that take a frame's content items into their own
 * launch (classical.cuh's classical_content_kernel).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Three kinds of work item of one warp each:
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
 *    the reference's, and the frame into the candidate.  A v210 lane's 16
 *    bytes are one group of six pixels, its samples masked past the
 *    row's last (FFmpeg's decoded yuv422p10le frame).
 *  - CPBD items: one complete 64 x 64 block of the luma each, CPBD's edge
 *    pixels and those not noticeably blurred (content-cpbd.cuh).
 * Counts are integers, so the order in which blocks add them does not
 * matter; the last block (fence and ticket, as launch-sums.cuh) moves the
 * totals into mapped pinned memory with the launch's sequence number.  In
 * a classical kernel that runs the items, each count takes a packed ticket
 * of its own beside the metric's (Rider), with no fence.
 */
#ifndef SHARPNESS_CONTENT_CUH
#define SHARPNESS_CONTENT_CUH

#include <climits>

#include "content-cpbd.cuh"
#include "launch-sums.cuh"
#include "sharpness-cuda-private.h"
#include "sharpness-black-sample.h"
#include "sharpness-freeze-v210.h"
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
    kRows * (kBytes / 2) * 65535ull < (1ull << 32) &&
    kRows * (kBytes / 4 * 3) * 1023ull < (1ull << 32),
    "an item's SAD fits in 32 bits");

/* The counts a launch measures, in this order in Accum, Result and a
 * block's sums. */
enum Count
{
  kBlack, kEdges, kSad, kCpbdEdges, kCpbdSharp, kCounts
};

/* Device accumulators: zero between launches, the last block reads them
 * out and resets them. */
struct Accum
{
  unsigned long long count[kCounts];
  unsigned int blocks_done;
};

/* What the last block writes into mapped memory; @seq last. */
struct Result
{
  unsigned long long seq, count[kCounts];
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
  /* v210 (bytes_per_sample 4): the 10-bit samples compared in a row, the
   * first of its words'; 0 otherwise. */
  int v210_samples;
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
  int has_sad;                  /* the SAD planes have a reference */
  /* CPBD items (cpbd): the complete 64 x 64 blocks of the luma, row-major
   * over cpbd_blocks_x blocks a row, items cpbd_item0 on. */
  int cpbd, cpbd_blocks_x, cpbd_item0;
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

/* v210: the SAD of a lane's four words, the row's words from @word0 on,
 * over the row's first @samples samples (the same function as the CPU's
 * sharpness_freeze_sad: sharpness-freeze-v210.h). */
__device__ __forceinline__ unsigned
sad_v210 (uint4 a, uint4 b, int word0, int samples)
{
  const int n = samples - SHARPNESS_FREEZE_V210_WORD_SAMPLES * word0;

  return sharpness_freeze_v210_word_sad (a.x, b.x, n) +
      sharpness_freeze_v210_word_sad (a.y, b.y, n - 3) +
      sharpness_freeze_v210_word_sad (a.z, b.z, n - 6) +
      sharpness_freeze_v210_word_sad (a.w, b.w, n - 9);
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
template <int kBps, bool kWhole, bool kEdges>
__device__ __forceinline__ void
luma_fast (const Launch & l, int item, int lane, unsigned long long &black,
    unsigned long long &edges, unsigned long long &sad)
{
  constexpr int N = kBytes / kBps;      /* pixels per chunk */
  const SharpnessPlane & p = l.luma;
  const bool structure = kEdges && l.structure;
  const int seg = item % l.luma_segments, band = item / l.luma_segments;
  const int x0 = (seg * 32 + lane) * kBytes, y0 = band * kRows;
  const int px0 = x0 / kBps;            /* the chunk's first pixel */
  const int W = p.width, H = p.height, n = W * kBps;
  const int rows = kWhole ? kRows : min (kRows, H - y0);
  /* The row below the band, for the edges of its last row (a whole item
   * reads the last row again where there is none: harmless). */
  const bool below = structure && y0 + kRows < H;
  const int y_below = min (y0 + kRows, H - 1);
  const bool ref = l.fused && l.fuse.ref;
  uint4 g[kRows + 1], f[kRows];

  /* Every load first, so that the item has them all in flight: lane 31
   * also loads the sample right of its chunk in each row (the next item's
   * first), which the edges need. */
  unsigned right_of[kRows];
#pragma unroll
  for (int r = 0; r < kRows; r++)
    g[r] = load_row < kWhole > (p.data, p.stride, y0 + r, x0, n, r < rows);
  g[kRows] = structure ? load_row < kWhole > (p.data, p.stride, y_below,
      x0, n, below) : zero4 ();
  if (ref) {
#pragma unroll
    for (int r = 0; r < kRows; r++)
      f[r] = load_row < kWhole > (l.fuse.ref, l.fuse.pitch, y0 + r, x0, n,
          r < rows);
  }
  const bool right_in = structure && lane == 31 && px0 + N < W;
#pragma unroll
  for (int r = 0; r < kRows; r++) {
    const uint8_t *px = p.data + (size_t) (y0 + r) * p.stride + x0 + kBytes;
    right_of[r] = right_in && r < rows ? (kBps == 1 ? (unsigned) px[0] :
        px[0] | ((unsigned) px[1] << 8)) : 0u;
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
      if (structure) {
        unsigned next = __shfl_down_sync (kFull, a[0], 1) & 0xffu;
        if (lane == 31)
          next = right_of[r];
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
      if (structure) {
        int next = __shfl_down_sync (kFull, gray[0], 1);
        if (lane == 31)
          next = px0 + N < W ? sharpness_gray_from_y16 (right_of[r], p.depth,
              p.shift) : 0;
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
template <int kBps, bool kEdges>
__device__ __forceinline__ void
luma_fast_item (const Launch & l, int item, int lane,
    unsigned long long &black, unsigned long long &edges,
    unsigned long long &sad)
{
  const int seg = item % l.luma_segments, band = item / l.luma_segments;
  const bool whole = (seg + 1) * kSpan <= l.luma.width * kBps &&
      (band + 1) * kRows <= l.luma.height;
  if (whole)
    luma_fast < kBps, true, kEdges > (l, item, lane, black, edges, sad);
  else
    luma_fast < kBps, false, kEdges > (l, item, lane, black, edges, sad);
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
          bytes_per_sample == 2 ? sad_words (f[r], g[r]) :
          sad_v210 (f[r], g[r], x0 / 4, s.v210_samples);
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

/* Work item @item of @l, for one warp: a luma item, a SAD item of one
 * freeze plane, or a CPBD block.  kMode: the luma items' mode when the
 * caller knows it (only that path is compiled in, which keeps the
 * registers the other paths would hold), or kLumaNone for any, chosen at
 * run time.  kEdges false: the caller knows that @l counts no edges (no
 * structure), and the fast paths compile without them: no row below, no
 * neighbours, fewer registers.  @count: the thread's sums (Count). */
template <int kMode = kLumaNone, bool kEdges = true>
__device__ __forceinline__ void
run_item (const Launch & l, int item, int lane,
    unsigned long long (&count)[kCounts])
{
  if (l.cpbd && item >= l.cpbd_item0) {
    cpbd_block (l.luma, l.cpbd_blocks_x, item - l.cpbd_item0, lane,
        count[kCpbdEdges], count[kCpbdSharp]);
  } else if (item < l.luma_items) {
    unsigned long long &black = count[kBlack], &edges = count[kEdges];
    unsigned long long &sad = count[kSad];
    if constexpr (kMode == kLumaFast)
      luma_fast_item < 1, kEdges > (l, item, lane, black, edges, sad);
    else if constexpr (kMode == kLumaFast16)
      luma_fast_item < 2, kEdges > (l, item, lane, black, edges, sad);
    else if constexpr (kMode == kLumaGeneric)
      luma_generic (l, item, lane, black, edges);
    else if (l.luma_mode == kLumaFast)
      luma_fast_item < 1, kEdges > (l, item, lane, black, edges, sad);
    else if (l.luma_mode == kLumaFast16)
      luma_fast_item < 2, kEdges > (l, item, lane, black, edges, sad);
    else
      luma_generic (l, item, lane, black, edges);
  } else {
    int p = 0;
    while (p + 1 < l.n_sad && item >= l.sad[p + 1].item0)
      p++;
    sad_item (l.sad[p], l.bytes_per_sample, item - l.sad[p].item0, lane,
        count[kSad]);
  }
}

/* The block's counts, summed over its warps, in thread 0 (of a block of
 * kThreads threads). */
__device__ __forceinline__ void
block_totals (unsigned long long (&count)[kCounts])
{
  __shared__ unsigned long long part[kCounts][kWarps];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;

#pragma unroll
  for (int k = 0; k < kCounts; k++) {
    count[k] = warp_sum (count[k]);
    if (lane == 0)
      part[k][warp] = count[k];
  }
  __syncthreads ();
  if (threadIdx.x == 0) {
#pragma unroll
    for (int k = 0; k < kCounts; k++) {
      count[k] = 0;
      for (int w = 0; w < kWarps; w++)
        count[k] += part[k][w];
    }
  }
}

/* Thread 0's block totals into the accumulators. */
__device__ __forceinline__ void
add_totals (const Launch & l, const unsigned long long (&count)[kCounts])
{
#pragma unroll
  for (int k = 0; k < kCounts; k++)
    if (count[k])
      atomicAdd (&l.accum->count[k], count[k]);
}

/* The totals out of the accumulators, which are left at zero, into mapped
 * memory, for the last block's thread 0 of the content kernel once every
 * other block's additions are in and fenced before it (finish); the
 * caller writes the sequence number after them. */
__device__ __forceinline__ void
read_out (const Launch & l)
{
#pragma unroll
  for (int k = 0; k < kCounts; k++)
    l.result->count[k] = atomicExch (&l.accum->count[k], 0ull);
  l.accum->blocks_done = 0;
}

/* Called by every thread of every block (of kThreads threads) once its
 * items are done: the block's sums into the accumulators, and the last
 * block's read-out into mapped memory, the sequence number last; with
 * kSystemFence, ordered for a host that reads them while the launch may
 * still run (a launch beside the metric's, not waited for). */
template <bool kSystemFence>
__device__ __forceinline__ void
finish (const Launch & l, unsigned long long (&count)[kCounts])
{
  __shared__ bool last;

  /* This block's candidate stores are visible device-wide before its
   * ticket: once the last block has written the sequence number, the
   * launch has read and written everything it will. */
  __threadfence ();
  block_totals (count);
  if (threadIdx.x == 0) {
    add_totals (l, count);
    __threadfence ();
    last = atomicAdd (&l.accum->blocks_done, 1u) == gridDim.x - 1;
  }
  __syncthreads ();
  if (!last || threadIdx.x != 0)
    return;

  __threadfence ();
  read_out (l);
  /* The host may read the sums as soon as it sees the sequence number. */
  if constexpr (kSystemFence)
    __threadfence_system ();
  *(volatile unsigned long long *) &l.result->seq = l.seq;
}

/* The counts of a launch that ends with a metric's ticket (classical.cuh's
 * content kernel), as a launch-sums.cuh rider: each count the launch
 * measures takes a packed ticket of its own, thread 0 of every block
 * adding its block's share with the metric's ticket in flight, and the
 * block that completes a count writes its total to mapped memory and
 * leaves the accumulator at zero.  No fence orders them, nor the
 * candidate's stores: the host reads them after waiting for the launch,
 * whose end orders every store.  Counts stay below 2^(64 - kTicketBits):
 * frames of at most 2^32 pixels (classical.cuh's limit), SADs of at most
 * three samples a pixel below 2^16. */
struct Rider
{
  const Launch *l;
  unsigned long long count[kCounts];    /* the block's, thread 0 */
  unsigned long long before[kCounts];

  static_assert (64 - kTicketBits >= 32 + 2 + 16,
      "a frame's SAD fits a packed ticket");

  /* Every thread of the block, once its items are done. */
  __device__ __forceinline__ void
  reduce (const unsigned long long (&sums)[kCounts])
  {
#pragma unroll
    for (int k = 0; k < kCounts; k++)
      count[k] = sums[k];
    block_totals (count);
  }

  __device__ __forceinline__ bool
  measures (int k) const
  {
    return k == kBlack ? l->black : k == kEdges ? l->structure :
        k == kSad ? l->has_sad : l->cpbd;
  }

  __device__ __forceinline__ void
  issue ()
  {
#pragma unroll
    for (int k = 0; k < kCounts; k++)
      if (measures (k))
        before[k] = ticket_add (&l->accum->count[k], count[k]);
  }

  __device__ __forceinline__ void
  settle () const
  {
#pragma unroll
    for (int k = 0; k < kCounts; k++)
      if (measures (k) && ticket_last (before[k])) {
        l->accum->count[k] = 0;
        l->result->count[k] = ticket_total (before[k], count[k]);
      }
  }

  /* The counts the launch does not measure read as zero. */
  __device__ __forceinline__ void
  done () const
  {
#pragma unroll
    for (int k = 0; k < kCounts; k++)
      if (!measures (k))
        l->result->count[k] = 0;
    l->result->seq = l->seq;
  }
};

}  /* namespace content */
}  /* namespace sharpness_cuda */

/* A content launch prepared by sharpness_cuda_content_begin with
 * SHARPNESS_CONTENT_FUSED that no launch has taken yet, or NULL: a
 * classical score launch on the backend's stream may run its items. */
const sharpness_cuda::content::Launch *
sharpness_cuda_content_prepared (SharpnessCuda * cuda);

/* Tells the content state that a launch on the backend's stream took the
 * prepared items (and ends their counts with content::Rider). */
void sharpness_cuda_content_taken (SharpnessCuda * cuda);

#endif /* SHARPNESS_CONTENT_CUH */
