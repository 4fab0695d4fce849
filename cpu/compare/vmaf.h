/* VMAF on the CPU, exactly as libvmaf 3.0.0 computes it: the integer
 * (fixed-point) feature extractors VIF, ADM and motion, and the SVM
 * models (vmaf_v0.6.1, vmaf_v0.6.1neg, vmaf_4k_v0.6.1) read from their
 * JSON files.  Plain C, no GStreamer, no CUDA.
 *
 * An independent implementation checked against libvmaf's `vmaf` tool on
 * the golden set of tests/vmaf (per-frame features and scores equal to the
 * 6 decimals libvmaf prints).  Its fixed-point definitions follow
 * Netflix's libvmaf (BSD-2-Clause-Patent, Copyright 2016-2020 Netflix,
 * Inc.): src/feature/integer_vif.c, integer_adm.c, integer_motion.c,
 * src/predict.c and svm.cpp.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef COMPARE_VMAF_H
#define COMPARE_VMAF_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "sharpness-status.h"

#ifdef __cplusplus
extern "C" {
#endif

#define COMPARE_VMAF_SCALES 4

/* Default and largest enhancement-gain limit of VIF and ADM (libvmaf's
 * vif_enhn_gain_limit / adm_enhn_gain_limit); the "neg" model sets 1.0. */
#define COMPARE_VMAF_EGL_DEFAULT 100.0

/* One luma plane: depth 8 (one byte a sample) or 9..16 (16-bit
 * little-endian samples); stride in bytes. */
typedef struct
{
  const void *data;
  size_t stride;
  int width, height, depth;
} CompareVmafPlane;

/* The smallest plane whose four VIF scales and four ADM levels keep
 * their filters within one mirror (libvmaf reads outside smaller ones). */
#define COMPARE_VMAF_MIN_SIZE 64

/* Scratch of the extractors: grows to the largest frame seen, then no
 * allocation. */
typedef struct CompareVmafScratch CompareVmafScratch;
CompareVmafScratch *compare_vmaf_scratch_new (void);
void compare_vmaf_scratch_free (CompareVmafScratch * scratch);

/* --- The elementary features (vmaf-vif.c, vmaf-adm.c, vmaf-motion.c) --- */

/* integer_vif_scale0..3 (libvmaf's VMAF_integer_feature_vif_scaleN_score):
 * num / den of each scale in float, as libvmaf writes them. */
SharpnessStatus compare_vmaf_vif (CompareVmafScratch * scratch,
    const CompareVmafPlane * ref, const CompareVmafPlane * dist,
    double enhn_gain_limit, double scale[COMPARE_VMAF_SCALES]);

/* integer_adm2 and integer_adm_scale0..3 (viewing distance 3 heights of a
 * 1080-line display, libvmaf's defaults). */
SharpnessStatus compare_vmaf_adm (CompareVmafScratch * scratch,
    const CompareVmafPlane * ref, const CompareVmafPlane * dist,
    double enhn_gain_limit, double *adm2,
    double scale[COMPARE_VMAF_SCALES]);

/* Motion: the reference's 5-tap blur (uint16, width x height, packed) and
 * the mean absolute difference of two blurs, libvmaf's integer_motion. */
SharpnessStatus compare_vmaf_motion_blur (CompareVmafScratch * scratch,
    const CompareVmafPlane * ref, uint16_t * blur);
double compare_vmaf_motion_sad (const uint16_t * a, const uint16_t * b,
    int width, int height);

/* --- Models (vmaf-model.c) ---------------------------------------------- */

/* The features a model reads, in libvmaf's names. */
typedef enum
{
  COMPARE_VMAF_FEATURE_ADM2,
  COMPARE_VMAF_FEATURE_MOTION2,
  COMPARE_VMAF_FEATURE_VIF_SCALE0,
  COMPARE_VMAF_FEATURE_VIF_SCALE1,
  COMPARE_VMAF_FEATURE_VIF_SCALE2,
  COMPARE_VMAF_FEATURE_VIF_SCALE3,
  COMPARE_VMAF_N_FEATURES
} CompareVmafFeature;

