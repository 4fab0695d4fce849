/* VMAF's ADM feature, libvmaf's integer_adm: four levels of a fixed-point
 * Daubechies-2 DWT, the decoupling of the distorted detail into restored
 * and additive parts, contrast sensitivity and masking, summed as cubes.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The fixed-point definition (filters, shifts, rounding terms, the
 * reciprocal table, the borders and mirrors, the float/double steps, the
 * int16 storage of level 0 and int32 of levels 1..3) follows libvmaf
 * 3.0.0's src/feature/integer_adm.c and integer_adm.h, Copyright
 * 2016-2020 Netflix, Inc., BSD-2-Clause-Patent; this is an independent
 * implementation of it, equal to it on tests/vmaf's golden set.  Where
 * libvmaf relies on a C conversion (an int32 holding 1u << 31, a double
 * stored in an int16), the same conversion is written here.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vmaf-private.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846264338327
#endif

#define ADM_BORDER_FACTOR 0.1
#define ADM_VIEW_DIST 3.0
#define ADM_DISPLAY_HEIGHT 1080
#define ADM_ONE_BY_15 8738
#define ADM_I4_ONE_BY_15 286331153

static const int16_t dwt_lo[4] = { 15826, 27411, 7345, -4240 };
static const int16_t dwt_hi[4] = { -4240, -7345, 27411, -15826 };
static const int32_t dwt_lo_sum = 46342;

/* Watson et al. 1997, "Visibility of wavelet quantization noise": the
 * luma threshold model (a, k, f0, g per orientation) and the 7-9 basis
 * amplitudes A[lambda][theta]. */
static const float watson_a = 0.495f, watson_k = 0.466f, watson_f0 = 0.401f;
static const float watson_g[4] = { 1.501f, 1.0f, 0.534f, 1.0f };
static const float watson_amplitude[6][4] = {
  {0.62171f, 0.67234f, 0.72709f, 0.67234f},
  {0.34537f, 0.41317f, 0.49428f, 0.41317f},
  {0.18004f, 0.22727f, 0.28688f, 0.22727f},
  {0.091401f, 0.11792f, 0.15214f, 0.11792f},
  {0.045943f, 0.059758f, 0.077727f, 0.059758f},
  {0.023013f, 0.030018f, 0.039156f, 0.030018f},
};

/* The quantisation step of level @lambda, orientation @theta, in
 * libvmaf's float and double steps. */
static float
adm_quant_step (int lambda, int theta)
{
  float r = ADM_VIEW_DIST * ADM_DISPLAY_HEIGHT * M_PI / 180.0;
  float temp = log10 (pow (2.0, lambda + 1) * watson_f0 * watson_g[theta] /
      r);
  float q = 2.0 * watson_a * pow (10.0, watson_k * temp * temp) /
      watson_amplitude[lambda][theta];

  return q;
}

/* 2^30 / i for i in [-32768, 32768], index i + 32768 (0 at i = 0). */
void
compare_vmaf_adm_div_lookup (int32_t * div_lookup)
{
  div_lookup[32768] = 0;
  for (int i = 1; i <= 32768; i++) {
    int32_t recip = (int32_t) (1073741824 / i);

    div_lookup[32768 + i] = recip;
    div_lookup[32768 - i] = 0 - recip;
  }
}

/* The bands of one level (stride: the level's width). */
typedef struct
{
  int16_t *a, *v, *h, *d;
} AdmBands16;

typedef struct
{
  int32_t *a, *v, *h, *d;
} AdmBands32;

/* The DWT's source rows/columns for output i of @n samples: 2i-1 .. 2i+2,
 * i = 0 mirrored about 0 (1, 0, 1, 2), the end about n - 1/2 (n - 1
 * repeated), as dwt2_src_indices_filt. */
static void
adm_dwt_indices (int *ind[4], int n)
{
  const int half = (n + 1) / 2;

  for (int i = 0; i < half; i++) {
    for (int k = 0; k < 4; k++) {
      int s = 2 * i - 1 + k;

      if (i == 0)
        s = (int[]) { 1, 0, 1, 2 }[k];
      else if (i >= half - 2 && s >= n)
        s = 2 * n - s - 1;
      ind[k][i] = s;
    }
  }
}

