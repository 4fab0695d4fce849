/* The VMAF model reader (cpu/compare/vmaf-model.c, vmaf-json.c): the three
 * shipped models load, with the gain limits and clipping libvmaf reads
 * from them; malformed or unsupported model files are refused with a
 * message that names what is wrong; the pooled values of a known
 * sequence.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Usage: test-vmaf-model MODELDIR
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vmaf.h"

static int failures;

#define CHECK(cond, ...) do { \
    if (!(cond)) { \
      failures++; \
      printf ("FAIL %s:%d: ", __FILE__, __LINE__); \
      printf (__VA_ARGS__); \
      printf ("\n"); \
    } \
  } while (0)

/* A minimal valid model: two features, one support vector. */
#define MODEL_HEAD "{\"model_dict\": {\"model_type\": \"LIBSVMNUSVR\", " \
  "\"norm_type\": \"linear_rescale\", "
#define MODEL_FEATURES "\"feature_names\": " \
  "[\"VMAF_integer_feature_adm2_score\", " \
  "\"VMAF_integer_feature_vif_scale0_score\"], "
#define MODEL_LINEAR "\"slopes\": [2.0, 1.0, 1.0], " \
  "\"intercepts\": [1.0, 0.0, 0.0], "
#define MODEL_SVM "\"model\": \"svm_type nu_svr\\nkernel_type rbf\\n" \
  "gamma 0.5\\nnr_class 2\\ntotal_sv 1\\nrho -1\\nSV\\n3 1:1 2:0.5 \\n\""

static void
expect_refused (const char *json, const char *what)
{
  char error[256] = "";
  CompareVmafModel *m = compare_vmaf_model_load_json (json, strlen (json), 0,
      error, sizeof (error));

  CHECK (m == NULL, "model accepted: %s", json);
  CHECK (strstr (error, what) != NULL, "error \"%s\" does not say \"%s\"",
      error, what);
  compare_vmaf_model_free (m);
}

