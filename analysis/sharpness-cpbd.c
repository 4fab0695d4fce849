/* Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "sharpness-cpbd.h"

#include <string.h>

#define REACH SHARPNESS_CPBD_REACH
#define BLOCK SHARPNESS_CPBD_BLOCK
/* A block's row with its reach either side. */
#define SPAN (BLOCK + 2 * REACH)

/* Gray values of columns @x0 - REACH .. @x0 + BLOCK + REACH - 1 of row @y
 * into @out, columns outside the plane replicating its border column. */
static void
load_row (const SharpnessPlane * p, int y, int x0, uint8_t * out)
{
  const uint8_t *row = p->data + (size_t) y * p->stride;
  int lo = x0 - REACH, hi = x0 + BLOCK + REACH;

  if (p->samples == SHARPNESS_SAMPLES_Y8 && p->pixel_stride == 1 && lo >= 0
      && hi <= p->width) {
    memcpy (out, row + lo, SPAN);
    return;
  }
  for (int i = 0; i < SPAN; i++) {
    int x = lo + i;

    x = x < 0 ? 0 : x >= p->width ? p->width - 1 : x;
    out[i] = sharpness_plane_gray_at (p, row, x);
  }
}

/* Max - min of the gray values of the block at (@x0, @y0). */
static unsigned
block_contrast (const SharpnessPlane * p, int x0, int y0, uint8_t * buf)
{
  unsigned lo = 255, hi = 0;

  for (int y = y0; y < y0 + BLOCK; y++) {
    load_row (p, y, x0, buf);
    for (int i = REACH; i < REACH + BLOCK; i++) {
      lo = buf[i] < lo ? buf[i] : lo;
      hi = buf[i] > hi ? buf[i] : hi;
    }
  }
  return hi - lo;
}

/* |Sx| at offsets 1 .. SPAN - 2 of three rows (the block's columns and
 * one either side), in a loop the compiler vectorises. */
static void
sobel_row (const uint8_t * up, const uint8_t * row, const uint8_t * down,
    int16_t * a)
{
  int16_t v[SPAN];

  for (int i = 0; i < SPAN; i++)
    v[i] = (int16_t) (up[i] + 2 * row[i] + down[i]);
  for (int i = 1; i < SPAN - 1; i++) {
    int d = v[i + 1] - v[i - 1];

    a[i] = (int16_t) (d < 0 ? -d : d);
  }
}

/* Edge pixels of the block at (@x0, @y0) and those not detected as
 * blurred (sharp). */
static void
block_counts (const SharpnessPlane * p, int x0, int y0, unsigned jnb,
    uint8_t (*rows)[SPAN], unsigned *edges, unsigned *sharp)
{
  /* Rows 1 .. H - 2 only; each pixel row is loaded once, the three rows
   * around the current one rotating through @rows. */
  int first = y0 > 1 ? y0 : 1;
  int last = y0 + BLOCK < p->height - 1 ? y0 + BLOCK : p->height - 1;
  int xa = x0 > 1 ? x0 : 1;
  int xb = x0 + BLOCK < p->width - 1 ? x0 + BLOCK : p->width - 1;
  int16_t a[SPAN];
  uint8_t m[BLOCK];

  *edges = *sharp = 0;
  if (first >= last)
    return;
  load_row (p, first - 1, x0, rows[(first - 1) % 3]);
  load_row (p, first, x0, rows[first % 3]);
  for (int y = first; y < last; y++) {
    const uint8_t *up = rows[(y - 1) % 3], *row = rows[y % 3];
    const uint8_t *down = rows[(y + 1) % 3];

    load_row (p, y + 1, x0, rows[(y + 1) % 3]);
    sobel_row (up, row, down, a);
    /* Most pixels are no maximum over the level: a mask of the others,
     * without branches, then only they are classified (which tests them
     * again, with the angle and width), eight mask bytes at a time. */
    for (int i = REACH; i < REACH + BLOCK; i++)
      m[i - REACH] = (a[i] > SHARPNESS_CPBD_LEVEL) & (a[i] >= a[i - 1]) &
          (a[i] > a[i + 1]);
    for (int k = 0; k < BLOCK; k += 8) {
      uint64_t word;

      memcpy (&word, m + k, sizeof word);
      if (!word)
        continue;
      for (int j = k; j < k + 8; j++) {
        int x = x0 + j, i = j + REACH, c;

        if (!m[j] || x < xa || x >= xb)
          continue;
        c = sharpness_cpbd_classify (up + i, row + i, down + i, jnb);
        *edges += c != 0;
        *sharp += c == 2;
      }
    }
  }
}

void
sharpness_cpbd_count (const SharpnessPlane * p, uint64_t * edges,
    uint64_t * sharp)
{
  uint8_t rows[3][SPAN];

  *edges = *sharp = 0;
  if (!sharpness_plane_is_valid (p))
    return;
  for (int y0 = 0; y0 + BLOCK <= p->height; y0 += BLOCK)
    for (int x0 = 0; x0 + BLOCK <= p->width; x0 += BLOCK) {
      unsigned jnb = sharpness_cpbd_jnb_width (block_contrast (p, x0, y0,
              rows[0]));
      unsigned e, s;

      block_counts (p, x0, y0, jnb, rows, &e, &s);
      if (e > SHARPNESS_CPBD_BLOCK_EDGES) {
        *edges += e;
        *sharp += s;
      }
    }
}

double
sharpness_cpbd_share (uint64_t sharp, uint64_t edges)
{
  return edges ? (double) sharp / (double) edges : 0.0;
}
