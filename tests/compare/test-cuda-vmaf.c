/* cuda/compare's VMAF kernels against the CPU extractors: every feature
 * of every frame (motion, VIF's four scales, ADM2 and its four scales, for
 * the default and the "neg" model's gain limits at once) and each model's
 * score equal to the bit, over sequences of moving content with blur,
 * noise, banding, flat and black areas, a scene cut and an identical
 * pair; 8, 10 and 12 bits; the smallest size, odd sizes, 360p to 4K;
 * padded strides.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Usage: test-cuda-vmaf [--quick] [--max-width N]
 *   --quick: 3 frames a size, none wider than 1920 (for memcheck);
 *   --max-width: sizes up to N wide (tests/compare/cuda-emu: 128)
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

#include "compare-vmaf-cuda.h"
#include "vmaf-sample.h"

static int failures;
static uint32_t rng = 2463534242u;

static unsigned
rnd (void)
{
  rng ^= rng << 13;
  rng ^= rng >> 17;
  rng ^= rng << 5;
  return rng;
}

typedef struct
{
  int w, h, depth;
  size_t stride;
  uint8_t *host[2];             /* reference, distorted */
  void *dev[2];
} Frames;

/* Frame @n of a sequence: textured content panning by @n, with a flat
 * band and a black corner; frame @cut onwards other content.  The
 * distortion of kind @n % 4: blur and noise, banding (coarse steps), the
 * reference itself, contrast boosted (VIF's gain over 1, ADM's angle
 * case). */
static void
make_frame (Frames * f, int n, int cut)
{
  const int w = f->w, h = f->h, depth = f->depth;
  const double max = (1 << depth) - 1;
  const int scene = n >= cut;
  const int kind = n % 4;

  for (int y = 0; y < h; y++) {
    uint8_t *r = f->host[0] + (size_t) y * f->stride;

    for (int x = 0; x < w; x++) {
      const double X = x + 3 * n, Y = y + n;
      double v;

      if (y > h / 3 && y < h / 3 + h / 10)
        v = 0.42;               /* flat */
      else if (x < w / 8 && y > h - h / 8)
        v = 0.0;                /* black */
      else if (!scene)
        v = 0.5 + 0.22 * sin (X * 0.043) * cos (Y * 0.029) +
            0.12 * sin ((X + 2 * Y) * 0.31) + 0.08 * ((int) (X / 37 +
                Y / 23) % 2) + 0.02 * ((rnd () % 1000) / 1000.0 - 0.5);
      else
        v = 0.35 + 0.3 * cos (X * 0.011 + Y * 0.017) + 0.1 * sin (X * Y *
            1e-4) + 0.05 * ((rnd () % 1000) / 1000.0 - 0.5);
      vmaf_sample_put (r, x, depth, (int) lrint (v * max));
    }
  }
  for (int y = 0; y < h; y++) {
    uint8_t *d = f->host[1] + (size_t) y * f->stride;

    for (int x = 0; x < w; x++) {
      int acc = 0, cnt = 0, c;

      for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) {
          const int yy = y + dy, xx = x + dx;
          const uint8_t *rr;

          if (yy < 0 || yy >= h || xx < 0 || xx >= w)
            continue;
          rr = f->host[0] + (size_t) yy * f->stride;
          acc += depth == 8 ? rr[xx] : rr[2 * xx] | (rr[2 * xx + 1] << 8);
          cnt++;
        }
      {
        const uint8_t *rr = f->host[0] + (size_t) y * f->stride;
        c = depth == 8 ? rr[x] : rr[2 * x] | (rr[2 * x + 1] << 8);
      }
      switch (kind) {
        case 0:
          c = acc / cnt + (int) (rnd () % 9) - 4;
          break;
        case 1:
          c = c >> (depth - 5) << (depth - 5);
          break;
        case 2:
          break;
        default:
          c = (int) ((c - max / 2) * 1.6 + max / 2);
          break;
      }
      vmaf_sample_put (d, x, depth, c);
    }
  }
}

