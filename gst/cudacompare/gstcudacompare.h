/* cudacompare: full-reference PSNR, SSIM and MS-SSIM of a distorted video
 * against its reference, on the GPU or the CPU.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef GST_CUDA_COMPARE_H
#define GST_CUDA_COMPARE_H

#include <gst/base/gstaggregator.h>

G_BEGIN_DECLS

#define GST_TYPE_CUDA_COMPARE (gst_cuda_compare_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaCompare, gst_cuda_compare, GST, CUDA_COMPARE,
    GstAggregator)

GST_ELEMENT_REGISTER_DECLARE (cudacompare);

G_END_DECLS
#endif /* GST_CUDA_COMPARE_H */
