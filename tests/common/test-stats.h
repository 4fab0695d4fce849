/* qsort comparators for the tests' medians and the benchmarks'
 * percentiles.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Header only, plain C, like test-rng.h: benchmarks and CUDA host code
 * use it without linking anything.
 */
#ifndef TEST_STATS_H
#define TEST_STATS_H

#include <stdint.h>

/* Ascending doubles (no NaN among them). */
static inline int
test_cmp_double (const void *a, const void *b)
{
  const double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* Ascending unsigned 64-bit counts (nanoseconds, say). */
static inline int
test_cmp_u64 (const void *a, const void *b)
{
  const uint64_t x = *(const uint64_t *) a, y = *(const uint64_t *) b;
  return (x > y) - (x < y);
}

#endif /* TEST_STATS_H */
