/* VMAF models: libvmaf's JSON model files read, and the score of a frame
 * predicted from its features.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * The prediction (linear rescaling of each feature, libsvm's nu-SVR with
 * an RBF kernel summed in libsvm's order, denormalisation, the optional
 * polynomial/piecewise-linear transform with its rectification, clipping)
 * follows libvmaf 3.0.0's src/predict.c, src/read_json_model.c and
 * src/svm.cpp (libsvm), Copyright 2016-2020 Netflix, Inc.,
 * BSD-2-Clause-Patent (libsvm: Copyright 2000-2019 Chih-Chung Chang and
 * Chih-Jen Lin, BSD-3-Clause); this is an independent implementation,
 * equal to libvmaf on tests/vmaf's golden set.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vmaf-builtin.h"
#include "vmaf-json.h"
#include "vmaf.h"

const char *const compare_vmaf_feature_model_name[COMPARE_VMAF_N_FEATURES] = {
  [COMPARE_VMAF_FEATURE_ADM2] = "VMAF_integer_feature_adm2_score",
  [COMPARE_VMAF_FEATURE_MOTION2] = "VMAF_integer_feature_motion2_score",
  [COMPARE_VMAF_FEATURE_VIF_SCALE0] = "VMAF_integer_feature_vif_scale0_score",
  [COMPARE_VMAF_FEATURE_VIF_SCALE1] = "VMAF_integer_feature_vif_scale1_score",
  [COMPARE_VMAF_FEATURE_VIF_SCALE2] = "VMAF_integer_feature_vif_scale2_score",
  [COMPARE_VMAF_FEATURE_VIF_SCALE3] = "VMAF_integer_feature_vif_scale3_score",
};

#define VMAF_MODEL_MAX_FEATURES 32
#define VMAF_MODEL_MAX_KNOTS 10
#define VMAF_MODEL_MAX_SV 100000
#define VMAF_MODEL_MAX_FILE (16u << 20)

typedef struct
{
  int index;                    /* 1-based feature index; -1 ends */
  double value;
} SvmNode;

struct CompareVmafModel
{
  int n_features;
  CompareVmafFeature feature[VMAF_MODEL_MAX_FEATURES];
  double feature_slope[VMAF_MODEL_MAX_FEATURES];
  double feature_intercept[VMAF_MODEL_MAX_FEATURES];
  int linear_rescale;
  double slope, intercept;
  double vif_egl, adm_egl;

  /* libsvm: sum_i coef_i exp (-gamma |x - sv_i|^2) - rho */
  double gamma, rho;
  int n_sv;
  double *sv_coef;
  SvmNode **sv;                 /* n_sv pointers into sv_nodes */
  SvmNode *sv_nodes;

  int clip;
  double clip_min, clip_max;

  int transform;
  int p_enabled[3];
  double p[3];
  int n_knots;
  double knot_x[VMAF_MODEL_MAX_KNOTS], knot_y[VMAF_MODEL_MAX_KNOTS];
  int out_lte_in, out_gte_in;
};

static CompareVmafModel *
model_error (CompareVmafModel * m, char *error, size_t size,
    const char *format, ...)
{
  va_list ap;

  if (error && size) {
    va_start (ap, format);
    vsnprintf (error, size, format, ap);
    va_end (ap);
  }
  compare_vmaf_model_free (m);
  return NULL;
}

void
compare_vmaf_model_free (CompareVmafModel * model)
{
  if (!model)
    return;
  free (model->sv_coef);
  free (model->sv);
  free (model->sv_nodes);
  free (model);
}

/* libsvm's model text: the header lines, "SV", then one line per
 * support vector "coef i:v i:v ...".  0 or a message. */
