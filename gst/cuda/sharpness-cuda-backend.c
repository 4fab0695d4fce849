/* The common entry points of a CUDA backend, forwarded to its session
 * (sharpness-cuda-backend.h).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "sharpness-cuda-backend.h"

#define SESSION(b) (((SharpnessCudaBackend *) (b))->session)

gboolean
sharpness_cuda_backend_open (SharpnessBackend * backend, gint device_id,
    GError ** error)
{
  return sharpness_cuda_session_open (SESSION (backend), device_id, error);
}

void
sharpness_cuda_backend_close (SharpnessBackend * backend)
{
  sharpness_cuda_session_close (SESSION (backend));
}

gboolean
sharpness_cuda_backend_is_open (SharpnessBackend * backend)
{
  return sharpness_cuda_session_is_open (SESSION (backend));
}

void
sharpness_cuda_backend_set_context (SharpnessBackend * backend,
    GstContext * context, gint device_id)
{
  sharpness_cuda_session_set_context (SESSION (backend), context, device_id);
}

gboolean
sharpness_cuda_backend_handle_context_query (SharpnessBackend * backend,
    GstQuery * query)
{
  return sharpness_cuda_session_handle_context_query (SESSION (backend),
      query);
}

gboolean
sharpness_cuda_backend_propose_allocation (SharpnessBackend * backend,
    GstQuery * query)
{
  return sharpness_cuda_session_propose_allocation (SESSION (backend), query);
}

void
sharpness_cuda_backend_free (SharpnessBackend * backend)
{
  sharpness_cuda_session_free (SESSION (backend));
  g_free (backend);
}

SharpnessBackend *
sharpness_cuda_backend_new (gsize instance_size,
    const SharpnessBackendClass * klass, GstElement * element,
    SharpnessCudaSetup setup, SharpnessCudaTeardown teardown)
{
  SharpnessCudaBackend *self;

  g_return_val_if_fail (instance_size >= sizeof (SharpnessCudaBackend), NULL);
  if (!sharpness_cuda_session_init_once (NULL))
    return NULL;
  self = g_malloc0 (instance_size);
  self->parent.klass = klass;
  self->parent.element = element;
  self->session = sharpness_cuda_session_new (element, setup, teardown, self);
  return &self->parent;
}