/* libvmaf's model feature names ("VMAF_integer_feature_adm2_score"). */
extern const char *const
    compare_vmaf_feature_model_name[COMPARE_VMAF_N_FEATURES];

typedef struct CompareVmafModel CompareVmafModel;

/* libvmaf's model flags (the `vmaf` tool's disable_clip and
 * enable_transform model options; the phone model is vmaf_v0.6.1 with
 * its transform enabled). */
typedef enum
{
  COMPARE_VMAF_MODEL_DISABLE_CLIP = 1 << 0,
  COMPARE_VMAF_MODEL_ENABLE_TRANSFORM = 1 << 1
} CompareVmafModelFlags;

/* Reads a libvmaf model JSON (the format of libvmaf's model/ folder:
 * model_dict with a LIBSVMNUSVR model, linear_rescale normalisation,
 * score_transform, score_clip, feature_opts_dicts).  NULL on error, with
 * a message naming what is wrong in @error (size @error_size). */
CompareVmafModel *compare_vmaf_model_load_file (const char *path,
    unsigned flags, char *error, size_t error_size);
CompareVmafModel *compare_vmaf_model_load_json (const char *json,
    size_t length, unsigned flags, char *error, size_t error_size);
void compare_vmaf_model_free (CompareVmafModel * model);

/* libvmaf's models built into the library (data/vmaf), by name. */
#define COMPARE_VMAF_BUILTIN_NAMES \
  "vmaf_v0.6.1, vmaf_v0.6.1neg, vmaf_4k_v0.6.1"
CompareVmafModel *compare_vmaf_model_load_builtin (const char *name,
    unsigned flags, char *error, size_t error_size);

/* A model as a user names it (cudacompare's vmaf-model, the monitor's
 * configuration): a name without a folder that does not end in ".json"
 * is a built-in model's, anything else a file's path.  One rule for
 * every place that takes a model, so that a name means the same model
 * in each. */
int compare_vmaf_model_name_is_builtin (const char *model);
CompareVmafModel *compare_vmaf_model_load_named (const char *model,
    unsigned flags, char *error, size_t error_size);

/* The enhancement-gain limits the model asks of VIF and ADM. */
double compare_vmaf_model_vif_egl (const CompareVmafModel * model);
double compare_vmaf_model_adm_egl (const CompareVmafModel * model);

/* The score of one frame from its features (indexed by
 * CompareVmafFeature, computed with the model's gain limits): normalised,
 * SVM, denormalised, transformed and clipped as libvmaf's predict.c. */
double compare_vmaf_model_predict (const CompareVmafModel * model,
    const double features[COMPARE_VMAF_N_FEATURES]);


/* --- Per frame, as libvmaf's `vmaf` tool (vmaf-stream.c) ---------------- */

/* The features a frame record holds: one descriptor per feature, the
 * extractor that computes it and the name libvmaf prints (a gain limit
 * other than 100 adds "_egl_<limit>", as libvmaf).
 *   X (ID, extractor, printed name) */
#define COMPARE_VMAF_OUTPUT_TABLE(X) \
  X (ADM2, "adm", "integer_adm2") \
  X (ADM_SCALE0, "adm", "integer_adm_scale0") \
  X (ADM_SCALE1, "adm", "integer_adm_scale1") \
  X (ADM_SCALE2, "adm", "integer_adm_scale2") \
  X (ADM_SCALE3, "adm", "integer_adm_scale3") \
  X (MOTION2, "motion", "integer_motion2") \
  X (MOTION, "motion", "integer_motion") \
  X (VIF_SCALE0, "vif", "integer_vif_scale0") \
  X (VIF_SCALE1, "vif", "integer_vif_scale1") \
  X (VIF_SCALE2, "vif", "integer_vif_scale2") \
  X (VIF_SCALE3, "vif", "integer_vif_scale3")

