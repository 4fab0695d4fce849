/* The names of every structure the elements write (messages, metas, ROI
 * params) and of their fields, in one table, looked up once.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * GStreamer before 1.26 turns a structure or field name given as a string
 * into a GQuark under GLib's one global lock, on every set and get; a
 * frame's message and meta did that dozens of times, and with many streams
 * in one process that lock became the bottleneck (docs/architecture.md).
 * Here the quarks are made once; from 1.26, whose structures keep field
 * names without the lock, the static-string calls are used.
 */
#ifndef SHARPNESS_FIELDS_H
#define SHARPNESS_FIELDS_H

#include <gst/gst.h>

G_BEGIN_DECLS

#define SHARPNESS_FIELD_TABLE(X) \
  /* Structure names. */ \
  X (MESSAGE, "sharpness") \
  X (SUMMARY, "sharpness-summary") \
  X (BLURRY_START, "sharpness-blurry-start") \
  X (BLURRY_END, "sharpness-blurry-end") \
  X (BLACK_START, "sharpness-black-start") \
  X (BLACK_END, "sharpness-black-end") \
  X (FREEZE_START, "sharpness-freeze-start") \
  X (FREEZE_END, "sharpness-freeze-end") \
  X (ROI_PARAM, "sharpness") \
  X (COMPARE, "compare") \
  X (COMPARE_SUMMARY, "compare-summary") \
  X (COMPARE_VMAF, "compare-vmaf") \
  /* Times (sharpness-times.h). */ \
  X (TIMESTAMP, "timestamp") \
  X (STREAM_TIME, "stream-time") \
  X (RUNNING_TIME, "running-time") \
  X (DURATION, "duration") \
  /* A frame's result: message, meta, ROI params. */ \
  X (FRAME, "frame") \
  X (METRIC, "metric") \
  X (SCORE, "score") \
  X (BLURRY, "blurry") \
  X (UNSCORED, "unscored") \
  X (TILES_COLS, "tiles-cols") \
  X (TILES_ROWS, "tiles-rows") \
  X (TILE_SCORES, "tile-scores") \
  X (ROI_IDS, "roi-ids") \
  X (ROI_TYPES, "roi-types") \
  X (ROI_SCORES, "roi-scores") \
  X (CONTENT_STATE, "content-state") \
  X (BLACK_RATIO, "black-ratio") \
  X (FREEZE_MAFD, "freeze-mafd") \
  X (STRUCTURE, "structure") \
  X (CPBD, "cpbd") \
  X (FOCUS, "focus") \
  /* Statistics over frames: interval messages, summaries, segments. */ \
  X (FRAMES, "frames") \
  X (MEAN, "mean") \
  X (MIN, "min") \
  X (MAX, "max") \
  X (BLURRY_FRAMES, "blurry-frames") \
  X (BLACK_FRAMES, "black-frames") \
  X (FROZEN_FRAMES, "frozen-frames") \
  X (FLAT_FRAMES, "flat-frames") \
  X (BLURRY_SEGMENTS, "blurry-segments") \
  X (BLACK_SEGMENTS, "black-segments") \
  X (FREEZE_SEGMENTS, "freeze-segments") \
  /* Blurry segments. */ \
  X (START, "start") \
  X (END, "end") \
  X (START_FRAME, "start-frame") \
  X (END_FRAME, "end-frame") \
  X (WORST_FRAME, "worst-frame") \
  X (WORST_SCORE, "worst-score") \
  /* The JPEG of an event's stretch (cudasharpness' event-thumbnails). */ \
  X (THUMBNAIL, "thumbnail") \
  /* cudacompare (its values are named by compare-meta.h). */ \
  X (UNPAIRED, "unpaired") \
  X (PAIRS, "pairs") \
  X (REF_FRAMES, "ref-frames") \
  X (DIST_FRAMES, "dist-frames") \
  X (UNPAIRED_REF, "unpaired-ref") \
  X (UNPAIRED_DIST, "unpaired-dist") \
  /* cudacompare's values of a pair: <value>-<plane>, the planes named as
   * FFmpeg names them (y u v, or r g b), in this order. */ \
  X (PSNR_Y, "psnr-y") \
  X (PSNR_U, "psnr-u") \
  X (PSNR_V, "psnr-v") \
  X (PSNR_R, "psnr-r") \
  X (PSNR_G, "psnr-g") \
  X (PSNR_B, "psnr-b") \
  X (PSNR_AVG, "psnr-avg") \
  X (MSE_Y, "mse-y") \
  X (MSE_U, "mse-u") \
  X (MSE_V, "mse-v") \
  X (MSE_R, "mse-r") \
  X (MSE_G, "mse-g") \
  X (MSE_B, "mse-b") \
  X (MSE_AVG, "mse-avg") \
  X (SSIM_Y, "ssim-y") \
  X (SSIM_U, "ssim-u") \
  X (SSIM_V, "ssim-v") \
  X (SSIM_R, "ssim-r") \
  X (SSIM_G, "ssim-g") \
  X (SSIM_B, "ssim-b") \
  X (SSIM_ALL, "ssim-all") \
  X (SSIM_DB, "ssim-db") \
  X (MS_SSIM, "ms-ssim") \
  /* cudacompare's VMAF of a frame: the score, the frame it is of, and
   * the features as libvmaf prints them, in vmaf.h's output order. */ \
  X (VMAF, "vmaf") \
  X (VMAF_FRAME, "vmaf-frame") \
  X (INTEGER_ADM2, "integer_adm2") \
  X (INTEGER_ADM_SCALE0, "integer_adm_scale0") \
  X (INTEGER_ADM_SCALE1, "integer_adm_scale1") \
  X (INTEGER_ADM_SCALE2, "integer_adm_scale2") \
  X (INTEGER_ADM_SCALE3, "integer_adm_scale3") \
  X (INTEGER_MOTION2, "integer_motion2") \
  X (INTEGER_MOTION, "integer_motion") \
  X (INTEGER_VIF_SCALE0, "integer_vif_scale0") \
  X (INTEGER_VIF_SCALE1, "integer_vif_scale1") \
  X (INTEGER_VIF_SCALE2, "integer_vif_scale2") \
  X (INTEGER_VIF_SCALE3, "integer_vif_scale3")