/* Level 0: samples of @bpc bits to int16 bands (adm_dwt2_8/_16). */
static void
adm_dwt_level0 (const CompareVmafPlane * p, AdmBands16 dst, int *ind_y[4],
    int *ind_x[4], int16_t * tmplo, int16_t * tmphi)
{
  const int w = p->width, h = p->height, bpc = p->depth;
  const int32_t add_vp = 1 << (bpc - 1);
  const int half_w = (w + 1) / 2;

  for (int i = 0; i < (h + 1) / 2; i++) {
    const uint8_t *row[4];

    for (int k = 0; k < 4; k++)
      row[k] = (const uint8_t *) p->data + (size_t) ind_y[k][i] * p->stride;
    for (int j = 0; j < w; j++) {
      int32_t u[4], lo = 0, hi = 0;

      for (int k = 0; k < 4; k++)
        u[k] = bpc == 8 ? row[k][j] :
            (int32_t) (row[k][2 * j] | (row[k][2 * j + 1] << 8));
      for (int k = 0; k < 4; k++)
        lo += (int32_t) dwt_lo[k] * u[k];
      /* The samples' range moved from [0, N] to [-N/2, N/2]. */
      lo -= dwt_lo_sum * add_vp;
      tmplo[j] = (lo + add_vp) >> bpc;
      for (int k = 0; k < 4; k++)
        hi += (int32_t) dwt_hi[k] * u[k];
      tmphi[j] = (hi + add_vp) >> bpc;
    }
    for (int j = 0; j < half_w; j++) {
      int32_t a = 0, v = 0, hh = 0, d = 0;

      for (int k = 0; k < 4; k++) {
        int16_t sl = tmplo[ind_x[k][j]], sh = tmphi[ind_x[k][j]];

        a += (int32_t) dwt_lo[k] * sl;
        v += (int32_t) dwt_hi[k] * sl;
        hh += (int32_t) dwt_lo[k] * sh;
        d += (int32_t) dwt_hi[k] * sh;
      }
      dst.a[i * half_w + j] = (a + 32768) >> 16;
      dst.v[i * half_w + j] = (v + 32768) >> 16;
      dst.h[i * half_w + j] = (hh + 32768) >> 16;
      dst.d[i * half_w + j] = (d + 32768) >> 16;
    }
  }
}

/* Levels 1..3: int32 approximation band (w x h) to int32 bands
 * (adm_dwt2_s123_combined, one image). */
static void
adm_dwt_level (const int32_t * src, int w, int h, int scale, AdmBands32 dst,
    int *ind_y[4], int *ind_x[4], int32_t * tmplo, int32_t * tmphi)
{
  static const int32_t add_vp[3] = { 0, 32768, 32768 };
  static const int32_t add_hp[3] = { 16384, 32768, 16384 };
  static const int16_t shift_vp[3] = { 0, 16, 16 };
  static const int16_t shift_hp[3] = { 15, 16, 15 };
  const int s = scale - 1;
  const int half_w = (w + 1) / 2;

  for (int i = 0; i < (h + 1) / 2; i++) {
    for (int j = 0; j < w; j++) {
      int64_t lo = 0, hi = 0;

      for (int k = 0; k < 4; k++) {
        int32_t u = src[(size_t) ind_y[k][i] * w + j];

        lo += (int64_t) dwt_lo[k] * u;
        hi += (int64_t) dwt_hi[k] * u;
      }
      tmplo[j] = (int32_t) ((lo + add_vp[s]) >> shift_vp[s]);
      tmphi[j] = (int32_t) ((hi + add_vp[s]) >> shift_vp[s]);
    }
    for (int j = 0; j < half_w; j++) {
      int64_t a = 0, v = 0, hh = 0, d = 0;

      for (int k = 0; k < 4; k++) {
        int32_t sl = tmplo[ind_x[k][j]], sh = tmphi[ind_x[k][j]];

        a += (int64_t) dwt_lo[k] * sl;
        v += (int64_t) dwt_hi[k] * sl;
        hh += (int64_t) dwt_lo[k] * sh;
        d += (int64_t) dwt_hi[k] * sh;
      }
      dst.a[i * half_w + j] = (int32_t) ((a + add_hp[s]) >> shift_hp[s]);
      dst.v[i * half_w + j] = (int32_t) ((v + add_hp[s]) >> shift_hp[s]);
      dst.h[i * half_w + j] = (int32_t) ((hh + add_hp[s]) >> shift_hp[s]);
      dst.d[i * half_w + j] = (int32_t) ((d + add_hp[s]) >> shift_hp[s]);
    }
  }
}

/* The region decoupling and CSF are computed on: the scored region (10 %
 * borders off) widened by the masking filter's tap. */
typedef CompareVmafAdmRect AdmRect;

static AdmRect
adm_rect_filter (int w, int h)
{
  AdmRect r;

  r.left = w * ADM_BORDER_FACTOR - 0.5 - 1;
  r.top = h * ADM_BORDER_FACTOR - 0.5 - 1;
  r.right = w - r.left + 2;
  r.bottom = h - r.top + 2;
  if (r.left < 0)
    r.left = 0;
  if (r.right > w)
    r.right = w;
  if (r.top < 0)
    r.top = 0;
  if (r.bottom > h)
    r.bottom = h;
  return r;
}

