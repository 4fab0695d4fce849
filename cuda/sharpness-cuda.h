/* CUDA backend: a small C API over the kernels of cuda/.  No GStreamer.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Every function must be called with the owner's CUDA context current on the
 * calling thread (the element pushes its GstCudaContext around each call).
 * All work is queued on the stream given at creation; results are read back
 * through pinned memory and the stream is synchronised before returning.
 */
#ifndef SHARPNESS_CUDA_H
#define SHARPNESS_CUDA_H

#include "sharpness-metric.h"
#include "sharpness-plane.h"
#include "sharpness-status.h"
#include "sharpness-sums.h"
#include "sharpness-tiles.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct SharpnessCuda SharpnessCuda;

/* Number of usable CUDA devices (0 with no driver or no GPU); on failure
 * @why (if not NULL) points to a static explanation. */
int sharpness_cuda_device_count (const char **why);

/* @stream is a CUstream / cudaStream_t created in the current context. */
SharpnessStatus sharpness_cuda_new (void *stream, SharpnessCuda ** out);
/* Synchronises the stream first: free before destroying the stream. */
void sharpness_cuda_free (SharpnessCuda * cuda);

/* Score from a plane in device memory (plane->data is a device pointer). */
SharpnessStatus sharpness_cuda_score_device (SharpnessCuda * cuda,
    SharpnessMetric metric, const SharpnessPlane * plane, double *score);

/* Score from a plane in host memory: copies the rows the metric reads into
 * a device buffer kept between frames (pinned host memory copies at full
 * speed, pageable memory works too), then as above. */
SharpnessStatus sharpness_cuda_score_host (SharpnessCuda * cuda,
    SharpnessMetric metric, const SharpnessPlane * plane, double *score);

/* Exact sums of a SHARPNESS_KIND_SUMS metric, for bit-identity tests. */
SharpnessStatus sharpness_cuda_sums_device (SharpnessCuda * cuda,
    SharpnessMetric metric, const SharpnessPlane * plane, SharpnessSums * sums);
SharpnessStatus sharpness_cuda_sums_host (SharpnessCuda * cuda,
    SharpnessMetric metric, const SharpnessPlane * plane, SharpnessSums * sums);

/* Tiles and batches (docs/reference/tiles.md) of the metrics with
 * sharpness_metric_has_tiles(); SHARPNESS_ERROR_UNSUPPORTED for others.
 * Results are bit-identical to the CPU backend's
 * (sharpness_cpu_sums_tiles, sharpness_cpu_sums_batch).
 *
 * The frame's sums and, in the same launch, those of each tile of
 * @tiles->cols x @tiles->rows (a device plane). */
SharpnessStatus sharpness_cuda_sums_tiles (SharpnessCuda * cuda,
    SharpnessMetric metric, const SharpnessPlane * plane, SharpnessSums * sums,
    SharpnessTileSums * tiles);

/* The sums of @n regions of device planes (each its own plane, size,
 * stride, rectangle and optional tile grid) into @sums[0 .. n - 1], in one
 * launch per sample-layout variant among them (one for regions of one
 * frame, or frames of one format): each equal to scoring its rectangle as
 * a plane of its own.  For the ROIs of a frame pass the frame's plane and
 * each ROI's rectangle (the kernels keep their aligned fast path); for
 * frames of several streams, each frame's plane with an empty rectangle. */
SharpnessStatus sharpness_cuda_sums_batch (SharpnessCuda * cuda,
    SharpnessMetric metric, const SharpnessRegion * regions, int n,
    SharpnessSums * sums);

/* Copies a host plane into the backend's device staging buffer (as the
 * _host entry points do) and describes the copy in @dev, valid until the
 * next call of this backend that stages a plane: for tiles or a batch of
 * ROIs of a frame in system memory. */
SharpnessStatus sharpness_cuda_stage_host (SharpnessCuda * cuda,
    const SharpnessPlane * plane, SharpnessPlane * dev);

/* ---- Content measurements: black, structure, freeze ----
 *
 * What the content states (analysis/sharpness-content.h) need of a frame,
 * bit-identical to the CPU scorer's measurements: the black luma samples
 * (sharpness_black_sample_at's rule; on the 8-bit gray image for packed
 * RGB), the edge pixels of the gray image
 * (sharpness_structure_count), CPBD's edge counts of its complete 64 x 64
 * blocks (sharpness_cpbd_count) and the SAD of every plane of a freeze
 * layout against the backend's reference (sharpness_freeze_sad).  The
 * reference stays in device memory: each measured frame is written into
 * the second of two device buffers, the candidate, in the same pass that
 * compares it, so that keeping it is a swap of the two.
 *
 * One launch per frame, its sums written by its last block into mapped
 * memory.  It is queued by _begin, beside the backend's next launch on
 * its stream (the metric's) or before it, and read by _end after the
 * metric's own synchronisation: a frame costs one synchronisation for
 * both (docs/performance/notes-cuda-content.md). */

