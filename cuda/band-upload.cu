/* Overlapped upload of host planes: the copy of a pinned host plane goes
 * up in row bands on a copy stream, each band followed by a flag the
 * kernel waits on, so that the kernel works on the bands already there
 * while the rest is copied: a frame in system memory costs little more
 * than its copy.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * One kernel launch, one result, as for a device plane: the frame costs
 * the copy plus the last band's share of the kernel and the launch's end,
 * instead of copy + kernel + two synchronisations.  Two bands only: each
 * band boundary costs the copy engine a few microseconds (see below).
 * The flags are written by cuStreamWriteValue32 (the driver's stream
 * memory operation, reached through the runtime's entry-point query: the
 * runtime links no libcuda), which the GPU's front end performs after the
 * band's copy, with a memory barrier, without a copy-engine transfer of
 * its own.  A driver without it leaves the overlap off
 * (sharpness_cuda_upload_bands answers UNSUPPORTED and the caller copies
 * the whole frame before the kernel).
 *
 * The flag counts bands modulo 2^32 across frames: frame f's bands write
 * next + 1 … next + n, and the kernel compares (int) (flag - base), so the
 * flag never needs a reset.
 */
#include <cuda.h>
#include <cstdio>

#include "host-staging.h"
#include "sharpness-cuda-private.h"

typedef CUresult (CUDAAPI * WriteValueFunc) (CUstream stream,
    CUdeviceptr addr, cuuint32_t value, unsigned int flags);

/* Below this many bytes the copy is a few microseconds: no bands. */
static const size_t kMinBytes = 256 * 1024;
/* Two bands, the first this share of the rows.  Every band costs the copy
 * engine a command and its flag a bubble, so few bands copy fastest
 * (bench/cuda/bench-band-upload.cu,
 * docs/performance/notes-cuda-service.md).  With 3/4
 * first, the kernel has done three quarters of the frame when the last
 * quarter lands (a quarter's copy takes longer than the whole kernel), so
 * the frame ends a quarter of a kernel after the copy. */
static const int kFirstBandQuarters = 3;

SharpnessStatus
sharpness_cuda_bands_init (SharpnessCuda * cuda)
{
  SharpnessCudaBands *b = &cuda->bands;
  void *fn = NULL;
  enum cudaDriverEntryPointQueryResult found;
  SharpnessStatus st;

  if (cudaGetDriverEntryPointByVersion ("cuStreamWriteValue32", &fn, 12000,
          cudaEnableDefault, &found) != cudaSuccess ||
      found != cudaDriverEntryPointSuccess || !fn) {
    /* Not an error: host planes are then copied before the kernel. */
    (void) cudaGetLastError ();
    return SHARPNESS_OK;
  }
  /* Non-blocking: the copies must not wait for the legacy stream. */
  if ((st = sharpness_cuda_check (cuda,
              cudaStreamCreateWithFlags (&b->copy_stream,
                  cudaStreamNonBlocking), "copy stream")) != SHARPNESS_OK ||
      (st = sharpness_cuda_check (cuda,
              cudaEventCreateWithFlags (&b->staging_free,
                  cudaEventDisableTiming), "staging event")) != SHARPNESS_OK ||
      (st = sharpness_cuda_check (cuda, cudaMalloc ((void **) &b->flag,
                  sizeof *b->flag), "band flag allocation")) != SHARPNESS_OK ||
      (st = sharpness_cuda_check (cuda, cudaMemsetAsync (b->flag, 0,
                  sizeof *b->flag, cuda->stream), "band flag reset"))
      != SHARPNESS_OK)
    return st;
  b->next = 0;
  b->write_value = fn;
  return SHARPNESS_OK;
}

void
sharpness_cuda_bands_clear (SharpnessCuda * cuda)
{
  SharpnessCudaBands *b = &cuda->bands;

  /* Teardown: nothing to report to. */
  if (b->copy_stream) {
    (void) cudaStreamSynchronize (b->copy_stream);
    (void) cudaStreamDestroy (b->copy_stream);
  }
  if (b->staging_free)
    (void) cudaEventDestroy (b->staging_free);
  if (b->flag)
    (void) cudaFree (b->flag);
  (void) cudaGetLastError ();
  b->copy_stream = NULL;
  b->staging_free = NULL;
  b->flag = NULL;
  b->write_value = NULL;
}

