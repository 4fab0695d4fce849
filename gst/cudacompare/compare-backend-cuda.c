/* The CUDA compare backend: a CUDA session (sharpness-cuda-session.h)
 * around cuda/compare.  CUDA memory of the session's context is read in
 * place; system memory (ideally from the pinned pool offered upstream) is
 * copied to device scratch; planes the kernels cannot read as they are
 * (NV12 chroma, packed RGB, P010) are extracted on the device first.
 * VMAF has no kernels yet: its luma planes are downloaded to host staging
 * and scored by the same CPU code as the CPU backend's (read_luma).
 * Compiled only when HAVE_CUDA.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <gst/cuda/gstcudaloader.h>
#include <gst/cuda/gstcudacontext.h>
#include <gst/cuda/gstcudautils.h>

#include "compare-backend.h"
#include "compare-cuda.h"
#include "compare-cuda-extract.h"
#include "sharpness-cuda-backend.h"

/* Session slots: uploaded video planes of the reference (0..3) and of the
 * distorted frame (4..7), extracted planes (8..13). */
#define SLOT_UPLOAD(which, p) ((which) * 4 + (p))
#define SLOT_EXTRACT(which, c) (8 + (which) * COMPARE_MAX_PLANES + (c))
#define PITCH_ALIGN 256

/* A CompareBackend: its common entry points are the session's. */
typedef struct
{
  SharpnessCudaBackend parent;
  CompareCuda *cuda;            /* made in the session's context */
  /* VMAF's luma planes downloaded from the device (reference, distorted):
   * grow-only host staging.  Pageable: the CPU VMAF reading them takes
   * some hundred times the copy's time, so pinned memory (and its
   * lifetime in the context) would save nothing that shows. */
  guint8 *luma[2];
  gsize luma_size[2];
  /* Luma of frames in system memory: read in place, or extracted. */
  CompareHostScratch host;
} CompareBackendCuda;

static gboolean
backend_setup (gpointer user_data, CUstream stream, GError ** error)
{
  CompareBackendCuda *self = user_data;
  SharpnessStatus status = compare_cuda_new (stream, &self->cuda);

  if (status == SHARPNESS_OK)
    return TRUE;
  self->cuda = NULL;
  g_set_error (error, SHARPNESS_BACKEND_ERROR,
      SHARPNESS_BACKEND_ERROR_NO_DEVICE,
      "cannot set up the CUDA compare backend: %s",
      sharpness_status_to_string (status));
  return FALSE;
}

static void
backend_teardown (gpointer user_data)
{
  CompareBackendCuda *self = user_data;

  g_clear_pointer (&self->cuda, compare_cuda_free);
}

/* Bytes of a row of video plane @p of @vf. */
static gsize
plane_row_bytes (const GstVideoFrame * vf, guint p)
{
  gint comp[GST_VIDEO_MAX_COMPONENTS];
  gsize row = 0;

  gst_video_format_info_component (vf->info.finfo, p, comp);
  for (gint i = 0; i < GST_VIDEO_MAX_COMPONENTS && comp[i] >= 0; i++)
    row = MAX (row, (gsize) GST_VIDEO_FRAME_COMP_WIDTH (vf, comp[i]) *
        GST_VIDEO_FRAME_COMP_PSTRIDE (vf, comp[i]));
  return row;
}

/* Fills @pair's planes of frame @which with device pointers: in place,
 * or uploaded, then extracted where the layout needs it.  Pushed. */