/* The scored region. */
static AdmRect
adm_rect_score (int w, int h)
{
  AdmRect r;

  r.left = w * ADM_BORDER_FACTOR - 0.5;
  r.top = h * ADM_BORDER_FACTOR - 0.5;
  r.right = w - r.left;
  r.bottom = h - r.top;
  return r;
}

/* Whether the angle between (oh, ov) and (th, tv) is under 1 degree, in
 * libvmaf's float-and-double arithmetic. */
static inline int
adm_angle_flag (int64_t oh, int64_t ov, int64_t th, int64_t tv,
    float cos_1deg_sq)
{
  int64_t ot_dp = oh * th + ov * tv;
  int64_t o_mag_sq = oh * oh + ov * ov;
  int64_t t_mag_sq = th * th + tv * tv;

  return (((float) ot_dp / 4096.0) >= 0.0f) &&
      (((float) ot_dp / 4096.0) * ((float) ot_dp / 4096.0) >=
      cos_1deg_sq * ((float) o_mag_sq / 4096.0) * ((float) t_mag_sq /
          4096.0));
}

/* Level 0 decoupling: restored r = clip (t / o, 0, 1) o (Q15 reciprocal
 * table), widened to t within 1 degree up to the gain limit; additive
 * a = t - r. */
static void
adm_decouple16 (const CompareVmafAdmLevel * lv,
    const int32_t * adm_div_lookup, AdmBands16 ref, AdmBands16 dis,
    AdmBands16 r, AdmBands16 a, int w, double egl)
{
  const AdmRect rc = lv->filter;

  for (int i = rc.top; i < rc.bottom; i++) {
    for (int j = rc.left; j < rc.right; j++) {
      const size_t x = (size_t) i * w + j;
      int16_t o[3] = { ref.h[x], ref.v[x], ref.d[x] };
      int16_t t[3] = { dis.h[x], dis.v[x], dis.d[x] };
      int16_t rst[3];
      int angle = adm_angle_flag (o[0], o[1], t[0], t[1],
          lv->cos_1deg_sq);

      for (int k = 0; k < 3; k++) {
        int32_t tmp_k = o[k] == 0 ? 32768 :
            (((int64_t) adm_div_lookup[o[k] + 32768] * t[k]) + 16384) >> 15;
        int32_t kk = tmp_k < 0 ? 0 : (tmp_k > 32768 ? 32768 : tmp_k);
        const float rst_f = ((float) kk / 32768) * ((float) o[k] / 64);

        rst[k] = ((kk * o[k]) + 16384) >> 15;
        if (angle && rst_f > 0.)
          rst[k] = rst[k] * egl < t[k] ? rst[k] * egl : t[k];
        if (angle && rst_f < 0.)
          rst[k] = rst[k] * egl > t[k] ? rst[k] * egl : t[k];
      }
      r.h[x] = rst[0];
      r.v[x] = rst[1];
      r.d[x] = rst[2];
      a.h[x] = t[0] - rst[0];
      a.v[x] = t[1] - rst[1];
      a.d[x] = t[2] - rst[2];
    }
  }
}

/* The 15 leading bits of @v and the shift that drops the rest. */
static inline uint16_t
adm_best15 (uint32_t v, int *shift)
{
  int k = 17 - __builtin_clz (v);

  *shift = k;
  return (v + (1 << (k - 1))) >> k;
}

/* Levels 1..3: the same with int32 coefficients, the reciprocal of the
 * 15 leading bits. */
static void
adm_decouple32 (const CompareVmafAdmLevel * lv,
    const int32_t * adm_div_lookup, AdmBands32 ref, AdmBands32 dis,
    AdmBands32 r, AdmBands32 a, int w, double egl)
{
  const AdmRect rc = lv->filter;

  for (int i = rc.top; i < rc.bottom; i++) {
    for (int j = rc.left; j < rc.right; j++) {
      const size_t x = (size_t) i * w + j;
      int32_t o[3] = { ref.h[x], ref.v[x], ref.d[x] };
      int32_t t[3] = { dis.h[x], dis.v[x], dis.d[x] };
      int32_t rst[3];
      int angle = adm_angle_flag (o[0], o[1], t[0], t[1],
          lv->cos_1deg_sq);

      for (int k = 0; k < 3; k++) {
        int shift = 0;
        uint32_t abs_o = abs (o[k]);
        int8_t sign = o[k] < 0 ? -1 : 1;
        uint16_t msb = abs_o < 32768 ? abs_o : adm_best15 (abs_o, &shift);
        int64_t tmp_k = o[k] == 0 ? 32768 :
            (((int64_t) adm_div_lookup[msb + 32768] * t[k]) * sign +
            (1 << (14 + shift))) >> (15 + shift);
        int64_t kk = tmp_k < 0 ? 0 : (tmp_k > 32768 ? 32768 : tmp_k);
        const float rst_f = ((float) kk / 32768) * ((float) o[k] / 64);

        rst[k] = ((kk * o[k]) + 16384) >> 15;
        if (angle && rst_f > 0.)
          rst[k] = rst[k] * egl < t[k] ? rst[k] * egl : t[k];
        if (angle && rst_f < 0.)
          rst[k] = rst[k] * egl > t[k] ? rst[k] * egl : t[k];
      }
      r.h[x] = rst[0];
      r.v[x] = rst[1];
      r.d[x] = rst[2];
      a.h[x] = t[0] - rst[0];
      a.v[x] = t[1] - rst[1];
      a.d[x] = t[2] - rst[2];
    }
  }
}

