/* How the frames of a video format become the planes of cpu/compare's
 * ComparePair: which components, in which order and under which names
 * (FFmpeg's: y u v, or r g b in its gbrp plane order), and which planes
 * must first be extracted (interleaved chroma, packed RGB, P010's shifted
 * samples) into planar scratch.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef COMPARE_FRAME_H
#define COMPARE_FRAME_H

#include <gst/gst.h>
#include <gst/video/video.h>

#include "compare.h"

G_BEGIN_DECLS

/* Formats in system memory and in CUDA memory (1.22's CUDA allocator lays
 * these out; GRAY is not among them). */
#define COMPARE_SYSTEM_FORMATS "{ GRAY8, GRAY16_LE, I420, YV12, Y41B, " \
  "Y42B, Y444, NV12, NV21, NV16, NV61, NV24, I420_10LE, I420_12LE, " \
  "I422_10LE, I422_12LE, Y444_10LE, Y444_12LE, Y444_16LE, P010_10LE, " \
  "P012_LE, P016_LE, GBR, GBR_10LE, GBR_12LE, RGBP, BGRP, RGB, " \
  "BGR, RGBx, BGRx, xRGB, xBGR, RGBA, BGRA, ARGB, ABGR }"
#define COMPARE_CUDA_FORMATS "{ I420, YV12, NV12, NV21, P010_10LE, " \
  "P016_LE, Y42B, Y444, Y444_16LE, RGBA, BGRA, RGBx, BGRx, ARGB, ABGR, " \
  "RGB, BGR }"

typedef struct
{
  GstVideoFormat format;
  gint n_planes;                /* compared planes: 1 (gray) or 3 */
  gint depth;                   /* significant bits of a sample */
  gint sample_bytes;            /* 1, or 2 (little-endian) */
  gboolean rgb;
  /* Component (GST_VIDEO_COMP_*) of each compared plane, in FFmpeg's
   * plane order: Y U V, or G B R as its gbrp formats. */
  gint comp[COMPARE_MAX_PLANES];
  /* Compared plane shown at position j of the names (y u v / r g b), as
   * vf_psnr.c's rgba_map. */
  gint display[COMPARE_MAX_PLANES];
  /* Video plane and byte offset in it of each compared plane's first
   * sample.  GStreamer 1.22 gives P010/P012/P016's V offset as 1 (in
   * samples, not bytes): corrected here. */
  gint plane[COMPARE_MAX_PLANES];
  gsize poffset[COMPARE_MAX_PLANES];
  const gchar *names;           /* "yuv", "rgb", "y" */
} CompareLayout;

/* FALSE when the format is not one of COMPARE_SYSTEM_FORMATS. */
gboolean compare_layout_init (CompareLayout * layout,
    const GstVideoInfo * info);

/* First sample of compared plane @c of @frame (mapped with @layout's
 * format): host or device address. */
#define COMPARE_LAYOUT_DATA(layout, frame, c) \
  ((const guint8 *) GST_VIDEO_FRAME_PLANE_DATA ((frame), \
      (layout)->plane[c]) + (layout)->poffset[c])

/* The pair's sizes, depth and plane count for @layout at @info's size
 * (no data). */
void compare_layout_pair (const CompareLayout * layout,
    const GstVideoInfo * info, ComparePair * pair);

/* TRUE when compared plane @c of a frame mapped with @frame's layout can
 * be read in place (planar, unshifted samples). */
gboolean compare_layout_plane_direct (const CompareLayout * layout,
    const GstVideoFrame * frame, gint c);

/* Reorders per-plane values from plane order to display order (only RGB
 * differs): what messages, meta and FFmpeg's stats lines show. */
void compare_layout_psnr_to_display (const CompareLayout * layout,
    ComparePsnr * psnr);
void compare_layout_ssim_to_display (const CompareLayout * layout,
    CompareSsim * ssim);

/* Host scratch of the CPU path: grow-only planar copies. */
typedef struct
{
  guint8 *data[2 * COMPARE_MAX_PLANES];
  gsize size[2 * COMPARE_MAX_PLANES];
} CompareHostScratch;

void compare_host_scratch_clear (CompareHostScratch * scratch);

/* Fills @pair's plane @c of @frame (0: ref, 1: dist) from the host-mapped
 * @vframe, extracting into @scratch when the plane is not direct.  FALSE
 * when out of memory. */
gboolean compare_frame_fill_host (const CompareLayout * layout,
    const GstVideoFrame * vframe, gint which, CompareHostScratch * scratch,
    ComparePair * pair);
/* The same for compared plane @c alone (VMAF reads the luma only). */
gboolean compare_frame_fill_host_plane (const CompareLayout * layout,
    const GstVideoFrame * vframe, gint which, gint c,
    CompareHostScratch * scratch, ComparePair * pair);

G_END_DECLS
#endif /* COMPARE_FRAME_H */
