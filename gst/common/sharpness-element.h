/* What the analysers cudasharpness and cudacompare have in common as
 * elements, whatever they compute: five properties (backend,
 * cuda-device-id, pinned-pool, post-messages, interval), the backends and
 * their choice, warnings given once, and the answers to context queries,
 * set_context and allocation queries.  Each element embeds one
 * SharpnessElement and forwards to it; it adds only its own work.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SHARPNESS_ELEMENT_H
#define SHARPNESS_ELEMENT_H

#include <gst/gst.h>

#include "sharpness-backend-choice.h"
#include "sharpness-warn-once.h"

G_BEGIN_DECLS

/* The common properties' values (the element's object lock). */
typedef struct
{
  GstSharpnessBackend backend;
  gint device_id;
  gboolean pinned_pool;
  gboolean post_messages;
  guint64 interval;
} SharpnessElementSettings;

/* Property ids the common properties take, from the element's first:
 * the element's own enum reserves SHARPNESS_ELEMENT_N_PROPS ids. */
enum
{
  SHARPNESS_ELEMENT_PROP_BACKEND,
  SHARPNESS_ELEMENT_PROP_CUDA_DEVICE_ID,
  SHARPNESS_ELEMENT_PROP_PINNED_POOL,
  SHARPNESS_ELEMENT_PROP_POST_MESSAGES,
  SHARPNESS_ELEMENT_PROP_INTERVAL,
  SHARPNESS_ELEMENT_PROP_DEVICE_ID,     /* deprecated alias, on request */
  SHARPNESS_ELEMENT_N_PROPS
};

/* Installs the common properties from id @first; @message names the
 * element's per-frame message ("sharpness"); @device_id_alias adds the
 * deprecated `device-id`. */
void sharpness_element_install_properties (GObjectClass * klass,
    guint first, const gchar * message, gboolean device_id_alias);
/* The defaults. */
void sharpness_element_settings_init (SharpnessElementSettings * s);
/* With the object lock held: TRUE when @prop_id is a common property. */
gboolean sharpness_element_settings_set (SharpnessElementSettings * s,
    guint first, guint prop_id, const GValue * value);
gboolean sharpness_element_settings_get (const SharpnessElementSettings * s,
    guint first, guint prop_id, GValue * value);

typedef struct
{
  GstElement *element;
  SharpnessElementSettings settings;    /* object lock */
  SharpnessWarnOnce warned;     /* warnings posted since start */
  SharpnessBackendChoice choice;
} SharpnessElement;

/* @cpu and @cuda (NULL when CUDA is unusable) are owned from here on;
 * @verb and @gerund ("score", "scoring") word the warnings. */
void sharpness_element_init (SharpnessElement * e, GstElement * element,
    GstDebugCategory * category, SharpnessBackend * cpu,
    SharpnessBackend * cuda, const gchar * verb, const gchar * gerund);
void sharpness_element_finalize (SharpnessElement * e);

/* A copy of the settings, taken under the object lock. */
void sharpness_element_get_settings (SharpnessElement * e,
    SharpnessElementSettings * s);

/* From start: forgets the warnings and opens the backends as `backend`
 * says; FALSE with an error posted. */
gboolean sharpness_element_start (SharpnessElement * e);
void sharpness_element_stop (SharpnessElement * e);

/* GstElement::set_context, before chaining up. */
void sharpness_element_set_context (SharpnessElement * e,
    GstContext * context);
/* A query on any pad: TRUE when it was a context query answered. */
gboolean sharpness_element_query (SharpnessElement * e, GstQuery * query);
/* After downstream answered @query (or for a pad whose buffers end
 * here): adds the pinned host pool when pinned-pool is set and the
 * backend may be CUDA.  TRUE when it added something. */
gboolean sharpness_element_propose_allocation (SharpnessElement * e,
    GstQuery * query);

/* Runs @job as sharpness_backend_choice_run() does, with @s's backend. */
SharpnessBackend *sharpness_element_run (SharpnessElement * e,
    const SharpnessElementSettings * s, SharpnessBackendRun run,
    SharpnessCpuLimit cpu_limit, gpointer user_data, gpointer job,
    const gchar * what);

#define SHARPNESS_ELEMENT_WARN_ONCE(e, domain, code, ...) \
  SHARPNESS_WARN_ONCE ((e)->element, &(e)->warned, domain, code, __VA_ARGS__)

G_END_DECLS
#endif /* SHARPNESS_ELEMENT_H */
