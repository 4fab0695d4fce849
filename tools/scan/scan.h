/* sharpness-scan: what the scanner, its outputs and its report share.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SCAN_H
#define SCAN_H

#include <gst/gst.h>
#include <gst/video/video.h>

#include "sharpness-blur-segments.h"
#include "sharpness-metric.h"

G_BEGIN_DECLS

#define SCAN_MAX_METRICS SHARPNESS_METRIC_COUNT

/* gst_clear_sample() is 1.24. */
#define scan_clear_sample(sp) G_STMT_START { \
  if (*(sp)) { gst_sample_unref (*(sp)); *(sp) = NULL; } } G_STMT_END

/* The command line, after parsing. */
typedef struct
{
  SharpnessMetric metrics[SCAN_MAX_METRICS];
  guint n_metrics;              /* metrics[0] decides blurry */
  gdouble threshold, relative_threshold;
  guint window;
  gdouble min_duration;         /* s */
  guint max_gap;
  gboolean cpu;                 /* --cpu */
  gboolean gpu_decode;          /* GPU decoders preferred (not --cpu, and
                                 * the CUDA backend is usable) */
  guint jobs;
  gboolean quiet;
} ScanSettings;

/* One frame: scores[] holds n_metrics doubles (NaN: unscored). */
typedef struct
{
  guint64 pts;                  /* stream time, ns, or GST_CLOCK_TIME_NONE */
  gboolean blurry;
} ScanFrame;

typedef struct
{
  SharpnessSegment seg;
  GstSample *worst;             /* the worst frame, system memory */
  gchar *jpeg_base64;           /* its thumbnail, or NULL */
  gchar *crop_base64;           /* a 1:1 crop of its centre, or NULL */
} ScanSegment;

typedef struct
{
  guint index;                  /* order on the command line */
  gchar *input, *uri;
  const ScanSettings *settings;

  /* Stream */
  gint width, height, fps_n, fps_d;
  gchar *codec, *decoder, *format;
  gboolean cuda_memory;
  guint64 duration;             /* ns, from the container, or NONE */

  /* Results: frames and n_metrics scores per frame. */
  GArray *frames;               /* ScanFrame */
  GArray *scores;               /* gdouble */
  GArray *segments;             /* ScanSegment */
  gdouble elapsed;              /* s, from start to EOS */
  gchar *error;                 /* NULL when the scan completed */
  gchar *warning;               /* first warning of the pipeline, if any */
} ScanFile;

guint64 scan_file_frames (const ScanFile * f);
gdouble scan_file_score (const ScanFile * f, guint64 frame, guint metric);
/* Seconds covered by the file's frames (last end - first pts), else 0. */
gdouble scan_file_seconds (const ScanFile * f);
gdouble scan_file_blurry_seconds (const ScanFile * f);

/* Outputs (scan-output.c).  Each writes the file's part; called in input
 * order. */
void scan_csv_header (GString * out, const ScanSettings * s);
void scan_csv_file (GString * out, const ScanFile * f);
void scan_json_begin (GString * out);
void scan_json_file (GString * out, const ScanFile * f, gboolean first);
void scan_json_end (GString * out);
gchar *scan_summary_line (const ScanFile * f);

/* The HTML report (scan-report.c). */
void scan_report_begin (GString * out, const ScanSettings * s);
void scan_report_file (GString * out, const ScanFile * f);
void scan_report_end (GString * out);

/* Thumbnails (scan-thumbs.c). */
/* A system-memory copy of @buf (a CUDA buffer is downloaded by the map),
 * as a sample of @caps (system-memory caps of @info); NULL on failure. */
GstSample *scan_thumb_copy_frame (const GstVideoInfo * info, GstCaps * caps,
    GstBuffer * buf);
/* Encodes the worst frame of each of @f's segments (thumbnail and centre
 * crop) and drops the frame. */
void scan_thumbs_make (ScanFile * f);

/* "1:02:03.456" style, for people. */
gchar *scan_format_time (gdouble seconds);

G_END_DECLS
#endif /* SCAN_H */
