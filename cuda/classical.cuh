/* Classical focus measures on the GPU: the fused kernel template shared by
 * the classical metrics, each instantiated in its own file
 * (cuda/classical-<sym>.cu) so that ninja compiles them in parallel.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * One fused kernel per metric and sample layout, exact integer sums
 * identical to the CPU backend's.  Work is cut into items of one warp: 32
 * consecutive chunks of a row (gray-chunk.cuh) times a band of
 * Layout::kBandRows rows.  A thread walks down its band keeping the rows its
 * metric's window needs in registers, the rows above and below the band
 * included; the columns left and right of its chunk come from the
 * neighbouring lanes through shuffles (lanes 0 and 31 read them).  The grid
 * is persistent: as many blocks as fit on the GPU at once, each warp
 * striding over the items.  Per-pixel terms are integers
 * (core/classical-terms.h), summed per band in 32 bits, per thread
 * and beyond in 64 bits; launch-sums.cuh ends the launch.
 * docs/performance/notes-cuda-classical.md has the measurements.
 *
 * The extended kernel (classical_ext_kernel, docs/reference/tiles.md) runs the same
 * band code over K regions in one launch (ROIs of a frame: the frame's
 * plane and a rectangle; frames of several streams: whole planes), each
 * with its own sums and, optionally, the sums of a tile grid.  The plain
 * kernel is the extended one's code with the tile paths compiled out
 * (kNoTiles) and the whole plane as its rectangle: no cost when tiles are
 * off.
 *
 * The content kernel (classical_content_kernel) is the plain one with a
 * frame's content items (content.cuh: black, edges, freeze SAD) after its
 * bands, for the variants the decoders' frames take: a frame score and its
 * content measurement cost one launch and one ending.
 */
#ifndef SHARPNESS_CLASSICAL_CUH
#define SHARPNESS_CLASSICAL_CUH

#include <climits>
#include <cstdio>
#include <cstring>

#include "classical-terms.h"
#include "classical-variant.h"
#include "content.cuh"
#include "sharpness-cuda-private.h"
#include "sharpness-tiles.h"
#include "gray-chunk.cuh"
#include "launch-sums.cuh"

namespace sharpness_cuda
{

/* Where a metric's per-pixel term reaches, relative to its pixel: kBefore
 * rows above and columns left, kAfter rows below and columns right.  The
 * term is counted where the whole window lies inside the frame
 * (docs/reference/metrics.md). */
template <int kBefore, int kAfter>
struct WindowShape
{
  static constexpr int kAbove = kBefore, kBelow = kAfter;
  static constexpr int kLeft = kBefore, kRight = kAfter;
};
using PointWindow = WindowShape < 0, 0 >;
using DownRightWindow = WindowShape < 0, 1 >;
using Window3x3 = WindowShape < 1, 1 >;

/* Metric<M>: the metric's window (Window) and, for the windowed metrics,
 * its per-pixel term at column j of rows a (y - 1), b (y) and c (y + 1),
 * each holding the chunk at 1..N and the neighbouring columns at 0 and
 * N + 1.  Specialised in the metric's own file (cuda/classical-<sym>.cu),
 * with the terms of core/classical-terms.h. */
template <SharpnessMetric M> struct Metric;

/* The rectangle whose terms a launch counts: columns [x0, x1) and rows
 * [y0, y1) of the plane; a term counts where its whole window lies inside
 * (the plain kernel's is the whole plane).  Reads stay inside the plane's
 * columns and the rectangle's rows. */
struct Bounds
{
  int x0, x1, y0, y1;
};

/* The band code's tile paths: none (the plain kernel); fast, when every
 * tile of the region is at least a chunk wide and a band high, so that a
 * thread's chunk row crosses at most one tile column and a band at most
 * one tile row (also used for regions without tiles); slow otherwise (tiny
 * tiles: every term added to its tile on its own). */
enum TileMode
{
  kNoTiles,
  kFastTiles,
  kSlowTiles,
  /* kFastTiles for a warp none of whose chunks crosses a tile column (an
   * aligned grid, a region without tiles): a band's terms need no split
   * by column, only by row (once per row, not per term). */
  kRowTiles
};

/* Regions with fast-path tiles are below this many pixels a side, so that
 * the tile arithmetic fits in 32 bits: (side + 1) * SHARPNESS_TILES_MAX
 * < 2^32. */
constexpr int kFastTileSide = 1 << 25;
static_assert ((unsigned long long) kFastTileSide * SHARPNESS_TILES_MAX <
    (1ull << 32), "32-bit fast-path tile arithmetic");

/* What the extended kernel adds besides a band's sums, for one thread. */
struct TileSink
{
  bool on;                      /* the region has tiles */
  int cols, rows, tile0;        /* its grid, its tile (0, 0) in the launch */
  Bounds region;
  /* Fast path: pixels i >= split of the chunk lie in the next tile
   * column, centre rows >= row_split in the next tile row; tile holds the
   * chunk's first pixel in the band's first row. */
  int split, row_split, tile;
  /* Fast path, this band: terms of pixels i >= split (hi, hi2) and the
   * values of s, hi (s2, hi2) after the last row above row_split. */
  unsigned hi, hi2, top, top_hi, top2, top_hi2;
  /* The region's histogram: the block's shared one, or (NULL) the region's
   * accumulator in global memory. */
  unsigned *hist;
  unsigned long long *ghist;
  unsigned long long *tile_sum, *tile_sq;
  unsigned *tile_hist;
};

/* Launch index of the tile holding pixel (@x, @y) of the region (slow
 * path: two divisions). */
__device__ __forceinline__ int
tile_at (const TileSink & t, int x, int y)
{
  const int w = t.region.x1 - t.region.x0, h = t.region.y1 - t.region.y0;
  return t.tile0 + sharpness_tile_of (y - t.region.y0, h, t.rows) * t.cols +
      sharpness_tile_of (x - t.region.x0, w, t.cols);
}

/* Adds the terms of one output row, centred on row b (row @yc of the
 * plane), to @s (and @s2, or the histogram @hist); with kMask only pixels
 * [ilo, ihi) of the chunk (at column @x0) count.  With tiles, also to
 * @sink. */
template <SharpnessMetric M, bool kMask, int kMode, int K>
__device__ __forceinline__ void
row_terms_masked (const int (&a)[K], const int (&b)[K], const int (&c)[K],
    int ilo, int ihi, unsigned &s, unsigned &s2, unsigned *hist,
    TileSink & sink, int x0, int yc)
{
#pragma unroll
  for (int i = 0; i < K - 2; i++) {
    const bool in = !kMask || (i >= ilo && i < ihi);
    const int g = b[i + 1];
    if constexpr (M == SHARPNESS_METRIC_VARIANCE) {
      s += in ? g : 0;
      s2 += in ? g * g : 0;
      if constexpr (kMode == kFastTiles) {
        const bool h = in && i >= sink.split;
        sink.hi += h ? g : 0;
        sink.hi2 += h ? g * g : 0;
      } else if constexpr (kMode == kSlowTiles) {
        if (in) {
          const int t = tile_at (sink, x0 + i, yc);
          atomicAdd (&sink.tile_sum[t], (unsigned long long) g);
          atomicAdd (&sink.tile_sq[t], (unsigned long long) (g * g));
        }
      }
    } else if constexpr (M == SHARPNESS_METRIC_ENTROPY) {
      /* Without tiles, row_terms has taken out the warps whose row is
       * flat; the rest add per pixel, which measured cheaper than grouping
       * the lanes with __match_any_sync on natural frames
       * (docs/performance/notes-cuda-classical.md).  With tiles, every
       * lane of the warp gets here (see row_terms). */
      const int key = in ? g : -1;
      if constexpr (kMode == kNoTiles) {
        if (in)
          atomicAdd (&hist[g], 1u);
      } else {
        const unsigned peers = __match_any_sync (kFullMask, key);
        const bool leader = (threadIdx.x & 31) == __ffs (peers) - 1;
        if (in && leader) {
          if (hist)
            atomicAdd (&hist[g], (unsigned) __popc (peers));
          else
            atomicAdd (&sink.ghist[g], (unsigned long long) __popc (peers));
        }
        /* Tile histograms in global memory, aggregated over the warp the
         * same way (sink.on is the same for the whole warp). */
        if (sink.on) {
          int t = 0;
          if (in) {
            if constexpr (kMode == kFastTiles || kMode == kRowTiles)
              t = sink.tile + (i >= sink.split) +
                  (yc >= sink.row_split ? sink.cols : 0);
            else
              t = tile_at (sink, x0 + i, yc);
          }
          const int tkey = in ? t * 256 + g : -1;
          const unsigned tpeers = __match_any_sync (kFullMask, tkey);
          if (in && (threadIdx.x & 31) == __ffs (tpeers) - 1)
            atomicAdd (&sink.tile_hist[tkey], (unsigned) __popc (tpeers));
        }
      }
    } else {
      const unsigned t = Metric < M >::term (a, b, c, i + 1);
      s += in ? t : 0;
      if constexpr (kMode == kFastTiles) {
        sink.hi += (in && i >= sink.split) ? t : 0;
      } else if constexpr (kMode == kSlowTiles) {
        if (in && t)
          atomicAdd (&sink.tile_sum[tile_at (sink, x0 + i, yc)],
              (unsigned long long) t);
      }
    }
  }
}

/* Most chunks lie wholly inside the window's reach: they skip the masks
 * (a branch between the loads and the arithmetic, so the loads of a warp
 * stay together).  Entropy's warp-wide vote and match need the whole
 * warp, which the callers guarantee (their conditions are the same for all
 * its lanes): they stay out of the per-lane branch. */
template <SharpnessMetric M, int kMode, int K>
__device__ __forceinline__ void
row_terms (const int (&a)[K], const int (&b)[K], const int (&c)[K], int ilo,
    int ihi, unsigned &s, unsigned &s2, unsigned *hist, TileSink & sink,
    int x0, int yc)
{
  const bool whole = ilo == 0 && ihi == K - 2;

  if constexpr (M == SHARPNESS_METRIC_ENTROPY && kMode == kNoTiles) {
    /* A row whose chunks hold one gray level across the whole warp (flat
     * areas, a flat frame) adds its count in one atomic instead of 32 x N
     * serialised on one bank; one shuffle and one vote per row, not per
     * pixel.  Every lane of the warp gets here: the callers' conditions
     * depend on the row only. */
    const int first = __shfl_sync (kFullMask, b[1], 0);
    bool same = whole;
#pragma unroll
    for (int i = 1; i < K - 1; i++)
      same = same && b[i] == first;
    if (__all_sync (kFullMask, same)) {
      if ((threadIdx.x & 31) == 0)
        atomicAdd (&hist[first], 32u * (K - 2));
    } else if (whole) {
      row_terms_masked < M, false, kMode > (a, b, c, ilo, ihi, s, s2, hist,
          sink, x0, yc);
    } else {
      row_terms_masked < M, true, kMode > (a, b, c, ilo, ihi, s, s2, hist,
          sink, x0, yc);
    }
  } else if constexpr (M == SHARPNESS_METRIC_ENTROPY) {
    row_terms_masked < M, true, kMode > (a, b, c, ilo, ihi, s, s2, hist,
        sink, x0, yc);
  } else if (whole)
    row_terms_masked < M, false, kMode > (a, b, c, ilo, ihi, s, s2, hist,
        sink, x0, yc);
  else
    row_terms_masked < M, true, kMode > (a, b, c, ilo, ihi, s, s2, hist,
        sink, x0, yc);
}

/* Fast tile path: after centre row @yc, remember the sums so far while
 * the row lies above the band's tile-row boundary. */
template <int kMode>
__device__ __forceinline__ void
tile_row_done (TileSink & sink, int yc, unsigned s, unsigned s2)
{
  if constexpr (kMode == kFastTiles || kMode == kRowTiles) {
    if (yc < sink.row_split) {
      sink.top = s;
      sink.top_hi = sink.hi;
      sink.top2 = s2;
      sink.top_hi2 = sink.hi2;
    }
  }
}

/* The rows a window needs, newest last; the centre row sits kBelow rows
 * above the newest. */
template <class W, int N>
struct Rows
{
  static constexpr int kHalo = W::kAbove + W::kBelow;
  static constexpr int kB = 2 - W::kBelow;
  static constexpr int kA = kB > 0 ? kB - 1 : 0;
  static constexpr int kC = kB < 2 ? kB + 1 : 2;

