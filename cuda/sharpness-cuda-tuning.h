/* The CUDA backend's tuning options: environment variables, read when a
 * per-size state, a scoring service or an element's scorer is made, never
 * per frame.  The defaults are what the measurements chose; the options
 * exist so that a deployment (or a benchmark) can try another setting
 * without a rebuild.  docs/reference/cudasharpness.md#tuning lists them
 * with their values; the docs-tuning test checks that page and the
 * sources against this list.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef SHARPNESS_CUDA_TUNING_H
#define SHARPNESS_CUDA_TUNING_H

/* Anything but "" or "0": no scoring service, each element on its own
 * stream (read when an element's CUDA scorer starts). */
#define SHARPNESS_CUDA_ENV_NO_SERVICE "SHARPNESS_CUDA_NO_SERVICE"

/* The scoring service's rounds in flight at once, each on a stream of its
 * own: 1 to SHARPNESS_CUDA_SERVICE_MAX_LANES (read when a service is
 * made). */
#define SHARPNESS_CUDA_ENV_SERVICE_LANES "SHARPNESS_CUDA_SERVICE_LANES"

/* Threads of a context launching unbatched work at once: 1 to
 * SHARPNESS_CUDA_SERVICE_MAX_GUESTS (read when a service is made). */
#define SHARPNESS_CUDA_ENV_SERVICE_GUESTS "SHARPNESS_CUDA_SERVICE_GUESTS"

/* LPC-SI and CWTVNRS: orientations per inverse cuFFT call, 1, 2, 4 or 8
 * instead of the largest that fits (read when a per-size state is made). */
#define SHARPNESS_CUDA_ENV_LPC_BATCH "SHARPNESS_CUDA_LPC_BATCH"

/* 1: LPC-SI and CWTVNRS launch their kernels one by one instead of as one
 * CUDA graph per frame (read when a per-size state is made). */
#define SHARPNESS_CUDA_ENV_NO_GRAPH "SHARPNESS_CUDA_NO_GRAPH"

#endif /* SHARPNESS_CUDA_TUNING_H */
