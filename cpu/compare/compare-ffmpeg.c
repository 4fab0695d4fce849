/* PSNR and SSIM exactly as FFmpeg's psnr and ssim filters (7.1; 5.1 too
 * but for its SSE4 tail bug, docs/reference/cudacompare.md): exact integer sums, then
 * the same float/double operations in the same order (compiled with
 * -ffp-contract=off: no fused multiply-add).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "compare-private.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- PSNR ---------------------------------------------------------------- */

SharpnessStatus
compare_psnr_sse (const ComparePair * pair, uint64_t sse[COMPARE_MAX_PLANES])
{
  SharpnessStatus st = compare_pair_check (pair);
  if (st != SHARPNESS_OK)
    return st;

  for (int c = 0; c < COMPARE_MAX_PLANES; c++)
    sse[c] = 0;
  for (int c = 0; c < pair->n_planes; c++) {
    uint64_t m = 0;
    for (int y = 0; y < pair->height[c]; y++) {
      const uint8_t *a = compare_row (pair->dist[c], pair->dist_stride[c], y);
      const uint8_t *b = compare_row (pair->ref[c], pair->ref_stride[c], y);
      if (pair->depth == 8) {
        /* < 2^32 for any row shorter than 66051 samples, as vf_psnr.c */
        uint32_t line = 0;
        for (int x = 0; x < pair->width[c]; x++) {
          int d = (int) a[x] - (int) b[x];
          line += (uint32_t) (d * d);
        }
        m += line;
      } else {
        for (int x = 0; x < pair->width[c]; x++) {
          int d = (int) compare_load16 (a, x) - (int) compare_load16 (b, x);
          m += (uint64_t) ((int64_t) d * d);
        }
      }
    }
    sse[c] = m;
  }
  return SHARPNESS_OK;
}

void
compare_plane_weights (const ComparePair * layout,
    double weight[COMPARE_MAX_PLANES])
{
  /* vf_psnr.c: unsigned sum; vf_ssim.c: int sum: equal below 2^31. */
  unsigned sum = 0;
  for (int c = 0; c < COMPARE_MAX_PLANES; c++)
    weight[c] = 0.0;
  for (int c = 0; c < layout->n_planes; c++)
    sum += (unsigned) layout->height[c] * (unsigned) layout->width[c];
  for (int c = 0; c < layout->n_planes; c++)
    weight[c] = (double) layout->height[c] * layout->width[c] / sum;
}

int
compare_psnr_average_max (const ComparePair * layout)
{
  double weight[COMPARE_MAX_PLANES], average_max = 0;
  int max = (1 << layout->depth) - 1;

  compare_plane_weights (layout, weight);
  for (int c = 0; c < layout->n_planes; c++)
    average_max += max * weight[c];
  return (int) lrint (average_max);
}

double
compare_psnr_db (double mse_sum, uint64_t n_frames, int max)
{
  /* pow_2 of an unsigned, as vf_psnr.c (65535^2 still fits) */
  unsigned max2 = (unsigned) max * (unsigned) max;
  return 10.0 * log10 (max2 / (mse_sum / n_frames));
}

void
compare_psnr_finish (const ComparePair * layout,
    const uint64_t sse[COMPARE_MAX_PLANES], ComparePsnr * out)
{
  double weight[COMPARE_MAX_PLANES];
  int max = (1 << layout->depth) - 1;

  memset (out, 0, sizeof (*out));
  out->n_planes = layout->n_planes;
  compare_plane_weights (layout, weight);
  out->mse_avg = 0.;
  for (int c = 0; c < layout->n_planes; c++) {
    out->sse[c] = sse[c];
    out->mse[c] = sse[c] / ((double) layout->width[c] * layout->height[c]);
  }
  for (int c = 0; c < layout->n_planes; c++)
    out->mse_avg += out->mse[c] * weight[c];
  for (int c = 0; c < layout->n_planes; c++)
    out->psnr[c] = compare_psnr_db (out->mse[c], 1, max);
  out->psnr_avg = compare_psnr_db (out->mse_avg, 1,
      compare_psnr_average_max (layout));
}

SharpnessStatus
compare_psnr (const ComparePair * pair, ComparePsnr * out)
{
  uint64_t sse[COMPARE_MAX_PLANES];
  SharpnessStatus st = compare_psnr_sse (pair, sse);
  if (st == SHARPNESS_OK)
    compare_psnr_finish (pair, sse, out);
  return st;
}

void
compare_psnr_summary_init (ComparePsnrSummary * s)
{
  memset (s, 0, sizeof (*s));
  s->mse_min = INFINITY;
  s->mse_max = -INFINITY;
}

void
compare_psnr_summary_add (ComparePsnrSummary * s, const ComparePsnr * p)
{
  s->mse_min = fmin (s->mse_min, p->mse_avg);
  s->mse_max = fmax (s->mse_max, p->mse_avg);
  s->mse_avg_sum += p->mse_avg;
  for (int c = 0; c < p->n_planes; c++)
    s->mse_sum[c] += p->mse[c];
  if (isfinite (p->psnr_avg)) {
    s->psnr_avg_sum += p->psnr_avg;
    s->psnr_avg_finite++;
  }
  s->n_frames++;
}

