/* Content measurements on the GPU: black samples, edge pixels and the
 * freeze SAD of a frame, bit-identical to the CPU scorer
 * (sharpness-black.h, sharpness-structure.h, sharpness-freeze.h): the
 * state, the entry points and the content kernel of a launch of its own.
 * The work items are in content.cuh, which the classical kernels share
 * when they take a frame's items into their launch (FUSED).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The reference and the candidate are the two halves of one device
 * allocation, each plane packed with rows padded to 16 bytes; keeping the
 * candidate swaps the halves.  A host frame is uploaded straight into the
 * candidate half (sharpness_cuda_content_stage_host): the kernel then only
 * reads it.
 */
#include <climits>
#include <cstdio>
#include <cstring>

#include "classical-variant.h"
#include "content.cuh"
#include "sharpness-tiles.h"

namespace sharpness_cuda
{
namespace content
{

/* At most 128 registers (two blocks would fit a multiprocessor): a launch
 * beside the metric's takes one per multiprocessor
 * (sharpness_cuda_content_begin), leaving the other half to the metric's
 * kernel. */
__global__ void __launch_bounds__ (kThreads, 2)
content_kernel (const __grid_constant__ Launch l)
{
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  unsigned long long count[kCounts] = { };

  for (int item = blockIdx.x * kWarps + warp; item < l.items;
      item += gridDim.x * kWarps)
    run_item (l, item, lane, count);
  finish < true > (l, count);
}

}  /* namespace content */
}  /* namespace sharpness_cuda */

using namespace sharpness_cuda::content;

/* The state behind the content entry points, made on first use. */
struct SharpnessCudaContent
{
  cudaStream_t side;            /* SHARPNESS_CONTENT_BESIDE launches */
  cudaEvent_t fork;             /* the backend's stream, before one */
  Accum *accum;                 /* device memory */
  Result *result, *result_dev;  /* mapped pinned memory */
  unsigned long long seq;
  int blocks_per_sm;

  /* The reference and the candidate: halves of @frames. */
  uint8_t *frames;
  size_t frames_size, half;
  int n_planes, width[4], height[4], bytes_per_sample, v210_samples;
  size_t offset[4], pitch[4];
  int ref_index;                /* the reference's half */
  int have_reference, have_candidate;

  /* Between _begin and _end. */
  int pending, launched, freeze, has_sad;
  int staged;                   /* a host frame was staged for the next */
  int pending_staged;           /* ... and for this one */
  cudaStream_t stream;
  unsigned long long pending_seq;
  uint64_t pixels, interior;
  int black, structure, cpbd;
  /* FUSED: the launch's items, until a classical launch takes them. */
  Launch prepared;
  int has_prepared;
};

void
sharpness_cuda_content_clear (SharpnessCuda * cuda)
{
  SharpnessCudaContent *c = cuda->content;

  if (!c)
    return;
  /* Teardown: nothing to report to. */
  if (c->side) {
    (void) cudaStreamSynchronize (c->side);
    (void) cudaStreamDestroy (c->side);
  }
  if (c->fork)
    (void) cudaEventDestroy (c->fork);
  if (c->accum)
    (void) cudaFree (c->accum);
  if (c->result)
    (void) cudaFreeHost (c->result);
  if (c->frames)
    (void) cudaFree (c->frames);
  (void) cudaGetLastError ();
  free (c);
  cuda->content = NULL;
}

