/* Sharpness metrics: the one table every part of the project is driven by.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * SHARPNESS_METRIC_TABLE is an X-macro: the enum below, the GEnum of the
 * element's `metric` property, the generated table in docs/reference/metrics.md, the
 * test loops and each backend's table of metric descriptors all expand it
 * (docs/architecture.md: adding a metric).
 *
 * Columns: X (ID, sym, nick, name, direction, kind, cpu, range, description)
 *   ID          enum suffix: SHARPNESS_METRIC_<ID>
 *   sym         C identifier of the metric's descriptors: each backend
 *               defines sharpness_<backend>_metric_<sym> in the metric's
 *               own file, and its table is generated from these rows
 *   nick        GEnum nick, message/meta `metric` string, CLI name
 *   name        human-readable name
 *   direction   SHARPNESS_HIGHER_IS_SHARPER or SHARPNESS_LOWER_IS_SHARPER
 *   kind        SHARPNESS_KIND_SUMS: exact integer sums reduced by
 *               sharpness_score_from_sums() (bit-identical across backends);
 *               SHARPNESS_KIND_FLOAT: floating-point pipeline (backends agree
 *               to a documented tolerance)
 *   cpu         SHARPNESS_CPU_LIVE: the CPU backend keeps up with a live
 *               1080p stream; SHARPNESS_CPU_HEAVY: it takes seconds per
 *               frame (docs/performance/performance-cpu.md), so a fallback from the GPU
 *               leaves such frames unscored rather than late
 *   range       value range, for the docs
 *   description one sentence, for gst-inspect-1.0 and the docs
 */
#ifndef SHARPNESS_METRIC_H
#define SHARPNESS_METRIC_H

#ifdef __cplusplus
extern "C" {
#endif

#define SHARPNESS_METRIC_TABLE(X) \
  X (VARIANCE, variance, "variance", "Gray-level variance", \
     SHARPNESS_HIGHER_IS_SHARPER, SHARPNESS_KIND_SUMS, SHARPNESS_CPU_LIVE, \
     "[0, 16256.25]", \
     "Population variance of the gray levels") \
  X (ROBERTS, roberts, "roberts", "Roberts cross", \
     SHARPNESS_HIGHER_IS_SHARPER, SHARPNESS_KIND_SUMS, SHARPNESS_CPU_LIVE, \
     "[0, 510)", \
     "Sum of the absolute Roberts cross differences, per pixel") \
  X (TENENGRAD, tenengrad, "tenengrad", "Tenengrad (Sobel energy)", \
     SHARPNESS_HIGHER_IS_SHARPER, SHARPNESS_KIND_SUMS, SHARPNESS_CPU_LIVE, \
     "[0, 2080800)", \
     "Sum of the squared 3x3 Sobel gradient magnitudes, per pixel") \
  X (LAPLACIAN, laplacian, "laplacian", "Laplacian", \
     SHARPNESS_HIGHER_IS_SHARPER, SHARPNESS_KIND_SUMS, SHARPNESS_CPU_LIVE, \
     "[0, 1020)", \
     "Sum of the absolute horizontal and vertical second differences, per pixel") \
  X (SMD, smd, "smd", "Gray difference (SMD)", \
     SHARPNESS_HIGHER_IS_SHARPER, SHARPNESS_KIND_SUMS, SHARPNESS_CPU_LIVE, \
     "[0, 510)", \
     "Sum of the absolute right and down neighbour differences, per pixel") \
  X (SMD2, smd2, "smd2", "Gray-difference product (SMD2)", \
     SHARPNESS_HIGHER_IS_SHARPER, SHARPNESS_KIND_SUMS, SHARPNESS_CPU_LIVE, \
     "[0, 65025)", \
     "Sum of the products of the absolute right and down differences, per pixel") \
  X (MAXMIN, maxmin, "maxmin", "Max-min gradient", \
     SHARPNESS_HIGHER_IS_SHARPER, SHARPNESS_KIND_SUMS, SHARPNESS_CPU_LIVE, \
     "[0, 255)", \
     "Sum of the 3x3 neighbourhood ranges (max - min), per pixel") \
  X (ENTROPY, entropy, "entropy", "Gray-level entropy", \
     SHARPNESS_HIGHER_IS_SHARPER, SHARPNESS_KIND_SUMS, SHARPNESS_CPU_LIVE, \
     "[0, 8]", \
     "Shannon entropy of the 256-bin gray-level histogram, in bits") \
  X (LPC_SI, lpc_si, "lpc-si", "Local phase coherence sharpness index (LPC-SI)", \
     SHARPNESS_HIGHER_IS_SHARPER, SHARPNESS_KIND_FLOAT, SHARPNESS_CPU_HEAVY, \
     "[0, 1)", \
     "Hassen-Wang-Salama local phase coherence of a log-Gabor bank, pooled over the sharpest pixels") \
  X (CWTVNRS, cwtvnrs, "cwtvnrs", "Phase coherence and total variation (CWTVNRS)", \
     SHARPNESS_HIGHER_IS_SHARPER, SHARPNESS_KIND_FLOAT, SHARPNESS_CPU_HEAVY, \
     "[0, 1)", \
     "Dissimilarity of the LPC and total-variation maps of the frame and of a re-blurred copy") \
  X (BLIINDS2, bliinds2, "bliinds2", "BLIINDS-II predicted DMOS", \
     SHARPNESS_LOWER_IS_SHARPER, SHARPNESS_KIND_FLOAT, SHARPNESS_CPU_LIVE, \
     "[0, 99]", \
     "Saad-Bovik-Charrier DCT natural-scene-statistics quality, as predicted LIVE DMOS (higher = worse)") \
  X (BLUR_EFFECT, blur_effect, "blur-effect", "Blur effect (Crete-Roffet)", \
     SHARPNESS_LOWER_IS_SHARPER, SHARPNESS_KIND_SUMS, SHARPNESS_CPU_LIVE, \
     "[0, 1]", \
     "Share of the Sobel variation that an 11-pixel box re-blur leaves, on the worse axis (skimage.measure.blur_effect)")

#define SHARPNESS_METRIC_ENUM_ROW(ID, sym, nick, name, dir, kind, cpu, range, \
    desc) \
  SHARPNESS_METRIC_##ID,
