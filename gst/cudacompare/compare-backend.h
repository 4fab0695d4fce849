/* The cudacompare element's backends: a reference and a distorted frame
 * (GstBuffers of negotiated GstVideoInfos of the same size and format) in,
 * the requested metrics out (CompareRequest, CompareResult of
 * compare-metric.h; planes in the layout's order, compare-frame.h), on the
 * CPU or on a CUDA device.  Errors use SHARPNESS_BACKEND_ERROR
 * (sharpness-backend.h).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef COMPARE_BACKEND_H
#define COMPARE_BACKEND_H

#include <gst/gst.h>
#include <gst/video/video.h>

#include "compare.h"
#include "compare-frame.h"
#include "compare-metric.h"
#include "sharpness-backend.h"

G_BEGIN_DECLS

typedef struct _CompareBackend CompareBackend;

/* Receives the luma planes of a pair in host memory (@luma: plane 0 of
 * each frame, samples in the low bits), valid during the call only. */
typedef void (*CompareLumaFunc) (const ComparePair * luma,
    gpointer user_data);

/* A backend (sharpness-backend.h) that compares frames. */
typedef struct
{
  SharpnessBackendClass parent;
  /* FALSE (with @error) only when the frames could not be read or the
   * device failed; metric refusals go to result->status. */
  gboolean (*compare) (CompareBackend * backend, const CompareLayout * layout,
      GstBuffer * ref, const GstVideoInfo * ref_info, GstBuffer * dist,
      const GstVideoInfo * dist_info, const CompareRequest * request,
      CompareResult * result, GError ** error);
  /* Calls @func once with the pair's luma planes in host memory (VMAF,
   * computed on the CPU on either backend: the CUDA backend downloads
   * the planes to its pinned staging); FALSE (with @error) as compare. */
  gboolean (*read_luma) (CompareBackend * backend,
      const CompareLayout * layout, GstBuffer * ref,
      const GstVideoInfo * ref_info, GstBuffer * dist,
      const GstVideoInfo * dist_info, CompareLumaFunc func,
      gpointer user_data, GError ** error);
} CompareBackendClass;

struct _CompareBackend
{
  SharpnessBackend parent;
};

CompareBackend *compare_backend_new_cpu (GstElement * element);
/* NULL when no CUDA driver is usable or the plugin has no CUDA. */
CompareBackend *compare_backend_new_cuda (GstElement * element);

gboolean compare_backend_compare (CompareBackend * backend,
    const CompareLayout * layout, GstBuffer * ref,
    const GstVideoInfo * ref_info, GstBuffer * dist,
    const GstVideoInfo * dist_info, const CompareRequest * request,
    CompareResult * result, GError ** error);

gboolean compare_backend_read_luma (CompareBackend * backend,
    const CompareLayout * layout, GstBuffer * ref,
    const GstVideoInfo * ref_info, GstBuffer * dist,
    const GstVideoInfo * dist_info, CompareLumaFunc func,
    gpointer user_data, GError ** error);

G_END_DECLS
#endif /* COMPARE_BACKEND_H */