/* 1 / quantisation step of orientations h, v (theta 1) and d (theta 2). */
static void
adm_rfactor (int scale, float rfactor[3])
{
  const float f1 = adm_quant_step (scale, 1);
  const float f2 = adm_quant_step (scale, 2);

  rfactor[0] = 1.0f / f1;
  rfactor[1] = 1.0f / f1;
  rfactor[2] = 1.0f / f2;
}

/* Level 0 contrast sensitivity of the additive part: csf_a, and csf_f =
 * |csf_a| / 30 for the masking threshold.  libvmaf's fixed-point
 * reciprocals of the default viewing distance (2^21, 2^21, 2^23). */
static void
adm_csf16 (const CompareVmafAdmLevel * lv, AdmBands16 a, int16_t * csf_a[3],
    int16_t * csf_f[3], int w)
{
  static const uint16_t i_rfactor[3] = { 36453, 36453, 49417 };
  static const uint8_t shift[3] = { 15, 15, 17 };
  static const uint16_t add[3] = { 16384, 16384, 65535 };
  const uint16_t one_by_30 = 4369;
  const int16_t *src[3] = { a.h, a.v, a.d };
  const AdmRect rc = lv->filter;

  for (int k = 0; k < 3; k++)
    for (int i = rc.top; i < rc.bottom; i++)
      for (int j = rc.left; j < rc.right; j++) {
        const size_t x = (size_t) i * w + j;
        int32_t v = i_rfactor[k] * (int32_t) src[k][x];
        int16_t c = (int16_t) ((v + add[k]) >> shift[k]);

        csf_a[k][x] = c;
        csf_f[k][x] = (int16_t) (((one_by_30 * abs ((int32_t) c)) + 2048) >>
            12);
      }
}

/* libvmaf stores 1u << 31 in an int32_t: the rounding term of its 2^32
 * shifts at levels 1..3 is -2^31. */
#define ADM_I4_ADD_FLT ((int32_t) INT32_MIN)

static void
adm_csf32 (const CompareVmafAdmLevel * lv, AdmBands32 a, int32_t * csf_a[3],
    int32_t * csf_f[3], int w)
{
  const uint32_t one_by_30 = 143165577;
  const int32_t *src[3] = { a.h, a.v, a.d };
  const AdmRect rc = lv->filter;
  const uint32_t *i_rfactor = lv->i_rfactor;

  for (int k = 0; k < 3; k++)
    for (int i = rc.top; i < rc.bottom; i++)
      for (int j = rc.left; j < rc.right; j++) {
        const size_t x = (size_t) i * w + j;
        int32_t c = (int32_t) (((i_rfactor[k] * (int64_t) src[k][x]) +
                (1u << 27)) >> 28);

        csf_a[k][x] = c;
        csf_f[k][x] = (int32_t) ((((int64_t) one_by_30 * abs (c)) +
                ADM_I4_ADD_FLT) >> 32);
      }
}

/* The denominator's rows: the reference's detail cubed. */
static void
adm_den16 (const CompareVmafAdmLevel * lv, AdmBands16 ref, int w,
    CompareVmafAdmSums * sums)
{
  const AdmRect rc = lv->score;
  const int16_t *src[3] = { ref.h, ref.v, ref.d };

  for (int i = rc.top; i < rc.bottom; i++) {
    uint64_t inner[3] = { 0, 0, 0 };

    for (int j = rc.left; j < rc.right; j++)
      for (int k = 0; k < 3; k++) {
        uint16_t v = (uint16_t) abs (src[k][(size_t) i * w + j]);

        inner[k] += ((uint64_t) v * v) * v;
      }
    compare_vmaf_adm_den_row (lv, sums, inner);
  }
}

