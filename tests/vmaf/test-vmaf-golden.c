/* The CPU VMAF (cpu/compare/vmaf*.c) against libvmaf's golden numbers:
 * every per-frame feature and score of one golden pair equal to the 6
 * decimals libvmaf's `vmaf --json` printed.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Usage: test-vmaf-golden GOLDEN.json CLIPDIR MODELDIR [LOGDIR]
 *   GOLDEN.json  tests/vmaf/golden/<pair>.json (make_vmaf_golden.py)
 *   CLIPDIR      where vmaf_pairs.py made <pair>.ref.yuv and .dist.yuv
 *   MODELDIR     data/vmaf
 *   LOGDIR       libvmaf's own logs of the pair (<pair>.json, .xml, .csv):
 *                ours, written with libvmaf's fps, must be the same bytes
 * Prints one line per metric (frames equal, largest difference, pooled
 * min/max/mean/harmonic mean equal) and exits 1 when any printed value
 * differs.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vmaf.h"
#include "vmaf-json.h"

/* The models as the golden set names them: (file, output name, flags). */
static const struct
{
  const char *file, *name;
  unsigned flags;
} models[] = {
  {"vmaf_v0.6.1.json", "vmaf_v0.6.1", 0},
  {"vmaf_v0.6.1neg.json", "vmaf_v0.6.1neg", 0},
  {"vmaf_4k_v0.6.1.json", "vmaf_4k_v0.6.1", 0},
  {"vmaf_v0.6.1.json", "vmaf_v0.6.1_phone",
      COMPARE_VMAF_MODEL_ENABLE_TRANSFORM},
};
#define N_MODELS ((int) (sizeof (models) / sizeof (models[0])))

static char *
read_file (const char *path, size_t *length)
{
  FILE *f = fopen (path, "rb");
  char *text = NULL;
  long size;

  if (!f)
    return NULL;
  if (fseek (f, 0, SEEK_END) == 0 && (size = ftell (f)) >= 0 &&
      fseek (f, 0, SEEK_SET) == 0 && (text = malloc (size + 1)) &&
      fread (text, 1, size, f) == (size_t) size) {
    text[size] = '\0';
    *length = size;
  } else {
    free (text);
    text = NULL;
  }
  fclose (f);
  return text;
}

static int
member_int (const VmafJson * o, const char *key)
{
  const VmafJson *v = vmaf_json_member (o, key);

  return v && v->type == VMAF_JSON_NUMBER ? (int) v->number : -1;
}

/* Where a golden metric's value is in a frame record: a model's score, or
 * an output of the default or the gain-limit-1 set. */
typedef struct
{
  const VmafJson *values;
  const char *name;
  int model;                    /* >= 0: score of that model */
  int set, output;
  long equal, differ;
  double max_diff;
  long first_differ;
  CompareVmafPool pool;
} Column;

static int
column_of (Column * c, const CompareVmafFrame * frame_layout)
{
  char base[64];
  const char *suffix = strstr (c->name, "_egl_1");
  double egl = suffix ? 1.0 : COMPARE_VMAF_EGL_DEFAULT;

  c->model = -1;
  for (int m = 0; m < N_MODELS; m++)
    if (strcmp (c->name, models[m].name) == 0) {
      c->model = m;
      return 0;
    }
  snprintf (base, sizeof (base), "%.*s", suffix ? (int) (suffix - c->name) :
      (int) strlen (c->name), c->name);
  for (c->output = 0; c->output < COMPARE_VMAF_N_OUTPUTS; c->output++)
    if (strcmp (base, compare_vmaf_output_info[c->output].name) == 0)
      break;
  if (c->output == COMPARE_VMAF_N_OUTPUTS)
    return -1;
  for (c->set = 0; c->set < frame_layout->n_sets; c->set++) {
    int motion = !compare_vmaf_output_info[c->output].gain_limited;

    if (motion || (frame_layout->vif_egl[c->set] == egl &&
            frame_layout->adm_egl[c->set] == egl))
      return 0;
  }
  return -1;
}

