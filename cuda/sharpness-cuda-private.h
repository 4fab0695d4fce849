/* CUDA backend internals shared by the .cu files of cuda/.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SHARPNESS_CUDA_PRIVATE_H
#define SHARPNESS_CUDA_PRIVATE_H

#include <cuda_runtime.h>

#include "sharpness-cuda.h"
#include "sharpness-state.h"

/* Device accumulators of the classical kernels.  Zero between launches:
 * the last block of each launch reads them out and resets them, so a frame
 * costs one launch and no memset. */
typedef struct
{
  unsigned long long sum;
  unsigned long long sum_sq;
  unsigned long long hist[256];
  unsigned long long sums4[4];  /* four-sum metrics (blur-effect) */
  unsigned int blocks_done;
} SharpnessCudaAccum;

/* What that last block writes into mapped pinned host memory; @seq tells
 * the host the launch it waited for really wrote it. */
typedef struct
{
  unsigned long long seq;
  unsigned long long sum;
  unsigned long long sum_sq;
  unsigned long long hist[256];
  unsigned long long sums4[4];
  /* Set by a kernel that gave up waiting for its rows (overlapped upload:
   * cuda/band-upload.cu); the host clears it before such a launch. */
  unsigned long long late;
} SharpnessCudaResult;

/* Where the rows of a host plane being uploaded in bands stand
 * (cuda/band-upload.cu): band k, rows [k * rows, (k + 1) * rows), is in
 * device memory once (int) (*flag - base) >= k + 1.  A kernel that reads
 * such a plane waits for each band before its first load of it.  flag
 * NULL: the whole plane is there. */
typedef struct
{
  const unsigned int *flag;
  unsigned int base;
  int rows;
} SharpnessCudaArrival;

/* The state of the overlapped upload of host planes (band-upload.cu). */
typedef struct
{
  cudaStream_t copy_stream;     /* the band copies and flag writes */
  cudaEvent_t staging_free;     /* the staging buffer's last reader */
  unsigned int *flag;           /* device memory */
  unsigned int next;            /* the flag's value after the last band */
  void *write_value;            /* cuStreamWriteValue32, or NULL: off */
} SharpnessCudaBands;

/* Per-region sums of the extended classical launches (tiles, batches of
 * regions: cuda/classical.cuh). */
typedef struct
{
  unsigned long long sum;
  unsigned long long sum_sq;
  unsigned long long hist[256];
} SharpnessCudaRegionSums;

/* Buffers of the extended classical launches, grown to the largest launch
 * so far by sharpness_cuda_ext_reserve(), never per frame.  The device
 * accumulators are zero between launches: the last block of each launch
 * reads them out into the mapped read-out and resets them, as with
 * SharpnessCudaAccum.  Arrays are indexed by the launch's regions and
 * tiles (tiles of all its regions one after the other). */
typedef struct
{
  int regions_cap, tiles_cap, hist_tiles_cap;
  size_t desc_size;                     /* bytes per region descriptor */
  void *dev_block, *mapped_block;       /* the two allocations ... */
  void *desc_host;                      /* ... and pinned descriptors */
  /* Device memory. */
  unsigned int *blocks_done;
  unsigned long long *packed;           /* one region: sum and ticket */
  SharpnessCudaRegionSums *accum;
  unsigned long long *tile_sum, *tile_sq;
  unsigned int *tile_hist;              /* 256 per tile (entropy) */
  void *desc_dev;                       /* region descriptors, K > 1 */
  /* Mapped pinned read-out: host addresses ... */
  unsigned long long *seq;
  SharpnessCudaRegionSums *result;
  unsigned long long *result_tile_sum, *result_tile_sq;
  unsigned int *result_tile_hist;
  /* ... and the same memory's device addresses. */
  unsigned long long *seq_dev;
  SharpnessCudaRegionSums *result_dev;
  unsigned long long *result_tile_sum_dev, *result_tile_sq_dev;
  unsigned int *result_tile_hist_dev;
} SharpnessCudaExt;

/* Kernels per classical metric (cuda/classical.cuh): one per natural sample
 * layout of aligned planes (Y8, the luma of packed 4:2:2 (Y8 every other
 * byte), Y16LE, v210, RGB8 with 3 and 4 bytes per pixel) and one generic
 * kernel for any other layout, pixel stride or alignment. */
#define SHARPNESS_CUDA_CLASSICAL_VARIANTS 7

struct SharpnessCuda
{
  cudaStream_t stream;
  /* Device copy of host planes, grown when a larger frame arrives.  Owned by
   * cuda/sharpness-cuda.cu: metrics read it as their input, never write it. */
  uint8_t *staging;
  size_t staging_size;
  /* Per-metric device state (filters, tables, work buffers) built once per
   * frame size by the metric's state_new (sharpness_state_get). */
  SharpnessStateSlot state[SHARPNESS_METRIC_COUNT];
  char error[256];