static gboolean
fill_device (CompareBackendCuda * self, const CompareLayout * layout,
    const SharpnessCudaFrame * frame, gint which, ComparePair * pair,
    GError ** error)
{
  const GstVideoFrame *vf = &frame->frame;
  CUstream stream = sharpness_cuda_session_stream (self->parent.session);
  CUdeviceptr plane_dev[GST_VIDEO_MAX_PLANES] = { 0, };
  gsize plane_pitch[GST_VIDEO_MAX_PLANES] = { 0, };

  for (gint c = 0; c < layout->n_planes; c++) {
    gint comp = layout->comp[c];
    guint p = layout->plane[c];
    gsize poffset = layout->poffset[c];
    const guint8 *src;
    gsize stride;

    if (frame->device) {
      src = COMPARE_LAYOUT_DATA (layout, vf, c);
      stride = GST_VIDEO_FRAME_COMP_STRIDE (vf, comp);
    } else {
      if (!plane_dev[p]) {
        gsize row = plane_row_bytes (vf, p);
        gsize rows = GST_VIDEO_FRAME_COMP_HEIGHT (vf, comp);

        plane_pitch[p] = GST_ROUND_UP_N (row, PITCH_ALIGN);
        if (!sharpness_cuda_session_slot (self->parent.session, SLOT_UPLOAD (which,
                    p), plane_pitch[p] * rows, &plane_dev[p], error) ||
            !sharpness_cuda_session_upload (self->parent.session, plane_dev[p],
                plane_pitch[p], GST_VIDEO_FRAME_PLANE_DATA (vf, p),
                GST_VIDEO_FRAME_PLANE_STRIDE (vf, p), row, rows, error))
          return FALSE;
      }
      src = (const guint8 *) (guintptr) plane_dev[p] + poffset;
      stride = plane_pitch[p];
    }

    if (!compare_layout_plane_direct (layout, vf, c)) {
      gint w = GST_VIDEO_FRAME_COMP_WIDTH (vf, comp);
      gint h = GST_VIDEO_FRAME_COMP_HEIGHT (vf, comp);
      gsize out_stride = GST_ROUND_UP_N ((gsize) w * layout->sample_bytes,
          PITCH_ALIGN);
      CUdeviceptr out;

      if (!sharpness_cuda_session_slot (self->parent.session, SLOT_EXTRACT (which,
                  c), out_stride * h, &out, error))
        return FALSE;
      if (compare_cuda_extract (stream, (void *) (guintptr) out, out_stride,
              src, stride, w, h, GST_VIDEO_FRAME_COMP_PSTRIDE (vf, comp),
              layout->sample_bytes, GST_VIDEO_FORMAT_INFO_SHIFT (vf->info.finfo,
                  comp)) != SHARPNESS_OK) {
        g_set_error (error, SHARPNESS_BACKEND_ERROR,
            SHARPNESS_BACKEND_ERROR_FRAME, "cannot extract plane %d", c);
        return FALSE;
      }
      src = (const guint8 *) (guintptr) out;
      stride = out_stride;
    }

    if (which)
      pair->dist[c] = src, pair->dist_stride[c] = stride;
    else
      pair->ref[c] = src, pair->ref_stride[c] = stride;
  }
  return TRUE;
}

/* A device failure: sticky (context lost) or this frame only. */
static gboolean
fail (CompareBackendCuda * self, GError ** error)
{
  const gchar *msg = self->cuda ? compare_cuda_last_error (self->cuda) :
      "no backend";
  gboolean lost = sharpness_cuda_session_check_lost (self->parent.session);

  if (lost)
    GST_ERROR_OBJECT (self->parent.parent.element, "CUDA context is unusable: %s",
        msg);
  g_set_error (error, SHARPNESS_BACKEND_ERROR, lost ?
      SHARPNESS_BACKEND_ERROR_DEVICE_LOST : SHARPNESS_BACKEND_ERROR_FRAME,
      "CUDA compare backend: %s", msg);
  return FALSE;
}

/* Both frames mapped (the distorted frame may bring its context; a
 * reference in another context is then read through the host rather than
 * switching back and forth every frame) and the context pushed; FALSE
 * with @error, nothing left mapped or pushed. */