static void
adm_den32 (const CompareVmafAdmLevel * lv, AdmBands32 ref, int w,
    CompareVmafAdmSums * sums)
{
  const AdmRect rc = lv->score;
  const int32_t *src[3] = { ref.h, ref.v, ref.d };

  for (int i = rc.top; i < rc.bottom; i++) {
    uint64_t inner[3] = { 0, 0, 0 };

    for (int j = rc.left; j < rc.right; j++)
      for (int k = 0; k < 3; k++) {
        uint32_t v = (uint32_t) abs (src[k][(size_t) i * w + j]);

        inner[k] += ((((((uint64_t) v * v) + lv->den_sq_add) >>
                    lv->den_sq_shift) * v) + lv->den_cub_add) >>
            lv->den_cub_shift;
      }
    compare_vmaf_adm_den_row (lv, sums, inner);
  }
}

/* The masking threshold's 3 x 3 neighbourhood: row/column -1 is 1 (a
 * mirror about 0), row/column n is n - 1 (the last repeated), as
 * libvmaf's ADM_CM_THRESH_S_* cases. */
static inline int
adm_cm_before (int i)
{
  return i == 0 ? 1 : i - 1;
}

static inline int
adm_cm_after (int i, int n)
{
  return i == n - 1 ? n - 1 : i + 1;
}

/* The masking threshold's 8 neighbours of (i, j) in csf_f (int16 at
 * level 0, int32 after: integer sums, so their order does not matter);
 * the centre is the caller's, from csf_a. */
#define ADM_NEIGHBOURS(f, w, i0, i, i2, j0, j, j2) \
  ((int32_t) (f)[(size_t) (i0) * (w) + (j0)] + (f)[(size_t) (i0) * (w) + (j)] \
      + (f)[(size_t) (i0) * (w) + (j2)] + (f)[(size_t) (i) * (w) + (j0)] \
      + (f)[(size_t) (i) * (w) + (j2)] + (f)[(size_t) (i2) * (w) + (j0)] \
      + (f)[(size_t) (i2) * (w) + (j)] + (f)[(size_t) (i2) * (w) + (j2)])

/* Level 0 masking: the restored part beyond the threshold of the
 * additive part's neighbourhood, cubed; the rows' sums. */
static void
adm_cm16 (const CompareVmafAdmLevel * lv, AdmBands16 r, int16_t * csf_a[3],
    int16_t * csf_f[3], int w, int h, CompareVmafAdmSums * sums)
{
  static const uint16_t i_rfactor[3] = { 36453, 36453, 49417 };
  static const int32_t shift_sq[3] = { 29, 29, 30 };
  static const int32_t add_sq[3] = { 268435456, 268435456, 536870912 };
  static const int32_t shift_sub[3] = { 10, 10, 12 };
  const int16_t *src[3] = { r.h, r.v, r.d };
  const AdmRect rc = lv->score;

  for (int i = (rc.top > 0 ? rc.top : 0); i < (rc.bottom < h ? rc.bottom :
          h); i++) {
    const int i0 = adm_cm_before (i), i2 = adm_cm_after (i, h);
    int64_t inner[3] = { 0, 0, 0 };

    for (int j = (rc.left > 0 ? rc.left : 0); j < (rc.right < w ? rc.right :
            w); j++) {
      const int j0 = adm_cm_before (j), j2 = adm_cm_after (j, w);
      int32_t thr = 0;

      for (int k = 0; k < 3; k++)
        thr += ADM_NEIGHBOURS (csf_f[k], w, i0, i, i2, j0, j, j2) +
            (int16_t) (((ADM_ONE_BY_15 * abs ((int32_t) csf_a[k][(size_t)
                            i * w + j])) + 2048) >> 12);
      for (int k = 0; k < 3; k++) {
        int32_t x = src[k][(size_t) i * w + j] * i_rfactor[k];
        int32_t x_sq;

        x = abs (x) - ((int32_t) (thr) << shift_sub[k]);
        x = x < 0 ? 0 : x;
        x_sq = (int32_t) ((((int64_t) x * x) + add_sq[k]) >> shift_sq[k]);
        inner[k] += (((int64_t) x_sq * x) + lv->num_cub_add[k]) >>
            lv->num_cub_shift[k];
      }
    }
    compare_vmaf_adm_num_row (lv, sums, inner);
  }
}

