/* VMAF's VIF feature, libvmaf's integer_vif: four scales of Gaussian
 * filtering in fixed point, the information ratio summed through a 2048-
 * step log2 table.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The fixed-point definition (filters, shifts, rounding terms, the log2
 * table, the mirrors, the float/double steps) follows libvmaf 3.0.0's
 * src/feature/integer_vif.c and integer_vif.h, Copyright 2016-2020
 * Netflix, Inc., BSD-2-Clause-Patent; this is an independent
 * implementation of it, equal to it on tests/vmaf's golden set.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vmaf-private.h"

/* The Gaussian filters of the four scales (sum 65536 each). */
static const uint16_t vif_filter[COMPARE_VMAF_SCALES][17] = {
  {489, 935, 1640, 2640, 3896, 5274, 6547, 7455, 7784, 7455, 6547, 5274,
      3896, 2640, 1640, 935, 489},
  {1244, 3663, 7925, 12590, 14692, 12590, 7925, 3663, 1244},
  {3571, 16004, 26386, 16004, 3571},
  {10904, 43728, 10904},
};

static const int vif_taps[COMPARE_VMAF_SCALES] = { 17, 9, 5, 3 };

#define VIF_PAD 8               /* half the widest filter */
#define VIF_SIGMA_NSQ (65536 << 1)

/* The five filtered rows of one scale (mu1, mu2, ref^2, dis^2, ref*dis),
 * each with VIF_PAD mirrored samples either side. */
typedef struct
{
  uint32_t *mu1, *mu2, *ref, *dis, *ref_dis;
} VifRows;

/* The mirror of libvmaf's padding: -k is k, (n - 1) + k is (n - 1) - k. */
static inline int
vif_mirror (int i, int n)
{
  if (i < 0)
    return -i;
  if (i >= n)
    return 2 * (n - 1) - i;
  return i;
}

static inline void
vif_pad_row (uint32_t * row, int w, int half)
{
  for (int f = 1; f <= half; f++) {
    row[-f] = row[f];
    row[w - 1 + f] = row[w - 1 - f];
  }
}

/* log2 (i) * 2048 rounded, for i in [32767, 65535], as libvmaf's
 * log_generate (log2f of the float, times 2048 in float, then round). */
void
compare_vmaf_vif_log2_table (uint16_t * table)
{
  for (unsigned i = 32767; i < 65536; i++)
    table[i] = (uint16_t) round (log2f ((float) i) * 2048);
}

/* log2 (v) * 2048 from the table, v's 16 leading bits. */
static inline int32_t
vif_log2_32 (const uint16_t * table, uint32_t v)
{
  int k = 16 - __builtin_clz (v);

  return table[v >> k] + 2048 * k;
}

static inline int32_t
vif_log2_64 (const uint16_t * table, uint64_t v)
{
  int k = 48 - __builtin_clzll (v);

  return table[v >> k] + 2048 * k;
}

/* The statistics of one scale: vif_statistic_8/_16 of libvmaf.  @ref and
 * @dis are w x h (stride w) samples of that scale: the input samples at
 * scale 0 (@bpc bits), 16-bit means of the previous scale after. */
