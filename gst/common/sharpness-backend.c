/* Dispatch of the backends' common entry points (sharpness-backend.h).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "sharpness-backend.h"

G_DEFINE_QUARK (sharpness-backend-error-quark, sharpness_backend_error);

gboolean
sharpness_backend_open (SharpnessBackend * backend, gint device_id,
    GError ** error)
{
  return backend->klass->open (backend, device_id, error);
}

void
sharpness_backend_close (SharpnessBackend * backend)
{
  if (backend)
    backend->klass->close (backend);
}

gboolean
sharpness_backend_is_open (SharpnessBackend * backend)
{
  return backend && backend->klass->is_open (backend);
}

void
sharpness_backend_set_context (SharpnessBackend * backend,
    GstContext * context, gint device_id)
{
  if (backend && backend->klass->set_context)
    backend->klass->set_context (backend, context, device_id);
}

gboolean
sharpness_backend_handle_context_query (SharpnessBackend * backend,
    GstQuery * query)
{
  return backend && backend->klass->handle_context_query &&
      backend->klass->handle_context_query (backend, query);
}

gboolean
sharpness_backend_propose_allocation (SharpnessBackend * backend,
    GstQuery * query)
{
  return backend && backend->klass->propose_allocation &&
      backend->klass->propose_allocation (backend, query);
}

void
sharpness_backend_free (SharpnessBackend * backend)
{
  if (backend)
    backend->klass->free (backend);
}