static SharpnessStatus
content_state (SharpnessCuda * cuda, SharpnessCudaContent ** out)
{
  SharpnessCudaContent *c = cuda->content;
  SharpnessStatus st;

  *out = c;
  if (c)
    return SHARPNESS_OK;
  c = (SharpnessCudaContent *) calloc (1, sizeof *c);
  if (!c) {
    snprintf (cuda->error, sizeof cuda->error, "out of host memory");
    return SHARPNESS_ERROR_NO_MEMORY;
  }
  cuda->content = c;
  /* Non-blocking: it must not wait for the legacy stream. */
  if ((st = sharpness_cuda_check (cuda, cudaStreamCreateWithFlags (&c->side,
                  cudaStreamNonBlocking), "content stream")) != SHARPNESS_OK ||
      (st = sharpness_cuda_check (cuda, cudaEventCreateWithFlags (&c->fork,
                  cudaEventDisableTiming), "content event")) != SHARPNESS_OK ||
      (st = sharpness_cuda_check (cuda, cudaMalloc ((void **) &c->accum,
                  sizeof *c->accum), "content accumulators")) != SHARPNESS_OK
      || (st = sharpness_cuda_check (cuda, cudaMemsetAsync (c->accum, 0,
                  sizeof *c->accum, cuda->stream), "content accumulators"))
      != SHARPNESS_OK ||
      (st = sharpness_cuda_check (cuda, cudaHostAlloc ((void **) &c->result,
                  sizeof *c->result,
                  cudaHostAllocMapped | cudaHostAllocPortable),
              "content result")) != SHARPNESS_OK ||
      (st = sharpness_cuda_check (cuda,
              cudaHostGetDevicePointer ((void **) &c->result_dev, c->result,
                  0), "content result mapping")) != SHARPNESS_OK ||
      (st = sharpness_cuda_check (cuda,
              cudaOccupancyMaxActiveBlocksPerMultiprocessor (&c->blocks_per_sm,
                  content_kernel, kThreads, 0), "content kernel occupancy"))
      != SHARPNESS_OK) {
    sharpness_cuda_content_clear (cuda);
    return st;
  }
  memset (c->result, 0, sizeof *c->result);
  if (c->blocks_per_sm < 1) {
    snprintf (cuda->error, sizeof cuda->error,
        "content kernel cannot run on this device");
    sharpness_cuda_content_clear (cuda);
    return SHARPNESS_ERROR_DEVICE;
  }
  /* The first launch may go on the side stream: the accumulators' reset
   * is ordered before it by the fork, or by this wait for direct use. */
  st = sharpness_cuda_check (cuda, cudaStreamSynchronize (cuda->stream),
      "content setup");
  if (st != SHARPNESS_OK) {
    sharpness_cuda_content_clear (cuda);
    return st;
  }
  *out = c;
  return SHARPNESS_OK;
}

static int
params_valid (const SharpnessContentParams * p)
{
  if (p->n_planes == 0)
    return 1;
  if (p->n_planes < 0 || p->n_planes > 4)
    return 0;
  /* v210: one plane of 32-bit words, its samples inside them. */
  if (p->v210_samples != 0 || p->bytes_per_sample == 4)
    return p->v210_samples > 0 && p->bytes_per_sample == 4 &&
        p->n_planes == 1 && p->width[0] >= 0 && p->height[0] >= 0 &&
        p->width[0] <= INT_MAX / 2 / 4 &&
        p->v210_samples <= 3 * p->width[0];
  if (p->bytes_per_sample != 1 && p->bytes_per_sample != 2)
    return 0;
  /* A plane of no rows or samples compares nothing (FFmpeg's chroma rows
   * of a frame one row high are h >> 1 = 0). */
  for (int i = 0; i < p->n_planes; i++)
    if (p->width[i] < 0 || p->height[i] < 0 ||
        p->width[i] > INT_MAX / 2 / p->bytes_per_sample)
      return 0;
  return 1;
}

static int
empty_plane (const SharpnessContentParams * p, int i)
{
  return p->width[i] == 0 || p->height[i] == 0;
}

/* The buffers for @p's layout: a layout other than the stored frames'
 * forgets them (they compare with nothing); grown, never shrunk. */
static SharpnessStatus
prepare_layout (SharpnessCuda * cuda, SharpnessCudaContent * c,
    const SharpnessContentParams * p)
{
  int same = c->n_planes == p->n_planes &&
      c->bytes_per_sample == p->bytes_per_sample &&
      c->v210_samples == p->v210_samples;

  for (int i = 0; same && i < p->n_planes; i++)
    same = c->width[i] == p->width[i] && c->height[i] == p->height[i];
  if (same && c->frames)
    return SHARPNESS_OK;

  c->have_reference = c->have_candidate = 0;
  c->n_planes = 0;
  c->ref_index = 0;
  size_t at = 0;
  for (int i = 0; i < p->n_planes; i++) {
    c->offset[i] = at;
    c->pitch[i] = ((size_t) p->width[i] * p->bytes_per_sample + 15) &
        ~(size_t) 15;
    at += c->pitch[i] * p->height[i];
  }
  const size_t half = (at + 255) & ~(size_t) 255;
  if (2 * half > c->frames_size) {
    if (c->frames) {
      /* Every launch that used them has been waited for (_end). */
      SharpnessStatus st = sharpness_cuda_check (cuda, cudaFree (c->frames),
          "freeze reference release");
      c->frames = NULL;
      c->frames_size = 0;
      if (st != SHARPNESS_OK)
        return st;
    }
    cudaError_t err = cudaMalloc ((void **) &c->frames, 2 * half);
    if (err != cudaSuccess) {
      c->frames = NULL;
      SharpnessStatus st = sharpness_cuda_check (cuda, err,
          "freeze reference allocation");
      return err == cudaErrorMemoryAllocation ? SHARPNESS_ERROR_NO_MEMORY : st;
    }
    c->frames_size = 2 * half;
  }
  c->half = half;
  c->n_planes = p->n_planes;
  c->bytes_per_sample = p->bytes_per_sample;
  c->v210_samples = p->v210_samples;
  for (int i = 0; i < p->n_planes; i++) {
    c->width[i] = p->width[i];
    c->height[i] = p->height[i];
  }
  return SHARPNESS_OK;
}

