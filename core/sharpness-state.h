/* Per-metric scratch kept between frames and rebuilt when the frame size
 * changes: the one "get or rebuild" both backends use.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SHARPNESS_STATE_H
#define SHARPNESS_STATE_H

#include "sharpness-status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Makes the scratch of one metric for @width x @height frames; @backend is
 * the owning SharpnessCpu or SharpnessCuda.  SHARPNESS_ERROR_TOO_SMALL
 * when the frame is smaller than the metric needs, and
 * SHARPNESS_ERROR_UNSUPPORTED when the backend cannot score frames of that
 * size otherwise (too large for its FFT). */
typedef SharpnessStatus (*SharpnessStateNew) (void *backend, int width,
    int height, void **state);
typedef void (*SharpnessStateFree) (void *state);

typedef struct
{
  void *data;
  int width, height;
  SharpnessStateFree free;
} SharpnessStateSlot;

/* The scratch in @slot for @width x @height, made with @state_new (after
 * freeing one of another size) when there is none; NULL with the reason
 * in @status on failure, the slot then being empty. */
void *sharpness_state_get (SharpnessStateSlot * slot, void *backend,
    int width, int height, SharpnessStateNew state_new,
    SharpnessStateFree state_free, SharpnessStatus * status);

/* Frees what @slot holds; it is empty afterwards. */
void sharpness_state_clear (SharpnessStateSlot * slot);

#ifdef __cplusplus
}
#endif
#endif /* SHARPNESS_STATE_H */
