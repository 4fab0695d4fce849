/* VMAF's ADM on the GPU, as cpu/compare/vmaf-adm.c: per level, the DWT of
 * both images (int16 bands at level 0, int32 after), then for each gain
 * limit the decoupling and contrast sensitivity over the filter region,
 * and one block per scored row summing the reference's cubes and the
 * masked restored part's; the rows' sums are copied back and shifted and
 * added on the host by the CPU's code (compare_vmaf_adm_*_row), as the
 * CPU shifts each row before adding it.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The fixed-point definition follows libvmaf 3.0.0's integer_adm.c
 * (BSD-2-Clause-Patent, Copyright 2016-2020 Netflix, Inc.), as the CPU
 * extractor does: the same integer types and conversions, the float and
 * double steps of the angle test in the CPU's order (-fmad=false).  The
 * level's constants (shifts, reciprocals, cos^2 1 degree) come from the
 * CPU's compare_vmaf_adm_level, computed on the host.
 */
#include <cub/block/block_reduce.cuh>

#include "compare-vmaf-private.cuh"

namespace compare_vmaf_cuda
{
namespace
{

constexpr int kTileW = 32, kTileH = kThreads / 32;

/* Band buffers of compare-vmaf-private.cuh: ref h, v, d; dis h, v, d;
 * restored h, v, d; csf_a; csf_f. */
enum
{ kRef = 0, kDis = 3, kRst = 6, kCsfA = 9, kCsfF = 12 };

__constant__ int16_t dwt_lo[4] = { 15826, 27411, 7345, -4240 };
__constant__ int16_t dwt_hi[4] = { -4240, -7345, 27411, -15826 };

constexpr int32_t kDwtLoSum = 46342;
constexpr int32_t kOneBy15 = 8738;
constexpr int64_t kI4OneBy15 = 286331153;
/* libvmaf stores 1u << 31 in an int32_t: -2^31. */
constexpr int64_t kI4AddFlt = (int64_t) INT32_MIN;

/* The DWT's source row/column k of output i of @n samples. */
__device__ __forceinline__ int
dwt_index (int i, int k, int n)
{
  const int half = (n + 1) / 2;
  int s = 2 * i - 1 + k;

  if (i == 0)
    s = k == 0 ? 1 : (k == 1 ? 0 : (k == 2 ? 1 : 2));
  else if (i >= half - 2 && s >= n)
    s = 2 * n - s - 1;
  return s;
}

struct Bands
{
  int32_t *band[15];
  int32_t *approx_in[2], *approx_out[2];
};

/* Level 0 of image blockIdx.z (0: reference): samples to int16 bands
 * (h, v, d) and the int32 approximation band. */
__global__ void
__launch_bounds__ (kThreads)
adm_dwt0 (Src ref, Src dis, int w, int h, int bpc, Bands b)
{
  const int bw = (w + 1) / 2, bh = (h + 1) / 2;
  const int j = blockIdx.x * kTileW + threadIdx.x % kTileW;
  const int i = blockIdx.y * kTileH + threadIdx.x / kTileW;
  const int img = blockIdx.z;
  const Src src = img ? dis : ref;
  const int32_t add_vp = 1 << (bpc - 1);
  int rows[4];
  int32_t a = 0, v = 0, hh = 0, d = 0;

  if (i >= bh || j >= bw)
    return;
  for (int k = 0; k < 4; k++)
    rows[k] = dwt_index (i, k, h);
  for (int kx = 0; kx < 4; kx++) {
    const int x = dwt_index (j, kx, w);
    int32_t lo = 0, hi = 0;

    for (int k = 0; k < 4; k++) {
      const int32_t u = (int32_t) load (src, x, rows[k]);

      lo += (int32_t) dwt_lo[k] * u;
      hi += (int32_t) dwt_hi[k] * u;
    }
    /* The samples' range moved from [0, N] to [-N/2, N/2]. */
    lo -= kDwtLoSum * add_vp;
    const int16_t sl = (int16_t) ((lo + add_vp) >> bpc);
    const int16_t sh = (int16_t) ((hi + add_vp) >> bpc);

    a += (int32_t) dwt_lo[kx] * sl;
    v += (int32_t) dwt_hi[kx] * sl;
    hh += (int32_t) dwt_lo[kx] * sh;
    d += (int32_t) dwt_hi[kx] * sh;
  }
  const size_t x = (size_t) i * bw + j;
  const int base = img ? kDis : kRef;

  ((int16_t *) b.band[base + 0])[x] = (int16_t) ((hh + 32768) >> 16);
  ((int16_t *) b.band[base + 1])[x] = (int16_t) ((v + 32768) >> 16);
  ((int16_t *) b.band[base + 2])[x] = (int16_t) ((d + 32768) >> 16);
  b.approx_out[img][x] = (int16_t) ((a + 32768) >> 16);
}

/* Levels 1..3 (@s = level - 1): the int32 approximation band (w x h) of
 * image blockIdx.z to int32 bands. */
__global__ void
__launch_bounds__ (kThreads)
adm_dwt (int w, int h, int s, Bands b)
{
  const int32_t add_vp[3] = { 0, 32768, 32768 };
  const int32_t add_hp[3] = { 16384, 32768, 16384 };
  const int shift_vp[3] = { 0, 16, 16 };
  const int shift_hp[3] = { 15, 16, 15 };
  const int bw = (w + 1) / 2, bh = (h + 1) / 2;
  const int j = blockIdx.x * kTileW + threadIdx.x % kTileW;
  const int i = blockIdx.y * kTileH + threadIdx.x / kTileW;
  const int img = blockIdx.z;
  const int32_t *src = b.approx_in[img];
  int rows[4];
  int64_t a = 0, v = 0, hh = 0, d = 0;

  if (i >= bh || j >= bw)
    return;
  for (int k = 0; k < 4; k++)
    rows[k] = dwt_index (i, k, h);
  for (int kx = 0; kx < 4; kx++) {
    const int x = dwt_index (j, kx, w);
    int64_t lo = 0, hi = 0;

    for (int k = 0; k < 4; k++) {
      const int32_t u = src[(size_t) rows[k] * w + x];

      lo += (int64_t) dwt_lo[k] * u;
      hi += (int64_t) dwt_hi[k] * u;
    }
    const int32_t sl = (int32_t) ((lo + add_vp[s]) >> shift_vp[s]);
    const int32_t sh = (int32_t) ((hi + add_vp[s]) >> shift_vp[s]);

    a += (int64_t) dwt_lo[kx] * sl;
    v += (int64_t) dwt_hi[kx] * sl;
    hh += (int64_t) dwt_lo[kx] * sh;
    d += (int64_t) dwt_hi[kx] * sh;
  }
  const size_t x = (size_t) i * bw + j;
  const int base = img ? kDis : kRef;

  b.band[base + 0][x] = (int32_t) ((hh + add_hp[s]) >> shift_hp[s]);
  b.band[base + 1][x] = (int32_t) ((v + add_hp[s]) >> shift_hp[s]);
  b.band[base + 2][x] = (int32_t) ((d + add_hp[s]) >> shift_hp[s]);
  b.approx_out[img][x] = (int32_t) ((a + add_hp[s]) >> shift_hp[s]);
}

/* Whether (oh, ov) and (th, tv) are within 1 degree, in the CPU's float
 * and double steps. */
__device__ __forceinline__ bool
angle_flag (int64_t oh, int64_t ov, int64_t th, int64_t tv, float cos_sq)
{
  const int64_t ot_dp = oh * th + ov * tv;
  const int64_t o_mag_sq = oh * oh + ov * ov;
  const int64_t t_mag_sq = th * th + tv * tv;
  const double ot = (double) (float) ot_dp / 4096.0;
  const double om = (double) (float) o_mag_sq / 4096.0;
  const double tm = (double) (float) t_mag_sq / 4096.0;

  return ot >= 0.0 && __dmul_rn (ot, ot) >=
      __dmul_rn (__dmul_rn ((double) cos_sq, om), tm);
}

/* The 15 leading bits of @v and the shift that drops the rest. */
__device__ __forceinline__ uint16_t
best15 (uint32_t v, int *shift)
{
  const int k = 17 - __clz (v);

  *shift = k;
  return (v + (1 << (k - 1))) >> k;
}

/* The restored part of one orientation (the CPU's decouple16/32). */
template < bool L0 > __device__ __forceinline__ int32_t
restore (const int32_t * div, int32_t o, int32_t t, bool angle, double egl)
{
  int64_t kk;

  if (L0) {
    const int32_t tmp_k = o == 0 ? 32768 :
        (int32_t) ((((int64_t) div[o + 32768] * t) + 16384) >> 15);

    kk = tmp_k < 0 ? 0 : (tmp_k > 32768 ? 32768 : tmp_k);
  } else {
    int shift = 0;
    const uint32_t abs_o = abs (o);
    const int8_t sign = o < 0 ? -1 : 1;
    const uint16_t msb = abs_o < 32768 ? abs_o : best15 (abs_o, &shift);
    const int64_t tmp_k = o == 0 ? 32768 :
        (((int64_t) div[msb + 32768] * t) * sign + (1 << (14 + shift))) >>
        (15 + shift);

    kk = tmp_k < 0 ? 0 : (tmp_k > 32768 ? 32768 : tmp_k);
  }
  const float rst_f = ((float) kk / 32768) * ((float) o / 64);
  int32_t rst = L0 ? (int16_t) ((((int32_t) kk * o) + 16384) >> 15) :
      (int32_t) (((kk * o) + 16384) >> 15);

  if (angle && rst_f > 0.) {
    const double g = rst * egl;
    rst = L0 ? (int32_t) (int16_t) (g < t ? g : t) : (int32_t) (g < t ? g : t);
  }
  if (angle && rst_f < 0.) {
    const double g = rst * egl;
    rst = L0 ? (int32_t) (int16_t) (g > t ? g : t) : (int32_t) (g > t ? g : t);
  }
  return rst;
}

/* Decoupling and CSF over the level's filter region (w x h bands). */
template < typename T, bool L0 > __global__ void
__launch_bounds__ (kThreads)
adm_decouple_csf (Bands b, int w, CompareVmafAdmLevel lv,
    const int32_t * div, double egl)
{
  const uint16_t i_rfactor16[3] = { 36453, 36453, 49417 };
  const int shift16[3] = { 15, 15, 17 };
  const uint16_t add16[3] = { 16384, 16384, 65535 };
  const int j = lv.filter.left + blockIdx.x * kTileW + threadIdx.x % kTileW;
  const int i = lv.filter.top + blockIdx.y * kTileH + threadIdx.x / kTileW;

  if (i >= lv.filter.bottom || j >= lv.filter.right)
    return;
  const size_t x = (size_t) i * w + j;
  int32_t o[3], t[3];

  for (int k = 0; k < 3; k++) {
    o[k] = ((const T *) b.band[kRef + k])[x];
    t[k] = ((const T *) b.band[kDis + k])[x];
  }
  const bool angle = angle_flag (o[0], o[1], t[0], t[1], lv.cos_1deg_sq);

  for (int k = 0; k < 3; k++) {
    const int32_t rst = restore < L0 > (div, o[k], t[k], angle, egl);
    const T a = (T) (t[k] - rst);

    ((T *) b.band[kRst + k])[x] = (T) rst;
    if (L0) {
      const int32_t v = i_rfactor16[k] * (int32_t) a;
      const int16_t c = (int16_t) ((v + add16[k]) >> shift16[k]);

      ((T *) b.band[kCsfA + k])[x] = c;
      ((T *) b.band[kCsfF + k])[x] = (int16_t) (((4369 * abs ((int32_t) c)) +
              2048) >> 12);
    } else {
      const int32_t c = (int32_t) (((lv.i_rfactor[k] * (int64_t) a) +
              (1u << 27)) >> 28);

      ((T *) b.band[kCsfA + k])[x] = c;
      ((T *) b.band[kCsfF + k])[x] = (int32_t) ((((int64_t) 143165577 *
                  abs (c)) + kI4AddFlt) >> 32);
    }
  }
}

/* One block a scored row (w x h bands): the row's sums of the
 * reference's cubes (den) and of the masked restored part's (num), per
 * orientation, into @rows. */
template < typename T, bool L0 > __global__ void
__launch_bounds__ (kThreads)
adm_rows (Bands b, int w, int h, CompareVmafAdmLevel lv, long long *rows)
{
  const uint16_t i_rfactor16[3] = { 36453, 36453, 49417 };
  const int32_t shift_sq16[3] = { 29, 29, 30 };
  const int32_t add_sq16[3] = { 268435456, 268435456, 536870912 };
  const int32_t shift_sub16[3] = { 10, 10, 12 };
  using Reduce = cub::BlockReduce < long long, kThreads >;
  __shared__ typename Reduce::TempStorage tmp;
  const int i = lv.score.top + blockIdx.x;
  const int i0 = i == 0 ? 1 : i - 1, i2 = i == h - 1 ? h - 1 : i + 1;
  const T *ref[3], *rst[3], *csf_a[3], *csf_f[3];
  uint64_t den[3] = { 0, 0, 0 };
  int64_t num[3] = { 0, 0, 0 };

  for (int k = 0; k < 3; k++) {
    ref[k] = (const T *) b.band[kRef + k];
    rst[k] = (const T *) b.band[kRst + k];
    csf_a[k] = (const T *) b.band[kCsfA + k];
    csf_f[k] = (const T *) b.band[kCsfF + k];
  }
  for (int j = lv.score.left + threadIdx.x; j < lv.score.right;
      j += kThreads) {
    const int j0 = j == 0 ? 1 : j - 1, j2 = j == w - 1 ? w - 1 : j + 1;
    const size_t x = (size_t) i * w + j;
    int32_t thr = 0;

    for (int k = 0; k < 3; k++) {
      const T *f = csf_f[k];
      const int32_t around = (int32_t) f[(size_t) i0 * w + j0] +
          f[(size_t) i0 * w + j] + f[(size_t) i0 * w + j2] +
          f[(size_t) i * w + j0] + f[(size_t) i * w + j2] +
          f[(size_t) i2 * w + j0] + f[(size_t) i2 * w + j] +
          f[(size_t) i2 * w + j2];

      if (L0)
        thr += around + (int16_t) (((kOneBy15 * abs ((int32_t)
                        csf_a[k][x])) + 2048) >> 12);
      else
        thr += around + (int32_t) (((kI4OneBy15 * abs ((int32_t)
                        csf_a[k][x])) + kI4AddFlt) >> 32);
    }
    for (int k = 0; k < 3; k++) {
      int32_t v;

      if (L0) {
        const uint16_t r = (uint16_t) abs ((int32_t) ref[k][x]);
        int32_t xx = rst[k][x] * i_rfactor16[k];
        int32_t x_sq;

        den[k] += ((uint64_t) r * r) * r;
        xx = abs (xx) - ((int32_t) (thr) << shift_sub16[k]);
        v = xx < 0 ? 0 : xx;
        x_sq = (int32_t) ((((int64_t) v * v) + add_sq16[k]) >>
            shift_sq16[k]);
        num[k] += (((int64_t) x_sq * v) + lv.num_cub_add[k]) >>
            lv.num_cub_shift[k];
      } else {
        const uint32_t r = (uint32_t) abs ((int32_t) ref[k][x]);
        int32_t xx = (int32_t) ((((int64_t) rst[k][x] * lv.i_rfactor[k]) +
                (1u << 27)) >> 28);
        int32_t x_sq;

        den[k] += ((((((uint64_t) r * r) + lv.den_sq_add) >>
                    lv.den_sq_shift) * r) + lv.den_cub_add) >>
            lv.den_cub_shift;
        xx = abs (xx) - thr;
        v = xx < 0 ? 0 : xx;
        x_sq = (int32_t) ((((int64_t) v * v) + 536870912) >> 30);
        num[k] += (((int64_t) x_sq * v) + lv.num_cub_add[0]) >>
            lv.num_cub_shift[0];
      }
    }
  }
  long long *out = rows + (size_t) blockIdx.x * kAdmRow;
  for (int q = 0; q < kAdmRow; q++) {
    const long long val = q < 3 ? (long long) den[q] : num[q - 3];
    const long long total = Reduce (tmp).Sum (val);

    __syncthreads ();
    if (threadIdx.x == 0)
      out[q] = total;
  }
}

template < typename T, bool L0 > void
level_sets (CompareVmafCuda * vc, const Bands & b, int level, int n_sets,
    const double *egl)
{
  const CompareVmafCudaBufs *bufs = &vc->b;
  const CompareVmafAdmLevel &lv = bufs->adm_level[level];
  const int w = bufs->adm_w[level], h = bufs->adm_h[level];
  const dim3 grid (div_up (lv.filter.right - lv.filter.left, kTileW),
      div_up (lv.filter.bottom - lv.filter.top, kTileH));
  const int n_rows = lv.score.bottom - lv.score.top;

  for (int k = 0; k < n_sets; k++) {
    long long *rows = bufs->adm_rows + ((size_t) k * bufs->adm_rows_per_set +
        bufs->adm_row_start[level]) * kAdmRow;

    adm_decouple_csf < T, L0 > <<< grid, kThreads, 0, vc->stream >>> (b, w,
        lv, vc->adm_div, egl[k]);
    adm_rows < T, L0 > <<< n_rows, kThreads, 0, vc->stream >>> (b, w, h, lv,
        rows);
  }
}

}  // namespace
}  // namespace compare_vmaf_cuda

