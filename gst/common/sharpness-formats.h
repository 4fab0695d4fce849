/* The video formats of every element, in one table: which formats each
 * element reads in system memory, and which of them GStreamer's CUDA
 * allocator can hold (the element reads those in memory:CUDAMemory too).
 * Pad templates, format checks and the lists in error messages are all
 * made from it, so they cannot disagree.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SHARPNESS_FORMATS_H
#define SHARPNESS_FORMATS_H

#include <gst/gst.h>
#include <gst/video/video.h>

#ifdef HAVE_CUDA
#include <gst/cuda/gstcudamemory.h>
#define SHARPNESS_CAPS_FEATURE_CUDA GST_CAPS_FEATURE_MEMORY_CUDA_MEMORY
#else
/* libgstcuda's name, which a build without it cannot include: the overlay
 * still maps such frames for the host. */
#define SHARPNESS_CAPS_FEATURE_CUDA "memory:CUDAMemory"
#endif

G_BEGIN_DECLS

/* Who reads a format. */
typedef enum
{
  SHARPNESS_FORMAT_SCORE = 1 << 0,      /* cudasharpness: luma or packed RGB */
  SHARPNESS_FORMAT_COMPARE = 1 << 1,    /* cudacompare: every plane */
  /* GStreamer 1.22's CUDA allocator lays it out and maps it (not GRAY:
   * it asserts there). */
  SHARPNESS_FORMAT_CUDA_MEMORY = 1 << 2,
} SharpnessFormatUse;

/* X (format, ffmpeg, uses): in the order the pad templates list them,
 * which is the order of preference in negotiation.  ffmpeg: the FFmpeg
 * pixel format whose planes hold the same samples (planes of equal sizes
 * in another order count alike), which freeze detection compares as
 * FFmpeg's freezedetect does; NULL where FFmpeg has none it accepts. */
#define SHARPNESS_FORMAT_TABLE(X) \
  X (GRAY8,      "gray",    SCORE | COMPARE) \
  X (GRAY16_LE,  "gray16le", SCORE | COMPARE) \
  X (I420,       "yuv420p", SCORE | COMPARE | CUDA_MEMORY) \
  X (YV12,       "yuv420p", SCORE | COMPARE | CUDA_MEMORY) \
  X (NV12,       "nv12",    SCORE | COMPARE | CUDA_MEMORY) \
  X (NV21,       "nv21",    SCORE | COMPARE | CUDA_MEMORY) \
  X (Y41B,       "yuv411p", SCORE | COMPARE) \
  X (Y42B,       "yuv422p", SCORE | COMPARE | CUDA_MEMORY) \
  X (Y444,       "yuv444p", SCORE | COMPARE | CUDA_MEMORY) \
  X (UYVY,       "uyvy422", SCORE | CUDA_MEMORY) \
  X (YUY2,       "yuyv422", SCORE | CUDA_MEMORY) \
  X (v210,       NULL,      SCORE) \
  X (NV16,       "nv16",    COMPARE) \
  X (NV61,       NULL,      COMPARE) \
  X (NV24,       NULL,      COMPARE) \
  X (I420_10LE,  "yuv420p10le", SCORE | COMPARE | CUDA_MEMORY) \
  X (I420_12LE,  "yuv420p12le", COMPARE) \
  X (I422_10LE,  "yuv422p10le", SCORE | COMPARE) \
  X (I422_12LE,  "yuv422p12le", COMPARE) \
  X (Y444_10LE,  "yuv444p10le", COMPARE) \
  X (Y444_12LE,  "yuv444p12le", COMPARE) \
  X (Y444_16LE,  "yuv444p16le", COMPARE | CUDA_MEMORY) \
  X (P010_10LE,  NULL,      SCORE | COMPARE | CUDA_MEMORY) \
  X (P012_LE,    NULL,      COMPARE) \
  X (P016_LE,    NULL,      COMPARE | CUDA_MEMORY) \
  X (GBR,        "gbrp",    COMPARE) \
  X (GBR_10LE,   "gbrp10le", COMPARE) \
  X (GBR_12LE,   "gbrp12le", COMPARE) \
  X (RGBP,       "gbrp",    COMPARE) \
  X (BGRP,       "gbrp",    COMPARE) \
  X (RGB,        "rgb24",   SCORE | COMPARE | CUDA_MEMORY) \
  X (BGR,        "bgr24",   SCORE | COMPARE | CUDA_MEMORY) \
  X (RGBx,       NULL,      SCORE | COMPARE | CUDA_MEMORY) \
  X (BGRx,       NULL,      SCORE | COMPARE | CUDA_MEMORY) \
  X (xRGB,       NULL,      SCORE | COMPARE) \
  X (xBGR,       NULL,      SCORE | COMPARE) \
  X (RGBA,       "rgba",    SCORE | COMPARE | CUDA_MEMORY) \
  X (BGRA,       "bgra",    SCORE | COMPARE | CUDA_MEMORY) \
  X (ARGB,       "argb",    SCORE | COMPARE | CUDA_MEMORY) \
  X (ABGR,       "abgr",    SCORE | COMPARE | CUDA_MEMORY)

/* FFmpeg's pixel format name for @format (the table's ffmpeg column), or
 * NULL. */
const gchar *sharpness_format_ffmpeg_name (GstVideoFormat format);

/* TRUE when @use (one element's flag) reads @format, in CUDA memory when
 * @cuda_memory. */
gboolean sharpness_format_has_use (GstVideoFormat format,
    SharpnessFormatUse use, gboolean cuda_memory);

/* The formats @use reads, as a caps list ("{ GRAY8, ... }"): static.
 * @use SHARPNESS_FORMAT_CUDA_MEMORY: every format the CUDA allocator holds
 * (sharpnessoverlay's, which maps them for the host). */
const gchar *sharpness_formats_list (SharpnessFormatUse use,
    gboolean cuda_memory);

/* Caps of everything @use reads: memory:CUDAMemory first (in a CUDA
 * build), then system memory; the any size and rate of a video pad. */
GstCaps *sharpness_formats_caps (SharpnessFormatUse use);

/* A pad template of those caps (@gtype: the pad's type, or
 * GST_TYPE_PAD). */
GstPadTemplate *sharpness_formats_pad_template (SharpnessFormatUse use,
    const gchar * name, GstPadDirection direction, GType gtype);

/* TRUE when @caps ask for memory:CUDAMemory. */
gboolean sharpness_caps_are_cuda (const GstCaps * caps);

G_END_DECLS
#endif /* SHARPNESS_FORMATS_H */
