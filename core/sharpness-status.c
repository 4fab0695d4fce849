/* Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "sharpness-status.h"

const char *
sharpness_status_to_string (SharpnessStatus status)
{
  switch (status) {
    case SHARPNESS_OK:
      return "success";
    case SHARPNESS_ERROR_INVALID:
      return "invalid argument";
    case SHARPNESS_ERROR_NO_MEMORY:
      return "out of memory";
    case SHARPNESS_ERROR_UNSUPPORTED:
      return "not supported by this backend";
    case SHARPNESS_ERROR_DEVICE:
      return "CUDA error";
    case SHARPNESS_ERROR_TOO_SMALL:
      return "frame too small for this metric";
  }
  return "unknown error";
}