static const char *
parse_libsvm (CompareVmafModel * m, const char *text)
{
  const char *p = text;
  size_t n_nodes = 0, node = 0;
  int have_sv = 0, total = -1;

  while (*p && !have_sv) {
    const char *eol = strchr (p, '\n');
    size_t len = eol ? (size_t) (eol - p) : strlen (p);
    char line[128];

    if (len >= sizeof (line))
      return "model: header line too long";
    memcpy (line, p, len);
    line[len] = '\0';
    p = eol ? eol + 1 : p + len;
    if (strcmp (line, "svm_type nu_svr") == 0 ||
        strcmp (line, "kernel_type rbf") == 0 ||
        strcmp (line, "nr_class 2") == 0)
      continue;
    if (sscanf (line, "gamma %lf", &m->gamma) == 1 ||
        sscanf (line, "rho %lf", &m->rho) == 1)
      continue;
    if (sscanf (line, "total_sv %d", &total) == 1) {
      if (total <= 0 || total > VMAF_MODEL_MAX_SV)
        return "model: total_sv out of range";
      continue;
    }
    if (strcmp (line, "SV") == 0) {
      have_sv = 1;
      continue;
    }
    return "model: not a nu-SVR model with an RBF kernel";
  }
  if (!have_sv || total <= 0)
    return "model: no support vectors";

  /* Nodes: at most one per ':' plus a terminator per vector. */
  for (const char *q = p; *q; q++)
    n_nodes += *q == ':';
  n_nodes += total;
  m->n_sv = total;
  m->sv_coef = calloc (total, sizeof (double));
  m->sv = calloc (total, sizeof (SvmNode *));
  m->sv_nodes = calloc (n_nodes, sizeof (SvmNode));
  if (!m->sv_coef || !m->sv || !m->sv_nodes)
    return "out of memory";

  for (int i = 0; i < total; i++) {
    char *end;

    if (*p == '\0')
      return "model: fewer support vectors than total_sv";
    m->sv_coef[i] = strtod (p, &end);
    if (end == p)
      return "model: bad support vector coefficient";
    p = end;
    m->sv[i] = &m->sv_nodes[node];
    for (;;) {
      long index;

      while (*p == ' ' || *p == '\t')
        p++;
      if (*p == '\n' || *p == '\0')
        break;
      index = strtol (p, &end, 10);
      if (end == p || *end != ':' || index <= 0 ||
          index > VMAF_MODEL_MAX_FEATURES || node + 1 >= n_nodes)
        return "model: bad support vector";
      p = end + 1;
      m->sv_nodes[node].index = (int) index;
      m->sv_nodes[node].value = strtod (p, &end);
      if (end == p)
        return "model: bad support vector value";
      p = end;
      node++;
    }
    m->sv_nodes[node++].index = -1;
    if (*p == '\n')
      p++;
  }
  return NULL;
}

static int
number_array (const VmafJson * a, double *out, int max)
{
  int n = 0;

  if (!a || a->type != VMAF_JSON_ARRAY)
    return -1;
  for (const VmafJson * v = a->child; v; v = v->next) {
    if (v->type != VMAF_JSON_NUMBER || n >= max)
      return -1;
    out[n++] = v->number;
  }
  return n;
}

/* Only the gain limits are feature options the CPU backend computes. */
static const char *
parse_feature_opts (CompareVmafModel * m, const VmafJson * dicts)
{
  int i = 0;
  int vif_set = 0;

  if (dicts->type != VMAF_JSON_ARRAY)
    return "feature_opts_dicts is not an array";
  for (const VmafJson * d = dicts->child; d; d = d->next, i++) {
    if (d->type != VMAF_JSON_OBJECT || i >= m->n_features)
      return "feature_opts_dicts: not one object per feature";
    for (const VmafJson * o = d->child; o; o = o->next) {
      int vif = m->feature[i] >= COMPARE_VMAF_FEATURE_VIF_SCALE0;
      const char *want = vif ? "vif_enhn_gain_limit" : "adm_enhn_gain_limit";

      if (o->type != VMAF_JSON_NUMBER || strcmp (o->key, want) != 0 ||
          m->feature[i] == COMPARE_VMAF_FEATURE_MOTION2)
        return "feature_opts_dicts: an option other than the VIF/ADM "
            "enhancement gain limit";
      if (!(o->number >= 1.0 && o->number <= COMPARE_VMAF_EGL_DEFAULT))
        return "feature_opts_dicts: gain limit outside [1, 100]";
      if (vif) {
        if (vif_set && o->number != m->vif_egl)
          return "feature_opts_dicts: VIF scales with different gain limits";
        m->vif_egl = o->number;
        vif_set = 1;
      } else {
        m->adm_egl = o->number;
      }
    }
  }
  return NULL;
}