/* What to measure (sharpness-scorer.h's SharpnessContentJob, plain C). */
typedef struct
{
  int black;                    /* luma samples <= black_threshold */
  unsigned black_threshold;
  int structure;                /* edge pixels at edge_level */
  unsigned edge_level;
  int cpbd;                     /* CPBD's counts (sharpness-cpbd.h) */
  /* Freeze (n_planes 0: none): the SAD of planes 0 .. n_planes - 1 of
   * width[p] samples of bytes_per_sample (1, or 2: little-endian words)
   * by height[p] rows, as a SharpnessFreezeLayout says.  v210
   * (v210_samples > 0, the layout's): one plane of width[0] 32-bit words
   * (bytes_per_sample 4) a row, of which the first v210_samples 10-bit
   * samples are compared (sharpness-freeze-v210.h). */
  int n_planes;
  int width[4], height[4];
  int bytes_per_sample;
  int v210_samples;
} SharpnessContentParams;

/* Where a frame lies: its first plane as the metrics read it (black and
 * structure), and the planes the freeze layout compares (data[p] with
 * rows stride[p] bytes apart). */
typedef struct
{
  SharpnessPlane luma;
  const uint8_t *data[4];
  size_t stride[4];
} SharpnessContentPlanes;

typedef struct
{
  uint64_t black_count, pixels;         /* pixels: width * height */
  uint64_t edges, interior;             /* interior: (W - 1) (H - 1) */
  uint64_t cpbd_edges, cpbd_sharp;      /* sharpness_cpbd_count's */
  int has_sad;                          /* there was a reference */
  uint64_t sad;
} SharpnessContentSums;

/* Where _begin queues the launch. */
typedef enum
{
  /* On a stream of its own, after the work queued so far on the backend's
   * stream: it runs beside the next launch there (the metric's). */
  SHARPNESS_CONTENT_BESIDE,
  /* On the backend's stream: when the metric runs on another one (the
   * scoring service's), or alone. */
  SHARPNESS_CONTENT_IN_ORDER,
  /* In the launch of the next classical frame score on the backend's
   * stream (sharpness_cuda_score_device / _host), which then runs the
   * measurement's work items after its own and ends both: one launch and
   * one synchronisation for the frame.  When that score cannot take them
   * (sharpness_cuda_content_fuses is false, or no score comes), _end
   * launches them in order and waits. */
  SHARPNESS_CONTENT_FUSED
} SharpnessContentOrder;

/* Whether a frame score of @metric on @plane (device memory) takes a
 * FUSED measurement into its launch. */
int sharpness_cuda_content_fuses (SharpnessMetric metric,
    const SharpnessPlane * plane);

/* Copies a host frame's planes to the device for a measurement and
 * describes the copies in @dev: with a freeze layout, straight into the
 * candidate buffer (which the measurement then reads instead of writing),
 * the luma pointing into its plane 0 when it lies there; otherwise the
 * luma through the staging buffer (as sharpness_cuda_stage_host).  @dev
 * is valid for the backend's other device entry points until the next
 * staging call: the metric reads the same copy. */
SharpnessStatus sharpness_cuda_content_stage_host (SharpnessCuda * cuda,
    const SharpnessContentPlanes * host, const SharpnessContentParams * params,
    SharpnessContentPlanes * dev);

/* Queues the measurement of @planes (device memory, ready on the backend's
 * stream).  Every successful _begin must be followed by one _end, whatever
 * happens in between; until then the frame's memory must stay. */
SharpnessStatus sharpness_cuda_content_begin (SharpnessCuda * cuda,
    const SharpnessContentPlanes * planes,
    const SharpnessContentParams * params, SharpnessContentOrder order);

/* The sums of the measurement _begin queued: read from mapped memory when
 * the launch has written them (the metric's synchronisation usually waited
 * long enough), else after waiting for its stream.  With a freeze layout
 * the frame is then the candidate reference. */
SharpnessStatus sharpness_cuda_content_end (SharpnessCuda * cuda,
    SharpnessContentSums * out);

/* _begin (in order) and _end: one frame, synchronously. */
SharpnessStatus sharpness_cuda_content_device (SharpnessCuda * cuda,
    const SharpnessContentPlanes * planes,
    const SharpnessContentParams * params, SharpnessContentSums * out);

/* @keep: the candidate (the last frame measured with a freeze layout)
 * becomes the reference, a swap of the two buffers; !@keep: the reference
 * is forgotten (the next frame compares with nothing). */
void sharpness_cuda_content_reference (SharpnessCuda * cuda, int keep);

/* The focus tiles (analysis/sharpness-focus.h) of @plane (device memory,
 * ready on the backend's stream), synchronously: *@tiles points at *@n
 * tiles in host memory the backend owns, valid until the next call (none
 * for a plane without a complete tile). */
typedef struct SharpnessFocusTile SharpnessFocusTile;
SharpnessStatus sharpness_cuda_focus_tiles (SharpnessCuda * cuda,
    const SharpnessPlane * plane, const SharpnessFocusTile ** tiles, int *n);

/* Message of the last SHARPNESS_ERROR_DEVICE, e.g. "tenengrad kernel: an
 * illegal memory access was encountered".  With @cuda NULL: why the last
 * sharpness_cuda_new of the calling thread failed. */
const char *sharpness_cuda_last_error (const SharpnessCuda * cuda);

/* Pinned host memory for upstream buffer pools (cudaHostAlloc, portable). */
void *sharpness_cuda_host_alloc (size_t size);
void sharpness_cuda_host_free (void *ptr);

#ifdef __cplusplus
}
#endif
#endif /* SHARPNESS_CUDA_H */
