/* BLIINDS-II prediction model: the embedded LIVE model on the 982 LIVE
 * training feature vectors of the reference release must rank them like
 * their DMOS (Spearman 0.942 +- 0.001, the figure of the release), and a
 * vector so far from the model that every p(d) is 0 must predict the first
 * grid value.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Usage: test-bliinds2-model FEATURES.csv [--print]
 *        test-bliinds2-model --dump-model
 * --print writes every prediction (%.17g, one per line) to stdout and
 * --dump-model the embedded numbers (b, gamma, mu, sigma_inv row by row),
 * for test_bliinds2_model.py to compare with the oracle and the text file.
 */
#include "bliinds2.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_COLUMNS (SHARPNESS_BLIINDS2_N_FEATURES + 1)
#define MAX_ROWS 4096

#define EXPECTED_SPEARMAN 0.942
#define SPEARMAN_TOLERANCE 0.001

typedef struct
{
  double value;
  int index;
} Ranked;

static int
compare_ranked (const void *pa, const void *pb)
{
  const Ranked *a = pa, *b = pb;
  return (a->value > b->value) - (a->value < b->value);
}

/* Ranks 1..n, ties sharing their average rank. */
static int
rank (const double *x, int n, double *ranks)
{
  Ranked *r = malloc (n * sizeof *r);
  if (!r)
    return -1;
  for (int i = 0; i < n; i++)
    r[i] = (Ranked) { x[i], i };
  qsort (r, n, sizeof *r, compare_ranked);
  for (int i = 0; i < n;) {
    int j = i;
    while (j + 1 < n && r[j + 1].value == r[i].value)
      j++;
    for (int k = i; k <= j; k++)
      ranks[r[k].index] = (i + j) / 2.0 + 1.0;
    i = j + 1;
  }
  free (r);
  return 0;
}

static double
pearson (const double *x, const double *y, int n)
{
  double mx = 0, my = 0, sxy = 0, sxx = 0, syy = 0;
  for (int i = 0; i < n; i++) {
    mx += x[i];
    my += y[i];
  }
  mx /= n;
  my /= n;
  for (int i = 0; i < n; i++) {
    sxy += (x[i] - mx) * (y[i] - my);
    sxx += (x[i] - mx) * (x[i] - mx);
    syy += (y[i] - my) * (y[i] - my);
  }
  return sxy / sqrt (sxx * syy);
}

/* Reads the header line then rows of N_COLUMNS comma-separated numbers. */
static int
read_csv (const char *path, double (*rows)[N_COLUMNS], int max_rows)
{
  FILE *f = fopen (path, "r");
  char line[8192];
  int n = 0;

  if (!f) {
    perror (path);
    return -1;
  }
  if (!fgets (line, sizeof line, f)) {
    fprintf (stderr, "%s: empty\n", path);
    fclose (f);
    return -1;
  }
  while (fgets (line, sizeof line, f)) {
    char *p = line, *end;
    if (n == max_rows) {
      fprintf (stderr, "%s: more than %d rows\n", path, max_rows);
      n = -1;
      break;
    }
    for (int c = 0; c < N_COLUMNS; c++) {
      int last = c + 1 == N_COLUMNS;
      rows[n][c] = strtod (p, &end);
      if (end == p || (last ? !strchr ("\r\n", *end) : *end != ',')) {
        fprintf (stderr, "%s:%d: bad column %d\n", path, n + 2, c + 1);
        fclose (f);
        return -1;
      }
      p = end + 1;
    }
    n++;
  }
  fclose (f);
  return n;
}

static void
dump_model (const SharpnessBliinds2Model * m)
{
  printf ("%.17g\n%.17g\n", m->b, m->gamma);
  for (int i = 0; i < SHARPNESS_BLIINDS2_MODEL_DIM; i++)
    printf ("%.17g\n", m->mu[i]);
  for (int i = 0; i < SHARPNESS_BLIINDS2_MODEL_DIM; i++)
    for (int j = 0; j < SHARPNESS_BLIINDS2_MODEL_DIM; j++)
      printf ("%.17g\n", m->sigma_inv[i][j]);
}

int
main (int argc, char **argv)
{
  static double rows[MAX_ROWS][N_COLUMNS];
  static double predicted[MAX_ROWS], dmos[MAX_ROWS];
  static double rank_p[MAX_ROWS], rank_d[MAX_ROWS];
  int print = argc > 2 && strcmp (argv[2], "--print") == 0;

  if (argc == 2 && strcmp (argv[1], "--dump-model") == 0) {
    dump_model (&sharpness_bliinds2_live_model);
    return 0;
  }
  if (argc < 2) {
    fprintf (stderr, "usage: %s FEATURES.csv [--print] | --dump-model\n",
        argv[0]);
    return 2;
  }

  /* Far from the model every p(d) underflows to 0: the tie keeps the
   * first grid value, as MATLAB's max does. */
  double far[SHARPNESS_BLIINDS2_N_FEATURES];
  for (int i = 0; i < SHARPNESS_BLIINDS2_N_FEATURES; i++)
    far[i] = 1e3;
  double tie = sharpness_bliinds2_predict (&sharpness_bliinds2_live_model,
      far);
  if (tie != 0.0) {
    fprintf (stderr, "FAIL: all-zero p predicts %g, want 0\n", tie);
    return 1;
  }

  int n = read_csv (argv[1], rows, MAX_ROWS);
  if (n < 2) {
    fprintf (stderr, "no usable rows in %s\n", argv[1]);
    return 1;
  }

  for (int i = 0; i < n; i++) {
    predicted[i] = sharpness_bliinds2_predict (&sharpness_bliinds2_live_model,
        rows[i]);
    dmos[i] = rows[i][N_COLUMNS - 1];
    if (print)
      printf ("%.17g\n", predicted[i]);
  }

  if (rank (predicted, n, rank_p) || rank (dmos, n, rank_d)) {
    fprintf (stderr, "out of memory\n");
    return 1;
  }
  double rho = pearson (rank_p, rank_d, n);
  fprintf (stderr, "%d rows: Spearman(prediction, DMOS) = %.6f\n", n, rho);
  if (!(fabs (rho - EXPECTED_SPEARMAN) <= SPEARMAN_TOLERANCE)) {
    fprintf (stderr, "FAIL: expected %.3f +- %.3f\n", EXPECTED_SPEARMAN,
        SPEARMAN_TOLERANCE);
    return 1;
  }
  return 0;
}
