/* VMAF's VIF on the GPU, as cpu/compare/vmaf-vif.c: per scale, a tile's
 * samples (mirrored at the edges) in shared memory, the vertical pass of
 * the five filtered quantities over the tile and its margins, then the
 * horizontal pass and each pixel's information terms; the tile's four
 * integer sums added atomically (any order, the same sums).  The next
 * scale: the filter at every other row and column.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The fixed-point definition follows libvmaf 3.0.0's integer_vif.c
 * (BSD-2-Clause-Patent, Copyright 2016-2020 Netflix, Inc.), as the CPU
 * extractor does; its double steps are written in the CPU's order and
 * built with -fmad=false (no fused multiply-add), so they round alike.
 */
#include <cub/block/block_reduce.cuh>

#include "compare-vmaf-private.cuh"

namespace compare_vmaf_cuda
{
namespace
{

constexpr int kTileW = 32, kTileH = kThreads / 32;
constexpr int kSigmaNsq = 65536 << 1;

/* The Gaussian filters of the four scales (sum 65536 each). */
__constant__ uint16_t vif_filter_17[17] = { 489, 935, 1640, 2640, 3896, 5274,
  6547, 7455, 7784, 7455, 6547, 5274, 3896, 2640, 1640, 935, 489
};
__constant__ uint16_t vif_filter_9[9] = { 1244, 3663, 7925, 12590, 14692,
  12590, 7925, 3663, 1244
};
__constant__ uint16_t vif_filter_5[5] = { 3571, 16004, 26386, 16004, 3571 };
__constant__ uint16_t vif_filter_3[3] = { 10904, 43728, 10904 };

template < int TAPS > __device__ __forceinline__ uint16_t
filt (int k)
{
  if (TAPS == 17)
    return vif_filter_17[k];
  if (TAPS == 9)
    return vif_filter_9[k];
  if (TAPS == 5)
    return vif_filter_5[k];
  return vif_filter_3[k];
}

/* -k is k, (n - 1) + k is (n - 1) - k; clamped for the parts of a tile
 * outside the frame, whose values no pixel uses. */
__device__ __forceinline__ int
vif_mirror (int i, int n)
{
  if (i < 0)
    i = -i;
  if (i >= n)
    i = 2 * (n - 1) - i;
  return i < 0 ? 0 : (i >= n ? n - 1 : i);
}

__device__ __forceinline__ int32_t
log2_32 (const uint16_t * table, uint32_t v)
{
  const int k = 16 - __clz (v);

  return table[v >> k] + 2048 * k;
}

__device__ __forceinline__ int32_t
log2_64 (const uint16_t * table, uint64_t v)
{
  const int k = 48 - __clzll (v);

  return table[v >> k] + 2048 * k;
}

/* The statistics' shifts of a scale (vif_statistic's). */
struct VifShifts
{
  int shift_vp, shift_vp_sq;
  uint32_t add_vp;
  uint64_t add_vp_sq;
};

struct VifSets
{
  int n;
  double egl[kSets];
};

/* One tile of kTileW x kTileH pixels of one scale: its four sums for each
 * gain-limit set, added to @sums (the scale's row of each set). */
template < int TAPS > __global__ void
__launch_bounds__ (kThreads)
vif_statistic (Src ref, Src dis, int w, int h, VifShifts sh, VifSets sets,
    const uint16_t * log2_table, long long (*sums)[kScales][4], int scale)
{
  constexpr int H = TAPS / 2;
  constexpr int CW = kTileW + 2 * H;            /* columns with margins */
  constexpr int RH = kTileH + 2 * H;            /* rows with margins */
  using Reduce = cub::BlockReduce < long long, kThreads >;
  __shared__ uint16_t in_ref[RH][CW], in_dis[RH][CW];
  __shared__ uint32_t v_mu1[kTileH][CW], v_mu2[kTileH][CW];
  __shared__ uint32_t v_ref[kTileH][CW], v_dis[kTileH][CW];
  __shared__ uint32_t v_rd[kTileH][CW];
  __shared__ typename Reduce::TempStorage tmp;
  const int x0 = blockIdx.x * kTileW, y0 = blockIdx.y * kTileH;

  for (int t = threadIdx.x; t < RH * CW; t += kThreads) {
    const int r = t / CW, c = t % CW;
    const int y = vif_mirror (y0 - H + r, h), x = vif_mirror (x0 - H + c, w);

    in_ref[r][c] = load (ref, x, y);
    in_dis[r][c] = load (dis, x, y);
  }
  __syncthreads ();
  for (int t = threadIdx.x; t < kTileH * CW; t += kThreads) {
    const int r = t / CW, c = t % CW;
    uint32_t accum_mu1 = 0, accum_mu2 = 0;
    uint64_t accum_ref = 0, accum_dis = 0, accum_ref_dis = 0;

    for (int fi = 0; fi < TAPS; fi++) {
      const uint32_t rv = in_ref[r + fi][c], dv = in_dis[r + fi][c];
      const uint32_t cr = filt < TAPS > (fi) * rv;
      const uint32_t cd = filt < TAPS > (fi) * dv;

      accum_mu1 += cr;
      accum_mu2 += cd;
      accum_ref += cr * (uint64_t) rv;
      accum_dis += cd * (uint64_t) dv;
      accum_ref_dis += cr * (uint64_t) dv;
    }
    v_mu1[r][c] = (uint16_t) ((accum_mu1 + sh.add_vp) >> sh.shift_vp);
    v_mu2[r][c] = (uint16_t) ((accum_mu2 + sh.add_vp) >> sh.shift_vp);
    v_ref[r][c] = (uint32_t) ((accum_ref + sh.add_vp_sq) >> sh.shift_vp_sq);
    v_dis[r][c] = (uint32_t) ((accum_dis + sh.add_vp_sq) >> sh.shift_vp_sq);
    v_rd[r][c] = (uint32_t) ((accum_ref_dis + sh.add_vp_sq) >>
        sh.shift_vp_sq);
  }
  __syncthreads ();

  const int r = threadIdx.x / kTileW, c = threadIdx.x % kTileW;
  const bool inside = x0 + c < w && y0 + r < h;
  int32_t sigma1_sq = 0, sigma2_sq = 0, sigma12 = 0;

  if (inside) {
    uint32_t mu1 = 0, mu2 = 0;
    uint64_t accum_ref = 0, accum_dis = 0, accum_ref_dis = 0;

    for (int fj = 0; fj < TAPS; fj++) {
      const uint32_t f = filt < TAPS > (fj);

      mu1 += f * v_mu1[r][c + fj];
      mu2 += f * v_mu2[r][c + fj];
      accum_ref += f * (uint64_t) v_ref[r][c + fj];
      accum_dis += f * (uint64_t) v_dis[r][c + fj];
      accum_ref_dis += f * (uint64_t) v_rd[r][c + fj];
    }
    const uint32_t mu1_sq = (uint32_t) (((uint64_t) mu1 * mu1 +
            2147483648u) >> 32);
    const uint32_t mu2_sq = (uint32_t) (((uint64_t) mu2 * mu2 +
            2147483648u) >> 32);
    const uint32_t mu1_mu2 = (uint32_t) (((uint64_t) mu1 * mu2 +
            2147483648u) >> 32);
    const uint32_t xx = (uint32_t) ((accum_ref + 32768) >> 16);
    const uint32_t yy = (uint32_t) ((accum_dis + 32768) >> 16);
    const uint32_t xy = (uint32_t) ((accum_ref_dis + 32768) >> 16);

    sigma1_sq = (int32_t) (xx - mu1_sq);
    sigma2_sq = (int32_t) (yy - mu2_sq);
    sigma12 = (int32_t) (xy - mu1_mu2);
    if (sigma2_sq < 0)
      sigma2_sq = 0;
  }

  for (int k = 0; k < sets.n; k++) {
    long long num_log = 0, den_log = 0, num_non_log = 0, den_non_log = 0;

    if (inside) {
      if (sigma1_sq >= kSigmaNsq) {
        den_log = log2_32 (log2_table, kSigmaNsq + sigma1_sq) - 2048 * 17;
        if (sigma12 > 0 && sigma2_sq > 0) {
          /* The CPU's double steps, in its order. */
          const double eps = 65536 * 1.0e-10;
          double g = sigma12 / (sigma1_sq + eps);
          int32_t sv_sq = __dsub_rn (sigma2_sq, __dmul_rn (g, sigma12));

          sv_sq = (uint32_t) (sv_sq > 0 ? sv_sq : 0);
          g = g < sets.egl[k] ? g : sets.egl[k];

          const uint32_t numer1 = sv_sq + kSigmaNsq;
          const int64_t numer1_tmp = (int64_t) __dmul_rn (__dmul_rn (g, g),
              (double) sigma1_sq) + numer1;

          num_log = log2_64 (log2_table, numer1_tmp) -
              log2_64 (log2_table, numer1);
        }
      } else {
        num_non_log = sigma2_sq;
        den_non_log = 1;
      }
    }
    long long v[4] = { num_log, den_log, num_non_log, den_non_log };
    for (int q = 0; q < 4; q++) {
      const long long total = Reduce (tmp).Sum (v[q]);

      __syncthreads ();
      if (threadIdx.x == 0 && total)
        atomicAdd ((unsigned long long *) &sums[k][scale][q],
            (unsigned long long) total);
    }
  }
}

/* The next scale (@TAPS: its filter) of a w x h image: w / 2 x h / 2,
 * the vertical pass rounded to 16 bits by @add_vp, @shift_vp. */
template < int TAPS > __global__ void
__launch_bounds__ (kThreads)
vif_subsample (Src src, int w, int h, uint32_t add_vp, int shift_vp,
    uint16_t * dst)
{
  constexpr int H = TAPS / 2;
  const int w2 = w / 2, h2 = h / 2;
  const int j2 = blockIdx.x * kTileW + threadIdx.x % kTileW;
  const int i2 = blockIdx.y * kTileH + threadIdx.x / kTileW;
  uint32_t accum = 0;

  if (i2 >= h2 || j2 >= w2)
    return;
  for (int fj = 0; fj < TAPS; fj++) {
    const int x = vif_mirror (2 * j2 - H + fj, w);
    uint32_t col = 0;

    for (int fi = 0; fi < TAPS; fi++)
      col += filt < TAPS > (fi) * (uint32_t) load (src, x,
          vif_mirror (2 * i2 - H + fi, h));
    accum += filt < TAPS > (fj) * (uint32_t) (uint16_t) ((col + add_vp) >>
        shift_vp);
  }
  dst[(size_t) i2 * w2 + j2] = (uint16_t) ((accum + 32768) >> 16);
}

template < int TAPS > void
statistic (CompareVmafCuda * vc, Src ref, Src dis, int w, int h, int scale,
    int bpc, const VifSets & sets)
{
  const dim3 grid (div_up (w, kTileW), div_up (h, kTileH));
  VifShifts sh;

  if (scale == 0) {
    sh.shift_vp = bpc;
    sh.add_vp = 1u << (bpc - 1);
    sh.shift_vp_sq = (bpc - 8) * 2;
    sh.add_vp_sq = bpc == 8 ? 0 : (uint64_t) 1 << (sh.shift_vp_sq - 1);
  } else {
    sh.shift_vp = 16;
    sh.add_vp = 32768;
    sh.shift_vp_sq = 16;
    sh.add_vp_sq = 32768;
  }
  vif_statistic < TAPS > <<< grid, kThreads, 0, vc->stream >>> (ref, dis, w,
      h, sh, sets, vc->vif_log2, vc->sums->vif, scale);
}

template < int TAPS > void
subsample (CompareVmafCuda * vc, Src src, int w, int h, int next_scale,
    int bpc, uint16_t * dst)
{
  const dim3 grid (div_up (w / 2, kTileW), div_up (h / 2, kTileH));
  const bool first = next_scale == 1;

  vif_subsample < TAPS > <<< grid, kThreads, 0, vc->stream >>> (src, w, h,
      first ? 1u << (bpc - 1) : 32768u, first ? bpc : 16, dst);
}

}  // namespace
}  // namespace compare_vmaf_cuda