  int device;
  int sm_count;
  SharpnessCudaAccum *accum;            /* device memory */
  SharpnessCudaResult *result;          /* mapped pinned host memory ... */
  SharpnessCudaResult *result_dev;      /* ... and its device address */
  unsigned long long seq;               /* launches so far */
  /* Resident blocks per multiprocessor of each classical kernel, read once
   * by the classical metrics' init (cuda/classical.cuh). */
  int classical_blocks_per_sm[SHARPNESS_METRIC_COUNT]
      [SHARPNESS_CUDA_CLASSICAL_VARIANTS];
  /* The same for the extended kernels (tiles, batches), and their buffers. */
  int classical_ext_blocks_per_sm[SHARPNESS_METRIC_COUNT]
      [SHARPNESS_CUDA_CLASSICAL_VARIANTS];
  /* The same for the kernels that also run content items (0: none),
   * without and with the edges. */
  int classical_content_blocks_per_sm[SHARPNESS_METRIC_COUNT]
      [SHARPNESS_CUDA_CLASSICAL_VARIANTS][2];
  SharpnessCudaExt ext;
  SharpnessCudaBands bands;
  /* Content measurements (content.cu): made on first use. */
  struct SharpnessCudaContent *content;
  /* The focus tiles (focus-tiles.cu): made on first use. */
  struct SharpnessCudaFocus *focus;
};

/* Records "@what: <cudaGetErrorString (err)>" as the last error; returns
 * SHARPNESS_ERROR_DEVICE when @err is not cudaSuccess, else SHARPNESS_OK. */
SharpnessStatus sharpness_cuda_check (SharpnessCuda * cuda, cudaError_t err,
    const char *what);

/* One metric of the CUDA backend (as vmaf's VmafFeatureExtractor), defined
 * in the metric's own file as sharpness_cuda_metric_<sym> (the `sym`
 * column of SHARPNESS_METRIC_TABLE) with SHARPNESS_CUDA_SUMS_METRIC or
 * SHARPNESS_CUDA_SCORE_METRIC.  cuda/sharpness-cuda.cu generates its table
 * from SHARPNESS_METRIC_TABLE.  @plane is in device memory; @state is what
 * @state_new made for the plane's size (NULL without state_new). */
typedef SharpnessStatus (*SharpnessCudaInitFunc) (SharpnessCuda * cuda);
typedef SharpnessStatus (*SharpnessCudaSumsFunc) (SharpnessCuda * cuda,
    void *state, const SharpnessPlane * plane, SharpnessSums * sums);
typedef SharpnessStatus (*SharpnessCudaScoreFunc) (SharpnessCuda * cuda,
    void *state, const SharpnessPlane * plane, double *score);
/* The sums of @n regions (and of their tiles) in one launch per sample
 * layout; the regions are checked by the caller, @sums zeroed. */
typedef SharpnessStatus (*SharpnessCudaBatchFunc) (SharpnessCuda * cuda,
    const SharpnessRegion * regions, int n, SharpnessSums * sums);
/* As SharpnessCudaSumsFunc, over a plane still arriving (@arrival). */
typedef SharpnessStatus (*SharpnessCudaArrivingSumsFunc) (SharpnessCuda *
    cuda, const SharpnessPlane * plane, const SharpnessCudaArrival * arrival,
    SharpnessSums * sums);

typedef struct
{
  SharpnessMetric metric;
  SharpnessCudaInitFunc init;   /* once, in sharpness_cuda_new; or NULL */
  SharpnessStateNew state_new;  /* per frame size (backend = the
                                 * SharpnessCuda); or NULL */
  SharpnessStateFree state_free;
  SharpnessCudaSumsFunc sums;   /* SHARPNESS_KIND_SUMS metrics */
  SharpnessCudaScoreFunc score; /* SHARPNESS_KIND_FLOAT metrics */
  SharpnessCudaBatchFunc batch; /* tiles and batches; or NULL */
  /* Host planes: sums while the rows arrive (band-upload.cu); or NULL. */
  SharpnessCudaArrivingSumsFunc sums_arriving;
} SharpnessCudaMetric;

#define SHARPNESS_CUDA_METRIC_DECLARE(ID, sym, nick, name, dir, kind, cpu, \
    range, desc) extern const SharpnessCudaMetric sharpness_cuda_metric_##sym;
SHARPNESS_METRIC_TABLE (SHARPNESS_CUDA_METRIC_DECLARE)
#undef SHARPNESS_CUDA_METRIC_DECLARE

/* The kind and sym columns, for the compile-time checks of the metric
 * files' definitions. */
namespace sharpness_cuda
{
#define SHARPNESS_CUDA_METRIC_KIND(ID, sym, nick, name, dir, kind, cpu, \
    range, desc) kind,
constexpr SharpnessKind kMetricKind[] = {
  SHARPNESS_METRIC_TABLE (SHARPNESS_CUDA_METRIC_KIND)
};
#undef SHARPNESS_CUDA_METRIC_KIND
#define SHARPNESS_CUDA_METRIC_SYM(ID, sym, nick, name, dir, kind, cpu, \
    range, desc) #sym,
constexpr const char *kMetricSym[] = {
  SHARPNESS_METRIC_TABLE (SHARPNESS_CUDA_METRIC_SYM)
};
#undef SHARPNESS_CUDA_METRIC_SYM