static const char *
parse_transform (CompareVmafModel * m, const VmafJson * t)
{
  static const char *const pk[3] = { "p0", "p1", "p2" };
  const VmafJson *v;

  if (t->type != VMAF_JSON_OBJECT)
    return "score_transform is not an object";
  v = vmaf_json_member (t, "enabled");
  if (v)
    m->transform = v->type == VMAF_JSON_TRUE;
  for (int k = 0; k < 3; k++) {
    v = vmaf_json_member (t, pk[k]);
    if (v && v->type == VMAF_JSON_NUMBER) {
      m->p_enabled[k] = 1;
      m->p[k] = v->number;
    } else if (v && v->type != VMAF_JSON_NULL) {
      return "score_transform: a coefficient is not a number";
    }
  }
  v = vmaf_json_member (t, "knots");
  if (v && v->type == VMAF_JSON_ARRAY) {
    for (const VmafJson * k = v->child; k; k = k->next) {
      double xy[2];

      if (m->n_knots >= VMAF_MODEL_MAX_KNOTS || number_array (k, xy, 2) != 2)
        return "score_transform: bad knots";
      m->knot_x[m->n_knots] = xy[0];
      m->knot_y[m->n_knots] = xy[1];
      m->n_knots++;
    }
  }
  v = vmaf_json_member (t, "out_lte_in");
  m->out_lte_in = v && v->type == VMAF_JSON_STRING &&
      strcmp (v->string, "true") == 0;
  v = vmaf_json_member (t, "out_gte_in");
  m->out_gte_in = v && v->type == VMAF_JSON_STRING &&
      strcmp (v->string, "true") == 0;
  return NULL;
}

static const char *
parse_model_dict (CompareVmafModel * m, const VmafJson * d, unsigned flags)
{
  const VmafJson *v;
  double slopes[VMAF_MODEL_MAX_FEATURES + 1];
  double intercepts[VMAF_MODEL_MAX_FEATURES + 1];
  const char *err;

  v = vmaf_json_member (d, "model_type");
  if (!v || v->type != VMAF_JSON_STRING ||
      strcmp (v->string, "LIBSVMNUSVR") != 0)
    return "model_type is not LIBSVMNUSVR (bootstrap models are not "
        "supported)";

  v = vmaf_json_member (d, "feature_names");
  if (!v || v->type != VMAF_JSON_ARRAY)
    return "no feature_names";
  for (const VmafJson * f = v->child; f; f = f->next) {
    int k;

    if (f->type != VMAF_JSON_STRING || m->n_features >= VMAF_MODEL_MAX_FEATURES)
      return "feature_names: not a list of names";
    for (k = 0; k < COMPARE_VMAF_N_FEATURES; k++)
      if (strcmp (f->string, compare_vmaf_feature_model_name[k]) == 0)
        break;
    if (k == COMPARE_VMAF_N_FEATURES)
      return "feature_names: a feature other than integer VIF, ADM2 and "
          "motion2";
    m->feature[m->n_features++] = k;
  }
  if (m->n_features == 0)
    return "feature_names is empty";

  v = vmaf_json_member (d, "norm_type");
  if (!v || v->type != VMAF_JSON_STRING)
    return "no norm_type";
  if (strcmp (v->string, "linear_rescale") == 0)
    m->linear_rescale = 1;
  else if (strcmp (v->string, "none") != 0)
    return "norm_type is neither linear_rescale nor none";
  if (m->linear_rescale) {
    if (number_array (vmaf_json_member (d, "slopes"), slopes,
            VMAF_MODEL_MAX_FEATURES + 1) != m->n_features + 1 ||
        number_array (vmaf_json_member (d, "intercepts"), intercepts,
            VMAF_MODEL_MAX_FEATURES + 1) != m->n_features + 1)
      return "slopes/intercepts: not one per feature plus the score's";
    m->slope = slopes[0];
    m->intercept = intercepts[0];
    for (int i = 0; i < m->n_features; i++) {
      m->feature_slope[i] = slopes[i + 1];
      m->feature_intercept[i] = intercepts[i + 1];
    }
  }

  v = vmaf_json_member (d, "feature_opts_dicts");
  if (v && (err = parse_feature_opts (m, v)))
    return err;

  v = vmaf_json_member (d, "score_clip");
  if (v && !(flags & COMPARE_VMAF_MODEL_DISABLE_CLIP)) {
    double mm[2];

    if (number_array (v, mm, 2) != 2)
      return "score_clip is not [min, max]";
    m->clip = 1;
    m->clip_min = mm[0];
    m->clip_max = mm[1];
  }

  v = vmaf_json_member (d, "score_transform");
  if (v && (err = parse_transform (m, v)))
    return err;
  if (v && (flags & COMPARE_VMAF_MODEL_ENABLE_TRANSFORM))
    m->transform = 1;

  v = vmaf_json_member (d, "model");
  if (!v || v->type != VMAF_JSON_STRING)
    return "no libsvm model text";
  return parse_libsvm (m, v->string);
}