static int
frames_new (Frames * f, int w, int h, int depth)
{
  const size_t bps = depth > 8 ? 2 : 1;

  memset (f, 0, sizeof (*f));
  f->w = w;
  f->h = h;
  f->depth = depth;
  /* Padded (not a multiple of 4): the kernels honour the stride. */
  f->stride = w * bps + 6;
  for (int i = 0; i < 2; i++) {
    f->host[i] = calloc (f->stride, h);
    if (!f->host[i] || cudaMalloc (&f->dev[i], f->stride * h) != cudaSuccess)
      return -1;
  }
  return 0;
}

static void
frames_free (Frames * f)
{
  for (int i = 0; i < 2; i++) {
    free (f->host[i]);
    cudaFree (f->dev[i]);
  }
}

static const char *
output_name (int o)
{
  return compare_vmaf_output_info[o].name;
}

static void
check_frame (const char *what, const CompareVmafFrame * c,
    const CompareVmafFrame * g)
{
  if (c->index != g->index || c->n_sets != g->n_sets) {
    failures++;
    printf ("FAIL %s: frame %llu/%llu sets %d/%d\n", what,
        (unsigned long long) c->index, (unsigned long long) g->index,
        c->n_sets, g->n_sets);
    return;
  }
  for (int k = 0; k < c->n_sets; k++)
    for (int o = 0; o < COMPARE_VMAF_N_OUTPUTS; o++)
      if (memcmp (&c->value[k][o], &g->value[k][o], sizeof (double))) {
        failures++;
        printf ("FAIL %s frame %llu set %d %s: cuda %.17g cpu %.17g\n", what,
            (unsigned long long) c->index, k, output_name (o),
            g->value[k][o], c->value[k][o]);
      }
  for (int m = 0; m < c->n_models; m++)
    if (memcmp (&c->score[m], &g->score[m], sizeof (double))) {
      failures++;
      printf ("FAIL %s frame %llu model %d score: cuda %.17g cpu %.17g\n",
          what, (unsigned long long) c->index, m, g->score[m], c->score[m]);
    }
}

/* @n frames of @w x @h at @depth, a scene cut at @cut, through both
 * extractors (two models: two gain-limit sets). */
static void
check_sequence (CompareVmafCuda * vc, const CompareVmafModel * const *models,
    int w, int h, int depth, int n, int cut)
{
  CompareVmafStream *cpu = compare_vmaf_stream_new (models, 2);
  CompareVmafStream *gpu = compare_vmaf_stream_new (models, 2);
  CompareVmafExtractor ex;
  CompareVmafFrame fc, fg;
  Frames f;
  char what[96];
  int frames = 0;

  snprintf (what, sizeof (what), "%dx%d %d-bit", w, h, depth);
  compare_vmaf_cuda_extractor (vc, &ex);
  if (!cpu || !gpu || frames_new (&f, w, h, depth)) {
    failures++;
    printf ("FAIL %s: cannot allocate\n", what);
    goto out;
  }
  for (int i = 0; i < n; i++) {
    const CompareVmafPlane hr = { f.host[0], f.stride, w, h, depth };
    const CompareVmafPlane hd = { f.host[1], f.stride, w, h, depth };
    const CompareVmafPlane dr = { f.dev[0], f.stride, w, h, depth };
    const CompareVmafPlane dd = { f.dev[1], f.stride, w, h, depth };
    int done_c, done_g;
    SharpnessStatus sc, sg;

    make_frame (&f, i, cut);
    for (int k = 0; k < 2; k++)
      if (cudaMemcpy (f.dev[k], f.host[k], f.stride * h,
              cudaMemcpyHostToDevice) != cudaSuccess) {
        failures++;
        printf ("FAIL %s: upload\n", what);
        goto out;
      }
    sc = compare_vmaf_stream_push (cpu, &hr, &hd, &fc, &done_c);
    sg = compare_vmaf_stream_push_with (gpu, &ex, &dr, &dd, &fg, &done_g);
    if (sc != SHARPNESS_OK || sg != SHARPNESS_OK || done_c != done_g) {
      failures++;
      printf ("FAIL %s frame %d: cpu %d, cuda %d (%s), done %d/%d\n", what,
          i, sc, sg, compare_vmaf_cuda_last_error (vc), done_c, done_g);
      goto out;
    }
    if (done_c) {
      check_frame (what, &fc, &fg);
      frames++;
    }
  }
  if (compare_vmaf_stream_flush (cpu, &fc) != 1 ||
      compare_vmaf_stream_flush (gpu, &fg) != 1) {
    failures++;
    printf ("FAIL %s: flush\n", what);
    goto out;
  }
  check_frame (what, &fc, &fg);
  frames++;
  printf ("%s: %d frames, last vmaf %.6f (neg %.6f), motion2 %.6f\n", what,
      frames, fc.score[0], fc.score[1], fc.value[0][COMPARE_VMAF_OUT_MOTION2]);
out:
  frames_free (&f);
  compare_vmaf_stream_free (cpu);
  compare_vmaf_stream_free (gpu);
}