static void
adm_cm32 (const CompareVmafAdmLevel * lv, AdmBands32 r, int32_t * csf_a[3],
    int32_t * csf_f[3], int w, int h, CompareVmafAdmSums * sums)
{
  const int32_t *src[3] = { r.h, r.v, r.d };
  const AdmRect rc = lv->score;
  const uint32_t *i_rfactor = lv->i_rfactor;

  for (int i = (rc.top > 0 ? rc.top : 0); i < (rc.bottom < h ? rc.bottom :
          h); i++) {
    const int i0 = adm_cm_before (i), i2 = adm_cm_after (i, h);
    int64_t inner[3] = { 0, 0, 0 };

    for (int j = (rc.left > 0 ? rc.left : 0); j < (rc.right < w ? rc.right :
            w); j++) {
      const int j0 = adm_cm_before (j), j2 = adm_cm_after (j, w);
      int32_t thr = 0;

      for (int k = 0; k < 3; k++)
        thr += ADM_NEIGHBOURS (csf_f[k], w, i0, i, i2, j0, j, j2) +
            (int32_t) ((((int64_t) ADM_I4_ONE_BY_15 *
                    abs (csf_a[k][(size_t) i * w + j])) + ADM_I4_ADD_FLT) >>
            32);
      for (int k = 0; k < 3; k++) {
        int32_t x = (int32_t) ((((int64_t) src[k][(size_t) i * w + j] *
                    i_rfactor[k]) + (1u << 27)) >> 28);
        int32_t x_sq;

        x = abs (x) - thr;
        x = x < 0 ? 0 : x;
        x_sq = (int32_t) ((((int64_t) x * x) + 536870912) >> 30);
        inner[k] += (((int64_t) x_sq * x) + lv->num_cub_add[0]) >>
            lv->num_cub_shift[0];
      }
    }
    compare_vmaf_adm_num_row (lv, sums, inner);
  }
}

void
compare_vmaf_adm_level (int level, int w, int h, CompareVmafAdmLevel * lv)
{
  static const uint32_t den_sq_shift[3] = { 31, 30, 31 };

  memset (lv, 0, sizeof (*lv));
  lv->level = level;
  lv->filter = adm_rect_filter (w, h);
  lv->score = adm_rect_score (w, h);
  /* As libvmaf: the square of the double cosine, stored in a float. */
  lv->cos_1deg_sq = cos (1.0 * M_PI / 180.0) * cos (1.0 * M_PI / 180.0);
  {
    const AdmRect rc = lv->score;
    const int area = (rc.bottom - rc.top) * (rc.right - rc.left);

    if (level == 0) {
      int32_t shift = (int32_t) ceil (log2 (area) - 20);

      shift = shift > 0 ? shift : 0;
      lv->den_row_shift = shift;
      lv->den_row_add = shift > 0 ? (1 << (shift - 1)) : 0;
      lv->num_cub_shift[0] = (uint32_t) ceil (log2 (w) - 4);
      lv->num_cub_shift[1] = (uint32_t) ceil (log2 (w) - 4);
      lv->num_cub_shift[2] = (uint32_t) ceil (log2 (w) - 3);
      for (int k = 0; k < 3; k++)
        lv->num_cub_add[k] = (uint32_t) pow (2, (lv->num_cub_shift[k] - 1));
    } else {
      float rfactor[3];

      adm_rfactor (level, rfactor);
      for (int k = 0; k < 3; k++)
        lv->i_rfactor[k] = (uint32_t) (rfactor[k] * pow (2, 32));
      lv->den_sq_shift = den_sq_shift[level - 1];
      lv->den_sq_add = 1u << lv->den_sq_shift;
      lv->den_cub_shift = (uint32_t) ceil (log2 (rc.right - rc.left));
      lv->den_cub_add = (uint32_t) pow (2, (lv->den_cub_shift - 1));
      lv->den_row_shift = (uint32_t) ceil (log2 (rc.bottom - rc.top));
      lv->den_row_add = (uint32_t) pow (2, (lv->den_row_shift - 1));
      for (int k = 0; k < 3; k++) {
        lv->num_cub_shift[k] = (uint32_t) ceil (log2 (w));
        lv->num_cub_add[k] = (uint32_t) pow (2, (lv->num_cub_shift[k] - 1));
      }
    }
    lv->num_row_shift = (uint32_t) ceil (log2 (h));
    lv->num_row_add = (uint32_t) pow (2, (lv->num_row_shift - 1));
  }
}