static gboolean
map_and_push (CompareBackendCuda * self, GstBuffer * ref,
    const GstVideoInfo * ref_info, GstBuffer * dist,
    const GstVideoInfo * dist_info, SharpnessCudaFrame * rf,
    SharpnessCudaFrame * df, GError ** error)
{
  if (!sharpness_cuda_session_ready (self->parent.session, error))
    return FALSE;
  if (!sharpness_cuda_session_map (self->parent.session, dist, dist_info,
          TRUE, df, error))
    return FALSE;
  if (!sharpness_cuda_session_map (self->parent.session, ref, ref_info,
          !df->device, rf, error)) {
    sharpness_cuda_session_unmap (df);
    return FALSE;
  }
  if (!sharpness_cuda_session_push (self->parent.session, error)) {
    sharpness_cuda_session_unmap (rf);
    sharpness_cuda_session_unmap (df);
    return FALSE;
  }
  return TRUE;
}

static gboolean
cuda_compare (CompareBackend * b, const CompareLayout * layout,
    GstBuffer * ref, const GstVideoInfo * ref_info, GstBuffer * dist,
    const GstVideoInfo * dist_info, const CompareRequest * req,
    CompareResult * result, GError ** error)
{
  CompareBackendCuda *self = (CompareBackendCuda *) b;
  SharpnessCudaFrame rf, df;
  ComparePair pair;
  gboolean ok, device_error = FALSE;

  if (!map_and_push (self, ref, ref_info, dist, dist_info, &rf, &df, error))
    return FALSE;

  compare_layout_pair (layout, ref_info, &pair);
  ok = fill_device (self, layout, &rf, 0, &pair, error) &&
      fill_device (self, layout, &df, 1, &pair, error);
  if (ok) {
    /* One synchronisation of the stream for all metrics: the uploads and
     * extractions above are done, and host memory may be unmapped, once
     * it returns (it synchronises also when no metric is asked). */
    if (compare_cuda_compute (self->cuda, &pair, req, result) !=
        SHARPNESS_OK) {
      device_error = TRUE;
      CuStreamSynchronize (sharpness_cuda_session_stream
          (self->parent.session));
    }
  } else {
    /* Copies may be queued from memory about to be unmapped. */
    CuStreamSynchronize (sharpness_cuda_session_stream (self->parent.session));
  }
  sharpness_cuda_session_pop (self->parent.session);
  sharpness_cuda_session_unmap (&rf);
  sharpness_cuda_session_unmap (&df);

  if (device_error)
    return fail (self, error);
  if (!ok && error && !*error)
    return fail (self, error);
  return ok;
}

/* Luma plane @which of @frame into @pair's plane 0: a device frame is
 * downloaded into the staging (queued on the stream), a host one read in
 * place or extracted.  Pushed. */
static gboolean
luma_to_host (CompareBackendCuda * self, const CompareLayout * layout,
    const SharpnessCudaFrame * frame, gint which, ComparePair * pair,
    GError ** error)
{
  const GstVideoFrame *vf = &frame->frame;
  gint comp = layout->comp[0];
  gsize row = (gsize) pair->width[0] * layout->sample_bytes;
  gsize size = row * pair->height[0];
  CUDA_MEMCPY2D copy = { 0, };

  if (!frame->device) {
    if (compare_frame_fill_host_plane (layout, vf, which, 0, &self->host,
            pair))
      return TRUE;
    g_set_error (error, SHARPNESS_BACKEND_ERROR, SHARPNESS_BACKEND_ERROR_FRAME,
        "out of memory");
    return FALSE;
  }
  if (self->luma_size[which] < size) {
    g_free (self->luma[which]);
    self->luma_size[which] = 0;
    self->luma[which] = g_try_malloc (size);
    if (!self->luma[which]) {
      g_set_error (error, SHARPNESS_BACKEND_ERROR,
          SHARPNESS_BACKEND_ERROR_FRAME, "out of memory");
      return FALSE;
    }
    self->luma_size[which] = size;
  }
  /* The luma of the YUV and gray formats is planar: its rows as they are
   * (P010's shift is undone on the host, after the copy). */
  copy.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  copy.srcDevice = (CUdeviceptr) (guintptr) COMPARE_LAYOUT_DATA (layout, vf,
      0);
  copy.srcPitch = GST_VIDEO_FRAME_COMP_STRIDE (vf, comp);
  copy.dstMemoryType = CU_MEMORYTYPE_HOST;
  copy.dstHost = self->luma[which];
  copy.dstPitch = row;
  copy.WidthInBytes = row;
  copy.Height = pair->height[0];
  if (!gst_cuda_result (CuMemcpy2DAsync (&copy,
              sharpness_cuda_session_stream (self->parent.session))))
    return FALSE;
  if (which)
    pair->dist[0] = self->luma[which], pair->dist_stride[0] = row;
  else
    pair->ref[0] = self->luma[which], pair->ref_stride[0] = row;
  return TRUE;
}

