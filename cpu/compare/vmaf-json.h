/* A small JSON reader for libvmaf's model files: the whole text to a tree
 * of values (one allocation per value, freed together), numbers by strtod
 * as libvmaf's own reader, strings with their escapes.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef COMPARE_VMAF_JSON_H
#define COMPARE_VMAF_JSON_H

#include <stddef.h>

typedef enum
{
  VMAF_JSON_NULL,
  VMAF_JSON_FALSE,
  VMAF_JSON_TRUE,
  VMAF_JSON_NUMBER,
  VMAF_JSON_STRING,
  VMAF_JSON_ARRAY,
  VMAF_JSON_OBJECT
} VmafJsonType;

typedef struct VmafJson VmafJson;
struct VmafJson
{
  VmafJsonType type;
  double number;
  char *string;                 /* STRING: the text (NUL-terminated) */
  size_t length;                /* STRING: bytes of string */
  char *key;                    /* a member of an OBJECT: its name */
  VmafJson *child;              /* ARRAY, OBJECT: the first item */
  VmafJson *next;               /* the next item of the parent */
};

/* The tree of @text, or NULL with a message (its byte offset) in @error.
 * Nesting deeper than 64 and texts over 16 MiB are refused. */
VmafJson *vmaf_json_parse (const char *text, size_t length, char *error,
    size_t error_size);
void vmaf_json_free (VmafJson * value);

/* The member @key of @object, or NULL. */
const VmafJson *vmaf_json_member (const VmafJson * object, const char *key);

#endif /* COMPARE_VMAF_JSON_H */