CompareVmafModel *
compare_vmaf_model_load_json (const char *json, size_t length,
    unsigned flags, char *error, size_t error_size)
{
  CompareVmafModel *m = calloc (1, sizeof (*m));
  VmafJson *root;
  const VmafJson *d;
  const char *err;

  if (!m)
    return model_error (m, error, error_size, "out of memory");
  m->vif_egl = COMPARE_VMAF_EGL_DEFAULT;
  m->adm_egl = COMPARE_VMAF_EGL_DEFAULT;
  root = vmaf_json_parse (json, length, error, error_size);
  if (!root)
    return model_error (m, NULL, 0, NULL);
  d = vmaf_json_member (root, "model_dict");
  err = d ? parse_model_dict (m, d, flags) : "no model_dict";
  vmaf_json_free (root);
  if (err)
    return model_error (m, error, error_size, "%s", err);
  return m;
}

CompareVmafModel *
compare_vmaf_model_load_file (const char *path, unsigned flags, char *error,
    size_t error_size)
{
  FILE *f = fopen (path, "rb");
  char *text;
  long size;
  CompareVmafModel *m;

  if (!f)
    return model_error (NULL, error, error_size, "%s: %s", path,
        strerror (errno));
  if (fseek (f, 0, SEEK_END) != 0 || (size = ftell (f)) < 0 ||
      size > (long) VMAF_MODEL_MAX_FILE || fseek (f, 0, SEEK_SET) != 0) {
    fclose (f);
    return model_error (NULL, error, error_size,
        "%s: unreadable or larger than 16 MiB", path);
  }
  text = malloc (size + 1);
  if (!text || fread (text, 1, size, f) != (size_t) size) {
    free (text);
    fclose (f);
    return model_error (NULL, error, error_size, "%s: read failed", path);
  }
  fclose (f);
  text[size] = '\0';
  m = compare_vmaf_model_load_json (text, size, flags, error, error_size);
  free (text);
  /* The file named in every message, not only in the open's. */
  if (!m && error && error_size) {
    char detail[256];

    snprintf (detail, sizeof (detail), "%s", error);
    snprintf (error, error_size, "%s: %s", path, detail);
  }
  return m;
}

CompareVmafModel *
compare_vmaf_model_load_builtin (const char *name, unsigned flags,
    char *error, size_t error_size)
{
  for (const CompareVmafBuiltinModel * b = compare_vmaf_builtin_models;
      b->name; b++)
    if (strcmp (b->name, name) == 0)
      return compare_vmaf_model_load_json (b->json, b->length, flags, error,
          error_size);
  return model_error (NULL, error, error_size, "%s: not a built-in model "
      "(%s)", name, COMPARE_VMAF_BUILTIN_NAMES);
}

int
compare_vmaf_model_name_is_builtin (const char *model)
{
  size_t n = strlen (model);

  return !strchr (model, '/') && !(n >= 5 &&
      strcmp (model + n - 5, ".json") == 0);
}

