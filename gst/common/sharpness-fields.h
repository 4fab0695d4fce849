/* Names written with every frame (the `sharpness` message, GstSharpnessMeta),
 * looked up once.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * GStreamer before 1.26 turns a structure or field name given as a string
 * into a GQuark under GLib's one global lock, on every set and get; a
 * frame's message and meta did that about 30 times.  With 64 streams in one
 * process that lock took the host to 57 % system time (futex) and capped
 * the element at ~125,000 frames/s, 195,000 without messages (H200 host,
 * docs/gpu-runs-2026-11-23c.md).  Here the quarks are made once; from
 * 1.26, whose structures keep field names without the lock, the
 * static-string calls are used.
 */
#ifndef SHARPNESS_FIELDS_H
#define SHARPNESS_FIELDS_H

#include <gst/gst.h>

G_BEGIN_DECLS

#define SHARPNESS_FIELD_TABLE(X) \
  X (MESSAGE, "sharpness") \
  X (TIMESTAMP, "timestamp") \
  X (STREAM_TIME, "stream-time") \
  X (RUNNING_TIME, "running-time") \
  X (DURATION, "duration") \
  X (FRAME, "frame") \
  X (METRIC, "metric") \
  X (SCORE, "score") \
  X (BLURRY, "blurry") \
  X (UNSCORED, "unscored") \
  X (TILES_COLS, "tiles-cols") \
  X (TILES_ROWS, "tiles-rows") \
  X (TILE_SCORES, "tile-scores") \
  X (ROI_IDS, "roi-ids") \
  X (ROI_TYPES, "roi-types") \
  X (ROI_SCORES, "roi-scores") \
  X (FRAMES, "frames") \
  X (MEAN, "mean") \
  X (MIN, "min") \
  X (MAX, "max") \
  X (BLURRY_FRAMES, "blurry-frames")

typedef enum
{
#define SHARPNESS_FIELD_ENUM(id, name) SHARPNESS_FIELD_##id,
  SHARPNESS_FIELD_TABLE (SHARPNESS_FIELD_ENUM)
#undef SHARPNESS_FIELD_ENUM
  SHARPNESS_N_FIELDS
} SharpnessField;

const gchar *sharpness_field_name (SharpnessField field);

/* An empty structure named @name. */
GstStructure *sharpness_structure_new (SharpnessField name);
/* Sets @field of @s to @value, which is moved in (left unset). */
void sharpness_structure_take (GstStructure * s, SharpnessField field,
    GValue * value);
void sharpness_structure_set_double (GstStructure * s, SharpnessField field,
    gdouble value);
void sharpness_structure_set_uint64 (GstStructure * s, SharpnessField field,
    guint64 value);
void sharpness_structure_set_uint (GstStructure * s, SharpnessField field,
    guint value);
void sharpness_structure_set_boolean (GstStructure * s, SharpnessField field,
    gboolean value);
/* @value is static or outlives @s (a metric nick). */
void sharpness_structure_set_static_string (GstStructure * s,
    SharpnessField field, const gchar * value);
/* The value of @field in @s, or NULL. */
const GValue *sharpness_structure_get (const GstStructure * s,
    SharpnessField field);
/* Removes @field from @s when it is there. */
void sharpness_structure_remove (GstStructure * s, SharpnessField field);

G_END_DECLS
#endif /* SHARPNESS_FIELDS_H */
