/* Kernels that do no work, for bench-cuda-kernels.
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#ifndef BENCH_FLOOR_H
#define BENCH_FLOOR_H

#include <cuda_runtime.h>

#ifdef __cplusplus
extern "C" {
#endif

/* An empty kernel of @blocks blocks of 256 threads. */
cudaError_t bench_floor_empty (cudaStream_t stream, int blocks);

/* One block writing @v to @out (device address of mapped host memory). */
cudaError_t bench_floor_mapped (cudaStream_t stream, unsigned long long *out,
    unsigned long long v);

/* @blocks blocks ending as the CUDA samples' threadFenceReduction does
 * (atomic add, fence, ticket; the last block reads out into @out and
 * resets @acc and @ticket, both device memory). */
cudaError_t bench_floor_ticket (cudaStream_t stream, int blocks,
    unsigned long long *acc, unsigned *ticket, unsigned long long *out,
    unsigned long long v);

#ifdef __cplusplus
}
#endif
#endif /* BENCH_FLOOR_H */
