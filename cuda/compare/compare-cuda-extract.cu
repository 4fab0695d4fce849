/* See compare-cuda-extract.h.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <cuda_runtime.h>

#include "compare-cuda-extract.h"

namespace
{

template < typename T > __global__ void
extract_kernel (unsigned char *dst, size_t dst_stride,
    const unsigned char *src, size_t src_stride, int width, int height,
    int step, int shift)
{
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y;

  if (x >= width || y >= height)
    return;
  /* 16-bit samples of an interleaved plane sit at even byte offsets. */
  T v = *(const T *) (src + y * src_stride + (size_t) x * step);
  ((T *) (dst + y * dst_stride))[x] = (T) (v >> shift);
}

}                               /* namespace */

extern "C" SharpnessStatus
compare_cuda_extract (void *stream, void *dst, size_t dst_stride,
    const void *src, size_t src_stride, int width, int height, int step,
    int sample_bytes, int shift)
{
  dim3 block (256), grid ((width + 255) / 256, height);

  if (!dst || !src || width < 1 || height < 1 || height > 65535 || step < 1 ||
      (sample_bytes != 1 && sample_bytes != 2) || shift < 0 || shift > 15)
    return SHARPNESS_ERROR_INVALID;
  if (sample_bytes == 1)
    extract_kernel < unsigned char ><<<grid, block, 0,
        (cudaStream_t) stream >>> ((unsigned char *) dst, dst_stride,
        (const unsigned char *) src, src_stride, width, height, step, shift);
  else
    extract_kernel < unsigned short ><<<grid, block, 0,
        (cudaStream_t) stream >>> ((unsigned char *) dst, dst_stride,
        (const unsigned char *) src, src_stride, width, height, step, shift);
  return cudaGetLastError () == cudaSuccess ? SHARPNESS_OK :
      SHARPNESS_ERROR_DEVICE;
}
