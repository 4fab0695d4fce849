/* GstCompareMeta, the values of a compared pair carried by the distorted
 * buffer, as cudacompare writes it.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * A GstCustomMeta (Python: buf.get_custom_meta ("GstCompareMeta"),
 * docs/examples/sharpness_meta.py) whose structure holds:
 *   frame        G_TYPE_UINT64  index of the distorted frame since start
 * and, for each metric computed, G_TYPE_DOUBLE values named as the
 * `compare` message's fields (sharpness-fields.h): psnr-<plane>, psnr-avg,
 * mse-<plane>, mse-avg (metrics=psnr); ssim-<plane>, ssim-all, ssim-db
 * (ssim); ms-ssim (ms-ssim).  <plane> is y, u, v (YUV), r, g, b (RGB) or
 * y alone (gray), as FFmpeg names them.  With metrics=vmaf, the VMAF of
 * the frame before: vmaf-frame (G_TYPE_UINT64, its index), vmaf and
 * libvmaf's features integer_adm2, integer_adm_scale0..3, integer_motion2,
 * integer_motion, integer_vif_scale0..3 (G_TYPE_DOUBLE).
 * docs/reference/cudacompare.md.
 */
#ifndef COMPARE_META_H
#define COMPARE_META_H

#include <gst/gst.h>

#include "sharpness-fields.h"

G_BEGIN_DECLS

#define COMPARE_META_NAME "GstCompareMeta"

/* PSNR 8, SSIM 5, MS-SSIM 1, VMAF 12 (the score and 11 features). */
#define COMPARE_MAX_VALUES 32

/* Named values of one pair, in a fixed order: psnr-<planes>, psnr-avg,
 * mse-<planes>, mse-avg, ssim-<planes>, ssim-all, ssim-db, ms-ssim (the
 * computed metrics only). */
typedef struct
{
  gint n;
  SharpnessField field[COMPARE_MAX_VALUES];
  gdouble v[COMPARE_MAX_VALUES];
} CompareValues;

/* The field of value @kind ("psnr", "mse" or "ssim": SHARPNESS_FIELD_PSNR_Y,
 * _MSE_Y or _SSIM_Y) for plane letter @plane (y u v r g b). */
SharpnessField compare_value_plane_field (SharpnessField kind, gchar plane);

void compare_values_add (CompareValues * values, SharpnessField field,
    gdouble v);
/* Sets the values as G_TYPE_DOUBLE fields of @s. */
void compare_values_to_structure (const CompareValues * values,
    GstStructure * s);

/* Once, from plugin_init. */
gboolean compare_meta_register (void);

/* Adds the meta to writable @buffer (or replaces its fields) with @frame
 * and @values. */
void compare_meta_set (GstBuffer * buffer, guint64 frame,
    const CompareValues * values);
/* Adds the VMAF of frame @vmaf_frame (the one before @buffer's frame
 * @frame: VMAF's motion needs the next frame) to the meta of writable
 * @buffer: `frame`, `vmaf-frame` and the values. */
void compare_meta_set_vmaf (GstBuffer * buffer, guint64 frame,
    guint64 vmaf_frame, const CompareValues * values);

G_END_DECLS
#endif /* COMPARE_META_H */
