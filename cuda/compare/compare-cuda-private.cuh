/* Internals shared by the .cu files of cuda/compare: the CompareCuda
 * object, where every launch finishes (device accumulators, mapped
 * results), device and host helpers, and the per-metric descriptors.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * One file per metric (compare-<sym>.cu, the `sym` column of
 * COMPARE_METRIC_TABLE) defines its descriptor; compare-cuda.cu generates
 * its table from COMPARE_METRIC_TABLE, queues the requested metrics back
 * to back and synchronises once.  Each launch's last block (a ticket, as
 * in the CUDA samples' threadFenceReduction) writes the launch's totals
 * into mapped pinned memory and resets the device accumulators, so there
 * is no memset and no copy between the kernels and the host.
 */
#ifndef COMPARE_CUDA_PRIVATE_CUH
#define COMPARE_CUDA_PRIVATE_CUH

#include <cstddef>
#include <cstdint>
#include <cstring>

#include <cuda_runtime.h>

#include "compare-cuda.h"
#include "compare-private.h"

namespace compare_cuda
{

constexpr int kThreads = 256;                   /* every compare kernel */
constexpr int kWin = 11;                        /* Wang's Gaussian window */
/* Result slots of the Wang kernel: SSIM planes, then MS-SSIM scales. */
constexpr int kWangSlots = COMPARE_MAX_PLANES + COMPARE_MS_SSIM_SCALES;
constexpr int kWangMsSlot = COMPARE_MAX_PLANES;

/* The pair's planes as the PSNR and ffmpeg-mode SSIM kernels read them. */
struct Planes
{
  const unsigned char *ref[COMPARE_MAX_PLANES];
  const unsigned char *dist[COMPARE_MAX_PLANES];
  size_t ref_stride[COMPARE_MAX_PLANES], dist_stride[COMPARE_MAX_PLANES];
  int width[COMPARE_MAX_PLANES], height[COMPARE_MAX_PLANES];
  /* both planes' data and strides 16-byte aligned: vector loads */
  int aligned[COMPARE_MAX_PLANES];
  int n_planes, wide;
};

}  // namespace compare_cuda

/* Device accumulators: zero between launches (the last block resets). */
struct CompareCudaAccum
{
  unsigned long long sse[COMPARE_MAX_PLANES];
  unsigned psnr_done, ssim_done, wang_done;
};

/* Mapped pinned host memory, written by the launches' last blocks. */
struct CompareCudaResults
{
  unsigned long long sse[COMPARE_MAX_PLANES];
  double ssim[COMPARE_MAX_PLANES];      /* ffmpeg mode: plane sums */
  double2 wang[compare_cuda::kWangSlots];  /* (sum SSIM, sum cs) per job */
};

/* Device buffers of each metric, grown to the largest frame seen. */
enum
{
  COMPARE_CUDA_BUF_DATA,                /* rows, images */
  COMPARE_CUDA_BUF_PARTIAL,             /* per-block partial sums */
  COMPARE_CUDA_BUFS
};

struct CompareCuda
{
  cudaStream_t stream;
  char error[256];
  CompareCudaAccum *accum;              /* device, zeroed once */
  CompareCudaResults *results;          /* mapped pinned host memory */
  CompareCudaResults *results_dev;      /* its device address */
  void *dbuf[COMPARE_N_METRICS][COMPARE_CUDA_BUFS];
  size_t dcap[COMPARE_N_METRICS][COMPARE_CUDA_BUFS];
  /* compare-ssim-ffmpeg.cu: the opt-in shared memory set, per sample
   * size */
  size_t ssim_shared[2];
};

/* One metric of compare_cuda_compute, defined in its own file as
 * compare_cuda_metric_<sym> with COMPARE_CUDA_METRIC. */
struct CompareCudaMetric
{
  CompareMetricId id;
  /* Once, in compare_cuda_new (errors: compare_cuda_check with no
   * object); or nullptr. */
  SharpnessStatus (*init) (void);
  /* Queues the metric's launches on cuda->stream, after the metrics
   * before it: SHARPNESS_OK, a refusal of this metric alone (a frame too
   * small: UNSUPPORTED), or a device or memory error, which ends the
   * call. */
  SharpnessStatus (*queue) (CompareCuda * cuda, const ComparePair * pair,
      const CompareRequest * req);
  /* Once the stream is synchronised: the values, from cuda->results. */
  void (*finish) (CompareCuda * cuda, const ComparePair * pair,
      const CompareRequest * req, CompareResult * result);
  /* ssim-mode=wang: these steps instead; nullptr: one mode. */
  const CompareCudaMetric *wang;
};

#define COMPARE_CUDA_METRIC_DECLARE(ID, sym, nick, display, desc, cf, cw) \
  extern const CompareCudaMetric compare_cuda_metric_##sym;
COMPARE_METRIC_TABLE (COMPARE_CUDA_METRIC_DECLARE)
#undef COMPARE_CUDA_METRIC_DECLARE