/* Whether @ours prints as libvmaf printed @micro (millionths). */
static int
same_digits (double ours, long long micro)
{
  char a[64], b[64];

  snprintf (a, sizeof (a), "%.6f", ours);
  snprintf (b, sizeof (b), "%s%lld.%06lld", micro < 0 ? "-" : "",
      llabs (micro) / 1000000, llabs (micro) % 1000000);
  return strcmp (a, b) == 0;
}

static void
compare_frame (Column * cols, int n_cols, const CompareVmafFrame * f)
{
  for (int k = 0; k < n_cols; k++) {
    Column *c = &cols[k];
    const VmafJson *g = c->values->child;
    double ours, want;
    long long micro;

    for (uint64_t i = 0; g && i < f->index; i++)
      g = g->next;
    if (!g || g->type != VMAF_JSON_NUMBER) {
      c->differ++;
      continue;
    }
    /* The golden value in millionths: libvmaf's 6 printed decimals. */
    micro = (long long) g->number;
    want = micro / 1e6;
    ours = c->model >= 0 ? f->score[c->model] : f->value[c->set][c->output];
    compare_vmaf_pool_add (&c->pool, ours);
    if (same_digits (ours, micro)) {
      c->equal++;
    } else {
      if (c->differ++ == 0)
        c->first_differ = (long) f->index;
      if (fabs (ours - want) > c->max_diff || isnan (ours))
        c->max_diff = isnan (ours) ? INFINITY : fabs (ours - want);
    }
  }
}

/* Our logs of the frames against libvmaf's (<LOGDIR>/<pair>.json, .xml,
 * .csv), written with libvmaf's fps: the columns must be the golden
 * metrics in libvmaf's order, the bytes the same.  1 on a difference. */
static int
compare_logs (const char *dir, const char *pair, const CompareVmafFrame * all,
    int n_frames, const Column * golden_cols, int n_golden, int w, int h)
{
  static const struct
  {
    CompareVmafLogFormat format;
    const char *ext;
  } formats[] = {
    {COMPARE_VMAF_LOG_JSON, "json"}, {COMPARE_VMAF_LOG_XML, "xml"},
    {COMPARE_VMAF_LOG_CSV, "csv"},
  };
  const char *names[N_MODELS];
  CompareVmafColumn cols[64];
  double (*pooled)[COMPARE_VMAF_N_POOLS];
  double *rows;
  uint64_t *frame_num;
  char path[4096];
  int n_cols, failed = 0;
  const double fps = NAN;
  char *theirs;
  size_t length;

  for (int m = 0; m < N_MODELS; m++)
    names[m] = models[m].name;
  n_cols = compare_vmaf_columns (&all[0], names, cols, 64);
  if (n_cols != n_golden) {
    printf ("  logs: %d columns, the golden file has %d\n", n_cols,
        n_golden);
    return 1;
  }
  for (int c = 0; c < n_cols; c++)
    if (strcmp (cols[c].name, golden_cols[c].name) != 0) {
      printf ("  logs: column %d is %s, libvmaf's %s\n", c, cols[c].name,
          golden_cols[c].name);
      return 1;
    }
  pooled = calloc (n_cols, sizeof (*pooled));
  rows = calloc ((size_t) n_frames * n_cols, sizeof (double));
  frame_num = calloc (n_frames, sizeof (uint64_t));
  if (!pooled || !rows || !frame_num) {
    free (pooled);
    free (rows);
    free (frame_num);
    printf ("  logs: out of memory\n");
    return 1;
  }
  for (int i = 0; i < n_frames; i++) {
    compare_vmaf_log_row (cols, n_cols, &all[i], rows + (size_t) i * n_cols);
    frame_num[i] = all[i].index;
  }
  for (int c = 0; c < n_cols; c++) {
    CompareVmafPool pool;

    compare_vmaf_pool_init (&pool);
    for (int i = 0; i < n_frames; i++)
      compare_vmaf_pool_add (&pool, compare_vmaf_column_value (&cols[c],
              &all[i]));
    compare_vmaf_pool_result (&pool, pooled[c]);
  }

  for (size_t k = 0; k < sizeof (formats) / sizeof (formats[0]); k++) {
    char *ours = NULL;
    size_t ours_length = 0;
    FILE *mem = open_memstream (&ours, &ours_length);
    CompareVmafLog log = { (uint64_t) n_frames, frame_num, rows, cols,
      n_cols, (const double (*)[COMPARE_VMAF_N_POOLS]) pooled, w, h, fps
    };

    snprintf (path, sizeof (path), "%s/%s.%s", dir, pair, formats[k].ext);
    theirs = read_file (path, &length);
    /* libvmaf's fps (its speed, each log its own run's) written back. */
    if (theirs && strstr (theirs, "\"fps\": "))
      log.fps = strtod (strstr (theirs, "\"fps\": ") + 7, NULL);
    else if (theirs && strstr (theirs, "fps=\""))
      log.fps = strtod (strstr (theirs, "fps=\"") + 5, NULL);
    if (!mem || !theirs ||
        compare_vmaf_write_log (mem, formats[k].format, &log) !=
        SHARPNESS_OK) {
      printf ("  log %s: cannot write ours or read %s\n", formats[k].ext,
          path);
      failed = 1;
    } else {
      fclose (mem);
      mem = NULL;
      if (ours_length != length || memcmp (ours, theirs, length) != 0) {
        size_t at = 0;

        while (at < length && at < ours_length && ours[at] == theirs[at])
          at++;
        printf ("  log %s: DIFFERS from libvmaf's at byte %zu\n",
            formats[k].ext, at);
        failed = 1;
      } else {
        printf ("  log %s: the same %zu bytes as libvmaf's\n",
            formats[k].ext, length);
      }
    }
    if (mem)
      fclose (mem);
    free (ours);
    free (theirs);
  }
  free (pooled);
  free (rows);
  free (frame_num);
  return failed;
}

