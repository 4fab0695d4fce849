/* The spatial sharpness map of S3 (Vu, Phan, Chandler 2012): local total
 * variation on 8 x 8 blocks, as computed by s3_map.m's spatial_map.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SHARPNESS_CPU_TV_MAP_H
#define SHARPNESS_CPU_TV_MAP_H

#ifdef __cplusplus
extern "C" {
#endif

/* s3_map.m's block size. */
#define SHARPNESS_TV_BLOCK 8

/* TV map of @image (gray levels 0..255, @width * @height doubles,
 * row-major) into @map (same size), values in [0, 1]:
 * max (spatial_map (img, 8), spatial_map (img, 4)).  Any size >= 1 x 1;
 * s3_map.m itself needs 9 x 9 (docs/reference/metrics-lpc.md). */
void sharpness_cpu_tv_map (const double *image, int width, int height,
    double *map);

#ifdef __cplusplus
}
#endif
#endif /* SHARPNESS_CPU_TV_MAP_H */