#define COMPARE_VMAF_OUTPUT_ID_ROW(ID, ex, name) COMPARE_VMAF_OUT_##ID,
typedef enum
{
  COMPARE_VMAF_OUTPUT_TABLE (COMPARE_VMAF_OUTPUT_ID_ROW)
  COMPARE_VMAF_N_OUTPUTS
} CompareVmafOutput;
#undef COMPARE_VMAF_OUTPUT_ID_ROW

typedef struct
{
  const char *extractor;        /* "vif", "adm", "motion" */
  const char *name;             /* libvmaf's printed name */
  int gain_limited;             /* takes the model's gain limit */
} CompareVmafOutputInfo;

extern const CompareVmafOutputInfo
    compare_vmaf_output_info[COMPARE_VMAF_N_OUTPUTS];

#define COMPARE_VMAF_MAX_MODELS 8

/* One frame's values: the features of each gain-limit set its models ask
 * for (set[m] is model m's), and each model's score. */
typedef struct
{
  uint64_t index;
  int n_sets;
  double vif_egl[COMPARE_VMAF_MAX_MODELS], adm_egl[COMPARE_VMAF_MAX_MODELS];
  double value[COMPARE_VMAF_MAX_MODELS][COMPARE_VMAF_N_OUTPUTS];
  int n_models;
  int set[COMPARE_VMAF_MAX_MODELS];
  double score[COMPARE_VMAF_MAX_MODELS];
} CompareVmafFrame;

/* A sequence of frame pairs scored by up to COMPARE_VMAF_MAX_MODELS
 * models (not owned; they outlive the stream).  Motion2 of a frame needs
 * the next frame's motion, so each push completes the previous frame. */
typedef struct CompareVmafStream CompareVmafStream;
CompareVmafStream *compare_vmaf_stream_new (
    const CompareVmafModel * const *models, int n_models);
void compare_vmaf_stream_free (CompareVmafStream * stream);

/* Another home of the extractors: computes a frame's features from
 * planes it reads (cuda/compare's, from CUDA memory), with the same
 * integer sums and the same host steps after them as the CPU's, so the
 * same values to the bit.  @first: the first frame of a sequence (its
 * motion 0; the reference's blur kept for the next frame).  Fills
 * @frame->value[k][o] of every gain-limit set k < @frame->n_sets (its
 * limits @frame->vif_egl[k], adm_egl[k]) and every output but MOTION2.
 * A failure leaves the sequence's state as it was. */
typedef struct
{
  SharpnessStatus (*extract) (void *self, const CompareVmafPlane * ref,
      const CompareVmafPlane * dist, int first, CompareVmafFrame * frame);
  void *self;
} CompareVmafExtractor;

/* Scores the next pair (the luma planes).  Returns SHARPNESS_OK and sets
 * *@done to 1 with the previous frame in @out when there was one, 0 on
 * the first frame.  All frames of a stream have the reference's size and
 * depth of the first. */
SharpnessStatus compare_vmaf_stream_push (CompareVmafStream * stream,
    const CompareVmafPlane * ref, const CompareVmafPlane * dist,
    CompareVmafFrame * out, int *done);

/* As compare_vmaf_stream_push, the features computed by @extractor
 * (NULL: the CPU's).  Every frame of a sequence has the same extractor:
 * another one is refused (SHARPNESS_ERROR_INVALID) until a reset. */
SharpnessStatus compare_vmaf_stream_push_with (CompareVmafStream * stream,
    const CompareVmafExtractor * extractor, const CompareVmafPlane * ref,
    const CompareVmafPlane * dist, CompareVmafFrame * out, int *done);

/* The last frame, complete (motion2 = its motion): 1, or 0 when no frame
 * is pending. */
int compare_vmaf_stream_flush (CompareVmafStream * stream,
    CompareVmafFrame * out);

