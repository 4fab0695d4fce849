/* VMAF logs in the formats of libvmaf's `vmaf` tool (--json, --xml,
 * --csv): the same structure, keys, order and "%.6f" digits, so that
 * scripts written for libvmaf's logs read ours.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The layout follows libvmaf 3.0.0's src/output.c (Copyright 2016-2020
 * Netflix, Inc., BSD-2-Clause-Patent).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "vmaf.h"

static const char *const pool_name[COMPARE_VMAF_N_POOLS] = {
  [COMPARE_VMAF_POOL_MIN] = "min",
  [COMPARE_VMAF_POOL_MAX] = "max",
  [COMPARE_VMAF_POOL_MEAN] = "mean",
  [COMPARE_VMAF_POOL_HARMONIC_MEAN] = "harmonic_mean",
};

int
compare_vmaf_columns (const CompareVmafFrame * layout,
    const char *const *model_names, CompareVmafColumn * cols, int max)
{
  int n = 0;

  for (int k = 0; k < layout->n_sets; k++) {
    int plain = layout->vif_egl[k] == COMPARE_VMAF_EGL_DEFAULT &&
        layout->adm_egl[k] == COMPARE_VMAF_EGL_DEFAULT;

    for (int o = 0; o < COMPARE_VMAF_N_OUTPUTS; o++) {
      const CompareVmafOutputInfo *info = &compare_vmaf_output_info[o];
      double egl;

      /* Motion does not take a gain limit: the first set has it. */
      if (!info->gain_limited && k > 0)
        continue;
      if (n >= max)
        return -1;
      egl = strcmp (info->extractor, "vif") == 0 ? layout->vif_egl[k] :
          layout->adm_egl[k];
      if (plain || !info->gain_limited)
        snprintf (cols[n].name, sizeof (cols[n].name), "%s", info->name);
      else
        snprintf (cols[n].name, sizeof (cols[n].name), "%s_egl_%g",
            info->name, egl);
      cols[n].model = -1;
      cols[n].set = k;
      cols[n].output = o;
      n++;
    }
  }
  for (int m = 0; m < layout->n_models; m++) {
    if (n >= max)
      return -1;
    snprintf (cols[n].name, sizeof (cols[n].name), "%s", model_names[m]);
    cols[n].model = m;
    cols[n].set = -1;
    cols[n].output = -1;
    n++;
  }
  return n;
}

double
compare_vmaf_column_value (const CompareVmafColumn * col,
    const CompareVmafFrame * frame)
{
  return col->model >= 0 ? frame->score[col->model] :
      frame->value[col->set][col->output];
}

void
compare_vmaf_log_row (const CompareVmafColumn * cols, int n_cols,
    const CompareVmafFrame * frame, double *row)
{
  for (int c = 0; c < n_cols; c++)
    row[c] = compare_vmaf_column_value (&cols[c], frame);
}

/* libvmaf prints null for a NaN or infinite value. */
static void
print_value (FILE * f, const char *format, double v)
{
  if (isfinite (v))
    fprintf (f, format, v);
  else
    fputs ("null", f);
}