CompareVmafModel *
compare_vmaf_model_load_named (const char *model, unsigned flags,
    char *error, size_t error_size)
{
  return compare_vmaf_model_name_is_builtin (model) ?
      compare_vmaf_model_load_builtin (model, flags, error, error_size) :
      compare_vmaf_model_load_file (model, flags, error, error_size);
}

double
compare_vmaf_model_vif_egl (const CompareVmafModel * model)
{
  return model->vif_egl;
}

double
compare_vmaf_model_adm_egl (const CompareVmafModel * model)
{
  return model->adm_egl;
}

/* libsvm's RBF kernel: |x - y|^2 over the sparse nodes in index order. */
static double
svm_rbf (const SvmNode * x, const SvmNode * y, double gamma)
{
  double sum = 0;

  while (x->index != -1 && y->index != -1) {
    if (x->index == y->index) {
      double d = x->value - y->value;

      sum += d * d;
      ++x;
      ++y;
    } else if (x->index > y->index) {
      sum += y->value * y->value;
      ++y;
    } else {
      sum += x->value * x->value;
      ++x;
    }
  }
  while (x->index != -1) {
    sum += x->value * x->value;
    ++x;
  }
  while (y->index != -1) {
    sum += y->value * y->value;
    ++y;
  }
  return exp (-gamma * sum);
}

/* predict.c's piecewise_linear_mapping: the segment holding x, the first
 * and last extended beyond the knots. */
static double
piecewise_linear (const CompareVmafModel * m, double x)
{
  double y = 0.0;
  const int n_seg = m->n_knots - 1;

  for (int k = 0; k < n_seg; k++) {
    const double x0 = m->knot_x[k], y0 = m->knot_y[k];
    const double x1 = m->knot_x[k + 1], y1 = m->knot_y[k + 1];
    const int in = x0 <= x && x <= x1;
    double slope, offset;

    if (y0 == y1) {
      if (in || (k == 0 && x < x0) || (k == n_seg - 1 && x > x1))
        y = y0;
      continue;
    }
    if (x0 == 0) {
      offset = y0;
      slope = (y1 - offset) / x1;
    } else {
      slope = (y1 - y0) / (x1 - x0);
      offset = y0 - (x0 * slope);
    }
    if (in || (k == 0 && x < x0) || (k == n_seg - 1 && x > x1))
      y = slope * x + offset;
  }
  return y;
}

double
compare_vmaf_model_predict (const CompareVmafModel * m,
    const double features[COMPARE_VMAF_N_FEATURES])
{
  SvmNode x[VMAF_MODEL_MAX_FEATURES + 1];
  double sum = 0, prediction;

  for (int i = 0; i < m->n_features; i++) {
    double f = features[m->feature[i]];

    if (m->linear_rescale)
      f = m->feature_slope[i] * f + m->feature_intercept[i];
    x[i].index = i + 1;
    x[i].value = f;
  }
  x[m->n_features].index = -1;

  for (int i = 0; i < m->n_sv; i++)
    sum += m->sv_coef[i] * svm_rbf (x, m->sv[i], m->gamma);
  sum -= m->rho;
  prediction = sum;
  if (m->linear_rescale)
    prediction = (prediction - m->intercept) / m->slope;

  if (m->transform) {
    const double in = prediction;
    double out;

    if (m->p_enabled[0] || m->p_enabled[1] || m->p_enabled[2]) {
      out = 0.;
      if (m->p_enabled[0])
        out += m->p[0];
      if (m->p_enabled[1])
        out += m->p[1] * in;
      if (m->p_enabled[2])
        out += m->p[2] * in * in;
    } else {
      out = in;
    }
    if (m->n_knots > 1)
      out = piecewise_linear (m, out);
    if (m->out_lte_in)
      out = out > in ? in : out;
    if (m->out_gte_in)
      out = out < in ? in : out;
    prediction = out;
  }
  if (m->clip) {
    prediction = prediction < m->clip_min ? m->clip_min : prediction;
    prediction = prediction > m->clip_max ? m->clip_max : prediction;
  }
  return prediction;
}