typedef enum
{
  SHARPNESS_METRIC_TABLE (SHARPNESS_METRIC_ENUM_ROW)
  SHARPNESS_METRIC_COUNT
} SharpnessMetric;
#undef SHARPNESS_METRIC_ENUM_ROW

typedef enum
{
  SHARPNESS_HIGHER_IS_SHARPER = 1,
  SHARPNESS_LOWER_IS_SHARPER = -1
} SharpnessDirection;

typedef enum
{
  SHARPNESS_KIND_SUMS,
  SHARPNESS_KIND_FLOAT
} SharpnessKind;

typedef enum
{
  SHARPNESS_CPU_LIVE,
  SHARPNESS_CPU_HEAVY
} SharpnessCpuPace;

typedef struct
{
  SharpnessMetric metric;
  const char *nick;
  const char *name;
  SharpnessDirection direction;
  SharpnessKind kind;
  SharpnessCpuPace cpu;
  const char *range;
  const char *description;
} SharpnessMetricInfo;

/* Indexed by SharpnessMetric; SHARPNESS_METRIC_COUNT rows. */
extern const SharpnessMetricInfo sharpness_metric_info[SHARPNESS_METRIC_COUNT];

/* Row of @metric, or NULL when out of range. */
const SharpnessMetricInfo *sharpness_metric_get_info (int metric);

/* Metric whose nick is @nick, or -1. */
int sharpness_metric_from_nick (const char *nick);

/* TRUE when @a is a worse (blurrier) score than @b for @metric. */
int sharpness_metric_is_worse (SharpnessMetric metric, double a, double b);

#ifdef __cplusplus
}
#endif
#endif /* SHARPNESS_METRIC_H */
