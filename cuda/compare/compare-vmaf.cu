/* cuda/compare's VMAF: the object, its buffers of a frame size, and the
 * extractor that queues a frame's motion, VIF and ADM launches, copies
 * their integer sums back once and finishes them with the CPU's host code
 * (vmaf-private.h); see compare-vmaf-private.cuh.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "compare-vmaf-private.cuh"

using namespace compare_vmaf_cuda;

/* Why the last compare_vmaf_cuda_new of this thread failed. */
static __thread char new_error[256];

SharpnessStatus
compare_vmaf_cuda_check (CompareVmafCuda * vc, cudaError_t err,
    const char *what)
{
  if (err == cudaSuccess)
    return SHARPNESS_OK;
  snprintf (vc ? vc->error : new_error, 256, "%s: %s", what,
      cudaGetErrorString (err));
  return err == cudaErrorMemoryAllocation ? SHARPNESS_ERROR_NO_MEMORY :
      SHARPNESS_ERROR_DEVICE;
}

static void
bufs_free (CompareVmafCudaBufs * b)
{
  void *dev[] = { b->motion_tmp, b->blur[0], b->blur[1], b->adm_rows };

  for (void *p : dev)
    cudaFree (p);
  for (int s = 0; s < kScales; s++) {
    cudaFree (b->vif_ref[s]);
    cudaFree (b->vif_dis[s]);
  }
  for (int32_t * p : b->adm_band)
    cudaFree (p);
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++)
      cudaFree (b->adm_approx[i][j]);
  cudaFreeHost (b->adm_rows_host);
  memset (b, 0, sizeof (*b));
}

/* The buffers of a @w x @h frame: made again only when the size changes
 * (after the queued work that reads the old ones). */
