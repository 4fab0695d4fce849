/* SSIM with ssim-mode=wang on the GPU: ssim.m on every plane (optionally
 * after its downsampling), one SSIM map launch per plane
 * (compare-wang.cu), in double precision as the CPU core's
 * compare_ssim_wang.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "compare-cuda-private.cuh"

namespace compare_cuda
{
namespace
{

/* Plane @c's ssim.m downsampling factor and its size after it. */
int
plane_size (const ComparePair * pair, const CompareRequest * req, int c,
    int *w, int *h)
{
  const int f = req->downsample ?
      compare_wang_downsample_factor (pair->width[c], pair->height[c]) : 1;
  *w = (pair->width[c] + f - 1) / f;
  *h = (pair->height[c] + f - 1) / f;
  return f;
}

/* One SSIM map per plane, into result slot c: downsampled images (if
 * any) and block partials one plane after the other. */
SharpnessStatus
queue (CompareCuda * cuda, const ComparePair * pair,
    const CompareRequest * req)
{
  size_t img_n = 0, part_n = 0;
  void *img, *partial;
  SharpnessStatus st = SHARPNESS_OK;
  int w, h;

  for (int c = 0; c < pair->n_planes; c++) {
    const int f = plane_size (pair, req, c, &w, &h);
    if (w < kWin || h < kWin)
      return SHARPNESS_ERROR_UNSUPPORTED;
    img_n += f > 1 ? 2 * (size_t) w * h : 0;
    part_n += compare_cuda_wang_blocks (w, h);
  }
  if ((st = compare_cuda_reserve (cuda, COMPARE_METRIC_ID_SSIM,
              COMPARE_CUDA_BUF_DATA, img_n * sizeof (double), &img))
      || (st = compare_cuda_reserve (cuda, COMPARE_METRIC_ID_SSIM,
              COMPARE_CUDA_BUF_PARTIAL, part_n * sizeof (double2), &partial)))
    return st;

  img_n = part_n = 0;
  for (int c = 0; c < pair->n_planes && st == SHARPNESS_OK; c++) {
    const int f = plane_size (pair, req, c, &w, &h);
    st = compare_cuda_wang_plane (cuda, pair, c, f, (double *) img + img_n,
        (double2 *) partial + part_n, c);
    img_n += f > 1 ? 2 * (size_t) w * h : 0;
    part_n += compare_cuda_wang_blocks (w, h);
  }
  return st;
}

void
finish (CompareCuda * cuda, const ComparePair * pair,
    const CompareRequest * req, CompareResult * result)
{
  CompareSsim *out = &result->ssim;
  double weight[COMPARE_MAX_PLANES];
  int w, h;

  memset (out, 0, sizeof (*out));
  out->n_planes = pair->n_planes;
  for (int c = 0; c < pair->n_planes; c++) {
    plane_size (pair, req, c, &w, &h);
    out->ssim[c] = cuda->results->wang[c].x /
        ((double) (w - (kWin - 1)) * (h - (kWin - 1)));
  }
  compare_plane_weights (pair, weight);
  out->all = 0.0;
  for (int c = 0; c < pair->n_planes; c++)
    out->all += weight[c] * out->ssim[c];
  out->db = compare_ssim_db (out->all, 1.0);
}

}  // namespace
}  // namespace compare_cuda

/* Not a row of the table: SSIM's descriptor (compare-ssim-ffmpeg.cu)
 * points here for ssim-mode=wang. */
const CompareCudaMetric compare_cuda_ssim_wang_mode = {
  COMPARE_METRIC_ID_SSIM, compare_cuda_wang_init, compare_cuda::queue,
  compare_cuda::finish, nullptr
};
