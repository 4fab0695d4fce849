/* A backend (sharpness-backend.h) living in a CUDA session
 * (sharpness-cuda-session.h): its common entry points are the session's.
 * The CUDA sharpness scorer and the CUDA compare backend derive from it
 * and add only their kernels' state and entry point.  Compiled only when
 * HAVE_CUDA.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SHARPNESS_CUDA_BACKEND_H
#define SHARPNESS_CUDA_BACKEND_H

#include "sharpness-backend.h"
#include "sharpness-cuda-session.h"

G_BEGIN_DECLS

/* The first member of a CUDA backend's instance struct. */
typedef struct
{
  SharpnessBackend parent;
  SharpnessCudaSession *session;
} SharpnessCudaBackend;

gboolean sharpness_cuda_backend_open (SharpnessBackend * backend,
    gint device_id, GError ** error);
void sharpness_cuda_backend_close (SharpnessBackend * backend);
gboolean sharpness_cuda_backend_is_open (SharpnessBackend * backend);
void sharpness_cuda_backend_set_context (SharpnessBackend * backend,
    GstContext * context, gint device_id);
gboolean sharpness_cuda_backend_handle_context_query (SharpnessBackend *
    backend, GstQuery * query);
gboolean sharpness_cuda_backend_propose_allocation (SharpnessBackend *
    backend, GstQuery * query);
/* Frees the session and the instance (the teardown callback has run). */
void sharpness_cuda_backend_free (SharpnessBackend * backend);

/* The SharpnessBackendClass of a CUDA backend named @name. */
#define SHARPNESS_CUDA_BACKEND_CLASS(name_) {                           \
  .name = (name_),                                                      \
  .open = sharpness_cuda_backend_open,                                  \
  .close = sharpness_cuda_backend_close,                                \
  .is_open = sharpness_cuda_backend_is_open,                            \
  .set_context = sharpness_cuda_backend_set_context,                    \
  .handle_context_query = sharpness_cuda_backend_handle_context_query,  \
  .propose_allocation = sharpness_cuda_backend_propose_allocation,      \
  .free = sharpness_cuda_backend_free,                                  \
}

/* A zeroed instance of @instance_size bytes (a struct starting with a
 * SharpnessCudaBackend) of class @klass, owned by @element, whose session
 * calls @setup and @teardown with the instance as user data.  NULL when no
 * CUDA driver is usable. */
SharpnessBackend *sharpness_cuda_backend_new (gsize instance_size,
    const SharpnessBackendClass * klass, GstElement * element,
    SharpnessCudaSetup setup, SharpnessCudaTeardown teardown);

G_END_DECLS
#endif /* SHARPNESS_CUDA_BACKEND_H */
