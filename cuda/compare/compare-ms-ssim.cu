/* MS-SSIM on the GPU: msssim.m on the luma, an SSIM map launch per scale
 * (compare-wang.cu) and a 2x2 downsampling between them, in double
 * precision as the CPU core's compare_ms_ssim.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <cmath>

#include "compare-cuda-private.cuh"

namespace compare_cuda
{
namespace
{

/* The luma's size at each scale. */
void
scale_sizes (const ComparePair * pair, int w[COMPARE_MS_SSIM_SCALES],
    int h[COMPARE_MS_SSIM_SCALES])
{
  w[0] = pair->width[0];
  h[0] = pair->height[0];
  for (int s = 1; s < COMPARE_MS_SSIM_SCALES; s++) {
    w[s] = (w[s - 1] + 1) / 2;
    h[s] = (h[s - 1] + 1) / 2;
  }
}

/* Scale 0 from the samples, scale 1 downsampled from them; then two pairs
 * of images of the scale-1 size, used in turn.  Scale s into result slot
 * kWangMsSlot + s. */
SharpnessStatus
queue (CompareCuda * cuda, const ComparePair * pair,
    const CompareRequest * req)
{
  int sw[COMPARE_MS_SSIM_SCALES], sh[COMPARE_MS_SSIM_SCALES];
  const double L = (double) ((1 << pair->depth) - 1);
  size_t at[COMPARE_MS_SSIM_SCALES], part_n = 0;
  void *buf, *partial;
  SharpnessStatus st;

  if ((pair->width[0] + 15) / 16 < kWin || (pair->height[0] + 15) / 16 < kWin)
    return SHARPNESS_ERROR_UNSUPPORTED;
  scale_sizes (pair, sw, sh);
  for (int s = 0; s < COMPARE_MS_SSIM_SCALES; s++) {
    at[s] = part_n;
    part_n += compare_cuda_wang_blocks (sw[s], sh[s]);
  }
  const size_t n = (size_t) sw[1] * sh[1];      /* doubles of an image */
  if ((st = compare_cuda_reserve (cuda, COMPARE_METRIC_ID_MS_SSIM,
              COMPARE_CUDA_BUF_DATA, 4 * n * sizeof (double), &buf))
      || (st = compare_cuda_reserve (cuda, COMPARE_METRIC_ID_MS_SSIM,
              COMPARE_CUDA_BUF_PARTIAL, part_n * sizeof (double2),
              &partial)))
    return st;
  double *img = (double *) buf;
  double2 *part = (double2 *) partial;

  if ((st = compare_cuda_wang_plane (cuda, pair, 0, 1, nullptr, part + at[0],
              kWangMsSlot)))
    return st;
  compare_cuda_downsample_plane (cuda, pair, 0, 2, img, img + n);
  for (int s = 1; s < COMPARE_MS_SSIM_SCALES; s++) {
    double *cx = img + (size_t) ((s - 1) & 1) * 2 * n, *cy = cx + n;
    if ((st = compare_cuda_wang_images (cuda, cx, cy, sw[s], sh[s], L,
                part + at[s], kWangMsSlot + s)))
      return st;
    if (s + 1 < COMPARE_MS_SSIM_SCALES) {
      double *nx = img + (size_t) (s & 1) * 2 * n;
      compare_cuda_downsample_images (cuda, cx, cy, sw[s], sh[s], 2, nx,
          nx + n);
    }
  }
  return compare_cuda_check (cuda, cudaGetLastError (), "ms-ssim kernels");
}

void
finish (CompareCuda * cuda, const ComparePair * pair,
    const CompareRequest * req, CompareResult * result)
{
  CompareMsSsim *out = &result->ms_ssim;
  int sw[COMPARE_MS_SSIM_SCALES], sh[COMPARE_MS_SSIM_SCALES];
  double prod = 1.0;

  scale_sizes (pair, sw, sh);
  memset (out, 0, sizeof (*out));
  for (int s = 0; s < COMPARE_MS_SSIM_SCALES; s++) {
    const double2 r = cuda->results->wang[kWangMsSlot + s];
    const double cnt = (double) (sw[s] - (kWin - 1)) * (sh[s] - (kWin - 1));
    out->ssim[s] = r.x / cnt;
    out->cs[s] = r.y / cnt;
  }
  for (int s = 0; s < COMPARE_MS_SSIM_SCALES - 1; s++)
    prod *= pow (out->cs[s], compare_ms_ssim_weights[s]);
  out->ms_ssim = prod * pow (out->ssim[COMPARE_MS_SSIM_SCALES - 1],
      compare_ms_ssim_weights[COMPARE_MS_SSIM_SCALES - 1]);
}

}  // namespace
}  // namespace compare_cuda

COMPARE_CUDA_METRIC (MS_SSIM, ms_ssim, compare_cuda_wang_init,
    compare_cuda::queue, compare_cuda::finish, nullptr);
