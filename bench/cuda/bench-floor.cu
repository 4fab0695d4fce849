/* Kernels that do no work, for bench-cuda-kernels: what one frame costs
 * before it reads a byte (launch, a write to mapped host memory, the
 * fence-and-ticket ending of a grid, stream synchronisation).
 *
 * Copyright (C) 2026 The gst-sharpness authors
 * SPDX-License-Identifier: LGPL-2.1-or-later
 */
#include "bench-floor.h"

namespace
{

__global__ void
empty_kernel ()
{
}

__global__ void
mapped_kernel (unsigned long long *out, unsigned long long v)
{
  if (threadIdx.x == 0 && blockIdx.x == 0)
    *out = v;
}

/* Every block adds, fences and takes a ticket; the last reads out. */
__global__ void
ticket_kernel (unsigned long long *acc, unsigned *ticket,
    unsigned long long *out, unsigned long long v)
{
  __shared__ bool last;
  if (threadIdx.x == 0) {
    atomicAdd (acc, 1ull);
    __threadfence ();
    last = atomicAdd (ticket, 1u) == gridDim.x - 1;
  }
  __syncthreads ();
  if (last && threadIdx.x == 0) {
    __threadfence ();
    *out = atomicExch (acc, 0ull) + v;
    *ticket = 0;
  }
}

}  /* namespace */

cudaError_t
bench_floor_empty (cudaStream_t stream, int blocks)
{
  empty_kernel <<< blocks, 256, 0, stream >>> ();
  return cudaGetLastError ();
}

cudaError_t
bench_floor_mapped (cudaStream_t stream, unsigned long long *out,
    unsigned long long v)
{
  mapped_kernel <<< 1, 256, 0, stream >>> (out, v);
  return cudaGetLastError ();
}

cudaError_t
bench_floor_ticket (cudaStream_t stream, int blocks, unsigned long long *acc,
    unsigned *ticket, unsigned long long *out, unsigned long long v)
{
  ticket_kernel <<< blocks, 256, 0, stream >>> (acc, ticket, out, v);
  return cudaGetLastError ();
}
