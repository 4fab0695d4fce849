/* What every backend of the plugin's elements has, whatever it computes:
 * open on a device, close, context sharing and the pools it offers
 * upstream.  The sharpness scorer (sharpness-scorer.h) and the compare
 * backends (compare-backend.h) extend it with their own entry point, so
 * that the elements' device choice (sharpness-backend-choice.h) and the
 * CUDA session glue (sharpness-cuda-backend.h) are written once.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SHARPNESS_BACKEND_H
#define SHARPNESS_BACKEND_H

#include <gst/gst.h>

G_BEGIN_DECLS

/* Domain of the errors of every backend; messages are a reason a user can
 * act on. */
#define SHARPNESS_BACKEND_ERROR (sharpness_backend_error_quark ())
GQuark sharpness_backend_error_quark (void);

typedef enum
{
  /* open: no CUDA context could be made for the requested device. */
  SHARPNESS_BACKEND_ERROR_NO_DEVICE,
  /* run: the frame could not be mapped (too small for its caps, bad
   * video meta). */
  SHARPNESS_BACKEND_ERROR_MAP,
  /* run: the metric refused the frame; the message is
   * sharpness_status_to_string() of its status. */
  SHARPNESS_BACKEND_ERROR_METRIC,
  /* run: this frame failed on the device; later ones may not. */
  SHARPNESS_BACKEND_ERROR_FRAME,
  /* run: the CUDA context hit a sticky error (an illegal address, maybe
   * from another element sharing it) and is unusable until closed. */
  SHARPNESS_BACKEND_ERROR_DEVICE_LOST
} SharpnessBackendError;

typedef struct _SharpnessBackend SharpnessBackend;

/* The first member of a backend kind's class struct.  Only open, close,
 * is_open and free are required. */
typedef struct
{
  const gchar *name;
  /* @device_id: CUDA device, -1 for any (ignored by the CPU).  Errors:
   * SHARPNESS_BACKEND_ERROR. */
  gboolean (*open) (SharpnessBackend * backend, gint device_id,
      GError ** error);
  void (*close) (SharpnessBackend * backend);
  gboolean (*is_open) (SharpnessBackend * backend);
  void (*set_context) (SharpnessBackend * backend, GstContext * context,
      gint device_id);
  gboolean (*handle_context_query) (SharpnessBackend * backend,
      GstQuery * query);
  gboolean (*propose_allocation) (SharpnessBackend * backend,
      GstQuery * query);
  void (*free) (SharpnessBackend * backend);
} SharpnessBackendClass;

/* The first member of a backend kind's instance struct. */
struct _SharpnessBackend
{
  const SharpnessBackendClass *klass;
  GstElement *element;          /* owner, not reffed: queries, messages */
};

#define SHARPNESS_BACKEND(b) ((SharpnessBackend *) (b))

/* The functions below accept NULL (no such backend) except open. */
gboolean sharpness_backend_open (SharpnessBackend * backend, gint device_id,
    GError ** error);
void sharpness_backend_close (SharpnessBackend * backend);
gboolean sharpness_backend_is_open (SharpnessBackend * backend);
/* GstElement::set_context. */
void sharpness_backend_set_context (SharpnessBackend * backend,
    GstContext * context, gint device_id);
/* GST_QUERY_CONTEXT; FALSE when not answered. */
gboolean sharpness_backend_handle_context_query (SharpnessBackend * backend,
    GstQuery * query);
/* After downstream answered @query (an in-place element forwards it):
 * adds what the backend offers upstream.  TRUE when it added something. */
gboolean sharpness_backend_propose_allocation (SharpnessBackend * backend,
    GstQuery * query);
void sharpness_backend_free (SharpnessBackend * backend);

G_END_DECLS
#endif /* SHARPNESS_BACKEND_H */
