/* The tools' GPU set-up, shared by sharpness-scan and sharpness-monitor:
 * GPU decoders in or out of autoplugging, and one CUDA context for every
 * pipeline of the process.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SHARPNESS_TOOL_GPU_H
#define SHARPNESS_TOOL_GPU_H

#include <gst/gst.h>

G_BEGIN_DECLS

/* Sets the rank of the NVIDIA decoders: above the software decoders (GPU
 * decoding, frames in CUDA memory) or out of autoplugging (GST_RANK_NONE).
 * Returns TRUE when there is at least one. */
gboolean sharpness_tool_gpu_rank_decoders (guint rank);

/* Whether cudasharpness can score on CUDA device @device_id (-1: any);
 * the CUDA context it made goes to @context, for the pipelines to share
 * (gst_element_set_context on each pipeline). */
gboolean sharpness_tool_gpu_backend_usable (gint device_id,
    GstContext ** context);

/* Whether what @pad can produce includes CUDA memory: a GPU decoder's
 * pad, whose frames can stay on the GPU. */
gboolean sharpness_tool_pad_offers_cuda (GstPad * pad);

G_END_DECLS
#endif /* SHARPNESS_TOOL_GPU_H */
