/* Full-reference comparison of a distorted frame with its reference: PSNR
 * and SSIM exactly as FFmpeg's psnr and ssim filters compute them, SSIM as
 * Wang et al. 2004 (ssim.m) and MS-SSIM as Wang's msssim.m.  Plain C, no
 * GStreamer, no CUDA; docs/reference/cudacompare.md has the definitions.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef COMPARE_H
#define COMPARE_H

#include <stddef.h>
#include <stdint.h>

#include "sharpness-status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define COMPARE_MAX_PLANES 3
#define COMPARE_MS_SSIM_SCALES 5

/* Up to three planes of a reference and a distorted frame of the same
 * layout.  depth 8: one byte a sample; depth 9..16: 16-bit little-endian
 * samples (the low @depth bits used).  Strides in bytes. */
typedef struct
{
  int n_planes;
  int depth;
  int width[COMPARE_MAX_PLANES];
  int height[COMPARE_MAX_PLANES];
  const void *ref[COMPARE_MAX_PLANES];
  const void *dist[COMPARE_MAX_PLANES];
  size_t ref_stride[COMPARE_MAX_PLANES];
  size_t dist_stride[COMPARE_MAX_PLANES];
} ComparePair;

/* vf_psnr.c's per-frame values.  psnr = +inf where mse = 0. */
typedef struct
{
  int n_planes;
  uint64_t sse[COMPARE_MAX_PLANES];
  double mse[COMPARE_MAX_PLANES];
  double psnr[COMPARE_MAX_PLANES];
  double mse_avg;               /* plane-size-weighted MSE */
  double psnr_avg;              /* of mse_avg, with vf_psnr.c's average max */
} ComparePsnr;

/* SSIM per plane, 'All' (plane-size weighted) and its dB value. */
typedef struct
{
  int n_planes;
  double ssim[COMPARE_MAX_PLANES];
  double all;
  double db;
} CompareSsim;

/* msssim.m on luma (plane 0): the product, and the per-scale means. */
typedef struct
{
  double ms_ssim;
  double ssim[COMPARE_MS_SSIM_SCALES];  /* mean SSIM of each scale */
  double cs[COMPARE_MS_SSIM_SCALES];    /* mean contrast-structure term */
} CompareMsSsim;

/* MS-SSIM exponents of msssim.m, finest scale first. */
extern const double compare_ms_ssim_weights[COMPARE_MS_SSIM_SCALES];

/* SHARPNESS_OK when @pair is usable: 1..3 planes, depth 8..16, positive
 * sizes, non-NULL data, strides covering a row. */
SharpnessStatus compare_pair_check (const ComparePair * pair);

/* --- PSNR (vf_psnr.c) --------------------------------------------------- */

/* Exact sum of squared differences of every plane. */
SharpnessStatus compare_psnr_sse (const ComparePair * pair,
    uint64_t sse[COMPARE_MAX_PLANES]);
/* The per-frame values from the sums: only n_planes, depth, width and
 * height of @layout are read (the CUDA backend finishes its sums here). */
void compare_psnr_finish (const ComparePair * layout,
    const uint64_t sse[COMPARE_MAX_PLANES], ComparePsnr * out);
SharpnessStatus compare_psnr (const ComparePair * pair, ComparePsnr * out);

/* vf_psnr.c's get_psnr: 10 log10 (max^2 / (mse / n_frames)); +inf for 0. */
double compare_psnr_db (double mse_sum, uint64_t n_frames, int max);

/* Running sums for FFmpeg's end-of-stream line: "PSNR y:.. u:.. v:..
 * average:.. min:.. max:.." where average is the PSNR of the mean MSE. */
typedef struct
{
  uint64_t n_frames;
  double mse_sum[COMPARE_MAX_PLANES];
  double mse_avg_sum;
  double mse_min, mse_max;
  double psnr_avg_sum;          /* mean of per-frame psnr_avg (finite ones) */
  uint64_t psnr_avg_finite;
} ComparePsnrSummary;

