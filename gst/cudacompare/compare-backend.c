/* The compare backends' dispatch, the CPU backend, and the CUDA stub of a
 * build without CUDA.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "compare-backend.h"

gboolean
compare_backend_compare (CompareBackend * b, const CompareLayout * layout,
    GstBuffer * ref, const GstVideoInfo * ref_info, GstBuffer * dist,
    const GstVideoInfo * dist_info, const CompareRequest * request,
    CompareResult * result, GError ** error)
{
  for (gint m = 0; m < COMPARE_N_METRICS; m++)
    result->status[m] = SHARPNESS_ERROR_UNSUPPORTED;
  return ((const CompareBackendClass *) b->parent.klass)->compare (b, layout,
      ref, ref_info, dist, dist_info, request, result, error);
}

gboolean
compare_backend_read_luma (CompareBackend * b, const CompareLayout * layout,
    GstBuffer * ref, const GstVideoInfo * ref_info, GstBuffer * dist,
    const GstVideoInfo * dist_info, CompareLumaFunc func, gpointer user_data,
    GError ** error)
{
  return ((const CompareBackendClass *) b->parent.klass)->read_luma (b,
      layout, ref, ref_info, dist, dist_info, func, user_data, error);
}

/* ---- CPU ---------------------------------------------------------------- */

typedef struct
{
  CompareBackend parent;
  CompareScratch *scratch;      /* between open and close */
  CompareHostScratch host;
} CompareBackendCpu;

static gboolean
cpu_open (SharpnessBackend * backend, gint device_id, GError ** error)
{
  CompareBackendCpu *self = (CompareBackendCpu *) backend;

  if (self->scratch)
    return TRUE;
  self->scratch = compare_scratch_new ();
  if (!self->scratch) {
    g_set_error (error, SHARPNESS_BACKEND_ERROR,
        SHARPNESS_BACKEND_ERROR_NO_DEVICE, "could not allocate the CPU backend");
    return FALSE;
  }
  return TRUE;
}

static void
cpu_close (SharpnessBackend * backend)
{
  CompareBackendCpu *self = (CompareBackendCpu *) backend;

  g_clear_pointer (&self->scratch, compare_scratch_free);
  compare_host_scratch_clear (&self->host);
}

static gboolean
cpu_is_open (SharpnessBackend * backend)
{
  return ((CompareBackendCpu *) backend)->scratch != NULL;
}

/* Both frames mapped for reading (CUDA memory is downloaded by the map:
 * slow, but only a fallback); FALSE with @error, none left mapped. */
static gboolean
map_pair (GstBuffer * ref, const GstVideoInfo * ref_info, GstBuffer * dist,
    const GstVideoInfo * dist_info, GstVideoFrame * rf, GstVideoFrame * df,
    GError ** error)
{
  if (!gst_video_frame_map (rf, ref_info, ref, GST_MAP_READ)) {
    g_set_error (error, SHARPNESS_BACKEND_ERROR, SHARPNESS_BACKEND_ERROR_MAP,
        "could not map a reference frame for reading");
    return FALSE;
  }
  if (!gst_video_frame_map (df, dist_info, dist, GST_MAP_READ)) {
    gst_video_frame_unmap (rf);
    g_set_error (error, SHARPNESS_BACKEND_ERROR, SHARPNESS_BACKEND_ERROR_MAP,
        "could not map a distorted frame for reading");
    return FALSE;
  }
  return TRUE;
}

static gboolean
cpu_compare (CompareBackend * backend, const CompareLayout * layout,
    GstBuffer * ref, const GstVideoInfo * ref_info, GstBuffer * dist,
    const GstVideoInfo * dist_info, const CompareRequest * request,
    CompareResult * result, GError ** error)
{
  CompareBackendCpu *self = (CompareBackendCpu *) backend;
  GstVideoFrame rf, df;
  ComparePair pair;
  gboolean ok;

  g_return_val_if_fail (self->scratch != NULL, FALSE);

  if (!map_pair (ref, ref_info, dist, dist_info, &rf, &df, error))
    return FALSE;

  compare_layout_pair (layout, ref_info, &pair);
  ok = compare_frame_fill_host (layout, &rf, 0, &self->host, &pair) &&
      compare_frame_fill_host (layout, &df, 1, &self->host, &pair);
  if (ok)
    compare_compute (self->scratch, &pair, request, result);
  gst_video_frame_unmap (&df);
  gst_video_frame_unmap (&rf);
  if (!ok)
    g_set_error (error, SHARPNESS_BACKEND_ERROR, SHARPNESS_BACKEND_ERROR_FRAME,
        "out of memory");
  return ok;
}

static gboolean
cpu_read_luma (CompareBackend * backend, const CompareLayout * layout,
    GstBuffer * ref, const GstVideoInfo * ref_info, GstBuffer * dist,
    const GstVideoInfo * dist_info, CompareLumaFunc func, gpointer user_data,
    GError ** error)
{
  CompareBackendCpu *self = (CompareBackendCpu *) backend;
  GstVideoFrame rf, df;
  ComparePair pair;
  gboolean ok;

  if (!map_pair (ref, ref_info, dist, dist_info, &rf, &df, error))
    return FALSE;
  compare_layout_pair (layout, ref_info, &pair);
  pair.n_planes = 1;
  /* Planar luma is read in place; P010's shifted samples are moved to the
   * low bits in the grow-only host scratch. */
  ok = compare_frame_fill_host_plane (layout, &rf, 0, 0, &self->host, &pair)
      && compare_frame_fill_host_plane (layout, &df, 1, 0, &self->host,
      &pair);
  if (ok)
    func (&pair, user_data);
  gst_video_frame_unmap (&df);
  gst_video_frame_unmap (&rf);
  if (!ok)
    g_set_error (error, SHARPNESS_BACKEND_ERROR, SHARPNESS_BACKEND_ERROR_FRAME,
        "out of memory");
  return ok;
}

static void
cpu_free (SharpnessBackend * backend)
{
  cpu_close (backend);
  g_free (backend);
}

static const CompareBackendClass cpu_class = {
  .parent = {
        .name = "cpu",
        .open = cpu_open,
        .close = cpu_close,
        .is_open = cpu_is_open,
        .free = cpu_free,
      },
  .compare = cpu_compare,
  .read_luma = cpu_read_luma,
};

CompareBackend *
compare_backend_new_cpu (GstElement * element)
{
  CompareBackendCpu *self = g_new0 (CompareBackendCpu, 1);

  self->parent.parent.klass = &cpu_class.parent;
  self->parent.parent.element = element;
  return &self->parent;
}

#ifndef HAVE_CUDA
CompareBackend *
compare_backend_new_cuda (GstElement * element)
{
  return NULL;
}
#endif
