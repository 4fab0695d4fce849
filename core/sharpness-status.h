/* Status codes shared by the backends.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SHARPNESS_STATUS_H
#define SHARPNESS_STATUS_H

#ifdef __cplusplus
extern "C" {
#endif

typedef enum
{
  SHARPNESS_OK = 0,
  SHARPNESS_ERROR_INVALID,      /* bad arguments (NULL plane, unknown metric) */
  SHARPNESS_ERROR_NO_MEMORY,    /* scratch allocation failed */
  SHARPNESS_ERROR_UNSUPPORTED,  /* the backend cannot do this metric/layout */
  SHARPNESS_ERROR_DEVICE,       /* a CUDA call failed; see the backend's message */
  SHARPNESS_ERROR_TOO_SMALL     /* the frame is smaller than the metric needs
                                 * (BLIINDS-II: SHARPNESS_BLIINDS2_MIN_SIZE) */
} SharpnessStatus;

const char *sharpness_status_to_string (SharpnessStatus status);

#ifdef __cplusplus
}
#endif
#endif /* SHARPNESS_STATUS_H */