namespace compare_cuda
{
#define COMPARE_CUDA_METRIC_SYM(ID, sym, nick, display, desc, cf, cw) #sym,
constexpr const char *kMetricSym[] = {
  COMPARE_METRIC_TABLE (COMPARE_CUDA_METRIC_SYM)
};
#undef COMPARE_CUDA_METRIC_SYM

constexpr bool
same_string (const char *a, const char *b)
{
  return *a == *b && (*a == '\0' || same_string (a + 1, b + 1));
}
}  // namespace compare_cuda

/* Defines compare_cuda_metric_<sym> for COMPARE_METRIC_ID_<ID>, checking
 * at compile time that the table's row of ID has that sym. */
#define COMPARE_CUDA_METRIC(ID, sym, init, queue, finish, wang) \
  static_assert (compare_cuda::same_string ( \
      compare_cuda::kMetricSym[COMPARE_METRIC_ID_##ID], #sym), \
      "COMPARE_METRIC_TABLE gives " #ID " another sym"); \
  const CompareCudaMetric compare_cuda_metric_##sym = { \
    COMPARE_METRIC_ID_##ID, init, queue, finish, wang }

/* SSIM's steps with ssim-mode=wang (compare-ssim-wang.cu). */
extern const CompareCudaMetric compare_cuda_ssim_wang_mode;

/* Records "@what: <the error>" in @cuda's last error (nullptr: the
 * thread's, for compare_cuda_new); SHARPNESS_OK for cudaSuccess. */
SharpnessStatus compare_cuda_check (CompareCuda * cuda, cudaError_t err,
    const char *what);

/* Buffer @which of metric @id, grown to @size bytes (synchronising the
 * stream first when it grows: queued work may read the old one). */
SharpnessStatus compare_cuda_reserve (CompareCuda * cuda, CompareMetricId id,
    int which, size_t size, void **out);

/* ---- Wang's SSIM map and ssim.m downsampling (compare-wang.cu), shared by
 * SSIM wang mode and MS-SSIM.  Each SSIM map launch writes (sum SSIM, sum
 * cs) into result slot @slot; @partial holds compare_cuda_wang_blocks of
 * the map's size. */

/* Opts the Wang kernels in to the shared memory they need. */
SharpnessStatus compare_cuda_wang_init (void);
/* Blocks (partial sums) of a Wang launch over a @w x @h image. */
size_t compare_cuda_wang_blocks (int w, int h);
/* Plane @c of the pair at ssim.m downsampling factor @f (1: the samples
 * themselves); @img: two images of the downsampled size, unused for 1. */
SharpnessStatus compare_cuda_wang_plane (CompareCuda * cuda,
    const ComparePair * pair, int c, int f, double *img, double2 * partial,
    int slot);
/* Two @w x @h double images, rows of @w, peak value @L. */
SharpnessStatus compare_cuda_wang_images (CompareCuda * cuda,
    const double *x, const double *y, int w, int h, double L,
    double2 * partial, int slot);
/* The pair's plane @c, downsampled by @f into @out0 (reference) and
 * @out1. */
void compare_cuda_downsample_plane (CompareCuda * cuda,
    const ComparePair * pair, int c, int f, double *out0, double *out1);
/* Two @w x @h double images, downsampled by @f. */
void compare_cuda_downsample_images (CompareCuda * cuda, const double *x,
    const double *y, int w, int h, int f, double *out0, double *out1);

/* ---- helpers ------------------------------------------------------------ */

namespace compare_cuda
{

/* Last block of the launch to call this (all threads of every block):
 * TRUE in all its threads, once this block's writes are visible. */
static __device__ __forceinline__ bool
take_ticket (unsigned *done)
{
  __shared__ bool last;
  __threadfence ();
  __syncthreads ();
  if (threadIdx.x == 0)
    last = atomicAdd (done, 1u) == gridDim.x * gridDim.y * gridDim.z - 1;
  __syncthreads ();
  if (last)
    __threadfence ();
  return last;
}

static __device__ __forceinline__ unsigned
load_sample (const unsigned char *row, int x, int wide)
{
  if (wide)
    return (unsigned) row[2 * x] | ((unsigned) row[2 * x + 1] << 8);
  return row[x];
}

static inline unsigned
div_up (size_t a, unsigned b)
{
  return (unsigned) ((a + b - 1) / b);
}

static inline bool
aligned16 (const void *a, const void *b, size_t sa, size_t sb)
{
  return (((uintptr_t) a | (uintptr_t) b | sa | sb) & 15) == 0;
}

static inline Planes
planes_of (const ComparePair * pair)
{
  Planes p;
  memset (&p, 0, sizeof (p));
  p.n_planes = pair->n_planes;
  p.wide = pair->depth > 8;
  for (int c = 0; c < pair->n_planes; c++) {
    p.ref[c] = (const unsigned char *) pair->ref[c];
    p.dist[c] = (const unsigned char *) pair->dist[c];
    p.ref_stride[c] = pair->ref_stride[c];
    p.dist_stride[c] = pair->dist_stride[c];
    p.width[c] = pair->width[c];
    p.height[c] = pair->height[c];
    p.aligned[c] = aligned16 (pair->ref[c], pair->dist[c],
        pair->ref_stride[c], pair->dist_stride[c]);
  }
  return p;
}

}  // namespace compare_cuda

#endif /* COMPARE_CUDA_PRIVATE_CUH */