static void
vif_statistic (const uint16_t * log2_table, const uint16_t * ref,
    const uint16_t * dis, int w, int h, int scale, int bpc, double egl,
    VifRows rows, CompareVmafVifSums * sums)
{
  const uint16_t *filt = vif_filter[scale];
  const int taps = vif_taps[scale];
  const int half = taps / 2;
  int64_t accum_num_log = 0, accum_den_log = 0;
  int64_t accum_num_non_log = 0, accum_den_non_log = 0;
  int shift_vp, shift_vp_sq;
  uint32_t add_vp;
  uint64_t add_vp_sq;

  if (scale == 0) {
    shift_vp = bpc;
    add_vp = 1u << (bpc - 1);
    shift_vp_sq = (bpc - 8) * 2;
    add_vp_sq = bpc == 8 ? 0 : (uint64_t) 1 << (shift_vp_sq - 1);
  } else {
    shift_vp = 16;
    add_vp = 32768;
    shift_vp_sq = 16;
    add_vp_sq = 32768;
  }

  for (int i = 0; i < h; i++) {
    const uint16_t *ref_row[17], *dis_row[17];

    for (int fi = 0; fi < taps; fi++) {
      int ii = vif_mirror (i - half + fi, h);

      ref_row[fi] = ref + (size_t) ii * w;
      dis_row[fi] = dis + (size_t) ii * w;
    }
    /* Vertical pass. */
    for (int j = 0; j < w; j++) {
      uint32_t accum_mu1 = 0, accum_mu2 = 0;
      uint64_t accum_ref = 0, accum_dis = 0, accum_ref_dis = 0;

      for (int fi = 0; fi < taps; fi++) {
        uint32_t r = ref_row[fi][j];
        uint32_t d = dis_row[fi][j];
        uint32_t cr = filt[fi] * r;
        uint32_t cd = filt[fi] * d;

        accum_mu1 += cr;
        accum_mu2 += cd;
        accum_ref += cr * (uint64_t) r;
        accum_dis += cd * (uint64_t) d;
        accum_ref_dis += cr * (uint64_t) d;
      }
      rows.mu1[j] = (uint16_t) ((accum_mu1 + add_vp) >> shift_vp);
      rows.mu2[j] = (uint16_t) ((accum_mu2 + add_vp) >> shift_vp);
      rows.ref[j] = (uint32_t) ((accum_ref + add_vp_sq) >> shift_vp_sq);
      rows.dis[j] = (uint32_t) ((accum_dis + add_vp_sq) >> shift_vp_sq);
      rows.ref_dis[j] = (uint32_t) ((accum_ref_dis + add_vp_sq) >>
          shift_vp_sq);
    }
    vif_pad_row (rows.mu1, w, half);
    vif_pad_row (rows.mu2, w, half);
    vif_pad_row (rows.ref, w, half);
    vif_pad_row (rows.dis, w, half);
    vif_pad_row (rows.ref_dis, w, half);

    /* Horizontal pass and the information terms. */
    for (int j = 0; j < w; j++) {
      uint32_t mu1 = 0, mu2 = 0;
      uint64_t accum_ref = 0, accum_dis = 0, accum_ref_dis = 0;

      for (int fj = 0; fj < taps; fj++) {
        int jj = j - half + fj;

        mu1 += filt[fj] * rows.mu1[jj];
        mu2 += filt[fj] * rows.mu2[jj];
        accum_ref += filt[fj] * (uint64_t) rows.ref[jj];
        accum_dis += filt[fj] * (uint64_t) rows.dis[jj];
        accum_ref_dis += filt[fj] * (uint64_t) rows.ref_dis[jj];
      }

      uint32_t mu1_sq = (uint32_t) (((uint64_t) mu1 * mu1 + 2147483648u)
          >> 32);
      uint32_t mu2_sq = (uint32_t) (((uint64_t) mu2 * mu2 + 2147483648u)
          >> 32);
      uint32_t mu1_mu2 = (uint32_t) (((uint64_t) mu1 * mu2 + 2147483648u)
          >> 32);
      uint32_t xx = (uint32_t) ((accum_ref + 32768) >> 16);
      uint32_t yy = (uint32_t) ((accum_dis + 32768) >> 16);
      uint32_t xy = (uint32_t) ((accum_ref_dis + 32768) >> 16);
      int32_t sigma1_sq = (int32_t) (xx - mu1_sq);
      int32_t sigma2_sq = (int32_t) (yy - mu2_sq);
      int32_t sigma12 = (int32_t) (xy - mu1_mu2);

      if (sigma2_sq < 0)
        sigma2_sq = 0;
      if (sigma1_sq >= VIF_SIGMA_NSQ) {
        /* log2 (1 + sigma1_sq / 2) as log2 (2^17 + sigma1_sq) - 17. */
        accum_den_log += vif_log2_32 (log2_table,
            VIF_SIGMA_NSQ + sigma1_sq) - 2048 * 17;
        if (sigma12 > 0 && sigma2_sq > 0) {
          /* libvmaf's order of double operations: the gain, the noise
           * left after it (truncated to int32), the gain limit. */
          const double eps = 65536 * 1.0e-10;
          double g = sigma12 / (sigma1_sq + eps);
          int32_t sv_sq = sigma2_sq - g * sigma12;

          sv_sq = (uint32_t) (sv_sq > 0 ? sv_sq : 0);
          g = g < egl ? g : egl;

          uint32_t numer1 = sv_sq + VIF_SIGMA_NSQ;
          int64_t numer1_tmp = (int64_t) (g * g * sigma1_sq) + numer1;

          accum_num_log += vif_log2_64 (log2_table, numer1_tmp) -
              vif_log2_64 (log2_table, numer1);
        }
      } else {
        accum_num_non_log += sigma2_sq;
        accum_den_non_log++;
      }
    }
  }
  sums->num_log = accum_num_log;
  sums->den_log = accum_den_log;
  sums->num_non_log = accum_num_non_log;
  sums->den_non_log = accum_den_non_log;
}

double
compare_vmaf_vif_score (const CompareVmafVifSums * sums)
{
  float num = sums->num_log / 2048.0 + (sums->den_non_log -
      (sums->num_non_log / 16384.0) / 65025.0);
  float den = sums->den_log / 2048.0 + sums->den_non_log;

  /* float / float, as libvmaf's write_scores. */
  return num / den;
}

/* The next scale's samples: the filter of that scale, every other row and
 * column (libvmaf's subsample_rd_8/_16 and decimate).  Scale 0 is shifted
 * by its depth, later scales by 16, so that every scale after 0 holds
 * 16-bit means. */