using namespace compare_vmaf_cuda;

void
compare_vmaf_cuda_vif (CompareVmafCuda * vc, const CompareVmafPlane * ref,
    const CompareVmafPlane * dist, int n_sets, const double *egl)
{
  const int bpc = ref->depth;
  VifSets sets;
  Src r = src_of (ref), d = src_of (dist);
  int w = ref->width, h = ref->height;

  sets.n = n_sets;
  for (int k = 0; k < n_sets; k++)
    sets.egl[k] = egl[k];
  for (int s = 0; s < kScales; s++) {
    if (s > 0) {
      uint16_t *nr = vc->b.vif_ref[s], *nd = vc->b.vif_dis[s];

      switch (s) {
        case 1:
          subsample < 9 > (vc, r, w, h, s, bpc, nr);
          subsample < 9 > (vc, d, w, h, s, bpc, nd);
          break;
        case 2:
          subsample < 5 > (vc, r, w, h, s, bpc, nr);
          subsample < 5 > (vc, d, w, h, s, bpc, nd);
          break;
        default:
          subsample < 3 > (vc, r, w, h, s, bpc, nr);
          subsample < 3 > (vc, d, w, h, s, bpc, nd);
          break;
      }
      w /= 2;
      h /= 2;
      r = src_of_u16 (nr, w);
      d = src_of_u16 (nd, w);
    }
    switch (s) {
      case 0:
        statistic < 17 > (vc, r, d, w, h, s, bpc, sets);
        break;
      case 1:
        statistic < 9 > (vc, r, d, w, h, s, bpc, sets);
        break;
      case 2:
        statistic < 5 > (vc, r, d, w, h, s, bpc, sets);
        break;
      default:
        statistic < 3 > (vc, r, d, w, h, s, bpc, sets);
        break;
    }
  }
}
