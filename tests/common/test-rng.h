/* The tests' one random number generator: xorshift64*, small, fast and
 * reproducible on every platform from a seed (unlike rand ()).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 *
 * Header only, plain C99, so that C, CUDA host code and benchmarks can use
 * it without linking anything.  A test prints its seed on failure; tests
 * that take one from the environment read SHARPNESS_TEST_SEED through
 * test_rng_seed_from_env ().
 */
#ifndef TEST_RNG_H
#define TEST_RNG_H

#include <stdint.h>
#include <stdlib.h>

typedef struct
{
  uint64_t state;
} TestRng;

/* A zero state would stay zero: any seed is fine, 0 included. */
static inline void
test_rng_seed (TestRng * rng, uint64_t seed)
{
  rng->state = seed ? seed : 1;
}

/* The same as an initializer: TestRng rng = TEST_RNG_INIT (42); */
#define TEST_RNG_INIT(seed) { (seed) ? (uint64_t) (seed) : 1 }

/* SHARPNESS_TEST_SEED (any strtoull base-0 number) or @fallback. */
static inline uint64_t
test_rng_seed_from_env (uint64_t fallback)
{
  const char *env = getenv ("SHARPNESS_TEST_SEED");
  return env && *env ? strtoull (env, NULL, 0) : fallback;
}

/* The full 64-bit output; its high bits are the best ones. */
static inline uint64_t
test_rng_next (TestRng * rng)
{
  rng->state ^= rng->state >> 12;
  rng->state ^= rng->state << 25;
  rng->state ^= rng->state >> 27;
  return rng->state * 0x2545F4914F6CDD1Dull;
}

/* The top 32 bits. */
static inline uint32_t
test_rng_u32 (TestRng * rng)
{
  return (uint32_t) (test_rng_next (rng) >> 32);
}

/* Uniform in [0, 1) from the top 53 bits. */
static inline double
test_rng_unit (TestRng * rng)
{
  return (double) (test_rng_next (rng) >> 11) / 9007199254740992.0;
}

/* Uniform-ish integer in [@lo, @hi] (modulo bias is irrelevant here). */
static inline int
test_rng_range (TestRng * rng, int lo, int hi)
{
  return lo + (int) (test_rng_u32 (rng) % (uint32_t) (hi - lo + 1));
}

#endif /* TEST_RNG_H */