static uint8_t *
half_of (SharpnessCudaContent * c, int index)
{
  return c->frames + (size_t) index * c->half;
}

SharpnessStatus
sharpness_cuda_content_stage_host (SharpnessCuda * cuda,
    const SharpnessContentPlanes * host, const SharpnessContentParams * params,
    SharpnessContentPlanes * dev)
{
  SharpnessCudaContent *c;
  SharpnessStatus st;

  if (!cuda || !host || !params || !dev || !params_valid (params) ||
      !sharpness_plane_is_valid (&host->luma))
    return SHARPNESS_ERROR_INVALID;
  if ((st = content_state (cuda, &c)) != SHARPNESS_OK)
    return st;
  if (c->pending)
    return SHARPNESS_ERROR_INVALID;
  memset (dev, 0, sizeof *dev);
  if (params->n_planes == 0) {
    st = sharpness_cuda_stage_host (cuda, &host->luma, &dev->luma);
    c->staged = st == SHARPNESS_OK;
    return st;
  }

  for (int i = 0; i < params->n_planes; i++)
    if (!empty_plane (params, i) && (!host->data[i] ||
            (params->height[i] > 1 && host->stride[i] <
                (size_t) params->width[i] * params->bytes_per_sample)))
      return SHARPNESS_ERROR_INVALID;
  if ((st = prepare_layout (cuda, c, params)) != SHARPNESS_OK)
    return st;

  uint8_t *cand = half_of (c, c->ref_index ^ 1);
  for (int i = 0; i < params->n_planes; i++) {
    const size_t row = (size_t) params->width[i] * params->bytes_per_sample;
    dev->data[i] = cand + c->offset[i];
    dev->stride[i] = c->pitch[i];
    if (empty_plane (params, i))
      continue;
    st = sharpness_cuda_check (cuda, cudaMemcpy2DAsync (cand + c->offset[i],
            c->pitch[i], host->data[i], params->height[i] > 1 ?
            host->stride[i] : row, row, params->height[i],
            cudaMemcpyHostToDevice, cuda->stream), "frame upload");
    if (st != SHARPNESS_OK) {
      c->have_candidate = 0;
      return st;
    }
  }
  /* The candidate no longer holds the last measured frame. */
  c->have_candidate = 0;
  c->staged = 1;

  /* The luma inside plane 0 (the Y plane, packed RGB, packed 4:2:2): the
   * metric and the measurement read that copy. */
  const SharpnessPlane *l = &host->luma;
  const size_t plane0 = (size_t) params->width[0] * params->bytes_per_sample;
  if ((uintptr_t) l->data >= (uintptr_t) host->data[0] && (l->height == 1 ||
          l->stride == host->stride[0]) && l->height <= params->height[0]) {
    const size_t off = (uintptr_t) l->data - (uintptr_t) host->data[0];
    if (off < plane0 && sharpness_plane_row_bytes (l) <= plane0 - off) {
      dev->luma = *l;
      dev->luma.data = cand + c->offset[0] + off;
      dev->luma.stride = c->pitch[0];
      return SHARPNESS_OK;
    }
  }
  return sharpness_cuda_stage_host (cuda, l, &dev->luma);
}

static int
ceil_div (long long a, long long b)
{
  return (int) ((a + b - 1) / b);
}

/* Launches the items of @l on @stream, at most @per_sm blocks a
 * multiprocessor. */
