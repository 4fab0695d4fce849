/* Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include <string.h>

#include "sharpness-fields.h"

static const gchar *const names[SHARPNESS_N_FIELDS] = {
#define SHARPNESS_FIELD_NAME(id, name) name,
  SHARPNESS_FIELD_TABLE (SHARPNESS_FIELD_NAME)
#undef SHARPNESS_FIELD_NAME
};

const gchar *
sharpness_field_name (SharpnessField field)
{
  return names[field];
}

#if GST_CHECK_VERSION (1, 26, 0)

GstStructure *
sharpness_structure_new (SharpnessField name)
{
  return gst_structure_new_static_str_empty (names[name]);
}

void
sharpness_structure_take (GstStructure * s, SharpnessField field,
    GValue * value)
{
  gst_structure_take_value_static_str (s, names[field], value);
  /* Moved: the caller's GValue holds nothing any more. */
  memset (value, 0, sizeof (*value));
}

const GValue *
sharpness_structure_get (const GstStructure * s, SharpnessField field)
{
  return gst_structure_get_value (s, names[field]);
}

gboolean
sharpness_structure_has_name (const GstStructure * s, SharpnessField name)
{
  return gst_structure_has_name (s, names[name]);
}

void
sharpness_structure_remove (GstStructure * s, SharpnessField field)
{
  if (gst_structure_has_field (s, names[field]))
    gst_structure_remove_field (s, names[field]);
}

#else

/* Made once; reading them afterwards takes no lock. */
static GQuark
quark (SharpnessField field)
{
  static GQuark quarks[SHARPNESS_N_FIELDS];
  static gsize once = 0;

  if (g_once_init_enter (&once)) {
    for (guint i = 0; i < SHARPNESS_N_FIELDS; i++)
      quarks[i] = g_quark_from_static_string (names[i]);
    g_once_init_leave (&once, 1);
  }
  return quarks[field];
}

GstStructure *
sharpness_structure_new (SharpnessField name)
{
  return gst_structure_new_id_empty (quark (name));
}

void
sharpness_structure_take (GstStructure * s, SharpnessField field,
    GValue * value)
{
  gst_structure_id_take_value (s, quark (field), value);
  /* Moved: the caller's GValue holds nothing any more. */
  memset (value, 0, sizeof (*value));
}

const GValue *
sharpness_structure_get (const GstStructure * s, SharpnessField field)
{
  return gst_structure_id_get_value (s, quark (field));
}

gboolean
sharpness_structure_has_name (const GstStructure * s, SharpnessField name)
{
  return gst_structure_get_name_id (s) == quark (name);
}

void
sharpness_structure_remove (GstStructure * s, SharpnessField field)
{
  /* The lookup without the lock first: a fresh structure has none. */
  if (gst_structure_id_has_field (s, quark (field)))
    gst_structure_remove_field (s, names[field]);
}

#endif

/* The typed setters: a GValue of @gtype set by @gset, moved in (no
 * semicolon after each use: each is a whole function definition). */
#define SHARPNESS_FIELD_SETTER(fn, ctype, gtype, gset) \
void \
fn (GstStructure * s, SharpnessField field, ctype value) \
{ \
  GValue v = G_VALUE_INIT; \
  \
  g_value_init (&v, gtype); \
  gset (&v, value); \
  sharpness_structure_take (s, field, &v); \
}

SHARPNESS_FIELD_SETTER (sharpness_structure_set_double, gdouble,
    G_TYPE_DOUBLE, g_value_set_double)
SHARPNESS_FIELD_SETTER (sharpness_structure_set_uint64, guint64,
    G_TYPE_UINT64, g_value_set_uint64)
SHARPNESS_FIELD_SETTER (sharpness_structure_set_uint, guint, G_TYPE_UINT,
    g_value_set_uint)
SHARPNESS_FIELD_SETTER (sharpness_structure_set_boolean, gboolean,
    G_TYPE_BOOLEAN, g_value_set_boolean)
SHARPNESS_FIELD_SETTER (sharpness_structure_set_static_string,
    const gchar *, G_TYPE_STRING, g_value_set_static_string)

/* The typed getters: FALSE unless @field holds a @gtype. */
#define SHARPNESS_FIELD_GETTER(fn, ctype, gtype, gget) \
gboolean \
fn (const GstStructure * s, SharpnessField field, ctype * value) \
{ \
  const GValue *v = sharpness_structure_get (s, field); \
  \
  if (!v || !G_VALUE_HOLDS (v, gtype)) \
    return FALSE; \
  *value = gget (v); \
  return TRUE; \
}

SHARPNESS_FIELD_GETTER (sharpness_structure_get_double, gdouble,
    G_TYPE_DOUBLE, g_value_get_double)
SHARPNESS_FIELD_GETTER (sharpness_structure_get_boolean, gboolean,
    G_TYPE_BOOLEAN, g_value_get_boolean)
SHARPNESS_FIELD_GETTER (sharpness_structure_get_uint, guint, G_TYPE_UINT,
    g_value_get_uint)

const gchar *
sharpness_structure_get_string (const GstStructure * s, SharpnessField field)
{
  const GValue *v = sharpness_structure_get (s, field);

  return v && G_VALUE_HOLDS_STRING (v) ? g_value_get_string (v) : NULL;
}
