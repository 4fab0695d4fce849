/* Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare-vmaf.h"

/* Columns of a log: the features of the model's gain-limit set, motion
 * once, the score. */
#define MAX_COLUMNS (COMPARE_VMAF_N_OUTPUTS + 1)

struct CompareVmafStage
{
  gchar *model_name;            /* as the property named it */
  CompareVmafModel *model;
  CompareVmafStream *stream;
  gint width, height;           /* of the sequence; 0 before its first */

  /* The frame whose values wait for the next one. */
  gboolean pending;
  guint64 pending_frame;
  SharpnessTimes pending_times;

  /* Every completed score, for the percentiles (keep_scores; 8 bytes a
   * frame, grown by doubling: a few allocations over a stream, none per
   * frame).  n_scores counts the pooled frames either way. */
  gboolean keep_scores;
  gdouble *scores;
  guint64 n_scores, scores_cap;
  CompareVmafPool pool;

  /* The log's rows (keep_log): frameNum and the columns' values. */
  gboolean keep_log;
  CompareVmafColumn columns[MAX_COLUMNS];
  gint n_columns;
  guint64 *log_frames;
  gdouble *log_values;
  guint64 log_cap;
  gint log_width, log_height;   /* the first sequence's, the XML's params */
};

CompareVmafStage *
compare_vmaf_stage_new (const gchar * model, guint flags,
    gboolean keep_scores, gboolean keep_log, GError ** error)
{
  static const char *const score_name[] = { "vmaf" };
  CompareVmafStage *st;
  CompareVmafFrame layout = { 0 };
  gchar why[512];
  const CompareVmafModel *models[1];
  gboolean builtin;

  if (!model || !*model)
    model = COMPARE_VMAF_DEFAULT_MODEL;
  st = g_new0 (CompareVmafStage, 1);
  st->model_name = g_strdup (model);
  builtin = compare_vmaf_model_name_is_builtin (model);
  st->model = compare_vmaf_model_load_named (model, flags, why, sizeof (why));
  if (!st->model) {
    g_set_error (error, GST_RESOURCE_ERROR, builtin || g_file_test (model,
            G_FILE_TEST_EXISTS) ? GST_RESOURCE_ERROR_SETTINGS :
        GST_RESOURCE_ERROR_NOT_FOUND, "vmaf-model=%s cannot be used: %s",
        model, why);
    compare_vmaf_stage_free (st);
    return NULL;
  }
  models[0] = st->model;
  st->stream = compare_vmaf_stream_new (models, 1);
  if (!st->stream) {
    g_set_error (error, GST_RESOURCE_ERROR, GST_RESOURCE_ERROR_FAILED,
        "cannot allocate the VMAF extractors");
    compare_vmaf_stage_free (st);
    return NULL;
  }
  /* The columns libvmaf prints for this model (its gain-limit set's
   * names, "_egl_1" for the neg model), the score as "vmaf". */
  layout.n_sets = 1;
  layout.vif_egl[0] = compare_vmaf_model_vif_egl (st->model);
  layout.adm_egl[0] = compare_vmaf_model_adm_egl (st->model);
  layout.n_models = 1;
  st->n_columns = compare_vmaf_columns (&layout, score_name, st->columns,
      MAX_COLUMNS);
  g_assert (st->n_columns > 0);
  st->keep_scores = keep_scores;
  st->keep_log = keep_log;
  compare_vmaf_pool_init (&st->pool);
  return st;
}

void
compare_vmaf_stage_free (CompareVmafStage * st)
{
  if (!st)
    return;
  compare_vmaf_stream_free (st->stream);
  compare_vmaf_model_free (st->model);
  g_free (st->model_name);
  g_free (st->scores);
  g_free (st->log_frames);
  g_free (st->log_values);
  g_free (st);
}

/* Room for one more completed frame: FALSE when out of memory (the frame
 * is then left out of the pooled values and the log). */
static gboolean
reserve (CompareVmafStage * st)
{
  if (st->keep_scores && st->n_scores == st->scores_cap) {
    guint64 cap = MAX (st->scores_cap * 2, 1024);
    gdouble *s = g_try_renew (gdouble, st->scores, cap);

    if (!s)
      return FALSE;
    st->scores = s;
    st->scores_cap = cap;
  }
  if (st->keep_log && st->n_scores == st->log_cap) {
    guint64 cap = MAX (st->log_cap * 2, 1024);
    guint64 *f = g_try_renew (guint64, st->log_frames, cap);
    gdouble *v;

    if (!f)
      return FALSE;
    st->log_frames = f;
    v = g_try_renew (gdouble, st->log_values, cap * st->n_columns);
    if (!v)
      return FALSE;
    st->log_values = v;
    st->log_cap = cap;
  }
  return TRUE;
}

/* The pending frame, completed as @rec, into @out and the pools. */
static void
complete (CompareVmafStage * st, const CompareVmafFrame * rec,
    CompareVmafScored * out)
{
  const gdouble *v = rec->value[rec->set[0]];

  out->frame = st->pending_frame;
  out->times = st->pending_times;
  out->values.n = 0;
  compare_values_add (&out->values, SHARPNESS_FIELD_VMAF, rec->score[0]);
  for (gint o = 0; o < COMPARE_VMAF_N_OUTPUTS; o++)
    compare_values_add (&out->values, SHARPNESS_FIELD_INTEGER_ADM2 + o, v[o]);
  st->pending = FALSE;

  if (!reserve (st))
    return;
  if (st->keep_scores)
    st->scores[st->n_scores] = rec->score[0];
  compare_vmaf_pool_add (&st->pool, rec->score[0]);
  if (st->keep_log) {
    st->log_frames[st->n_scores] = out->frame;
    compare_vmaf_log_row (st->columns, st->n_columns, rec,
        st->log_values + st->n_scores * st->n_columns);
  }
  st->n_scores++;
}