/* Pinned (page-locked) host memory: only there is an asynchronous copy
 * really asynchronous; a pageable plane goes through the plain path. */
static bool
is_pinned (const void *ptr)
{
  cudaPointerAttributes attr;

  if (cudaPointerGetAttributes (&attr, ptr) != cudaSuccess) {
    (void) cudaGetLastError ();
    return false;
  }
  return attr.type == cudaMemoryTypeHost;
}

SharpnessStatus
sharpness_cuda_upload_bands (SharpnessCuda * cuda,
    const SharpnessPlane * plane, SharpnessPlane * dev,
    SharpnessCudaArrival * arrival)
{
  SharpnessCudaBands *b = &cuda->bands;
  const size_t lead = sharpness_cuda_staging_lead (plane);
  const size_t width_bytes = sharpness_cuda_staging_width (plane);
  const size_t pitch = sharpness_cuda_staging_pitch (plane);
  const size_t bytes = width_bytes * plane->height;

  if (!b->write_value || bytes < kMinBytes || plane->height < 2 ||
      !is_pinned (plane->data))
    return SHARPNESS_ERROR_UNSUPPORTED;

  /* Band k holds rows [k * rows, (k + 1) * rows): two bands, as the
   * kernel's arrival test expects (rows >= height / 2). */
  const int rows = (int) (((long long) plane->height * kFirstBandQuarters +
          3) / 4);
  const int bands = (plane->height + rows - 1) / rows;

  SharpnessStatus st = sharpness_cuda_staging_reserve (cuda,
      pitch * plane->height);
  if (st != SHARPNESS_OK)
    return st;
  /* The copies overwrite the staging buffer: after its last reader on the
   * backend's stream (every entry point waits for that stream, but a
   * failed call may have left work queued). */
  if ((st = sharpness_cuda_check (cuda, cudaEventRecord (b->staging_free,
                  cuda->stream), "staging event")) != SHARPNESS_OK ||
      (st = sharpness_cuda_check (cuda, cudaStreamWaitEvent (b->copy_stream,
                  b->staging_free, 0), "copy stream wait")) != SHARPNESS_OK)
    return st;

  const WriteValueFunc write_value = (WriteValueFunc) b->write_value;
  const size_t src_pitch = plane->stride;
  int written = 0;
  for (int k = 0; k < bands; k++) {
    const int y = k * rows;
    const int n = plane->height - y < rows ? plane->height - y : rows;
    st = sharpness_cuda_check (cuda, cudaMemcpy2DAsync (cuda->staging +
            (size_t) y * pitch, pitch,
            plane->data - lead + (size_t) y * src_pitch,
            src_pitch, width_bytes, n, cudaMemcpyHostToDevice,
            b->copy_stream), "band upload");
    if (st == SHARPNESS_OK) {
      const CUresult r = write_value ((CUstream) b->copy_stream,
          (CUdeviceptr) b->flag, b->next + k + 1, 0);
      if (r == CUDA_SUCCESS) {
        written++;
      } else {
        snprintf (cuda->error, sizeof cuda->error,
            "band flag write: CUresult %d", (int) r);
        st = SHARPNESS_ERROR_DEVICE;
      }
    }
    if (st != SHARPNESS_OK) {
      /* Nothing waits on the flag yet: let the copies finish, count the
       * flags written so far (the next frame starts after them), and fail
       * this frame. */
      (void) cudaStreamSynchronize (b->copy_stream);
      (void) cudaGetLastError ();
      b->next += written;
      return st;
    }
  }

  arrival->flag = b->flag;
  arrival->base = b->next;
  arrival->rows = rows;
  b->next += bands;

  *dev = *plane;
  dev->data = cuda->staging + lead;
  dev->stride = pitch;
  return SHARPNESS_OK;
}

SharpnessStatus
sharpness_cuda_bands_done (SharpnessCuda * cuda, SharpnessStatus status)
{
  /* On success the kernel has seen every band's flag, written after its
   * copy: the copies are done.  Otherwise they may still run. */
  if (status != SHARPNESS_OK &&
      cudaStreamSynchronize (cuda->bands.copy_stream) != cudaSuccess)
    (void) cudaGetLastError ();   /* keep the first error's message */
  return status;
}
