/* Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "sharpness-state.h"

#include <stddef.h>

void
sharpness_state_clear (SharpnessStateSlot * slot)
{
  if (slot->data && slot->free)
    slot->free (slot->data);
  slot->data = NULL;
  slot->free = NULL;
  slot->width = slot->height = 0;
}

void *
sharpness_state_get (SharpnessStateSlot * slot, void *backend, int width,
    int height, SharpnessStateNew state_new, SharpnessStateFree state_free,
    SharpnessStatus * status)
{
  *status = SHARPNESS_OK;
  if (slot->data && slot->width == width && slot->height == height)
    return slot->data;

  /* Free first: at 8K the old and new scratch together may not fit. */
  sharpness_state_clear (slot);
  void *data = NULL;
  *status = state_new (backend, width, height, &data);
  if (*status != SHARPNESS_OK || !data) {
    if (*status == SHARPNESS_OK)
      *status = SHARPNESS_ERROR_NO_MEMORY;
    if (data && state_free)
      state_free (data);
    return NULL;
  }
  slot->data = data;
  slot->free = state_free;
  slot->width = width;
  slot->height = height;
  return data;
}