SharpnessStatus
compare_vmaf_stage_push (CompareVmafStage * st, const ComparePair * luma,
    guint64 frame, const SharpnessTimes * times, CompareVmafScored * out,
    gboolean * done)
{
  CompareVmafPlane ref = {
    luma->ref[0], luma->ref_stride[0], luma->width[0], luma->height[0],
    luma->depth
  };
  CompareVmafPlane dist = {
    luma->dist[0], luma->dist_stride[0], luma->width[0], luma->height[0],
    luma->depth
  };
  CompareVmafFrame rec;
  SharpnessStatus status;
  int completed = 0;

  *done = FALSE;
  /* Another size is another sequence (libvmaf scores one size). */
  if (st->width && (ref.width != st->width || ref.height != st->height))
    *done = compare_vmaf_stage_end (st, out);
  status = compare_vmaf_stream_push (st->stream, &ref, &dist, &rec,
      &completed);
  if (status != SHARPNESS_OK)
    return status;
  if (!st->width) {
    st->width = ref.width;
    st->height = ref.height;
    if (!st->log_width) {
      st->log_width = ref.width;
      st->log_height = ref.height;
    }
  }
  if (completed) {
    /* Only when no sequence ended above: a first frame completes none. */
    complete (st, &rec, out);
    *done = TRUE;
  }
  st->pending = TRUE;
  st->pending_frame = frame;
  if (times)
    st->pending_times = *times;
  else
    st->pending_times.timestamp = st->pending_times.stream_time =
        st->pending_times.running_time = st->pending_times.duration =
        GST_CLOCK_TIME_NONE;
  return SHARPNESS_OK;
}

gboolean
compare_vmaf_stage_end (CompareVmafStage * st, CompareVmafScored * out)
{
  CompareVmafFrame rec;
  gboolean done = FALSE;

  if (st->pending && compare_vmaf_stream_flush (st->stream, &rec)) {
    complete (st, &rec, out);
    done = TRUE;
  }
  compare_vmaf_stream_reset (st->stream);
  st->pending = FALSE;
  st->width = st->height = 0;
  return done;
}

void
compare_vmaf_stage_size (const CompareVmafStage * st, gint * width,
    gint * height)
{
  *width = st->width;
  *height = st->height;
}

guint64
compare_vmaf_stage_frames (const CompareVmafStage * st)
{
  return st->n_scores;
}

static int
compare_doubles (const void *a, const void *b)
{
  gdouble x = *(const gdouble *) a, y = *(const gdouble *) b;

  return x < y ? -1 : x > y;
}

void
compare_vmaf_stage_summary (const CompareVmafStage * st, GstStructure * s)
{
  static const gdouble percentiles[] = COMPARE_VMAF_PERCENTILES;
  gdouble pooled[COMPARE_VMAF_N_POOLS];
  gdouble *sorted;
  gchar name[32];

  gst_structure_set (s, "vmaf-model", G_TYPE_STRING, st->model_name, NULL);
  if (st->n_scores == 0)
    return;
  compare_vmaf_pool_result (&st->pool, pooled);
  gst_structure_set (s, "vmaf-harmonic-mean", G_TYPE_DOUBLE,
      pooled[COMPARE_VMAF_POOL_HARMONIC_MEAN], NULL);
  if (!st->keep_scores)
    return;
  /* Once, at the end: a sorted copy. */
  sorted = g_try_new (gdouble, st->n_scores);
  if (!sorted)
    return;
  memcpy (sorted, st->scores, st->n_scores * sizeof (gdouble));
  qsort (sorted, st->n_scores, sizeof (gdouble), compare_doubles);
  for (guint i = 0; i < G_N_ELEMENTS (percentiles); i++) {
    g_snprintf (name, sizeof (name), "vmaf-p%g", percentiles[i]);
    gst_structure_set (s, name, G_TYPE_DOUBLE, compare_vmaf_percentile
        (sorted, st->n_scores, percentiles[i]), NULL);
  }
  g_free (sorted);
}

SharpnessStatus
compare_vmaf_stage_write_log (const CompareVmafStage * st, FILE * f,
    CompareVmafLogFormat format, gdouble fps)
{
  gdouble (*pooled)[COMPARE_VMAF_N_POOLS];
  SharpnessStatus status;
  CompareVmafLog log = {
    .n_frames = st->keep_log ? st->n_scores : 0,
    .frame_num = st->log_frames,
    .values = st->log_values,
    .columns = st->columns,
    .n_columns = st->n_columns,
    .width = st->log_width,
    .height = st->log_height,
    .fps = fps,
  };

  /* libvmaf's pooled values of each column, in frame order. */
  pooled = g_malloc0_n (st->n_columns, sizeof (*pooled));
  for (gint c = 0; c < st->n_columns; c++) {
    CompareVmafPool pool;

    compare_vmaf_pool_init (&pool);
    for (guint64 i = 0; i < log.n_frames; i++)
      compare_vmaf_pool_add (&pool, st->log_values[i * st->n_columns + c]);
    compare_vmaf_pool_result (&pool, pooled[c]);
  }
  log.pooled = (const gdouble (*)[COMPARE_VMAF_N_POOLS]) pooled;
  status = compare_vmaf_write_log (f, format, &log);
  g_free (pooled);
  return status;
}
