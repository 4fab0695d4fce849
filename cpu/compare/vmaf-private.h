/* Internals shared by the VMAF sources: the scratch buffers and the
 * plane readers.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef COMPARE_VMAF_PRIVATE_H
#define COMPARE_VMAF_PRIVATE_H

#include "vmaf.h"

#ifdef __cplusplus
extern "C" {
#endif

enum
{
  /* VIF: the current and the next scale of reference and distorted
   * (uint16, w x h), the filtered rows (uint32, with their mirrors). */
  VMAF_BUF_VIF_LEVEL,
  VMAF_BUF_VIF_ROWS,
  VMAF_BUF_VIF_LOG2,            /* libvmaf's log2 table, made once */
  /* ADM: the bands of one scale (int16 at scale 0, int32 at 1..3) and
   * the approximation band fed to the next scale. */
  VMAF_BUF_ADM_BANDS,
  VMAF_BUF_ADM_APPROX,
  VMAF_BUF_ADM_ROWS,
  VMAF_BUF_ADM_DIV,             /* libvmaf's Q30 reciprocal table, made once */
  /* Motion: the vertical pass. */
  VMAF_BUF_MOTION_ROWS,
  VMAF_N_BUFS
};

struct CompareVmafScratch
{
  void *buf[VMAF_N_BUFS];
  size_t cap[VMAF_N_BUFS];
};

/* Grows buffer @which to @size bytes (never shrinks). */
SharpnessStatus compare_vmaf_scratch_reserve (CompareVmafScratch * scratch,
    int which, size_t size);

/* SHARPNESS_OK when @ref and @dist are usable luma planes of one size. */
SharpnessStatus compare_vmaf_planes_check (const CompareVmafPlane * ref,
    const CompareVmafPlane * dist);

static inline unsigned
compare_vmaf_sample (const CompareVmafPlane * p, int x, int y)
{
  const uint8_t *row = (const uint8_t *) p->data + (size_t) y * p->stride;

  if (p->depth == 8)
    return row[x];
  return (unsigned) row[2 * x] | ((unsigned) row[2 * x + 1] << 8);
}

/* --- The integer sums of each feature and the host's steps after them,
 * shared by the CPU extractors and the CUDA kernels (cuda/compare), which
 * compute the same sums on the device and finish them here: one
 * definition of every float and double step. ------------------------- */

/* Motion: libvmaf's score of the sum of the rows' absolute differences. */
double compare_vmaf_motion_score (uint64_t sad, int width, int height);

/* VIF of one scale: the information sums of every pixel. */
typedef struct
{
  int64_t num_log, den_log, num_non_log, den_non_log;
} CompareVmafVifSums;

/* num / den of the scale, in libvmaf's float and double steps. */
double compare_vmaf_vif_score (const CompareVmafVifSums * sums);

/* log2 (i) * 2048 rounded for i in [32767, 65535] (65536 entries). */
void compare_vmaf_vif_log2_table (uint16_t * table);

/* ADM: the rectangles, shifts and factors of one level (w x h: the
 * level's band size), every integer constant the per-pixel steps use. */
typedef struct
{
  int top, bottom, left, right;
} CompareVmafAdmRect;

typedef struct
{
  int level;
  /* decoupling and CSF; the scored region */
  CompareVmafAdmRect filter, score;
  /* levels 1..3: the CSF's Q32 reciprocals of the quantisation steps */
  uint32_t i_rfactor[3];
  /* the denominator: level 0 shifts each row's sum by den_row; levels
   * 1..3 shift each square by den_sq, each cube by den_cub, each row by
   * den_row (shift and rounding term) */
  uint32_t den_sq_shift, den_sq_add, den_cub_shift, den_cub_add;
  uint32_t den_row_shift, den_row_add;
  /* the masking numerator: each cube (per orientation), each row */
  uint32_t num_cub_shift[3], num_cub_add[3];
  uint32_t num_row_shift, num_row_add;
  /* cos (1 degree)^2 in float, as the angle test uses it */
  float cos_1deg_sq;
} CompareVmafAdmLevel;

void compare_vmaf_adm_level (int level, int w, int h,
    CompareVmafAdmLevel * lv);

/* One level's sums over the rows of the scored region: each row's sums
 * (of the reference's cubes, of the masked restored part's cubes; per
 * orientation h, v, d) added in any order of rows (each row's shift
 * comes first, then integer addition), then num and den of the level in
 * libvmaf's float steps. */
typedef struct
{
  uint64_t den[3];
  int64_t num[3];
} CompareVmafAdmSums;

static inline void
compare_vmaf_adm_den_row (const CompareVmafAdmLevel * lv,
    CompareVmafAdmSums * sums, const uint64_t row[3])
{
  for (int k = 0; k < 3; k++)
    sums->den[k] += (row[k] + lv->den_row_add) >> lv->den_row_shift;
}

static inline void
compare_vmaf_adm_num_row (const CompareVmafAdmLevel * lv,
    CompareVmafAdmSums * sums, const int64_t row[3])
{
  for (int k = 0; k < 3; k++)
    sums->num[k] += (row[k] + lv->num_row_add) >> lv->num_row_shift;
}

void compare_vmaf_adm_level_score (const CompareVmafAdmLevel * lv,
    const CompareVmafAdmSums * sums, float *num, float *den);

/* adm2 and the four scales' scores of the levels' num and den (w x h:
 * the frame's size). */
void compare_vmaf_adm_score (const float num[COMPARE_VMAF_SCALES],
    const float den[COMPARE_VMAF_SCALES], int w, int h, double *adm2,
    double scale[COMPARE_VMAF_SCALES]);

/* 2^30 / i for i in [-32768, 32768] at index i + 32768. */
#define COMPARE_VMAF_ADM_DIV_LOOKUP_SIZE 65537
void compare_vmaf_adm_div_lookup (int32_t * table);

#ifdef __cplusplus
}
#endif
#endif /* COMPARE_VMAF_PRIVATE_H */