using namespace compare_vmaf_cuda;

void
compare_vmaf_cuda_adm (CompareVmafCuda * vc, const CompareVmafPlane * ref,
    const CompareVmafPlane * dist, int n_sets, const double *egl)
{
  CompareVmafCudaBufs *bufs = &vc->b;
  Bands b;
  int w = ref->width, h = ref->height;

  for (int k = 0; k < 15; k++)
    b.band[k] = bufs->adm_band[k];
  for (int level = 0; level < kScales; level++) {
    const int bw = bufs->adm_w[level], bh = bufs->adm_h[level];
    const dim3 grid (div_up (bw, kTileW), div_up (bh, kTileH), 2);

    for (int img = 0; img < 2; img++) {
      b.approx_in[img] = bufs->adm_approx[img][(level + 1) % 2];
      b.approx_out[img] = bufs->adm_approx[img][level % 2];
    }
    if (level == 0) {
      adm_dwt0 <<< grid, kThreads, 0, vc->stream >>> (src_of (ref),
          src_of (dist), w, h, ref->depth, b);
      level_sets < int16_t, true > (vc, b, level, n_sets, egl);
    } else {
      adm_dwt <<< grid, kThreads, 0, vc->stream >>> (w, h, level - 1, b);
      level_sets < int32_t, false > (vc, b, level, n_sets, egl);
    }
    w = bw;
    h = bh;
  }
}