static void
write_json (FILE * f, const CompareVmafLog * log)
{
  fprintf (f, "{\n");
  fprintf (f, "  \"version\": \"%s\",\n", COMPARE_VMAF_LIBVMAF_VERSION);
  if (isfinite (log->fps))
    fprintf (f, "  \"fps\": %.2f,\n", log->fps);
  else
    fprintf (f, "  \"fps\": null,\n");
  fprintf (f, "  \"frames\": [");
  for (uint64_t i = 0; i < log->n_frames; i++) {
    const double *row = log->values + i * log->n_columns;

    fprintf (f, "%s", i > 0 ? ",\n" : "\n");
    fprintf (f, "    {\n");
    fprintf (f, "      \"frameNum\": %d,\n", (int) log->frame_num[i]);
    fprintf (f, "      \"metrics\": {\n");
    for (int c = 0; c < log->n_columns; c++) {
      double v = row[c];
      const char *sep = c + 1 < log->n_columns ? "," : "";

      /* libvmaf's null has no newline after it. */
      if (isfinite (v))
        fprintf (f, "        \"%s\": %.6f%s\n", log->columns[c].name, v, sep);
      else
        fprintf (f, "        \"%s\": null%s", log->columns[c].name, sep);
    }
    fprintf (f, "      }\n");
    fprintf (f, "    }");
  }
  fprintf (f, "\n  ],\n");
  fprintf (f, "  \"pooled_metrics\": {");
  for (int c = 0; c < log->n_columns; c++) {
    fprintf (f, "%s", c > 0 ? ",\n" : "\n");
    fprintf (f, "    \"%s\": {", log->columns[c].name);
    for (int p = 0; p < COMPARE_VMAF_N_POOLS; p++) {
      fprintf (f, "%s", p > 0 ? ",\n" : "\n");
      fprintf (f, "      \"%s\": ", pool_name[p]);
      print_value (f, "%.6f", log->pooled[c][p]);
    }
    fprintf (f, "\n");
    fprintf (f, "    }");
  }
  fprintf (f, "\n  },\n");
  fprintf (f, "  \"aggregate_metrics\": {");
  fprintf (f, "\n  }\n");
  fprintf (f, "}\n");
}

static void
write_xml (FILE * f, const CompareVmafLog * log)
{
  fprintf (f, "<VMAF version=\"%s\">\n", COMPARE_VMAF_LIBVMAF_VERSION);
  fprintf (f, "  <params qualityWidth=\"%d\" qualityHeight=\"%d\" />\n",
      log->width, log->height);
  fprintf (f, "  <fyi fps=\"%.2f\" />\n", log->fps);
  fprintf (f, "  <frames>\n");
  for (uint64_t i = 0; i < log->n_frames; i++) {
    const double *row = log->values + i * log->n_columns;

    fprintf (f, "    <frame frameNum=\"%d\" ", (int) log->frame_num[i]);
    for (int c = 0; c < log->n_columns; c++)
      fprintf (f, "%s=\"%.6f\" ", log->columns[c].name, row[c]);
    fprintf (f, "/>\n");
  }
  fprintf (f, "  </frames>\n");
  fprintf (f, "  <pooled_metrics>\n");
  for (int c = 0; c < log->n_columns; c++) {
    fprintf (f, "    <metric name=\"%s\" ", log->columns[c].name);
    for (int p = 0; p < COMPARE_VMAF_N_POOLS; p++)
      fprintf (f, "%s=\"%.6f\" ", pool_name[p], log->pooled[c][p]);
    fprintf (f, "/>\n");
  }
  fprintf (f, "  </pooled_metrics>\n");
  fprintf (f, "  <aggregate_metrics ");
  fprintf (f, "/>\n");
  fprintf (f, "</VMAF>\n");
}

static void
write_csv (FILE * f, const CompareVmafLog * log)
{
  fprintf (f, "Frame,");
  for (int c = 0; c < log->n_columns; c++)
    fprintf (f, "%s,", log->columns[c].name);
  fprintf (f, "\n");
  for (uint64_t i = 0; i < log->n_frames; i++) {
    const double *row = log->values + i * log->n_columns;

    fprintf (f, "%d,", (int) log->frame_num[i]);
    for (int c = 0; c < log->n_columns; c++)
      fprintf (f, "%.6f,", row[c]);
    fprintf (f, "\n");
  }
}

SharpnessStatus
compare_vmaf_write_log (FILE * f, CompareVmafLogFormat format,
    const CompareVmafLog * log)
{
  if (!f || !log || (log->n_frames > 0 && (!log->frame_num ||
              (log->n_columns > 0 && !log->values))) ||
      log->n_columns < 0 || (log->n_columns > 0 && (!log->columns ||
              !log->pooled)))
    return SHARPNESS_ERROR_INVALID;
  switch (format) {
    case COMPARE_VMAF_LOG_JSON:
      write_json (f, log);
      break;
    case COMPARE_VMAF_LOG_XML:
      write_xml (f, log);
      break;
    case COMPARE_VMAF_LOG_CSV:
      write_csv (f, log);
      break;
    default:
      return SHARPNESS_ERROR_INVALID;
  }
  return ferror (f) ? SHARPNESS_ERROR_INVALID : SHARPNESS_OK;
}