int
main (int argc, char **argv)
{
  static const struct
  {
    int w, h, depth, n, cut;
  } cases[] = {
    {64, 64, 8, 5, 3}, {65, 67, 10, 5, 9}, {127, 129, 8, 4, 2},
    {97, 71, 12, 3, 9},
    {640, 360, 8, 6, 4}, {640, 360, 10, 6, 9}, {721, 405, 12, 4, 9},
    {853, 481, 10, 5, 3}, {1279, 719, 8, 3, 9}, {1920, 1080, 8, 4, 2},
    {1920, 1080, 10, 3, 9}, {3840, 2160, 8, 2, 9}, {3840, 2160, 10, 2, 9},
  };
  int quick = 0, max_width = 1 << 30;
  CompareVmafModel *models[2];
  CompareVmafCuda *vc;
  char err[256];
  int n = 0;

  for (int i = 1; i < argc; i++) {
    if (!strcmp (argv[i], "--quick")) {
      quick = 1;
      max_width = max_width < 1920 ? max_width : 1920;
    } else if (!strcmp (argv[i], "--max-width") && i + 1 < argc) {
      max_width = atoi (argv[++i]);
    } else {
      printf ("usage: %s [--quick] [--max-width N]\n", argv[0]);
      return 2;
    }
  }
  if (cudaGetDeviceCount (&n) != cudaSuccess || n == 0) {
    printf ("skipped: no CUDA device\n");
    return 77;
  }
  models[0] = compare_vmaf_model_load_builtin ("vmaf_v0.6.1", 0, err,
      sizeof (err));
  models[1] = compare_vmaf_model_load_builtin ("vmaf_v0.6.1neg", 0, err,
      sizeof (err));
  if (!models[0] || !models[1]) {
    printf ("FAIL: models: %s\n", err);
    return 1;
  }
  if (compare_vmaf_cuda_new (NULL, &vc) != SHARPNESS_OK) {
    printf ("FAIL: compare_vmaf_cuda_new: %s\n",
        compare_vmaf_cuda_last_error (NULL));
    return 1;
  }
  for (size_t i = 0; i < sizeof (cases) / sizeof (cases[0]); i++) {
    if (cases[i].w > max_width)
      continue;
    check_sequence (vc, (const CompareVmafModel * const *) models,
        cases[i].w, cases[i].h, cases[i].depth, quick ? 3 : cases[i].n,
        cases[i].cut);
  }
  compare_vmaf_cuda_free (vc);
  compare_vmaf_model_free (models[0]);
  compare_vmaf_model_free (models[1]);
  printf ("%s: %d failures\n", failures ? "FAIL" : "PASS", failures);
  return failures ? 1 : 0;
}