  int g[3][N + 2] = { };

  __device__ __forceinline__ void shift ()
  {
#pragma unroll
    for (int k = 0; k < N + 2; k++) {
      g[0][k] = g[1][k];
      g[1][k] = g[2][k];
    }
  }
};

/* A band whose chunks are all whole or all past the right edge.  Every
 * row is loaded before any is used, rows outside the rectangle clamped
 * into it (the terms that would use them are masked), so that all the
 * band's loads are in flight at once.  Chunks right of the rectangle are
 * not read: their pixels are neither counted nor a counted pixel's
 * neighbour. */
template <SharpnessMetric M, class L, int kMode>
__device__ __forceinline__ void
band_fast (const SharpnessPlane & p, SampleShifts sh, const Bounds & bd, int x0,
    int y0, int lane, int ilo, int ihi, unsigned &s, unsigned &s2,
    unsigned *hist, TileSink & sink)
{
  using W = typename Metric < M >::Window;
  using R = Rows < W, L::kPixels >;
  constexpr int N = L::kPixels;
  constexpr int kRows = L::kBandRows + R::kHalo;
  const bool inside = x0 < p.width && x0 < bd.x1;
  uint32_t words[kRows][L::kWords];
  int left[kRows], right[kRows];

#pragma unroll
  for (int r = 0; r < kRows; r++) {
    const int y = min (max (y0 - W::kAbove + r, bd.y0), bd.y1 - 1);
    const uint8_t *row = p.data + (size_t) y * p.stride;
    if (inside) {
      load_chunk_words < L > (row, x0, words[r]);
    } else {
#pragma unroll
      for (int k = 0; k < L::kWords; k++)
        words[r][k] = 0;
    }
    left[r] = W::kLeft > 0 && lane == 0 && inside && x0 > 0 ?
        pixel_gray < L > (p, row, x0 - 1) : 0;
    right[r] = W::kRight > 0 && lane == 31 && x0 + N < p.width ?
        pixel_gray < L > (p, row, x0 + N) : 0;
  }

  R rows;
#pragma unroll
  for (int r = 0; r < kRows; r++) {
    rows.shift ();
#pragma unroll
    for (int i = 0; i < N; i++)
      rows.g[2][1 + i] = chunk_gray < L > (words[r], i, p, sh);
    if constexpr (W::kLeft > 0) {
      const int v = __shfl_up_sync (kFullMask, rows.g[2][N], 1);
      rows.g[2][0] = lane == 0 ? left[r] : v;
    }
    if constexpr (W::kRight > 0) {
      const int v = __shfl_down_sync (kFullMask, rows.g[2][1], 1);
      rows.g[2][N + 1] = lane == 31 ? right[r] : v;
    }

    const int yc = y0 - W::kAbove + r - W::kBelow;
    if (r >= R::kHalo && yc >= bd.y0 + W::kAbove && yc < bd.y1 - W::kBelow)
      row_terms < M, kMode > (rows.g[R::kA], rows.g[R::kB], rows.g[R::kC],
          ilo, ihi, s, s2, hist, sink, x0, yc);
    if (r >= R::kHalo)
      tile_row_done < kMode > (sink, yc, s, s2);
  }
}

/* Row @y of the chunk at @x0 with the columns beside it that the window
 * needs, pixel by pixel where the chunk crosses the right edge; zeros
 * outside the plane and the rectangle's rows.  All lanes of a warp share
 * @y. */
template <class L, class W>
__device__ __forceinline__ void
load_row_edge (const SharpnessPlane & p, SampleShifts sh, const Bounds & bd,
    int y, int x0, int lane, int (&g)[L::kPixels + 2])
{
  constexpr int N = L::kPixels;

  if (y < bd.y0 || y >= bd.y1) {
#pragma unroll
    for (int k = 0; k < N + 2; k++)
      g[k] = 0;
    return;
  }
  const uint8_t *row = p.data + (size_t) y * p.stride;
  load_chunk < L > (p, row, x0, sh, g);
  if constexpr (W::kLeft > 0) {
    int left = __shfl_up_sync (kFullMask, g[N], 1);
    if (lane == 0)
      left = x0 > 0 && x0 <= p.width ? sharpness_plane_gray_at (&p, row,
          x0 - 1) : 0;
    g[0] = left;
  }
  if constexpr (W::kRight > 0) {
    int right = __shfl_down_sync (kFullMask, g[1], 1);
    if (lane == 31)
      right = x0 + N < p.width ? sharpness_plane_gray_at (&p, row, x0 + N) : 0;
    g[N + 1] = right;
  }
}

/* Any other band: the generic layouts, the segment holding the chunk that
 * crosses the right edge.  Row by row. */
template <SharpnessMetric M, class L, int kMode>
__device__ __forceinline__ void
band_edge (const SharpnessPlane & p, SampleShifts sh, const Bounds & bd, int x0,
    int y0, int lane, int ilo, int ihi, unsigned &s, unsigned &s2,
    unsigned *hist, TileSink & sink)
{
  using W = typename Metric < M >::Window;
  using R = Rows < W, L::kPixels >;
  R rows;

#pragma unroll
  for (int r = 0; r < L::kBandRows + R::kHalo; r++) {
    rows.shift ();
    const int y = y0 - W::kAbove + r;
    load_row_edge < L, W > (p, sh, bd, y, x0, lane, rows.g[2]);

    const int yc = y - W::kBelow;
    if (r >= R::kHalo && yc >= bd.y0 + W::kAbove && yc < bd.y1 - W::kBelow)
      row_terms < M, kMode > (rows.g[R::kA], rows.g[R::kB], rows.g[R::kC],
          ilo, ihi, s, s2, hist, sink, x0, yc);
    if (r >= R::kHalo)
      tile_row_done < kMode > (sink, yc, s, s2);
  }
}

/* Adds @v of every lane to the tile @key of @dst, where the keys do not
 * decrease from lane to lane: a segmented scan over the lanes of each key,
 * then one atomic per key from its last lane (zero totals skip it; their
 * key may lie past the grid). */
__device__ __forceinline__ void
warp_tile_add (unsigned v, int key, int lane, unsigned long long *dst)
{
#pragma unroll
  for (int off = 1; off < 32; off <<= 1) {
    const unsigned u = __shfl_up_sync (kFullMask, v, off);
    const int k = __shfl_up_sync (kFullMask, key, off);
    if (lane >= off && k == key)
      v += u;
  }
  const int next = __shfl_down_sync (kFullMask, key, 1);
  if ((lane == 31 || next != key) && v)
    atomicAdd (&dst[key], (unsigned long long) v);
}

/* Fast tile path, end of a band: the four parts of the band (tile rows
 * above and below row_split, columns before and after split) into their
 * tiles.  Parts that no lane has are skipped, warp-wide. */
template <bool kSq>
__device__ __forceinline__ void
tile_band_done (TileSink & t, int lane, bool row_cross, unsigned s,
    unsigned s2)
{
  const bool col_cross = __any_sync (kFullMask, t.split < 32 * 1024);
  const unsigned bottom = s - t.top, bottom_hi = t.hi - t.top_hi;

  warp_tile_add (t.top - t.top_hi, t.tile, lane, t.tile_sum);
  if (col_cross)
    warp_tile_add (t.top_hi, t.tile + 1, lane, t.tile_sum);
  if (row_cross) {
    warp_tile_add (bottom - bottom_hi, t.tile + t.cols, lane, t.tile_sum);
    if (col_cross)
      warp_tile_add (bottom_hi, t.tile + t.cols + 1, lane, t.tile_sum);
  }
  if constexpr (kSq) {
    const unsigned bottom2 = s2 - t.top2, bottom_hi2 = t.hi2 - t.top_hi2;
    warp_tile_add (t.top2 - t.top_hi2, t.tile, lane, t.tile_sq);
    if (col_cross)
      warp_tile_add (t.top_hi2, t.tile + 1, lane, t.tile_sq);
    if (row_cross) {
      warp_tile_add (bottom2 - bottom_hi2, t.tile + t.cols, lane, t.tile_sq);
      if (col_cross)
        warp_tile_add (bottom_hi2, t.tile + t.cols + 1, lane, t.tile_sq);
    }
  }
}

/* The band's terms into @s, @s2 or @hist (and @sink): the vectorised
 * loads where the layout allows, row by row otherwise.  Only the segment
 * holding the chunk across the plane's right edge is slow. */
template <SharpnessMetric M, class L, int kMode>
__device__ __forceinline__ void
band_terms (const SharpnessPlane & p, SampleShifts sh, const Bounds & bd,
    int chunk0, int segment, int x0, int y0, int lane, int ilo, int ihi,
    unsigned &s, unsigned &s2, unsigned *hist, TileSink & sink)
{
  constexpr int N = L::kPixels;

  if constexpr (L::kFast) {
    if (p.width % N == 0 || segment != (p.width / N - chunk0) / 32)
      band_fast < M, L, kMode > (p, sh, bd, x0, y0, lane, ilo, ihi, s, s2,
          hist, sink);
    else
      band_edge < M, L, kMode > (p, sh, bd, x0, y0, lane, ilo, ihi, s, s2,
          hist, sink);
  } else {
    band_edge < M, L, kMode > (p, sh, bd, x0, y0, lane, ilo, ihi, s, s2,
        hist, sink);
  }
}

/* Adds the terms of the band of rows [y0, y0 + L::kBandRows) of the chunk
 * of warp @segment (chunks from @chunk0) of its row to @sum and @sum_sq,
 * or to @hist; with tiles, to the tiles of @sink. */
template <SharpnessMetric M, class L, int kMode>
__device__ __forceinline__ void
band_sums (const SharpnessPlane & p, SampleShifts sh, const Bounds & bd,
    int chunk0, int segment, int y0, int lane, unsigned long long &sum,
    unsigned long long &sum_sq, unsigned *hist, TileSink & sink)
{
  using W = typename Metric < M >::Window;
  constexpr int N = L::kPixels;
  const int x0 = (chunk0 + segment * 32 + lane) * N;
  /* Pixels [ilo, ihi) of the chunk have their window inside the rectangle
   * (rows are checked row by row). */
  const int ilo = max (bd.x0 + W::kLeft - x0, 0);
  const int ihi = min (bd.x1 - W::kRight - x0, N);
  unsigned s = 0, s2 = 0;

  static_assert (2080800ull * N * L::kBandRows < (1ull << 32),
      "a band's sum of the largest term fits in 32 bits");
  /* The fast tile path adds the bands of a tile's lanes in 32 bits. */
  static_assert (2080800ull * N * L::kBandRows * 32 < (1ull << 32),
      "a warp's band sum of the largest term fits in 32 bits");

  bool row_cross = false;
  if constexpr (kMode == kFastTiles) {
    sink.hi = sink.hi2 = sink.top = sink.top_hi = sink.top2 = sink.top_hi2 =
        0;
    /* No tiles: nothing splits, every row counts as "top". */
    sink.split = 32 * 1024;
    sink.row_split = INT_MAX;
    if (sink.on) {
      /* sharpness_tile_of() and the tile starts in 32 bits: the fast path
       * is only taken for regions below kFastTileSide pixels a side, where
       * (x + 1) * parts cannot wrap (64-bit divisions are a software
       * routine, four of them per item cost a quarter of a band's terms). */
      const unsigned w = bd.x1 - bd.x0, h = bd.y1 - bd.y0;
      const unsigned cols = sink.cols, rows = sink.rows;
      const unsigned xr = min (max (x0, bd.x0), bd.x1 - 1) - bd.x0;
      const unsigned tc = ((xr + 1) * cols - 1) / w;
      const unsigned tr = (((unsigned) (y0 - bd.y0) + 1) * rows - 1) / h;
      if (tc + 1 < cols) {
        const int next = bd.x0 + (int) ((tc + 1) * w / cols);
        sink.split = min (max (next - x0, 0), N);
        /* A lane with no boundary in its chunk: nothing is "after". */
        if (sink.split == N)
          sink.split = 32 * 1024;
      }
      if (tr + 1 < rows) {
        sink.row_split = bd.y0 + (int) ((tr + 1) * h / rows);
        row_cross = sink.row_split < y0 + L::kBandRows;
      }
      sink.tile = sink.tile0 + (int) (tr * cols + tc);
    }
  }

  if constexpr (kMode == kFastTiles && M != SHARPNESS_METRIC_ENTROPY) {
    /* The per-term column split only where a chunk of the warp crosses a
     * tile column (entropy splits per pixel anyway). */
    if (__any_sync (kFullMask, sink.split < 32 * 1024))
      band_terms < M, L, kFastTiles > (p, sh, bd, chunk0, segment, x0, y0,
          lane, ilo, ihi, s, s2, hist, sink);
    else
      band_terms < M, L, kRowTiles > (p, sh, bd, chunk0, segment, x0, y0,
          lane, ilo, ihi, s, s2, hist, sink);
  } else {
    band_terms < M, L, kMode > (p, sh, bd, chunk0, segment, x0, y0, lane,
        ilo, ihi, s, s2, hist, sink);
  }

  if constexpr (kMode == kFastTiles && M != SHARPNESS_METRIC_ENTROPY) {
    if (sink.on)
      tile_band_done < M == SHARPNESS_METRIC_VARIANCE > (sink, lane,
          row_cross, s, s2);
  }
  sum += s;
  sum_sq += s2;
}

/* How long a warp waits for a band of an arriving plane before it gives
 * up (the frame then fails, the stream goes on): far beyond any copy. */
constexpr unsigned long long kArrivalTimeoutNs = 1000000000ull;

/* Waits until rows 0 .. @last_row of an arriving plane are in device
 * memory (every lane of a warp, with the same values).  The flag is read
 * with acquire semantics: the rows written before it are visible after.
 * The rows are read only after this, so no cache holds them stale (the
 * kernel has never loaded them), which is what lets the band loads keep
 * the read-only path.  FALSE after kArrivalTimeoutNs. */
__device__ __forceinline__ bool
wait_rows (const SharpnessCudaArrival & a, int last_row)
{
  const int need = last_row / a.rows + 1;
  unsigned long long start = 0;

  for (;;) {
    unsigned v;
    asm volatile ("ld.acquire.gpu.global.u32 %0, [%1];":"=r" (v):"l" (a.flag)
        :"memory");
    if ((int) (v - a.base) >= need)
      return true;
    unsigned long long now;
    asm volatile ("mov.u64 %0, %%globaltimer;":"=l" (now));
    if (start == 0)
      start = now;
    else if (now - start > kArrivalTimeoutNs)
      return false;
    __nanosleep (200);
  }
}

/* The content luma mode of a plane that layout L reads on its fast path
 * (the same conditions: Y8 or Y16LE samples, natural pixel stride,
 * 16-byte aligned rows): a content kernel compiles only that path. */
template <class L>
constexpr int
content_luma_mode ()
{
  return L::kSamples == SHARPNESS_SAMPLES_Y16LE && L::kPixelStride == 2 ?
      content::kLumaFast16 : L::kSamples == SHARPNESS_SAMPLES_Y8 &&
      L::kPixelStride == 1 ? content::kLumaFast : content::kLumaNone;
}

/* The plain launch's work, for every thread of the grid: the metric's
 * items over @plane and, with kContent, then the frame's content items
 * (content.cuh), both ended by the metric's ticket. */
template <SharpnessMetric M, class L, bool kContent, bool kEdges = true>
__device__ __forceinline__ void
classical_frame (const SharpnessPlane & plane, int segments, int items,
    SharpnessCudaAccum * accum, SharpnessCudaResult * result,
    unsigned long long seq, const SharpnessCudaArrival & arrival,
    const content::Launch * cl)
{
  using W = typename Metric < M >::Window;
  constexpr bool kHist = M == SHARPNESS_METRIC_ENTROPY;
  __shared__ unsigned hist[kHist ? 256 : 1];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const SampleShifts sh = sample_shifts (plane);
  const Bounds bd = { 0, plane.width, 0, plane.height };
  TileSink none;                /* unused: kNoTiles */
  unsigned long long sum = 0, sum_sq = 0;
  unsigned long long count[content::kCounts] = { };

  if constexpr (kHist) {
    for (int k = threadIdx.x; k < 256; k += kBlockThreads)
      hist[k] = 0;
    __syncthreads ();
  }

  /* Items go band by band down the plane, so with an arriving plane the
   * warps work on the bands already there while the rest is copied.  The
   * content items come after the metric's bands, each on a warp of its
   * own: pairing metric band u with content luma item u on one warp (the
   * same bytes, from cache the second time) measured slower, the launch
   * being bound by each warp's chain of loads rather than by DRAM.  Two
   * loops over the one sequence of items, so that neither kind's
   * registers hold the other's sums. */
  const int stride = gridDim.x * kBlockWarps;
  int item = blockIdx.x * kBlockWarps + warp;
  for (; item < items; item += stride) {
    const int segment = item % segments, band = item / segments;
    if (!kContent && arrival.flag && !wait_rows (arrival,
            min ((band + 1) * L::kBandRows - 1 + W::kBelow,
                plane.height - 1))) {
      /* The launch reports no result: the host sees @late. */
      if (lane == 0)
        result->late = 1;
      break;
    }
    band_sums < M, L, kNoTiles > (plane, sh, bd, 0, segment,
        band * L::kBandRows, lane, sum, sum_sq, hist, none);
  }
  if constexpr (kContent) {
    for (; item < items + cl->items; item += stride)
      content::run_item < content_luma_mode < L > (), kEdges > (*cl,
          item - items, lane, count);
  }

  /* One ending for both: the content's counts ride along with the
   * metric's ticket, each with a packed ticket of its own. */
  if constexpr (kContent) {
    content::Rider rider { cl };
    rider.reduce (count);
    finish_launch < kHist, M == SHARPNESS_METRIC_VARIANCE > (sum, sum_sq,
        hist, accum, result, seq, rider);
  } else {
    finish_launch < kHist, M == SHARPNESS_METRIC_VARIANCE > (sum, sum_sq,
        hist, accum, result, seq);
  }
}

template <SharpnessMetric M, class L>
__global__ void __launch_bounds__ (kBlockThreads)
classical_kernel (const __grid_constant__ SharpnessPlane plane, int segments,
    int items, SharpnessCudaAccum * accum, SharpnessCudaResult * result,
    unsigned long long seq, const SharpnessCudaArrival arrival)
{
  classical_frame < M, L, false > (plane, segments, items, accum, result,
      seq, arrival, nullptr);
}

static_assert (content::kThreads == kBlockThreads,
    "content::block_totals sums the warps of a block of the content "
    "kernel's size");

/* The frame score and the frame's content measurement in one launch and
 * one ending (SHARPNESS_CONTENT_FUSED), with or without the edges (flat
 * detection), at least kMinBlocks blocks a multiprocessor.  Without the
 * edges a luma item holds its rows and the reference's, no row below and
 * no neighbours: three blocks fit, and a 1080p frame's metric bands and
 * content items all start in the first wave.  With them an item holds
 * more, and at three blocks ptxas spills: two blocks it is. */
template <SharpnessMetric M, class L, bool kEdges, int kMinBlocks>
__global__ void __launch_bounds__ (kBlockThreads, kMinBlocks)
classical_content_kernel (const __grid_constant__ SharpnessPlane plane,
    int segments, int items, SharpnessCudaAccum * accum,
    SharpnessCudaResult * result, unsigned long long seq,
    const __grid_constant__ content::Launch cl)
{
  const SharpnessCudaArrival none = { nullptr, 0, 1 };
  classical_frame < M, L, true, kEdges > (plane, segments, items, accum,
      result, seq, none, &cl);
}

/* ---- The extended kernel: K regions, optional tiles ---- */

/* One region of an extended launch, as the kernel reads it. */
struct Region
{
  SharpnessPlane plane;         /* the plane the rectangle lies in */
  Bounds bd;                    /* the rectangle */
  int chunk0;                   /* its first chunk: bd.x0 / kPixels */
  int segments;                 /* warps per band */
  int item0;                    /* its first item in the launch */
  int cols, rows, tile0;        /* its tile grid (cols 0: none) */
  int fast;                     /* kFastTiles applies */
};

/* Regions a block adds up in shared memory (its items are consecutive, so
 * it rarely sees more); further regions go straight to global memory. */
constexpr int kSlots = 4;
constexpr int kHistSlots = 2;

struct ExtLaunch
{
  Region region0;               /* the region when n_regions is 1 ... */
  const Region *regions;        /* ... else these, in device memory */
  int n_regions, items, items_per_block, tiles, hist_tiles;
  unsigned *blocks_done;
  unsigned long long *packed;
  SharpnessCudaRegionSums *accum;
  unsigned long long *tile_sum, *tile_sq;
  unsigned *tile_hist;
  unsigned long long *seq_out;
  SharpnessCudaRegionSums *result;
  unsigned long long *result_tile_sum, *result_tile_sq;
  unsigned *result_tile_hist;
  unsigned long long seq;
};

__device__ __forceinline__ const Region &
region_at (const ExtLaunch & l, int i)
{
  return l.n_regions == 1 ? l.region0 : l.regions[i];
}

/* The region holding @item: the last one starting at or before it. */
__device__ __forceinline__ int
region_of (const ExtLaunch & l, int item)
{
  int lo = 0, hi = l.n_regions - 1;
  while (lo < hi) {
    const int mid = (lo + hi + 1) / 2;
    if (region_at (l, mid).item0 <= item)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

/* A warp's sums of region @ri into the block's slot or the region's
 * accumulator. */
template <bool kSq>
__device__ __forceinline__ void
flush_region (const ExtLaunch & l, int ri, int slot, int lane,
    unsigned long long sum, unsigned long long sum_sq,
    unsigned long long *slot_sum, unsigned long long *slot_sq)
{
#pragma unroll
  for (int off = 16; off > 0; off >>= 1) {
    sum += __shfl_down_sync (kFullMask, sum, off);
    if constexpr (kSq)
      sum_sq += __shfl_down_sync (kFullMask, sum_sq, off);
  }
  if (lane != 0)
    return;
  if (slot < kSlots) {
    if (sum)
      atomicAdd (&slot_sum[slot], sum);
    if (kSq && sum_sq)
      atomicAdd (&slot_sq[slot], sum_sq);
  } else {
    if (sum)
      atomicAdd (&l.accum[ri].sum, sum);
    if (kSq && sum_sq)
      atomicAdd (&l.accum[ri].sum_sq, sum_sq);
  }
}

template <SharpnessMetric M, class L>
__global__ void __launch_bounds__ (kBlockThreads)
classical_ext_kernel (const __grid_constant__ ExtLaunch launch)
{
  constexpr bool kHist = M == SHARPNESS_METRIC_ENTROPY;
  constexpr bool kSq = M == SHARPNESS_METRIC_VARIANCE;
  __shared__ unsigned hist[kHist ? kHistSlots * 256 : 1];
  __shared__ unsigned long long slot_sum[kSlots], slot_sq[kSlots];
  const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
  const int begin = blockIdx.x * launch.items_per_block;
  const int end = min (begin + launch.items_per_block, launch.items);

  if constexpr (kHist) {
    for (int k = tid; k < kHistSlots * 256; k += kBlockThreads)
      hist[k] = 0;
  }
  if (tid < kSlots)
    slot_sum[tid] = slot_sq[tid] = 0;
  __syncthreads ();

  /* The block's items are consecutive: its regions are r0, r0 + 1, ... */
  const int r0 = begin < end ? region_of (launch, begin) : 0;
  int cur = r0;
  unsigned long long sum = 0, sum_sq = 0;

  for (int item = begin + warp; item < end; item += kBlockWarps) {
    int ri = cur;
    while (ri + 1 < launch.n_regions && item >= region_at (launch,
            ri + 1).item0)
      ri++;
    if (ri != cur) {
      if constexpr (!kHist)
        flush_region < kSq > (launch, cur, cur - r0, lane, sum, sum_sq,
            slot_sum, slot_sq);
      sum = sum_sq = 0;
      cur = ri;
    }
    const Region & rg = region_at (launch, ri);
    const int local = item - rg.item0;
    const int segment = local % rg.segments, band = local / rg.segments;
    const int y0 = rg.bd.y0 + band * L::kBandRows;
    TileSink sink;
    sink.on = rg.cols > 0;
    sink.cols = rg.cols;
    sink.rows = rg.rows;
    sink.tile0 = rg.tile0;
    sink.region = rg.bd;
    sink.hist = kHist && ri - r0 < kHistSlots ? hist + (ri - r0) * 256 :
        nullptr;
    sink.ghist = launch.accum[ri].hist;
    sink.tile_sum = launch.tile_sum;
    sink.tile_sq = launch.tile_sq;
    sink.tile_hist = launch.tile_hist;
    const SampleShifts sh = sample_shifts (rg.plane);
    if (rg.fast)
      band_sums < M, L, kFastTiles > (rg.plane, sh, rg.bd, rg.chunk0, segment,
          y0, lane, sum, sum_sq, sink.hist, sink);
    else
      band_sums < M, L, kSlowTiles > (rg.plane, sh, rg.bd, rg.chunk0, segment,
          y0, lane, sum, sum_sq, sink.hist, sink);
  }
  if constexpr (!kHist && !kSq) {
    /* A frame's tiles (one region, one sum): the packed ending.  The same
     * for the whole grid, so no barrier is skipped by part of a block. */
    if (launch.n_regions == 1) {
      finish_ext_packed (sum, launch.packed, launch.tiles, launch.tile_sum,
          launch.result_tile_sum, launch.result, launch.seq_out, launch.seq);
      return;
    }
  }
  if constexpr (!kHist)
    flush_region < kSq > (launch, cur, cur - r0, lane, sum, sum_sq, slot_sum,
        slot_sq);

  /* The block's slots into the regions' accumulators. */
  __syncthreads ();
  if (begin < end) {
    if (tid < kSlots && r0 + tid < launch.n_regions) {
      if (slot_sum[tid])
        atomicAdd (&launch.accum[r0 + tid].sum, slot_sum[tid]);
      if (kSq && slot_sq[tid])
        atomicAdd (&launch.accum[r0 + tid].sum_sq, slot_sq[tid]);
    }
    if constexpr (kHist) {
      for (int k = tid; k < kHistSlots * 256; k += kBlockThreads)
        if (hist[k] && r0 + k / 256 < launch.n_regions)
          atomicAdd (&launch.accum[r0 + k / 256].hist[k % 256],
              (unsigned long long) hist[k]);
    }
  }

  finish_ext < kHist, kSq > (launch.n_regions, launch.tiles,
      launch.hist_tiles, launch.blocks_done, launch.accum, launch.tile_sum,
      launch.tile_sq, launch.tile_hist, launch.result,
      launch.result_tile_sum, launch.result_tile_sq, launch.result_tile_hist,
      launch.seq_out, launch.seq);
}

using Kernel = void (*)(const SharpnessPlane, int, int, SharpnessCudaAccum *,
    SharpnessCudaResult *, unsigned long long, const SharpnessCudaArrival);
using ExtKernel = void (*)(const ExtLaunch);
using ContentKernel = void (*)(const SharpnessPlane, int, int,
    SharpnessCudaAccum *, SharpnessCudaResult *, unsigned long long,
    const content::Launch);

/* The generic path reads every pixel through sharpness_plane_gray_at(),
 * which switches on the plane's samples at run time: its kernel does not
 * depend on the layout's samples, so one serves Y8, Y16LE and RGB8 (it
 * was three identical instantiations per metric). */
using GenericLayout = Layout < SHARPNESS_SAMPLES_Y8, 0 >;

using LayoutY8 = Layout < SHARPNESS_SAMPLES_Y8, 1 >;
using LayoutPacked422 = Layout < SHARPNESS_SAMPLES_Y8, 2 >;
using LayoutY16 = Layout < SHARPNESS_SAMPLES_Y16LE, 2 >;
using LayoutV210 = Layout < SHARPNESS_SAMPLES_V210,
    SHARPNESS_V210_GROUP_BYTES >;
using LayoutRgb3 = Layout < SHARPNESS_SAMPLES_RGB8, 3 >;
using LayoutRgb4 = Layout < SHARPNESS_SAMPLES_RGB8, 4 >;

template <SharpnessMetric M>
struct Kernels
{
  static constexpr Kernel kList[SHARPNESS_CUDA_CLASSICAL_VARIANTS] = {
    classical_kernel < M, LayoutY8 >,
    classical_kernel < M, LayoutPacked422 >,
    classical_kernel < M, LayoutY16 >,
    classical_kernel < M, LayoutV210 >,
    classical_kernel < M, LayoutRgb3 >,
    classical_kernel < M, LayoutRgb4 >,
    classical_kernel < M, GenericLayout >,
  };
  static constexpr ExtKernel kExt[SHARPNESS_CUDA_CLASSICAL_VARIANTS] = {
    classical_ext_kernel < M, LayoutY8 >,
    classical_ext_kernel < M, LayoutPacked422 >,
    classical_ext_kernel < M, LayoutY16 >,
    classical_ext_kernel < M, LayoutV210 >,
    classical_ext_kernel < M, LayoutRgb3 >,
    classical_ext_kernel < M, LayoutRgb4 >,
    classical_ext_kernel < M, GenericLayout >,
  };
  /* Where variant_fuses_content: without the edges, with them. */
  static constexpr ContentKernel
      kContent[2][SHARPNESS_CUDA_CLASSICAL_VARIANTS] = {
    {
      classical_content_kernel < M, LayoutY8, false, 3 >, nullptr,
      classical_content_kernel < M, LayoutY16, false, 3 >, nullptr, nullptr,
      nullptr, nullptr,
    }, {
      classical_content_kernel < M, LayoutY8, true, 2 >, nullptr,
      classical_content_kernel < M, LayoutY16, true, 2 >, nullptr, nullptr,
      nullptr, nullptr,
    },
  };
};

/* What the host needs of each variant's layout: chunk width and band
 * height for its grid, and the content luma mode its content kernels
 * compile. */
struct VariantShape
{
  int pixels, band_rows, content_luma;
};

template <class L>
constexpr VariantShape
shape_of ()
{
  return VariantShape { L::kPixels, L::kBandRows, content_luma_mode < L > () };
}

constexpr VariantShape kVariantShapes[SHARPNESS_CUDA_CLASSICAL_VARIANTS] = {
  shape_of < LayoutY8 > (),
  shape_of < LayoutPacked422 > (),
  shape_of < LayoutY16 > (),
  shape_of < LayoutV210 > (),
  shape_of < LayoutRgb3 > (),
  shape_of < LayoutRgb4 > (),
  shape_of < GenericLayout > (),
};

template <SharpnessMetric M>
static SharpnessStatus
classical_init (SharpnessCuda * cuda)
{
  for (int v = 0; v < SHARPNESS_CUDA_CLASSICAL_VARIANTS; v++) {
    int *blocks = &cuda->classical_blocks_per_sm[M][v];
    int *ext_blocks = &cuda->classical_ext_blocks_per_sm[M][v];
    SharpnessStatus st = sharpness_cuda_check (cuda,
        cudaOccupancyMaxActiveBlocksPerMultiprocessor (blocks,
            Kernels < M >::kList[v], kBlockThreads, 0),
        "classical kernel occupancy");
    if (st == SHARPNESS_OK)
      st = sharpness_cuda_check (cuda,
          cudaOccupancyMaxActiveBlocksPerMultiprocessor (ext_blocks,
              Kernels < M >::kExt[v], kBlockThreads, 0),
          "classical tile kernel occupancy");
    int *content_blocks = cuda->classical_content_blocks_per_sm[M][v];
    bool content_fits = true;
    for (int e = 0; e < 2; e++) {
      content_blocks[e] = 0;
      if (st == SHARPNESS_OK && Kernels < M >::kContent[e][v]) {
        st = sharpness_cuda_check (cuda,
            cudaOccupancyMaxActiveBlocksPerMultiprocessor (&content_blocks[e],
                Kernels < M >::kContent[e][v], kBlockThreads, 0),
            "classical content kernel occupancy");
        content_fits = content_fits && content_blocks[e] >= 1;
      }
    }
    if (st != SHARPNESS_OK)
      return st;
    if (*blocks < 1 || *ext_blocks < 1 || !content_fits) {
      snprintf (cuda->error, sizeof cuda->error,
          "%s kernel cannot run on this device", sharpness_metric_info[M].nick);
      return SHARPNESS_ERROR_DEVICE;
    }
  }
  return SHARPNESS_OK;
}

/* The plain launch over @plane (with @arrival: a host plane whose rows
 * are still being copied, read band by band as they come). */
template <SharpnessMetric M>
static SharpnessStatus
classical_launch (SharpnessCuda * cuda, const SharpnessPlane * plane,
    const SharpnessCudaArrival * arrival, SharpnessSums * sums)
{
  const int v = variant_of (plane);
  if (v < 0)
    return SHARPNESS_ERROR_INVALID;

  /* Packed single sums (launch-sums.cuh) hold up to 2^53 - 1: with terms
   * below 2^21, frames up to 2^32 pixels. */
  if ((unsigned long long) plane->width * plane->height > (1ull << 32))
    return SHARPNESS_ERROR_UNSUPPORTED;

  const VariantShape shape = kVariantShapes[v];
  const int chunks = (plane->width + shape.pixels - 1) / shape.pixels;
  const int segments = (chunks + 31) / 32;
  const int bands = (plane->height + shape.band_rows - 1) / shape.band_rows;
  const long long items = (long long) segments * bands;
  if (items > INT_MAX / 2)
    return SHARPNESS_ERROR_UNSUPPORTED;
  /* A frame's content measurement prepared to go with it (FUSED). */
  const content::Launch *cl = arrival || !Kernels < M >::kContent[0][v] ?
      nullptr : sharpness_cuda_content_prepared (cuda);
  /* Its kernel runs the luma items of this variant's mode only. */
  if (cl && cl->luma_items > 0 && cl->luma_mode != shape.content_luma)
    cl = nullptr;
  const int edges = cl && cl->structure ? 1 : 0;
  const long long total = items + (cl ? cl->items : 0);
  long long blocks = (total + kBlockWarps - 1) / kBlockWarps;
  const long long resident = (long long) cuda->sm_count * (cl ?
      cuda->classical_content_blocks_per_sm[M][v][edges] :
      cuda->classical_blocks_per_sm[M][v]);
  blocks = blocks < resident ? blocks : resident;
  blocks = blocks < kMaxBlocks ? blocks : kMaxBlocks;

  const unsigned long long seq = ++cuda->seq;
  char what[64];
  snprintf (what, sizeof what, "%s kernel launch",
      sharpness_metric_info[M].nick);
  SharpnessCudaArrival none = { nullptr, 0, 1 };
  if (arrival)
    cuda->result->late = 0;
  if (cl)
    Kernels < M >::kContent[edges][v] <<< (int) blocks, kBlockThreads, 0,
        cuda->stream >>> (*plane, segments, (int) items, cuda->accum,
        cuda->result_dev, seq, *cl);
  else
    Kernels < M >::kList[v] <<< (int) blocks, kBlockThreads, 0,
        cuda->stream >>> (*plane, segments, (int) items, cuda->accum,
        cuda->result_dev, seq, arrival ? *arrival : none);
  SharpnessStatus st = sharpness_cuda_check (cuda, cudaGetLastError (), what);
  if (st != SHARPNESS_OK)
    return st;
  if (cl)
    sharpness_cuda_content_taken (cuda);
  snprintf (what, sizeof what, "%s kernel", sharpness_metric_info[M].nick);
  st = sharpness_cuda_check (cuda, cudaStreamSynchronize (cuda->stream), what);
  if (st != SHARPNESS_OK)
    return st;

  /* Written by the launch's last block into mapped memory. */
  const SharpnessCudaResult *r = cuda->result;
  if (arrival && r->late) {
    snprintf (cuda->error, sizeof cuda->error,
        "%s: the plane's rows did not arrive within %llu ms", what,
        kArrivalTimeoutNs / 1000000ull);
    return SHARPNESS_ERROR_DEVICE;
  }
  if (r->seq != seq) {
    snprintf (cuda->error, sizeof cuda->error,
        "%s: the kernel finished without writing its result", what);
    return SHARPNESS_ERROR_DEVICE;
  }
  if constexpr (M == SHARPNESS_METRIC_ENTROPY) {
    for (int k = 0; k < 256; k++)
      sums->hist[k] = r->hist[k];
  } else {
    sums->sum = r->sum;
    if constexpr (M == SHARPNESS_METRIC_VARIANCE)
      sums->sum_sq = r->sum_sq;
  }
  return SHARPNESS_OK;
}

template <SharpnessMetric M>
static SharpnessStatus
classical_sums (SharpnessCuda * cuda, void *, const SharpnessPlane * plane,
    SharpnessSums * sums)
{
  return classical_launch < M > (cuda, plane, nullptr, sums);
}

template <SharpnessMetric M>
static SharpnessStatus
classical_sums_arriving (SharpnessCuda * cuda, const SharpnessPlane * plane,
    const SharpnessCudaArrival * arrival, SharpnessSums * sums)
{
  return classical_launch < M > (cuda, plane, arrival, sums);
}

/* One extended launch over the regions of @regions whose planes have
 * variant @v (checked by sharpness_cuda_sums_batch). */
template <SharpnessMetric M>
static SharpnessStatus
classical_batch_variant (SharpnessCuda * cuda, const SharpnessRegion * regions,
    int n, SharpnessSums * sums, int v)
{
  constexpr bool kHist = M == SHARPNESS_METRIC_ENTROPY;
  const VariantShape shape = kVariantShapes[v];
  int k = 0;
  long long tiles = 0;

  for (int i = 0; i < n; i++) {
    if (variant_of (&regions[i].plane) != v)
      continue;
    k++;
    if (regions[i].tiles)
      tiles += (long long) regions[i].tiles->cols * regions[i].tiles->rows;
  }
  if (tiles > INT_MAX / 256)
    return SHARPNESS_ERROR_UNSUPPORTED;
  SharpnessStatus st = sharpness_cuda_ext_reserve (cuda, k, (int) tiles,
      kHist ? (int) tiles : 0, sizeof (Region));
  if (st != SHARPNESS_OK)
    return st;

  SharpnessCudaExt *ext = &cuda->ext;
  Region *desc = (Region *) ext->desc_host;
  long long items = 0;
  int j = 0, tile = 0;
  for (int i = 0; i < n; i++) {
    if (variant_of (&regions[i].plane) != v)
      continue;
    SharpnessRect rect;
    sharpness_region_rect (&regions[i], &rect);
    Region & d = desc[j++];
    memset (&d, 0, sizeof d);
    d.plane = regions[i].plane;
    d.bd = Bounds { rect.x, rect.x + rect.width, rect.y,
        rect.y + rect.height };
    d.chunk0 = rect.x / shape.pixels;
    const int chunk_end = (rect.x + rect.width + shape.pixels - 1) /
        shape.pixels;
    d.segments = (chunk_end - d.chunk0 + 31) / 32;
    const int bands = (rect.height + shape.band_rows - 1) / shape.band_rows;
    d.item0 = (int) (items < INT_MAX ? items : INT_MAX);
    items += (long long) d.segments * bands;
    d.fast = 1;
    if (regions[i].tiles) {
      d.cols = regions[i].tiles->cols;
      d.rows = regions[i].tiles->rows;
      d.tile0 = tile;
      tile += d.cols * d.rows;
      d.fast = rect.width / d.cols >= shape.pixels &&
          rect.height / d.rows >= shape.band_rows &&
          rect.width < kFastTileSide && rect.height < kFastTileSide;
    }
  }
  if (items > INT_MAX / 2)
    return SHARPNESS_ERROR_UNSUPPORTED;

  /* Consecutive items per block, so that a block sees few regions. */
  long long blocks = (items + kBlockWarps - 1) / kBlockWarps;
  const long long resident =
      (long long) cuda->sm_count * cuda->classical_ext_blocks_per_sm[M][v];
  blocks = blocks < resident ? blocks : resident;
  const int per_block = (int) ((items + blocks - 1) / blocks);
  blocks = (items + per_block - 1) / per_block;

  ExtLaunch launch;
  memset (&launch, 0, sizeof launch);
  /* One region travels in the parameters; more are copied up: passing
   * many inline slowed every launch more than the copy costs, and the
   * tiles of one frame matter most (docs/reference/tiles.md). */
  launch.region0 = desc[0];
  launch.regions = (const Region *) ext->desc_dev;
  launch.n_regions = k;
  launch.items = (int) items;
  launch.items_per_block = per_block;
  launch.tiles = tile;
  launch.hist_tiles = kHist ? tile : 0;
  launch.blocks_done = ext->blocks_done;
  launch.packed = ext->packed;
  launch.accum = ext->accum;
  launch.tile_sum = ext->tile_sum;
  launch.tile_sq = ext->tile_sq;
  launch.tile_hist = ext->tile_hist;
  launch.seq_out = ext->seq_dev;
  launch.result = ext->result_dev;
  launch.result_tile_sum = ext->result_tile_sum_dev;
  launch.result_tile_sq = ext->result_tile_sq_dev;
  launch.result_tile_hist = ext->result_tile_hist_dev;
  launch.seq = ++cuda->seq;

  char what[64];
  if (k > 1) {
    snprintf (what, sizeof what, "%s region upload",
        sharpness_metric_info[M].nick);
    st = sharpness_cuda_check (cuda, cudaMemcpyAsync (ext->desc_dev, desc,
            sizeof (Region) * k, cudaMemcpyHostToDevice, cuda->stream), what);
    if (st != SHARPNESS_OK)
      return st;
  }
  snprintf (what, sizeof what, "%s tile kernel launch",
      sharpness_metric_info[M].nick);
  Kernels < M >::kExt[v] <<< (int) blocks, kBlockThreads, 0,
      cuda->stream >>> (launch);
  st = sharpness_cuda_check (cuda, cudaGetLastError (), what);
  if (st != SHARPNESS_OK)
    return st;
  snprintf (what, sizeof what, "%s tile kernel",
      sharpness_metric_info[M].nick);
  st = sharpness_cuda_check (cuda, cudaStreamSynchronize (cuda->stream), what);
  if (st != SHARPNESS_OK)
    return st;
  if (*ext->seq != launch.seq) {
    snprintf (cuda->error, sizeof cuda->error,
        "%s: the kernel finished without writing its result", what);
    return SHARPNESS_ERROR_DEVICE;
  }

  j = 0;
  for (int i = 0; i < n; i++) {
    if (variant_of (&regions[i].plane) != v)
      continue;
    const SharpnessCudaRegionSums *r = &ext->result[j];
    if constexpr (kHist) {
      for (int b = 0; b < 256; b++)
        sums[i].hist[b] = r->hist[b];
    } else {
      sums[i].sum = r->sum;
      if constexpr (M == SHARPNESS_METRIC_VARIANCE)
        sums[i].sum_sq = r->sum_sq;
    }
    SharpnessTileSums *t = regions[i].tiles;
    if (t) {
      const size_t nt = (size_t) t->cols * t->rows;
      const int t0 = desc[j].tile0;
      if constexpr (kHist) {
        memcpy (t->hist, ext->result_tile_hist + (size_t) t0 * 256,
            nt * 256 * sizeof *t->hist);
      } else {
        memcpy (t->sum, ext->result_tile_sum + t0, nt * sizeof *t->sum);
        if constexpr (M == SHARPNESS_METRIC_VARIANCE)
          memcpy (t->sum_sq, ext->result_tile_sq + t0,
              nt * sizeof *t->sum_sq);
      }
    }
    j++;
  }
  return SHARPNESS_OK;
}

/* Tiles and batches: one extended launch per sample-layout variant among
 * the regions (one for the ROIs of a frame or frames of one format). */
template <SharpnessMetric M>
static SharpnessStatus
classical_batch (SharpnessCuda * cuda, const SharpnessRegion * regions, int n,
    SharpnessSums * sums)
{
  bool present[SHARPNESS_CUDA_CLASSICAL_VARIANTS] = { };
  for (int i = 0; i < n; i++) {
    const int v = variant_of (&regions[i].plane);
    if (v < 0)
      return SHARPNESS_ERROR_INVALID;
    present[v] = true;
  }
  for (int v = 0; v < SHARPNESS_CUDA_CLASSICAL_VARIANTS; v++) {
    if (!present[v])
      continue;
    SharpnessStatus st = classical_batch_variant < M > (cuda, regions, n,
        sums, v);
    if (st != SHARPNESS_OK)
      return st;
  }
  return SHARPNESS_OK;
}

}  /* namespace sharpness_cuda */

/* Defines the descriptor sharpness_cuda_metric_<sym> of the classical
 * metric SHARPNESS_METRIC_<ID>: its kernels are instantiated in the file
 * that expands this, after its Metric<> specialisation. */
#define SHARPNESS_CUDA_CLASSICAL_METRIC(ID, sym) \
  SHARPNESS_CUDA_BATCH_METRIC (ID, sym, \
      sharpness_cuda::classical_init < SHARPNESS_METRIC_##ID >, nullptr, \
      nullptr, sharpness_cuda::classical_sums < SHARPNESS_METRIC_##ID >, \
      sharpness_cuda::classical_batch < SHARPNESS_METRIC_##ID >, \
      sharpness_cuda::classical_sums_arriving < SHARPNESS_METRIC_##ID >)

#endif /* SHARPNESS_CLASSICAL_CUH */