typedef enum
{
#define SHARPNESS_FIELD_ENUM(id, name) SHARPNESS_FIELD_##id,
  SHARPNESS_FIELD_TABLE (SHARPNESS_FIELD_ENUM)
#undef SHARPNESS_FIELD_ENUM
  SHARPNESS_N_FIELDS
} SharpnessField;

const gchar *sharpness_field_name (SharpnessField field);

/* An empty structure named @name. */
GstStructure *sharpness_structure_new (SharpnessField name);
/* Sets @field of @s to @value, which is moved in (left unset). */
void sharpness_structure_take (GstStructure * s, SharpnessField field,
    GValue * value);
void sharpness_structure_set_double (GstStructure * s, SharpnessField field,
    gdouble value);
void sharpness_structure_set_uint64 (GstStructure * s, SharpnessField field,
    guint64 value);
void sharpness_structure_set_uint (GstStructure * s, SharpnessField field,
    guint value);
void sharpness_structure_set_boolean (GstStructure * s, SharpnessField field,
    gboolean value);
/* @value is static or outlives @s (a metric nick). */
void sharpness_structure_set_static_string (GstStructure * s,
    SharpnessField field, const gchar * value);
/* The value of @field in @s, or NULL. */
const GValue *sharpness_structure_get (const GstStructure * s,
    SharpnessField field);
/* Typed reads: FALSE when @field is missing or of another type. */
gboolean sharpness_structure_get_double (const GstStructure * s,
    SharpnessField field, gdouble * value);
gboolean sharpness_structure_get_boolean (const GstStructure * s,
    SharpnessField field, gboolean * value);
gboolean sharpness_structure_get_uint (const GstStructure * s,
    SharpnessField field, guint * value);
/* The string of @field, or NULL. */
const gchar *sharpness_structure_get_string (const GstStructure * s,
    SharpnessField field);
/* TRUE when @s is named @name. */
gboolean sharpness_structure_has_name (const GstStructure * s,
    SharpnessField name);
/* Removes @field from @s when it is there. */
void sharpness_structure_remove (GstStructure * s, SharpnessField field);

G_END_DECLS
#endif /* SHARPNESS_FIELDS_H */
