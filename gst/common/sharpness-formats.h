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

/* X (format, uses): in the order the pad templates list them, which is
 * the order of preference in negotiation. */
#define SHARPNESS_FORMAT_TABLE(X) \
  X (GRAY8,      SCORE | COMPARE) \
  X (GRAY16_LE,  SCORE | COMPARE) \
  X (I420,       SCORE | COMPARE | CUDA_MEMORY) \
  X (YV12,       SCORE | COMPARE | CUDA_MEMORY) \
  X (NV12,       SCORE | COMPARE | CUDA_MEMORY) \
  X (NV21,       SCORE | COMPARE | CUDA_MEMORY) \
  X (Y41B,       SCORE | COMPARE) \
  X (Y42B,       SCORE | COMPARE | CUDA_MEMORY) \
  X (Y444,       SCORE | COMPARE | CUDA_MEMORY) \
  X (NV16,       COMPARE) \
  X (NV61,       COMPARE) \
  X (NV24,       COMPARE) \
  X (I420_10LE,  SCORE | COMPARE | CUDA_MEMORY) \
  X (I420_12LE,  COMPARE) \
  X (I422_10LE,  COMPARE) \
  X (I422_12LE,  COMPARE) \
  X (Y444_10LE,  COMPARE) \
  X (Y444_12LE,  COMPARE) \
  X (Y444_16LE,  COMPARE | CUDA_MEMORY) \
  X (P010_10LE,  SCORE | COMPARE | CUDA_MEMORY) \
  X (P012_LE,    COMPARE) \
  X (P016_LE,    COMPARE | CUDA_MEMORY) \
  X (GBR,        COMPARE) \
  X (GBR_10LE,   COMPARE) \
  X (GBR_12LE,   COMPARE) \
  X (RGBP,       COMPARE) \
  X (BGRP,       COMPARE) \
  X (RGB,        SCORE | COMPARE | CUDA_MEMORY) \
  X (BGR,        SCORE | COMPARE | CUDA_MEMORY) \
  X (RGBx,       SCORE | COMPARE | CUDA_MEMORY) \
  X (BGRx,       SCORE | COMPARE | CUDA_MEMORY) \
  X (xRGB,       SCORE | COMPARE) \
  X (xBGR,       SCORE | COMPARE) \
  X (RGBA,       SCORE | COMPARE | CUDA_MEMORY) \
  X (BGRA,       SCORE | COMPARE | CUDA_MEMORY) \
  X (ARGB,       SCORE | COMPARE | CUDA_MEMORY) \
  X (ABGR,       SCORE | COMPARE | CUDA_MEMORY)

/* TRUE when @use (one element's flag) reads @format, in CUDA memory when
 * @cuda_memory. */
gboolean sharpness_format_has_use (GstVideoFormat format,
    SharpnessFormatUse use, gboolean cuda_memory);

/* The formats @use reads, as a caps list ("{ GRAY8, ... }"): static. */
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
