/* libvmaf's model files built into the library (data/vmaf, generated into
 * vmaf-builtin.c by vmaf-builtin-gen.c at build time).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef COMPARE_VMAF_BUILTIN_H
#define COMPARE_VMAF_BUILTIN_H

#include <stddef.h>

typedef struct
{
  const char *name;             /* "vmaf_v0.6.1": the file's name */
  const char *json;             /* the file's bytes, NUL-terminated */
  size_t length;
} CompareVmafBuiltinModel;

/* Ends with a row whose name is NULL. */
extern const CompareVmafBuiltinModel compare_vmaf_builtin_models[];

#endif /* COMPARE_VMAF_BUILTIN_H */
