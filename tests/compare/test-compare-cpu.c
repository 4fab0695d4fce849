/* Hand-made cases of the CPU compare backend: identical frames (inf, 1),
 * a constant offset (exact MSE), odd sizes, tiny planes, 16-bit samples,
 * scratch reuse, the FFmpeg-format lines, the SSIM row tail (every valid
 * window counted once, whatever the width mod 16), and compare_compute's
 * dispatch.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "compare.h"
#include "compare-metric.h"
#include "compare-private.h"
#include "test-check.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t rng = 12345;
static unsigned
rnd (void)
{
  rng = rng * 1664525u + 1013904223u;
  return rng >> 8;
}

/* A 4:2:0 pair of w x h in one buffer each, rows padded by @pad bytes. */
static void
make_pair (ComparePair * p, int w, int h, int depth, int pad, uint8_t ** a,
    uint8_t ** b)
{
  int bps = depth > 8 ? 2 : 1;
  size_t total = 0, off[3];

  memset (p, 0, sizeof (*p));
  p->n_planes = 3;
  p->depth = depth;
  for (int c = 0; c < 3; c++) {
    p->width[c] = c ? (w + 1) / 2 : w;
    p->height[c] = c ? (h + 1) / 2 : h;
    p->ref_stride[c] = p->dist_stride[c] = (size_t) p->width[c] * bps + pad;
    off[c] = total;
    total += p->ref_stride[c] * p->height[c];
  }
  *a = malloc (total);
  *b = malloc (total);
  for (size_t i = 0; i < total; i++)
    (*a)[i] = (*b)[i] = 0;
  for (int c = 0; c < 3; c++) {
    p->ref[c] = *a + off[c];
    p->dist[c] = *b + off[c];
    for (int y = 0; y < p->height[c]; y++)
      for (int x = 0; x < p->width[c]; x++) {
        unsigned v = (x * 7 + y * 3 + (rnd () & 31)) & ((1u << (depth - 1)) - 1);
        uint8_t *ra = *a + off[c] + y * p->ref_stride[c];
        uint8_t *rb = *b + off[c] + y * p->ref_stride[c];
        if (bps == 1)
          ra[x] = rb[x] = (uint8_t) v;
        else {
          ra[2 * x] = rb[2 * x] = v & 0xff;
          ra[2 * x + 1] = rb[2 * x + 1] = v >> 8;
        }
      }
  }
}

/* SSIM (ffmpeg mode) of a random 8-bit gray pair of w x h, and the same
 * from a plain sum of every valid 8x8 window (stride 4): the row tail of
 * the SSE4 lane order must count each valid window once (FFmpeg 5.1's
 * dropped the last one when (w >> 2) % 4 == 2). */
static void
check_ssim_tail (CompareScratch * s, int w, int h)
{
  uint8_t *a = malloc ((size_t) w * h), *b = malloc ((size_t) w * h);
  ComparePair p;
  CompareSsim ss;
  double sum = 0.0;
  int w4 = w >> 2, h4 = h >> 2;

  for (int i = 0; i < w * h; i++) {
    a[i] = (uint8_t) (rnd () & 0xff);
    b[i] = (uint8_t) ((a[i] + (rnd () & 63)) & 0xff);
  }
  memset (&p, 0, sizeof (p));
  p.n_planes = 1;
  p.depth = 8;
  p.width[0] = w;
  p.height[0] = h;
  p.ref[0] = a;
  p.dist[0] = b;
  p.ref_stride[0] = p.dist_stride[0] = (size_t) w;
  for (int y = 0; y < h4 - 1; y++)
    for (int x = 0; x < w4 - 1; x++) {
      int64_t s1 = 0, s2 = 0, sq = 0, s12 = 0;
      for (int j = 4 * y; j < 4 * y + 8; j++)
        for (int i = 4 * x; i < 4 * x + 8; i++) {
          int64_t va = b[j * w + i], vb = a[j * w + i];
          s1 += va;
          s2 += vb;
          sq += va * va + vb * vb;
          s12 += va * vb;
        }
      sum += compare_ssim_ffmpeg_window (s1, s2, sq, s12, 255, 0);
    }
  sum /= (double) (w4 - 1) * (h4 - 1);
  CHECKF (compare_ssim_ffmpeg (s, &p, &ss) == SHARPNESS_OK
      && fabs (ss.ssim[0] - sum) <= 1e-12 * fabs (sum),
      "ssim tail w %d: %.17g, plain sum %.17g", w, ss.ssim[0], sum);
  free (a);
  free (b);
}

