/* Element warnings posted once per run: a persistent problem (no device,
 * a metric refusing every frame) is reported the first time it happens
 * rather than per frame.  The set of texts posted lives in the element,
 * under its object lock, and is emptied at start.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SHARPNESS_WARN_ONCE_H
#define SHARPNESS_WARN_ONCE_H

#include <gst/gst.h>

G_BEGIN_DECLS

typedef struct
{
  GstObject *owner;             /* the element, whose object lock guards */
  GHashTable *posted;           /* texts posted since the last reset */
} SharpnessWarnOnce;

void sharpness_warn_once_init (SharpnessWarnOnce * once, GstObject * owner);
void sharpness_warn_once_clear (SharpnessWarnOnce * once);
/* Forgets what was posted (takes the object lock): from start. */
void sharpness_warn_once_reset (SharpnessWarnOnce * once);
/* TRUE the first time @text is seen since the last reset (takes the
 * object lock). */
gboolean sharpness_warn_once_first (SharpnessWarnOnce * once,
    const gchar * text);

/* GST_ELEMENT_WARNING (@element, @domain, @code) with the printf-style
 * text, the first time that text comes. */
#define SHARPNESS_WARN_ONCE(element, once, domain, code, ...) G_STMT_START { \
  gchar *_text = g_strdup_printf (__VA_ARGS__);                         \
  if (sharpness_warn_once_first ((once), _text))                        \
    GST_ELEMENT_WARNING ((element), domain, code, ("%s", _text), (NULL)); \
  g_free (_text);                                                       \
} G_STMT_END

G_END_DECLS
#endif /* SHARPNESS_WARN_ONCE_H */