static SharpnessStatus
launch_items (SharpnessCuda * cuda, SharpnessCudaContent * c,
    const Launch * l, cudaStream_t stream, int per_sm)
{
  long long blocks = (l->items + kWarps - 1) / kWarps;
  const long long cap = (long long) (cuda->sm_count > 0 ? cuda->sm_count :
      1) * per_sm;

  blocks = blocks < cap ? blocks : cap;
  content_kernel <<< (int) blocks, kThreads, 0, stream >>> (*l);
  SharpnessStatus st = sharpness_cuda_check (cuda, cudaGetLastError (),
      "content kernel launch");
  if (st != SHARPNESS_OK)
    return st;
  c->launched = 1;
  c->stream = stream;
  return SHARPNESS_OK;
}

SharpnessStatus
sharpness_cuda_content_begin (SharpnessCuda * cuda,
    const SharpnessContentPlanes * planes,
    const SharpnessContentParams * params, SharpnessContentOrder order)
{
  SharpnessCudaContent *c;
  SharpnessStatus st;
  const int luma = params && (params->black || params->structure ||
      params->cpbd);

  if (!cuda || !planes || !params || !params_valid (params) ||
      (luma && !sharpness_plane_is_valid (&planes->luma)))
    return SHARPNESS_ERROR_INVALID;
  for (int i = 0; i < params->n_planes; i++)
    if (!empty_plane (params, i) && (!planes->data[i] ||
            (params->height[i] > 1 && planes->stride[i] <
                (size_t) params->width[i] * params->bytes_per_sample)))
      return SHARPNESS_ERROR_INVALID;
  if ((st = content_state (cuda, &c)) != SHARPNESS_OK)
    return st;
  if (c->pending)
    return SHARPNESS_ERROR_INVALID;
  /* Whether a host frame was just staged for this measurement. */
  const int staged_upload = c->staged;
  c->staged = 0;
  if (params->n_planes > 0 &&
      (st = prepare_layout (cuda, c, params)) != SHARPNESS_OK)
    return st;

  Launch l;
  memset (&l, 0, sizeof l);
  long long items = 0;
  const SharpnessPlane *p = &planes->luma;

  c->black = params->black;
  c->structure = params->structure;
  c->cpbd = params->cpbd;
  c->pixels = c->interior = 0;
  if (luma) {
    c->pixels = (uint64_t) p->width * p->height;
    if (p->width >= 2 && p->height >= 2)
      c->interior = (uint64_t) (p->width - 1) * (p->height - 1);
    l.luma = *p;
    l.black = params->black;
    /* Gray differences are at most 255: a higher level finds no edge. */
    l.structure = params->structure && params->edge_level <= 255 &&
        c->interior > 0;
    l.threshold = params->black_threshold;
    l.level = params->edge_level;
    l.threshold4 = (params->black_threshold < 255 ?
        params->black_threshold : 255) * 0x01010101u;
    l.level4 = (params->edge_level < 255 ? params->edge_level : 255) *
        0x01010101u;
    const bool aligned = (uintptr_t) p->data % 16 == 0 &&
        (p->height == 1 || p->stride % 16 == 0);
    if (l.black || l.structure) {
      if (p->samples == SHARPNESS_SAMPLES_Y8 && p->pixel_stride == 1 &&
          aligned) {
        l.luma_mode = kLumaFast;
        l.luma_segments = ceil_div (p->width, kSpan);
      } else if (p->samples == SHARPNESS_SAMPLES_Y16LE &&
          p->pixel_stride == 2 && aligned) {
        l.luma_mode = kLumaFast16;
        l.luma_segments = ceil_div (2ll * p->width, kSpan);
      } else {
        l.luma_mode = kLumaGeneric;
        l.luma_segments = ceil_div (p->width, kGenericSpan);
      }
      items = (long long) l.luma_segments * ceil_div (p->height, kRows);
      l.luma_items = (int) (items < INT_MAX ? items : INT_MAX);
    }
  }

  c->freeze = params->n_planes > 0;
  c->has_sad = c->freeze && c->have_reference;
  l.has_sad = c->has_sad;
  if (c->freeze) {
    uint8_t *ref = half_of (c, c->ref_index);
    uint8_t *cand = half_of (c, c->ref_index ^ 1);
    /* A host frame staged into the candidate is only read. */
    int staged = 1;
    for (int i = 0; i < params->n_planes; i++)
      staged = staged && (empty_plane (params, i) ||
          (planes->data[i] == cand + c->offset[i] &&
              planes->stride[i] == c->pitch[i]));
    l.bytes_per_sample = params->bytes_per_sample;
    for (int i = 0; i < params->n_planes; i++) {
      SadPlane s;
      if (empty_plane (params, i))
        continue;
      memset (&s, 0, sizeof s);
      s.frame = planes->data[i];
      s.frame_stride = params->height[i] > 1 ? planes->stride[i] : 0;
      s.ref = c->has_sad ? ref + c->offset[i] : NULL;
      s.cand = staged ? NULL : cand + c->offset[i];
      s.pitch = c->pitch[i];
      s.row_bytes = params->width[i] * params->bytes_per_sample;
      s.v210_samples = params->v210_samples;
      s.height = params->height[i];
      s.segments = ceil_div (s.row_bytes, kSpan);
      s.vec = (uintptr_t) s.frame % 16 == 0 && s.frame_stride % 16 == 0;
      if (!s.ref && !s.cand)
        continue;
      /* Plane 0 is the fast luma: its items compare and copy it. */
      const int luma_bps = l.luma_mode == kLumaFast ? 1 :
          l.luma_mode == kLumaFast16 ? 2 : 0;
      if (i == 0 && luma_bps == params->bytes_per_sample &&
          s.frame == p->data && s.frame_stride == p->stride &&
          s.row_bytes == p->width * luma_bps && s.height == p->height) {
        l.fused = 1;
        l.fuse = s;
        continue;
      }
      s.item0 = (int) (items < INT_MAX ? items : INT_MAX);
      items += (long long) s.segments * ceil_div (s.height, kRows);
      l.sad[l.n_sad++] = s;
    }
  }
  /* CPBD: one item per complete 64 x 64 block of the luma. */
  if (luma && params->cpbd) {
    l.cpbd = 1;
    l.cpbd_blocks_x = p->width / SHARPNESS_CPBD_BLOCK;
    l.cpbd_item0 = (int) (items < INT_MAX ? items : INT_MAX);
    items += (long long) l.cpbd_blocks_x * (p->height / SHARPNESS_CPBD_BLOCK);
  }
  if (items > INT_MAX / 2)
    return SHARPNESS_ERROR_UNSUPPORTED;
  l.items = (int) items;

  c->pending = 1;
  c->launched = 0;
  c->has_prepared = 0;
  c->pending_staged = staged_upload;
  if (items == 0)
    return SHARPNESS_OK;        /* nothing to read: sums of zero */

  l.accum = c->accum;
  l.result = c->result_dev;
  l.seq = ++c->seq;
  c->pending_seq = l.seq;
  if (order == SHARPNESS_CONTENT_FUSED) {
    /* The next classical score launch takes the items, or _end runs
     * them. */
    c->prepared = l;
    c->has_prepared = 1;
    return SHARPNESS_OK;
  }

  /* The side stream starts after everything queued on the backend's
   * (the producer's ordering, a host frame's copies).  Nothing orders the
   * backend's stream after the side stream's last launch, and nothing
   * needs to: a launch whose sums _end has read has done every load and
   * store it will (each block fences them before its ticket, the last
   * block writes the sequence number after every ticket), so the next
   * frame's copies and launches, on either stream, find its buffers
   * free. */
  if (order == SHARPNESS_CONTENT_BESIDE &&
      ((st = sharpness_cuda_check (cuda, cudaEventRecord (c->fork,
                      cuda->stream), "content fork")) != SHARPNESS_OK ||
          (st = sharpness_cuda_check (cuda, cudaStreamWaitEvent (c->side,
                      c->fork, 0), "content fork")) != SHARPNESS_OK)) {
    c->pending = 0;
    return st;
  }
  /* One block per multiprocessor at most, looping over the items, half of
   * each one's registers, so that the metric's blocks, launched next
   * beside it (on our stream or the service's), find room on every
   * multiprocessor instead of waiting for this launch to drain. */
  st = launch_items (cuda, c, &l, order == SHARPNESS_CONTENT_BESIDE ?
      c->side : cuda->stream, 1);
  if (st != SHARPNESS_OK)
    c->pending = 0;
  return st;
}