/* Where each metric's values are in a CompareResult: its member is named
 * by the table's sym column. */
#define VALUE_ROW(ID, sym, nick, display, desc, cf, cw) \
  [COMPARE_METRIC_ID_##ID] = { offsetof (CompareResult, sym), \
    sizeof (((CompareResult *) 0)->sym) },
static const struct
{
  size_t offset, size;
} value_of[COMPARE_N_METRICS] = {
  COMPARE_METRIC_TABLE (VALUE_ROW)
};
#undef VALUE_ROW

/* compare_compute, for every set of metrics and both SSIM modes: each
 * requested metric's status and values to the bit as its own function
 * gives them (both results zeroed first), UNSUPPORTED for the others. */
static void
check_compute (CompareScratch * s, const ComparePair * p, const char *what)
{
  for (unsigned metrics = 0; metrics < 1u << COMPARE_N_METRICS; metrics++)
    for (int wang = 0; wang < 2; wang++) {
      const CompareRequest req = { metrics, wang, wang };
      SharpnessStatus want[COMPARE_N_METRICS];
      CompareResult r, w;

      memset (&r, 0, sizeof r);
      memset (&w, 0, sizeof w);
      want[COMPARE_METRIC_ID_PSNR] = compare_psnr (p, &w.psnr);
      want[COMPARE_METRIC_ID_SSIM] = wang ?
          compare_ssim_wang (s, p, 1, &w.ssim) :
          compare_ssim_ffmpeg (s, p, &w.ssim);
      want[COMPARE_METRIC_ID_MS_SSIM] = compare_ms_ssim (s, p, &w.ms_ssim);
      compare_compute (s, p, &req, &r);
      for (int m = 0; m < COMPARE_N_METRICS; m++) {
        const int asked = (metrics & (1u << m)) != 0;
        const SharpnessStatus st = asked ? want[m] :
            SHARPNESS_ERROR_UNSUPPORTED;

        CHECKF (r.status[m] == st, "%s compute %#x%s: %s status %d, want %d",
            what, metrics, wang ? " wang" : "", compare_metric_info[m].nick,
            r.status[m], st);
        CHECKF (!asked || st != SHARPNESS_OK
            || !memcmp ((const char *) &r + value_of[m].offset,
                (const char *) &w + value_of[m].offset, value_of[m].size),
            "%s compute %#x%s: %s values", what, metrics,
            wang ? " wang" : "", compare_metric_info[m].nick);
      }
    }
}