static SharpnessStatus
bufs_reserve (CompareVmafCuda * vc, int w, int h)
{
  CompareVmafCudaBufs *b = &vc->b;
  const size_t n = (size_t) w * h;
  const size_t band = (size_t) ((w + 1) / 2) * ((h + 1) / 2);
  SharpnessStatus st;

  if (b->width == w && b->height == h)
    return SHARPNESS_OK;
  if ((st = compare_vmaf_cuda_check (vc, cudaStreamSynchronize (vc->stream),
              "synchronise before a new frame size")))
    return st;
  bufs_free (b);

#define DEV(ptr, bytes) \
  if ((st = compare_vmaf_cuda_check (vc, cudaMalloc ((void **) &(ptr), \
                  (bytes)), "device buffer of " #ptr))) \
    goto fail
  DEV (b->motion_tmp, n * sizeof (uint16_t));
  DEV (b->blur[0], n * sizeof (uint16_t));
  DEV (b->blur[1], n * sizeof (uint16_t));
  {
    int sw = w, sh = h;

    for (int s = 1; s < kScales; s++) {
      sw /= 2;
      sh /= 2;
      DEV (b->vif_ref[s], (size_t) sw * sh * sizeof (uint16_t));
      DEV (b->vif_dis[s], (size_t) sw * sh * sizeof (uint16_t));
    }
  }
  for (int32_t * &p : b->adm_band)
    DEV (p, band * sizeof (int32_t));
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++)
      DEV (b->adm_approx[i][j], band * sizeof (int32_t));
  {
    int lw = w, lh = h;
    size_t rows = 0;

    for (int s = 0; s < kScales; s++) {
      const CompareVmafAdmRect *sc;

      lw = (lw + 1) / 2;
      lh = (lh + 1) / 2;
      b->adm_w[s] = lw;
      b->adm_h[s] = lh;
      compare_vmaf_adm_level (s, lw, lh, &b->adm_level[s]);
      sc = &b->adm_level[s].score;
      b->adm_row_start[s] = rows;
      rows += sc->bottom - sc->top;
    }
    b->adm_rows_per_set = rows;
    DEV (b->adm_rows, kSets * rows * kAdmRow * sizeof (long long));
    if ((st = compare_vmaf_cuda_check (vc, cudaMallocHost ((void **)
                    &b->adm_rows_host, kSets * rows * kAdmRow *
                    sizeof (long long)), "pinned ADM rows")))
      goto fail;
  }
#undef DEV
  b->width = w;
  b->height = h;
  return SHARPNESS_OK;

fail:
  bufs_free (b);
  return st;
}

extern "C" SharpnessStatus
compare_vmaf_cuda_new (void *stream, CompareVmafCuda ** out)
{
  CompareVmafCuda *vc = (CompareVmafCuda *) calloc (1,
      sizeof (CompareVmafCuda));
  uint16_t *log2_table = nullptr;
  int32_t *div_table = nullptr;
  SharpnessStatus st;

  *out = nullptr;
  if (!vc) {
    snprintf (new_error, sizeof (new_error), "out of host memory");
    return SHARPNESS_ERROR_NO_MEMORY;
  }
  vc->stream = (cudaStream_t) stream;
  /* The CPU's tables, made by its code, uploaded once. */
  log2_table = (uint16_t *) calloc (65536, sizeof (uint16_t));
  div_table = (int32_t *) calloc (COMPARE_VMAF_ADM_DIV_LOOKUP_SIZE,
      sizeof (int32_t));
  if (!log2_table || !div_table) {
    snprintf (new_error, sizeof (new_error), "out of host memory");
    st = SHARPNESS_ERROR_NO_MEMORY;
    goto done;
  }
  compare_vmaf_vif_log2_table (log2_table);
  compare_vmaf_adm_div_lookup (div_table);
  st = compare_vmaf_cuda_check (nullptr, cudaMalloc ((void **) &vc->sums,
          sizeof (CompareVmafCudaSums)), "device accumulators");
  if (st == SHARPNESS_OK)
    st = compare_vmaf_cuda_check (nullptr, cudaMallocHost ((void **)
            &vc->sums_host, sizeof (CompareVmafCudaSums)), "pinned sums");
  if (st == SHARPNESS_OK)
    st = compare_vmaf_cuda_check (nullptr, cudaMalloc ((void **)
            &vc->vif_log2, 65536 * sizeof (uint16_t)), "VIF log2 table");
  if (st == SHARPNESS_OK)
    st = compare_vmaf_cuda_check (nullptr, cudaMalloc ((void **)
            &vc->adm_div, COMPARE_VMAF_ADM_DIV_LOOKUP_SIZE *
            sizeof (int32_t)), "ADM reciprocal table");
  if (st == SHARPNESS_OK)
    st = compare_vmaf_cuda_check (nullptr, cudaMemcpy (vc->vif_log2,
            log2_table, 65536 * sizeof (uint16_t), cudaMemcpyHostToDevice),
        "upload the VIF log2 table");
  if (st == SHARPNESS_OK)
    st = compare_vmaf_cuda_check (nullptr, cudaMemcpy (vc->adm_div,
            div_table, COMPARE_VMAF_ADM_DIV_LOOKUP_SIZE * sizeof (int32_t),
            cudaMemcpyHostToDevice), "upload the ADM reciprocal table");
done:
  free (log2_table);
  free (div_table);
  if (st != SHARPNESS_OK) {
    compare_vmaf_cuda_free (vc);
    return st;
  }
  *out = vc;
  return SHARPNESS_OK;
}

extern "C" void
compare_vmaf_cuda_free (CompareVmafCuda * vc)
{
  if (!vc)
    return;
  (void) cudaStreamSynchronize (vc->stream);
  bufs_free (&vc->b);
  cudaFree (vc->sums);
  cudaFreeHost (vc->sums_host);
  cudaFree (vc->vif_log2);
  cudaFree (vc->adm_div);
  free (vc);
}

extern "C" const char *
compare_vmaf_cuda_last_error (const CompareVmafCuda * vc)
{
  return vc ? vc->error : new_error;
}

/* ADM of set @k from its rows: each level's sums as the CPU adds them,
 * then the CPU's float steps. */
static void
adm_finish (const CompareVmafCudaBufs * b, int k, int w, int h,
    double *adm2, double scale[kScales])
{
  const long long *rows = b->adm_rows_host + (size_t) k *
      b->adm_rows_per_set * kAdmRow;
  float num[kScales], den[kScales];

  for (int s = 0; s < kScales; s++) {
    const CompareVmafAdmLevel *lv = &b->adm_level[s];
    const int n_rows = lv->score.bottom - lv->score.top;
    CompareVmafAdmSums sums = { {0, 0, 0}, {0, 0, 0} };

    for (int r = 0; r < n_rows; r++) {
      const long long *row = rows + (b->adm_row_start[s] + r) * kAdmRow;
      const uint64_t den_row[3] = { (uint64_t) row[0], (uint64_t) row[1],
        (uint64_t) row[2]
      };
      const int64_t num_row[3] = { row[3], row[4], row[5] };

      compare_vmaf_adm_den_row (lv, &sums, den_row);
      compare_vmaf_adm_num_row (lv, &sums, num_row);
    }
    compare_vmaf_adm_level_score (lv, &sums, &num[s], &den[s]);
  }
  compare_vmaf_adm_score (num, den, w, h, adm2, scale);
}

static SharpnessStatus
cuda_extract (void *self, const CompareVmafPlane * ref,
    const CompareVmafPlane * dist, int first, CompareVmafFrame * frame)
{
  CompareVmafCuda *vc = (CompareVmafCuda *) self;
  CompareVmafCudaBufs *b = &vc->b;
  const int w = ref->width, h = ref->height;
  const int cur = first ? 0 : vc->blur_cur ^ 1;
  SharpnessStatus st;

  if ((st = compare_vmaf_planes_check (ref, dist)))
    return st;
  if (frame->n_sets < 1 || frame->n_sets > kSets)
    return SHARPNESS_ERROR_INVALID;
  for (int k = 0; k < frame->n_sets; k++)
    if (!(frame->vif_egl[k] >= 1.0 && frame->vif_egl[k] <=
            COMPARE_VMAF_EGL_DEFAULT) || !(frame->adm_egl[k] >= 1.0 &&
            frame->adm_egl[k] <= COMPARE_VMAF_EGL_DEFAULT))
      return SHARPNESS_ERROR_INVALID;
  /* A new size is a new sequence: @first (the stream's rule). */
  if (!first && (b->width != w || b->height != h))
    return SHARPNESS_ERROR_INVALID;
  if ((st = bufs_reserve (vc, w, h)))
    return st;

  if ((st = compare_vmaf_cuda_check (vc, cudaMemsetAsync (vc->sums, 0,
                  sizeof (CompareVmafCudaSums), vc->stream),
              "clear the accumulators")))
    return st;
  compare_vmaf_cuda_motion (vc, ref, cur, first ? -1 : vc->blur_cur);
  compare_vmaf_cuda_vif (vc, ref, dist, frame->n_sets, frame->vif_egl);
  compare_vmaf_cuda_adm (vc, ref, dist, frame->n_sets, frame->adm_egl);
  if ((st = compare_vmaf_cuda_check (vc, cudaGetLastError (),
              "VMAF launches")))
    return st;
  if ((st = compare_vmaf_cuda_check (vc, cudaMemcpyAsync (vc->sums_host,
                  vc->sums, sizeof (CompareVmafCudaSums),
                  cudaMemcpyDeviceToHost, vc->stream), "copy the sums")))
    return st;
  if ((st = compare_vmaf_cuda_check (vc, cudaMemcpyAsync (b->adm_rows_host,
                  b->adm_rows, (size_t) frame->n_sets * b->adm_rows_per_set *
                  kAdmRow * sizeof (long long), cudaMemcpyDeviceToHost,
                  vc->stream), "copy the ADM rows")))
    return st;
  if ((st = compare_vmaf_cuda_check (vc, cudaStreamSynchronize (vc->stream),
              "synchronise")))
    return st;
  /* The blur is kept only once the frame is done. */
  vc->blur_cur = cur;

  const double motion = first ? 0.0 :
      compare_vmaf_motion_score (vc->sums_host->sad, w, h);

  for (int k = 0; k < frame->n_sets; k++) {
    double *v = frame->value[k];
    double adm_scale[kScales];

    for (int s = 0; s < kScales; s++) {
      const long long *a = vc->sums_host->vif[k][s];
      const CompareVmafVifSums sums = { a[0], a[1], a[2], a[3] };

      v[COMPARE_VMAF_OUT_VIF_SCALE0 + s] = compare_vmaf_vif_score (&sums);
    }
    adm_finish (b, k, w, h, &v[COMPARE_VMAF_OUT_ADM2], adm_scale);
    for (int s = 0; s < kScales; s++)
      v[COMPARE_VMAF_OUT_ADM_SCALE0 + s] = adm_scale[s];
    v[COMPARE_VMAF_OUT_MOTION] = motion;
  }
  return SHARPNESS_OK;
}

extern "C" void
compare_vmaf_cuda_extractor (CompareVmafCuda * vc, CompareVmafExtractor * ex)
{
  ex->extract = cuda_extract;
  ex->self = vc;
}
