/* A scoring service's own counters and state: declared apart from
 * sharpness-cuda-service.h, which the elements use, for the tests that
 * watch one service batch and admit (tests/cuda/test-cuda-service.c).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SHARPNESS_CUDA_SERVICE_PRIVATE_H
#define SHARPNESS_CUDA_SERVICE_PRIVATE_H

#include "sharpness-cuda-service.h"

G_BEGIN_DECLS

/* The counters of @service since it was made. */
void sharpness_cuda_service_get_stats (SharpnessCudaService * service,
    SharpnessCudaServiceStats * stats);

/* The service's settings and what it is doing now. */
typedef struct
{
  guint lanes;                  /* SHARPNESS_CUDA_SERVICE_LANES */
  guint guest_slots;            /* SHARPNESS_CUDA_SERVICE_GUESTS */
  guint guests;                 /* threads between enter() and leave() */
  guint guests_waiting;         /* threads asleep in enter() */
} SharpnessCudaServiceState;

void sharpness_cuda_service_get_state (SharpnessCudaService * service,
    SharpnessCudaServiceState * state);

G_END_DECLS
#endif /* SHARPNESS_CUDA_SERVICE_PRIVATE_H */
