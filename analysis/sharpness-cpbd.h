/* CPBD, the cumulative probability of blur detection (Narvekar & Karam,
 * "A no-reference image blur metric based on the cumulative probability of
 * blur detection (CPBD)", IEEE TIP 20(9), 2011), as two integer counts of
 * a frame's gray image: its edge pixels and those whose blur a viewer
 * would not detect.  CPBD = sharp / edges (higher is sharper).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * On the 8-bit gray image I (W x H) of the metrics (sharpness-plane.h),
 * after the authors' CPBD_compute.m, column x, row y:
 *  - blocks: the complete 64 x 64 blocks (floor (W / 64) x floor (H / 64));
 *    a block's contrast C is max - min of I over it, its just-noticeable
 *    width w_JNB 5 when C <= 50, else 3;
 *  - Sx, the horizontal Sobel derivative (rows weighted 1, 2, 1; columns
 *    outside the image replicate the border column, as MATLAB's imfilter
 *    'replicate');
 *  - an edge pixel: 1 <= x <= W - 2, 1 <= y <= H - 2, |Sx| > 16 (the
 *    authors' threshold 2 on MATLAB's Sobel, which divides by 8), |Sx| >=
 *    the left neighbour's and > the right neighbour's (one pixel per
 *    maximum), and the gradient of central differences gx = I(x+1) -
 *    I(x-1), gy = I(y+1) - I(y-1) within 22.5 degrees of horizontal, where
 *    the authors measure a width: (|gx| + |gy|)^2 < 2 gx^2, exact in
 *    integers;
 *  - its width, Marziliano's as CPBD_compute.m walks it: with gx > 0, 1
 *    plus the strictly rising steps from x + 1 rightwards, plus 1 plus the
 *    strictly falling steps from x - 1 leftwards (gx < 0: mirrored), a
 *    walk stopping at the image's border;
 *  - not detected (sharp): width <= w_JNB, i.e. P = 1 - exp (-(width /
 *    w_JNB)^3.6) <= 0.632, which the authors' histogram of round (100 P)
 *    counts up to bucket 63;
 *  - an edge block: more than 0.002 x 4096 of its pixels are edge pixels;
 *    only edge blocks' pixels are counted.
 * Differences from the authors' code: the edge blocks are chosen by these
 * edge pixels, not by a Canny detector; the thinning keeps one pixel of a
 * plateau of two equal maxima (MATLAB's drops both); a pixel whose
 * central gx is 0 is no edge (CPBD_compute.m takes it as angle 0).  A
 * width above w_JNB decides the same at any length, so the walk stops at
 * SHARPNESS_CPBD_MAX_SIDE: every count equals that of the authors' walk
 * of up to 101 pixels a side.
 *
 * Integer counts, so that the CPU and the GPU (content.cu, through
 * sharpness_cpbd_classify) agree to the pixel.
 */
#ifndef SHARPNESS_CPBD_H
#define SHARPNESS_CPBD_H

#include <stdint.h>

#include "sharpness-plane.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SHARPNESS_CPBD_BLOCK 64
/* |Sx| must exceed it: 2 on MATLAB's Sobel (divided by 8). */
#define SHARPNESS_CPBD_LEVEL 16
/* Block contrast up to which w_JNB is 5 (else 3). */
#define SHARPNESS_CPBD_LOW_CONTRAST 50
/* An edge block has more than this many edge pixels (0.002 x 64 x 64). */
#define SHARPNESS_CPBD_BLOCK_EDGES 8
/* A side of the walk is counted up to this (a width over the largest
 * w_JNB, 5, is never sharp): pixels read up to 5 either side of x. */
#define SHARPNESS_CPBD_MAX_SIDE 5
/* Columns a classification reads on either side of its pixel. */
#define SHARPNESS_CPBD_REACH 5

/* w_JNB of a block of contrast @contrast (max - min). */
SHARPNESS_HD unsigned
sharpness_cpbd_jnb_width (unsigned contrast)
{
  return contrast <= SHARPNESS_CPBD_LOW_CONTRAST ? 5u : 3u;
}

/* Horizontal Sobel at column offset @i of three rows. */
SHARPNESS_HD int
sharpness_cpbd_sobel_x (const uint8_t * up, const uint8_t * row,
    const uint8_t * down, int i)
{
  return (up[i + 1] + 2 * row[i + 1] + down[i + 1]) -
      (up[i - 1] + 2 * row[i - 1] + down[i - 1]);
}

/* One side of the width walk from column offset @i, @dir +1 or -1: 1 plus
 * the steps that keep going the way @rising says (rising in @dir), at most
 * SHARPNESS_CPBD_MAX_SIDE. */
SHARPNESS_HD int
sharpness_cpbd_side (const uint8_t * row, int i, int dir, int rising)
{
  int side = 1;

  while (side < SHARPNESS_CPBD_MAX_SIDE) {
    int inner = row[i + dir * side], outer = row[i + dir * (side + 1)];

    if (rising ? outer <= inner : outer >= inner)
      break;
    side++;
  }
  return side;
}

/* The pixel at offset 0 of rows @up, @row, @down (the rows above, at and
 * below it), each readable at offsets -SHARPNESS_CPBD_REACH ..
 * +SHARPNESS_CPBD_REACH, columns outside the image holding the border
 * column's value (replicated: the walk then stops at the border, as the
 * authors' does): 0 when it is no edge pixel, 1 an edge pixel whose blur
 * is detected (width > @jnb), 2 one whose blur is not (width <= @jnb).
 * The caller keeps the pixel inside 1 .. W - 2, 1 .. H - 2. */
SHARPNESS_HD int
sharpness_cpbd_classify (const uint8_t * up, const uint8_t * row,
    const uint8_t * down, unsigned jnb)
{
  int s = sharpness_cpbd_sobel_x (up, row, down, 0);
  int a = s < 0 ? -s : s, left, right, gx, gy, ax, ay, width;

  if (a <= SHARPNESS_CPBD_LEVEL)
    return 0;
  left = sharpness_cpbd_sobel_x (up, row, down, -1);
  right = sharpness_cpbd_sobel_x (up, row, down, 1);
  if (a < (left < 0 ? -left : left) || a <= (right < 0 ? -right : right))
    return 0;
  gx = row[1] - row[-1];
  gy = down[0] - up[0];
  ax = gx < 0 ? -gx : gx;
  ay = gy < 0 ? -gy : gy;
  /* |atan2 (gy, gx)| < 22.5 degrees or > 157.5: |gy| < (sqrt 2 - 1) |gx|. */
  if ((ax + ay) * (ax + ay) >= 2 * ax * ax)
    return 0;
  width = sharpness_cpbd_side (row, 0, 1, gx > 0) +
      sharpness_cpbd_side (row, 0, -1, gx < 0);
  return (unsigned) width <= jnb ? 2 : 1;
}

/* The counts of @plane (host memory): edge pixels of its edge blocks into
 * @edges, those whose blur is not detected into @sharp.  No allocation. */
void sharpness_cpbd_count (const SharpnessPlane * plane, uint64_t * edges,
    uint64_t * sharp);

/* sharp / edges, 0 without edges (the authors' value then). */
double sharpness_cpbd_share (uint64_t sharp, uint64_t edges);

#ifdef __cplusplus
}
#endif
#endif /* SHARPNESS_CPBD_H */