void
compare_vmaf_adm_level_score (const CompareVmafAdmLevel * lv,
    const CompareVmafAdmSums * sums, float *num_out, float *den_out)
{
  static const uint32_t accum_convert_float[3] = { 32, 27, 23 };
  /* (6 + 21) * 3 bits pending at level 0, 29 shifted when squaring (30
   * and 23 for d). */
  static const uint32_t pending[3] = { 52, 52, 57 };
  const AdmRect rc = lv->score;
  const float area = powf ((rc.bottom - rc.top) * (rc.right - rc.left) /
      32.0f, 1.0f / 3.0f);
  float rfactor[3], num = 0.0f, den = 0.0f;
  /* Unsigned, as libvmaf's. */
  const double den_shift = lv->level == 0 ?
      pow (2, (18 - (int32_t) lv->den_row_shift)) :
      pow (2, (accum_convert_float[lv->level - 1] - lv->den_row_shift -
          lv->den_cub_shift));

  adm_rfactor (lv->level, rfactor);
  for (int k = 0; k < 3; k++) {
    double csf = (double) (sums->den[k] / den_shift) * pow (rfactor[k], 3);

    den += powf (csf, 1.0f / 3.0f) + area;
  }
  if (lv->level == 0) {
    for (int k = 0; k < 3; k++) {
      float f = (float) (sums->num[k] / pow (2, (pending[k] -
                  lv->num_cub_shift[k] - lv->num_row_shift)));

      num += powf (f, 1.0f / 3.0f) + area;
    }
  } else {
    const float final_shift[3] = {
      pow (2, (45 - lv->num_cub_shift[0] - lv->num_row_shift)),
      pow (2, (39 - lv->num_cub_shift[0] - lv->num_row_shift)),
      pow (2, (36 - lv->num_cub_shift[0] - lv->num_row_shift))
    };

    for (int k = 0; k < 3; k++) {
      /* int64 / float: a float division, as libvmaf's. */
      float f = (float) (sums->num[k] / final_shift[lv->level - 1]);

      num += powf (f, 1.0f / 3.0f) + area;
    }
  }
  *num_out = num;
  *den_out = den;
}

void
compare_vmaf_adm_score (const float num_level[COMPARE_VMAF_SCALES],
    const float den_level[COMPARE_VMAF_SCALES], int w, int h, double *adm2,
    double scale[COMPARE_VMAF_SCALES])
{
  const double numden_limit = 1e-10 * (w * h) / (1920.0 * 1080.0);
  double num = 0, den = 0;

  for (int s = 0; s < COMPARE_VMAF_SCALES; s++) {
    num += num_level[s];
    den += den_level[s];
    /* double / double of the float sums, as libvmaf's scores[]. */
    scale[s] = (double) num_level[s] / (double) den_level[s];
  }
  num = num < numden_limit ? 0 : num;
  den = den < numden_limit ? 0 : den;
  *adm2 = den == 0.0 ? 1.0f : num / den;
}

/* Carves the scratch: per image 4 bands, then decoupled r and a, csf_a
 * and csf_f (3 each), all of level 0's size in int32 (level 0 uses the
 * int16 view of the same memory). */
typedef struct
{
  AdmBands16 ref16, dis16, r16, a16;
  int16_t *csf_a16[3], *csf_f16[3];
  AdmBands32 ref32, dis32, r32, a32;
  int32_t *csf_a32[3], *csf_f32[3];
  int32_t *approx_ref, *approx_dis;
  int *ind_y[4], *ind_x[4];
  void *tmplo, *tmphi;
} AdmBufs;

static SharpnessStatus
adm_bufs (CompareVmafScratch * scratch, int w, int h, AdmBufs * b)
{
  const size_t band = (size_t) ((w + 1) / 2) * ((h + 1) / 2);
  const int n_bands = 4 + 4 + 3 + 3 + 3 + 3;
  SharpnessStatus st;
  int32_t *p;
  int *ip;

  st = compare_vmaf_scratch_reserve (scratch, VMAF_BUF_ADM_BANDS,
      n_bands * band * sizeof (int32_t));
  if (st == SHARPNESS_OK)
    st = compare_vmaf_scratch_reserve (scratch, VMAF_BUF_ADM_APPROX,
        2 * band * sizeof (int32_t));
  if (st == SHARPNESS_OK)
    st = compare_vmaf_scratch_reserve (scratch, VMAF_BUF_ADM_ROWS,
        (4 * ((size_t) w + h) + 2 * (size_t) w) * sizeof (int32_t));
  if (st != SHARPNESS_OK)
    return st;

  p = scratch->buf[VMAF_BUF_ADM_BANDS];
  {
    int32_t **b32[] = { &b->ref32.a, &b->ref32.v, &b->ref32.h, &b->ref32.d,
      &b->dis32.a, &b->dis32.v, &b->dis32.h, &b->dis32.d,
      &b->r32.h, &b->r32.v, &b->r32.d, &b->a32.h, &b->a32.v, &b->a32.d,
      &b->csf_a32[0], &b->csf_a32[1], &b->csf_a32[2],
      &b->csf_f32[0], &b->csf_f32[1], &b->csf_f32[2]
    };
    int16_t **b16[] = { &b->ref16.a, &b->ref16.v, &b->ref16.h, &b->ref16.d,
      &b->dis16.a, &b->dis16.v, &b->dis16.h, &b->dis16.d,
      &b->r16.h, &b->r16.v, &b->r16.d, &b->a16.h, &b->a16.v, &b->a16.d,
      &b->csf_a16[0], &b->csf_a16[1], &b->csf_a16[2],
      &b->csf_f16[0], &b->csf_f16[1], &b->csf_f16[2]
    };

    for (int k = 0; k < n_bands; k++) {
      *b32[k] = p + k * band;
      *b16[k] = (int16_t *) (p + k * band);
    }
  }
  b->approx_ref = scratch->buf[VMAF_BUF_ADM_APPROX];
  b->approx_dis = b->approx_ref + band;
  ip = scratch->buf[VMAF_BUF_ADM_ROWS];
  for (int k = 0; k < 4; k++) {
    b->ind_y[k] = ip;
    ip += h;
    b->ind_x[k] = ip;
    ip += w;
  }
  b->tmplo = ip;
  b->tmphi = ip + w;
  return SHARPNESS_OK;
}