/* Starts a new sequence (as a new libvmaf context): the next push is a
 * first frame again, of any size.  A pending frame is dropped: flush it
 * first. */
void compare_vmaf_stream_reset (CompareVmafStream * stream);

/* --- Pooling over a sequence (vmaf-pool.c) ------------------------------ */

/* libvmaf's pooling methods, in the order its outputs list them. */
typedef enum
{
  COMPARE_VMAF_POOL_MIN,
  COMPARE_VMAF_POOL_MAX,
  COMPARE_VMAF_POOL_MEAN,
  COMPARE_VMAF_POOL_HARMONIC_MEAN,
  COMPARE_VMAF_N_POOLS
} CompareVmafPoolMethod;

typedef struct
{
  uint64_t n;
  double min, max, sum, i_sum;
} CompareVmafPool;

void compare_vmaf_pool_init (CompareVmafPool * pool);
/* Frames in order (the sums are libvmaf's, in its order). */
void compare_vmaf_pool_add (CompareVmafPool * pool, double score);
/* min, max, mean, harmonic mean (n / sum (1 / (s + 1)) - 1); NaN mean and
 * harmonic mean when no frame was added. */
void compare_vmaf_pool_result (const CompareVmafPool * pool,
    double pooled[COMPARE_VMAF_N_POOLS]);

/* The @p-th percentile (0..100) of @n values sorted ascending, linearly
 * interpolated between the closest ranks (numpy's default: rank
 * p / 100 (n - 1)); NaN when @n is 0. */
double compare_vmaf_percentile (const double *sorted, uint64_t n, double p);

/* --- Logs as libvmaf's `vmaf` tool writes them (vmaf-output.c) ---------- */

/* The libvmaf version whose log format is written (its "version"). */
#define COMPARE_VMAF_LIBVMAF_VERSION "3.0.0"

/* One column of a log: a feature of a gain-limit set, or a model's
 * score, with the name libvmaf prints. */
typedef struct
{
  char name[64];
  int model;                    /* >= 0: that model's score */
  int set, output;              /* else: frame value[set][output] */
} CompareVmafColumn;

/* The columns of a stream's frames in libvmaf's order: each set's
 * features (motion once), then the models' scores under @model_names.
 * Their number, or -1 when more than @max. */
int compare_vmaf_columns (const CompareVmafFrame * layout,
    const char *const *model_names, CompareVmafColumn * cols, int max);
double compare_vmaf_column_value (const CompareVmafColumn * col,
    const CompareVmafFrame * frame);

typedef enum
{
  COMPARE_VMAF_LOG_JSON,        /* vmaf --json */
  COMPARE_VMAF_LOG_XML,         /* vmaf --xml */
  COMPARE_VMAF_LOG_CSV          /* vmaf --csv */
} CompareVmafLogFormat;

/* A finished sequence: each frame's frameNum and its values, one row of
 * @n_columns per frame (compare_vmaf_log_row), its columns and each
 * column's pooled values (CompareVmafPoolMethod order).  Rows, not
 * CompareVmafFrame records: a stream keeps 8 bytes a column a frame. */
typedef struct
{
  uint64_t n_frames;
  const uint64_t *frame_num;
  const double *values;         /* n_frames x n_columns */
  const CompareVmafColumn *columns;
  int n_columns;
  const double (*pooled)[COMPARE_VMAF_N_POOLS];
  int width, height;            /* the XML's params */
  double fps;                   /* processing speed, as libvmaf's "fps" */
} CompareVmafLog;

/* @frame's values in the order of @cols: a row of a log. */
void compare_vmaf_log_row (const CompareVmafColumn * cols, int n_cols,
    const CompareVmafFrame * frame, double *row);

/* Writes @log as libvmaf 3.0.0's `vmaf` writes that format. */
SharpnessStatus compare_vmaf_write_log (FILE * f,
    CompareVmafLogFormat format, const CompareVmafLog * log);

#ifdef __cplusplus
}
#endif
#endif /* COMPARE_VMAF_H */