int
main (int argc, char **argv)
{
  static const struct
  {
    const char *file;
    double vif_egl, adm_egl;
  } shipped[] = {
    {"vmaf_v0.6.1.json", 100.0, 100.0},
    {"vmaf_v0.6.1neg.json", 1.0, 1.0},
    {"vmaf_4k_v0.6.1.json", 100.0, 100.0},
  };
  char path[4096], error[256];

  if (argc != 2) {
    fprintf (stderr, "usage: %s MODELDIR\n", argv[0]);
    return 2;
  }

  for (size_t i = 0; i < sizeof (shipped) / sizeof (shipped[0]); i++) {
    CompareVmafModel *m;
    double f[COMPARE_VMAF_N_FEATURES] = { 0 };

    snprintf (path, sizeof (path), "%s/%s", argv[1], shipped[i].file);
    m = compare_vmaf_model_load_file (path, 0, error, sizeof (error));
    CHECK (m != NULL, "%s: %s", shipped[i].file, error);
    if (!m)
      continue;
    CHECK (compare_vmaf_model_vif_egl (m) == shipped[i].vif_egl &&
        compare_vmaf_model_adm_egl (m) == shipped[i].adm_egl,
        "%s: gain limits %g %g", shipped[i].file,
        compare_vmaf_model_vif_egl (m), compare_vmaf_model_adm_egl (m));
    /* All-zero features (a black distorted frame): clipped to [0, 100]. */
    double s0 = compare_vmaf_model_predict (m, f);
    CHECK (s0 >= 0.0 && s0 <= 100.0, "%s: score %g outside the clip",
        shipped[i].file, s0);
    /* Perfect features score high. */
    for (int k = 0; k < COMPARE_VMAF_N_FEATURES; k++)
      f[k] = k == COMPARE_VMAF_FEATURE_MOTION2 ? 4.0 : 1.0;
    double s1 = compare_vmaf_model_predict (m, f);
    CHECK (s1 > 90.0 && s1 <= 100.0, "%s: perfect frame scores %g",
        shipped[i].file, s1);
    compare_vmaf_model_free (m);
  }

  /* Without clipping, the same model can leave [0, 100]. */
  {
    snprintf (path, sizeof (path), "%s/vmaf_v0.6.1.json", argv[1]);
    CompareVmafModel *m = compare_vmaf_model_load_file (path,
        COMPARE_VMAF_MODEL_DISABLE_CLIP, error, sizeof (error));
    double f[COMPARE_VMAF_N_FEATURES] = { 0 };

    CHECK (m != NULL, "disable_clip: %s", error);
    if (m) {
      for (int k = 0; k < COMPARE_VMAF_N_FEATURES; k++)
        f[k] = k == COMPARE_VMAF_FEATURE_MOTION2 ? 4.0 : 1.0;
      CHECK (compare_vmaf_model_predict (m, f) > 100.0,
          "unclipped perfect frame not above 100");
      compare_vmaf_model_free (m);
    }
  }

  /* The minimal model, by hand: x = (adm2, vif0) as given (slopes 1),
   * K = exp (-0.5 |x - (1, 0.5)|^2), s = 3 K + 1, score (s - 1) / 2. */
  {
    const char *json = MODEL_HEAD MODEL_FEATURES MODEL_LINEAR MODEL_SVM "}}";
    CompareVmafModel *m = compare_vmaf_model_load_json (json, strlen (json),
        0, error, sizeof (error));
    double f[COMPARE_VMAF_N_FEATURES] = { 0 };

    CHECK (m != NULL, "minimal model: %s", error);
    if (m) {
      f[COMPARE_VMAF_FEATURE_ADM2] = 0.5;
      f[COMPARE_VMAF_FEATURE_VIF_SCALE0] = 1.5;
      double want = (3 * exp (-0.5 * (0.25 + 1.0)) + 1 - 1) / 2;
      double got = compare_vmaf_model_predict (m, f);

      CHECK (fabs (got - want) < 1e-15, "minimal model: %.17g, want %.17g",
          got, want);
      compare_vmaf_model_free (m);
    }
  }

  expect_refused ("", "unexpected end");
  expect_refused ("{\"model_dict\": {", "expected a member name");
  expect_refused ("{\"model_dict\": 1} x", "text after the value");
  expect_refused ("[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["
      "[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]"
      "]]]]]]]]]]]]]]]]]]]]]]]]]]]]", "nested too deep");
  expect_refused ("{\"other\": {}}", "no model_dict");
  expect_refused ("{\"model_dict\": {\"model_type\": "
      "\"BOOTSTRAP_LIBSVMNUSVR\"}}", "model_type");
  expect_refused (MODEL_HEAD "\"feature_names\": [\"VMAF_feature_vif_score\"]"
      ", " MODEL_LINEAR MODEL_SVM "}}", "feature_names");
  expect_refused (MODEL_HEAD MODEL_FEATURES "\"slopes\": [1.0, 1.0], "
      "\"intercepts\": [1.0, 0.0, 0.0], " MODEL_SVM "}}", "slopes");
  expect_refused (MODEL_HEAD MODEL_FEATURES MODEL_LINEAR
      "\"feature_opts_dicts\": [{\"adm_enhn_gain_limit\": 0.5}, {}], "
      MODEL_SVM "}}", "gain limit outside");
  expect_refused (MODEL_HEAD MODEL_FEATURES MODEL_LINEAR
      "\"feature_opts_dicts\": [{\"motion_force_zero\": true}, {}], "
      MODEL_SVM "}}", "an option other than");
  expect_refused (MODEL_HEAD MODEL_FEATURES MODEL_LINEAR
      "\"model\": \"svm_type c_svc\\nSV\\n\"}}", "not a nu-SVR");
  expect_refused (MODEL_HEAD MODEL_FEATURES MODEL_LINEAR
      "\"model\": \"svm_type nu_svr\\nkernel_type rbf\\ngamma 0.5\\n"
      "total_sv 2\\nrho 1\\nSV\\n3 1:1 2:0.5 \\n\"}}", "fewer support vectors");
  expect_refused (MODEL_HEAD MODEL_FEATURES MODEL_LINEAR
      "\"model\": \"svm_type nu_svr\\nkernel_type rbf\\ngamma 0.5\\n"
      "total_sv 1\\nrho 1\\nSV\\n3 1:x\\n\"}}", "bad support vector value");
  {
    char e[256] = "";
    CHECK (compare_vmaf_model_load_file ("/nonexistent/model.json", 0, e,
            sizeof (e)) == NULL && strstr (e, "/nonexistent/model.json"),
        "missing file: \"%s\"", e);
  }

  /* A file that is not JSON: refused with its name and the offset. */
  {
    char e[256] = "", tmpl[] = "/tmp/vmaf-model-XXXXXX";
    int fd = mkstemp (tmpl);
    FILE *f = fd >= 0 ? fdopen (fd, "w") : NULL;

    CHECK (f != NULL, "cannot make a temporary file");
    if (f) {
      fputs ("{\"model_dict\": [1, 2", f);
      fclose (f);
      CHECK (compare_vmaf_model_load_file (tmpl, 0, e, sizeof (e)) == NULL
          && strstr (e, tmpl) == e, "bad JSON: \"%s\"", e);
      remove (tmpl);
    }
  }

  /* The built-in models are the shipped files: the same score of the same
   * features, to the bit; an unknown name is refused with the list. */
  for (size_t i = 0; i < sizeof (shipped) / sizeof (shipped[0]); i++) {
    char name[64];
    CompareVmafModel *file, *builtin;
    double f[COMPARE_VMAF_N_FEATURES] = { 0.9, 3.5, 0.7, 0.95, 0.98, 0.99 };

    snprintf (path, sizeof (path), "%s/%s", argv[1], shipped[i].file);
    snprintf (name, sizeof (name), "%.*s", (int) (strlen (shipped[i].file) -
            5), shipped[i].file);
    file = compare_vmaf_model_load_file (path, 0, error, sizeof (error));
    builtin = compare_vmaf_model_load_builtin (name, 0, error,
        sizeof (error));
    CHECK (file && builtin, "built-in %s: %s", name, error);
    if (file && builtin)
      CHECK (compare_vmaf_model_predict (file, f) ==
          compare_vmaf_model_predict (builtin, f) &&
          compare_vmaf_model_vif_egl (builtin) == shipped[i].vif_egl,
          "built-in %s differs from its file", name);
    compare_vmaf_model_free (file);
    compare_vmaf_model_free (builtin);
  }
  {
    char e[256] = "";
    CHECK (compare_vmaf_model_load_builtin ("vmaf_v9", 0, e, sizeof (e)) ==
        NULL && strstr (e, "vmaf_v9") && strstr (e, "vmaf_4k_v0.6.1"),
        "unknown built-in: \"%s\"", e);
  }

  /* Percentiles as numpy.percentile's default (linear): 0..100 of
   * {1, 2, 4, 8}: numpy gives 1, 1.03, 1.15, 1.3, 1.75, 3, 5, 7.4, 7.88,
   * 8. */
  {
    const double v[4] = { 1, 2, 4, 8 };
    const double p[] = { 0, 1, 5, 10, 25, 50, 75, 95, 99, 100 };
    const double want[] = { 1, 1.03, 1.15, 1.3, 1.75, 3, 5, 7.4, 7.88, 8 };

    for (size_t i = 0; i < sizeof (p) / sizeof (p[0]); i++) {
      double got = compare_vmaf_percentile (v, 4, p[i]);
      CHECK (fabs (got - want[i]) < 1e-12, "p%g: %.17g, numpy %g", p[i],
          got, want[i]);
    }
    CHECK (isnan (compare_vmaf_percentile (v, 0, 50)), "no values: not NaN");
  }

  /* Pooling: libvmaf's min, max, mean, harmonic mean of s + 1 less 1. */
  {
    CompareVmafPool pool;
    double p[COMPARE_VMAF_N_POOLS];
    const double s[3] = { 1.0, 3.0, 0.0 };

    compare_vmaf_pool_init (&pool);
    for (int i = 0; i < 3; i++)
      compare_vmaf_pool_add (&pool, s[i]);
    compare_vmaf_pool_result (&pool, p);
    CHECK (p[COMPARE_VMAF_POOL_MIN] == 0.0 && p[COMPARE_VMAF_POOL_MAX] == 3.0
        && p[COMPARE_VMAF_POOL_MEAN] == 4.0 / 3.0 &&
        p[COMPARE_VMAF_POOL_HARMONIC_MEAN] == 3 / (0.5 + 0.25 + 1.0) - 1.0,
        "pooled %g %g %g %g", p[0], p[1], p[2], p[3]);
  }

  printf ("%s\n", failures ? "FAILED" : "all passed");
  return failures ? 1 : 0;
}
