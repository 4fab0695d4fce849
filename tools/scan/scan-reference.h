/* sharpness-scan --reference: each distorted file compared with one
 * reference through cudacompare metrics=vmaf, with a CSV, a JSON and a
 * report page per distorted file (docs/reference/sharpness-scan.md,
 * "Comparing encodes with their source").
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * scan-reference.c runs the comparisons (a pipeline per distorted file,
 * one after the other), scan-reference-output.c writes a file's outputs
 * from what it collected.
 */
#ifndef SCAN_REFERENCE_H
#define SCAN_REFERENCE_H

#include "compare-message.h"
#include "scan-setup.h"

G_BEGIN_DECLS

/* The columns of a frame: VMAF and libvmaf's features in the order its
 * logs print them, then what --compare-metrics asks for. */
#define SCAN_REF_MAX_COLUMNS 32

typedef struct
{
  guint64 frame;                /* the distorted frame's index */
  guint64 pts;                  /* its stream time, ns, or NONE */
} ScanRefFrame;

/* A frame the report shows: its index, and the reference's and the
 * distorted frame's thumbnails (base64 JPEG, NULL when not made). */
typedef struct
{
  guint64 frame;
  gchar *ref_jpeg, *dist_jpeg;
} ScanRefWorst;

typedef struct
{
  const gchar *reference, *distorted;
  gchar *model;                 /* the model's name or path, as the
                                 * element took it */
  SharpnessField columns[SCAN_REF_MAX_COLUMNS];
  guint n_columns;              /* columns[0] is SHARPNESS_FIELD_VMAF */
  GArray *frames;               /* ScanRefFrame, by frame index */
  GArray *values;               /* n_columns doubles a frame, NaN: none */
  guint64 ref_frames, dist_frames;      /* decoded on each side */
  gint width, height;
  GArray *worst;                /* ScanRefWorst, lowest VMAF first */
  GPtrArray *notes;             /* one line each, for people */
  gdouble elapsed;              /* s */
} ScanRefResult;

/* Runs --reference: returns the exit status (0, 2 when a comparison
 * failed, 128 + the signal that stopped it). */
gint scan_reference_run (const ScanCommandLine * cl);

/* The outputs (scan-reference-output.c). */
void scan_ref_csv (GString * out, const ScanRefResult * r);
void scan_ref_json (GString * out, const ScanRefResult * r);
void scan_ref_report (GString * out, const ScanRefResult * r);
/* The index of @r's frames sorted by VMAF, lowest first (ties: the
 * earlier frame), frames without a score left out; @n set. */
guint *scan_ref_rank (const ScanRefResult * r, guint * n);
/* The VMAF pooled as libvmaf pools it (mean, harmonic mean, min, max)
 * and the percentiles of the summary, as the element's compare-summary. */
typedef struct
{
  guint64 n;
  gdouble mean, harmonic_mean, min, max;
  gdouble p[8];                 /* SCAN_REF_PERCENTILES */
} ScanRefPooled;
#define SCAN_REF_PERCENTILES { 1, 5, 10, 25, 50, 75, 95, 99 }
void scan_ref_pool (const ScanRefResult * r, guint column,
    ScanRefPooled * out);

G_END_DECLS
#endif /* SCAN_REFERENCE_H */