void
compare_psnr_summary_result (const ComparePsnrSummary * s,
    const ComparePair * layout, double psnr[COMPARE_MAX_PLANES],
    double *average, double *min, double *max)
{
  int pmax = (1 << layout->depth) - 1;
  int amax = compare_psnr_average_max (layout);

  for (int c = 0; c < COMPARE_MAX_PLANES; c++)
    psnr[c] = c < layout->n_planes && s->n_frames ?
        compare_psnr_db (s->mse_sum[c], s->n_frames, pmax) : NAN;
  if (!s->n_frames) {
    *average = *min = *max = NAN;
    return;
  }
  *average = compare_psnr_db (s->mse_avg_sum, s->n_frames, amax);
  /* the worst frame has the largest MSE */
  *min = compare_psnr_db (s->mse_max, 1, amax);
  *max = compare_psnr_db (s->mse_min, 1, amax);
}

/* ---- SSIM, FFmpeg mode -------------------------------------------------- */

float
compare_ssim_ffmpeg_window (int64_t s1, int64_t s2, int64_t ss, int64_t s12,
    int max, int high_depth)
{
  /* vf_ssim.c: ssim_end1 (8-bit, constants of 255) or ssim_end1x; the same
   * values in 64-bit (the 8-bit path cannot overflow 32 bits). */
  int64_t c1 = (int64_t) (.01 * .01 * max * max * 64 + .5);
  int64_t c2 = (int64_t) (.03 * .03 * max * max * 64 * 63 + .5);
  int64_t vars, covar;
  float num, den;

  if (!high_depth) {
    c1 = 416;
    c2 = 235963;
  }
  vars = ss * 64 - s1 * s1 - s2 * s2;
  covar = s12 * 64 - s1 * s2;
  num = (float) (2 * s1 * s2 + c1) * (float) (2 * covar + c2);
  den = (float) (s1 * s1 + s2 * s2 + c1) * (float) (vars + c2);
  return num / den;
}

/* The 4x4 block sums (s1 = dist, s2 = ref, ss, s12) of block row @z. */
static void
block_sums (const ComparePair * pair, int c, int z, int w4, int64_t (*sums)[4])
{
  for (int x = 0; x < w4; x++) {
    int64_t s1 = 0, s2 = 0, ss = 0, s12 = 0;
    for (int y = 0; y < 4; y++) {
      const uint8_t *a = compare_row (pair->dist[c], pair->dist_stride[c],
          4 * z + y);
      const uint8_t *b = compare_row (pair->ref[c], pair->ref_stride[c],
          4 * z + y);
      for (int i = 4 * x; i < 4 * x + 4; i++) {
        int64_t va = compare_sample (pair, a, i);
        int64_t vb = compare_sample (pair, b, i);
        s1 += va;
        s2 += vb;
        ss += va * va + vb * vb;
        s12 += va * vb;
      }
    }
    sums[x][0] = s1;
    sums[x][1] = s2;
    sums[x][2] = ss;
    sums[x][3] = s12;
  }
}

/* 8-bit window @i of two block-sum rows of @n blocks, blocks past the row
 * taking the value zero (see compare_ssim_ffmpeg_row). */
float
compare_ssim_ffmpeg_window8 (const int64_t (*sum0)[4],
    const int64_t (*sum1)[4], int i, int n)
{
  int64_t t[4];
  for (int k = 0; k < 4; k++)
    t[k] = (i < n ? sum0[i][k] + sum1[i][k] : 0)
        + (i + 1 < n ? sum0[i + 1][k] + sum1[i + 1][k] : 0);
  return compare_ssim_ffmpeg_window (t[0], t[1], t[2], t[3], 255, 0);
}

