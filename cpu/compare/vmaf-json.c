/* A small JSON reader for libvmaf's model files.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vmaf-json.h"

#define VMAF_JSON_MAX_DEPTH 64
#define VMAF_JSON_MAX_LENGTH (16u << 20)

typedef struct
{
  const char *text, *end, *p;
  char *error;
  size_t error_size;
  int failed;
} Reader;

static void
fail (Reader * r, const char *what)
{
  if (!r->failed && r->error && r->error_size)
    snprintf (r->error, r->error_size, "JSON: %s at byte %zu", what,
        (size_t) (r->p - r->text));
  r->failed = 1;
}

static void
skip_space (Reader * r)
{
  while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n'
          || *r->p == '\r'))
    r->p++;
}

static int
literal (Reader * r, const char *word)
{
  size_t n = strlen (word);

  if ((size_t) (r->end - r->p) < n || memcmp (r->p, word, n) != 0)
    return 0;
  r->p += n;
  return 1;
}

/* A string's text (after its opening quote) to a new buffer.  \uXXXX
 * escapes of the ASCII range only: model files have no others. */
static char *
read_string (Reader * r, size_t *length)
{
  char *out = malloc ((size_t) (r->end - r->p) + 1);
  size_t n = 0;

  if (!out) {
    fail (r, "out of memory");
    return NULL;
  }
  while (r->p < r->end && *r->p != '"') {
    char c = *r->p++;

    if ((unsigned char) c < 0x20) {
      fail (r, "control character in a string");
      free (out);
      return NULL;
    }
    if (c == '\\') {
      if (r->p >= r->end)
        break;
      c = *r->p++;
      switch (c) {
        case 'n': c = '\n'; break;
        case 't': c = '\t'; break;
        case 'r': c = '\r'; break;
        case 'b': c = '\b'; break;
        case 'f': c = '\f'; break;
        case '"': case '\\': case '/': break;
        case 'u': {
          unsigned v = 0;

          for (int k = 0; k < 4; k++) {
            char h = r->p < r->end ? *r->p++ : 0;

            v <<= 4;
            if (h >= '0' && h <= '9')
              v |= h - '0';
            else if ((h | 0x20) >= 'a' && (h | 0x20) <= 'f')
              v |= (h | 0x20) - 'a' + 10;
            else
              v = 0x10000;
          }
          if (v == 0 || v > 0x7f) {
            fail (r, "unsupported \\u escape");
            free (out);
            return NULL;
          }
          c = (char) v;
          break;
        }
        default:
          fail (r, "bad escape");
          free (out);
          return NULL;
      }
    }
    out[n++] = c;
  }
  if (r->p >= r->end) {
    fail (r, "unterminated string");
    free (out);
    return NULL;
  }
  r->p++;
  out[n] = '\0';
  *length = n;
  return out;
}

static VmafJson *read_value (Reader * r, int depth);

static VmafJson *
new_value (Reader * r, VmafJsonType type)
{
  VmafJson *v = calloc (1, sizeof (*v));

  if (!v)
    fail (r, "out of memory");
  else
    v->type = type;
  return v;
}

/* The items of an array or object (after its opening bracket). */
static VmafJson *
read_items (Reader * r, int depth, int object)
{
  VmafJson *v = new_value (r, object ? VMAF_JSON_OBJECT : VMAF_JSON_ARRAY);
  VmafJson **tail;
  const char close = object ? '}' : ']';

  if (!v)
    return NULL;
  tail = &v->child;
  skip_space (r);
  if (r->p < r->end && *r->p == close) {
    r->p++;
    return v;
  }
  for (;;) {
    char *key = NULL;
    size_t key_length;
    VmafJson *item;

    skip_space (r);
    if (object) {
      if (r->p >= r->end || *r->p != '"') {
        fail (r, "expected a member name");
        break;
      }
      r->p++;
      key = read_string (r, &key_length);
      if (!key)
        break;
      skip_space (r);
      if (r->p >= r->end || *r->p != ':') {
        free (key);
        fail (r, "expected ':'");
        break;
      }
      r->p++;
    }
    item = read_value (r, depth + 1);
    if (!item) {
      free (key);
      break;
    }
    item->key = key;
    *tail = item;
    tail = &item->next;
    skip_space (r);
    if (r->p < r->end && *r->p == ',') {
      r->p++;
      continue;
    }
    if (r->p < r->end && *r->p == close) {
      r->p++;
      return v;
    }
    fail (r, object ? "expected ',' or '}'" : "expected ',' or ']'");
    break;
  }
  vmaf_json_free (v);
  return NULL;
}

static VmafJson *
read_value (Reader * r, int depth)
{
  VmafJson *v;

  if (depth > VMAF_JSON_MAX_DEPTH) {
    fail (r, "nested too deep");
    return NULL;
  }
  skip_space (r);
  if (r->p >= r->end) {
    fail (r, "unexpected end");
    return NULL;
  }
  switch (*r->p) {
    case '{':
      r->p++;
      return read_items (r, depth, 1);
    case '[':
      r->p++;
      return read_items (r, depth, 0);
    case '"':
      r->p++;
      v = new_value (r, VMAF_JSON_STRING);
      if (v && !(v->string = read_string (r, &v->length))) {
        free (v);
        v = NULL;
      }
      return v;
    default:
      break;
  }
  if (literal (r, "null"))
    return new_value (r, VMAF_JSON_NULL);
  if (literal (r, "true"))
    return new_value (r, VMAF_JSON_TRUE);
  if (literal (r, "false"))
    return new_value (r, VMAF_JSON_FALSE);

  /* A number: its JSON characters copied out (the text need not end in a
   * NUL), then strtod. */
  char buf[64];
  size_t n = 0;

  while (r->p + n < r->end && n < sizeof (buf) - 1 &&
      strchr ("0123456789+-.eE", r->p[n]) && r->p[n])
    n++;
  if (n == 0 || n == sizeof (buf) - 1) {
    fail (r, "unexpected character");
    return NULL;
  }
  memcpy (buf, r->p, n);
  buf[n] = '\0';

  char *endp;
  double number = strtod (buf, &endp);

  if (endp != buf + n) {
    fail (r, "bad number");
    return NULL;
  }
  r->p += n;
  v = new_value (r, VMAF_JSON_NUMBER);
  if (v)
    v->number = number;
  return v;
}

VmafJson *
vmaf_json_parse (const char *text, size_t length, char *error,
    size_t error_size)
{
  Reader r = { text, text + length, text, error, error_size, 0 };
  VmafJson *v;

  if (length > VMAF_JSON_MAX_LENGTH) {
    fail (&r, "text longer than 16 MiB");
    return NULL;
  }
  v = read_value (&r, 0);
  if (v) {
    skip_space (&r);
    if (r.p != r.end) {
      fail (&r, "text after the value");
      vmaf_json_free (v);
      v = NULL;
    }
  }
  return v;
}

void
vmaf_json_free (VmafJson * value)
{
  while (value) {
    VmafJson *next = value->next;

    vmaf_json_free (value->child);
    free (value->string);
    free (value->key);
    free (value);
    value = next;
  }
}

const VmafJson *
vmaf_json_member (const VmafJson * object, const char *key)
{
  if (!object || object->type != VMAF_JSON_OBJECT)
    return NULL;
  for (const VmafJson * m = object->child; m; m = m->next)
    if (m->key && strcmp (m->key, key) == 0)
      return m;
  return NULL;
}
