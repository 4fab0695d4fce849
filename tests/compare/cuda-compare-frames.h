/* Frame pairs for the CUDA compare test and benchmark: host frames with
 * padded strides, copied to device memory; compare_cuda_compute of a few
 * metrics as one status.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef CUDA_COMPARE_FRAMES_H
#define CUDA_COMPARE_FRAMES_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime.h>

#include "compare-cuda.h"

typedef struct
{
  ComparePair host, dev;
  void *hbuf[2], *dbuf[2];
} TestPair;

static uint32_t test_rng = 987654321u;

static inline unsigned
test_rand (void)
{
  test_rng ^= test_rng << 13;
  test_rng ^= test_rng >> 17;
  test_rng ^= test_rng << 5;
  return test_rng;
}

/* 4:2:0 (or gray with @planes 1) pair of @w x @h; @kind 0: uniform noise,
 * 1: smooth "natural" content with a distortion of noise and a shift. */
static inline int
test_pair_new (TestPair * t, int w, int h, int planes, int depth, int pad,
    int kind)
{
  int bps = depth > 8 ? 2 : 1, max = (1 << depth) - 1;
  size_t off[3], total = 0;

  memset (t, 0, sizeof (*t));
  t->host.n_planes = planes;
  t->host.depth = depth;
  for (int c = 0; c < planes; c++) {
    t->host.width[c] = c ? (w + 1) / 2 : w;
    t->host.height[c] = c ? (h + 1) / 2 : h;
    t->host.ref_stride[c] = t->host.dist_stride[c] =
        (size_t) t->host.width[c] * bps + pad;
    off[c] = total;
    total += t->host.ref_stride[c] * t->host.height[c];
  }
  for (int i = 0; i < 2; i++) {
    t->hbuf[i] = calloc (1, total);
    if (!t->hbuf[i] || cudaMalloc (&t->dbuf[i], total) != cudaSuccess)
      return -1;
  }
  for (int c = 0; c < planes; c++) {
    uint8_t *r = (uint8_t *) t->hbuf[0] + off[c];
    uint8_t *d = (uint8_t *) t->hbuf[1] + off[c];
    int pw = t->host.width[c], ph = t->host.height[c];
    for (int y = 0; y < ph; y++)
      for (int x = 0; x < pw; x++) {
        int a, b;
        if (kind == 0) {
          a = test_rand () % (max + 1);
          b = test_rand () % 4 ? a : (int) (test_rand () % (max + 1));
        } else {
          double v = 0.5 + 0.25 * sin (x * 0.05 + c) * cos (y * 0.031)
              + 0.2 * sin ((x + 2 * y) * 0.3);
          double v2 = 0.5 + 0.25 * sin ((x + 1) * 0.05 + c) * cos (y * 0.031)
              + 0.2 * sin ((x + 1 + 2 * y) * 0.3);
          a = (int) (v * max);
          b = (int) (v2 * max) + (int) (test_rand () % 9) - 4;
        }
        a = a < 0 ? 0 : a > max ? max : a;
        b = b < 0 ? 0 : b > max ? max : b;
        if (bps == 1) {
          r[y * t->host.ref_stride[c] + x] = (uint8_t) a;
          d[y * t->host.ref_stride[c] + x] = (uint8_t) b;
        } else {
          r[y * t->host.ref_stride[c] + 2 * x] = a & 0xff;
          r[y * t->host.ref_stride[c] + 2 * x + 1] = a >> 8;
          d[y * t->host.ref_stride[c] + 2 * x] = b & 0xff;
          d[y * t->host.ref_stride[c] + 2 * x + 1] = b >> 8;
        }
      }
  }
  t->dev = t->host;
  for (int c = 0; c < planes; c++) {
    t->host.ref[c] = (uint8_t *) t->hbuf[0] + off[c];
    t->host.dist[c] = (uint8_t *) t->hbuf[1] + off[c];
    t->dev.ref[c] = (uint8_t *) t->dbuf[0] + off[c];
    t->dev.dist[c] = (uint8_t *) t->dbuf[1] + off[c];
  }
  for (int i = 0; i < 2; i++)
    if (cudaMemcpy (t->dbuf[i], t->hbuf[i], total, cudaMemcpyHostToDevice)
        != cudaSuccess)
      return -1;
  return 0;
}

static inline void
test_pair_free (TestPair * t)
{
  for (int i = 0; i < 2; i++) {
    free (t->hbuf[i]);
    cudaFree (t->dbuf[i]);
  }
}

/* compare_cuda_compute of @metrics (CompareMetrics): the call's error,
 * else the first requested metric's refusal, else SHARPNESS_OK. */
static inline SharpnessStatus
test_compute (CompareCuda * cuda, const ComparePair * pair, unsigned metrics,
    int wang, int downsample, CompareResult * r)
{
  const CompareRequest req = { metrics, wang, downsample };
  SharpnessStatus st = compare_cuda_compute (cuda, pair, &req, r);

  for (int m = 0; st == SHARPNESS_OK && m < COMPARE_N_METRICS; m++)
    if (metrics & (1u << m))
      st = r->status[m];
  return st;
}

static inline int
test_have_device (void)
{
  int n = 0;
  return cudaGetDeviceCount (&n) == cudaSuccess && n > 0;
}

#endif /* CUDA_COMPARE_FRAMES_H */