const Launch *
sharpness_cuda_content_prepared (SharpnessCuda * cuda)
{
  const SharpnessCudaContent *c = cuda->content;

  return c && c->pending && c->has_prepared ? &c->prepared : NULL;
}

void
sharpness_cuda_content_taken (SharpnessCuda * cuda)
{
  SharpnessCudaContent *c = cuda->content;

  c->has_prepared = 0;
  c->launched = 1;
  c->stream = cuda->stream;
}

int
sharpness_cuda_content_fuses (SharpnessMetric metric,
    const SharpnessPlane * plane)
{
  return plane && sharpness_plane_is_valid (plane) &&
      sharpness_metric_has_tiles (metric) &&
      sharpness_cuda::variant_fuses_content (sharpness_cuda::variant_of
      (plane));
}

static unsigned long long
result_seq (const SharpnessCudaContent * c)
{
  return __atomic_load_n (&c->result->seq, __ATOMIC_ACQUIRE);
}

SharpnessStatus
sharpness_cuda_content_end (SharpnessCuda * cuda, SharpnessContentSums * out)
{
  SharpnessCudaContent *c = cuda ? cuda->content : NULL;

  if (!c || !c->pending || !out)
    return SHARPNESS_ERROR_INVALID;
  memset (out, 0, sizeof *out);
  if (c->has_prepared) {
    /* FUSED, and no score launch took the items: they go now, alone,
     * with as many blocks as fit. */
    c->has_prepared = 0;
    SharpnessStatus st = launch_items (cuda, c, &c->prepared, cuda->stream,
        c->blocks_per_sm);
    if (st != SHARPNESS_OK) {
      c->pending = 0;
      c->have_candidate = 0;
      return st;
    }
  }
  c->pending = 0;
  if (!c->launched && c->pending_staged) {
    /* Nothing to launch (the frame's first measurement, freeze only):
     * its upload is all there is to wait for before the host frame may
     * go. */
    SharpnessStatus st = sharpness_cuda_check (cuda,
        cudaStreamSynchronize (cuda->stream), "frame upload");
    if (st != SHARPNESS_OK) {
      c->have_candidate = 0;
      return st;
    }
  }
  if (c->launched) {
    /* Usually written already, while the metric's launch was waited for:
     * no second synchronisation. */
    if (result_seq (c) != c->pending_seq) {
      SharpnessStatus st = sharpness_cuda_check (cuda,
          cudaStreamSynchronize (c->stream), "content kernel");
      if (st != SHARPNESS_OK) {
        c->have_candidate = 0;
        return st;
      }
      if (result_seq (c) != c->pending_seq) {
        c->have_candidate = 0;
        snprintf (cuda->error, sizeof cuda->error,
            "content kernel: it finished without writing its result");
        return SHARPNESS_ERROR_DEVICE;
      }
    }
    out->black_count = c->black ? c->result->count[kBlack] : 0;
    out->edges = c->structure ? c->result->count[kEdges] : 0;
    out->sad = c->has_sad ? c->result->count[kSad] : 0;
    out->cpbd_edges = c->cpbd ? c->result->count[kCpbdEdges] : 0;
    out->cpbd_sharp = c->cpbd ? c->result->count[kCpbdSharp] : 0;
  }
  out->pixels = c->pixels;
  out->interior = c->structure ? c->interior : 0;
  out->has_sad = c->has_sad;
  if (c->freeze)
    c->have_candidate = 1;
  return SHARPNESS_OK;
}

SharpnessStatus
sharpness_cuda_content_device (SharpnessCuda * cuda,
    const SharpnessContentPlanes * planes,
    const SharpnessContentParams * params, SharpnessContentSums * out)
{
  if (!out)
    return SHARPNESS_ERROR_INVALID;
  SharpnessStatus st = sharpness_cuda_content_begin (cuda, planes, params,
      SHARPNESS_CONTENT_IN_ORDER);
  if (st != SHARPNESS_OK)
    return st;
  return sharpness_cuda_content_end (cuda, out);
}

void
sharpness_cuda_content_reference (SharpnessCuda * cuda, int keep)
{
  SharpnessCudaContent *c = cuda ? cuda->content : NULL;

  if (!c)
    return;
  if (!keep) {
    c->have_reference = c->have_candidate = 0;
    return;
  }
  if (c->have_candidate) {
    c->ref_index ^= 1;
    c->have_reference = 1;
    c->have_candidate = 0;
  }
}
