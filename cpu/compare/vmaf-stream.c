/* VMAF frame by frame: the feature registry, each gain-limit set's VIF
 * and ADM, the reference's motion over the sequence, each model's score;
 * as libvmaf's `vmaf` tool orders them (motion2 of frame n is the smaller
 * of the motions of n and n + 1, 0 for frame 0, the last frame's own
 * motion for the last).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdlib.h>
#include <string.h>

#include "vmaf-private.h"

#define COMPARE_VMAF_OUTPUT_INFO_ROW(ID, ex, nm) \
  [COMPARE_VMAF_OUT_##ID] = { ex, nm, \
    COMPARE_VMAF_OUT_##ID != COMPARE_VMAF_OUT_MOTION && \
    COMPARE_VMAF_OUT_##ID != COMPARE_VMAF_OUT_MOTION2 },
const CompareVmafOutputInfo compare_vmaf_output_info[COMPARE_VMAF_N_OUTPUTS] = {
  COMPARE_VMAF_OUTPUT_TABLE (COMPARE_VMAF_OUTPUT_INFO_ROW)
};
#undef COMPARE_VMAF_OUTPUT_INFO_ROW

struct CompareVmafStream
{
  const CompareVmafModel *models[COMPARE_VMAF_MAX_MODELS];
  int n_models;
  CompareVmafScratch *scratch;

  /* The reference's blurs of the last three frames (libvmaf's ring). */
  uint16_t *blur[3];
  size_t blur_size;             /* bytes of each */
  int width, height, depth;
  /* The sequence's extractor (NULL extract: the CPU's). */
  CompareVmafExtractor extractor;

  uint64_t n_pushed;
  double last_motion;           /* motion of the pending frame */
  int pending;
  CompareVmafFrame frame;       /* the last pushed, motion2 not yet known */
};

CompareVmafStream *
compare_vmaf_stream_new (const CompareVmafModel * const *models,
    int n_models)
{
  CompareVmafStream *s;

  if (n_models < 0 || n_models > COMPARE_VMAF_MAX_MODELS ||
      (n_models > 0 && !models))
    return NULL;
  s = calloc (1, sizeof (*s));
  if (!s)
    return NULL;
  s->scratch = compare_vmaf_scratch_new ();
  if (!s->scratch) {
    free (s);
    return NULL;
  }
  s->n_models = n_models;
  /* The gain-limit sets: one per distinct (VIF, ADM) pair of the models;
   * the default one when there is no model. */
  s->frame.n_models = n_models;
  if (n_models == 0) {
    s->frame.n_sets = 1;
    s->frame.vif_egl[0] = COMPARE_VMAF_EGL_DEFAULT;
    s->frame.adm_egl[0] = COMPARE_VMAF_EGL_DEFAULT;
  }
  for (int m = 0; m < n_models; m++) {
    double v = compare_vmaf_model_vif_egl (models[m]);
    double a = compare_vmaf_model_adm_egl (models[m]);
    int k;

    s->models[m] = models[m];
    for (k = 0; k < s->frame.n_sets; k++)
      if (s->frame.vif_egl[k] == v && s->frame.adm_egl[k] == a)
        break;
    if (k == s->frame.n_sets) {
      s->frame.vif_egl[k] = v;
      s->frame.adm_egl[k] = a;
      s->frame.n_sets++;
    }
    s->frame.set[m] = k;
  }
  return s;
}

void
compare_vmaf_stream_free (CompareVmafStream * s)
{
  if (!s)
    return;
  for (int k = 0; k < 3; k++)
    free (s->blur[k]);
  compare_vmaf_scratch_free (s->scratch);
  free (s);
}

/* The pending frame, completed with its motion2, scored into @out. */
static void
finish (CompareVmafStream * s, double motion2, CompareVmafFrame * out)
{
  *out = s->frame;
  for (int k = 0; k < out->n_sets; k++)
    out->value[k][COMPARE_VMAF_OUT_MOTION2] = motion2;
  for (int m = 0; m < s->n_models; m++) {
    const double *v = out->value[out->set[m]];
    double f[COMPARE_VMAF_N_FEATURES];

    f[COMPARE_VMAF_FEATURE_ADM2] = v[COMPARE_VMAF_OUT_ADM2];
    f[COMPARE_VMAF_FEATURE_MOTION2] = v[COMPARE_VMAF_OUT_MOTION2];
    f[COMPARE_VMAF_FEATURE_VIF_SCALE0] = v[COMPARE_VMAF_OUT_VIF_SCALE0];
    f[COMPARE_VMAF_FEATURE_VIF_SCALE1] = v[COMPARE_VMAF_OUT_VIF_SCALE1];
    f[COMPARE_VMAF_FEATURE_VIF_SCALE2] = v[COMPARE_VMAF_OUT_VIF_SCALE2];
    f[COMPARE_VMAF_FEATURE_VIF_SCALE3] = v[COMPARE_VMAF_OUT_VIF_SCALE3];
    out->score[m] = compare_vmaf_model_predict (s->models[m], f);
  }
  s->pending = 0;
}