int
main (int argc, char **argv)
{
  const CompareVmafModel *model_ptr[N_MODELS];
  CompareVmafModel *loaded[N_MODELS];
  char path[4096], error[256];
  size_t length;
  char *text;
  VmafJson *golden;
  const VmafJson *metrics, *pooled, *pair;
  int w, h, depth, frames, failed = 0;

  if (argc != 4 && argc != 5) {
    fprintf (stderr, "usage: %s GOLDEN.json CLIPDIR MODELDIR [LOGDIR]\n",
        argv[0]);
    return 2;
  }
  text = read_file (argv[1], &length);
  if (!text) {
    fprintf (stderr, "%s: cannot read\n", argv[1]);
    return 2;
  }
  golden = vmaf_json_parse (text, length, error, sizeof (error));
  free (text);
  if (!golden) {
    fprintf (stderr, "%s: %s\n", argv[1], error);
    return 2;
  }
  pair = vmaf_json_member (golden, "pair");
  metrics = vmaf_json_member (golden, "metrics_micro");
  pooled = vmaf_json_member (golden, "pooled_micro");
  w = member_int (golden, "width");
  h = member_int (golden, "height");
  depth = member_int (golden, "depth");
  frames = member_int (golden, "frames");
  if (!pair || pair->type != VMAF_JSON_STRING || !metrics || !pooled ||
      w <= 0 ||
      h <= 0 || (depth != 8 && depth != 10) || frames <= 0) {
    fprintf (stderr, "%s: not a golden file\n", argv[1]);
    return 2;
  }

  for (int m = 0; m < N_MODELS; m++) {
    snprintf (path, sizeof (path), "%s/%s", argv[3], models[m].file);
    loaded[m] = compare_vmaf_model_load_file (path, models[m].flags, error,
        sizeof (error));
    if (!loaded[m]) {
      fprintf (stderr, "%s\n", error);
      return 2;
    }
    model_ptr[m] = loaded[m];
  }
  CompareVmafStream *stream = compare_vmaf_stream_new (model_ptr, N_MODELS);
  CompareVmafFrame frame;
  int done;

  /* The columns, laid out by a first (empty) frame record. */
  int n_cols = 0;
  for (const VmafJson * m = metrics->child; m; m = m->next)
    n_cols++;
  Column *cols = calloc (n_cols, sizeof (Column));
  {
    int k = 0;
    CompareVmafFrame layout;

    memset (&layout, 0, sizeof (layout));
    /* The stream's sets: default first, then gain limit 1 (neg). */
    layout.n_sets = 2;
    layout.vif_egl[0] = layout.adm_egl[0] = COMPARE_VMAF_EGL_DEFAULT;
    layout.vif_egl[1] = layout.adm_egl[1] = 1.0;
    for (const VmafJson * m = metrics->child; m; m = m->next, k++) {
      cols[k].values = m;
      cols[k].name = m->key;
      compare_vmaf_pool_init (&cols[k].pool);
      if (m->type != VMAF_JSON_ARRAY || column_of (&cols[k], &layout) != 0) {
        fprintf (stderr, "%s: metric %s is not one of ours\n", argv[1],
            m->key);
        return 2;
      }
    }
  }

  const size_t bytes = depth > 8 ? 2 : 1;
  const size_t cw = (w + 1) / 2, ch = (h + 1) / 2;
  const size_t frame_size = ((size_t) w * h + 2 * cw * ch) * bytes;
  uint8_t *ref = malloc (frame_size), *dist = malloc (frame_size);
  FILE *fr, *fd;

  snprintf (path, sizeof (path), "%s/%s.ref.yuv", argv[2], pair->string);
  fr = fopen (path, "rb");
  snprintf (path, sizeof (path), "%s/%s.dist.yuv", argv[2], pair->string);
  fd = fopen (path, "rb");
  if (!fr || !fd || !ref || !dist || !stream || !cols) {
    fprintf (stderr, "%s: clips not found in %s (vmaf_pairs.py makes "
        "them)\n", pair->string, argv[2]);
    return 2;
  }

  CompareVmafPlane rp = { ref, w * bytes, w, h, depth };
  CompareVmafPlane dp = { dist, w * bytes, w, h, depth };
  CompareVmafFrame *all = calloc (frames, sizeof (CompareVmafFrame));
  int n = 0, n_done = 0;

  if (!all)
    return 2;

  for (; n < frames; n++) {
    SharpnessStatus st;

    if (fread (ref, 1, frame_size, fr) != frame_size ||
        fread (dist, 1, frame_size, fd) != frame_size) {
      fprintf (stderr, "%s: clip shorter than %d frames\n", pair->string,
          frames);
      return 1;
    }
    st = compare_vmaf_stream_push (stream, &rp, &dp, &frame, &done);
    if (st != SHARPNESS_OK) {
      fprintf (stderr, "%s: frame %d: %s\n", pair->string, n,
          sharpness_status_to_string (st));
      return 1;
    }
    if (done) {
      compare_frame (cols, n_cols, &frame);
      all[n_done++] = frame;
    }
  }
  if (compare_vmaf_stream_flush (stream, &frame)) {
    compare_frame (cols, n_cols, &frame);
    all[n_done++] = frame;
  }

  printf ("%s: %dx%d %d-bit, %d frames\n", pair->string, w, h, depth,
      frames);
  for (int k = 0; k < n_cols; k++) {
    const VmafJson *gp = vmaf_json_member (pooled, cols[k].name);
    double ours[COMPARE_VMAF_N_POOLS];
    int pool_equal = 0, p = 0;

    compare_vmaf_pool_result (&cols[k].pool, ours);
    for (const VmafJson * v = gp ? gp->child : NULL; v &&
        p < COMPARE_VMAF_N_POOLS; v = v->next, p++)
      pool_equal += v->type == VMAF_JSON_NUMBER &&
          same_digits (ours[p], (long long) v->number);
    printf ("  %-28s %ld/%d equal, pooled %d/%d equal", cols[k].name,
        cols[k].equal, frames, pool_equal, COMPARE_VMAF_N_POOLS);
    if (cols[k].differ) {
      printf ("  DIFFER from frame %ld, max |diff| %.6g", cols[k].first_differ,
          cols[k].max_diff);
      failed = 1;
    }
    if (pool_equal != COMPARE_VMAF_N_POOLS) {
      printf ("  POOLED DIFFER");
      failed = 1;
    }
    printf ("\n");
  }

  if (argc == 5 && n_done > 0)
    failed |= compare_logs (argv[4], pair->string, all, n_done, cols, n_cols,
        w, h);

  fclose (fr);
  fclose (fd);
  free (all);
  free (ref);
  free (dist);
  free (cols);
  compare_vmaf_stream_free (stream);
  for (int m = 0; m < N_MODELS; m++)
    compare_vmaf_model_free (loaded[m]);
  vmaf_json_free (golden);
  return failed;
}
