/* What cudacompare reports: the values of a pair (named as the `compare`
 * message's fields), running statistics, the `compare` and
 * `compare-summary` messages, and the stats file (FFmpeg's psnr and ssim
 * stats_file lines, CSV, JSON).  docs/reference/cudacompare.md lists the fields.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef COMPARE_REPORT_H
#define COMPARE_REPORT_H

#include <stdio.h>

#include <gst/gst.h>

#include "compare.h"
#include "compare-frame.h"
#include "compare-message.h"
#include "compare-meta.h"
#include "compare-metric.h"
#include "sharpness-times.h"

G_BEGIN_DECLS

/* @psnr, @ssim: display order (compare_layout_*_to_display), NULL when
 * not computed; likewise @ms_ssim. */
void compare_values_init (CompareValues * values, const CompareLayout * layout,
    const ComparePsnr * psnr, const CompareSsim * ssim,
    const CompareMsSsim * ms_ssim);

/* Per-name statistics over pairs. */
typedef struct
{
  guint64 n;                    /* pairs with the value */
  guint64 finite;               /* of which finite: the mean's count */
  gdouble sum, min, max;
  guint64 min_frame, max_frame;
} CompareFieldStats;

typedef struct
{
  guint64 pairs;
  gint n;
  SharpnessField field[COMPARE_MAX_VALUES];
  CompareFieldStats f[COMPARE_MAX_VALUES];
} CompareStats;

void compare_stats_reset (CompareStats * stats);
void compare_stats_add (CompareStats * stats, const CompareValues * values,
    guint64 frame);
/* The values alone, not counted as a pair (a frame's VMAF, completed a
 * frame after its pair). */
void compare_stats_add_values (CompareStats * stats,
    const CompareValues * values, guint64 frame);
/* Means of the finite values (NaN when none) as a CompareValues. */
void compare_stats_means (const CompareStats * stats, CompareValues * means);

/* Counts of the summary. */
typedef struct
{
  guint64 ref_frames, dist_frames;      /* received */
  guint64 pairs;                /* paired and scored */
  guint64 unpaired_ref, unpaired_dist;  /* without a partner */
  guint64 unscored;             /* paired, but not scored (mismatch, error) */
} CompareCounts;

/* `compare-summary` over @total; @psnr (may be NULL) adds FFmpeg's
 * end-of-stream PSNR (of the mean MSE) for @layout_pair's layout, and
 * FFmpeg's end-of-stream SSIM (the means, and the dB of the mean) when
 * SSIM was computed. */
GstMessage *compare_summary_new (GstObject * src, const CompareCounts * counts,
    const CompareStats * total, const ComparePsnrSummary * psnr,
    const CompareLayout * layout, const ComparePair * layout_pair);

typedef enum
{
  COMPARE_STATS_FFMPEG_PSNR,
  COMPARE_STATS_FFMPEG_SSIM,
  COMPARE_STATS_CSV,
  COMPARE_STATS_JSON,
  /* libvmaf's `vmaf --json / --xml / --csv` logs, written whole at the
   * end (compare-vmaf.h): nothing per pair. */
  COMPARE_STATS_VMAF_JSON,
  COMPARE_STATS_VMAF_XML,
  COMPARE_STATS_VMAF_CSV
} CompareStatsFormat;

#define COMPARE_STATS_FORMAT_IS_VMAF(f) ((f) >= COMPARE_STATS_VMAF_JSON)

typedef struct
{
  FILE *f;
  CompareStatsFormat format;
  gint n_columns;               /* CSV: the header's value columns */
  SharpnessField columns[COMPARE_MAX_VALUES];
  guint64 lines;
} CompareStatsFile;

gboolean compare_stats_file_open (CompareStatsFile * file, const gchar * path,
    CompareStatsFormat format, GError ** error);
/* One scored pair: @n is FFmpeg's 1-based frame number of the pair; CSV
 * and JSON give @pts in seconds (files meant for people and scripts).
 * @psnr / @ssim in display order, NULL when not computed (the FFmpeg
 * formats then write nothing). */
void compare_stats_file_write (CompareStatsFile * file, guint64 n,
    guint64 frame, GstClockTime pts, const CompareLayout * layout,
    const ComparePair * layout_pair, const ComparePsnr * psnr,
    const CompareSsim * ssim, const CompareValues * values);
/* Closes (JSON: ends the array); FALSE when a write failed. */
gboolean compare_stats_file_close (CompareStatsFile * file);

/* What cudacompare reports over a stream, from start to stop (the
 * streaming thread's): the totals and FFmpeg's PSNR summary of
 * `compare-summary`, the interval of the `compare` messages with the
 * frames left unpaired in it, and the stats file (the element opens and
 * closes it). */
typedef struct
{
  CompareStats total, interval_stats;
  SharpnessInterval interval;
  guint64 unpaired_since_message;
  ComparePsnrSummary psnr_summary;
  CompareStatsFile stats_file;
} CompareReport;

/* Empties the statistics, the interval and the PSNR summary. */
void compare_report_reset (CompareReport * report);
/* Starts a new interval: its statistics and its unpaired count. */
void compare_report_reset_interval (CompareReport * report);

/* The values of a compared pair, written once: @r holds the metrics of
 * @computed in plane order (turned into display order here), @dist is the
 * distorted frame (writable), @n the pair's 1-based number and @frame the
 * frame's.  Adds the meta, the statistics and the stats file's line, and
 * returns the `compare` message due, if any: every pair with @interval 0,
 * else the means once @interval (ns) is covered; none when @times is NULL
 * (post-messages off). */
GstMessage *compare_report_pair (CompareReport * report, GstObject * src,
    const CompareLayout * layout, const ComparePair * layout_pair,
    GstBuffer * dist, guint64 n, guint64 frame, CompareResult * r,
    guint computed, const SharpnessTimes * times, guint64 interval);

G_END_DECLS
#endif /* COMPARE_REPORT_H */