/* Samples stored in the high bits (P010) moved to the low bits. */
static void
unshift_luma (guint8 * data, gsize n, gint shift)
{
  guint16 *p = (guint16 *) data;

  for (gsize i = 0; i < n; i++)
    p[i] = GUINT16_FROM_LE (p[i]) >> shift;
}

static gboolean
cuda_read_luma (CompareBackend * b, const CompareLayout * layout,
    GstBuffer * ref, const GstVideoInfo * ref_info, GstBuffer * dist,
    const GstVideoInfo * dist_info, CompareLumaFunc func, gpointer user_data,
    GError ** error)
{
  CompareBackendCuda *self = (CompareBackendCuda *) b;
  SharpnessCudaFrame rf, df;
  ComparePair pair;
  gint shift = GST_VIDEO_FORMAT_INFO_SHIFT (ref_info->finfo, layout->comp[0]);
  gboolean ok;
  CUstream stream;

  if (!map_and_push (self, ref, ref_info, dist, dist_info, &rf, &df, error))
    return FALSE;
  /* After ready (in map_and_push), which may make the stream again. */
  stream = sharpness_cuda_session_stream (self->parent.session);
  compare_layout_pair (layout, ref_info, &pair);
  pair.n_planes = 1;
  ok = luma_to_host (self, layout, &rf, 0, &pair, error) &&
      luma_to_host (self, layout, &df, 1, &pair, error);
  /* Also when a copy failed: queued copies finish before the unmap. */
  if (!gst_cuda_result (CuStreamSynchronize (stream)))
    ok = FALSE;
  sharpness_cuda_session_pop (self->parent.session);
  if (ok) {
    gsize n = (gsize) pair.width[0] * pair.height[0];

    if (shift && rf.device)
      unshift_luma (self->luma[0], n, shift);
    if (shift && df.device)
      unshift_luma (self->luma[1], n, shift);
    func (&pair, user_data);
  }
  sharpness_cuda_session_unmap (&rf);
  sharpness_cuda_session_unmap (&df);
  if (!ok && error && !*error)
    return fail (self, error);
  return ok;
}

static void
cuda_free (SharpnessBackend * backend)
{
  CompareBackendCuda *self = (CompareBackendCuda *) backend;

  for (gint i = 0; i < 2; i++)
    g_free (self->luma[i]);
  compare_host_scratch_clear (&self->host);
  sharpness_cuda_backend_free (backend);
}

static const CompareBackendClass cuda_class = {
  .parent = {
        .name = "cuda",
        .open = sharpness_cuda_backend_open,
        .close = sharpness_cuda_backend_close,
        .is_open = sharpness_cuda_backend_is_open,
        .set_context = sharpness_cuda_backend_set_context,
        .handle_context_query = sharpness_cuda_backend_handle_context_query,
        .propose_allocation = sharpness_cuda_backend_propose_allocation,
        /* The luma staging freed too. */
        .free = cuda_free,
      },
  .compare = cuda_compare,
  .read_luma = cuda_read_luma,
};

CompareBackend *
compare_backend_new_cuda (GstElement * element)
{
  return (CompareBackend *) sharpness_cuda_backend_new (sizeof
      (CompareBackendCuda), &cuda_class.parent, element, backend_setup,
      backend_teardown);
}
