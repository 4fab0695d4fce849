/* Internals of cuda/compare's VMAF: the object, its device buffers and the
 * helpers the three feature files (compare-vmaf-{motion,vif,adm}.cu)
 * share.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Each feature's kernels write integer sums: VIF's and motion's into the
 * device accumulators (atomic integer addition), ADM's per row of each
 * level (its rows are shifted before they are added, on the host, by
 * compare_vmaf_adm_*_row).  compare-vmaf.cu copies them back once per
 * frame and finishes them with the CPU's host code.
 */
#ifndef COMPARE_VMAF_PRIVATE_CUH
#define COMPARE_VMAF_PRIVATE_CUH

#include <cstddef>
#include <cstdint>

#include <cuda_runtime.h>

#include "compare-vmaf-cuda.h"
#include "vmaf-private.h"

namespace compare_vmaf_cuda
{

constexpr int kThreads = 256;                   /* every VMAF kernel */
constexpr int kSets = COMPARE_VMAF_MAX_MODELS;  /* gain-limit sets */
constexpr int kScales = COMPARE_VMAF_SCALES;
constexpr int kAdmRow = 6;      /* ADM row sums: den h, v, d; num h, v, d */

/* A plane of samples: bytes, or 16-bit little-endian samples. */
struct Src
{
  const unsigned char *data;
  size_t stride;
  int wide;
};

static __device__ __forceinline__ unsigned
load (const Src & s, int x, int y)
{
  const unsigned char *row = s.data + (size_t) y * s.stride;

  if (s.wide)
    return (unsigned) row[2 * x] | ((unsigned) row[2 * x + 1] << 8);
  return row[x];
}

static inline Src
src_of (const CompareVmafPlane * p)
{
  return Src { (const unsigned char *) p->data, p->stride, p->depth > 8 };
}

/* A packed uint16 image of @w samples a row. */
static inline Src
src_of_u16 (const uint16_t * data, int w)
{
  return Src { (const unsigned char *) data, (size_t) w * 2, 1 };
}

static inline unsigned
div_up (size_t a, unsigned b)
{
  return (unsigned) ((a + b - 1) / b);
}

}  // namespace compare_vmaf_cuda

/* The device accumulators, zeroed before each frame. */
struct CompareVmafCudaSums
{
  unsigned long long sad;
  /* [set][scale]: num_log, den_log, num_non_log, den_non_log */
  long long vif[compare_vmaf_cuda::kSets][compare_vmaf_cuda::kScales][4];
};

/* The buffers of one frame size. */
struct CompareVmafCudaBufs
{
  int width, height;
  /* motion: the vertical pass; the reference's last two blurs */
  uint16_t *motion_tmp, *blur[2];
  /* VIF: scales 1..3 of reference and distorted */
  uint16_t *vif_ref[compare_vmaf_cuda::kScales];
  uint16_t *vif_dis[compare_vmaf_cuda::kScales];
  /* ADM: level 0's band size in int32 (level 0 uses it as int16): the
   * reference's and distorted v, h, d; the restored r (h, v, d), csf_a
   * and csf_f (3 each); the approximation bands, in and out */
  int32_t *adm_band[6 + 9];
  int32_t *adm_approx[2][2];    /* [ref, dis][which] */
  /* ADM's row sums: [set][level rows...][kAdmRow] */
  long long *adm_rows, *adm_rows_host;
  size_t adm_rows_per_set;
  size_t adm_row_start[compare_vmaf_cuda::kScales];
  CompareVmafAdmLevel adm_level[compare_vmaf_cuda::kScales];
  int adm_w[compare_vmaf_cuda::kScales], adm_h[compare_vmaf_cuda::kScales];
};

struct CompareVmafCuda
{
  cudaStream_t stream;
  char error[256];
  CompareVmafCudaSums *sums;            /* device */
  CompareVmafCudaSums *sums_host;       /* pinned */
  uint16_t *vif_log2;                   /* device, 65536 */
  int32_t *adm_div;                     /* device, 65537 */
  CompareVmafCudaBufs b;
  int blur_cur;                         /* blur[] of the last frame */
};

/* Records "@what: <the error>" (nullptr @vc: the thread's); SHARPNESS_OK
 * for cudaSuccess. */
SharpnessStatus compare_vmaf_cuda_check (CompareVmafCuda * vc,
    cudaError_t err, const char *what);

/* ---- the features' launches (queued on vc->stream, unchecked: the
 * caller checks cudaGetLastError once after them) */

/* The reference's blur into vc->b.blur[@cur]; with @prev >= 0, the sum of
 * absolute differences against blur[@prev] into sums->sad. */
void compare_vmaf_cuda_motion (CompareVmafCuda * vc,
    const CompareVmafPlane * ref, int cur, int prev);

/* VIF's four scales for each of @n_sets gain limits into sums->vif. */
void compare_vmaf_cuda_vif (CompareVmafCuda * vc,
    const CompareVmafPlane * ref, const CompareVmafPlane * dist,
    int n_sets, const double *egl);

/* ADM's four levels for each of @n_sets gain limits: the row sums of
 * each set and level into vc->b.adm_rows. */
void compare_vmaf_cuda_adm (CompareVmafCuda * vc,
    const CompareVmafPlane * ref, const CompareVmafPlane * dist,
    int n_sets, const double *egl);

#endif /* COMPARE_VMAF_PRIVATE_CUH */
