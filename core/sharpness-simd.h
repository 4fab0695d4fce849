/* Compiler hints for the plain-C vector loops (classical metrics, content
 * measures).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SHARPNESS_SIMD_H
#define SHARPNESS_SIMD_H

#include <stdint.h>             /* defines __GLIBC__ where it applies */

/* x86-64 distributions build for SSE2; the row loops run up to 3x faster
 * with AVX2 (wider vectors, byte shuffles for the 3-byte RGB pixels).  So
 * they are compiled twice and the loader picks one per machine (GNU ifunc,
 * hence glibc).  Integer code: both give the same sums.  Defining
 * SHARPNESS_SIMD_CLONES empty builds the baseline only (the tests do, so
 * that both versions are checked on an AVX2 machine). */
#ifndef SHARPNESS_SIMD_CLONES
#if defined(__x86_64__) && defined(__GLIBC__) && defined(__has_attribute)
#if __has_attribute (target_clones)
#define SHARPNESS_SIMD_CLONES __attribute__ ((target_clones ("avx2", "default")))
#endif
#endif
#endif
#ifndef SHARPNESS_SIMD_CLONES
#define SHARPNESS_SIMD_CLONES
#endif

#endif /* SHARPNESS_SIMD_H */