static void
vif_subsample (const uint16_t * src, uint16_t * dst, int w, int h,
    int next_scale, int bpc, uint32_t * row)
{
  const uint16_t *filt = vif_filter[next_scale];
  const int taps = vif_taps[next_scale];
  const int half = taps / 2;
  const int first = next_scale == 1;
  const uint32_t add_vp = first ? 1u << (bpc - 1) : 32768;
  const int shift_vp = first ? bpc : 16;
  const int w2 = w / 2, h2 = h / 2;

  for (int i2 = 0; i2 < h2; i2++) {
    const uint16_t *src_row[9];

    for (int fi = 0; fi < taps; fi++)
      src_row[fi] = src + (size_t) vif_mirror (2 * i2 - half + fi, h) * w;
    for (int j = 0; j < w; j++) {
      uint32_t accum = 0;

      for (int fi = 0; fi < taps; fi++)
        accum += filt[fi] * (uint32_t) src_row[fi][j];
      row[j] = (uint16_t) ((accum + add_vp) >> shift_vp);
    }
    vif_pad_row (row, w, half);
    for (int j2 = 0; j2 < w2; j2++) {
      uint32_t accum = 0;

      for (int fj = 0; fj < taps; fj++)
        accum += filt[fj] * row[2 * j2 - half + fj];
      dst[(size_t) i2 * w2 + j2] = (uint16_t) ((accum + 32768) >> 16);
    }
  }
}

static void
vif_load (const CompareVmafPlane * p, uint16_t * dst)
{
  for (int y = 0; y < p->height; y++)
    for (int x = 0; x < p->width; x++)
      dst[(size_t) y * p->width + x] = compare_vmaf_sample (p, x, y);
}

SharpnessStatus
compare_vmaf_vif (CompareVmafScratch * scratch, const CompareVmafPlane * ref,
    const CompareVmafPlane * dist, double enhn_gain_limit,
    double scale[COMPARE_VMAF_SCALES])
{
  SharpnessStatus st = compare_vmaf_planes_check (ref, dist);
  const size_t n = (size_t) ref->width * ref->height;
  const size_t row = (size_t) ref->width + 2 * VIF_PAD;
  int w = ref->width, h = ref->height;
  uint16_t *cur_ref, *cur_dis, *next_ref, *next_dis, *log2_table;
  VifRows rows;

  if (st != SHARPNESS_OK)
    return st;
  if (!(enhn_gain_limit >= 1.0 && enhn_gain_limit <= COMPARE_VMAF_EGL_DEFAULT))
    return SHARPNESS_ERROR_INVALID;

  if (!scratch->buf[VMAF_BUF_VIF_LOG2]) {
    st = compare_vmaf_scratch_reserve (scratch, VMAF_BUF_VIF_LOG2,
        65536 * sizeof (uint16_t));
    if (st != SHARPNESS_OK)
      return st;
    compare_vmaf_vif_log2_table (scratch->buf[VMAF_BUF_VIF_LOG2]);
  }
  log2_table = scratch->buf[VMAF_BUF_VIF_LOG2];
  /* Two scales of reference and distorted: n + n / 4 each. */
  st = compare_vmaf_scratch_reserve (scratch, VMAF_BUF_VIF_LEVEL,
      2 * (n + n / 4 + 1) * sizeof (uint16_t));
  if (st == SHARPNESS_OK)
    st = compare_vmaf_scratch_reserve (scratch, VMAF_BUF_VIF_ROWS,
        5 * row * sizeof (uint32_t));
  if (st != SHARPNESS_OK)
    return st;

  cur_ref = scratch->buf[VMAF_BUF_VIF_LEVEL];
  cur_dis = cur_ref + n;
  next_ref = cur_dis + n;
  next_dis = next_ref + n / 4 + 1;
  rows.mu1 = (uint32_t *) scratch->buf[VMAF_BUF_VIF_ROWS] + VIF_PAD;
  rows.mu2 = rows.mu1 + row;
  rows.ref = rows.mu2 + row;
  rows.dis = rows.ref + row;
  rows.ref_dis = rows.dis + row;

  vif_load (ref, cur_ref);
  vif_load (dist, cur_dis);
  for (int s = 0; s < COMPARE_VMAF_SCALES; s++) {
    CompareVmafVifSums sums;

    if (s > 0) {
      uint16_t *t;

      vif_subsample (cur_ref, next_ref, w, h, s, ref->depth, rows.mu1);
      vif_subsample (cur_dis, next_dis, w, h, s, ref->depth, rows.mu1);
      w /= 2;
      h /= 2;
      /* The scale after next is at most a quarter of this one: the first
       * buffers hold it. */
      t = cur_ref;
      cur_ref = next_ref;
      next_ref = t;
      t = cur_dis;
      cur_dis = next_dis;
      next_dis = t;
    }
    vif_statistic (log2_table, cur_ref, cur_dis, w, h, s, ref->depth,
        enhn_gain_limit, rows, &sums);
    scale[s] = compare_vmaf_vif_score (&sums);
  }
  return SHARPNESS_OK;
}
