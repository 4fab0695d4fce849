/* cudasharpness: per-frame sharpness scores, on the GPU or the CPU.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef GST_CUDA_SHARPNESS_H
#define GST_CUDA_SHARPNESS_H

#include <gst/base/gstbasetransform.h>

G_BEGIN_DECLS

#define GST_TYPE_CUDA_SHARPNESS (gst_cuda_sharpness_get_type ())
G_DECLARE_FINAL_TYPE (GstCudaSharpness, gst_cuda_sharpness, GST,
    CUDA_SHARPNESS, GstBaseTransform)

GST_ELEMENT_REGISTER_DECLARE (cudasharpness);

G_END_DECLS
#endif /* GST_CUDA_SHARPNESS_H */