double
compare_ssim_ffmpeg_row (const int64_t (*sum0)[4], const int64_t (*sum1)[4],
    int windows, int max, int high_depth)
{
  if (high_depth) {
    /* ssim_endn_16bit: a float accumulator */
    float row = 0.0f;
    for (int i = 0; i < windows; i++)
      row += compare_ssim_ffmpeg_window (
          sum0[i][0] + sum0[i + 1][0] + sum1[i][0] + sum1[i + 1][0],
          sum0[i][1] + sum0[i + 1][1] + sum1[i][1] + sum1[i + 1][1],
          sum0[i][2] + sum0[i + 1][2] + sum1[i][2] + sum1[i + 1][2],
          sum0[i][3] + sum0[i + 1][3] + sum1[i][3] + sum1[i + 1][3],
          max, 1);
    return row;
  } else {
    /* ff_ssim_end_line_sse4 as fixed upstream (7.1 has it, 5.1 not; see
     * docs/reference/cudacompare.md): four double lanes (window i in lane i % 4), reduced as (l0 + l2) +
     * (l1 + l3).  Its last group of four is computed whole, past the row,
     * then the extra windows are subtracted again, in the lanes the asm
     * uses: with (windows % 4) == 1 the window g + 1 stays in lane 1 and
     * comes off lane 0.  Only the valid windows count; the add-subtract
     * still rounds, so it is kept.  Blocks past the row are taken as
     * zero (what FFmpeg holds there for its first, widest plane). */
    double lane[4] = { 0.0, 0.0, 0.0, 0.0 };
    double x[4];
    int rest = windows & 3, g = windows - rest;
    for (int i = 0; i < windows; i++)
      lane[i & 3] += (double) compare_ssim_ffmpeg_window8 (sum0, sum1, i,
          windows + 1);
    if (rest) {
      for (int k = 0; k < 4; k++)
        x[k] = compare_ssim_ffmpeg_window8 (sum0, sum1, g + k, windows + 1);
      for (int k = rest; k < 4; k++)
        lane[k] += x[k];
      if (rest == 3) {
        lane[2] -= x[3];
      } else if (rest == 2) {
        lane[2] -= x[2];
        lane[3] -= x[3];
      } else {
        lane[0] -= x[1];
        lane[2] -= x[2];
        lane[3] -= x[3];
      }
    }
    return (lane[0] + lane[2]) + (lane[1] + lane[3]);
  }
}

SharpnessStatus
compare_ssim_ffmpeg (CompareScratch * scratch, const ComparePair * pair,
    CompareSsim * out)
{
  SharpnessStatus st = compare_pair_check (pair);
  double weight[COMPARE_MAX_PLANES];
  int max, high;

  if (st != SHARPNESS_OK)
    return st;
  if (!scratch)
    return SHARPNESS_ERROR_INVALID;
  max = (1 << pair->depth) - 1;
  high = pair->depth > 8;

  memset (out, 0, sizeof (*out));
  out->n_planes = pair->n_planes;
  for (int c = 0; c < pair->n_planes; c++) {
    int w4 = pair->width[c] >> 2, h4 = pair->height[c] >> 2;
    int64_t (*sum0)[4], (*sum1)[4];
    double ssim = 0.0;

    if (w4 < 2 || h4 < 2) {
      out->ssim[c] = NAN;
      continue;
    }
    st = compare_scratch_reserve (scratch, COMPARE_BUF_SUMS,
        2 * (size_t) w4 * sizeof (int64_t[4]));
    if (st != SHARPNESS_OK)
      return st;
    sum0 = (int64_t (*)[4]) scratch->buf[COMPARE_BUF_SUMS];
    sum1 = sum0 + w4;
    block_sums (pair, c, 0, w4, sum0);
    for (int y = 1; y < h4; y++) {
      /* sum0: block row y, sum1: block row y - 1, as vf_ssim.c */
      int64_t (*t)[4] = sum0;
      sum0 = sum1;
      sum1 = t;
      block_sums (pair, c, y, w4, sum0);
      ssim += compare_ssim_ffmpeg_row ((const int64_t (*)[4]) sum0,
          (const int64_t (*)[4]) sum1, w4 - 1, max, high);
    }
    out->ssim[c] = ssim / ((w4 - 1) * (h4 - 1));
  }

  compare_plane_weights (pair, weight);
  out->all = 0.0;
  for (int c = 0; c < pair->n_planes; c++)
    out->all += weight[c] * out->ssim[c];
  out->db = compare_ssim_db (out->all, 1.0);
  return SHARPNESS_OK;
}

/* ---- FFmpeg's stats_file lines ------------------------------------------ */

int
compare_format_psnr_line (char *buf, size_t size, uint64_t n,
    const ComparePsnr * p, const ComparePair * layout, int rgb)
{
  static const char yuv[] = "yuv", gbr[] = "rgb";
  const char *comps = rgb ? gbr : yuv;
  size_t len = 0;

#define ADD(...) do { \
    int r = snprintf (buf + len, len < size ? size - len : 0, __VA_ARGS__); \
    if (r < 0) return r; \
    len += (size_t) r; \
  } while (0)
  (void) layout;
  ADD ("n:%llu mse_avg:%0.2f ", (unsigned long long) n, p->mse_avg);
  for (int c = 0; c < p->n_planes; c++)
    ADD ("mse_%c:%0.2f ", comps[c], p->mse[c]);
  ADD ("psnr_avg:%0.2f ", p->psnr_avg);
  for (int c = 0; c < p->n_planes; c++)
    ADD ("psnr_%c:%0.2f ", comps[c], p->psnr[c]);
  return (int) len;
}

int
compare_format_ssim_line (char *buf, size_t size, uint64_t n,
    const CompareSsim * s, int rgb)
{
  const char *comps = rgb ? "RGB" : "YUV";
  size_t len = 0;

  ADD ("n:%llu ", (unsigned long long) n);
  for (int c = 0; c < s->n_planes; c++)
    ADD ("%c:%f ", comps[c], s->ssim[c]);
  ADD ("All:%f (%f)", s->all, s->db);
#undef ADD
  return (int) len;
}