int
main (void)
{
  CompareScratch *s = compare_scratch_new ();
  ComparePair p;
  ComparePsnr ps;
  CompareSsim ss;
  CompareMsSsim ms;
  uint8_t *a, *b;
  char line[512];

  /* identical 8-bit frames */
  make_pair (&p, 201, 187, 8, 3, &a, &b);
  CHECKF (compare_psnr (&p, &ps) == SHARPNESS_OK, "psnr");
  CHECKF (ps.sse[0] == 0 && isinf (ps.psnr[0]) && isinf (ps.psnr_avg),
      "identical psnr %g", ps.psnr[0]);
  compare_format_psnr_line (line, sizeof line, 1, &ps, &p, 0);
  CHECKF (!strcmp (line, "n:1 mse_avg:0.00 mse_y:0.00 mse_u:0.00 mse_v:0.00 "
          "psnr_avg:inf psnr_y:inf psnr_u:inf psnr_v:inf "), "line '%s'", line);
  CHECKF (compare_ssim_ffmpeg (s, &p, &ss) == SHARPNESS_OK, "ssim");
  CHECKF (ss.ssim[0] == 1.0 && ss.all == 1.0 && isinf (ss.db), "ssim 1");
  compare_format_ssim_line (line, sizeof line, 1, &ss, 0);
  CHECKF (!strcmp (line, "n:1 Y:1.000000 U:1.000000 V:1.000000 "
          "All:1.000000 (inf)"), "line '%s'", line);
  CHECKF (compare_ssim_wang (s, &p, 0, &ss) == SHARPNESS_OK
      && fabs (ss.all - 1.0) < 1e-12, "wang 1: %.17g", ss.all);
  CHECKF (compare_ms_ssim (s, &p, &ms) == SHARPNESS_OK
      && fabs (ms.ms_ssim - 1.0) < 1e-12, "ms-ssim 1");

  /* a constant offset of 3 on luma: sse = 9 w h */
  for (int y = 0; y < p.height[0]; y++)
    for (int x = 0; x < p.width[0]; x++) {
      uint8_t *r = (uint8_t *) p.dist[0] + y * p.dist_stride[0];
      r[x] = ((const uint8_t *) p.ref[0])[y * p.ref_stride[0] + x] + 3;
    }
  compare_psnr (&p, &ps);
  CHECKF (ps.sse[0] == 9ull * 201 * 187 && ps.mse[0] == 9.0,
      "offset sse %llu", (unsigned long long) ps.sse[0]);
  CHECKF (fabs (ps.psnr[0] - 10 * log10 (255.0 * 255 / 9)) < 1e-12, "psnr");
  CHECKF (compare_psnr_average_max (&p) == 255, "average max %d",
      compare_psnr_average_max (&p));
  compare_ssim_ffmpeg (s, &p, &ss);
  CHECKF (ss.ssim[0] < 1.0 && ss.ssim[0] > 0.9 && ss.ssim[1] == 1.0,
      "offset ssim %g", ss.ssim[0]);
  free (a);
  free (b);

  /* 10-bit, odd size, reuse of the scratch for a smaller frame */
  make_pair (&p, 177, 181, 10, 0, &a, &b);
  ((uint8_t *) p.dist[0])[0] ^= 0x01;
  CHECKF (compare_psnr (&p, &ps) == SHARPNESS_OK && ps.sse[0] == 1,
      "10-bit sse %llu", (unsigned long long) ps.sse[0]);
  CHECKF (compare_ssim_ffmpeg (s, &p, &ss) == SHARPNESS_OK
      && ss.ssim[0] < 1.0 && ss.ssim[0] > 0.999, "10-bit ssim %.9f",
      ss.ssim[0]);
  CHECKF (compare_ms_ssim (s, &p, &ms) == SHARPNESS_OK && ms.ms_ssim > 0.999,
      "10-bit ms-ssim");
  check_compute (s, &p, "10-bit");
  free (a);
  free (b);

  /* tiny planes: SSIM NaN as FFmpeg's 0/0, wang unsupported */
  make_pair (&p, 9, 9, 8, 0, &a, &b);
  CHECKF (compare_ssim_ffmpeg (s, &p, &ss) == SHARPNESS_OK
      && ss.ssim[0] == 1.0 && isnan (ss.ssim[1]), "tiny ssim");
  CHECKF (compare_ssim_wang (s, &p, 0, &ss) == SHARPNESS_ERROR_UNSUPPORTED,
      "tiny wang");
  CHECKF (compare_ms_ssim (s, &p, &ms) == SHARPNESS_ERROR_UNSUPPORTED,
      "tiny ms-ssim");
  check_compute (s, &p, "tiny");
  p.depth = 7;
  CHECKF (compare_psnr (&p, &ps) == SHARPNESS_ERROR_INVALID, "depth 7");
  free (a);
  free (b);

  /* rows of 4 .. 7 windows (every tail case), and 457 (FFmpeg 5.1's bug) */
  for (int w = 20; w <= 35; w += 5)
    check_ssim_tail (s, w, 29);
  check_ssim_tail (s, 457, 37);

  CHECKF (compare_wang_downsample_factor (1920, 1080) == 4
      && compare_wang_downsample_factor (640, 383) == 1
      && compare_wang_downsample_factor (640, 384) == 2, "factor");
  CHECKF (isinf (compare_ssim_db (1.0, 1.0))
      && fabs (compare_ssim_db (0.9, 1.0) - 10.0) < 1e-12, "db");

  compare_scratch_free (s);
  return test_check_finish ("compare-cpu: all checks passed");
}
