/* Compiler hints for the vector loops of the classical metrics.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SHARPNESS_CLASSICAL_SIMD_H
#define SHARPNESS_CLASSICAL_SIMD_H

#include "sharpness-simd.h"

#define SHARPNESS_ALWAYS_INLINE inline __attribute__ ((always_inline))

#endif /* SHARPNESS_CLASSICAL_SIMD_H */
