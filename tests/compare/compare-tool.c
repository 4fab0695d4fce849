/* Scores raw frame pairs with the CPU compare backend, for the Python
 * tests: compare-tool W H FORMAT REF DIST prints, per frame,
 *   sse N a b c                 exact sums
 *   psnr N <vf_psnr stats line>
 *   ssim N <vf_ssim stats line>
 *   ssimv N y u v all           SSIM ffmpeg mode, %.17g
 *   wang N y u v all            Wang mode
 *   wangds N y u v all          Wang mode with ssim.m's downsampling
 *   msssim N ms s1..s5 c1..c5   (or "msssim N unsupported")
 * FORMAT: gray, gray10le, yuv420p, yuv420p10le, yuv422p, yuv444p.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "compare.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int
main (int argc, char **argv)
{
  ComparePair pair;
  int w, h, sx = 1, sy = 1, planes = 3, depth = 8, bps;
  const char *fmt;
  FILE *fr, *fd;
  size_t frame_bytes = 0, off[3];
  uint8_t *ref, *dist;
  CompareScratch *scratch;
  uint64_t n = 0;

  if (argc != 6) {
    fprintf (stderr, "usage: %s W H FORMAT REF DIST\n", argv[0]);
    return 2;
  }
  w = atoi (argv[1]);
  h = atoi (argv[2]);
  fmt = argv[3];
  if (!strcmp (fmt, "gray"))
    planes = 1;
  else if (!strcmp (fmt, "gray10le"))
    planes = 1, depth = 10;
  else if (!strcmp (fmt, "yuv420p"))
    sx = sy = 2;
  else if (!strcmp (fmt, "yuv420p10le"))
    sx = sy = 2, depth = 10;
  else if (!strcmp (fmt, "yuv422p"))
    sx = 2;
  else if (strcmp (fmt, "yuv444p")) {
    fprintf (stderr, "unknown format %s\n", fmt);
    return 2;
  }
  bps = depth > 8 ? 2 : 1;
  memset (&pair, 0, sizeof (pair));
  pair.n_planes = planes;
  pair.depth = depth;
  for (int c = 0; c < planes; c++) {
    pair.width[c] = c ? (w + sx - 1) / sx : w;
    pair.height[c] = c ? (h + sy - 1) / sy : h;
    pair.ref_stride[c] = pair.dist_stride[c] = (size_t) pair.width[c] * bps;
    off[c] = frame_bytes;
    frame_bytes += pair.ref_stride[c] * pair.height[c];
  }
  ref = malloc (frame_bytes);
  dist = malloc (frame_bytes);
  fr = fopen (argv[4], "rb");
  fd = fopen (argv[5], "rb");
  scratch = compare_scratch_new ();
  if (!ref || !dist || !fr || !fd || !scratch) {
    fprintf (stderr, "cannot open inputs\n");
    return 1;
  }
  for (int c = 0; c < planes; c++) {
    pair.ref[c] = ref + off[c];
    pair.dist[c] = dist + off[c];
  }

  while (fread (ref, 1, frame_bytes, fr) == frame_bytes
      && fread (dist, 1, frame_bytes, fd) == frame_bytes) {
    ComparePsnr p;
    CompareSsim s;
    CompareMsSsim ms;
    char line[512];
    SharpnessStatus st;

    n++;
    if (compare_psnr (&pair, &p) != SHARPNESS_OK
        || compare_ssim_ffmpeg (scratch, &pair, &s) != SHARPNESS_OK)
      return 1;
    printf ("sse %llu", (unsigned long long) n);
    for (int c = 0; c < planes; c++)
      printf (" %llu", (unsigned long long) p.sse[c]);
    compare_format_psnr_line (line, sizeof (line), n, &p, &pair, 0);
    printf ("\npsnr %llu %s\n", (unsigned long long) n, line);
    compare_format_ssim_line (line, sizeof (line), n, &s, 0);
    printf ("ssim %llu %s\n", (unsigned long long) n, line);
    printf ("ssimv %llu", (unsigned long long) n);
    for (int c = 0; c < planes; c++)
      printf (" %.17g", s.ssim[c]);
    printf (" %.17g\n", s.all);
    for (int ds = 0; ds < 2; ds++) {
      st = compare_ssim_wang (scratch, &pair, ds, &s);
      printf ("%s %llu", ds ? "wangds" : "wang", (unsigned long long) n);
      if (st != SHARPNESS_OK) {
        printf (" unsupported\n");
        continue;
      }
      for (int c = 0; c < planes; c++)
        printf (" %.17g", s.ssim[c]);
      printf (" %.17g\n", s.all);
    }
    st = compare_ms_ssim (scratch, &pair, &ms);
    printf ("msssim %llu", (unsigned long long) n);
    if (st != SHARPNESS_OK)
      printf (" unsupported");
    else {
      printf (" %.17g", ms.ms_ssim);
      for (int l = 0; l < COMPARE_MS_SSIM_SCALES; l++)
        printf (" %.17g", ms.ssim[l]);
      for (int l = 0; l < COMPARE_MS_SSIM_SCALES; l++)
        printf (" %.17g", ms.cs[l]);
    }
    printf ("\n");
  }
  compare_scratch_free (scratch);
  free (ref);
  free (dist);
  fclose (fr);
  fclose (fd);
  return 0;
}