void compare_psnr_summary_init (ComparePsnrSummary * s);
void compare_psnr_summary_add (ComparePsnrSummary * s, const ComparePsnr * p);
/* PSNR of the mean MSE per plane and averaged, and of the worst (@min) and
 * best (@max) frame, as vf_psnr.c's uninit prints them. */
void compare_psnr_summary_result (const ComparePsnrSummary * s,
    const ComparePair * layout, double psnr[COMPARE_MAX_PLANES],
    double *average, double *min, double *max);

/* --- SSIM, FFmpeg mode (vf_ssim.c) ------------------------------------- */

/* Scratch of the block-sum rows and of the float modes' images: grows to
 * the largest frame seen, then no allocation. */
typedef struct CompareScratch CompareScratch;
CompareScratch *compare_scratch_new (void);
void compare_scratch_free (CompareScratch * scratch);

/* vf_ssim.c (one slice, the x86 SSE4 row summation order, its tail as
 * fixed after FFmpeg 5.1: the valid windows only).  A plane with
 * fewer than 8 columns or rows gives NaN (FFmpeg divides by zero). */
SharpnessStatus compare_ssim_ffmpeg (CompareScratch * scratch,
    const ComparePair * pair, CompareSsim * out);

/* vf_ssim.c's per-window value (8x8 window sums, float as FFmpeg). */
float compare_ssim_ffmpeg_window (int64_t s1, int64_t s2, int64_t ss,
    int64_t s12, int max, int high_depth);

/* vf_ssim.c's ssim_db: 10 log10 (weight / (weight - ssim)), +inf when
 * |weight - ssim| <= 1e-9. */
double compare_ssim_db (double ssim, double weight);
/* Plane-size weights of 'All' (vf_ssim.c's coefs, also vf_psnr.c's). */
void compare_plane_weights (const ComparePair * layout,
    double weight[COMPARE_MAX_PLANES]);

/* The stats_file lines FFmpeg (5.1, 7.1) writes (without the newline),
 * from our values: "n:1 mse_avg:.. mse_y:.. .. psnr_avg:.. psnr_y:.. " (psnr v1,
 * with its trailing space) and "n:1 Y:.. U:.. V:.. All:.. (..)". */
int compare_format_psnr_line (char *buf, size_t size, uint64_t n,
    const ComparePsnr * p, const ComparePair * layout, int rgb);
int compare_format_ssim_line (char *buf, size_t size, uint64_t n,
    const CompareSsim * s, int rgb);

/* --- SSIM, Wang mode and MS-SSIM (double precision) -------------------- */

/* ssim.m: 11x11 Gaussian (sigma 1.5), K1 0.01, K2 0.03, L 2^depth - 1, mean
 * over the 'valid' region, every plane; with @downsample, ssim.m's
 * automatic f x f box filter and subsampling first (f = max (1,
 * round (min (W, H) / 256)), per plane).  Planes smaller than 11 (after
 * downsampling): SHARPNESS_ERROR_UNSUPPORTED. */
SharpnessStatus compare_ssim_wang (CompareScratch * scratch,
    const ComparePair * pair, int downsample, CompareSsim * out);

/* msssim.m on plane 0: 5 scales, 2x2 mean downsampling.  A negative mean
 * cs (or SSIM at the coarsest scale) makes ms_ssim NaN (docs/reference/cudacompare.md);
 * the per-scale values are still filled.  The luma plane must be at least
 * 176 x 176 (11 at the coarsest scale), else UNSUPPORTED. */
SharpnessStatus compare_ms_ssim (CompareScratch * scratch,
    const ComparePair * pair, CompareMsSsim * out);

/* ssim.m's downsampling factor for a W x H plane. */
int compare_wang_downsample_factor (int width, int height);

#ifdef __cplusplus
}
#endif
#endif /* COMPARE_H */