constexpr bool
same_string (const char *a, const char *b)
{
  return *a == *b && (*a == '\0' || same_string (a + 1, b + 1));
}
}  /* namespace sharpness_cuda */

#define SHARPNESS_CUDA_METRIC_CHECK(ID, sym, kind) \
  static_assert (sharpness_cuda::kMetricKind[SHARPNESS_METRIC_##ID] == kind, \
      "SHARPNESS_METRIC_TABLE gives " #ID " another kind"); \
  static_assert (sharpness_cuda::same_string ( \
      sharpness_cuda::kMetricSym[SHARPNESS_METRIC_##ID], #sym), \
      "SHARPNESS_METRIC_TABLE gives " #ID " another sym")

/* Defines sharpness_cuda_metric_<sym> for SHARPNESS_METRIC_<ID>, checking
 * its row of SHARPNESS_METRIC_TABLE (kind and sym) at compile time. */
#define SHARPNESS_CUDA_SUMS_METRIC(ID, sym, init, state_new, state_free, \
    sums) \
  SHARPNESS_CUDA_METRIC_CHECK (ID, sym, SHARPNESS_KIND_SUMS); \
  const SharpnessCudaMetric sharpness_cuda_metric_##sym = { \
    SHARPNESS_METRIC_##ID, init, state_new, state_free, sums, nullptr }
/* A SHARPNESS_CUDA_SUMS_METRIC with tile sums and batches (@batch) and
 * sums over arriving host planes (@sums_arriving). */
#define SHARPNESS_CUDA_BATCH_METRIC(ID, sym, init, state_new, state_free, \
    sums, batch, sums_arriving) \
  SHARPNESS_CUDA_METRIC_CHECK (ID, sym, SHARPNESS_KIND_SUMS); \
  const SharpnessCudaMetric sharpness_cuda_metric_##sym = { \
    SHARPNESS_METRIC_##ID, init, state_new, state_free, sums, nullptr, \
    batch, sums_arriving }
#define SHARPNESS_CUDA_SCORE_METRIC(ID, sym, init, state_new, state_free, \
    score) \
  SHARPNESS_CUDA_METRIC_CHECK (ID, sym, SHARPNESS_KIND_FLOAT); \
  const SharpnessCudaMetric sharpness_cuda_metric_##sym = { \
    SHARPNESS_METRIC_##ID, init, state_new, state_free, nullptr, score }

/* The state of @metric for @plane's size, made by its descriptor's
 * state_new when there is none of that size (sharpness_state_get); NULL
 * with the reason in @status on failure.  For entry points beside the
 * descriptor (perceptual-cuda-private.h) that share the metric's state. */
void *sharpness_cuda_state_get (SharpnessCuda * cuda, SharpnessMetric metric,
    const SharpnessPlane * plane, SharpnessStatus * status);

/* Grows cuda->ext to hold @regions regions (descriptors of @desc_size
 * bytes), @tiles tiles and @hist_tiles tile histograms; new device
 * accumulators are zeroed on the stream.  No-op when they fit. */
SharpnessStatus sharpness_cuda_ext_reserve (SharpnessCuda * cuda, int regions,
    int tiles, int hist_tiles, size_t desc_size);

/* The staging buffer (device copy of host planes) at least @size bytes. */
SharpnessStatus sharpness_cuda_staging_reserve (SharpnessCuda * cuda,
    size_t size);

/* Overlapped upload of host planes (band-upload.cu): set up in
 * sharpness_cuda_new (off where the driver lacks stream memory
 * operations), released in sharpness_cuda_free. */
SharpnessStatus sharpness_cuda_bands_init (SharpnessCuda * cuda);
void sharpness_cuda_bands_clear (SharpnessCuda * cuda);
/* Enqueues the copy of host plane @plane into the staging buffer in row
 * bands, each followed by its arrival flag, and describes the copy in @dev
 * and @arrival.  SHARPNESS_ERROR_UNSUPPORTED (nothing enqueued): not
 * worth it or not possible here (pageable memory, a small plane, no stream
 * memory operations): copy at once instead. */
SharpnessStatus sharpness_cuda_upload_bands (SharpnessCuda * cuda,
    const SharpnessPlane * plane, SharpnessPlane * dev,
    SharpnessCudaArrival * arrival);
/* After the kernel that read an arriving plane, whatever its status: when
 * the kernel failed or gave up (@status not OK), waits for the copies, so
 * that the host plane may be released. */
SharpnessStatus sharpness_cuda_bands_done (SharpnessCuda * cuda,
    SharpnessStatus status);

/* Releases the content measurements' state (content.cu), waiting for its
 * stream first; called by sharpness_cuda_free. */
void sharpness_cuda_content_clear (SharpnessCuda * cuda);

/* Releases the focus tiles' buffers (focus-tiles.cu); called by
 * sharpness_cuda_free after its wait. */
void sharpness_cuda_focus_clear (SharpnessCuda * cuda);

#endif /* SHARPNESS_CUDA_PRIVATE_H */