/* The CPU's extractor: the reference's blur into the stream's ring, the
 * motion against the previous one, each set's VIF and ADM. */
static SharpnessStatus
cpu_extract (CompareVmafStream * s, const CompareVmafPlane * ref,
    const CompareVmafPlane * dist, int first, CompareVmafFrame * frame)
{
  const uint64_t n = s->n_pushed;
  double motion, vif[COMPARE_VMAF_SCALES], adm_scale[COMPARE_VMAF_SCALES];
  double adm2;
  uint16_t *blur = s->blur[n % 3];
  SharpnessStatus st = compare_vmaf_motion_blur (s->scratch, ref, blur);

  if (st != SHARPNESS_OK)
    return st;
  motion = first ? 0.0 : compare_vmaf_motion_sad (s->blur[(n - 1) % 3],
      blur, ref->width, ref->height);
  for (int k = 0; k < frame->n_sets; k++) {
    double *v = frame->value[k];

    st = compare_vmaf_vif (s->scratch, ref, dist, frame->vif_egl[k], vif);
    if (st == SHARPNESS_OK)
      st = compare_vmaf_adm (s->scratch, ref, dist, frame->adm_egl[k], &adm2,
          adm_scale);
    if (st != SHARPNESS_OK)
      return st;
    v[COMPARE_VMAF_OUT_ADM2] = adm2;
    for (int c = 0; c < COMPARE_VMAF_SCALES; c++) {
      v[COMPARE_VMAF_OUT_ADM_SCALE0 + c] = adm_scale[c];
      v[COMPARE_VMAF_OUT_VIF_SCALE0 + c] = vif[c];
    }
    v[COMPARE_VMAF_OUT_MOTION] = motion;
  }
  return SHARPNESS_OK;
}

SharpnessStatus
compare_vmaf_stream_push (CompareVmafStream * s, const CompareVmafPlane * ref,
    const CompareVmafPlane * dist, CompareVmafFrame * out, int *done)
{
  return compare_vmaf_stream_push_with (s, NULL, ref, dist, out, done);
}

SharpnessStatus
compare_vmaf_stream_push_with (CompareVmafStream * s,
    const CompareVmafExtractor * ex, const CompareVmafPlane * ref,
    const CompareVmafPlane * dist, CompareVmafFrame * out, int *done)
{
  SharpnessStatus st = compare_vmaf_planes_check (ref, dist);
  const uint64_t n = s->n_pushed;
  double motion;

  *done = 0;
  if (st != SHARPNESS_OK)
    return st;
  if (n == 0) {
    const size_t size = (size_t) ref->width * ref->height * sizeof (uint16_t);

    /* The CPU's blurs: a new sequence of the same size keeps their
     * memory. */
    for (int k = 0; k < 3 && !ex && size > s->blur_size; k++) {
      free (s->blur[k]);
      s->blur[k] = malloc (size);
      if (!s->blur[k]) {
        s->blur_size = 0;
        return SHARPNESS_ERROR_NO_MEMORY;
      }
    }
    if (!ex && size > s->blur_size)
      s->blur_size = size;
    s->width = ref->width;
    s->height = ref->height;
    s->depth = ref->depth;
    s->extractor = ex ? *ex : (CompareVmafExtractor) { NULL, NULL };
  } else if (ref->width != s->width || ref->height != s->height ||
      ref->depth != s->depth) {
    return SHARPNESS_ERROR_INVALID;
  } else if ((ex ? ex->extract : NULL) != s->extractor.extract ||
      (ex ? ex->self : NULL) != s->extractor.self) {
    /* Its previous blur is the other extractor's. */
    return SHARPNESS_ERROR_INVALID;
  }

  /* This frame's features first: a failure leaves the pending frame
   * pending. */
  CompareVmafFrame next = s->frame;

  next.index = n;
  st = ex ? ex->extract (ex->self, ref, dist, n == 0, &next) :
      cpu_extract (s, ref, dist, n == 0, &next);
  if (st != SHARPNESS_OK)
    return st;
  motion = next.value[0][COMPARE_VMAF_OUT_MOTION];

  if (s->pending) {
    /* libvmaf: frame 0's motion2 is 0, later ones the smaller motion. */
    double m2 = n == 1 ? 0.0 : (motion < s->last_motion ? motion :
        s->last_motion);

    finish (s, m2, out);
    *done = 1;
  }
  s->frame = next;
  s->last_motion = motion;
  s->pending = 1;
  s->n_pushed = n + 1;
  return SHARPNESS_OK;
}

int
compare_vmaf_stream_flush (CompareVmafStream * s, CompareVmafFrame * out)
{
  if (!s->pending)
    return 0;
  finish (s, s->n_pushed == 1 ? 0.0 : s->last_motion, out);
  return 1;
}

void
compare_vmaf_stream_reset (CompareVmafStream * s)
{
  s->pending = 0;
  s->n_pushed = 0;
}