SharpnessStatus
compare_vmaf_adm (CompareVmafScratch * scratch, const CompareVmafPlane * ref,
    const CompareVmafPlane * dist, double enhn_gain_limit, double *adm2,
    double scale[COMPARE_VMAF_SCALES])
{
  SharpnessStatus st = compare_vmaf_planes_check (ref, dist);
  int w = ref->width, h = ref->height;
  float num[COMPARE_VMAF_SCALES], den[COMPARE_VMAF_SCALES];
  const int32_t *div_lookup;
  AdmBufs b;

  if (st != SHARPNESS_OK)
    return st;
  if (!(enhn_gain_limit >= 1.0 && enhn_gain_limit <= COMPARE_VMAF_EGL_DEFAULT))
    return SHARPNESS_ERROR_INVALID;
  st = adm_bufs (scratch, w, h, &b);
  if (st != SHARPNESS_OK)
    return st;
  if (!scratch->buf[VMAF_BUF_ADM_DIV]) {
    st = compare_vmaf_scratch_reserve (scratch, VMAF_BUF_ADM_DIV,
        COMPARE_VMAF_ADM_DIV_LOOKUP_SIZE * sizeof (int32_t));
    if (st != SHARPNESS_OK)
      return st;
    compare_vmaf_adm_div_lookup (scratch->buf[VMAF_BUF_ADM_DIV]);
  }
  div_lookup = scratch->buf[VMAF_BUF_ADM_DIV];

  for (int s = 0; s < COMPARE_VMAF_SCALES; s++) {
    CompareVmafAdmSums sums = { {0}, {0} };
    CompareVmafAdmLevel lv;

    adm_dwt_indices (b.ind_y, h);
    adm_dwt_indices (b.ind_x, w);
    if (s == 0) {
      adm_dwt_level0 (ref, b.ref16, b.ind_y, b.ind_x, b.tmplo, b.tmphi);
      adm_dwt_level0 (dist, b.dis16, b.ind_y, b.ind_x, b.tmplo, b.tmphi);
      w = (w + 1) / 2;
      h = (h + 1) / 2;
      compare_vmaf_adm_level (s, w, h, &lv);
      for (size_t x = 0; x < (size_t) w * h; x++) {
        b.approx_ref[x] = b.ref16.a[x];
        b.approx_dis[x] = b.dis16.a[x];
      }
      adm_decouple16 (&lv, div_lookup, b.ref16, b.dis16, b.r16, b.a16, w,
          enhn_gain_limit);
      adm_den16 (&lv, b.ref16, w, &sums);
      adm_csf16 (&lv, b.a16, b.csf_a16, b.csf_f16, w);
      adm_cm16 (&lv, b.r16, b.csf_a16, b.csf_f16, w, h, &sums);
    } else {
      adm_dwt_level (b.approx_ref, w, h, s, b.ref32, b.ind_y, b.ind_x,
          b.tmplo, b.tmphi);
      adm_dwt_level (b.approx_dis, w, h, s, b.dis32, b.ind_y, b.ind_x,
          b.tmplo, b.tmphi);
      w = (w + 1) / 2;
      h = (h + 1) / 2;
      compare_vmaf_adm_level (s, w, h, &lv);
      memcpy (b.approx_ref, b.ref32.a, (size_t) w * h * sizeof (int32_t));
      memcpy (b.approx_dis, b.dis32.a, (size_t) w * h * sizeof (int32_t));
      adm_decouple32 (&lv, div_lookup, b.ref32, b.dis32, b.r32, b.a32, w,
          enhn_gain_limit);
      adm_den32 (&lv, b.ref32, w, &sums);
      adm_csf32 (&lv, b.a32, b.csf_a32, b.csf_f32, w);
      adm_cm32 (&lv, b.r32, b.csf_a32, b.csf_f32, w, h, &sums);
    }
    compare_vmaf_adm_level_score (&lv, &sums, &num[s], &den[s]);
  }
  compare_vmaf_adm_score (num, den, ref->width, ref->height, adm2, scale);
  return SHARPNESS_OK;
}
